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
from projections.i18n import N_, _, card_name, nsay, say
from projections.prompts import translate
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

TEAMS = {FREE: N_("the Free Peoples"), SHADOW: N_("the Shadow")}


def team(key: Any) -> str:
    return _(TEAMS[str(key)]) if str(key) in TEAMS else str(key)


def takes(key: Any) -> str:
    """``the Shadow takes``, ``the Free Peoples take``."""
    return _("the Free Peoples take") if key == FREE else say("%(team)s takes", team=team(key))


def name(state: Any, uid: int) -> str | None:
    card = state.cards.get(uid)
    if card is not None and card.code in LOCATIONS:
        return LOCATIONS[card.code].name
    return None


_SHARED_ZONES = {
    "path": N_("the active path"),
    "battlegrounds": N_("the active battlegrounds"),
    f"{FREE}.score": N_("the Free Peoples' scoring area"),
    f"{SHADOW}.score": N_("the Shadow's scoring area"),
    "out": N_("out of the game"),
    "resolving": N_("play as an event"),
    f"bg.{FREE}": N_("the Free Peoples battleground deck"),
    f"bg.{SHADOW}": N_("the Shadow battleground deck"),
}
_SEAT_ZONES = {
    "deck": N_("draw deck"),
    "hand": N_("hand"),
    "cycle": N_("cycle pile"),
    "eliminated": N_("eliminated pile"),
    "reserve": N_("reserve"),
    "aside": N_("cards set aside"),
}


def _placed(head: str, rest: str) -> str | None:
    """A location's own zone (``at.<code>``) and a path deck (``paths.<number>``)."""
    if head == "at":
        return card_name(LOCATIONS[rest].name) if rest in LOCATIONS else words(rest)
    if head == "paths":
        return say("the path %(number)s deck", number=rest)
    return None


def zone(key: str) -> str:
    return shared.zone_words(key, _SHARED_ZONES, _SEAT_ZONES, _placed)


def _group(key: str) -> str:
    """Piles counted together when cards are created: the path decks, the battleground decks."""
    if key.startswith("paths."):
        return _("the path decks")
    if key.startswith("bg."):
        return _("the battleground decks")
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


STEPS = {
    "draw": N_("the draw step"),
    "location": N_("the location step"),
    "action": N_("the action step"),
    "combat": N_("the combat step"),
    "victory": N_("the victory step"),
}


def step_word(step: Any) -> str:
    key = str(step)
    return _(STEPS[key]) if key in STEPS else say("the %(step)s step", step=words(key))


DIFFICULTIES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"), "standard": N_("standard")}

# -- setup ------------------------------------------------------------------------------------


def game_created(said: Said) -> str:
    options = said.get("options") or {}
    title = scenario_title(str(options.get("scenario", "")))
    sides = []
    for side in (FREE, SHADOW):
        seats = [d.get("seat") for d in options.get("decks") or () if d.get("team") == side]
        if seats:
            sides.append(say("%(seats)s for %(team)s", seats=join(seats), team=team(side)))
    order = [str(seat) for seat in said.get("order") or ()]
    if order:
        sides.append(say("turn order %(order)s", order=", ".join(order)))
    rings = list(said.get("rings") or ())
    if rings:
        sides.append(say("Ring tokens: %(seats)s", seats=join(rings)))
    if said.get("seed") is not None:
        return say(
            "a game of War of the Ring begins, %(title)s (seed %(seed)s): %(sides)s",
            title=title,
            seed=said.get("seed"),
            sides="; ".join(sides),
        )
    return say("a game of War of the Ring begins, %(title)s: %(sides)s", title=title, sides="; ".join(sides))


def bots_seated(said: Said) -> str:
    bots = [str(seat) for seat in said.get("bots") or ()]
    difficulty = str(said.get("difficulty"))
    return nsay(
        "%(bots)s is a Shadow bot played by the rules, %(difficulty)s difficulty. %(substitution)s",
        "%(bots)s are Shadow bots played by the rules, %(difficulty)s difficulty. %(substitution)s",
        len(bots),
        bots=join(bots),
        difficulty=_(DIFFICULTIES[difficulty]) if difficulty in DIFFICULTIES else difficulty,
        substitution=translate(str(said.get("substitution"))),
    )


