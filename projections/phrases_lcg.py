"""The Lord of the Rings LCG in sentences: one phrase per event type (see projections/story.py).

Heroes and the quest card are named without their uid (a hero is unique at the table, and
there is one quest card in play); every other card is ``Name#uid``. The quest card is named
by the side it shows: both stage 3A cards read "A Chosen Path" until one turns to side B.
"""

from __future__ import annotations

from typing import Any

from domain.lcg.cards import CARDS
from domain.lcg.scenarios import scenario
from projections import phrases_shared as shared
from projections.phrases_hobbit import PHRASES as HOBBIT_PHRASES
from projections.phrases_lcg_events import PHRASES as EVENT_CARD_PHRASES
from projections.phrases_lcg_hunt import PHRASES as HUNT_PHRASES
from projections.story import (
    Phrasebook,
    Said,
    a_or_n,
    join,
    plural,
    possessive,
    register,
    words,
)

_PLAIN_TYPES = frozenset({"hero", "quest"})


def name(state: Any, uid: int) -> str | None:
    card = state.cards.get(uid)
    if card is None:
        return None
    d = CARDS[card.code]
    if d.type == "quest":
        return d.name_a or d.name if card.face == "A" else d.name
    return d.name if d.type in _PLAIN_TYPES else None


_SHARED_ZONES = {
    "staging": "the staging area",
    "active": "the active location",
    "quest": "the quest",
    "quest.done": "the defeated quest stages",
    "quest.deck": "the quest deck",
    "quest.unused": "the unused quest cards",
    "encounter.deck": "the encounter deck",
    "encounter.discard": "the encounter discard pile",
    "victory": "the victory display",
    "revealed": "the revealed encounter cards",
    "shadows": "the shadow cards",
    "attachments": "the attachments",
    "set-aside": "the cards set aside",
    "set-aside.face-up": "the cards set aside face up",
    "removed": "the cards removed from the game",
    "treasures": "the treasures face down under The Lonely Mountain",
    "corsair.deck": "the Corsair deck",
    "corsair.discard": "the Corsair discard pile",
    "setup": "the setup area (in play)",
}
_PLAYER_ZONES = {
    "hand": "hand",
    "deck": "deck",
    "discard": "discard pile",
    "heroes": "heroes",
    "allies": "allies",
    "engaged": "engagement area",
    "prisoner": "prisoner, face down",
    "shackles": "deck (on top of it)",
    "under": "cards face down under Orc Guards",
    "burgle": "card turned up by the burgle attempt",
    "contract": "contract",
}


def zone(key: str) -> str:
    return shared.zone_words(key, _SHARED_ZONES, _PLAYER_ZONES)


def _payments(said: Said) -> list[str]:
    """``2 from Aragorn`` for each payment the reader may see."""
    return [f"{amount} from {said.named(uid)}" for uid, amount in said.get("payments") or () if said.sees(uid)]


def _stage(said: Said, uid: int | None) -> str:
    """``stage 1A`` of a quest card the reader sees (its stage number is printed)."""
    if uid is None:
        return "a quest stage"
    card = said.state.cards.get(uid)
    if card is None:
        return "a quest stage"
    return f"stage {CARDS[card.code].stage}{card.face}"


# -- setup ------------------------------------------------------------------------------------


def game_created(said: Said) -> str:
    options = said.get("options") or {}
    seats = list(said.get("seats") or ())
    try:
        title = scenario(options.get("scenario", "")).title
    except KeyError:
        title = words(str(options.get("scenario", "the LCG")))
    how = [str(options.get("difficulty", "standard"))]
    if said.get("seed") is not None:
        how.append(f"seed {said.get('seed')}")
    lineups = []
    for seat, setup in zip(seats, options.get("players") or (), strict=False):
        heroes = [CARDS[code].name if code in CARDS else code for code in setup.get("heroes", ())]
        lineups.append(f"{seat} with {join(heroes)}")
    return f"a game of {title} begins ({', '.join(how)}): {'; '.join(lineups) or join(seats)}"


def position_set(said: Said) -> str:
    where = f"round {said.get('round')}" + (f", {said.get('phase')} phase" if said.get("phase") else "")
    return shared.laid_out(said, f"{where}, {said.get('first')} first")


