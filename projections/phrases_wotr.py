"""War of the Ring: The Card Game in sentences: one phrase per event type (see projections/story.py).

Locations (paths and battlegrounds) are named without their uid: each is a single card.
Every other card is ``Name#uid``. Seats are named as the scenario names them (``frodo``,
``witch-king``); the teams are "the Free Peoples" and "the Shadow".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from domain.wotr.cards import CARDS, LOCATIONS
from domain.wotr.scenarios import scenario
from domain.wotr.state import FREE, SHADOW
from projections import phrases_shared as shared
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

TEAMS = {FREE: "the Free Peoples", SHADOW: "the Shadow"}


def team(key: Any) -> str:
    return TEAMS.get(str(key), str(key))


def _verb(key: Any, one: str, many: str) -> str:
    """``the Shadow takes``, ``the Free Peoples take``."""
    return f"{team(key)} {many if key == FREE else one}"


def takes(key: Any) -> str:
    """``the Shadow takes``, ``the Free Peoples take``."""
    return _verb(key, "takes", "take")


def name(state: Any, uid: int) -> str | None:
    card = state.cards.get(uid)
    if card is not None and card.code in LOCATIONS:
        return LOCATIONS[card.code].name
    return None


_SHARED_ZONES = {
    "path": "the active path",
    "battlegrounds": "the active battlegrounds",
    f"{FREE}.score": "the Free Peoples' scoring area",
    f"{SHADOW}.score": "the Shadow's scoring area",
    "out": "out of the game",
    "resolving": "play as an event",
    f"bg.{FREE}": "the Free Peoples battleground deck",
    f"bg.{SHADOW}": "the Shadow battleground deck",
}
_SEAT_ZONES = {
    "deck": "draw deck",
    "hand": "hand",
    "cycle": "cycle pile",
    "eliminated": "eliminated pile",
    "reserve": "reserve",
    "aside": "cards set aside",
}


def _placed(head: str, rest: str) -> str | None:
    """A location's own zone (``at.<code>``) and a path deck (``paths.<number>``)."""
    if head == "at":
        return LOCATIONS[rest].name if rest in LOCATIONS else words(rest)
    if head == "paths":
        return f"the path {rest} deck"
    return None


def zone(key: str) -> str:
    return shared.zone_words(key, _SHARED_ZONES, _SEAT_ZONES, _placed)


def _group(key: str) -> str:
    """Piles counted together when cards are created: the path decks, the battleground decks."""
    if key.startswith("paths."):
        return "the path decks"
    if key.startswith("bg."):
        return "the battleground decks"
    return zone(key)


@cache
def _effects() -> dict[str, str]:
    """Round effects by key (``red-arrow``) to the card that makes them (The Red Arrow)."""
    out: dict[str, str] = {}
    for card in CARDS.values():
        slug = re.sub(r"[^a-z0-9]+", "-", card.name.lower()).strip("-")
        out.setdefault(slug, card.name)
        out.setdefault(slug.removeprefix("the-"), card.name)
    return out


# -- setup ------------------------------------------------------------------------------------


def game_created(said: Said) -> str:
    options = said.get("options") or {}
    title = scenario_title(str(options.get("scenario", "")))
    seed = f" (seed {said.get('seed')})" if said.get("seed") is not None else ""
    sides = []
    for side in (FREE, SHADOW):
        seats = [d.get("seat") for d in options.get("decks") or () if d.get("team") == side]
        if seats:
            sides.append(f"{join(seats)} for {team(side)}")
    order = [str(seat) for seat in said.get("order") or ()]
    if order:
        sides.append(f"turn order {', '.join(order)}")
    rings = list(said.get("rings") or ())
    if rings:
        sides.append(f"Ring tokens: {join(rings)}")
    return f"a game of War of the Ring begins, {title}{seed}: {'; '.join(sides)}"


