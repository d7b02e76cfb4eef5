"""The Shadow bot's flowchart (seed 003, "Bot Flowchart"), followed from the top on each of
its turns in the action step:

1. Use an action? If the bot can usefully resolve "use an action" text on a card in play:
   on a path first, then on a battleground, then in reserve (right-most first); each such
   text's usefulness test is registered below (``usefully.py``: none may be missing).
2. Pass? Only if the whole chain holds: (a) another player is above the carryover limit,
   (b) the path number is below the scenario's maximum, (c) the Shadow is winning every
   combat.
3. Move? The right-most eligible and useful card in reserve, to the path if the Shadow
   could conceivably win there but is losing (or it is the highest path allowed), else to
   the right-most battleground where it could conceivably win but is losing.
4. Play a random card from hand: an item to the right-most wielder where it can be played;
   else to the path, then the right-most battleground, as in step 3; else to reserve.

:func:`turn` returns the option the action step dispatches, with the flowchart step and
the reason, recorded in a ``BotChose`` event before anything happens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from domain.kernel.runtime import Runtime
from domain.wotr.bot.judgement import (
    conceivably_wins,
    free_hand_above_carryover,
    path_below_max,
    shadow_wins,
    standing,
    useful_there,
    winning_everywhere,
    worth_fighting,
)
from domain.wotr.bot.usefully import Test, action_is_useful, always_useful, useful_when
from domain.wotr.cards.saruman import southron_scored
from domain.wotr.rules import table
from domain.wotr.rules.action import available_actions
from domain.wotr.state import SHADOW, Seat, Uid, WotrState


class Move(NamedTuple):
    """What the flowchart chose: the action step's option id, the step, and why."""

    choice: str
    step: str
    reason: str
    cards: tuple[Uid, ...] = ()
    location: Uid | None = None


# -- step 1: use an action usefully ------------------------------------------------------
# Each "use an action" text a Shadow bot may use has its verdict (domain/wotr/bot/usefully.py).
# Seed 003, "Usefully": "It is useful: ... To force the Free Peoples to forsake, eliminate,
# or cycle cards. To add corruption (regardless of the cost). To draw cards."

FORCES = "it forces the Free Peoples to forsake, eliminate or cycle cards (seed 003, It is useful)"
CORRUPTION = "it adds corruption, regardless of the cost (seed 003, It is useful)"
DRAWS = "it takes cards into the bot's hand (seed 003, It is useful: to draw cards)"

always_useful(
    "saruman-115",
    "saruman-117",
    "saruman-119",
    "saruman-120",
    "saruman-121",
    "witch-king-145",
    "witch-king-146",
    why=FORCES,
)
always_useful("witch-king-153", "witch-king-159", "witch-king-162", why=CORRUPTION)
always_useful("saruman-109", "witch-king-148", "witch-king-150", why=DRAWS)
always_useful(
    "saruman-106",
    "ats-grima-wormtongue",
    why="each choice it offers takes Saruman into hand, eliminates a Rohan character or draws 2, and it is "
    "offered only when one can be made (seed 003, example of bot play 2)",
)


@useful_when(
    "saruman-108",
    "saruman-116",
    "saruman-122",
    "ats-flocks-of-crebain",
    why="seed 003: it is not useful to activate a path if the Shadow would not win the resulting combat on the "
    "current path (the new path need not be one it could conceivably win)",
)
def _path_activator(s: WotrState, seat: Seat, uid: Uid) -> bool:
    path = table.active_path(s)
    return path is not None and shadow_wins(s, path)


def _raid(code: str) -> Test:
    """Activating a battleground is useful only where the Shadow could conceivably win
    (the card paying for it by leaving does not count)."""

    def useful(s: WotrState, seat: Seat, uid: Uid) -> bool:
        target = next((u for u in s.cards if s.cards[u].code == code), None)
        return target is not None and conceivably_wins(s, target, leaving=uid)

    return useful


RAIDS = "seed 003: it is not useful to activate a battleground that the Shadow could not conceivably win"
for _code, _target in (
    ("saruman-126", "dol-amroth"),
    ("saruman-127", "minas-tirith"),
    ("saruman-128", "pelargir"),
    ("saruman-129", "umbar"),
    ("saruman-130", "harad"),
):
    useful_when(_code, why=RAIDS)(_raid(_target))


@useful_when("saruman-131", why=RAIDS + " (a Southron battleground reactivated from a scoring area)")
def _serpent_raid(s: WotrState, seat: Seat, uid: Uid) -> bool:
    return any(conceivably_wins(s, target, leaving=uid) for target in southron_scored(s))