def cards_created(said: Said) -> str:
    """Heroes by name, the other piles counted (a reader who may not see a card sees only
    how many such cards there are)."""
    seen: dict[str, list[str]] = {}
    for item in said.get("cards") or ():
        uid, _code, where = item[0], item[1], item[2]
        if said.sees(uid):
            seen.setdefault(where, []).append(said.named(uid))
    hidden = int(said.get("cards_hidden", 0) or 0)
    total = sum(len(v) for v in seen.values()) + hidden
    parts = []
    for where, names in seen.items():
        if where.endswith(".heroes"):
            parts.append(f"{zone(where)} {join(names)}")
        else:
            parts.append(f"{len(names)} in {zone(where)}")
    if hidden:
        parts.append(f"{a_or_n(hidden, 'face-down card')}")
    return f"{plural(total, 'card')} come to the table: {'; '.join(parts)}"


def threat_set(said: Said) -> str:
    return f"{said.get('player')} starts with threat {said.get('threat')}"


def character_discarded(said: Said) -> str:
    return f"{said.card('card')} leaves play, discarded to its owner's discard pile"


def shuffled_into_deck(said: Said) -> str:
    return f"{said.card('card')} leaves play and is shuffled into {zone(str(said.get('zone')))}"


# -- moving cards -------------------------------------------------------------------------------


def card_moved(said: Said) -> str:
    to = str(said.get("to"))
    card = said.card("card")
    seat, _, rest = to.partition(".")
    if to == "staging":
        return f"{card} is added to the staging area"
    if rest == "hand":
        return f"{card} is returned to {seat}'s hand"
    if rest == "allies":
        return f"{card} is put into play under {seat}'s control"
    if rest == "deck" or to == "encounter.deck":
        side = "on top of" if said.get("top") else "at the bottom of"
        return f"{card} is put {side} {zone(to)}"
    return f"{card} moves to {zone(to)}"


def cards_discarded(said: Said) -> str:
    return shared.to_piles(said, "discarded")


# -- tokens and states --------------------------------------------------------------------------


def resources_added(said: Said) -> str:
    cards = said.cards("cards")
    amount = plural(int(said.get("amount", 1)), "resource")
    if cards.count == 1:
        return f"{cards.text()} gains {amount}"
    return f"{cards.text()} each gain {amount}"


def resources_paid(said: Said) -> str:
    payments = [(said.named(uid), amount) for uid, amount in said.get("payments") or () if said.sees(uid)]
    if not payments:
        return "resources are spent"
    first, amount = payments[0]
    rest = [f"{who} {n}" for who, n in payments[1:]]
    return f"{first} spends {plural(amount, 'resource')}" + (f", {join(rest)}" if rest else "")


def damage_dealt(said: Said) -> str:
    return f"{said.card('card')} takes {said.get('amount')} damage"


def damage_healed(said: Said) -> str:
    return f"{said.card('card')} heals {said.get('amount')} damage"


def progress_placed(said: Said) -> str:
    amount = int(said.get("amount", 0))
    return f"{plural(amount, 'progress token')} {'is' if amount == 1 else 'are'} placed on {said.card('card')}"


def cards_exhausted(said: Said) -> str:
    cards = said.cards("cards")
    return f"{cards.text()} {cards.be()} exhausted"


def cards_readied(said: Said) -> str:
    cards = said.cards("cards")
    return f"{cards.text()} {cards.be()} readied"


def threat_raised(said: Said) -> str:
    player, amount = said.get("player"), int(said.get("amount", 0))
    now = said.state.players[player].threat if player in said.state.players else None
    verb = "raises" if amount >= 0 else "lowers"
    return f"{player} {verb} their threat by {abs(amount)}" + (f" (now {now})" if now is not None else "")


def surge_gained(said: Said) -> str:
    return f"{said.card('card')} gains surge"


# -- the round ----------------------------------------------------------------------------------


def phase_began(said: Said) -> str:
    return f"the {said.get('phase')} phase begins"


def ally_played(said: Said) -> str:
    paid = _payments(said)
    cost = f", paying {join(paid)}" if paid else " at no cost"
    return f"{said.get('player')} plays {said.card('card')}{cost}"


