"""A smoke run of the search bot through `westmarch simulate`: its games finish and are stored.

Only that: win rates are measured by `westmarch bench-bots` (BENCHMARKS.md), not asserted here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.cli import main


def test_search_bot_games_finish_and_are_stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "games.db")
    argv = ["simulate", "lcg", "--scenario", "journey-along-the-anduin", "--games", "2", "--bot", "search"]
    assert main([*argv, "--budget", "0.01", "--store", "--db", db, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and "unfinished" not in report["results"]
    assert sum(r["total"] for r in report["results"].values()) == 2
    assert main(["games", "--db", db]) == 0
    listed = capsys.readouterr().out
    assert listed.count("lcg") >= 2, listed


def test_the_search_bot_plays_the_free_peoples_against_the_shadow_bots(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "wotr", "--scenario", "fellowship", "--bots", "shadow", "--difficulty", "standard"]
    assert main([*argv, "--games", "1", "--bot", "search", "--budget", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "the Free Peoples (search bot) won " in out and "of 1 games" in out


def test_a_budget_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "lcg", "--games", "1", "--bot", "search", "--budget", "0"]) != 0
    assert "--budget must be a positive number" in capsys.readouterr().err


def test_play_seats_the_search_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play --bot p1=search` plays the game to its end (the search bot reads the table's state)."""
    import bots

    monkeypatch.setattr(bots, "DEFAULT_SEARCH_SECONDS", 0.01)  # a short game, not 2 s a decision
    db = str(tmp_path / "games.db")
    assert main(["new", "lcg", "--scenario", "journey-along-the-anduin", "--seed", "4", "--db", db]) == 0
    game = capsys.readouterr().out.split()[0]
    assert main(["play", game[:8], "--bot", "p1=search", "--db", db]) == 0
    assert "GAME OVER" in capsys.readouterr().out
