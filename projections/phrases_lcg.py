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
from projections.i18n import N_, _, card_name, nsay, say
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
    scope_end,
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
    "staging": N_("the staging area"),
    "active": N_("the active location"),
    "quest": N_("the quest"),
    "quest.done": N_("the defeated quest stages"),
    "quest.deck": N_("the quest deck"),
    "quest.unused": N_("the unused quest cards"),
    "encounter.deck": N_("the encounter deck"),
    "encounter.discard": N_("the encounter discard pile"),
    "victory": N_("the victory display"),
    "revealed": N_("the revealed encounter cards"),
    "shadows": N_("the shadow cards"),
    "attachments": N_("the attachments"),
    "set-aside": N_("the cards set aside"),
    "set-aside.face-up": N_("the cards set aside face up"),
    "removed": N_("the cards removed from the game"),
    "treasures": N_("the treasures face down under The Lonely Mountain"),
    "corsair.deck": N_("the Corsair deck"),
    "corsair.discard": N_("the Corsair discard pile"),
    "setup": N_("the setup area (in play)"),
}
_PLAYER_ZONES = {
    "hand": N_("hand"),
    "deck": N_("deck"),
    "discard": N_("discard pile"),
    "heroes": N_("heroes"),
    "allies": N_("allies"),
    "engaged": N_("engagement area"),
    "prisoner": N_("prisoner, face down"),
    "shackles": N_("deck (on top of it)"),
    "under": N_("cards face down under Orc Guards"),
    "burgle": N_("card turned up by the burgle attempt"),
    "contract": N_("contract"),
}


def zone(key: str) -> str:
    return shared.zone_words(key, _SHARED_ZONES, _PLAYER_ZONES)


def _payments(said: Said) -> list[str]:
    """``2 from Aragorn`` for each payment the reader may see."""
    return [
        say("%(amount)s from %(card)s", amount=amount, card=said.named(uid))
        for uid, amount in said.get("payments") or ()
        if said.sees(uid)
    ]


def _stage(said: Said, uid: int | None) -> str:
    """``stage 1A`` of a quest card the reader sees (its stage number is printed)."""
    if uid is None:
        return _("a quest stage")
    card = said.state.cards.get(uid)
    if card is None:
        return _("a quest stage")
    return say("stage %(stage)s", stage=f"{CARDS[card.code].stage}{card.face}")


DIFFICULTIES = {"easy": N_("easy"), "standard": N_("standard"), "nightmare": N_("nightmare"), "normal": N_("normal")}

# -- setup ------------------------------------------------------------------------------------


def game_created(said: Said) -> str:
    options = said.get("options") or {}
    seats = list(said.get("seats") or ())
    try:
        title = card_name(scenario(options.get("scenario", "")).title)
    except KeyError:
        title = words(str(options.get("scenario", ""))) or _("the LCG")
    difficulty = str(options.get("difficulty", "standard"))
    how = [_(DIFFICULTIES[difficulty]) if difficulty in DIFFICULTIES else difficulty]
    if said.get("seed") is not None:
        how.append(say("seed %(seed)s", seed=said.get("seed")))
    lineups = []
    for seat, setup in zip(seats, options.get("players") or (), strict=False):
        heroes = [card_name(CARDS[code].name) if code in CARDS else code for code in setup.get("heroes", ())]
        lineups.append(say("%(seat)s with %(heroes)s", seat=seat, heroes=join(heroes)))
    return say(
        "a game of %(title)s begins (%(how)s): %(lineups)s",
        title=title,
        how=", ".join(how),
        lineups="; ".join(lineups) or join(seats),
    )


def phase_word(phase: object) -> str:
    """``the planning phase``."""
    key = str(phase)
    if key in _PHASES:
        return _(_PHASES[key])
    return say("the %(phase)s phase", phase=words(key))