def characters_committed(said: Said) -> str:
    cards = said.cards("cards")
    return f"{said.get('player')} commits {cards.text()} to the quest"


def removed_from_quest(said: Said) -> str:
    return f"{said.card('card')} is removed from the quest"


def quest_resolved(said: Said) -> str:
    return f"the quest: willpower {said.get('willpower')} against threat {said.get('threat')}"


def encounter_card_revealed(said: Said) -> str:
    return f"{said.card('card', 'an encounter card')} is revealed"


def quest_stage_revealed(said: Said) -> str:
    uid = said.uid("card")
    card = said.card("card", "a quest card")
    if said.get("side") == "A":
        return f"the quest is now {_stage(said, uid)}: {card}"
    return f"the quest card turns to {_stage(said, uid)}: {card}"


def quest_stage_defeated(said: Said) -> str:
    uid = said.uid("card")
    return f"{_stage(said, uid)}, {said.card('card', 'the quest card')}, is defeated"


def location_traveled(said: Said) -> str:
    return f"the players travel to {said.card('card', 'a location')}"


def location_explored(said: Said) -> str:
    to = said.get("to")
    where = " and goes to the victory display" if to == "victory" else ""
    return f"{said.card('card', 'a location')} is explored{where}"


def enemy_engaged(said: Said) -> str:
    return f"{said.card('enemy', 'an enemy')} engages {said.get('player')}"


def shadow_card_dealt(said: Said) -> str:
    enemy = said.card("enemy", "an enemy")
    if said.uid("card") is None:
        return f"{enemy} is dealt a face-down shadow card"
    return f"{enemy} is dealt a shadow card, face down: {said.card('card')}"


def attack_declared(said: Said) -> str:
    return f"{said.card('enemy', 'an enemy')} attacks {said.get('player')}"


def defender_declared(said: Said) -> str:
    enemy = said.card("enemy", "an enemy")
    attack = said.state.attack
    target = f" {attack.player}" if attack is not None else ""
    if said.get("defender") is None:
        return f"{enemy} attacks{target}; nobody defends"
    if attack is not None and attack.defenders and attack.defenders[0] != said.get("defender"):
        return f"{said.card('defender')} also defends against {enemy}"
    return f"{enemy} attacks{target}; {said.card('defender')} defends"


def shadow_card_revealed(said: Said) -> str:
    return f"{possessive(said.card('enemy', 'an enemy'))} shadow card is revealed: {said.card('card')}"


def attackers_declared(said: Said) -> str:
    attackers = said.cards("attackers")
    return f"{said.get('player')} attacks {said.card('enemy', 'an enemy')} with {attackers.text()}"


def attack_resolved(said: Said) -> str:
    enemy = said.card("enemy", "an enemy")
    if said.get("by_enemy"):
        return f"{possessive(enemy)} attack is over"
    return f"the attack on {enemy} is over"


def character_destroyed(said: Said) -> str:
    return f"{said.card('card', 'a character')} is destroyed"


def enemy_defeated(said: Said) -> str:
    to = said.get("to")
    where = " and goes to the victory display" if to == "victory" else ""
    return f"{said.card('enemy', 'an enemy')} is defeated{where}"


def attachment_attached(said: Said) -> str:
    return f"{said.card('card')} is attached to {said.card('to')}"


def attachment_played(said: Said) -> str:
    paid = _payments(said)
    cost = f", paying {join(paid)}" if paid else " at no cost"
    return f"{said.get('player')} attaches {said.card('card')} to {said.card('to')}{cost}"


def control_given(said: Said) -> str:
    return f"{said.get('player')} takes control of {said.card('card')}"


def first_player_passed(said: Said) -> str:
    return f"{said.get('player')} becomes the first player"


_ELIMINATED = {"threat": "their threat reached 50", "heroes": "all their heroes are destroyed"}


def player_eliminated(said: Said) -> str:
    reason = str(said.get("reason"))
    return f"{said.get('player')} is eliminated: {_ELIMINATED.get(reason, words(reason))}"


def card_looked_at(said: Said) -> str:
    return f"{said.get('player')} looks at {said.card('card', 'a face-down card')}"


# -- the kernel's events, as this game tells them --------------------------------------------------

_LOST = {
    "threat": "the last player in the game was eliminated by threat",
    "heroes": "the last player in the game lost all their heroes",
}


