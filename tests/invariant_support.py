"""Playing random games while probing the engine with illegal answers (invariant 6)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.decisions import (
    Decision,
    IllegalChoice,
    Kind,
    NotYourDecision,
    RuleError,
    UnknownDecision,
)
from domain.kernel.state import State

PROBE_RATE = 0.05
"""Share of decisions at which every kind of illegal answer is tried first."""


def illegal_answers(decision: Decision, rng: random.Random) -> list[tuple[str, int, tuple[str, ...], type]]:
    """Answers that must be refused: unknown option, wrong decision, wrong seat, wrong shape."""
    seat, did = decision.seat, decision.id
    ids = [o.id for o in decision.options]
    bad: list[tuple[str, int, tuple[str, ...], type]] = [
        (seat, did, ("no-such-option",), IllegalChoice),
        (seat, did + 1, random_choice(decision, rng), UnknownDecision),
        (seat + "x", did, random_choice(decision, rng), NotYourDecision),
    ]
    if decision.kind is Kind.ONE:
        bad.append((seat, did, (), IllegalChoice))
        if len(ids) > 1:
            bad.append((seat, did, (ids[0], ids[1]), IllegalChoice))
    elif decision.kind is Kind.MANY:
        if ids:
            bad.append((seat, did, (ids[0], ids[0]), IllegalChoice))
        if decision.min > 0:
            bad.append((seat, did, (), IllegalChoice))
        if decision.max < len(ids):
            bad.append((seat, did, tuple(ids[: decision.max + 1]), IllegalChoice))
    elif decision.kind is Kind.NUMBER:
        bad.append((seat, did, (str(decision.max + 1),), IllegalChoice))
    return bad


def probe(game: Game, rng: random.Random, encode: Callable[[State], bytes]) -> int:
    """Try every illegal answer to the pending decision; each must raise and change nothing."""
    decision = game.state.pending
    assert decision is not None
    before_state, before_events = encode(game.state), len(game.pending_events)
    tried = 0
    for seat, did, choice, error in illegal_answers(decision, rng):
        with pytest.raises(error) as raised:
            game.answer(seat, did, choice)
        assert isinstance(raised.value, RuleError)
        assert str(decision.id) in str(raised.value) or error is UnknownDecision, str(raised.value)
        assert encode(game.state) == before_state, f"{error.__name__} changed the state"
        assert len(game.pending_events) == before_events, f"{error.__name__} appended events"
        tried += 1
    return tried


@dataclass
class Probed:
    """A game played to its end while probing: how many illegal answers were tried, at how
    many of its decisions (the first one always, then a random share), out of how many."""

    game: Game
    tried: int
    decisions: int
    random_probes: int

    def check(self, label: str) -> None:
        """Every game was probed: at its first decision, with at least the three illegal
        answers every decision has (unknown option, wrong decision, wrong seat)."""
        assert self.tried >= 3, f"{label}: no illegal answer was tried"


def check_rate(probed: list[Probed]) -> None:
    """The random probes came at about PROBE_RATE of the decisions: at least four standard
    deviations under the expected count (a binomial lower bound that chance cannot miss, and
    that tightens as games are added), so a probing schedule that stopped would be caught."""
    decisions = sum(p.decisions for p in probed)
    done = sum(p.random_probes for p in probed)
    expected = PROBE_RATE * decisions
    low = expected - 4 * math.sqrt(expected * (1 - PROBE_RATE))
    assert done >= low, f"illegal answers were tried at {done} of {decisions} decisions, expected about {expected:.0f}"


def play_probed(game: Game, seed: int, encode: Callable[[State], bytes], limit: int = 20_000) -> Probed:
    """Play ``game`` to its end with random answers, probing illegal ones at its first
    decision and at a random share PROBE_RATE of the others.

    The first decision's probe draws from its own generator, so the game played is the same
    as without it."""
    rng = random.Random(seed * 7919)
    first = random.Random(seed * 7919 + 1)
    tried = random_probes = 0
    for n in range(limit):
        decision = game.state.pending
        if decision is None:
            over = game.state.over
            assert over is not None
            with pytest.raises(RuleError):  # nothing can be answered once the game is over
                game.answer("p1", game.version, ("pass",))
            return Probed(game, tried, n, random_probes)
        if n == 0:
            tried += probe(game, first, encode)
        if rng.random() < PROBE_RATE:
            tried += probe(game, rng, encode)
            random_probes += 1
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    raise AssertionError(f"game did not end within {limit} decisions")


def play_probing(game: Game, seed: int, encode: Callable[[State], bytes], limit: int = 20_000) -> tuple[Game, int]:
    """:func:`play_probed`, giving the game and the number of illegal answers tried."""
    probed = play_probed(game, seed, encode, limit)
    return probed.game, probed.tried