def position_set(said: Said) -> str:
    if said.get("phase"):
        where = say("round %(round)s, %(phase)s", round=said.get("round"), phase=phase_word(said.get("phase")))
    else:
        where = say("round %(round)s", round=said.get("round"))
    return shared.laid_out(said, say("%(where)s, %(seat)s first", where=where, seat=said.get("first")))


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
            parts.append(say("%(zone)s %(names)s", zone=zone(where), names=join(names)))
        else:
            parts.append(say("%(count)s in %(zone)s", count=len(names), zone=zone(where)))
    if hidden:
        parts.append(f"{a_or_n(hidden, 'face-down card')}")
    return nsay(
        "%(n)d card comes to the table: %(parts)s",
        "%(n)d cards come to the table: %(parts)s",
        total,
        parts="; ".join(parts),
    )


def threat_set(said: Said) -> str:
    return say("%(player)s starts with threat %(threat)s", player=said.get("player"), threat=said.get("threat"))


def character_discarded(said: Said) -> str:
    return say("%(card)s leaves play, discarded to its owner's discard pile", card=said.card("card"))


def shuffled_into_deck(said: Said) -> str:
    return say(
        "%(card)s leaves play and is shuffled into %(zone)s", card=said.card("card"), zone=zone(str(said.get("zone")))
    )


# -- moving cards -------------------------------------------------------------------------------


def card_moved(said: Said) -> str:
    to = str(said.get("to"))
    card = said.card("card")
    seat, _dot, rest = to.partition(".")
    if to == "staging":
        return say("%(card)s is added to the staging area", card=card)
    if rest == "hand":
        return say("%(card)s is returned to %(seat)s's hand", card=card, seat=seat)
    if rest == "allies":
        return say("%(card)s is put into play under %(seat)s's control", card=card, seat=seat)
    if rest == "deck" or to == "encounter.deck":
        if said.get("top"):
            return say("%(card)s is put on top of %(zone)s", card=card, zone=zone(to))
        return say("%(card)s is put at the bottom of %(zone)s", card=card, zone=zone(to))
    return say("%(card)s moves to %(zone)s", card=card, zone=zone(to))


def cards_discarded(said: Said) -> str:
    return shared.to_piles(said, "discarded")


# -- tokens and states --------------------------------------------------------------------------


def resources_added(said: Said) -> str:
    cards = said.cards("cards")
    amount = plural(int(said.get("amount", 1)), "resource")
    if cards.count == 1:
        return say("%(card)s gains %(amount)s", card=cards.text(), amount=amount)
    return say("%(cards)s each gain %(amount)s", cards=cards.text(), amount=amount)


def resources_paid(said: Said) -> str:
    payments = [(said.named(uid), amount) for uid, amount in said.get("payments") or () if said.sees(uid)]
    if not payments:
        return _("resources are spent")
    first, amount = payments[0]
    spent = say("%(card)s spends %(amount)s", card=first, amount=plural(amount, "resource"))
    rest = [f"{who} {n}" for who, n in payments[1:]]
    return spent + (f", {join(rest)}" if rest else "")


def damage_dealt(said: Said) -> str:
    return say("%(card)s takes %(amount)s damage", card=said.card("card"), amount=said.get("amount"))


def damage_healed(said: Said) -> str:
    return say("%(card)s heals %(amount)s damage", card=said.card("card"), amount=said.get("amount"))


def progress_placed(said: Said) -> str:
    amount = int(said.get("amount", 0))
    return nsay(
        "%(n)d progress token is placed on %(card)s",
        "%(n)d progress tokens are placed on %(card)s",
        amount,
        card=said.card("card"),
    )


def cards_exhausted(said: Said) -> str:
    cards = said.cards("cards")
    return nsay("%(cards)s is exhausted", "%(cards)s are exhausted", cards.count, cards=cards.text())


def cards_readied(said: Said) -> str:
    cards = said.cards("cards")
    return nsay("%(cards)s is readied", "%(cards)s are readied", cards.count, cards=cards.text())