_WON = {
    "beorns-path": "stage 3B, Beorn's Path, is defeated",
    "ungoliants-spawn-defeated": "Ungoliant's Spawn is defeated",
}


def outcome_text(result: str, reason: str) -> str:
    """``GAME OVER: the players lose (the last player in the game was eliminated by threat)``."""
    if result == "won":
        return f"GAME OVER: the players win ({_WON.get(reason, words(reason))})"
    if result == "lost":
        return f"GAME OVER: the players lose ({_LOST.get(reason, words(reason))})"
    return f"GAME OVER: {words(result)} ({words(reason)})"


def game_ended(said: Said) -> str:
    o = said.get("outcome") or {}
    return outcome_text(str(o.get("result", "")), str(o.get("reason", "")))


def delayed_effect_scheduled(said: Said) -> str:
    d = said.get("delayed") or {}
    code, _, effect = str(d.get("node", "")).partition(".")
    what = f"{possessive(CARDS[code].name)} “{words(effect)}”" if code in CARDS else words(str(d.get("node", "")))
    return f"{what} will follow at the end of the {d.get('at')}"


# -- the Core scenarios' own events (domain/lcg/encounter_events.py) ----------------------------


def phase_ended(said: Said) -> str:
    return f"the {said.get('phase')} phase ends"


def shadow_effect_resolved(said: Said) -> str:
    return f"the shadow effect of {said.card('card', 'a shadow card')} on {said.card('enemy', 'an enemy')} has resolved"


def guard_placed(said: Said) -> str:
    return f"{said.card('card', 'an encounter card')} guards {said.card('objective', 'an objective')}"


def guards_released(said: Said) -> str:
    cards = said.cards("cards")
    return f"{cards.text()} no longer {cards.be('guards', 'guard')} an objective"


def objective_claimed(said: Said) -> str:
    return f"{said.get('player')} claims {said.card('card', 'an objective')} and attaches it to {said.card('to')}"


def objective_returned(said: Said) -> str:
    return f"{said.card('card', 'an objective')} is detached and returns to the staging area"


def progress_removed(said: Said) -> str:
    amount = int(said.get("amount", 0))
    return f"{plural(amount, 'progress token')} {'is' if amount == 1 else 'are'} removed from {said.card('card')}"


def hero_captured(said: Said) -> str:
    return f"{said.card('card')} is taken prisoner and turned face down"


def hero_rescued(said: Said) -> str:
    return f"{said.card('card')} is rescued and turned face up"


def orc_guard_made(said: Said) -> str:
    return f"the top card of {said.get('player')}'s deck becomes {said.card('guard', 'an Orc Guard')}, face down"


def orc_guard_removed(said: Said) -> str:
    card = said.card("card", "its face-down card")
    return f"{said.card('guard', 'an Orc Guard')} leaves play; {card} goes to its owner's discard pile"


# -- what another seat decides, and the options of questions a reader was not shown -------------

_ASKS = {
    "lcg.setup": "how to set up the game",
    "lcg.setup.mulligan": "whether to keep their opening hand",
    "lcg.resource": "what to do in the resource phase",
    "lcg.planning": "what to do in the planning phase",
    "lcg.planning.play-ally": "which card to play",
    "lcg.planning.attach": "where to attach an attachment",
    "lcg.planning.pay": "which heroes pay for a card",
    "lcg.event.pay": "which heroes pay for an event",
    "lcg.event.x": "how much to pay for an event's X",
    "lcg.event.response": "whether to play an event in response",
    "lcg.quest": "what to do in the quest phase",
    "lcg.quest.commit": "which characters to commit to the quest",
    "lcg.travel": "where the players travel",
    "lcg.encounter": "what to do in the encounter phase",
    "lcg.encounter.optional-engagement": "whether to engage an enemy",
    "lcg.encounter.engagement-check": "which enemy engages them first",
    "lcg.combat": "what to do in the combat phase",
    "lcg.combat.declare-defender": "who defends against an attack",
    "lcg.combat.declare-defenders": "who defends against an attack",
    "lcg.combat.undefended-damage": "which hero takes the damage of an undefended attack",
    "lcg.combat.player-attack": "which characters attack an enemy",
    "lcg.combat.player-attacks": "which enemy to attack",
    "lcg.combat.staging-attack": "whether to attack an enemy in the staging area",
    "lcg.keyword.archery": "where archery damage goes",
    "lcg.keyword.boarding": "how a Boarding enemy engages",
    "lcg.forced": "the order of Forced effects that happen at once",
    "lcg.response": "whether to use a response",
    "lcg.refresh": "what to do in the refresh phase",
    "lcg.burgle": "how to make a burgle attempt",
    "lcg.keyword": "how a keyword resolves",
    "lcg.epic": "how an effect from another group resolves",
    "lcg.game": "how the round goes",
    "lcg.round": "how the round goes",
    "lcg.damage": "how damage is dealt",
    "lcg.draw": "which cards to draw",
    "lcg.explore": "how a location is explored",
    "lcg.location": "how a location is explored",
    "thftd.setup": "how to prepare their fleet",
    "thftd.setup.fleet": "which ship to take at setup",
    "orc-guard": "what an Orc Guard's Forced effect does",
}
"""What a decision under each rule key is about (the longest known prefix counts)."""