def position_set(said: Said) -> str:
    if said.get("step"):
        where = say("round %(round)s, %(step)s", round=said.get("round"), step=step_word(said.get("step")))
    else:
        where = say("round %(round)s", round=said.get("round"))
    return shared.laid_out(said, where)


def cards_created(said: Said) -> str:
    seen: dict[str, int] = {}
    for item in said.get("cards") or ():
        if said.sees(item[0]):
            group = _group(str(item[2]))
            seen[group] = seen.get(group, 0) + 1
    hidden = int(said.get("cards_hidden", 0) or 0)
    total = sum(seen.values()) + hidden
    parts = [say("%(count)s in %(zone)s", count=n, zone=group) for group, n in seen.items()]
    if hidden:
        parts.append(a_or_n(hidden, "face-down card"))
    return nsay(
        "%(n)d card comes to the table: %(parts)s",
        "%(n)d cards come to the table: %(parts)s",
        total,
        parts=", ".join(parts),
    )


# -- moving cards -------------------------------------------------------------------------------


def cards_cycled(said: Said) -> str:
    return shared.to_piles(said, "cycled")


def cards_eliminated(said: Said) -> str:
    return shared.to_piles(said, "eliminated")


def card_taken(said: Said) -> str:
    return say("%(player)s takes %(card)s into their hand", player=said.get("player"), card=said.card("card"))


def cards_looked_at(said: Said) -> str:
    cards = said.cards("cards")
    return say("%(player)s looks at %(cards)s", player=said.get("player"), cards=cards.text("face-down card"))


def card_played(said: Said) -> str:
    player, to = said.get("player"), str(said.get("to"))
    card = said.card("card")
    if to == "resolving":
        return say("%(player)s plays the event %(card)s", player=player, card=card)
    if said.get("wielder") is not None:
        wielder = said.card("wielder")
        if to.startswith("at."):
            return say(
                "%(player)s plays %(card)s on %(wielder)s at %(zone)s",
                player=player,
                card=card,
                wielder=wielder,
                zone=zone(to),
            )
        return say("%(player)s plays %(card)s on %(wielder)s", player=player, card=card, wielder=wielder)
    if to == f"{player}.reserve":
        return say("%(player)s plays %(card)s to their reserve", player=player, card=card)
    if to.startswith("at."):
        return say("%(player)s plays %(card)s onto %(zone)s", player=player, card=card, zone=zone(to))
    return say("%(player)s plays %(card)s to %(zone)s", player=player, card=card, zone=zone(to))


def card_moved(said: Said) -> str:
    return say(
        "%(player)s moves %(card)s from reserve onto %(zone)s",
        player=said.get("player"),
        card=said.card("card"),
        zone=zone(str(said.get("to"))),
    )


# -- the round ----------------------------------------------------------------------------------


def step_began(said: Said) -> str:
    return say("%(step)s begins", step=step_word(said.get("step")))


def turn_ended(said: Said) -> str:
    if said.get("passed"):
        return say("%(player)s passes", player=said.get("player"))
    player = str(said.get("player"))
    return say("%(player_s)s turn ends", player_s=possessive(player), player=player)


BOT_STEPS = {
    "flowchart.1-action": N_("flowchart step 1, use an action"),
    "flowchart.2-pass": N_("flowchart step 2, pass"),
    "flowchart.3-move": N_("flowchart step 3, move"),
    "flowchart.4-play": N_("flowchart step 4, play a random card"),
    "first-in-last-out": N_("First In, Last Out"),
    "right-most-location": N_("the right-most location"),
    "random-hand": N_("a random face-down card"),
    "random-path": N_("a random path"),
    "usefully": N_("usefully"),
    "draw-and-play": N_("the first drawn card it can play"),
    "draw-until-nazgul": N_("the first Nazgûl drawn"),
}


def bot_chose(said: Said) -> str:
    step = str(said.get("step"))
    what = []
    cards = said.cards("cards")
    if cards.count:
        what.append(cards.text())
    if said.get("location") is not None:
        what.append(say("at %(location)s", location=said.card("location", N_("a location"))))
    follows = _(BOT_STEPS[step]) if step in BOT_STEPS else words(step)
    reason = translate(str(said.get("reason")))
    if what:
        return say(
            "%(player)s (bot) follows %(step)s: %(chosen)s, because %(reason)s",
            player=said.get("player"),
            step=follows,
            chosen=" ".join(what),
            reason=reason,
        )
    return say(
        "%(player)s (bot) follows %(step)s, because %(reason)s", player=said.get("player"), step=follows, reason=reason
    )


