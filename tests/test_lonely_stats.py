"""``tools/lonely_stats.py`` plays the games of the bench-bots row of The Lonely Mountain."""

from __future__ import annotations

from collections import Counter

from bots.search import Budget
from tools.bench_bots import Tally, play
from tools.lonely_stats import ROW, report
from tools.lonely_stats import play as recorded

SEEDS = range(1, 5)


def test_the_same_seeds_end_as_the_bench_rows_games() -> None:
    """Seeds 1-4 end as bench-bots' greedy row ends them (the same losses), and what is
    recorded holds together: stage-3 quests and progress only in a game that reached stage
    3, and the first line of the report counts the games."""
    records = [recorded(seed) for seed in SEEDS]
    tally = Tally()
    for i, seed in enumerate(SEEDS):
        play(ROW, seed, i, Budget(), tally)
    assert Counter(r.reason for r in records if not r.won) == tally.losses
    assert sum(r.won for r in records) == tally.wins
    for r in records:
        if r.advanced is None:
            assert not r.quests and not r.commits and r.progress == 0
        else:
            assert r.advanced >= 2
    assert report(records)[0].startswith(f"won {tally.wins} of {len(SEEDS)}")
