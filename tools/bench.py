"""Benchmarks: measured in one run, against baselines run in the same process.

``westmarch bench`` writes ``BENCHMARKS.md``. Each figure is the best of a few repeats (these
machines are noisy); comparisons are ratios to a baseline measured in the same run.

- Fold from SQLite: load every event of many games from the store and fold them, against the
  ``eventsourcing`` library's default mapper (JSON transcoder) and default projector on the same
  events.
- State at any version of a long game, with snapshots.
- Random-bot simulation in memory, one core.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from bots import random_choice
from bots.lcg_greedy import GreedyBot
from domain.game import Game
from domain.kernel.runtime import apply
from domain.lcg.lineups import lcg_options, starting_deck
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.i18n import gettext
from projections.lcg import view
from service.app import Westmarch, store_env
from tools.phrase import phrase, told, written
from tools.progress import Progress


def timed(fn: Callable[[], Any]) -> float:
    """How long one call of ``fn`` takes (seconds)."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def best_of(repeats: int, fn: Callable[[], Any]) -> float:
    """The shortest of ``repeats`` timings of ``fn`` (seconds)."""
    return min(timed(fn) for _ in range(repeats))


def random_game(seed: int, players: int) -> Game:
    options = lcg_options("passage-through-mirkwood", players, None, "standard")
    game = Game.start(uuid4(), LCG, LCG.created(options, seed))
    rng = random.Random(seed)
    while game.state.pending is not None:
        d = game.state.pending
        game.answer(d.seat, d.id, random_choice(d, rng))
    return game


# -- the library's default path, for comparison -------------------------------------------


class BaselineGame(Aggregate):
    """The same game as a library-default aggregate: dataclass events, JSON transcoder."""

    @event("Created")
    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.state = LcgState()

    class Stepped(Aggregate.Event):
        payload: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, BaselineGame)
            apply(LCG, aggregate.state, msgspec.convert(self.payload, type=LCG.codec.event_type))

    def step(self, payload: dict[str, Any]) -> None:
        self.trigger_event(self.Stepped, payload=payload)


class Baseline(Application[UUID]):
    name = "Baseline"


def bench_fold(games: int, repeats: int, folder: Path) -> list[tuple[str, str, str]]:
    played = [random_game(seed, 2) for seed in range(1, games + 1)]
    total = sum(g.version for g in played)
    base = Baseline({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(folder / "base.db")})
    base_ids = []
    for g in played:
        aggregate = BaselineGame(ruleset="lcg")
        for e in g.pending_events:
            aggregate.step(msgspec.to_builtins(e))
        base.save(aggregate)
        base_ids.append(aggregate.id)
    ours = Westmarch({**store_env(db=str(folder / "ours.db")), "IS_SNAPSHOTTING_ENABLED": "n"})
    for g in played:
        ours.save(g)
    for g, base_id in zip(played, base_ids, strict=True):
        mine = ours.state_at(g.id)
        theirs: LcgState = base.repository.get(base_id).state
        assert LCG.codec.encode(mine) == LCG.codec.encode(theirs), "the two paths fold to different states"
    ids = [g.id for g in played]
    del played
    # What was built to prepare the measure is frozen, so that garbage-collection passes
    # over it (proportional to the whole heap) are charged to neither path.
    gc.collect()
    gc.freeze()
    # The two paths take turns, so that a slow spell of the machine falls on both; the ratio
    # is the median of the ratios of each pair of turns. Our path takes a twentieth of the
    # time of the other, so each of its turns is the best of three runs.
    pairs = [
        (
            best_of(3, lambda: [ours.state_at(i) for i in ids]),
            timed(lambda: [base.repository.get(i) for i in base_ids]),
        )
        for _ in range(repeats)
    ]
    gc.unfreeze()
    t_ours, t_base = min(p[0] for p in pairs), min(p[1] for p in pairs)
    ratio = statistics.median(b / o for o, b in pairs)
    ours_rate, base_rate = total / t_ours, total / t_base
    rows: list[tuple[str, str, str]] = [
        (
            phrase(
                "fold from SQLite, Westmarch (msgspec mapper, one-column select, batch decode) - %(games)s games, "
                "%(total)s events",
                games=games,
                total=format(total, ","),
            ),
            phrase("%(ours_rate)s events/s", ours_rate=format(ours_rate, ",.0f")),
            phrase("goal >= 250,000 events/s"),
        ),
        (
            phrase("fold from SQLite, library default mapper and projector, same events"),
            phrase("%(base_rate)s events/s", base_rate=format(base_rate, ",.0f")),
            "",
        ),
        (
            phrase("ratio (median over %(repeats)s alternating pairs of runs)", repeats=repeats),
            phrase(
                "%(ratio)sx (pairs from %(n)sx to %(n2)sx)",
                ratio=format(ratio, ".1f"),
                n=format(min(b / o for o, b in pairs), ".1f"),
                n2=format(max(b / o for o, b in pairs), ".1f"),
            ),
            phrase("goal >= 20x"),
        ),
    ]
    ours.close()
    base.close()
    return rows