def bots_seated(said: Said) -> str:
    bots = [str(seat) for seat in said.get("bots") or ()]
    return (
        f"{join(bots)} {'is a Shadow bot' if len(bots) == 1 else 'are Shadow bots'} played by the rules, "
        f"{said.get('difficulty')} difficulty. {said.get('substitution')}"
    )


def position_set(said: Said) -> str:
    step = f", {said.get('step')} step" if said.get("step") else ""
    return shared.laid_out(said, f"round {said.get('round')}{step}")


def cards_created(said: Said) -> str:
    seen: dict[str, int] = {}
    for item in said.get("cards") or ():
        if said.sees(item[0]):
            group = _group(str(item[2]))
            seen[group] = seen.get(group, 0) + 1
    hidden = int(said.get("cards_hidden", 0) or 0)
    total = sum(seen.values()) + hidden
    parts = [f"{n} in {group}" for group, n in seen.items()]
    if hidden:
        parts.append(a_or_n(hidden, "face-down card"))
    return f"{plural(total, 'card')} come to the table: {', '.join(parts)}"


# -- moving cards -------------------------------------------------------------------------------


def cards_cycled(said: Said) -> str:
    return shared.to_piles(said, "cycled")


def cards_eliminated(said: Said) -> str:
    return shared.to_piles(said, "eliminated")


def card_taken(said: Said) -> str:
    return f"{said.get('player')} takes {said.card('card')} into their hand"


def cards_looked_at(said: Said) -> str:
    cards = said.cards("cards")
    return f"{said.get('player')} looks at {cards.text('face-down card')}"


def _onto(said: Said, to: str, player: Any) -> str:
    if to == f"{player}.reserve":
        return "to their reserve"
    if to.endswith(".reserve"):
        return f"to {zone(to)}"
    if to.startswith("at."):
        return f"onto {zone(to)}"
    return f"to {zone(to)}"


def card_played(said: Said) -> str:
    player, to = said.get("player"), str(said.get("to"))
    card = said.card("card")
    if to == "resolving":
        return f"{player} plays the event {card}"
    if said.get("wielder") is not None:
        where = f" at {zone(to)}" if to.startswith("at.") else ""
        return f"{player} plays {card} on {said.card('wielder')}{where}"
    return f"{player} plays {card} {_onto(said, to, player)}"


def card_moved(said: Said) -> str:
    return f"{said.get('player')} moves {said.card('card')} from reserve onto {zone(str(said.get('to')))}"


# -- the round ----------------------------------------------------------------------------------


def step_began(said: Said) -> str:
    return f"the {said.get('step')} step begins"


def turn_ended(said: Said) -> str:
    if said.get("passed"):
        return f"{said.get('player')} passes"
    return f"{possessive(str(said.get('player')))} turn ends"


BOT_STEPS = {
    "flowchart.1-action": "flowchart step 1, use an action",
    "flowchart.2-pass": "flowchart step 2, pass",
    "flowchart.3-move": "flowchart step 3, move",
    "flowchart.4-play": "flowchart step 4, play a random card",
    "first-in-last-out": "First In, Last Out",
    "right-most-location": "the right-most location",
    "random-hand": "a random face-down card",
    "random-path": "a random path",
    "usefully": "usefully",
    "draw-and-play": "the first drawn card it can play",
    "draw-until-nazgul": "the first Nazgûl drawn",
}


def bot_chose(said: Said) -> str:
    step = str(said.get("step"))
    what = []
    cards = said.cards("cards")
    if cards.count:
        what.append(cards.text())
    if said.get("location") is not None:
        what.append(f"at {said.card('location', 'a location')}")
    chosen = f": {' '.join(what)}" if what else ""
    follows = BOT_STEPS.get(step, words(step))
    return f"{said.get('player')} (bot) follows {follows}{chosen}, because {said.get('reason')}"


def ring_token_used(said: Said) -> str:
    if said.get("spent"):
        return f"{said.get('player')} flips their Ring token until the next round"
    return f"{said.get('player')} uses up their Ring token"


