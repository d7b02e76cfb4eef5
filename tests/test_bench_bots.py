"""`westmarch bench-bots`: a row per scenario and bot, written to its own section of a file."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from domain.game import Game
from domain.lcg.cards import CARDS
from domain.lcg.decks import Deck
from tools.bench_bots import DECK, SCENARIO_DECKS, Row, rows, won
from tools.cli import main


def test_the_rows_are_the_ones_the_goals_name() -> None:
    every = rows("all", ("greedy", "search"))
    scenarios = {r.scenario for r in every if r.game == "lcg"}
    assert scenarios == {
        "passage-through-mirkwood",
        "journey-along-the-anduin",
        "hunt-for-the-dreadnaught",
        "the-lonely-mountain",
        "escape-from-dol-guldur",
    }
    assert {(r.difficulty, r.bot) for r in every if r.game == "wotr"} == {
        (d, b) for d in ("standard", "challenging") for b in ("greedy", "search")
    }
    assert next(r.goal for r in every if r.bot == "search") == "goal >= 60 %"


def test_bench_bots_plays_a_game_per_row_and_writes_its_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "BENCHMARKS.md"
    out.write_text("# Benchmarks\n\n<!-- section:engine -->\nkept\n<!-- /section:engine -->\n", encoding="utf-8")
    argv = [
        "bench-bots",
        "--games",
        "1",
        "--greedy-games",
        "2",
        "--budget",
        "0.02",
        "--scenario",
        "journey-along-the-anduin",
    ]
    assert main([*argv, "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "kept" in text
    section = text.split("<!-- section:bots -->", 1)[1].split("<!-- /section:bots -->", 1)[0]
    assert (
        "`westmarch bench-bots --games 1 --budget 0.02 --seed 1 --greedy-games 2 --scenario journey-along-the-anduin`"
        in section
    )
    lines = [line for line in section.splitlines() if line.startswith("| LCG journey-along-the-anduin")]
    assert len(lines) == 2
    greedy, search = lines
    assert "greedy bot, 2 games | won " in greedy and "of 2 (" in greedy and "ms CPU per decision" in greedy
    assert "search bot, 1 games | won " in search and "rollouts per CPU-second" in search
    assert search.endswith("| goal >= 10 % |")


def test_bench_bots_refuses_what_it_cannot_measure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "B.md"
    assert main(["bench-bots", "--games", "0", "--output", str(out)]) == 2
    assert main(["bench-bots", "--bots", "clever", "--output", str(out)]) == 2
    assert main(["bench-bots", "--greedy-games", "0", "--output", str(out)]) == 2
    assert "--bots takes greedy and/or search" in capsys.readouterr().err
    assert not out.exists()


def test_the_search_rows_may_be_kept_to_one_scenario() -> None:
    lcg = rows("lcg", ("greedy", "search"), "passage-through-mirkwood")
    assert all(r.game == "lcg" for r in lcg)
    assert len([r for r in lcg if r.bot == "greedy"]) == 5
    assert [r.scenario for r in lcg if r.bot == "search"] == ["passage-through-mirkwood"]
    assert not [r for r in rows("all", ("search",), "wotr") if r.game == "lcg"]


def test_one_scenario_may_be_measured_without_writing_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["bench-bots", "--games", "1", "--scenario", "the-lonely-mountain", "--bots", "greedy", "--output", "-"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    deck = SCENARIO_DECKS.get("the-lonely-mountain", DECK)
    assert f"LCG the-lonely-mountain, solo, ready-made {deck} deck, greedy bot, 1 games: won " in printed
    assert "written to" not in printed
    assert list(tmp_path.iterdir()) == []


def test_each_row_names_its_deck_and_mirkwood_plays_the_pinned_one() -> None:
    """Issue 24 pins the Aragorn, Gimli and Legolas deck for Passage through Mirkwood; the
    other scenarios play their own ready-made deck unless --deck names one for every row."""
    from domain.lcg.decks.ready_made import ready_made

    lcg = [r for r in rows("lcg", ("greedy",)) if r.game == "lcg"]
    assert {r.scenario: r.deck_key for r in lcg}["passage-through-mirkwood"] == "aragorn-gimli-legolas"
    assert all(r.deck_key in ready_made() for r in lcg)
    assert all(f"ready-made {r.deck_key} deck" in r.label for r in lcg)
    assert {r.deck_key for r in rows("lcg", ("greedy",), deck="spirit")} == {"spirit"}


def _row_deck(scenario: str, key: str) -> tuple[Deck, dict[str, int]]:
    """The ready-made deck ``scenario``'s greedy row plays, checked to be ``key`` and a legal
    deck of the cards the engine plays, with the count of each title in it."""
    from domain.lcg.decks import problems
    from domain.lcg.decks.ready_made import playable_part, ready_made

    row = next(r for r in rows("lcg", ("greedy",)) if r.scenario == scenario)
    assert row.deck_key == key
    deck = ready_made()[key]
    assert problems(deck) == []
    assert playable_part(deck) == deck
    return deck, {CARDS[c].name: n for c, n in deck.cards}


def test_the_lonely_mountain_row_plays_the_allies_deck() -> None:
    """The Lonely Mountain's row plays the Thorin, Nori and Ori deck whose willpower is in
    cheap allies of the three spheres (Gléowine, Henamarth Riversong, Silverlode Archers, a
    Longbeard Orc Slayer for the willpower deck's Lórien Guides, The Favor of the Lady and
    Unexpected Courage; Snowbourn Scouts for its Sneak Attacks), a legal deck of the cards the
    engine plays."""
    from domain.lcg.decks.ready_made import ready_made

    deck, titles = _row_deck("the-lonely-mountain", "thorin-nori-ori-allies")
    assert titles["Wandering Took"] == 2
    assert (titles["Gléowine"], titles["Henamarth Riversong"], titles["Silverlode Archer"]) == (2, 1, 2)
    assert (titles["Longbeard Orc Slayer"], titles["Snowbourn Scout"]) == (1, 2)
    assert not {"Northern Tracker", "Lórien Guide", "The Favor of the Lady", "Unexpected Courage"} & set(titles)
    assert "Sneak Attack" not in titles
    former = ready_made()["thorin-nori-ori-will"]
    assert deck.heroes == former.heroes
    assert deck.size == former.size


def test_bench_bots_plays_the_deck_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["bench-bots", "--games", "1", "--scenario", "journey-along-the-anduin", "--bots", "greedy"]
    assert main([*argv, "--deck", "lore", "--output", "B.md"]) == 0
    written = (tmp_path / "B.md").read_text(encoding="utf-8")
    assert "| LCG journey-along-the-anduin, solo, ready-made lore deck, greedy bot, 1 games | won " in written
    assert "--bots greedy --deck lore" in written
    capsys.readouterr()
    assert main([*argv, "--deck", "no-such-deck", "--output", "-"]) == 2
    assert "--deck takes a ready-made deck: " in capsys.readouterr().err


def test_difficulty_keeps_the_war_of_the_ring_rows_at_one_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--difficulty challenging measures only the challenging rows (the LCG rows are untouched)
    and names itself in the command the section records."""
    assert {r.difficulty for r in rows("wotr", ("greedy", "search"), difficulty="challenging")} == {"challenging"}
    assert len(rows("all", ("greedy",), difficulty="standard")) == len(rows("all", ("greedy",))) - 1
    monkeypatch.chdir(tmp_path)
    argv = ["bench-bots", "--games", "1", "--scenario", "wotr", "--bots", "greedy", "--difficulty", "challenging"]
    assert main([*argv, "--output", "B.md"]) == 0
    written = (tmp_path / "B.md").read_text(encoding="utf-8")
    assert "Shadow bots, challenging, 1 games | won " in written
    assert "Shadow bots, standard" not in written
    assert "--difficulty challenging" in written
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main([*argv[:-1], "hard", "--output", "-"])
    assert "invalid choice: 'hard'" in capsys.readouterr().err