def long_game(min_events: int, attempts: int, first_seed: int = 1) -> Game:
    """The longest of a few four-player games (stopping at ``min_events``).

    Threat rises every round and eliminates a player at 50, so games of Passage through
    Mirkwood end after a few hundred to a few thousand events. To make them as long as
    the rules allow, the games start from a laid-out position, as a rule dispute would:
    four players at threat 0, three Guards, Axehands and Spearmen in play each, on Don't
    Leave the Path! (won only by defeating Ungoliant's Spawn, set aside here), the Easy
    encounter deck; greedy bots then play until the game ends or is long enough.
    """
    from domain.lcg.position import build
    from domain.lcg.scenarios import scenario

    longest: Game | None = None
    for seed in range(first_seed, first_seed + attempts):
        rng = random.Random(seed)
        encounter = [c for c in scenario("passage-through-mirkwood").encounter_deck("easy") if c != "core-076"]
        rng.shuffle(encounter)
        zones: dict[str, list[Any]] = {
            "encounter.deck": list(encounter),
            "set-aside": ["core-076"],
            "quest": [{"card": "core-121", "face": "B"}],
        }
        for n in range(1, 5):
            deck = list(starting_deck())
            allies = [c for c in deck if c in ("core-013", "core-028", "core-029")]
            rest = [c for c in deck if c not in allies]
            rng.shuffle(rest)
            zones[f"p{n}.allies"], zones[f"p{n}.hand"], zones[f"p{n}.deck"] = allies, rest[:6], rest[6:]
        placed = build(
            {"players": 4, "seed": seed},
            {"at": "lcg.round", "round": 0, "zones": zones, "threat": {f"p{n}": 0 for n in range(1, 5)}},
        )
        game = Game.start_at(uuid4(), LCG, placed.created, placed.placed, placed.frames)
        state = game.state
        assert isinstance(state, LcgState)
        bots = {s: GreedyBot(seed * 10 + i) for i, s in enumerate(LCG.seats(state))}
        while state.pending is not None and game.version < min_events:
            d = state.pending
            game.answer(d.seat, d.id, bots[d.seat].choose(d, partial(view, state, d.seat)))
        if longest is None or game.version > longest.version:
            longest = game
        if game.version >= min_events:
            break
    assert longest is not None
    return longest


