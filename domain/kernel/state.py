"""The part of every game's state that the kernel owns.

A ruleset's state subclasses :class:`State`. The whole state is a fold of events:
nothing but :func:`apply` (and the ruleset's apply functions it calls) writes to it.
"""

from __future__ import annotations

import msgspec

from domain.kernel.decisions import Decision
from domain.kernel.events import Delayed, Frame, Limit, Modifier, Outcome

__all__ = ["GENESIS", "UNCHAINED", "Limit", "State"]

GENESIS = "0" * 64
"""The hash the first event of every game is chained to."""

UNCHAINED = "unchained: a rollout's state, no game's"
"""The ``head`` of a state a rollout's runtime has played on (``Runtime(rules, state, None)``):
its events were neither chained nor kept, so it has no head to trust. No hex digest looks
like it, and a runtime that chains, a :class:`~domain.game.Game` and the fold all refuse a
state that carries it (:class:`~domain.kernel.runtime.UnchainedState`)."""


class State(msgspec.Struct, kw_only=True):
    version: int = 0
    seed: int = 0
    rng: int = 0
    head: str = GENESIS
    stack: list[Frame] = msgspec.field(default_factory=list)
    pending: Decision | None = None
    over: Outcome | None = None
    modifiers: list[Modifier] = msgspec.field(default_factory=list)
    delayed: list[Delayed] = msgspec.field(default_factory=list)
    limits: list[Limit] = msgspec.field(default_factory=list)

    def modifier_total(self, target: int, stat: str) -> int:
        return sum(m.amount for m in self.modifiers if m.target == target and m.stat == stat)

    def limit_used(self, key: str) -> bool:
        return any(limit.key == key for limit in self.limits)
