"""tools/dread_stats.py plays the bench's Dreadnaught games and reads how they went."""

from __future__ import annotations

from bots.search import Budget
from tools import bench_bots, dread_stats


def test_the_stats_play_the_benchs_games_and_end_them_as_the_bench_does() -> None:
    """Three seeds played by the bench (its row, decks and bot seeds) and by the stats tool
    end the same way; every game is counted once, and each stage-2 game saw the
    Dreadnaught attack (it engages the round it arrives)."""
    seeds = range(1001, 1004)
    bench = bench_bots.Tally()
    stats = dread_stats.Tally()
    for i, seed in enumerate(seeds):
        bench_bots.play(dread_stats.ROW, seed, i, Budget(), bench)
        dread_stats.play(seed, stats)
    assert stats.games == len(seeds) == sum(stats.endings.values())
    lost = sum(n for ending, n in stats.endings.items() if not ending.endswith(" won"))
    assert lost == sum(bench.losses.values()) and len(seeds) - lost == bench.wins
    reasons = {ending.split(" ")[-1] for ending, n in stats.endings.items() if not ending.endswith(" won")}
    assert reasons == set(bench.losses)
    reached = sum(n for ending, n in stats.endings.items() if not ending.startswith("stage 1"))
    assert reached == 0 or sum(stats.dreadnaught_attacks.values()) > 0
    # a game lost for want of a ship saw its last ship take the damage that sank it
    sunk = sum(n for ending, n in stats.endings.items() if ending.endswith("no-ship"))
    assert sunk <= sum(stats.ship_sunk.values()) and (sunk == 0 or stats.ship_damage)
    report = dread_stats.report(stats)
    assert report.startswith(f"{len(seeds)} games") and "threat raised:" in report
    assert "damage on the ships:" in report


def test_the_stats_say_how_long_stage_one_lasted_and_what_it_cost_the_ship() -> None:
    """Each game is counted once by its result in the stage-1 lines, with its rounds there;
    each game that reached stage 2 once by the ships' hit points left as it came."""
    seeds = range(1001, 1004)
    stats = dread_stats.Tally()
    for seed in seeds:
        dread_stats.play(seed, stats)
    games = sum(n for key, n in stats.stage_one.items() if key.endswith(": games"))
    assert games == len(seeds)
    assert sum(n for key, n in stats.stage_one.items() if key.endswith(": rounds")) >= len(seeds)
    reached = sum(n for ending, n in stats.endings.items() if not ending.startswith("stage 1"))
    assert sum(stats.stage_two_ship.values()) == reached
    report = dread_stats.report(stats)
    assert "stage 1 by result" in report and "the ships' hit points as stage 2 came:" in report


def test_the_stats_play_another_ready_made_deck_as_the_bench_does() -> None:
    """``--deck`` plays the bench's games of that deck (``bench-bots --deck``): the same
    endings as the bench's row with the deck, seed by seed."""
    row = bench_bots.Row("lcg", "hunt-for-the-dreadnaught", "standard", "greedy", "", "tactics")
    for seed in (1001, 1002):
        stats = dread_stats.Tally()
        dread_stats.play(seed, stats, "tactics")
        won, reason = bench_bots.observed(row, seed, bench_bots.Observer())
        assert stats.games == 1
        (ending,) = stats.endings
        assert ending.endswith(" won" if won else f" {reason}")
    assert dread_stats.main(["--games", "1", "--deck", "no-such-deck"]) == 2


def test_the_stats_follow_stage_one_round_by_round() -> None:
    """Stage 1's rounds are counted once each in the round-by-round lines, as many as the
    stage-1 lines count; the progress a round places goes to the stage or to a location, and
    each travel phase of stage 1 is counted by what was done."""
    seeds = range(1001, 1004)
    stats = dread_stats.Tally()
    for seed in seeds:
        dread_stats.play(seed, stats)
    rounds = sum(n for key, n in stats.stage_one.items() if key.endswith(": rounds"))
    assert stats.rounds["won: rounds"] + stats.rounds["lost: rounds"] == rounds > 0
    numbered = sum(n for key, n in stats.rounds.items() if " round " in key and key.endswith(": rounds"))
    assert numbered == rounds
    progress = sum(n for key, n in stats.rounds.items() if ": progress on " in key and " round " not in key)
    assert progress > 0 and sum(stats.reveals.values()) > 0
    report = dread_stats.report(stats)
    assert "stage 1 round by round" in report and "stage 1 travel phases:" in report
