"""Victory check (rules §4.4, §8, seed 004).

Both teams' scores are counted: battlegrounds in the scoring area, paths for the Free
Peoples, corruption tokens for the Shadow. A lead of 10 or more wins at once (sudden
death). After the combat on the scenario's last path the game ends: unused once-a-game
Ring tokens add 1 point each to their team, the higher score wins, a tie goes to the
Shadow.
"""

from __future__ import annotations

from domain.kernel.events import Event, GameEnded, Outcome
from domain.kernel.flow import If, Node, Seq
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.effects import emit, st
from domain.wotr.rules import table
from domain.wotr.rules.table import cards_in
from domain.wotr.state import FREE, SHADOW, WotrState


def lead(s: WotrState) -> int:
    return table.score(s, FREE) - table.score(s, SHADOW)


def sudden_death(rt: Runtime) -> Event | None:
    difference = lead(st(rt))
    if abs(difference) < table.SUDDEN_DEATH:
        return None
    winner = FREE if difference > 0 else SHADOW
    return GameEnded(outcome=Outcome(result=winner, reason="sudden-death", winner=winner))


def last_path_fought(s: WotrState) -> bool:
    """The scenario's last path has been fought, or no later path is left to activate."""
    last = table.scenario_of(s).last_path
    if s.path_number >= last:
        return True
    return not any(cards_in(s, f"paths.{n}") for n in range(s.path_number + 1, last + 1))


def final(rt: Runtime) -> Event:
    s = st(rt)
    free, shadow = table.score(s, FREE, True), table.score(s, SHADOW, True)
    if free > shadow:
        return GameEnded(outcome=Outcome(result=FREE, reason="final-score", winner=FREE))
    reason = "tie-goes-to-shadow" if free == shadow else "final-score"
    return GameEnded(outcome=Outcome(result=SHADOW, reason=reason, winner=SHADOW))


def _checked(rt: Runtime) -> bool:
    """Against the Shadow: no victory check at the end of each round; the game is played to
    the scenario's last path and scored then (seed 003, Victory)."""
    s = st(rt)
    return s.options is None or not s.options.bots


def body() -> list[Node]:
    return [
        emit(lambda rt: ev.StepBegan(step="victory")),
        If(
            _checked,
            Seq(
                emit(lambda rt: ev.ScoresCounted(free=table.score(st(rt), FREE), shadow=table.score(st(rt), SHADOW))),
                emit(sudden_death, rule="wotr.victory.sudden-death"),
            ),
        ),
        If(
            lambda rt: last_path_fought(st(rt)),
            Seq(
                emit(
                    lambda rt: ev.ScoresCounted(
                        free=table.score(st(rt), FREE, True), shadow=table.score(st(rt), SHADOW, True), final=True
                    )
                ),
                emit(final),
            ),
            rule="wotr.victory.final",
        ),
    ]
