"""Resource phase: each hero gains 1 resource, then each player draws 1 card."""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.flow import Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import PLAYER, draw, each_player, emit, st
from domain.lcg.rules import table


def _gain(rt: Runtime) -> Event | None:
    heroes = tuple(table.heroes(st(rt), rt.env["player"]))
    return ev.ResourcesAdded(cards=heroes) if heroes else None


def body() -> list[Node]:
    return [
        each_player(
            Seq(emit(_gain, rule="lcg.resource.gain"), draw(PLAYER, 1)),
            rule="lcg.resource",
        )
    ]
