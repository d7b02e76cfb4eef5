"""Bots: players that answer decisions from what their seat may see.

A bot gets the pending decision and its seat's view of the table (never the full
state), so a bot plays by the same rules of information as a person, in process or
over the network. ``random`` picks uniformly among legal answers; ``greedy`` follows
simple heuristics for each kind of decision, one module per game (bots/lcg_greedy.py,
bots/wotr_greedy.py); ``search`` plays rollouts with the greedy player in worlds its seat
cannot tell from the real one (bots/search.py, bots/worlds.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

import msgspec

# importing domain decides the build (domain/build.py) before a compiled bot module loads
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


def is_action_window(decision: Decision) -> bool:
    """A window in which a player may use an Action or pass: what auto-pass passes, at the
    terminal and on the server alike."""
    return ".window" in decision.rule and decision.option("pass") is not None


def without_cards(decision: Decision, barred: set[int]) -> Decision:
    """``decision`` without the options that name a card in ``barred`` (a partner's cards
    the bot may not spend), unless that would leave no legal answer: when every answer uses
    such a card the rules force one, and the decision is left whole."""
    if not barred:
        return decision
    kept = tuple(o for o in decision.options if o.card is None or o.card not in barred)
    if len(kept) == len(decision.options):
        return decision
    if decision.kind is Kind.ORDER or not kept or (decision.kind is Kind.MANY and len(kept) < decision.min):
        return decision
    return msgspec.structs.replace(decision, options=kept, max=min(decision.max, len(kept)))


def _lcg_greedy(seed: int, consent: frozenset[str] = frozenset()) -> Bot:
    from bots.lcg_greedy import GreedyBot

    return GreedyBot(seed, consent)


def _wotr_greedy(seed: int, consent: frozenset[str] = frozenset()) -> Bot:
    from bots.wotr_greedy import GreedyBot

    return GreedyBot(seed, consent)


GREEDY: dict[str, Callable[..., Bot]] = {"lcg": _lcg_greedy, "wotr": _wotr_greedy}
"""Each game's greedy player: ``GREEDY[game](seed, consent)``."""

DEFAULT_SEARCH_SECONDS = 2.0
"""CPU seconds the search bot may spend on a decision it searches, unless told otherwise."""


def _search(seed: int, game: str, consent: frozenset[str], state: Callable[[], Any] | None, budget: Any) -> Bot:
    if state is None:
        raise ValueError(
            "the search bot reads the game's state (what its seat may see of it), so it plays only where the "
            "game is held in the same process (simulate, play, bench-bots), not as a client over the network"
        )
    from bots.search import Budget, SearchBot
    from domain.rulesets import ruleset

    return SearchBot(ruleset(game), state, budget or Budget(cpu_seconds=DEFAULT_SEARCH_SECONDS), seed, consent)


BOTS: dict[str, Callable[[int, str, frozenset[str], Callable[[], Any] | None, Any], Bot]] = {
    "random": lambda seed, game, consent, state, budget: RandomBot(seed),
    "greedy": lambda seed, game, consent, state, budget: GREEDY[game](seed, consent),
    "search": _search,
}
"""Every bot by name (``westmarch play --bot SEAT=NAME``, ``simulate --bot NAME``)."""


def make_bot(
    kind: str,
    seed: int,
    game: str = "lcg",
    *,
    consent: frozenset[str] = frozenset(),
    state: Callable[[], Any] | None = None,
    budget: Any = None,
) -> Bot:
    """A bot of ``kind`` (``random``, ``greedy`` or ``search``) for a game of ruleset ``game``.

    ``consent``: the other seats whose cards the bot may choose when a decision lets it
    (a partner's character to take damage, a partner's ally to attack). A person consents
    by seating bots: ``simulate`` and ``bench-bots`` seat one bot kind in every seat and give
    each the others' consent; ``play`` gives each bot the seats played by bots of its kind.
    Nobody's consent is assumed: a bot beside a person never spends the person's cards
    unless the rules leave it no other answer.

    ``state`` (the search bot only): gives the game's current state, of which the search
    reads only what its seat may see; ``budget`` (a :class:`bots.search.Budget`): what it
    may spend per decision (default: 2 s of CPU).
    """
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}")
    if game not in GREEDY:
        raise ValueError(f"no bots for game {game!r}; known: {', '.join(GREEDY)}")
    return BOTS[kind](seed, game, consent, state, budget)
