"""A rollout through a stored game's runtime against a rollout's own runtime, in one process.

The two play the same rollouts (same forks, same seeds, the same events applied), taking
turns, which goes first alternating, so that a slow spell of the shared machine falls on
both; each side's figure is its best turn and its median turn, in CPU seconds of this
process (``time.process_time``). Two units:

``random``: ``bench-compiled``'s rollout measure: fork a two-player Passage through Mirkwood
game at its middle (the fold of its first half) and play random answers to the end. Chained:
as a stored fork plays (``Game.forked``, ``Game.answer``: every event hashed and kept);
rollout: the fold's state played by ``Runtime(rules, state, None)``.

``search``: the search bot's rollout: a world drawn at a decision of a greedy-played game,
copied, and played by the greedy blueprint in every seat for ``HORIZON_ROUNDS`` rounds (the
search bot's horizon; ``--to-the-end`` for analysis's). Chained: a runtime with a sink per
decision (what ``bots.search.rollout`` did); rollout: ``bots.search.rollout``.

The ``fork`` lines time the two ways to fork the same mid-game state: folding its events and a
codec round trip of the state (what a search copies its worlds by).

``python -m tools.bench_rollout --turns 6`` (the build is the one this process runs:
``WESTMARCH_PURE=1`` for pure Python).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any
from uuid import uuid4

from bots import Bot, random_choice
from bots.search import rollout
from bots.worlds import HORIZON_ROUNDS, copy_state, searchable, world
from domain import build
from domain.game import Game
from domain.kernel.decisions import Choice
from domain.kernel.events import Event
from domain.kernel.runtime import Runtime, fold
from domain.kernel.state import State
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from tools.bench import random_game
from tools.bench_compiled import unchained_rollout


def random_unit(size: int) -> tuple[Callable[[], int], Callable[[], int], str]:
    """The two ways to play ``size`` random rollouts from the middle of one game: each
    returns the events its rollouts played."""
    whole = random_game(7, 2)
    history = list(whole.pending_events)[: whole.version // 2]

    def chained() -> int:
        events = 0
        for k in range(size):
            game = Game.forked(uuid4(), LCG, history)
            game.resume()
            rng = random.Random(k)
            while (decision := game.state.pending) is not None:
                game.answer(decision.seat, decision.id, random_choice(decision, rng))
            events += game.version - len(history)
        return events

    def unchained() -> int:
        events = 0
        for k in range(size):
            events += unchained_rollout(history, k)
        return events

    return chained, unchained, f"{size} rollouts from event {len(history)} of {whole.version}"


def _chained_rollout(state: Any, choice: Choice, players: dict[str, Bot], horizon: int | None) -> None:
    """``bots.search.rollout`` as it was: a runtime with a sink for each decision."""
    game = searchable(LCG.name)
    sink: list[Event] = []
    decision = state.pending
    stop = game.clock(state) + (horizon or 0)
    Runtime(LCG, state, sink).answer(decision.seat, decision.id, choice)
    view = game.rollout_view or game.view
    while state.pending is not None:
        if horizon is not None and game.clock(state) >= stop:
            break
        decision = state.pending
        sink.clear()
        picked = players[decision.seat].choose(decision, partial(view, state, decision.seat))
        Runtime(LCG, state, sink).answer(decision.seat, decision.id, picked)


def search_unit(size: int, horizon: int | None) -> tuple[Callable[[], int], Callable[[], int], str]:
    """The two ways to play the search bot's rollouts: ``size`` worlds, each drawn at one of
    several decisions of a greedy-played two-player Mirkwood game."""
    game = searchable(LCG.name)
    played = Game.start(uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 2, None, "standard"), 11))
    seats = frozenset(("p1", "p2"))
    bots = {s: game.blueprint(11, seats) for s in seats}
    positions: list[State] = []
    n = 0
    while (decision := played.state.pending) is not None:
        if n % 40 == 20:
            positions.append(copy_state(LCG, played.state))
        view = partial(game.view, played.state, decision.seat)
        played.answer(decision.seat, decision.id, bots[decision.seat].choose(decision, view))
        n += 1
    rng = random.Random(3)
    worlds = []
    for k in range(size):
        at = positions[k % len(positions)]
        assert at.pending is not None
        worlds.append(world(LCG, game, at, at.pending.seat, rng))
    firsts = []
    for k, base in enumerate(worlds):
        decision = base.pending
        assert decision is not None
        firsts.append(game.blueprint(k, seats).choose(decision, partial(game.view, base, decision.seat)))

    def run(chained: bool) -> int:
        events = 0
        for k, (base, first) in enumerate(zip(worlds, firsts, strict=True)):
            state = copy_state(LCG, base)
            players = {s: game.blueprint(1000 + k, seats) for s in seats}
            if chained:
                _chained_rollout(state, first, players, horizon)
            else:
                assert state.pending is not None
                rollout(LCG, game, state, state.pending.seat, first, players, horizon)
            events += state.version - base.version
        return events

    where = "to the end" if horizon is None else f"{horizon} rounds"
    return (
        partial(run, True),
        partial(run, False),
        f"{size} rollouts ({where}) from {len(positions)} positions of a {played.version}-event game",
    )


def forks(size: int) -> str:
    """CPU per fork of the same mid-game state: by folding its events, by a codec round trip."""
    whole = random_game(7, 2)
    history = list(whole.pending_events)[: whole.version // 2]
    mid = fold(LCG, history)
    started = time.process_time()
    for _ in range(size):
        fold(LCG, history)
    by_fold = (time.process_time() - started) / size
    started = time.process_time()
    for _ in range(size):
        copy_state(LCG, mid)
    by_copy = (time.process_time() - started) / size
    return (
        f"fork at event {len(history)}: fold {by_fold * 1e3:.3f} ms, "
        f"codec round trip {by_copy * 1e3:.3f} ms ({by_fold / by_copy:.1f}x)"
    )


def turns(chained: Callable[[], int], unchained: Callable[[], int], count: int) -> tuple[list[float], list[float]]:
    times: dict[bool, list[float]] = {True: [], False: []}
    events: dict[bool, int] = {}
    for turn in range(count):
        for side in (turn % 2 == 0, turn % 2 == 1):
            fn = chained if side else unchained
            started = time.process_time()
            played = fn()
            times[side].append(time.process_time() - started)
            if events.setdefault(side, played) != played:
                raise SystemExit("bench-rollout: the same rollouts played a different number of events")
    if events[True] != events[False]:
        raise SystemExit(f"bench-rollout: chained played {events[True]} events, the rollout's runtime {events[False]}")
    return times[True], times[False]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench_rollout", description=__doc__.splitlines()[0] if __doc__ else "")
    p.add_argument("--turns", type=int, default=6)
    p.add_argument("--units", default="random,search")
    p.add_argument("--random-size", type=int, default=10)
    p.add_argument("--search-size", type=int, default=40)
    p.add_argument("--to-the-end", action="store_true", help="search rollouts play to the end (analysis)")
    args = p.parse_args(argv)
    print(f"build: {build.mode()} ({build.reason()})", flush=True)
    for unit in [u.strip() for u in str(args.units).split(",") if u.strip()]:
        if unit == "random":
            chained, unchained, what = random_unit(args.random_size)
        elif unit == "search":
            chained, unchained, what = search_unit(args.search_size, None if args.to_the_end else HORIZON_ROUNDS)
        elif unit == "fork":
            print(forks(args.random_size * 10), flush=True)
            continue
        else:
            raise SystemExit(f"bench-rollout: unknown unit {unit!r}")
        a, b = turns(chained, unchained, args.turns)
        print(
            f"{unit}: {what}, {args.turns} turns each: "
            f"chained best {min(a):.3f} s median {statistics.median(a):.3f} s; "
            f"rollout runtime best {min(b):.3f} s median {statistics.median(b):.3f} s; "
            f"speed-up best {min(a) / min(b):.3f}x median {statistics.median(a) / statistics.median(b):.3f}x",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
