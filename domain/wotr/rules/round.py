"""The game as a track: setup, then rounds of five steps until a victory check ends it.

Rules §4 (seed 004): 1 location step, 2 action step, 3 combat step, 4 victory check,
5 draw step.
"""

from __future__ import annotations

from domain.kernel.flow import Call, Node, Repeat, Seq, register
from domain.wotr import events as ev
from domain.wotr.effects import emit, st
from domain.wotr.rules import action, combat, draw, location, victory

STEPS: tuple[tuple[str, list[Node]], ...] = (
    ("location", location.body()),
    ("action", action.body()),
    ("combat", combat.body()),
    ("victory", victory.body()),
    ("draw-step", draw.body()),
)

ROUND = register(
    "wotr.round",
    Seq(
        emit(lambda rt: ev.RoundBegan(round=st(rt).round + 1)),
        *(Seq(*body, rule=f"wotr.{name}") for name, body in STEPS),
    ),
    rule="wotr.round",
)

GAME = register("wotr.game", Seq(Call("wotr.setup"), Repeat(Call("wotr.round"))), rule="wotr.game")