def threat_raised(said: Said) -> str:
    player, amount = said.get("player"), int(said.get("amount", 0))
    now = said.state.players[player].threat if player in said.state.players else None
    if amount >= 0:
        text = say("%(player)s raises their threat by %(amount)s", player=player, amount=abs(amount))
    else:
        text = say("%(player)s lowers their threat by %(amount)s", player=player, amount=abs(amount))
    return text + (say(" (now %(threat)s)", threat=now) if now is not None else "")


def surge_gained(said: Said) -> str:
    return say("%(card)s gains surge", card=said.card("card"))


# -- the round ----------------------------------------------------------------------------------


def phase_began(said: Said) -> str:
    return say("%(phase)s begins", phase=phase_word(said.get("phase")))


def _cost(said: Said) -> str:
    paid = _payments(said)
    return say(", paying %(paid)s", paid=join(paid)) if paid else _(" at no cost")


def ally_played(said: Said) -> str:
    return say("%(player)s plays %(card)s%(cost)s", player=said.get("player"), card=said.card("card"), cost=_cost(said))


def characters_committed(said: Said) -> str:
    cards = said.cards("cards")
    return say("%(player)s commits %(cards)s to the quest", player=said.get("player"), cards=cards.text())


def removed_from_quest(said: Said) -> str:
    return say("%(card)s is removed from the quest", card=said.card("card"))


def quest_resolved(said: Said) -> str:
    return say(
        "the quest: willpower %(willpower)s against threat %(threat)s",
        willpower=said.get("willpower"),
        threat=said.get("threat"),
    )


def quest_progress_cancelled(said: Said) -> str:
    amount = int(said.get("amount", 0))
    return nsay(
        "%(n)d progress token from the quest is not placed: %(stage)s is no longer the current quest",
        "%(n)d progress tokens from the quest are not placed: %(stage)s is no longer the current quest",
        amount,
        stage=said.card("stage"),
    )


def encounter_card_revealed(said: Said) -> str:
    return say("%(card)s is revealed", card=said.card("card", N_("an encounter card")))


def quest_stage_revealed(said: Said) -> str:
    uid = said.uid("card")
    card = said.card("card", N_("a quest card"))
    if said.get("side") == "A":
        return say("the quest is now %(stage)s: %(card)s", stage=_stage(said, uid), card=card)
    return say("the quest card turns to %(stage)s: %(card)s", stage=_stage(said, uid), card=card)


def quest_stage_defeated(said: Said) -> str:
    uid = said.uid("card")
    return say(
        "%(stage)s, %(card)s, is defeated", stage=_stage(said, uid), card=said.card("card", N_("the quest card"))
    )


def location_traveled(said: Said) -> str:
    return say("the players travel to %(card)s", card=said.card("card", N_("a location")))


def location_explored(said: Said) -> str:
    card = said.card("card", N_("a location"))
    if said.get("to") == "victory":
        return say("%(card)s is explored and goes to the victory display", card=card)
    return say("%(card)s is explored", card=card)


def enemy_engaged(said: Said) -> str:
    return say("%(enemy)s engages %(player)s", enemy=said.card("enemy", N_("an enemy")), player=said.get("player"))


def shadow_card_dealt(said: Said) -> str:
    enemy = said.card("enemy", N_("an enemy"))
    if said.uid("card") is None:
        return say("%(enemy)s is dealt a face-down shadow card", enemy=enemy)
    return say("%(enemy)s is dealt a shadow card, face down: %(card)s", enemy=enemy, card=said.card("card"))


def attack_declared(said: Said) -> str:
    return say("%(enemy)s attacks %(player)s", enemy=said.card("enemy", N_("an enemy")), player=said.get("player"))