def _ability_used(said: Said) -> str:
    return shared.ability_used(said, "action")


def round_effect(key: str) -> str:
    """A round effect by the card that makes it (``red-arrow`` -> The Red Arrow)."""
    return _effects().get(key, words(key))


def scenario_title(key: str) -> str:
    """A scenario by its title (``two-player-duel`` -> its title)."""
    try:
        return scenario(key).title
    except KeyError:
        return words(key)


def round_effect_began(said: Said) -> str:
    return f"{round_effect(str(said.get('effect')))} is in effect until the end of the round"


def starting_player_passed(said: Said) -> str:
    return f"{said.get('player')} becomes the starting player"


# -- locations, tokens, combat -----------------------------------------------------------------


def location_activated(said: Said) -> str:
    where = said.card("location", "a location")
    if said.get("to") == "path":
        text = f"path {said.get('number')}, {where}, becomes the active path"
    else:
        text = f"{where} becomes an active battleground"
    if said.get("reactivated"):
        text += " again"
    if said.get("ignore_defense"):
        text += " (its defense is ignored)"
    return text


def tokens_added(said: Said) -> str:
    attack, defense = int(said.get("attack", 0)), int(said.get("defense", 0))
    parts = [plural(n, f"{kind} token") for n, kind in ((attack, "attack"), (defense, "defense")) if n]
    n = attack + defense
    return f"{join(parts) or 'no tokens'} {'is' if n == 1 else 'are'} placed on {said.card('location', 'a location')}"


def corruption_changed(said: Said) -> str:
    amount = int(said.get("amount", 0))
    verb = "gains" if amount >= 0 else "loses"
    return f"the Shadow {verb} {abs(amount)} corruption (now {said.state.corruption})"


def combat_began(said: Said) -> str:
    where = said.card("location", "a location")
    on = f"on the path {where}" if said.get("kind") == "path" else f"at {where}"
    attackers = said.get("attackers")
    text = (
        f"combat {on}, {team(attackers)} attacking: attack {said.get('attack')} against defense {said.get('defense')}"
    )
    if said.get("defenders"):
        text += f" (the defending cards show {said.get('defenders')})"
    supports = [
        f"{said.named(army)} supports {said.named(leader)}"
        for leader, army in said.get("supports") or ()
        if said.sees(leader) and said.sees(army)
    ]
    if supports:
        text += f"; {join(supports)}"
    if said.get("empty"):
        text += "; no card was played there"
    return text


def loss_taken(said: Said) -> str:
    cards = said.cards("cards")
    icons = plural(int(said.get("icons", 0)), "attack icon")
    return f"the defenders lose {cards.text()}, cancelling {icons}"


def combat_ended(said: Said) -> str:
    where = said.card("location", "a location")
    winner, corruption = said.get("winner"), int(said.get("corruption", 0))
    if winner is None or said.get("to") == "out":
        text = f"nobody takes {where}; it is out of the game"
    else:
        text = f"{_verb(winner, 'takes', 'take')} {where}"
    if corruption:
        text += f" and {corruption} corruption" if winner == SHADOW else f"; the Shadow gains {corruption} corruption"
    return text


# -- a combat's count, card by card (the preview and the referee's explanation) -----------


def _share(share: Any, name: Callable[[int], str]) -> str:
    """One contribution to a combat's count: ``Riders of Rohan 2``, ``Bow of the Galadhrim 1
    (wielded by Legolas)``, ``Aragorn's leadership 1 (supported by Soldiers of Gondor)``."""
    what, value = share.what, share.value
    if what == "printed":
        return f"printed defense {value}"
    if what == "printed-ignored":
        return "printed defense ignored (reactivated out of the other team's scoring area)"
    if what == "attack-tokens":
        return plural(value, "attack token")
    if what == "defense-tokens":
        return plural(value, "defense token")
    card = name(share.card) if share.card is not None else "a card"
    by = name(share.by) if share.by is not None else ""
    if what == "leadership":
        return f"{possessive(card)} leadership {value} (supported by {by})"
    if what == "support":
        return f"{card} {value} while supporting {by}"
    if what == "text":
        return f"{card} {value} (its text)"
    return f"{card} {value}" + (f" (wielded by {by})" if by else "")


