"""Draw step (rules §4.5, seed 004): each seat draws the scenario's count, plus one for each
card in its reserve that says so (Gandalf the White, Aragorn, The Witch-king, ...); then the
round ends and the starting-player token passes to the next position in turn order.
"""

from __future__ import annotations

from domain.kernel.flow import Call, ForEach, Node, Seq
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.effects import PLAYER, emit, st
from domain.wotr.rules import table
from domain.wotr.rules.procedures import end_of
from domain.wotr.rules.table import cards_in, text_of
from domain.wotr.state import Seat, WotrState


def draw_count(s: WotrState, seat: Seat) -> int:
    extra = sum(text_of(s.cards[u].code).extra_draw for u in cards_in(s, f"{seat}.reserve"))
    return max(0, table.seat_def(s, seat).draw - standard_handicap(s, seat)) + extra


def standard_handicap(s: WotrState, seat: Seat) -> int:
    """Against the Shadow, standard difficulty: each bot draws 1 fewer card than the
    scenario says in the draw step, 2 fewer in the Two-Player Duel (seed 003)."""
    assert s.options is not None
    if not s.is_bot(seat) or s.options.difficulty != "standard":
        return 0
    return 2 if s.options.scenario == "two-player-duel" else 1


def _after_draw(rt: Runtime) -> int:
    s = st(rt)
    return sum(text_of(s.cards[u].code).cycle_after_draw for u in cards_in(s, f"{PLAYER(rt)}.reserve"))


def _next_start(rt: Runtime) -> ev.StartingPlayerPassed:
    s = st(rt)
    start = (s.start + 1) % len(s.order)
    return ev.StartingPlayerPassed(player=s.order[start], start=start)


def body() -> list[Node]:
    return [
        emit(lambda rt: ev.StepBegan(step="draw")),
        ForEach(
            lambda rt: st(rt).seats(),
            "player",
            Seq(
                Call("wotr.draw", lambda rt: {"player": PLAYER(rt), "count": draw_count(st(rt), PLAYER(rt))}),
                Call(
                    "wotr.cycle-from-hand",
                    lambda rt: {"player": PLAYER(rt), "count": _after_draw(rt)},
                    rule="wotr.draw-step.cycle",
                ),
            ),
            rule="wotr.draw-step.draw",
        ),
        end_of("round"),
        emit(lambda rt: ev.RoundEnded(round=st(rt).round), rule="wotr.round.end"),
        emit(_next_start, rule="wotr.round.starting-player"),
    ]
