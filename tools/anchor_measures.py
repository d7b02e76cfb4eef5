"""The measures of ``westmarch bench-compiled --anchor``, run on an older tree of the project.

``bench-compiled --anchor REV`` measures today's compiled build against the project as it
was at commit ``REV`` (by default the tree the compiled-core goals were set against: its
"now" column), in turns, in one run. The older tree is extracted to a temporary folder and
this file runs there in a child process, ``python -S anchor_measures.py TREE SITE NAME SIZE``:
``-S`` keeps the editable install's path hook out, so every module of the project comes from
``TREE`` and only the third-party packages from ``SITE``. The measures call only what the
older tree already offered (``tools.bench.random_game``, ``tools.bench_wotr.random_game``,
``Runtime(rules, state, sink)``, ``Westmarch.state_at``, ``tools.bench_load.in_process_cpu``)
and play what :mod:`tools.bench_compiled`'s own do: a rollout there is the older tree's
(every event encoded and hashed, as its runtime did), which is the point of the anchor.
Prints one line of JSON, as :func:`tools.bench_compiled.child` does. Today's tree runs the
same functions for every measure but the rollout (tools/bench_compiled.py), so the two sides
of a ratio are one piece of code.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def lcg(size: int) -> tuple[float, str, dict[str, str]]:
    """Random-bot games of Passage through Mirkwood, two players: events per CPU second."""
    from tools.bench import random_game

    started = time.process_time()
    events = sum(random_game(seed, 2).version for seed in range(1, size + 1))
    return (
        events / (time.process_time() - started),
        "%(games)s games, %(events)s events",
        {"games": str(size), "events": format(events, ",")},
    )


def wotr(size: int) -> tuple[float, str, dict[str, str]]:
    """Random-bot games of War of the Ring, Trilogy: events per CPU second."""
    from tools.bench_wotr import random_game

    started = time.process_time()
    events = sum(random_game("trilogy", seed)[0] for seed in range(1, size + 1))
    return (
        events / (time.process_time() - started),
        "%(games)s games, %(events)s events",
        {"games": str(size), "events": format(events, ",")},
    )


def _rollout(size: int) -> tuple[float, str, dict[str, str]]:
    from bots import random_choice
    from domain.kernel.runtime import Runtime, fold
    from domain.lcg.ruleset import LCG
    from tools.bench import random_game

    whole = random_game(7, 2)
    history: list[Any] = list(whole.pending_events)[: whole.version // 2]
    events = 0
    started = time.process_time()
    for k in range(size):
        state = fold(LCG, history)
        sink: list[Any] = []
        rt = Runtime(LCG, state, sink)
        rt.run()
        rng = random.Random(k)
        while (decision := state.pending) is not None:
            rt.answer(decision.seat, decision.id, random_choice(decision, rng))
        events += state.version - len(history)
    seconds = time.process_time() - started
    return (
        size / seconds,
        "%(n)s rollouts from event %(at)s of %(of)s, %(events)s events played",
        {
            "n": str(size),
            "at": format(len(history), ","),
            "of": format(whole.version, ","),
            "events": format(events, ","),
        },
    )


def fold(size: int) -> tuple[float, str, dict[str, str]]:
    """Games saved to SQLite, each then loaded (read, decoded, folded): events per CPU second;
    today's tree measures it with this same function (tools/bench_compiled.py)."""
    from service.app import Westmarch, store_env
    from tools.bench import random_game

    with tempfile.TemporaryDirectory() as tmp:
        app = Westmarch({**store_env(db=str(Path(tmp) / "fold.db")), "IS_SNAPSHOTTING_ENABLED": "n"})
        played = [random_game(seed, 2) for seed in range(1, size + 1)]
        total = sum(g.version for g in played)
        for game in played:
            app.save(game)
        ids = [g.id for g in played]
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            for game_id in ids:
                app.state_at(game_id)
            best = min(best, time.process_time() - started)
        app.close()
    return total / best, "%(games)s games, %(events)s events", {"games": str(size), "events": format(total, ",")}


def floor(size: int) -> tuple[float, str, dict[str, str]]:
    """CPU milliseconds per command of the game service alone (tools/bench_load.py)."""
    from tools.bench_load import in_process_cpu

    ms, commands = in_process_cpu(size / 10)
    return ms, "%(commands)s commands", {"commands": format(commands, ",")}


MEASURES = {"lcg": lcg, "wotr": wotr, "rollout": _rollout, "fold": fold, "floor": floor}
"""The measures an anchor offers (``tools.bench_compiled``'s of the same names)."""


def main(argv: list[str]) -> None:
    tree, site, name, size = argv[0], argv[1], argv[2], int(argv[3])
    sys.path[:] = [tree, *sys.path[1:], site]  # the older tree first, in place of this file's folder
    value, what, values = MEASURES[name](size)
    origin = sys.modules["domain"].__file__ or ""
    print(json.dumps({"value": value, "what": what, "values": values, "mode": "anchor", "origin": origin}))


if __name__ == "__main__":
    main(sys.argv[1:])
