"""``tools/anduin_stats.py`` plays the games of the bench-bots row of Journey Along the Anduin."""

from __future__ import annotations

import pytest

from tests.stats_support import assert_ends_as_bench
from tools.anduin_stats import ROW, main, report
from tools.anduin_stats import play as recorded

SEEDS = range(1, 5)


def test_the_same_seeds_end_as_the_bench_rows_games() -> None:
    """Seeds 1-4 end as bench-bots' greedy row ends them (the same losses), and what is
    recorded holds together: every game reached stage 1 at the setup (round 0, at the deck's
    starting threat of 26), the first Hill Troll engaged at stage 1 by a check or by choice,
    and the first line of the report counts the games; the heroes destroyed by enemies other than a
    Hill Troll are told by how each attack was met."""
    records = [recorded(seed) for seed in SEEDS]
    tally = assert_ends_as_bench(ROW, SEEDS, records)
    for r in records:
        assert r.reached[1] == (0, 26)
        assert r.stage in r.reached
        assert r.troll is None or r.troll[0] in ("check", "choice")
        assert all(w >= 0 and t >= 0 for w, t in r.passage)
        assert not r.passage or 2 in r.reached
        # the heroes other enemies destroyed are among the heroes destroyed
        assert sum(r.hero_deaths.values()) <= sum(by != "Hill Troll" for _, by in r.heroes_lost)
    assert report(records)[0] == f"won {tally.wins} of {len(SEEDS)}"


def test_won_prints_the_seeds_won(capsys: pytest.CaptureFixture[str]) -> None:
    """``--won`` prints the seeds won on one line after the report, for a paired comparison."""
    assert main(["1", "2", "--won"]) == 0
    lines = capsys.readouterr().out.splitlines()
    won = [r.seed for r in (recorded(1), recorded(2)) if r.won]
    assert lines[-1] == " ".join(["won:", *map(str, won)])
    assert any(line.startswith("heroes other enemies destroyed: ") for line in lines)


@pytest.mark.parametrize("argv", [["5", "2"], ["1"], ["one", "two"]])
def test_a_wrong_seed_range_is_refused_with_its_usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The stats tools share one command line (``tools.bench_bots.seed_range``): a range that
    ends before it starts, a missing or a non-numeric seed is refused before any game is played,
    with the usage and what was wrong; ``--help`` tells the tool's docstring and its flags."""
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ") and "first last" in err and "error: " in err
    with pytest.raises(SystemExit) as helped:
        main(["--help"])
    assert helped.value.code == 0
    out = capsys.readouterr().out
    assert "Journey Along the Anduin" in out and "--won" in out and "--games" in out