def defender_declared(said: Said) -> str:
    enemy = said.card("enemy", N_("an enemy"))
    attack = said.state.attack
    if said.get("defender") is None:
        if attack is not None:
            return say("%(enemy)s attacks %(player)s; nobody defends", enemy=enemy, player=attack.player)
        return say("%(enemy)s attacks; nobody defends", enemy=enemy)
    defender = said.card("defender")
    if attack is not None and attack.defenders and attack.defenders[0] != said.get("defender"):
        return say("%(defender)s also defends against %(enemy)s", defender=defender, enemy=enemy)
    if attack is not None:
        return say(
            "%(enemy)s attacks %(player)s; %(defender)s defends", enemy=enemy, player=attack.player, defender=defender
        )
    return say("%(enemy)s attacks; %(defender)s defends", enemy=enemy, defender=defender)


def shadow_card_revealed(said: Said) -> str:
    enemy = said.card("enemy", N_("an enemy"))
    return say(
        "%(enemy_s)s shadow card is revealed: %(card)s", enemy_s=possessive(enemy), enemy=enemy, card=said.card("card")
    )


def attackers_declared(said: Said) -> str:
    attackers = said.cards("attackers")
    return say(
        "%(player)s attacks %(enemy)s with %(attackers)s",
        player=said.get("player"),
        enemy=said.card("enemy", N_("an enemy")),
        attackers=attackers.text(),
    )


def attack_resolved(said: Said) -> str:
    enemy = said.card("enemy", N_("an enemy"))
    if said.get("by_enemy"):
        return say("%(enemy_s)s attack is over", enemy_s=possessive(enemy), enemy=enemy)
    return say("the attack on %(enemy)s is over", enemy=enemy)


def character_destroyed(said: Said) -> str:
    return say("%(card)s is destroyed", card=said.card("card", N_("a character")))


def enemy_defeated(said: Said) -> str:
    enemy = said.card("enemy", N_("an enemy"))
    if said.get("to") == "victory":
        return say("%(enemy)s is defeated and goes to the victory display", enemy=enemy)
    return say("%(enemy)s is defeated", enemy=enemy)


def attachment_attached(said: Said) -> str:
    return say("%(card)s is attached to %(to)s", card=said.card("card"), to=said.card("to"))


def attachment_played(said: Said) -> str:
    return say(
        "%(player)s attaches %(card)s to %(to)s%(cost)s",
        player=said.get("player"),
        card=said.card("card"),
        to=said.card("to"),
        cost=_cost(said),
    )


def control_given(said: Said) -> str:
    return say("%(player)s takes control of %(card)s", player=said.get("player"), card=said.card("card"))


def first_player_passed(said: Said) -> str:
    return say("%(player)s becomes the first player", player=said.get("player"))


_ELIMINATED = {
    "threat": N_("their threat reached 50"),
    "heroes": N_("all their heroes are destroyed"),
    "no-ship": N_("no ship"),
}


def player_eliminated(said: Said) -> str:
    reason = str(said.get("reason"))
    why = _(_ELIMINATED[reason]) if reason in _ELIMINATED else words(reason)
    return say("%(player)s is eliminated: %(why)s", player=said.get("player"), why=why)


def card_looked_at(said: Said) -> str:
    return say(
        "%(player)s looks at %(card)s", player=said.get("player"), card=said.card("card", N_("a face-down card"))
    )


# -- the kernel's events, as this game tells them --------------------------------------------------

_LOST = {
    "threat": N_("the last player in the game was eliminated by threat"),
    "heroes": N_("the last player in the game lost all their heroes"),
    "no-ship": N_("no ship"),  # the English is the reason's own words, as before it had messages
    "bilbo-left-play": N_("bilbo left play"),
    "captain-of-the-haven": N_("captain of the haven"),
}


_WON = {
    "beorns-path": N_("stage 3B, Beorn's Path, is defeated"),
    "ungoliants-spawn-defeated": N_("Ungoliant's Spawn is defeated"),
    "ambush-on-the-shore": N_("ambush on the shore"),
    "dreadnaught-destroyed": N_("dreadnaught destroyed"),
    "inside-information": N_("inside information"),
    "out-of-the-dungeons": N_("out of the dungeons"),
}


