"""What a newcomer meets first at the command line: the README's first command as written,
every scenario named, the listing of games, errors in one line, and Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from uuid import UUID

import pytest

from domain.lcg.scenarios import SCENARIOS, load
from service.app import Westmarch, store_env
from service.commands import GameService
from service.games import GameRequest
from service.records import COMMAND_TOPIC, seats_id
from tests.terminal_support import ROOT, Terminal, listen_to_ctrl_c
from tools.cli import main

README = (ROOT / "README.md").read_text(encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, standard output and error of one command (a usage error or --help exits)."""
    try:
        code = main(list(argv))
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one-line message of a refused command (exit 2, no traceback)."""
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert err.startswith("westmarch: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def listed(out: str) -> list[str]:
    """The game ids of a listing, in its order."""
    return [line.split()[0] for line in out.splitlines() if re.match(r"[0-9a-f]{8}-", line)]


def copy_store(source: Path, target: Path) -> str:
    """A copy of a whole store (what its write-ahead log still holds too)."""
    a, b = sqlite3.connect(source), sqlite3.connect(target)
    with b:
        a.backup(b)
    a.close()
    b.close()
    return str(target)


def garble(db: str, where: str, *params: object) -> int:
    """Make the matching rows undecodable, as a bad edit or a torn write would; the count."""
    conn = sqlite3.connect(db)
    with conn:
        changed = conn.execute(
            f"UPDATE stored_events SET state = CAST('[1, {{\"type\": ' AS BLOB) WHERE {where}", params
        )
    conn.close()
    return changed.rowcount


# -- the README and --help -------------------------------------------------------------------


def test_the_first_command_of_the_readme_names_the_command_as_installed(tmp_path: Path) -> None:
    first = README.split("\n\n")[2]  # the paragraph below the two commands
    assert "`.venv/bin/westmarch games`" in first and ". .venv/bin/activate" in first
    assert "`westmarch games`" not in first
    # the command as the README writes it, from the virtualenv this suite runs in
    westmarch = Path(sys.executable).parent / "westmarch"
    db = str(tmp_path / "westmarch.db")
    made = subprocess.run([westmarch, "new", "lcg", "--db", db], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    shown = subprocess.run([westmarch, "games", "--db", db], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and listed(shown.stdout) == [made.stdout.strip()]


def test_the_readme_and_new_lcg_help_name_every_scenario(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    load()
    assert len(SCENARIOS) == 5
    monkeypatch.setenv("COLUMNS", "2000")  # no wrapping inside a scenario's name
    code, out, _ = run(capsys, "new", "lcg", "--help")
    assert code == 0 and "Core Set scenario" not in out
    for key, scenario in SCENARIOS.items():
        assert f"{key} ({scenario.title})" in out, key
        assert f"`{key}`" in README and scenario.title in README, key
    row = next(line for line in README.splitlines() if line.startswith("| `westmarch new lcg --scenario passage"))
    assert all(key in row for key in SCENARIOS)


# -- games -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Four games, oldest first: Anduin in progress, Mirkwood over, WotR trilogy in progress,
    the Lonely Mountain in progress."""
    db = tmp_path_factory.mktemp("newcomer") / "games.db"
    games = {}
    for name, argv in (
        ("anduin", ["lcg", "--scenario", "journey-along-the-anduin", "--seed", "3"]),
        ("mirkwood", ["lcg", "--seed", "4"]),
        ("trilogy", ["wotr", "--seed", "5"]),
        ("mountain", ["lcg", "--scenario", "the-lonely-mountain", "--seed", "6"]),
    ):
        app_out = subprocess.run(
            [sys.executable, "-m", "tools.cli", "new", *argv, "--db", str(db)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert app_out.returncode == 0, app_out.stderr
        games[name] = app_out.stdout.strip()
        if name == "mirkwood":
            assert main(["play", games[name], "--bot", "p1=greedy", "--db", str(db)]) == 0
    return db, games


def test_games_are_listed_newest_first_each_with_its_scenario(
    capsys: pytest.CaptureFixture[str], store: tuple[Path, dict[str, str]]
) -> None:
    db, g = store
    code, out, _ = run(capsys, "games", "--db", str(db))
    assert code == 0
    assert listed(out) == [g["mountain"], g["trilogy"], g["mirkwood"], g["anduin"]]
    rows = {line.split()[0]: line for line in out.splitlines() if not line.startswith(" ")}
    assert rows[g["anduin"]].endswith("playing  scenario journey-along-the-anduin")
    assert re.search(r"over: (won|lost) \([a-z-]+\)  scenario passage-through-mirkwood$", rows[g["mirkwood"]])
    assert rows[g["trilogy"]].endswith("scenario trilogy")
    assert rows[g["mountain"]].endswith("scenario the-lonely-mountain")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--limit", "2"], ["mountain", "trilogy"]),
        (["--game", "wotr"], ["trilogy"]),
        (["--game", "lcg", "--limit", "2"], ["mountain", "mirkwood"]),
        (["--scenario", "journey-along-the-anduin"], ["anduin"]),
        (["--over"], ["mirkwood"]),
        (["--in-progress"], ["mountain", "trilogy", "anduin"]),
        (["--in-progress", "--game", "lcg", "--limit", "1"], ["mountain"]),
        (["--damaged"], []),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) and v and v[0].startswith("-") else "",
)
def test_games_limit_and_filters(
    capsys: pytest.CaptureFixture[str], store: tuple[Path, dict[str, str]], argv: list[str], expected: list[str]
) -> None:
    db, g = store
    code, out, _ = run(capsys, "games", *argv, "--db", str(db))
    assert code == 0 and listed(out) == [g[name] for name in expected]
    if not expected:
        assert out == "no game in this store is as asked\n"


