"""Action windows: after most steps, players may use Action abilities.

Rules: the first player has the first opportunity, then each other player in turn order;
the window closes once every player in a row has passed. Here each player who has an
Action they can pay for is asked in turn; using one starts the round of opportunities
again from the first player. A player with no usable Action is not asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from domain.kernel.decisions import Option
from domain.kernel.flow import Ask, Call, Decide, If, Node, Restart, Seq
from domain.kernel.runtime import Runtime
from domain.lcg.effects import each_player, st
from domain.lcg.rules import table
from domain.lcg.rules.playing_events import event_actions
from domain.lcg.rules.table import cards_in, seats_in_turn, text_of
from domain.lcg.state import LcgState, Seat


def available_actions(
    s: LcgState, seat: Seat, planning: bool = False, with_actions: list[tuple[Seat | None, int]] | None = None
) -> list[Option]:
    """The Actions ``seat`` may use now: on cards it controls (characters, attachments),
    or open to every player, and the Action events in its hand. ``planning``: only the
    Actions also offered between the cards a player plays in the planning step.
    ``with_actions``: :func:`_with_actions` of this state, if already known."""
    options: list[Option] = []
    cards = s.cards
    for owner, uid in _with_actions(s) if with_actions is None else with_actions:
        actions = text_of(cards[uid].code).actions
        if not actions or table.blank(s, uid):
            continue
        for i, action in enumerate(actions):
            if planning and not action.planning:
                continue
            if (owner == seat or action.anyone) and action.available(s, uid, seat):
                label = f"{table.name(s, uid)}: {action.label}"
                options.append(Option(f"{uid}.{i}", label, uid))
    if planning:
        return options
    # objectives in the staging area: any player may claim them (none to look at when no
    # card with Actions is staged)
    if any(cards[u].zone == "staging" for u in table.acting_in_play(s)):
        for uid in table.staging(s):
            for i, action in enumerate(text_of(cards[uid].code).actions):
                if action.anyone and action.available(s, uid, seat):
                    options.append(Option(f"{uid}.{i}", f"{table.name(s, uid)}: {action.label}", uid))
    return options + event_actions(s, seat)


_ACTING_ZONES: Final = frozenset(("attachments", "setup", "quest"))
_SEAT_ACTING_ZONES: Final = (".heroes", ".allies", ".contract")
"""The zones :func:`_with_actions` looks in: shared, and each seat's (``<seat>.heroes``)."""


_LOOKED_AT: Final[dict[str, bool]] = {}
"""By zone: :func:`_acting_zone` (a game has a few dozen zones)."""


def _acting_zone(zone: str) -> bool:
    """Whether :func:`_with_actions` may look at a card lying in ``zone``."""
    found = _LOOKED_AT.get(zone)
    if found is None:
        found = _LOOKED_AT[zone] = zone in _ACTING_ZONES or zone.endswith(_SEAT_ACTING_ZONES)
    return found


def _with_actions(s: LcgState) -> list[tuple[Seat | None, int]]:
    """Cards in play with Actions, with who controls them: characters and the
    attachments a player controls; encounter conditions, the scenario's setup card and quest
    stage are nobody's (their Actions say who may use them)."""
    out: list[tuple[Seat | None, int]] = []
    cards = s.cards
    if not any(_acting_zone(cards[u].zone) for u in table.acting_in_play(s)):
        return out  # no card with Actions lies where one is looked for below (most windows)
    # only attachments with Actions, in the zone's order: an attachment left out here has
    # none, so it is left out of each player's and of the nobody's below
    acting = [a for a in cards_in(s, "attachments") if text_of(cards[a].code).actions]
    for owner in seats_in_turn(s):
        for u in table.characters(s, owner):
            if text_of(cards[u].code).actions:
                out.append((owner, u))
        if acting:
            out += [(owner, a) for a in table.controlled_attachments(s, owner, acting)]
        out += [(owner, u) for u in cards_in(s, table.seat_key(owner, "contract")) if text_of(cards[u].code).actions]
    if acting:
        controlled = {u for _, u in out}
        out += [(None, a) for a in acting if a not in controlled and cards[a].owner is None]
    out += [(None, u) for u in cards_in(s, "setup") + cards_in(s, "quest") if text_of(cards[u].code).actions]
    return out


class _Asked:
    """The cards with Actions (:func:`_with_actions`) at the state and version a window last
    asked about. A window asks each player in turn; one with nothing to use is passed over
    without an event, so the next is asked of the same table, whose cards with Actions do not
    depend on who is asked. The state only changes by an event, which moves its version.
    Kept as one tuple, written and read at once, so games run in threads never see another's."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[LcgState, int, list[tuple[Seat | None, int]]] | None = None


_ASKED: Final = _Asked()


def _with_actions_asked(s: LcgState) -> list[tuple[Seat | None, int]]:
    last = _ASKED.last
    if last is not None and last[0] is s and last[1] == s.version:
        return last[2]
    cards = _with_actions(s)
    _ASKED.last = (s, s.version, cards)
    return cards


def _asking(prompt: Callable[[LcgState], str] | None) -> Callable[[Runtime], Ask | None]:
    def ask(rt: Runtime) -> Ask | None:
        s = st(rt)
        seat = rt.env["player"]
        options = available_actions(s, seat, with_actions=_with_actions_asked(s))
        if not options:
            return None
        text = prompt(s) if prompt is not None else f"{s.phase.title()} phase: use an Action, or pass"
        return Ask(seat, text, [*options, Option("pass", "Pass")])

    return ask


def action_program(rt: Runtime) -> str:
    """The program of the Action chosen (``action``: ``<uid>.<index>``)."""
    uid, index = str(rt.env["action"]).split(".")
    return f"{st(rt).cards[int(uid)].code}.action.{index}"


def action_env(rt: Runtime) -> dict[str, object]:
    uid = int(str(rt.env["action"]).split(".")[0])
    return {"self": uid, "player": rt.env["player"], "_card": uid}


def window(name: str, prompt: Callable[[LcgState], str] | None = None) -> Node:
    """An action window; ``name`` is its rule reference (``lcg.quest.window.staging``),
    ``prompt`` what each player is asked (by default the phase's window)."""
    return each_player(
        Decide(
            _asking(prompt),
            "action",
            If(
                lambda rt: rt.env["action"] != "pass",
                Seq(Call(action_program, action_env), Restart()),
            ),
        ),
        rule=name,
    )
