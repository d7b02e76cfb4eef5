"""Bots: players that answer decisions from what their seat may see.

A bot gets the pending decision and its seat's view of the table (never the full
state), so a bot plays by the same rules of information as a person, in process or
over the network. ``random`` picks uniformly among legal answers; ``greedy`` follows
simple heuristics for each kind of decision, one module per game (bots/lcg_greedy.py,
bots/wotr_greedy.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from domain.kernel.decisions import Choice, Decision, Kind

View = Callable[[], Any]
"""The seat's view of the table (its game's ``TableView``), computed only if the bot asks."""


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


def _lcg_greedy(seed: int) -> Bot:
    from bots.lcg_greedy import GreedyBot

    return GreedyBot(seed)


def _wotr_greedy(seed: int) -> Bot:
    from bots.wotr_greedy import GreedyBot

    return GreedyBot(seed)


GREEDY: dict[str, Callable[[int], Bot]] = {"lcg": _lcg_greedy, "wotr": _wotr_greedy}
"""Each game's greedy player."""

BOTS: dict[str, Callable[[int, str], Bot]] = {
    "random": lambda seed, game: RandomBot(seed),
    "greedy": lambda seed, game: GREEDY[game](seed),
}


def make_bot(kind: str, seed: int, game: str = "lcg") -> Bot:
    """A bot of ``kind`` (``random`` or ``greedy``) for a game of ruleset ``game``."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}")
    if game not in GREEDY:
        raise ValueError(f"no bots for game {game!r}; known: {', '.join(GREEDY)}")
    return BOTS[kind](seed, game)