def test_games_refuses_a_limit_below_one_and_over_with_in_progress(
    capsys: pytest.CaptureFixture[str], store: tuple[Path, dict[str, str]]
) -> None:
    db = str(store[0])
    assert "--limit must be at least 1" in refused(capsys, "games", "--limit", "0", "--db", db)
    err = refused(capsys, "games", "--over", "--in-progress", "--db", db)
    assert "argument --in-progress: not allowed with argument --over (see: westmarch games --help)" in err


def test_an_undecodable_event_row_in_a_finished_game_marks_it_damaged(
    capsys: pytest.CaptureFixture[str], store: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    db, g = copy_store(store[0], tmp_path / "games.db"), store[1]
    assert garble(db, "originator_id = ? AND originator_version = 30", g["mirkwood"].replace("-", "")) == 1
    code, out, _ = run(capsys, "games", "--db", db)
    assert code == 0 and len(listed(out)) == 4  # the others are listed as before
    [row] = [line for line in out.splitlines() if line.startswith(g["mirkwood"])]
    assert "DAMAGED  event 30: a stored event cannot be decoded" in row and "over" not in row
    assert row.endswith("scenario passage-through-mirkwood")
    assert listed(run(capsys, "games", "--damaged", "--db", db)[1]) == [g["mirkwood"]]
    assert run(capsys, "games", "--over", "--db", db)[1] == "no game in this store is as asked\n"


@pytest.fixture
def served(tmp_path: Path) -> tuple[str, str, str, str]:
    """A store with three games created and played through the service: each has its seats
    record, and each answer its CommandApplied record."""
    db = str(tmp_path / "served.db")
    app = Westmarch(store_env(db=db))
    service = GameService(app)
    made = []
    for seed in (1, 2, 3):
        access = service.create(GameRequest(game="lcg"), seed=seed)
        seat, version = next(iter(access.seats)), access.version
        for n in range(3):
            decision = service.view_as(access.game_id, seat).decision
            assert decision is not None
            choice = [decision.options[0].id] * max(1, decision.min)
            version = service.submit_as(access.game_id, seat, version, decision.id, choice, f"c{n}").version
        made.append(str(access.game_id))
    app.close()
    return db, *made  # type: ignore[return-value]


def test_an_undecodable_seats_or_command_record_marks_its_game_damaged(
    capsys: pytest.CaptureFixture[str], served: tuple[str, str, str, str]
) -> None:
    db, first, second, third = served
    assert garble(db, "originator_id = ?", seats_id(UUID(first)).hex) == 1
    conn = sqlite3.connect(db)
    with conn:  # one of the second game's command records, cut short (its game id still in it)
        changed = conn.execute(
            "UPDATE stored_events SET state = substr(state, 1, length(state) - 20) WHERE rowid = "
            "(SELECT MIN(rowid) FROM stored_events WHERE topic = ? AND CAST(state AS TEXT) LIKE ?)",
            (COMMAND_TOPIC, f"%{second}%"),
        )
        assert changed.rowcount == 1
    conn.close()
    code, out, err = run(capsys, "games", "--db", db)
    assert code == 0 and listed(out) == [third, second, first] and not err
    rows = {line.split()[0]: line for line in out.splitlines() if not line.startswith(" ")}
    assert "DAMAGED  its seats record (the tokens' hashes) cannot be decoded" in rows[first]
    assert "DAMAGED  a command record (CommandApplied) cannot be decoded" in rows[second]
    assert "DAMAGED" not in rows[third] and "playing" in rows[third]
    assert listed(run(capsys, "games", "--damaged", "--db", db)[1]) == [second, first]
    assert listed(run(capsys, "games", "--in-progress", "--db", db)[1]) == [third]


def test_an_unreadable_record_naming_no_game_is_warned_of_and_the_listing_goes_on(
    capsys: pytest.CaptureFixture[str], served: tuple[str, str, str, str]
) -> None:
    db, first, second, third = served
    assert garble(db, "rowid = (SELECT MIN(rowid) FROM stored_events WHERE topic = ?)", COMMAND_TOPIC) == 1
    code, out, err = run(capsys, "games", "--db", db)
    assert code == 0 and listed(out) == [third, second, first] and "DAMAGED" not in out
    assert err == "westmarch: WARNING: 1 stored record(s) beside games cannot be decoded\n"


# -- errors in one line ----------------------------------------------------------------------


def test_verify_of_a_missing_file_says_the_file_is_missing(
    capsys: pytest.CaptureFixture[str],
    store: tuple[Path, dict[str, str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "game.jsonl"
    expected = f"westmarch: no record file '{missing}': it is missing (nor is it a game id)\n"
    assert refused(capsys, "verify", str(missing)) == expected
    assert not (tmp_path / "westmarch.db").exists()
    assert refused(capsys, "verify", str(missing), "--db", str(store[0])) == expected
    assert "no game id starts with 'abcdef'" in refused(capsys, "verify", "abcdef", "--db", str(store[0]))


def test_epic_takes_an_id_prefix(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "epic.db")
    code, out, _ = run(capsys, "new", "lcg", "--scenario", "hunt-for-the-dreadnaught", "--epic", "2x1", "--db", db)
    assert code == 0
    epic = re.search(r"^epic event (\S+)$", out, re.MULTILINE)
    assert epic is not None
    code, out, _ = run(capsys, "epic", epic.group(1)[:8], "--db", db)
    assert code == 0 and out.startswith(f"epic event {epic.group(1)} (2 players")
    assert refused(capsys, "epic", "zzzz", "--db", db) == "westmarch: no epic event id starts with 'zzzz'\n"


def test_usage_errors_are_one_line_naming_help_and_the_nearest_choice(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "new", "lcg", "--scenario", "passage-through-mirkwod")
    assert err == (
        "westmarch: new lcg: argument --scenario: invalid choice: 'passage-through-mirkwod'; "
        "did you mean passage-through-mirkwood? (see: westmarch new lcg --help)\n"
    )
    assert "invalid choice: 'gmaes'; did you mean games? (see: westmarch --help)" in refused(capsys, "gmaes")
    err = refused(capsys, "new", "lcg", "--scenario", "zzz")
    assert "(choose from " in err and "the-lonely-mountain" in err and err.endswith("(see: westmarch new lcg --help)\n")
    assert refused(capsys, "new") == (
        "westmarch: new: the following arguments are required: GAME (see: westmarch new --help)\n"
    )
    assert "argument --players: invalid int value: 'x'" in refused(capsys, "new", "lcg", "--players", "x")


def test_no_players_and_a_bot_without_its_kind_are_refused(
    capsys: pytest.CaptureFixture[str], store: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    fresh = tmp_path / "fresh.db"
    for command in ("new", "simulate"):
        err = refused(capsys, command, "lcg", "--players", "0", "--db", str(fresh))
        assert err == "westmarch: --players 0: a game has 1 to 4 players\n"
        assert not fresh.exists()
    db, game = copy_store(store[0], tmp_path / "games.db"), store[1]["anduin"]
    before = Path(db).read_bytes()
    for spec in ("p1", "p1=", "=greedy"):
        err = refused(capsys, "play", game, "--bot", spec, "--db", db)
        assert err == (
            f"westmarch: --bot {spec}: name the seat and its bot, e.g. --bot p2=greedy (random, greedy, search)\n"
        )
    assert Path(db).read_bytes() == before


def test_a_refused_new_or_import_leaves_no_store_behind(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.db"
    bad_deck = tmp_path / "bad.txt"
    bad_deck.write_text("Aragorn\nGimli\nLegolas\n4x Guard of the Citadel\n", encoding="utf-8")
    bad_record = tmp_path / "bad.jsonl"
    bad_record.write_text("these are not the games you are looking for\n", encoding="utf-8")
    for argv in (
        ["new", "lcg", "--players", "5"],
        ["new", "lcg", "--deck", str(bad_deck)],
        ["new", "lcg", "--scenario", "hunt-for-the-dreadnaught", "--epic", "9x9"],
        ["import", str(tmp_path / "missing.jsonl")],
    ):
        refused(capsys, *argv, "--db", str(fresh))
        assert sorted(os.listdir(tmp_path)) == ["bad.jsonl", "bad.txt"], argv
    code, _, err = run(capsys, "import", str(bad_record), "--db", str(fresh))
    assert code == 1 and "not imported" in err
    assert sorted(os.listdir(tmp_path)) == ["bad.jsonl", "bad.txt"]
    # a store that was there before is kept, with its games, whatever is refused
    assert run(capsys, "new", "lcg", "--db", str(fresh))[0] == 0
    assert run(capsys, "import", str(bad_record), "--db", str(fresh))[0] == 1
    assert len(listed(run(capsys, "games", "--db", str(fresh))[1])) == 1


def test_one_deck_problem_is_said_once_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("Aragorn\nGimli\nLegolas\n4x Guard of the Citadel\n", encoding="utf-8")
    err = refused(capsys, "new", "lcg", "--deck", str(bad), "--db", str(tmp_path / "g.db"))
    assert err == (
        "westmarch: player 1's deck 'bad.txt' is refused: 4 copies of Guard of the Citadel; "
        "a deck holds at most 3 of a title\n"
    )


# -- Ctrl-C ----------------------------------------------------------------------------------


def interrupt(term: Terminal) -> str:
    """Ctrl-C at the prompt, pressed again if the first is not noticed: CPython's readline
    loses a SIGINT that lands between drawing the prompt and waiting for a key (it is
    noticed only on the next one), which a test sending it the moment the prompt shows can
    hit on a loaded machine. What the terminal shows to its end."""
    for _ in range(5):
        os.kill(term.pid, signal.SIGINT)
        try:
            return term.read(timeout=5)
        except TimeoutError:
            continue
    return term.read()


def test_ctrl_c_in_play_says_the_game_is_saved_and_how_to_resume(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "games.db")
    code, out, _ = run(capsys, "new", "lcg", "--seed", "7", "--db", db)
    game = out.strip()
    term = Terminal(["play", game, "--db", db], timeout=60)
    try:
        assert "Keep this hand" in term.read()
        term.type("1")  # one answer saved, then the player is at the next question
        shown = interrupt(term)
    finally:
        term.close()
    assert term.status == 130
    assert "Traceback" not in term.seen
    app = Westmarch(store_env(db=db))
    try:
        version = app.version(UUID(game))
    finally:
        app.close()
    assert f"westmarch: interrupted; game {game} is saved at version {version}; " in shown
    assert f"resume with: westmarch play {game} --db {db}" in shown
    code, out, _ = run(capsys, "play", game, "--bot", "p1=greedy", "--db", db)  # resumes and finishes
    assert code == 0 and "GAME OVER" in out


def test_ctrl_c_in_simulate_prints_the_summary_of_the_games_finished(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "games.db")
    argv = [sys.executable, "-m", "tools.cli", "simulate", "lcg", "--games", "1000", "--store", "--db", db]
    sim = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=listen_to_ctrl_c
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # until two games are kept
            time.sleep(0.2)
            if os.path.exists(db):
                with sqlite3.connect(db) as conn:
                    found = conn.execute("SELECT name FROM sqlite_master WHERE name = 'stored_events'").fetchone()
                    kept = (
                        conn.execute(
                            "SELECT COUNT(*) FROM stored_events WHERE topic = 'westmarch.lcg.created'"
                        ).fetchone()[0]
                        if found
                        else 0
                    )
                if kept >= 2:
                    break
        sim.send_signal(signal.SIGINT)
        out, err = sim.communicate(timeout=60)
    finally:
        if sim.poll() is None:
            sim.kill()
    assert sim.returncode == 130, err
    assert "Traceback" not in err
    said = re.search(r"^westmarch: interrupted after (\d+) of 1000 games; the (\d+) stored are kept", err, re.M)
    assert said is not None, err
    finished, stored = int(said.group(1)), int(said.group(2))
    assert 2 <= stored <= finished < 1000
    assert f"games: {finished}\n" in out and "events per game: mean" in out
    assert len(listed(run(capsys, "games", "--db", db)[1])) == stored
