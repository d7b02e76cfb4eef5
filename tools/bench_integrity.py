"""What checking every byte of a game costs, written to the ``integrity`` section of BENCHMARKS.md.

``python -m tools.bench_integrity`` (``--quick`` for a short run). Every figure is a ratio
against the same work without the check, measured in the same run, in alternating stretches
(the machines this runs on are noisy):

- **The length recorded with each commit** (:class:`~service.records.LogLength`, the row that
  tells a log whose last command was deleted whole from one that was never longer): the
  per-command floor of ``westmarch bench-load`` (the game service alone on one thread: rules,
  views, the store, the protobuf response) with it and without it: the process's CPU per
  command, and the wall time per command of one client playing without pause (on
  PostgreSQL the database's share of the work is in another process: wall time shows it).
- **A view of a game held in memory checked as a command is**: ``GetView`` (the service's
  ``view_as``, no gRPC) of a game the server holds, with its stored log checked thoroughly
  (every row hashed in the store, the recorded length compared) against the former look at
  two integers, on games of about 100 and 1,000 events (four seats, played by random
  answers), on SQLite and PostgreSQL.
"""

from __future__ import annotations

import argparse
import itertools
import random
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from projections.i18n import from_environment, speaking
from tools.bench import bench_reference, load_row, publish
from tools.bench_load import in_process_cpu
from tools.bench_service import POSTGRES_DSN
from tools.pgschema import scratch_schema
from tools.phrase import phrase, told


@contextmanager
def _stores(tmp: str) -> Iterator[list[tuple[str, Callable[[str], dict[str, str]]]]]:
    """The stores to measure on: a fresh SQLite file, or a fresh PostgreSQL schema, per run."""
    from service.app import store_env

    def sqlite(name: str) -> dict[str, str]:
        return store_env(db=str(Path(tmp) / f"{name}-{uuid.uuid4().hex[:8]}.db"))

    with scratch_schema(POSTGRES_DSN, "integrity") as schema:

        def postgres(name: str) -> dict[str, str]:
            env = store_env(postgres=POSTGRES_DSN)
            env["POSTGRES_SCHEMA"] = schema
            return env

        yield [("SQLite", sqlite), ("PostgreSQL", postgres)]


def _guard(on: bool) -> Callable[[Any], None]:
    def configure(service: Any) -> None:
        service.app.length_guard = on

    return configure


def floor_with_and_without_guard(
    env: Callable[[str], dict[str, str]], seconds: float, rounds: int
) -> tuple[tuple[float, float, int], tuple[float, float, int]]:
    """(CPU ms, wall ms, commands) per command, with the length guard and without it, each
    over ``rounds`` alternating stretches of ``seconds``."""
    cpu_ms = {True: 0.0, False: 0.0}
    commands = {True: 0, False: 0}
    for n in range(2 * rounds):
        on = n % 2 == 0
        cpu, count = in_process_cpu(seconds, _guard(on), env("floor"))
        cpu_ms[on] += cpu * count
        commands[on] += count
    wall_ms = seconds * 1000 * rounds
    on_, off = (
        (cpu_ms[on] / max(1, commands[on]), wall_ms / max(1, commands[on]), commands[on]) for on in (True, False)
    )
    return on_, off


def _long_game(app: Any, events: int) -> tuple[uuid.UUID, str]:
    """A game of four seats (easy, so it lasts) played by random answers to at least ``events``
    events and stored, still in play; the seat it waits for."""
    from bots import random_choice
    from domain.game import Game
    from domain.lcg.lineups import lcg_options
    from domain.lcg.ruleset import LCG

    options = lcg_options("passage-through-mirkwood", 4, None, "easy")
    for seed in itertools.count(1):
        game = Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))
        rng = random.Random(seed)
        while (decision := game.state.pending) is not None and game.version < events:
            game.answer(decision.seat, decision.id, random_choice(decision, rng))
        if decision is not None:
            app.store(game)
            return game.id, decision.seat
    raise AssertionError("unreachable")


