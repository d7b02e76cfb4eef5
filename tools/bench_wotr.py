"""War of the Ring benchmark: random-bot simulation of each scenario, in memory, one core.

Writes the ``wotr`` section of BENCHMARKS.md (``westmarch bench-wotr``, or
``python -m tools.bench_wotr``). Each figure is the best of a few repeats; the games are
the same in every repeat (same seeds), so repeats differ only by the machine's noise.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from uuid import uuid4

from bots import random_choice
from domain.game import Game
from domain.wotr.options import scenario_keys, wotr_options
from domain.wotr.ruleset import WOTR
from projections.i18n import gettext
from tools.bench import bench_reference, publish
from tools.phrase import phrase
from tools.progress import Progress

SCENARIOS = ("trilogy", "two-player-duel", "three-player-duel", "fellowship")


def random_game(scenario: str, seed: int) -> tuple[int, int]:
    """Play one game with random bots; returns (events, decisions)."""
    game = Game.start(uuid4(), WOTR, WOTR.created(wotr_options(scenario), seed))
    rng = random.Random(seed)
    decisions = 0
    while game.state.pending is not None:
        d = game.state.pending
        game.answer(d.seat, d.id, random_choice(d, rng))
        decisions += 1
    return game.version, decisions


def bench_scenario(scenario: str, games: int, repeats: int) -> tuple[str, str, str]:
    best = float("inf")
    events = decisions = 0
    for _ in range(repeats):
        start = time.perf_counter()
        played = [random_game(scenario, seed) for seed in range(1, games + 1)]
        best = min(best, time.perf_counter() - start)
        events = sum(e for e, _ in played)
        decisions = sum(d for _, d in played)
    return (
        phrase(
            "%(scenario)s: %(games)s random-bot games, %(n)s events and %(n2)s decisions per game",
            scenario=scenario,
            games=games,
            n=format(events / games, ",.0f"),
            n2=format(decisions / games, ",.0f"),
        ),
        phrase("%(n)s events/s, %(n2)s games/s", n=format(events / best, ",.0f"), n2=format(games / best, ".1f")),
        "",
    )


def main(args: argparse.Namespace) -> int:
    quick = bool(args.quick)
    games, repeats = (5, 1) if quick else (200, 3)
    chosen = [s for s in SCENARIOS if s in scenario_keys()]
    rows = bench_reference(repeats)
    with Progress(len(chosen), gettext("wotr benchmarks")) as bar:
        for scenario in chosen:
            rows.append(bench_scenario(scenario, games, repeats))
            bar.advance(note=scenario)
    command = "westmarch bench-wotr" + (" --quick" if quick else "")
    title = "War of the Ring: random-bot simulation per scenario (in memory, one core)"
    publish(args.output, "wotr", title, command, rows)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench-wotr", description="War of the Ring simulation benchmark")
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="smaller runs (for a smoke test)")
    return p


if __name__ == "__main__":
    sys.exit(main(parser().parse_args()))
