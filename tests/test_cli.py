"""The westmarch command line, end to end on a SQLite file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tools.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


def new_game(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> str:
    code, out, _ = run(capsys, "new", "lcg", "--seed", "3", "--db", db, *extra)
    assert code == 0
    return out.strip()


def test_new_then_play_with_a_bot_to_the_end(capsys: pytest.CaptureFixture[str], db: str) -> None:
    game = new_game(capsys, db)
    code, out, _ = run(capsys, "play", game[:8], "--bot", "p1=greedy", "--db", db)
    assert code == 0
    assert "GAME OVER" in out
    code, out, _ = run(capsys, "games", "--db", db)
    assert game in out and "over" in out


def test_new_rejects_bad_setups_with_a_reason(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, _, err = run(capsys, "new", "lcg", "--players", "5", "--db", db)
    assert code == 2 and "1 to 4 players" in err
    code, _, err = run(capsys, "new", "lcg", "--heroes", "Aragorn,Gimli,Boromir", "--db", db)
    assert code == 2 and "unknown hero 'Boromir'" in err
    code, _, err = run(
        capsys,
        "new",
        "lcg",
        "--players",
        "2",
        "--heroes",
        "Aragorn,Gimli,Legolas",
        "--heroes",
        "Aragorn,Glóin,Thalin",
        "--db",
        db,
    )
    assert code == 2 and "Aragorn cannot be in play twice" in err


def test_log_tells_a_run_of_the_same_line_once(capsys: pytest.CaptureFixture[str], db: str) -> None:
    """The Corsair deck is built card by card (an event each): the log tells it in one line,
    under the first event's number, with the events it stands for and their one cause."""
    game = new_game(capsys, db, "--scenario", "hunt-for-the-dreadnaught")
    run(capsys, "play", game, "--bot", "p1=random", "--db", db)
    code, out, _ = run(capsys, "log", game, "--db", db)
    assert code == 0
    assert "13 cards are put at the bottom of the Corsair deck  (events 20 to 32)\n" in out
    assert "is put at the bottom of the Corsair deck" not in out.split("Corsair deck is shuffled")[0]
    code, brief, _ = run(capsys, "log", game, "--db", db, "--brief")
    assert "because:" not in brief and "13 cards are put at the bottom of the Corsair deck" in brief


def test_log_state_explain_fork_verify(capsys: pytest.CaptureFixture[str], db: str) -> None:
    game = new_game(capsys, db, "--players", "2")
    run(capsys, "play", game, "--bot", "p1=random", "--bot", "p2=random", "--db", db)

    code, out, _ = run(capsys, "log", game, "--db", db)
    assert code == 0 and "because: lcg.setup.cards" in out
    assert "a game of Passage through Mirkwood begins (standard, seed 3)" in out
    assert "the quest is now stage 1A: Flies and Spiders" in out
    # causes name their cards as the table knew them at that event
    assert "because: core-119.setup; the text of Flies and Spiders\n" in out

    code, out, _ = run(capsys, "state", game, "--at", "40", "--db", db)
    assert code == 0 and "version 40" in out and "Staging area" in out
    code, out, _ = run(capsys, "state", game, "--at", "40", "--json", "--as", "p2", "--db", db)
    view = json.loads(out)
    assert view["version"] == 40 and view["viewer"] == "p2"
    assert view["players"][0].get("hand") is None and view["players"][1]["hand"] is not None
    code, _, err = run(capsys, "state", game, "--at", "999999", "--db", db)
    assert code == 2 and "out of range" in err

    code, out, _ = run(capsys, "explain", game, "53", "--db", db)
    assert code == 0 and out.startswith("event 53: ")

    code, out, _ = run(capsys, "fork", game, "--at", "60", "--db", db)
    fork = out.strip()
    assert code == 0 and fork != game
    code, out, _ = run(capsys, "verify", fork, "--db", db)
    assert code == 0 and "ok" in out

    code, out, _ = run(capsys, "verify", game, "--db", db)
    assert code == 0 and "ok" in out
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "UPDATE stored_events "
            "SET state = CAST(replace(CAST(state AS TEXT), '\"amount\":1', '\"amount\":2') AS BLOB) "
            "WHERE originator_id = ? AND originator_version = (SELECT MIN(originator_version) FROM stored_events "
            "WHERE originator_id = ? AND CAST(state AS TEXT) LIKE '%\"amount\":1%')",
            (game.replace("-", ""), game.replace("-", "")),
        )
    conn.close()
    code, out, _ = run(capsys, "verify", game, "--db", db)
    assert code == 1 and "FAILED at event" in out