def test_a_loss_after_an_elimination_names_both_reasons() -> None:
    """The Lonely Mountain: the player eliminated at 50 threat takes Bilbo Baggins out of
    play with them, and the game ends as "bilbo-left-play"; the row says the threat did it."""
    row = Row("lcg", "the-lonely-mountain", "standard", "greedy", "")

    def ended(result: str, reason: str) -> Game:
        return cast(Game, SimpleNamespace(state=SimpleNamespace(over=SimpleNamespace(result=result, reason=reason))))

    assert won(ended("lost", "bilbo-left-play"), row, "threat") == (False, "bilbo-left-play/threat")
    assert won(ended("lost", "bilbo-left-play"), row) == (False, "bilbo-left-play")
    assert won(ended("lost", "heroes"), row, "heroes") == (False, "heroes")
    assert won(ended("won", "inside-information"), row) == (True, "inside-information")


def test_the_dreadnaught_row_plays_the_leadership_deck_with_three_gandalfs_and_two_greetings() -> None:
    """The Hunt for the Dreadnaught's row plays the Leadership deck with its two Common Causes
    given up for two more Gandalfs and its two For Gondor! for two The Galadhrim's Greeting
    (``ships-leadership``), a legal deck of the cards the engine plays, of the Leadership deck's
    heroes and size."""
    from domain.lcg.decks.ready_made import ready_made

    deck, titles = _row_deck("hunt-for-the-dreadnaught", "ships-leadership")
    assert (titles["Gandalf"], titles["The Galadhrim's Greeting"]) == (3, 2)
    assert "Common Cause" not in titles and "For Gondor!" not in titles
    former = ready_made()["leadership"]
    assert deck.heroes == former.heroes
    assert deck.size == former.size
    were = {CARDS[c].name: n for c, n in former.cards}
    swapped = {"Gandalf", "Common Cause", "For Gondor!", "The Galadhrim's Greeting"}
    assert {t: n for t, n in titles.items() if t not in swapped} == {t: n for t, n in were.items() if t not in swapped}