def ring_token_used(said: Said) -> str:
    if said.get("spent"):
        return say("%(player)s flips their Ring token until the next round", player=said.get("player"))
    return say("%(player)s uses up their Ring token", player=said.get("player"))


def _ability_used(said: Said) -> str:
    return shared.ability_used(said, "action")


def round_effect(key: str) -> str:
    """A round effect by the card that makes it (``red-arrow`` -> The Red Arrow)."""
    return card_name(_effects().get(key, words(key)))


def scenario_title(key: str) -> str:
    """A scenario by its title (``two-player-duel`` -> its title)."""
    try:
        return translate(scenario(key).title)
    except KeyError:
        return words(key)


def round_effect_began(said: Said) -> str:
    return say("%(effect)s is in effect until the end of the round", effect=round_effect(str(said.get("effect"))))


def starting_player_passed(said: Said) -> str:
    return say("%(player)s becomes the starting player", player=said.get("player"))


# -- locations, tokens, combat -----------------------------------------------------------------


def location_activated(said: Said) -> str:
    where = said.card("location", N_("a location"))
    again = bool(said.get("reactivated"))
    if said.get("to") == "path":
        if again:
            text = say(
                "path %(number)s, %(location)s, becomes the active path again",
                number=said.get("number"),
                location=where,
            )
        else:
            text = say(
                "path %(number)s, %(location)s, becomes the active path", number=said.get("number"), location=where
            )
    elif again:
        text = say("%(location)s becomes an active battleground again", location=where)
    else:
        text = say("%(location)s becomes an active battleground", location=where)
    if said.get("ignore_defense"):
        text += _(" (its defense is ignored)")
    return text


def tokens_added(said: Said) -> str:
    attack, defense = int(said.get("attack", 0)), int(said.get("defense", 0))
    parts = [plural(n, f"{kind} token") for n, kind in ((attack, "attack"), (defense, "defense")) if n]
    n = attack + defense
    return nsay(
        "%(tokens)s is placed on %(location)s",
        "%(tokens)s are placed on %(location)s",
        n,
        tokens=join(parts) or _("no tokens"),
        location=said.card("location", N_("a location")),
    )


def corruption_changed(said: Said) -> str:
    amount = int(said.get("amount", 0))
    if amount >= 0:
        return say(
            "the Shadow gains %(amount)s corruption (now %(now)s)", amount=abs(amount), now=said.state.corruption
        )
    return say("the Shadow loses %(amount)s corruption (now %(now)s)", amount=abs(amount), now=said.state.corruption)


def combat_began(said: Said) -> str:
    where = said.card("location", N_("a location"))
    on = (
        say("on the path %(location)s", location=where)
        if said.get("kind") == "path"
        else say("at %(location)s", location=where)
    )
    text = say(
        "combat %(where)s, %(team)s attacking: attack %(attack)s against defense %(defense)s",
        where=on,
        team=team(said.get("attackers")),
        attack=said.get("attack"),
        defense=said.get("defense"),
    )
    if said.get("defenders"):
        text += say(" (the defending cards show %(icons)s)", icons=said.get("defenders"))
    supports = [
        say("%(army)s supports %(leader)s", army=said.named(army), leader=said.named(leader))
        for leader, army in said.get("supports") or ()
        if said.sees(leader) and said.sees(army)
    ]
    if supports:
        text += f"; {join(supports)}"
    if said.get("empty"):
        text += _("; no card was played there")
    return text


def loss_taken(said: Said) -> str:
    cards = said.cards("cards")
    icons = plural(int(said.get("icons", 0)), "attack icon")
    return say("the defenders lose %(cards)s, cancelling %(icons)s", cards=cards.text(), icons=icons)


