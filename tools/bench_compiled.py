"""The compiled core against pure Python: the same measures, in turns, in one run.

Each measure runs in a child process, once on the compiled build and once with
``WESTMARCH_PURE=1`` (pure Python), the two taking turns (which goes first alternates) so
that a slow spell of the shared machine falls on both; each figure is the best of its
turns, in CPU seconds of the child (``time.process_time``), and the ratio compares the two
from this run. Writes the ``compiled`` section of BENCHMARKS.md (``westmarch
bench-compiled``, or ``python -m tools.bench_compiled``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from uuid import uuid4

from domain import build
from projections.i18n import say
from tools.phrase import phrase, told, written

ROOT = Path(__file__).resolve().parent.parent


def _lcg_game(seed: int) -> int:
    from tools.bench import random_game

    return random_game(seed, 2).version


def _wotr_game(seed: int) -> int:
    from tools.bench_wotr import random_game

    return random_game("trilogy", seed)[0]


def lcg_simulation(size: int) -> tuple[float, str]:
    """Random-bot games of Passage through Mirkwood, two players: events per CPU second."""
    started = time.process_time()
    events = sum(_lcg_game(seed) for seed in range(1, size + 1))
    return events / (time.process_time() - started), f"{size} games, {events:,} events"


def wotr_simulation(size: int) -> tuple[float, str]:
    """Random-bot games of War of the Ring, Trilogy: events per CPU second."""
    started = time.process_time()
    events = sum(_wotr_game(seed) for seed in range(1, size + 1))
    return events / (time.process_time() - started), f"{size} games, {events:,} events"


def floor(size: int) -> tuple[float, str]:
    """CPU milliseconds per command of the game service alone (tools/bench_load.py)."""
    from tools.bench_load import in_process_cpu

    ms, commands = in_process_cpu(size / 10)
    return ms, f"{commands:,} commands"


def sqlite_fold(size: int) -> tuple[float, str]:
    """Games saved to SQLite, each then loaded (read, decoded, folded): events per CPU second."""
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
    return total / best, f"{size} games, {total:,} events"


def rollouts(size: int) -> tuple[float, str]:
    """Fork a Passage through Mirkwood game at its middle and play random bots to the end:
    rollouts per CPU second (the analysis unit: a fork plus a simulated game)."""
    from bots import random_choice
    from domain.game import Game
    from domain.lcg.ruleset import LCG
    from tools.bench import random_game

    whole = random_game(7, 2)
    history = list(whole.pending_events)[: whole.version // 2]
    events = 0
    started = time.process_time()
    for k in range(size):
        game = Game.forked(uuid4(), LCG, history)
        game.resume()
        rng = random.Random(k)
        while (decision := game.state.pending) is not None:
            game.answer(decision.seat, decision.id, random_choice(decision, rng))
        events += game.version - len(history)
    seconds = time.process_time() - started
    return size / seconds, f"{size} rollouts from event {len(history):,} of {whole.version:,}, {events:,} events played"


MEASURES: dict[str, tuple[Callable[[int], tuple[float, str]], str, bool, int, int]] = {
    # name: (function, unit, higher is better, size, quick size)
    "lcg": (lcg_simulation, "events/s", True, 40, 4),
    "wotr": (wotr_simulation, "events/s", True, 20, 2),
    "rollout": (rollouts, "rollouts/s", True, 40, 4),
    "fold": (sqlite_fold, "events/s", True, 40, 4),
    "floor": (floor, "ms per command", False, 40, 10),
}

TITLES = {
    "lcg": "random-bot simulation, Passage through Mirkwood (two players), events per CPU second",
    "wotr": "random-bot simulation, War of the Ring Trilogy, events per CPU second",
    "rollout": "fork at mid-game and play a random rollout to the end (LCG), rollouts per CPU second",
    "fold": "fold from SQLite (read, decode, fold each game), events per CPU second",
    "floor": "the floor: CPU per command of the game service alone (rules, views, SQLite, protobuf)",
}

GOALS = {
    "lcg": "goal >= 3x (150 k events/s at the machine reference of about 110 ms)",
    "wotr": "",
    "rollout": "goal >= 3x",
    "fold": "goal >= 1 M events/s at the machine reference of about 110 ms",
    "floor": "goal <= 0.30 ms at the machine reference of about 120 ms (2.2x)",
}


def child(name: str, size: int) -> None:
    """Run one measure in this process and print it as JSON (the parent reads it)."""
    value, what = MEASURES[name][0](size)
    print(json.dumps({"value": value, "what": what, "mode": build.mode()}))


def measured(name: str, size: int, pure: bool) -> tuple[float, str]:
    env = {k: v for k, v in os.environ.items() if k != build.PURE_ENV}
    if pure:
        env[build.PURE_ENV] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "tools.bench_compiled", "--child", name, "--size", str(size)],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    expected = "pure" if pure else "compiled"
    if result["mode"] != expected:
        raise SystemExit(f"bench-compiled: the {expected} build did not run ({result['mode']}): {out.stderr.strip()}")
    return float(result["value"]), str(result["what"])


def main(args: argparse.Namespace) -> int:
    from tools.bench import bench_reference, write_section

    if args.child:
        child(args.child, args.size)
        return 0
    if build.mode() != "compiled":
        print(
            "bench-compiled: "
            + say("the compiled build is not installed (%(reason)s); run pip install -e .", reason=build.reason())
        )
        return 2
    quick, repeats = bool(args.quick), 1 if args.quick else int(args.repeats)
    rows = bench_reference(3 if not quick else 1)
    for name, (_, unit, higher, size, quick_size) in MEASURES.items():
        n = quick_size if quick else size
        best: dict[bool, float] = {}
        what = ""
        for turn in range(repeats):
            for pure in (turn % 2 == 0, turn % 2 == 1):
                value, what = measured(name, n, pure)
                keep = max if higher else min
                best[pure] = keep(best.get(pure, value), value)
        compiled, pure_python = best[False], best[True]
        ratio = compiled / pure_python if higher else pure_python / compiled
        fmt = "{:,.0f}" if compiled >= 100 else "{:,.2f}"
        rows.append(
            (
                phrase(
                    "%(name)s (%(what)s; best of %(repeats)s turns each)", name=TITLES[name], what=what, repeats=repeats
                ),
                phrase(
                    "compiled %(n)s %(unit)s, pure Python %(n2)s %(unit)s: %(ratio)sx",
                    n=fmt.format(compiled),
                    unit=unit,
                    n2=fmt.format(pure_python),
                    ratio=format(ratio, ".2f"),
                ),
                "",
            )
        )
        print(f"{name}: {told(rows[-1][1])}", flush=True)
    command = "westmarch bench-compiled" + (" --quick" if quick else f" --repeats {repeats}")
    write_section(Path(args.output), "compiled", "Compiled core (mypyc) beside pure Python", command, rows)
    print(written(args.output))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench-compiled", description="the compiled core against pure Python")
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="one small turn each (for a smoke test)")
    p.add_argument("--repeats", type=int, default=4, help="turns of each build per measure (default: %(default)s)")
    p.add_argument("--child", default="", help=argparse.SUPPRESS)
    p.add_argument("--size", type=int, default=0, help=argparse.SUPPRESS)


if __name__ == "__main__":
    sys.exit(main(parser().parse_args()))