def _sum(shares: list[Any], name: Callable[[int], str], nothing: str) -> str:
    return " + ".join(_share(x, name) for x in shares) or nothing


def combat_working(count: Any, name: Callable[[int], str], where: str) -> list[str]:
    """A combat's count (``domain.wotr.rules.combat.Tally``) card by card, and who would take
    ``where`` (or takes it, once fought) and why: the lines the table's combat preview and
    the referee's explanation show. ``name`` names a card by its uid."""
    attackers = count.attackers
    defenders = FREE if attackers == SHADOW else SHADOW
    parts = {part: [x for x in count.shares if x.part == part] for part in ("attack", "defense", "defenders")}
    lines = [
        f"{team(attackers)} attack {count.attack} = {_sum(parts['attack'], name, 'no icons')}",
        f"{team(defenders)} defense {count.defense}, cancelling first = {_sum(parts['defense'], name, 'none')}",
        f"{team(defenders)} cards {count.defenders}, cancelling as they are lost = "
        + _sum(parts["defenders"], name, "no card with icons"),
    ]
    total = count.defense + count.defenders
    taken = f"{takes(count.winner)} {where}" if count.winner else f"nobody takes {where}"
    corruption = f" and {count.corruption} corruption" if count.corruption else ""
    if count.empty and count.winner is None:
        lines.append(f"no card is on {where}: {taken}")
    else:
        left = max(0, count.attack - total)
        verdict = "every attack icon is canceled" if left == 0 else f"{plural(left, 'attack icon')} not canceled"
        if count.kind == "path" and count.winner is None and total == count.attack:
            verdict = "a tie"
        against = f"attack {count.attack} against {count.defense} + {count.defenders} = {total}"
        lines.append(f"{against}: {verdict}, so {taken}{corruption}")
    return lines


def scores_counted(said: Said) -> str:
    free, shadow = said.get("free"), said.get("shadow")
    if said.get("final"):
        return f"the final score, with unused Ring tokens: Free Peoples {free}, Shadow {shadow}"
    return f"the score: Free Peoples {free}, Shadow {shadow}"


# -- the kernel's events, as this game tells them --------------------------------------------------


def outcome_text(result: str, reason: str, winner: str | None = None) -> str:
    """``GAME OVER: the Shadow wins (final score)``."""
    won = winner or result
    if won in TEAMS:
        return f"GAME OVER: {_verb(won, 'wins', 'win')} ({words(reason)})"
    return f"GAME OVER: {words(result)} ({words(reason)})"


def game_ended(said: Said) -> str:
    o = said.get("outcome") or {}
    return outcome_text(str(o.get("result", "")), str(o.get("reason", "")), o.get("winner"))


# -- what another seat decides -----------------------------------------------------------------

