"""What the bot sweep costs a server process, written to the ``bot-sweep`` section of BENCHMARKS.md.

``python -m tools.bench_sweep`` (``--games N``). Each server process sweeps for games
waiting for a bot that no process is playing (``service/autoplay.py``: at start, then every
``--bot-sweep`` seconds). On a store of finished bot games (one seat, a random bot, each
played to its end) and one game waiting for a person, on SQLite and PostgreSQL:

- **a periodic sweep when nothing waits**: the wall time of one sweep (median of many), and
  how many games' last events it read (none: a game found over is not watched, a game found
  waiting for a person is not read again until it moves);
- **the sweep at start**: every room once, and each game's last event;
- **against reading every bot game's state**, what the sweep at start did before (and what a
  periodic sweep scanning every room would cost each interval).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from projections.i18n import from_environment, speaking
from tools.bench import bench_reference, load_row, publish
from tools.bench_service import POSTGRES_DSN
from tools.pgschema import scratch_schema
from tools.phrase import phrase, told


@contextmanager
def _stores(tmp: str) -> Iterator[list[tuple[str, Callable[[], dict[str, str]]]]]:
    """A fresh SQLite file and a fresh PostgreSQL schema."""
    from service.app import store_env

    def sqlite() -> dict[str, str]:
        return store_env(db=str(Path(tmp) / f"sweep-{uuid.uuid4().hex[:8]}.db"))

    with scratch_schema(POSTGRES_DSN, "sweep") as schema:

        def postgres() -> dict[str, str]:
            env = store_env(postgres=POSTGRES_DSN)
            env["POSTGRES_SCHEMA"] = schema
            return env

        yield [("SQLite", sqlite), ("PostgreSQL", postgres)]


def measure(env: dict[str, str], games: int, ticks: int) -> dict[str, float]:
    """Fill a store with ``games`` finished bot games and one waiting for a person; then
    time a fresh process's sweeps over it."""
    from service.app import Westmarch
    from service.autoplay import Autoplay
    from service.commands import GameService
    from service.games import GameRequest, PlayerSetup
    from service.room import SeatPlan

    app = Westmarch(env)
    service = GameService(app)
    player = Autoplay(service, every=0)
    service.on_commit = player.notify
    bot = (SeatPlan("p1", bot="random"),)
    made = [
        service.create(GameRequest("lcg", players=(PlayerSetup(),), seating=bot), seed=n).game_id for n in range(games)
    ]
    service.create(GameRequest("lcg", players=(PlayerSetup(), PlayerSetup()), seating=bot), seed=games)
    deadline = time.monotonic() + 60 + games
    while not all(service.state(g).over is not None for g in made):
        if time.monotonic() > deadline:
            raise RuntimeError("the bot games did not end")
        time.sleep(0.2)
    player.close()
    app.close()

    fresh = GameService(Westmarch(env))
    sweeper = Autoplay(fresh, every=0)  # its sweeps are run here, one at a time
    try:
        started = time.perf_counter()
        sweeper.first_sweep()
        first = time.perf_counter() - started
        first_looks = sweeper.looks
        times = []
        for _ in range(ticks):
            started = time.perf_counter()
            sweeper.tick()
            times.append(time.perf_counter() - started)
        tick_looks = sweeper.looks - first_looks
        started = time.perf_counter()
        for game_id in made:  # every bot game's state, as the sweep at start read it before
            fresh.state(game_id)
        states = time.perf_counter() - started
        return {
            "first_ms": first * 1000,
            "first_looks": first_looks,
            "tick_ms": statistics.median(times) * 1000,
            "tick_max_ms": max(times) * 1000,
            "tick_looks": tick_looks,
            "watched": sweeper.watched,
            "states_ms": states * 1000,
        }
    finally:
        sweeper.close()
        fresh.app.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_sweep", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games", type=int, default=300, help="finished bot games in each store (default: %(default)s)"
    )
    parser.add_argument("--output", default="BENCHMARKS.md", help="where the section is written")
    args = parser.parse_args(argv)
    ticks = 200
    rows = bench_reference(1)
    with tempfile.TemporaryDirectory() as tmp, _stores(tmp) as stores:
        for name, env in stores:
            found = measure(env(), args.games, ticks)
            rows.append(
                (
                    phrase(
                        "%(name)s: one periodic sweep when nothing waits, on %(games)s finished bot games and one "
                        "waiting for a person (median and most of %(ticks)s sweeps; games' last events read)",
                        name=name,
                        games=format(args.games, ","),
                        ticks=ticks,
                    ),
                    phrase(
                        "%(found)s ms (most %(found2)s ms); %(found3)s read in %(ticks)s sweeps; %(found4)s game "
                        "watched",
                        found=format(found["tick_ms"], ".3f"),
                        found2=format(found["tick_max_ms"], ".3f"),
                        found3=format(found["tick_looks"], ".0f"),
                        ticks=ticks,
                        found4=format(found["watched"], ".0f"),
                    ),
                    "",
                )
            )
            rows.append(
                (
                    phrase(
                        "%(name)s: the sweep at start over the same store, against reading every bot game's state "
                        "(what the sweep at start did before)",
                        name=name,
                    ),
                    phrase(
                        "%(found)s ms (%(found2)s last events read) against %(found3)s ms: %(n)sx less",
                        found=format(found["first_ms"], ".1f"),
                        found2=format(found["first_looks"], ".0f"),
                        found3=format(found["states_ms"], ".1f"),
                        n=format(found["states_ms"] / found["first_ms"], ".1f"),
                    ),
                    "",
                )
            )
            print(" | ".join(told(cell) for cell in rows[-2]), flush=True)
            print(" | ".join(told(cell) for cell in rows[-1]), flush=True)
    rows.append(load_row())
    command = "python -m tools.bench_sweep" + (f" --games {args.games}" if args.games != 300 else "")
    publish(args.output, "bot-sweep", "What the bot sweep costs a server process", command, rows, echo=False)
    return 0


if __name__ == "__main__":
    with speaking(from_environment()):  # WESTMARCH_LANG or LANG: the console's language
        raise SystemExit(main())
