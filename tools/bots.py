"""Bots: players that answer decisions from what their seat may see.

A bot gets the pending decision and its seat's view of the table (never the full
state), so a bot plays by the same rules of information as a person, in process or
over the network. ``random`` picks uniformly among legal answers; ``greedy`` follows
simple heuristics for each kind of decision (tools/lcg_bots.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from domain.kernel.decisions import Choice, Decision, Kind
from projections.lcg import TableView

View = Callable[[], TableView]
"""The seat's view of the table, computed only if the bot asks for it."""


class Bot(Protocol):
    def choose(self, decision: Decision, view: View) -> Choice: ...


class RandomBot:
    """Any legal answer, uniformly (numbers and subsets sized uniformly first)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, decision: Decision, view: View) -> Choice:
        return random_choice(decision, self.rng)


def random_choice(decision: Decision, rng: random.Random) -> Choice:
    ids = [o.id for o in decision.options]
    if decision.kind is Kind.ONE:
        return (rng.choice(ids),)
    if decision.kind is Kind.MANY:
        return tuple(rng.sample(ids, rng.randint(decision.min, min(decision.max, len(ids)))))
    if decision.kind is Kind.ORDER:
        rng.shuffle(ids)
        return tuple(ids)
    return (str(rng.randint(decision.min, decision.max)),)


def _greedy(seed: int) -> Bot:
    from tools.lcg_bots import GreedyBot

    return GreedyBot(seed)


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": _greedy}


def make_bot(kind: str, seed: int) -> Bot:
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}") from None