def views(env: dict[str, str], events: int, calls: int, rounds: int) -> tuple[float, float, float, float, int]:
    """GetView of a game of about ``events`` events held in memory: (CPU ms, wall ms) per
    call checked thoroughly, then the same looking at two integers, and the game's length."""
    from service.app import Westmarch
    from service.commands import GameService

    app = Westmarch(env)
    try:
        service = GameService(app)
        game_id, seat = _long_game(app, events)
        length = app.version(game_id)
        spent = {True: [0.0, 0.0], False: [0.0, 0.0]}
        for n in range(2 * rounds):
            thorough = n % 2 == 0
            service.thorough_views = thorough
            service.view_as(game_id, seat)  # the first look after a switch is not counted
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(calls):
                service.view_as(game_id, seat)
            spent[thorough][0] += time.process_time() - cpu
            spent[thorough][1] += time.perf_counter() - wall
        per = 1000 / (calls * rounds)
        return spent[True][0] * per, spent[True][1] * per, spent[False][0] * per, spent[False][1] * per, length
    finally:
        app.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_integrity", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short stretches (a figure to look at, not to keep)")
    parser.add_argument("--output", default="BENCHMARKS.md", help="where the section is written")
    args = parser.parse_args(argv)
    seconds, rounds, calls = (1.5, 2, 100) if args.quick else (4.0, 4, 400)
    rows = bench_reference(1 if args.quick else 3)  # how fast Python runs here today
    with tempfile.TemporaryDirectory() as tmp, _stores(tmp) as stores:
        for name, env in stores:
            (cpu_on, wall_on, n_on), (cpu_off, wall_off, n_off) = floor_with_and_without_guard(env, seconds, rounds)
            figure = phrase(
                "%(cpu)s ms against %(cpu2)s ms of CPU per command: %(ratio)sx; "
                "wall %(wall)s ms against %(wall2)s ms: %(ratio2)sx",
                cpu=format(cpu_on, ".3f"),
                cpu2=format(cpu_off, ".3f"),
                ratio=format(cpu_on / cpu_off, ".3f"),
                wall=format(wall_on, ".3f"),
                wall2=format(wall_off, ".3f"),
                ratio2=format(wall_on / wall_off, ".3f"),
            )
            rows.append(
                (
                    phrase(
                        "%(name)s: the per-command floor (the service alone, one thread) with the log's length saved "
                        "in each commit, against the same without it",
                        name=name,
                    ),
                    phrase(
                        "%(figure)s (%(n_on)s and %(n_off)s commands)",
                        figure=figure,
                        n_on=format(n_on, ","),
                        n_off=format(n_off, ","),
                    ),
                    "",
                )
            )
            for events in (100, 1000):
                cpu_t, wall_t, cpu_p, wall_p, length = views(env("views"), events, calls, rounds)
                rows.append(
                    (
                        phrase(
                            "%(name)s: GetView of a game of %(length)s events held in memory, its stored log checked "
                            "as a command checks it, against the former look at two integers",
                            name=name,
                            length=format(length, ","),
                        ),
                        phrase(
                            "%(cpu_t)s ms against %(cpu_p)s ms of CPU per call: %(n)sx; wall %(wall_t)s ms against "
                            "%(wall_p)s ms: %(n2)sx",
                            cpu_t=format(cpu_t, ".3f"),
                            cpu_p=format(cpu_p, ".3f"),
                            n=format(cpu_t / cpu_p, ".2f"),
                            wall_t=format(wall_t, ".3f"),
                            wall_p=format(wall_p, ".3f"),
                            n2=format(wall_t / wall_p, ".2f"),
                        ),
                        "",
                    )
                )
                print(told(rows[-1][1]), flush=True)
    rows.append(load_row())
    command = "python -m tools.bench_integrity" + (" --quick" if args.quick else "")
    publish(args.output, "integrity", "What checking every byte of a game costs (ratios in one run)", command, rows)
    return 0


if __name__ == "__main__":
    with speaking(from_environment()):  # WESTMARCH_LANG or LANG: the console's language
        raise SystemExit(main())
