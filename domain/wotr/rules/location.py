"""Location step (rules §4.1, seed 004): the starting player activates a battleground and
the next path; each activation text resolves as its card is activated.

- Battleground: a random card of the starting player's team's battleground deck (the
  other deck if that one is empty; none if both are). The Fellowship scenario activates
  its scheduled battlegrounds instead.
- Path: round 1, a random path numbered 1; later, a random path numbered one higher than
  the last path activated (open question 7: a jump made by text during the previous round
  carries over).
"""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.flow import Call, ForEach, If, Node, Seq
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.effects import emit, st
from domain.wotr.rules import table
from domain.wotr.rules.table import cards_in
from domain.wotr.state import other


def _battleground(rt: Runtime) -> Event | None:
    s = st(rt)
    side = s.team_of(s.starting_seat())
    for zone in (f"bg.{side}", f"bg.{other(side)}"):
        pool = cards_in(s, zone)
        if pool:
            (uid,) = rt.pick(pool)
            return ev.LocationActivated(location=uid, to="battlegrounds")
    return None


def _scheduled(rt: Runtime) -> list[int]:
    s = st(rt)
    schedule = table.scenario_of(s).schedule or ()
    if s.round > len(schedule):
        return []
    codes = schedule[s.round - 1]
    return [u for zone in ("bg.free", "bg.shadow") for u in cards_in(s, zone) if s.cards[u].code in codes]


def next_path_number(rt: Runtime) -> int:
    return st(rt).path_number + 1


def _path(rt: Runtime) -> Event | None:
    s = st(rt)
    if table.active_path(s) is not None:
        return None
    number = next_path_number(rt)
    pool = cards_in(s, f"paths.{number}")
    if not pool:
        return None
    (uid,) = rt.pick(pool)
    return ev.LocationActivated(location=uid, to="path", number=number)


def body() -> list[Node]:
    return [
        emit(lambda rt: ev.StepBegan(step="location")),
        If(
            lambda rt: table.scenario_of(st(rt)).schedule is None,
            emit(_battleground, rule="wotr.location.battleground"),
            ForEach(
                _scheduled,
                "scheduled",
                Call("wotr.activate", lambda rt: {"location": rt.env["scheduled"]}),
                rule="wotr.location.scheduled-battleground",
            ),
        ),
        Seq(emit(_path), rule="wotr.location.path"),
    ]
