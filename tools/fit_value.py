"""Fit the LCG search's value of a position: ``python -m tools.fit_value``.

The search bot cuts its rollouts after a horizon of rounds and reads the position reached
as a chance of winning (:data:`bots.worlds.LCG_VALUE_WEIGHTS`). This tool fits that reading:
it plays games of a scenario (Passage through Mirkwood unless ``--scenario`` names another)
with the greedy bot (the search's blueprint, one player with the scenario's ready-made deck,
standard difficulty, as ``westmarch bench-bots`` seats it), takes the position at the start
of every round, and fits a logistic regression of the game's result on the position's
features (the scenario's :func:`bots.worlds.lcg_value_model`) by Newton's method with a
small ridge penalty. It prints the weights to paste into ``bots/worlds.py``, and with
``--check FIRST`` the log-loss on as many other games from seed FIRST on of the Mirkwood
model (what a scenario without its own is valued by), of the scenario's model as it stands
and of the new weights. The same ``--games`` and ``--seed`` give the
same weights: the games are seeded and the fit has no randomness.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from functools import partial
from typing import cast
from uuid import uuid4

from bots import make_bot
from bots.worlds import ValueModel, lcg_value_model, logistic
from domain.game import Game
from domain.lcg.state import LcgState
from domain.rulesets import ruleset
from tools.bench_bots import Row, created
from tools.games import kind

SCENARIO = "passage-through-mirkwood"
RIDGE = 1.0
"""The L2 penalty on the weights (not the intercept): keeps the fit finite where a feature
separates the games perfectly."""
STEPS = 25
TOLERANCE = 1e-10

Sample = tuple[tuple[float, ...], float]


def positions(seed: int, index: int, scenario: str = SCENARIO) -> list[Sample]:
    """Game ``index``'s positions at the start of each round, each with the game's result."""
    row = Row("lcg", scenario, "standard", "greedy", "")
    features = lcg_value_model(scenario).features
    rules = ruleset("lcg")
    game = Game.start(uuid4(), rules, created(row, seed, index))
    seats = rules.seats(game.state)
    view = kind("lcg").view
    bots = {s: make_bot("greedy", seed * 1000 + n, "lcg", consent=frozenset(seats) - {s}) for n, s in enumerate(seats)}
    seen: list[tuple[float, ...]] = []
    last = -1
    state = cast(LcgState, game.state)
    while state.pending is not None:
        if int(state.round) != last:
            last = int(state.round)
            seen.append(features(state, seats[0]))
        decision = state.pending
        game.answer(
            decision.seat, decision.id, bots[decision.seat].choose(decision, partial(view, state, decision.seat))
        )
        state = cast(LcgState, game.state)
    won = 1.0 if state.over is not None and state.over.result == "won" else 0.0
    return [(x, won) for x in seen]


def samples(games: int, seed: int, scenario: str = SCENARIO) -> list[Sample]:
    """The positions of ``games`` games, seeds ``seed`` onwards."""
    return [sample for i in range(games) for sample in positions(seed + i, i, scenario)]


def log_loss(weights: Sequence[float], data: Sequence[Sample]) -> float:
    """The mean log-loss of the model ``weights`` on ``data`` (lower is better)."""
    total = 0.0
    for x, y in data:
        p = min(1 - 1e-12, max(1e-12, logistic(tuple(weights), x)))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(data) if data else 0.0


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; ``a`` is positive definite)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(data: Sequence[Sample], ridge: float = RIDGE) -> tuple[float, ...]:
    """The logistic regression's weights, the intercept first, by Newton's method."""
    if not data:
        raise ValueError("no positions to fit")
    k = len(data[0][0]) + 1
    w = [0.0] * k
    for _ in range(STEPS):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in data:
            row = (1.0, *x)
            z = sum(wi * xi for wi, xi in zip(w, row, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            for i in range(k):
                grad[i] += (p - y) * row[i]
                for j in range(k):
                    hess[i][j] += p * (1 - p) * row[i] * row[j]
        for i in range(1, k):
            grad[i] += ridge * w[i]
            hess[i][i] += ridge
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < TOLERANCE:
            break
    return tuple(w)


def mirkwood_reading(model: ValueModel) -> tuple[float, ...]:
    """The Passage through Mirkwood model's weights laid over ``model``'s features: how a
    scenario without a model of its own is valued (the features every LCG position has come
    first; the scenario's own weigh nothing)."""
    mirkwood = lcg_value_model(SCENARIO)
    if model.names[: len(mirkwood.names)] != mirkwood.names:
        raise ValueError("the model does not begin with the Mirkwood model's features")
    return (*mirkwood.weights, *(0.0 for _ in model.names[len(mirkwood.names) :]))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="fit_value", description="fit the LCG search's value of a position")
    p.add_argument("--games", type=int, default=1000, help="greedy games to learn from (default: %(default)s)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default: %(default)s)")
    p.add_argument(
        "--scenario", default=SCENARIO, help="the LCG scenario whose games are learned from (default: %(default)s)"
    )
    p.add_argument(
        "--check",
        type=int,
        metavar="FIRST",
        help="also give the log-loss of the weights in use and of the new ones on as many other games, seeds FIRST on",
    )
    args = p.parse_args(argv)
    model = lcg_value_model(args.scenario)
    data = samples(args.games, args.seed, args.scenario)
    weights = fit(data)
    wins = sum(1 for _, y in data if y)
    print(f"{len(data)} positions from {args.games} games ({wins} of them in games won)")
    for name, w in zip(("intercept", *model.names), weights, strict=True):
        print(f"  {name:11} {w:+.3f}")
    print(f"{model.constant} = (" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    if args.check is not None:
        held = samples(args.games, args.check, args.scenario)
        print(
            f"log-loss on {len(held)} positions of games {args.check}-{args.check + args.games - 1}: "
            f"the Mirkwood model {log_loss(mirkwood_reading(model), held):.4f}, "
            f"in use {log_loss(model.weights, held):.4f}, new {log_loss(weights, held):.4f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
