"""`simulate lcg` says how each deck did: its wins, and where its games were lost."""

from __future__ import annotations

import json
import re

import pytest

from tools.cli import main


def test_simulate_summarises_each_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "lcg", "--games", "4", "--deck", "aragorn-gimli-legolas"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"deck p1: Aragorn, Gimli, Legolas \(30 cards\): won (\d+) of 4", out)
    assert found, out
    won = int(found.group(1))
    if won < 4:
        lost = re.search(r"\n  lost (\d+): (.+)\n", out)
        assert lost and int(lost.group(1)) == 4 - won, out
        reasons = lost.group(2).split(", ")
        assert sum(int(r.rsplit(" ", 1)[1]) for r in reasons) == 4 - won
        assert all(r.rsplit(" ", 1)[0] in ("threat reached 50", "every hero dead") for r in reasons), reasons
    assert re.search(r"per game: [\d.]+ heroes lost, threat [\d.]+ at the end, [\d.]+ quest stages defeated", out)


def test_the_summary_of_two_decks_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "lcg", "--games", "3", "--players", "2", "--scenario", "hunt-for-the-dreadnaught", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    decks = report["decks"]
    assert [d["seat"] for d in decks] == ["p1", "p2"]
    games_lost = report["results"].get("lost", {}).get("by_reason", {})
    for deck in decks:
        assert deck["games"] == 3 and len(deck["heroes"]) == 3 and deck["cards"] == 30
        assert deck["won"] + sum(deck["lost"].values()) == 3
        # a game lost is lost by every deck at the table, for the same reason
        assert sum(deck["lost"].values()) == sum(games_lost.values())
        for reason, n in deck["lost"].items():
            assert games_lost[reason.removeprefix("quest: ")] == n
        assert 0 <= deck["per_game"]["heroes_lost"] <= 3