def combat_ended(said: Said) -> str:
    where = said.card("location", N_("a location"))
    winner, corruption = said.get("winner"), int(said.get("corruption", 0))
    if winner is None or said.get("to") == "out":
        text = say("nobody takes %(location)s; it is out of the game", location=where)
    else:
        text = say("%(takes)s %(location)s", takes=takes(winner), location=where)
    if corruption:
        if winner == SHADOW:
            text += say(" and %(amount)s corruption", amount=corruption)
        else:
            text += say("; the Shadow gains %(amount)s corruption", amount=corruption)
    return text


# -- a combat's count, card by card (the preview and the referee's explanation) -----------


def _share(share: Any, name: Callable[[int], str]) -> str:
    """One contribution to a combat's count: ``Riders of Rohan 2``, ``Bow of the Galadhrim 1
    (wielded by Legolas)``, ``Aragorn's leadership 1 (supported by Soldiers of Gondor)``."""
    what, value = share.what, share.value
    if what == "printed":
        return say("printed defense %(value)s", value=value)
    if what == "printed-ignored":
        return _("printed defense ignored (reactivated out of the other team's scoring area)")
    if what == "attack-tokens":
        return plural(value, "attack token")
    if what == "defense-tokens":
        return plural(value, "defense token")
    card = name(share.card) if share.card is not None else _("a card")
    by = name(share.by) if share.by is not None else ""
    if what == "leadership":
        return say(
            "%(card_s)s leadership %(value)s (supported by %(by)s)",
            card_s=possessive(card),
            card=card,
            value=value,
            by=by,
        )
    if what == "support":
        return say("%(card)s %(value)s while supporting %(by)s", card=card, value=value, by=by)
    if what == "text":
        return say("%(card)s %(value)s (its text)", card=card, value=value)
    if by:
        return say("%(card)s %(value)s (wielded by %(by)s)", card=card, value=value, by=by)
    return f"{card} {value}"


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
        say(
            "%(team)s attack %(attack)s = %(sum)s",
            team=team(attackers),
            attack=count.attack,
            sum=_sum(parts["attack"], name, _("no icons")),
        ),
        say(
            "%(team)s defense %(defense)s, cancelling first = %(sum)s",
            team=team(defenders),
            defense=count.defense,
            sum=_sum(parts["defense"], name, _("none")),
        ),
        say(
            "%(team)s cards %(cards)s, cancelling as they are lost = %(sum)s",
            team=team(defenders),
            cards=count.defenders,
            sum=_sum(parts["defenders"], name, _("no card with icons")),
        ),
    ]
    total = count.defense + count.defenders
    if count.winner:
        taken = say("%(takes)s %(location)s", takes=takes(count.winner), location=where)
    else:
        taken = say("nobody takes %(location)s", location=where)
    if count.corruption:
        taken = say("%(taken)s and %(amount)s corruption", taken=taken, amount=count.corruption)
    if count.empty and count.winner is None:
        lines.append(say("no card is on %(location)s: %(taken)s", location=where, taken=taken))
    else:
        left = max(0, count.attack - total)
        if left == 0:
            verdict = _("every attack icon is canceled")
        else:
            verdict = nsay("%(n)d attack icon not canceled", "%(n)d attack icons not canceled", left)
        if count.kind == "path" and count.winner is None and total == count.attack:
            verdict = _("a tie")
        lines.append(
            say(
                "attack %(attack)s against %(defense)s + %(cards)s = %(total)s: %(verdict)s, so %(taken)s",
                attack=count.attack,
                defense=count.defense,
                cards=count.defenders,
                total=total,
                verdict=verdict,
                taken=taken,
            )
        )
    return lines


def scores_counted(said: Said) -> str:
    free, shadow = said.get("free"), said.get("shadow")
    if said.get("final"):
        return say(
            "the final score, with unused Ring tokens: Free Peoples %(free)s, Shadow %(shadow)s",
            free=free,
            shadow=shadow,
        )
    return say("the score: Free Peoples %(free)s, Shadow %(shadow)s", free=free, shadow=shadow)


# -- the kernel's events, as this game tells them --------------------------------------------------

REASONS = {
    "final-score": N_("final score"),
    "sudden-death": N_("sudden death"),
    "conceded": N_("conceded"),
}


