"""The game as a track: setup, then rounds of seven phases until the game ends.

Each phase opens (``PhaseBegan``), runs its steps, offers an action window, and ends
(effects lasting until the end of the phase lapse). The round ends the same way.
"""

from __future__ import annotations

from domain.kernel.flow import Call, Node, Repeat, Seq, register
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.effects import emit, st
from domain.lcg.rules import combat, encounter, planning, quest, refresh, resources, travel
from domain.lcg.rules.windows import window

PHASES: tuple[tuple[str, list[Node]], ...] = (
    ("resource", resources.body()),
    ("planning", planning.body()),
    ("quest", quest.body()),
    ("travel", travel.body()),
    ("encounter", encounter.body()),
    ("combat", combat.body()),
    ("refresh", refresh.body()),
)


def phase(name: str, body: list[Node]) -> Node:
    return Seq(
        emit(lambda rt: ev.PhaseBegan(phase=name)),
        *body,
        window(f"lcg.{name}.window"),
        emit(lambda rt: xev.PhaseEnded(phase=name)),
        Call("lcg.end-phase"),
        rule=f"lcg.{name}",
    )


ROUND = register(
    "lcg.round",
    Seq(
        emit(lambda rt: ev.RoundBegan(round=st(rt).round + 1)),
        *(phase(name, body) for name, body in PHASES),
        emit(lambda rt: xev.RoundEnded(round=st(rt).round)),
        Call("lcg.end-round"),
    ),
    rule="lcg.round",
)

GAME = register("lcg.game", Seq(Call("lcg.setup"), Repeat(Call("lcg.round"))), rule="lcg.game")