def bench_snapshots(min_events: int, attempts: int, samples: int, folder: Path) -> list[tuple[str, str, str]]:
    game = long_game(min_events, attempts)
    app = Westmarch(store_env(db=str(folder / "long.db")))
    app.store(game)
    every = app.snapshot_every
    rng = random.Random(1)
    versions = [rng.randint(1, game.version) for _ in range(samples)]
    times = []
    for v in versions:
        start = time.perf_counter()
        app.state_at(game.id, v)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    app.close()
    return [
        (
            phrase(
                "state at a random version of a %(version)s-event game (4 players, set from a position), snapshot "
                "every %(every)s events (%(samples)s versions)",
                version=format(game.version, ","),
                every=every,
                samples=samples,
            ),
            phrase(
                "mean %(times)s ms, p50 %(times2)s ms, p99 %(times3)s ms, max %(times4)s ms",
                times=format(statistics.fmean(times), ".2f"),
                times2=format(times[len(times) // 2], ".2f"),
                times3=format(times[int(len(times) * 0.99) - 1], ".2f"),
                times4=format(times[-1], ".2f"),
            ),
            phrase("goal <= 5 ms"),
        )
    ]


def bench_reference(repeats: int) -> list[tuple[str, str, str]]:
    """A fixed pure-Python loop: how fast this machine runs Python at the time of the run,
    so that absolute figures from different runs (or machines) can be compared."""

    def loop() -> int:
        total = 0
        for i in range(5_000_000):
            total += i
        return total

    return [
        (
            phrase("machine reference: a pure-Python loop of 5,000,000 additions (to compare runs, not a goal)"),
            phrase("%(n)s ms", n=format(best_of(repeats, loop) * 1000, ",.0f")),
            "",
        )
    ]


def bench_simulation(games: int, repeats: int) -> list[tuple[str, str, str]]:
    totals = []

    def run() -> None:
        totals.append(sum(random_game(seed, 2).version for seed in range(1, games + 1)))

    seconds = best_of(repeats, run)
    rate = totals[-1] / seconds
    return [
        (
            phrase(
                "random-bot simulation in memory, one core - %(games)s two-player games, %(totals)s events",
                games=games,
                totals=format(totals[-1], ","),
            ),
            phrase("%(rate)s events/s, %(n)s games/s", rate=format(rate, ",.0f"), n=format(games / seconds, ".1f")),
            phrase("goal >= 30,000 events/s"),
        )
    ]


def write_section(path: Path, key: str, title: str, command: str, rows: list[tuple[str, str, str]]) -> None:
    """Replace (or add) the section ``key`` of BENCHMARKS.md; other sections stay as they are.

    Each benchmark tool owns one section, so each can be rerun alone.
    """
    begin, end = f"<!-- section:{key} -->", f"<!-- /section:{key} -->"
    body = [
        begin,
        f"## {title}",
        "",
        f"Produced by `{command}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores.",
        "",
        "| measure | result | goal |",
        "|---|---|---|",
        *[f"| {a} | {b} | {c} |" for a, b, c in rows],
        end,
    ]
    text = path.read_text(encoding="utf-8") if path.exists() else HEADER
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1]
        text = head + "\n".join(body) + tail
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(body) + "\n"
    path.write_text(text, encoding="utf-8")


Row = tuple[str, str, str]
"""A row of a section: the measure, its result, its goal ("" when it has none)."""


def told_row(row: Row) -> str:
    """A row as the console says it, in the language spoken: ``measure: result (goal)``."""
    measure, result, goal = row
    return f"{told(measure)}: {told(result)}" + (f" ({told(goal)})" if goal else "")


def load_row() -> Row:
    """The machine's load average as a run ends: the figures before it were measured while
    whatever else runs there shared the cores."""
    return (
        phrase("load average of the machine at the end of the run (other work shares its cores)"),
        f"{os.getloadavg()[0]:.1f}",
        "",
    )


NO_FILE = "-"
"""A benchmark's ``--output -``: tell the rows, write no file."""


def publish(output: str, key: str, title: str, command: str, rows: list[Row], echo: bool = True) -> None:
    """Write the section ``key`` of ``output`` (:func:`write_section`), then tell the console
    each row (unless ``echo`` is false: the benchmark told each row as it was measured) and
    where the section was written. An ``output`` of ``-`` (:data:`NO_FILE`) writes no file: a
    run measuring one change leaves BENCHMARKS.md as it is."""
    if output != NO_FILE:
        write_section(Path(output), key, title, command, rows)
    if echo:
        for row in rows:
            print(told_row(row))
    if output != NO_FILE:
        print(written(output))


HEADER = """# Benchmarks

Measured, not asserted: each figure is the best of several repeats in one run, and comparisons
are ratios to a baseline measured in the same process, since these machines are noisy. Each
section names the command that produced it; rerun that command to refresh the section.
"""


def main(args: argparse.Namespace) -> int:
    quick = bool(args.quick)
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp, Progress(3, gettext("benchmarks")) as bar:
        folder = Path(tmp)
        rows += bench_reference(1 if quick else 3)
        rows += bench_simulation(5 if quick else 60, 1 if quick else 5)
        bar.advance(note="simulation")
        rows += bench_fold(5 if quick else 60, 1 if quick else 7, folder)
        bar.advance(note="fold")
        rows += bench_snapshots(500 if quick else 5000, 1 if quick else 40, 20 if quick else 200, folder)
        bar.advance(note="snapshots")
    command = "westmarch bench" + (" --quick" if quick else "")
    publish(args.output, "engine", "Engine (LCG, Passage through Mirkwood)", command, rows)
    return 0