_PHASES = {
    "resource": "resource",
    "planning": "planning",
    "quest": "quest",
    "travel": "travel",
    "encounter": "encounter",
    "combat": "combat",
    "refresh": "refresh",
}

_ABILITIES = {
    "response": "response",
    "action": "action",
    "forced": "Forced effect",
    "when-revealed": "When Revealed effect",
    "shadow": "shadow effect",
    "travel": "Travel cost",
    "setup": "setup",
    "burgle": "burgle effect",
}


def asks(rule: str) -> str:
    """What a decision under ``rule`` is about: a card's ability (``core-001.response``:
    "on Aragorn's response"), an action window ("whether to take an action in the combat
    phase"), or a step of the rules by its longest known prefix."""
    head, _, rest = rule.partition(".")
    if head in CARDS:
        ability = rest.split(".")[0]
        return f"on {possessive(CARDS[head].name)} {_ABILITIES.get(ability, words(ability) or 'text')}"
    parts = rule.split(".")
    if head == "lcg" and "window" in parts:
        if parts[1] == "burgle":
            return "whether to take an action during the burgle attempt, before the discard"
        phase = _PHASES.get(parts[1]) if len(parts) > 1 else None
        return f"whether to take an action in the {phase} phase" if phase else "whether to take an action"
    for n in range(len(parts), 0, -1):
        found = _ASKS.get(".".join(parts[:n]))
        if found is not None:
            return found
    return "a question of the rules"


_OPTIONS = {
    "mulligan": "to take a mulligan",
    "undefended": "to leave the attack undefended",
    "free": "to pay nothing",
    "bottom": "to move it to the bottom",
    "each": "that each player lowers their threat by 2",
    "threat": "to raise their threat",
    "again": "that the attacking enemy attacks again",
    "boarding": "that it gains Boarding 1",
    "hand": "to add it to their hand",
    "draw": "to draw cards",
    "damage": "to deal damage",
    "stage-4": "to advance to stage 4A",
    "smaug": "to remove 1 progress from Smaug",
    "pay": "to spend Bilbo Baggins's resources",  # Pretending to Sleep (The Lonely Mountain)
    "none": "to use none of them",
    "discard": "to discard the matching cards",
    "fail": "to discard nothing (the attempt fails)",
    "here": "this group",
    "mountain": "to use The Lonely Mountain",
    "play": "to play it",
    "defense": "+1 Defense",
    "willpower": "+1 Willpower",
}


_RULE_OPTIONS = {
    ("thftd-034.response", "yes"): "to pay 5 resources together to repair and upgrade a ship",  # Belfalas Shipyard
    ("thftd-034.response", "no"): "not to pay",
    ("lcg.event.response", "yes"): "to play it",  # an event played in response (Hasty Stroke)
}
"""Options whose words depend on the question: a ``yes`` that is not a plain Yes."""