def _token(kind: str, attack: int, defense: int) -> Test:
    """A token is useful on a combat the Shadow is losing but could conceivably win with it
    (attack tokens where the Shadow attacks, defense tokens where it defends)."""

    def useful(s: WotrState, seat: Seat, uid: Uid) -> bool:
        for location in table.active_locations(s):
            where = table.loc(s, location)
            if where.kind != kind or (kind == "battleground" and (where.deck == SHADOW) != (defense > 0)):
                continue
            if not shadow_wins(s, location) and conceivably_wins(s, location, None, attack, defense, leaving=uid):
                return True
        return False

    return useful


TOKENS = (
    "seed 003: it is useful to add icons to a combat the Shadow would not win if combat were resolved now, "
    "but could conceivably win"
)
useful_when("witch-king-147", why=TOKENS)(_token("path", 1, 0))
useful_when("witch-king-151", why=TOKENS)(_token("battleground", 1, 0))
useful_when("witch-king-152", why=TOKENS)(_token("battleground", 0, 1))


@useful_when(
    "ats-coastal-raiders",
    why="seed 003: before the Shadow would use the text on Coastal Raiders, there would need to be at least 2 more "
    "Shadow symbols in reserve that could also move to Dol Amroth",
)
def _coastal_raiders(s: WotrState, seat: Seat, uid: Uid) -> bool:
    target = next((u for u in s.zone("bg.free") if s.cards[u].code == "dol-amroth"), None)
    return target is not None and conceivably_wins(s, target, playing=uid)


@useful_when(
    "ats-the-messenger",
    why="seed 003: no point in The Messenger's text when every Nazgûl is in play or eliminated (as far as the "
    "Free Peoples know: hand, deck and cycle pile are unknown)",
)
def _messenger(s: WotrState, seat: Seat, uid: Uid) -> bool:
    return any(
        u != uid and table.defn(s, u).has("Nazgul") and table.is_a(s, u, "character")
        for zone in ("hand", "deck", "cycle")
        for u in s.zone(f"{seat}.{zone}")
    ) and table.can_draw(s, seat)


def _where_rank(s: WotrState, uid: Uid) -> tuple[int, int, int]:
    """Step 1's priority: on a path, then on a battleground (right-most first), then in
    reserve; right-most card first within each."""
    zone = s.cards[uid].zone
    position = -s.zone(zone).index(uid)
    if table.on_path(s, uid):
        return (0, 0, position)
    location = table.location_of(s, uid)
    if location is not None:
        return (1, -table.active_battlegrounds(s).index(location), position)
    return (2, 0, position)


def use_action(s: WotrState, seat: Seat) -> Move | None:
    found = [(u, i) for u, i, _ in available_actions(s, seat)]
    for uid, index in sorted(found, key=lambda a: _where_rank(s, a[0])):
        if action_is_useful(s, seat, uid, index):
            where = "on a path" if table.on_path(s, uid) else "in reserve"
            if table.location_of(s, uid) is not None and not table.on_path(s, uid):
                where = "on a battleground"
            return Move(
                f"use.{uid}.{index}",
                "flowchart.1-action",
                f"it can usefully use the action of a card {where} (path, then battleground, then reserve)",
                (uid,),
            )
    return None


# -- step 2: the pass chain --------------------------------------------------------------


def pass_chain(s: WotrState, seat: Seat) -> tuple[bool, str]:
    """Whether the bot passes, and the answer that decided it."""
    if not free_hand_above_carryover(s, seat):
        return False, "no other player is above the carryover limit (2a: no)"
    if not path_below_max(s):
        return False, "the path is at the scenario's maximum (2b: no)"
    if not winning_everywhere(s):
        return False, "the Shadow is not winning every combat (2c: no)"
    return (
        True,
        "another player is above the carryover limit, the path is below the maximum, the Shadow wins every combat",
    )


# -- step 3: move ------------------------------------------------------------------------


def _crebain_flies(s: WotrState, uid: Uid, path: Uid) -> bool:
    """Flocks of Crebain: "If in reserve, move this card to a path 2-6, even if the Shadow is
    winning"."""
    return s.cards[uid].code == "ats-flocks-of-crebain" and 2 <= table.loc(s, path).number <= 6


def _movable(s: WotrState, seat: Seat) -> list[Uid]:
    """The bot's reserve cards that may move, right-most first (First In, Last Out; a bot
    may move a card played to reserve this round)."""
    return [u for u in reversed(s.zone(f"{seat}.reserve")) if s.cards[u].wielder is None]