def outcome_text(result: str, reason: str, winner: str | None = None) -> str:
    """``GAME OVER: the Shadow wins (final score)``."""
    won = winner or result
    why = _(REASONS[reason]) if reason in REASONS else words(reason)
    if won == FREE:
        return say("GAME OVER: the Free Peoples win (%(reason)s)", reason=why)
    if won == SHADOW:
        return say("GAME OVER: the Shadow wins (%(reason)s)", reason=why)
    return say("GAME OVER: %(result)s (%(reason)s)", result=words(result), reason=why)


def game_ended(said: Said) -> str:
    o = said.get("outcome") or {}
    return outcome_text(str(o.get("result", "")), str(o.get("reason", "")), o.get("winner"))


# -- what another seat decides -----------------------------------------------------------------

_ASKS = {
    "wotr.setup": N_("how to set up the game"),
    "wotr.action": N_("what to do on their turn"),
    "wotr.action.turn": N_("what to do on their turn"),
    "wotr.action.winnow": N_("which 2 cards to eliminate from their hand to winnow"),
    "wotr.action.cycle": N_("which card to cycle"),
    "wotr.action.move": N_("which card to move from their reserve"),
    "wotr.action.play": N_("where to play a card"),
    "wotr.action.use": N_("which ability to use"),
    "wotr.action.ring": N_("whether to use their Ring token"),
    "wotr.action.carryover": N_("which cards to keep in their hand"),
    "wotr.play": N_("how to play a card"),
    "wotr.play.cost": N_("how to pay a card's cost"),
    "wotr.cycle": N_("which cards to cycle"),
    "wotr.cycle-from-hand": N_("which card to cycle from their hand"),
    "wotr.forsake": N_("which card to forsake"),
    "wotr.eliminate": N_("which cards to eliminate"),
    "wotr.draw-play": N_("which drawn card to play"),
    "wotr.search": N_("which card to take from their deck"),
    "wotr.take": N_("which card to take"),
    "wotr.ring": N_("whether to use their Ring token"),
    "wotr.combat": N_("how the combat goes"),
    "wotr.combat.losses": N_("which card the defenders lose"),
    "wotr.combat.order": N_("the order of the cards in combat"),
    "wotr.location": N_("which location becomes active"),
    "wotr.round": N_("how the round goes"),
    "wotr.draw-step": N_("which cards to draw and keep"),
    "wotr.victory": N_("how the game is scored"),
    "wotr.move": N_("which card to move from their reserve"),
    "wotr.use": N_("which ability to use"),
    "wotr.draw": N_("which cards to draw"),
    "wotr.game": N_("how the round goes"),
    "wotr.bot": N_("what the Shadow bot does"),
}
"""What a decision under each rule key is about (the longest known prefix counts)."""

_ABILITIES = {
    "action": N_("action"),
    "activation": N_("activation"),
    "when-played": N_("“when played” text"),
    "when-played-reserve": N_("“when played into reserve” text"),
    "on-play": N_("text as it is played"),
    "entered": N_("text as it comes into play"),
}


def asks(rule: str) -> str:
    """What a decision under ``rule`` is about: a card's or a location's text
    (``wotr.minas-tirith.activation``: "on Minas Tirith's activation") or a step of the rules."""
    parts = rule.split(".")
    if len(parts) > 2 and parts[0] == "wotr" and (parts[1] in CARDS or parts[1] in LOCATIONS):
        card = CARDS[parts[1]].name if parts[1] in CARDS else LOCATIONS[parts[1]].name
        ability = _(_ABILITIES[parts[2]]) if parts[2] in _ABILITIES else words(parts[2])
        named = card_name(card)
        return say("on %(card_s)s %(ability)s", ability=ability, card_s=possessive(named), card=named)
    for n in range(len(parts), 0, -1):
        found = _ASKS.get(".".join(parts[:n]))
        if found is not None:
            return _(found)
    return _("a question of the rules")


_OPTIONS = {
    "none": N_("none of them"),
    "winnow": N_("to winnow"),
    "reserve": N_("to play it to the reserve"),
    "draw": N_("to draw cards"),
    "forsake": N_("to forsake a card"),
    "rohan": N_("to eliminate a Rohan character in play"),
    "saruman": N_("to take Saruman from the draw deck"),
    "flowchart": N_("to follow the bot flowchart"),
}
"""Option ids the War of the Ring's rules use, as an answer says them."""


def option(said: Said, choice: str) -> str | None:
    return _(_OPTIONS[choice]) if choice in _OPTIONS else None


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
