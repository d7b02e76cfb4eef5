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


def test_the_lock_the_travel_and_the_heroes_phases_are_recorded_for_each_game() -> None:
    """Each game quests at least once, at stages it reached; each travel decision offered a
    location or more and chose one of them or none; each hero destroyed has its phase; the
    report gives the lock by stage and the travel decisions of the stages traveled at."""
    records = [recorded(seed) for seed in SEEDS]
    for r in records:
        assert r.quests
        assert all(stage in r.reached and threat >= 0 for stage, threat, _ in r.quests)
        assert all(offered >= 1 and name for (_, name, offered) in r.travels)
        assert sum(r.hero_phases.values()) == len(r.heroes_lost)
    lines = report(records)
    assert any(line.startswith("location lock") and " 1 " in line for line in lines)
    stages = {stage for r in records for stage, _, _ in r.travels}
    assert {line.split(":")[0] for line in lines if line.startswith("travel at")} == {
        f"travel at stage {s}" for s in stages
    }


def test_hummerhorns_engagements_are_recorded() -> None:
    """Seeds 10005, 10007, 10030 and 10031 (Hummerhorns engaged in each with the greedy bot
    of the time of writing): Hummerhorns engage at threat 40 or more, after they were first
    seen in the staging area, and their 5 damage goes to one of the deck's heroes; the
    report has their line."""
    records = [recorded(seed) for seed in (10005, 10007, 10030, 10031)]
    struck = [r for r in records if r.hummer]
    assert struck
    for r in struck:
        assert 1 <= r.hummer_revealed <= r.hummer[0][0]
        for rnd, threat, hero, left, _, _ in r.hummer:
            assert rnd >= 1 and threat >= 40 and left >= 1
            assert hero in ("Aragorn", "Gimli", "Legolas")
    assert any(line.startswith(f"Hummerhorns: revealed in {len(struck)} games") for line in report(struck))


def test_the_heroes_destroyed_in_combat_are_recorded_with_the_attack() -> None:
    """Seeds 10002 and 10004 (heroes destroyed by attacks with the greedy bot of the time of
    writing): each hero destroyed in the combat phase has its record (the attacking enemy,
    its declared attack, how it was met, the hit points the hero had left), and the report
    has their line."""
    records = [recorded(seed) for seed in (10002, 10004)]
    deaths = [d for r in records for d in r.combat_deaths]
    assert deaths
    assert len(deaths) == sum(r.hero_phases["combat"] for r in records)
    for d in deaths:
        assert d.enemy and d.attack >= 1 and d.left >= 1
        assert d.met in ("undefended", "itself", "other")
    assert any(line.startswith(f"heroes destroyed in combat: {len(deaths)};") for line in report(records))