def test_simulate_reports_and_stores(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "simulate", "lcg", "--games", "3", "--bot", "random", "--json", "--store", "--db", db)
    assert code == 0
    report = json.loads(out)
    assert report["games"] == 3 and sum(r["total"] for r in report["results"].values()) == 3
    code, out, _ = run(capsys, "games", "--db", db)
    games = [line for line in out.splitlines() if not line.startswith(" ")]
    assert len(games) == 3 and all("over: lost" in g or "over: won" in g for g in games)
    assert out.count("    players: p1 ") == 3


@pytest.mark.parametrize(
    ("scenario", "shown"),
    [
        ("journey-along-the-anduin", "To the River..."),
        ("escape-from-dol-guldur", "Set aside, out of play: Nazgûl"),
        ("the-lonely-mountain", "Bilbo Baggins"),
    ],
)
def test_new_simulate_and_play_each_core_scenario(
    capsys: pytest.CaptureFixture[str], db: str, scenario: str, shown: str
) -> None:
    game = new_game(capsys, db, "--scenario", scenario, "--players", "2")
    code, out, _ = run(capsys, "play", game[:8], "--bot", "p1=greedy", "--bot", "p2=greedy", "--db", db)
    assert code == 0 and "GAME OVER" in out
    code, out, _ = run(capsys, "state", game[:8], "--at", "60", "--db", db)
    assert code == 0 and shown in out
    code, out, _ = run(capsys, "simulate", "lcg", "--scenario", scenario, "--games", "2", "--json", "--db", db)
    assert code == 0 and json.loads(out)["games"] == 2
    with pytest.raises(SystemExit) as refused:
        main(["new", "lcg", "--scenario", "no-such-scenario", "--db", db])
    assert refused.value.code == 2 and "escape-from-dol-guldur" in capsys.readouterr().err


def test_unknown_game_is_a_clear_error(capsys: pytest.CaptureFixture[str], db: str) -> None:
    new_game(capsys, db)
    code, _, err = run(capsys, "log", "ffffffff", "--db", db)
    assert code == 2 and "no game id starts with" in err


def test_fixture_run_reports_a_readable_diff(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fixture = tmp_path / "wrong.toml"
    fixture.write_text(
        """
name = "a fixture that expects the wrong thing"
[game]
players = 1
[position]
at = "lcg.quest.staging"
phase = "quest"
[position.zones]
"encounter.deck" = ["Forest Gate"]
[expect]
events = [{ type = "EnemyEngaged", enemy = "Forest Gate" }]
[expect.players.p1]
threat = 99
""",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "fixture", "run", str(fixture))
    assert code == 1
    assert "FAIL" in out and "expected event EnemyEngaged" in out and "threat is 34, expected 99" in out
    assert "Forest Gate#1 is revealed" in out


def test_bench_quick_writes_its_section(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    output = tmp_path / "BENCHMARKS.md"
    output.write_text("# Benchmarks\n\n<!-- section:other -->\nkept\n<!-- /section:other -->\n", encoding="utf-8")
    code, _, _ = run(capsys, "bench", "--quick", "--output", str(output))
    text = output.read_text(encoding="utf-8")
    assert code == 0
    assert "kept" in text and "<!-- section:engine -->" in text and "events/s" in text


def test_output_cut_short_by_the_reader_ends_quietly(db: str) -> None:
    """``westmarch log GAME | head``: a reader that went away ends the command, with no traceback."""
    import os
    import subprocess
    import sys

    main(["simulate", "lcg", "--games", "3", "--store", "--db", db])
    script = "import sys; from tools.cli import main; sys.exit(main(sys.argv[1:]))"
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line is written
    try:
        writer = subprocess.run(
            [sys.executable, "-c", script, "log", "--db", db, _first_game(db)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write_end)
    assert writer.returncode == 141, writer.stderr
    assert "Traceback" not in writer.stderr and "Exception ignored" not in writer.stderr


def _first_game(db: str) -> str:
    with sqlite3.connect(db) as conn:
        (hexid,) = conn.execute("SELECT originator_id FROM stored_events ORDER BY rowid LIMIT 1").fetchone()
    return str(hexid)