def outcome_text(result: str, reason: str) -> str:
    """``GAME OVER: the players lose (the last player in the game was eliminated by threat)``."""
    if result == "won":
        return say(
            "GAME OVER: the players win (%(reason)s)", reason=_(_WON[reason]) if reason in _WON else words(reason)
        )
    if result == "lost":
        return say(
            "GAME OVER: the players lose (%(reason)s)", reason=_(_LOST[reason]) if reason in _LOST else words(reason)
        )
    return say("GAME OVER: %(result)s (%(reason)s)", result=words(result), reason=words(reason))


def game_ended(said: Said) -> str:
    o = said.get("outcome") or {}
    return outcome_text(str(o.get("result", "")), str(o.get("reason", "")))


def delayed_effect_scheduled(said: Said) -> str:
    d = said.get("delayed") or {}
    code, _dot, effect = str(d.get("node", "")).partition(".")
    at = scope_end(d.get("at"))
    if code in CARDS:
        return say(
            "%(card_s)s “%(effect)s” will follow at %(at)s",
            effect=words(effect),
            card_s=possessive(card_name(CARDS[code].name)),
            card=card_name(CARDS[code].name),
            at=at,
        )
    return say("%(effect)s will follow at %(at)s", effect=words(str(d.get("node", ""))), at=at)


# -- the Core scenarios' own events (domain/lcg/encounter_events.py) ----------------------------


def phase_ended(said: Said) -> str:
    return say("%(phase)s ends", phase=phase_word(said.get("phase")))


def shadow_effect_resolved(said: Said) -> str:
    return say(
        "the shadow effect of %(card)s on %(enemy)s has resolved",
        card=said.card("card", N_("a shadow card")),
        enemy=said.card("enemy", N_("an enemy")),
    )


def guard_placed(said: Said) -> str:
    return say(
        "%(card)s guards %(objective)s",
        card=said.card("card", N_("an encounter card")),
        objective=said.card("objective", N_("an objective")),
    )


def guards_released(said: Said) -> str:
    cards = said.cards("cards")
    return nsay(
        "%(cards)s no longer guards an objective",
        "%(cards)s no longer guard an objective",
        cards.count,
        cards=cards.text(),
    )


def objective_claimed(said: Said) -> str:
    return say(
        "%(player)s claims %(card)s and attaches it to %(to)s",
        player=said.get("player"),
        card=said.card("card", N_("an objective")),
        to=said.card("to"),
    )


def objective_returned(said: Said) -> str:
    return say("%(card)s is detached and returns to the staging area", card=said.card("card", N_("an objective")))


def progress_removed(said: Said) -> str:
    amount = int(said.get("amount", 0))
    return nsay(
        "%(n)d progress token is removed from %(card)s",
        "%(n)d progress tokens are removed from %(card)s",
        amount,
        card=said.card("card"),
    )


def hero_captured(said: Said) -> str:
    return say("%(card)s is taken prisoner and turned face down", card=said.card("card"))


def hero_rescued(said: Said) -> str:
    return say("%(card)s is rescued and turned face up", card=said.card("card"))


def orc_guard_made(said: Said) -> str:
    return say(
        "the top card of %(player)s's deck becomes %(guard)s, face down",
        player=said.get("player"),
        guard=said.card("guard", N_("an Orc Guard")),
    )


def orc_guard_removed(said: Said) -> str:
    return say(
        "%(guard)s leaves play; %(card)s goes to its owner's discard pile",
        guard=said.card("guard", N_("an Orc Guard")),
        card=said.card("card", N_("its face-down card")),
    )


# -- what another seat decides, and the options of questions a reader was not shown -------------

