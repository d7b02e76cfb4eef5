"""Planning phase: each player in turn plays allies and attachments from hand, paying their cost.

Rules: a card's cost is paid with resources from the pools of heroes whose sphere
matches the card's (neutral cards may use any hero; :mod:`domain.lcg.rules.resources`,
which events share);
a unique card cannot enter play while a card of the same title is in play; an attachment
needs a legal target (:mod:`domain.lcg.rules.attachments`). When several ways to pay
exist, the player chooses which heroes pay. The planning step is a special action window
(Rules Reference, Round Sequence, 2.2: players may take actions as they play their cards);
here the Actions that change what a card costs (``Action.planning``: The Arkenstone) are
offered between the cards a player plays, the others in the window that closes the phase.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Break, Call, Case, Decide, If, Let, Node, Repeat
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import card_option, each_player, emit, st
from domain.lcg.rules import attachments, table
from domain.lcg.rules.constant import ally_cap_reached
from domain.lcg.rules.resources import Purse, cost_payments, payment_id
from domain.lcg.rules.windows import action_env, action_program, available_actions
from domain.lcg.state import LcgState, Seat, Uid

PLANNING_TYPES = ("ally", "attachment", "treasure")
"""The cards played in the planning phase (events are played in action windows). A treasure
(The Hobbit saga) is played as an attachment is, onto the card its text names."""

COST_REDUCTIONS: Final[list[Callable[[LcgState, Seat, Uid], int]]] = []
"""Texts that make an ally or attachment cost less to play now (The Arkenstone): how much less."""

ACTION = "action:"
"""The option id prefix of an Action used during the planning step (``action:<uid>.<i>``)."""


def cost(s: LcgState, seat: Seat, uid: Uid) -> int:
    """What playing the card costs ``seat`` now: its printed cost less any reduction."""
    printed = table.definition_of(s, uid).cost
    if not COST_REDUCTIONS:
        return printed
    return max(0, printed - sum(r(s, seat, uid) for r in table.in_game(s, COST_REDUCTIONS)))


def playable(s: LcgState, seat: Seat) -> list[Uid]:
    out = []
    purse: Purse | None = None  # the hand's cards are asked of one state: made at the first
    for uid in table.hand(s, seat):
        d = table.definition_of(s, uid)
        if d.type not in PLANNING_TYPES or (d.unique and table.unique_in_play(s, d.code)):
            continue
        if d.type == "ally" and ally_cap_reached(s):
            continue
        if purse is None:
            purse = Purse(s, seat)
        # whether it can be paid for before whether it has a target: both only read the
        # state, and the purse answers from what it read of the hand's other cards
        if not purse.can_pay(d.sphere, cost(s, seat, uid)):
            continue
        if d.type in ("attachment", "treasure") and not attachments.targets(s, uid):
            continue
        out.append(uid)
    return out


def payments(s: LcgState, seat: Seat, uid: Uid) -> list[tuple[ev.Payment, ...]]:
    """Every way the matching heroes can pay the card's cost exactly."""
    return cost_payments(s, seat, table.definition_of(s, uid).sphere, cost(s, seat, uid))


def _ask_play(rt: Runtime) -> Ask:
    s = st(rt)
    seat = rt.env["player"]
    options = [Option(str(u), f"Play {table.name(s, u)} (cost {cost(s, seat, u)})", u) for u in playable(s, seat)]
    actions = [Option(f"{ACTION}{o.id}", o.label, o.card) for o in available_actions(s, seat, planning=True)]
    return Ask(
        seat,
        "Planning: play an ally or an attachment, or finish planning",
        [*options, *actions, Option("done", "Done")],
    )


def _is_action(rt: Runtime) -> bool:
    return str(rt.env["play"]).startswith(ACTION)


def _action(rt: Runtime) -> dict[str, str]:
    return {"action": str(rt.env["play"])[len(ACTION) :]}


def _ask_target(rt: Runtime) -> Ask:
    s = st(rt)
    uid = int(rt.env["play"])
    options = [card_option(s, u) for u in attachments.targets(s, uid)]
    return Ask(rt.env["player"], f"Attach {table.name(s, uid)} to", options, about=uid)


def _ask_payment(rt: Runtime) -> Ask:
    s = st(rt)
    seat = rt.env["player"]
    uid = int(rt.env["play"])
    options = []
    for way in payments(s, seat, uid):
        label = ", ".join(f"{table.name(s, p.card)} pays {p.amount}" for p in way) or "free"
        options.append(Option(payment_id(way), label))
    return Ask(seat, f"Pay for {table.name(s, uid)}", options, about=uid)


Played = Callable[[Runtime, tuple[ev.Payment, ...]], Event]


def pay_then(played: Played) -> Decide:
    """The player chooses how to pay for the card ``play``; then ``played`` makes the event
    that it was played, with those payments."""

    def make(rt: Runtime) -> Event:
        chosen = str(rt.env["payment"])
        way = next(w for w in payments(st(rt), rt.env["player"], int(rt.env["play"])) if payment_id(w) == chosen)
        return played(rt, way)

    return Decide(_ask_payment, "payment", emit(make), auto_single=True, rule="lcg.planning.pay")


def _ally_played(rt: Runtime, way: tuple[ev.Payment, ...]) -> Event:
    return ev.AllyPlayed(player=rt.env["player"], card=int(rt.env["play"]), payments=way)


def _attachment_played(rt: Runtime, way: tuple[ev.Payment, ...]) -> Event:
    return ev.AttachmentPlayed(player=rt.env["player"], card=int(rt.env["play"]), to=int(rt.env["to"]), payments=way)


def _kind(rt: Runtime) -> dict[str, str]:
    return {"kind": table.defn(st(rt), int(rt.env["play"])).type}


_PLAY = Let(
    _kind,
    Case(
        "kind",
        {
            "ally": pay_then(_ally_played),
            "attachment": Decide(
                _ask_target, "to", pay_then(_attachment_played), auto_single=True, rule="lcg.planning.attach"
            ),
            "treasure": Decide(
                _ask_target, "to", pay_then(_attachment_played), auto_single=True, rule="lcg.planning.attach"
            ),
        },
    ),
)
"""Play the chosen ally, attachment or treasure: its target, then how to pay."""


def body() -> list[Node]:
    return [
        each_player(
            Repeat(
                Decide(
                    _ask_play,
                    "play",
                    If(
                        lambda rt: rt.env["play"] == "done",
                        Break(),
                        If(_is_action, Let(_action, Call(action_program, action_env)), _PLAY),
                    ),
                    auto_single=True,
                    rule="lcg.planning.play-ally",
                )
            ),
            rule="lcg.planning",
        )
    ]