_ASKS = {
    "wotr.setup": "how to set up the game",
    "wotr.action": "what to do on their turn",
    "wotr.action.turn": "what to do on their turn",
    "wotr.action.winnow": "which 2 cards to eliminate from their hand to winnow",
    "wotr.action.cycle": "which card to cycle",
    "wotr.action.move": "which card to move from their reserve",
    "wotr.action.play": "where to play a card",
    "wotr.action.use": "which ability to use",
    "wotr.action.ring": "whether to use their Ring token",
    "wotr.action.carryover": "which cards to keep in their hand",
    "wotr.play": "how to play a card",
    "wotr.play.cost": "how to pay a card's cost",
    "wotr.cycle": "which cards to cycle",
    "wotr.cycle-from-hand": "which card to cycle from their hand",
    "wotr.forsake": "which card to forsake",
    "wotr.eliminate": "which cards to eliminate",
    "wotr.draw-play": "which drawn card to play",
    "wotr.search": "which card to take from their deck",
    "wotr.take": "which card to take",
    "wotr.ring": "whether to use their Ring token",
    "wotr.combat": "how the combat goes",
    "wotr.combat.losses": "which card the defenders lose",
    "wotr.combat.order": "the order of the cards in combat",
    "wotr.location": "which location becomes active",
    "wotr.round": "how the round goes",
    "wotr.draw-step": "which cards to draw and keep",
    "wotr.victory": "how the game is scored",
    "wotr.move": "which card to move from their reserve",
    "wotr.use": "which ability to use",
    "wotr.draw": "which cards to draw",
    "wotr.game": "how the round goes",
    "wotr.bot": "what the Shadow bot does",
}
"""What a decision under each rule key is about (the longest known prefix counts)."""

_ABILITIES = {
    "action": "action",
    "activation": "activation",
    "when-played": "“when played” text",
    "when-played-reserve": "“when played into reserve” text",
    "on-play": "text as it is played",
    "entered": "text as it comes into play",
}


def asks(rule: str) -> str:
    """What a decision under ``rule`` is about: a card's or a location's text
    (``wotr.minas-tirith.activation``: "on Minas Tirith's activation") or a step of the rules."""
    parts = rule.split(".")
    if len(parts) > 2 and parts[0] == "wotr" and (parts[1] in CARDS or parts[1] in LOCATIONS):
        card = CARDS[parts[1]].name if parts[1] in CARDS else LOCATIONS[parts[1]].name
        return f"on {possessive(card)} {_ABILITIES.get(parts[2], words(parts[2]))}"
    for n in range(len(parts), 0, -1):
        found = _ASKS.get(".".join(parts[:n]))
        if found is not None:
            return found
    return "a question of the rules"


_OPTIONS = {
    "none": "none of them",
    "winnow": "to winnow",
    "reserve": "to play it to the reserve",
    "draw": "to draw cards",
    "forsake": "to forsake a card",
    "rohan": "to eliminate a Rohan character in play",
    "saruman": "to take Saruman from the draw deck",
    "flowchart": "to follow the bot flowchart",
}
"""Option ids the War of the Ring's rules use, as an answer says them."""


def option(said: Said, choice: str) -> str | None:
    return _OPTIONS.get(choice)


BOOK = register(
    Phrasebook(
        game="wotr",
        name=name,
        zone=zone,
        asks=asks,
        option=option,
        phrases={
            "GameCreated": game_created,
            "PositionSet": position_set,
            "BotsSeated": bots_seated,
            "BotChose": bot_chose,
            "CardsCreated": cards_created,
            "DeckShuffled": shared.deck_shuffled,
            "CardsDrawn": shared.cards_drawn,
            "CardsCycled": cards_cycled,
            "CardsEliminated": cards_eliminated,
            "CardTaken": card_taken,
            "CardsLookedAt": cards_looked_at,
            "CardPlayed": card_played,
            "CardMoved": card_moved,
            "RoundBegan": shared.round_began,
            "StepBegan": step_began,
            "TurnEnded": turn_ended,
            "RingTokenUsed": ring_token_used,
            "AbilityUsed": _ability_used,
            "RoundEffectBegan": round_effect_began,
            "RoundEnded": shared.round_ended,
            "StartingPlayerPassed": starting_player_passed,
            "LocationActivated": location_activated,
            "TokensAdded": tokens_added,
            "CorruptionChanged": corruption_changed,
            "CombatBegan": combat_began,
            "LossTaken": loss_taken,
            "CombatEnded": combat_ended,
            "ScoresCounted": scores_counted,
            "GameEnded": game_ended,
        },
    )
)