_ASKS = {
    "lcg.setup": N_("how to set up the game"),
    "lcg.setup.mulligan": N_("whether to keep their opening hand"),
    "lcg.resource": N_("what to do in the resource phase"),
    "lcg.planning": N_("what to do in the planning phase"),
    "lcg.planning.play-ally": N_("which card to play"),
    "lcg.planning.attach": N_("where to attach an attachment"),
    "lcg.planning.pay": N_("which heroes pay for a card"),
    "lcg.event.pay": N_("which heroes pay for an event"),
    "lcg.event.x": N_("how much to pay for an event's X"),
    "lcg.event.response": N_("whether to play an event in response"),
    "lcg.quest": N_("what to do in the quest phase"),
    "lcg.quest.commit": N_("which characters to commit to the quest"),
    "lcg.travel": N_("where the players travel"),
    "lcg.encounter": N_("what to do in the encounter phase"),
    "lcg.encounter.optional-engagement": N_("whether to engage an enemy"),
    "lcg.encounter.engagement-check": N_("which enemy engages them first"),
    "lcg.combat": N_("what to do in the combat phase"),
    "lcg.combat.declare-defender": N_("who defends against an attack"),
    "lcg.combat.declare-defenders": N_("who defends against an attack"),
    "lcg.combat.undefended-damage": N_("which hero takes the damage of an undefended attack"),
    "lcg.combat.player-attack": N_("which characters attack an enemy"),
    "lcg.combat.player-attacks": N_("which enemy to attack"),
    "lcg.combat.attack-target": N_("which enemy to attack"),
    "lcg.combat.staging-attack": N_("whether to attack an enemy in the staging area"),
    "lcg.keyword.archery": N_("where archery damage goes"),
    "lcg.keyword.boarding": N_("how a Boarding enemy engages"),
    "lcg.forced": N_("the order of Forced effects that happen at once"),
    "lcg.response": N_("whether to use a response"),
    "lcg.refresh": N_("what to do in the refresh phase"),
    "lcg.burgle": N_("how to make a burgle attempt"),
    "lcg.keyword": N_("how a keyword resolves"),
    "lcg.epic": N_("how an effect from another group resolves"),
    "lcg.game": N_("how the round goes"),
    "lcg.round": N_("how the round goes"),
    "lcg.damage": N_("how damage is dealt"),
    "lcg.draw": N_("which cards to draw"),
    "lcg.explore": N_("how a location is explored"),
    "lcg.location": N_("how a location is explored"),
    "thftd.setup": N_("how to prepare their fleet"),
    "thftd.setup.fleet": N_("which ship to take at setup"),
    "orc-guard": N_("what an Orc Guard's Forced effect does"),
}
"""What a decision under each rule key is about (the longest known prefix counts)."""

_PHASES = {
    "resource": N_("the resource phase"),
    "planning": N_("the planning phase"),
    "quest": N_("the quest phase"),
    "travel": N_("the travel phase"),
    "encounter": N_("the encounter phase"),
    "combat": N_("the combat phase"),
    "refresh": N_("the refresh phase"),
}

_ABILITIES = {
    "response": N_("response"),
    "action": N_("action"),
    "forced": N_("Forced effect"),
    "when-revealed": N_("When Revealed effect"),
    "shadow": N_("shadow effect"),
    "travel": N_("Travel cost"),
    "setup": N_("setup"),
    "burgle": N_("burgle effect"),
}


def asks(rule: str) -> str:
    """What a decision under ``rule`` is about: a card's ability (``core-001.response``:
    "on Aragorn's response"), an action window ("whether to take an action in the combat
    phase"), or a step of the rules by its longest known prefix."""
    head, _dot, rest = rule.partition(".")
    if head in CARDS:
        ability = rest.split(".")[0]
        what = _(_ABILITIES[ability]) if ability in _ABILITIES else words(ability) or _("text")
        card = card_name(CARDS[head].name)
        return say("on %(card_s)s %(ability)s", ability=what, card_s=possessive(card), card=card)
    parts = rule.split(".")
    if head == "lcg" and "window" in parts:
        if parts[1] == "burgle":
            return _("whether to take an action during the burgle attempt, before the discard")
        if len(parts) > 1 and parts[1] in _PHASES:
            return say("whether to take an action in %(phase)s", phase=_(_PHASES[parts[1]]))
        return _("whether to take an action")
    for n in range(len(parts), 0, -1):
        found = _ASKS.get(".".join(parts[:n]))
        if found is not None:
            return _(found)
    return _("a question of the rules")