def move(s: WotrState, seat: Seat) -> Move | None:
    cards = _movable(s, seat)
    path = table.active_path(s)
    if path is not None:
        fighting = worth_fighting(s, path)
        for uid in cards:
            if not table.may_enter(s, uid, path):
                continue
            if _crebain_flies(s, uid, path):
                return Move(
                    f"move.{uid}.{path}",
                    "flowchart.3-move",
                    "Flocks of Crebain moves from reserve to a path 2-6 even if the Shadow is winning",
                    (uid,),
                    path,
                )
            if fighting and useful_there(s, uid, path):
                return Move(
                    f"move.{uid}.{path}",
                    "flowchart.3-move",
                    _fight_reason(s, path, "path") + "; the right-most eligible and useful card in reserve moves",
                    (uid,),
                    path,
                )
    for location in reversed(table.active_battlegrounds(s)):
        if not worth_fighting(s, location):
            continue
        for uid in cards:
            if table.may_enter(s, uid, location) and useful_there(s, uid, location):
                return Move(
                    f"move.{uid}.{location}",
                    "flowchart.3-move",
                    _fight_reason(s, location, "battleground")
                    + "; the right-most eligible and useful card in reserve moves",
                    (uid,),
                    location,
                )
    return None


def _fight_reason(s: WotrState, location: Uid, kind: str, playing: Uid | None = None) -> str:
    if table.loc(s, location).kind == "path" and table.loc(s, location).number >= table.scenario_of(s).last_path:
        return "the current path is the highest the scenario allows"
    return f"the Shadow could conceivably win on this {kind} but is losing now ({standing(s, location, playing)})"


# -- step 4: play a random card ----------------------------------------------------------


EVENT_USEFUL: dict[str, Callable[[WotrState, Seat], bool]] = {
    "saruman-112": lambda s, seat: bool(table.find(s, "Saruman", zones=(f"{seat}.reserve",))),
    "witch-king-163": lambda s, seat: bool(table.find(s, "The Witch-king", zones=(f"{seat}.reserve",))),
}
"""Events whose text does nothing unless its condition holds (the rest are useful)."""


def placement(s: WotrState, seat: Seat, uid: Uid, dests: list[str] | None = None) -> tuple[str, str] | None:
    """Where the bot plays card ``uid`` (step 4's priority), and why; None if it cannot be
    played usefully anywhere. ``dests``: the destinations allowed (default: every legal one)."""
    allowed = table.play_destinations(s, seat, uid) if dests is None else dests
    kind = table.defn(s, uid).type
    if kind == "item":
        wielders = [d for d in allowed if d.startswith("W")]
        if wielders:
            return wielders[-1], "an item goes to the right-most wielder where it can be played"
        return None
    if kind == "event":
        useful = EVENT_USEFUL.get(s.cards[uid].code)
        if "event" in allowed and (useful is None or useful(s, seat)):
            return "event", "an event whose text is useful is played"
        return None
    path = table.active_path(s)
    on_path = path is not None and f"L{path}" in allowed
    if on_path and path is not None and worth_fighting(s, path, uid) and useful_there(s, uid, path):
        return f"L{path}", _fight_reason(s, path, "path", uid)
    for location in reversed(table.active_battlegrounds(s)):
        if f"L{location}" in allowed and worth_fighting(s, location, uid) and useful_there(s, uid, location):
            return f"L{location}", _fight_reason(
                s, location, "battleground", uid
            ) + ", the right-most such battleground"
    if "reserve" in allowed:
        return "reserve", "nowhere on a path or battleground is worth it, so to reserve"
    return None


def play(rt: Runtime, s: WotrState, seat: Seat) -> Move | None:
    hand = s.zone(f"{seat}.hand")
    if not hand:
        return None
    (uid,) = rt.pick(hand)
    if uid in s.played:
        return Move(
            f"bot-cycle.{uid}",
            "flowchart.4-play",
            "a random card from its hand was already played this round: it is cycled instead",
            (uid,),
        )
    placed = placement(s, seat, uid)
    if placed is None:
        return Move(
            f"bot-cycle.{uid}",
            "flowchart.4-play",
            "a random card from its hand cannot be played usefully anywhere: it is cycled",
            (uid,),
        )
    dest, why = placed
    location = int(dest[1:]) if dest.startswith("L") else None
    return Move(f"play.{uid}.{dest}", "flowchart.4-play", f"a random card from its hand: {why}", (uid,), location)


def turn(rt: Runtime, s: WotrState, seat: Seat) -> Move:
    """The flowchart, from the top, for ``seat``'s turn."""
    used = use_action(s, seat)
    if used is not None:
        return used
    passes, why = pass_chain(s, seat)
    if passes:
        return Move("pass", "flowchart.2-pass", why)
    moved = move(s, seat)
    if moved is not None:
        return moved
    played = play(rt, s, seat)
    if played is not None:
        return Move(
            played.choice, played.step, f"{why}; no useful move; {played.reason}", played.cards, played.location
        )
    return Move("pass", "flowchart.2-pass", f"{why}; no useful move and no card in hand: nothing to do but pass")