def option(said: Said, choice: str) -> str | None:
    """An LCG option id in words: a way to pay (``34:1,35:1`` "to pay 1 from Aragorn and 1
    from Gimli"), a Forced effect to resolve first (``forced-0``), a word the rules use."""
    rule = said.rule_asked()
    if (rule, choice) in _RULE_OPTIONS:
        return _RULE_OPTIONS[rule, choice]
    if rule == "core-046.action" and choice != "each":  # The Galadhrim's Greeting: a seat
        return f"that {choice} lowers their threat by 6"
    if choice == "keep":  # a setup hand kept (domain/lcg/rules/setup.py), or a top card left (heroes.py)
        return "to keep their hand" if rule == "lcg.setup.mulligan" else "to leave it on top"
    if choice in _OPTIONS:
        return _OPTIONS[choice]
    kind, _, place = choice.partition("-")
    if kind in ("forced", "response") and place.isdigit():  # domain/lcg/rules/triggers.py, _ident
        return f"the {'Forced effect' if kind == 'forced' else 'response'} to resolve next"
    ways = [part.partition(":") for part in choice.split(",")]
    if all(uid.isdigit() and amount.isdigit() for uid, _, amount in ways):
        paid = [f"{amount} from {said.named(int(uid))}" for uid, _, amount in ways]
        return f"to pay {join(paid)}"
    return None


BOOK = register(
    Phrasebook(
        game="lcg",
        name=name,
        zone=zone,
        asks=asks,
        option=option,
        phrases={
            "GameCreated": game_created,
            "PhaseEnded": phase_ended,
            "RoundEnded": shared.round_ended,
            "ShadowEffectResolved": shadow_effect_resolved,
            "GuardPlaced": guard_placed,
            "GuardsReleased": guards_released,
            "ObjectiveClaimed": objective_claimed,
            "ObjectiveReturned": objective_returned,
            "ProgressRemoved": progress_removed,
            "HeroCaptured": hero_captured,
            "HeroRescued": hero_rescued,
            "OrcGuardMade": orc_guard_made,
            "OrcGuardRemoved": orc_guard_removed,
            "PositionSet": position_set,
            "CardsCreated": cards_created,
            "ThreatSet": threat_set,
            "DeckShuffled": shared.deck_shuffled,
            "ShuffledIntoDeck": shuffled_into_deck,
            "CharacterDiscarded": character_discarded,
            "CardMoved": card_moved,
            "CardsDiscarded": cards_discarded,
            "CardsDrawn": shared.cards_drawn,
            "ResourcesAdded": resources_added,
            "ResourcesPaid": resources_paid,
            "DamageDealt": damage_dealt,
            "DamageHealed": damage_healed,
            "ProgressPlaced": progress_placed,
            "CardsExhausted": cards_exhausted,
            "CardsReadied": cards_readied,
            "ThreatRaised": threat_raised,
            "SurgeGained": surge_gained,
            "RoundBegan": shared.round_began,
            "PhaseBegan": phase_began,
            "AllyPlayed": ally_played,
            "CharactersCommitted": characters_committed,
            "RemovedFromQuest": removed_from_quest,
            "QuestResolved": quest_resolved,
            "EncounterCardRevealed": encounter_card_revealed,
            "QuestStageRevealed": quest_stage_revealed,
            "QuestStageDefeated": quest_stage_defeated,
            "LocationTraveled": location_traveled,
            "LocationExplored": location_explored,
            "EnemyEngaged": enemy_engaged,
            "ShadowCardDealt": shadow_card_dealt,
            "AttackDeclared": attack_declared,
            "DefenderDeclared": defender_declared,
            "ShadowCardRevealed": shadow_card_revealed,
            "AttackersDeclared": attackers_declared,
            "AttackResolved": attack_resolved,
            "CharacterDestroyed": character_destroyed,
            "EnemyDefeated": enemy_defeated,
            "AttachmentAttached": attachment_attached,
            "AttachmentPlayed": attachment_played,
            "ControlGiven": control_given,
            "AbilityTriggered": shared.ability_used,
            "FirstPlayerPassed": first_player_passed,
            "PlayerEliminated": player_eliminated,
            "CardLookedAt": card_looked_at,
            "GameEnded": game_ended,
            "DelayedEffectScheduled": delayed_effect_scheduled,
        },
    )
)

BOOK.phrases.update(EVENT_CARD_PHRASES)
BOOK.phrases.update(HUNT_PHRASES)
BOOK.phrases.update(HOBBIT_PHRASES)