_OPTIONS = {
    "mulligan": N_("to take a mulligan"),
    "undefended": N_("to leave the attack undefended"),
    "free": N_("to pay nothing"),
    "bottom": N_("to move it to the bottom"),
    "each": N_("that each player lowers their threat by 2"),
    "threat": N_("to raise their threat"),
    "again": N_("that the attacking enemy attacks again"),
    "boarding": N_("that it gains Boarding 1"),
    "hand": N_("to add it to their hand"),
    "draw": N_("to draw cards"),
    "damage": N_("to deal damage"),
    "stage-4": N_("to advance to stage 4A"),
    "smaug": N_("to remove 1 progress from Smaug"),
    "pay": N_("to spend Bilbo Baggins's resources"),  # Pretending to Sleep (The Lonely Mountain)
    "none": N_("to use none of them"),
    "discard": N_("to discard the matching cards"),
    "fail": N_("to discard nothing (the attempt fails)"),
    "here": N_("this group"),
    "mountain": N_("to use The Lonely Mountain"),
    "play": N_("to play it"),
    "defense": N_("+1 Defense"),
    "willpower": N_("+1 Willpower"),
}


_RULE_OPTIONS = {
    ("thftd-034.response", "yes"): N_("to pay 5 resources together to repair and upgrade a ship"),  # Belfalas Shipyard
    ("thftd-034.response", "no"): N_("not to pay"),
    ("lcg.event.response", "yes"): N_("to play it"),  # an event played in response (Hasty Stroke)
    ("core-078.response", "yes"): N_("to search the top 5 cards of their deck"),  # Mountains of Mirkwood
    ("core-078.response", "no"): N_("not to search their deck"),
}
"""Options whose words depend on the question: a ``yes`` that is not a plain Yes."""


def option(said: Said, choice: str) -> str | None:
    """An LCG option id in words: a way to pay (``34:1,35:1`` "to pay 1 from Aragorn and 1
    from Gimli"), a Forced effect to resolve first (``forced-0``), a word the rules use."""
    rule = said.rule_asked()
    if (rule, choice) in _RULE_OPTIONS:
        return _(_RULE_OPTIONS[rule, choice])
    if rule == "core-046.action" and choice != "each":  # The Galadhrim's Greeting: a seat
        return say("that %(seat)s lowers their threat by 6", seat=choice)
    if choice == "keep":  # a setup hand kept (domain/lcg/rules/setup.py), or a top card left (heroes.py)
        return _("to keep their hand") if rule == "lcg.setup.mulligan" else _("to leave it on top")
    if choice in _OPTIONS:
        return _(_OPTIONS[choice])
    kind, _dash, place = choice.partition("-")
    if kind in ("forced", "response") and place.isdigit():  # domain/lcg/rules/triggers.py, _ident
        return _("the Forced effect to resolve next") if kind == "forced" else _("the response to resolve next")
    ways = [part.partition(":") for part in choice.split(",")]
    if all(uid.isdigit() and amount.isdigit() for uid, _colon, amount in ways):
        paid = [
            say("%(amount)s from %(card)s", amount=amount, card=said.named(int(uid))) for uid, _colon, amount in ways
        ]
        return say("to pay %(paid)s", paid=join(paid))
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
            "QuestProgressCancelled": quest_progress_cancelled,
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
            # the card events', the Dreadnaught's and the Hobbit boxes' own, in the book before
            # it is registered: story.py keeps each event type's phrase once it is first read
            **EVENT_CARD_PHRASES,
            **HUNT_PHRASES,
            **HOBBIT_PHRASES,
        },
    )
)
