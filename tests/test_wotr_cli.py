"""The westmarch command line with War of the Ring games, end to end on a SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import run


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


BOTS = ["--bot", "frodo=greedy", "--bot", "witch-king=random", "--bot", "aragorn=random", "--bot", "saruman=greedy"]


def test_new_play_log_state_explain_fork_verify(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "new", "wotr", "--scenario", "trilogy", "--seed", "5", "--db", db)
    assert code == 0
    game = out.strip()
    code, out, _ = run(capsys, "play", game[:8], *BOTS, "--db", db)
    assert code == 0 and "GAME OVER" in out

    code, out, _ = run(capsys, "games", "--db", db)
    assert game in out and "wotr" in out and "over" in out
    code, out, _ = run(capsys, "log", game, "--db", db)
    assert code == 0 and "a game of War of the Ring begins, Trilogy (seed 5)" in out
    assert "because: wotr.setup.cards" in out and "the action step begins" in out
    code, out, _ = run(capsys, "state", game, "--at", "60", "--db", db)
    assert code == 0 and "version 60" in out
    code, out, _ = run(capsys, "state", game, "--at", "60", "--json", "--as", "aragorn", "--db", db)
    view = json.loads(out)
    players = {p["seat"]: p for p in view["players"]}
    assert players["aragorn"].get("hand") is not None and players["frodo"].get("hand") is None
    code, out, _ = run(capsys, "explain", game, "60", "--db", db)
    assert code == 0 and out.startswith("event 60: ")
    code, out, _ = run(capsys, "fork", game, "--at", "80", "--db", db)
    fork = out.strip()
    assert code == 0 and fork != game
    for checked in (fork, game):
        code, out, _ = run(capsys, "verify", checked, "--db", db)
        assert code == 0 and "ok" in out


def test_new_takes_rule_options_and_refuses_bad_ones(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "new", "wotr", "--scenario", "fellowship", "--empty-combat", "nobody", "--db", db)
    assert code == 0
    code, out, _ = run(capsys, "state", out.strip(), "--at", "1", "--json", "--raw", "--db", db)
    assert json.loads(out)["options"]["rules"] == {"empty_combat": "nobody"}
    with pytest.raises(SystemExit):
        run(capsys, "new", "wotr", "--scenario", "return-of-the-king", "--db", db)


@pytest.mark.parametrize("scenario", ["trilogy", "two-player-duel", "three-player-duel", "fellowship"])
def test_simulate_each_scenario(capsys: pytest.CaptureFixture[str], db: str, scenario: str) -> None:
    for bot in ("random", "greedy"):
        code, out, _ = run(capsys, "simulate", "wotr", "--scenario", scenario, "--games", "3", "--bot", bot, "--json")
        assert code == 0
        report = json.loads(out)
        assert report["games"] == 3 and sum(r["total"] for r in report["results"].values()) == 3
        assert set(report["results"]) <= {"free", "shadow"}
