"""``tools/mirk_stats.py`` plays the games of the bench-bots row of Passage through Mirkwood."""

from __future__ import annotations

from tests.stats_support import assert_ends_as_bench
from tools.mirk_stats import ROW, report
from tools.mirk_stats import play as recorded

SEEDS = range(1, 5)


def test_the_same_seeds_end_as_the_bench_rows_games() -> None:
    """Seeds 1-4 end as bench-bots' greedy row ends them (the same losses), and what is
    recorded holds together: every game reached stage 1 at the setup (round 0, at its
    starting threat), a later stage only in a round of play, and the first line of the report counts the games."""
    records = [recorded(seed) for seed in SEEDS]
    tally = assert_ends_as_bench(ROW, SEEDS, records)
    for r in records:
        assert r.reached["1"] == (0, 32)
        assert all(rnd >= 1 for stage, (rnd, _) in r.reached.items() if stage != "1")
        assert r.stage in r.reached
    assert report(records)[0] == f"won {tally.wins} of {len(SEEDS)}"
