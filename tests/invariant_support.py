"""Playing random games while probing the engine with illegal answers (invariant 6)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

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
from tools.bots import random_choice

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


def play_probing(game: Game, seed: int, encode: Callable[[State], bytes], limit: int = 20_000) -> tuple[Game, int]:
    """Play ``game`` to its end with random answers, probing illegal ones at some decisions."""
    rng = random.Random(seed * 7919)
    tried = 0
    for _ in range(limit):
        decision = game.state.pending
        if decision is None:
            over = game.state.over
            assert over is not None
            with pytest.raises(RuleError):  # nothing can be answered once the game is over
                game.answer("p1", game.version, ("pass",))
            return game, tried
        if rng.random() < PROBE_RATE:
            tried += probe(game, rng, encode)
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    raise AssertionError(f"game did not end within {limit} decisions")
