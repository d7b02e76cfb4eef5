"""``tools/lonely_stats.py`` plays the games of the bench-bots row of The Lonely Mountain."""

from __future__ import annotations

from tests.stats_support import assert_ends_as_bench
from tools.lonely_stats import ROW, report
from tools.lonely_stats import play as recorded

SEEDS = range(1, 5)


def test_the_same_seeds_end_as_the_bench_rows_games() -> None:
    """Seeds 1-4 end as bench-bots' greedy row ends them (the same losses), and what is
    recorded holds together: stage-3 quests and progress only in a game that reached stage
    3, and the first line of the report counts the games."""
    records = [recorded(seed) for seed in SEEDS]
    tally = assert_ends_as_bench(ROW, SEEDS, records)
    for r in records:
        if r.advanced is None:
            assert not r.quests and not r.commits and r.progress == 0
        else:
            assert r.advanced >= 2
    assert report(records)[0].startswith(f"won {tally.wins} of {len(SEEDS)}")
