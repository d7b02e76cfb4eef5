"""Every bad input at the command line: one line naming what is wrong, a non-zero exit, no
traceback, and nothing created or appended."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tools.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one-line message of a refused command (exit 2)."""
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert err.startswith("westmarch: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A store with one two-player game, a few decisions in."""
    db = tmp_path_factory.mktemp("errors") / "games.db"
    assert main(["new", "lcg", "--players", "2", "--seed", "3", "--db", str(db)]) == 0
    from service.app import Westmarch, store_env

    app = Westmarch(store_env(db=str(db)))
    [info] = list(app.games())
    app.close()
    return db, str(info.id)


@pytest.fixture
def db(stored: tuple[Path, str], tmp_path: Path) -> tuple[str, str]:
    copy = tmp_path / "games.db"
    source, target = sqlite3.connect(stored[0]), sqlite3.connect(copy)
    with target:
        source.backup(target)  # the whole store, whatever its write-ahead log still holds
    source.close()
    target.close()
    return str(copy), stored[1]


READ_COMMANDS = [
    ("games",),
    ("log", "GAME"),
    ("state", "GAME"),
    ("explain", "GAME", "3"),
    ("verify", "GAME"),
    ("fork", "GAME", "--at", "3"),
    ("export", "GAME"),
    ("tokens", "GAME"),
    ("play", "GAME"),
    ("fixture", "capture", "GAME", "--at", "3"),
]


@pytest.mark.parametrize("command", READ_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_mistyped_db_is_not_created(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: tuple[str, ...]
) -> None:
    missing = tmp_path / "gmaes.db"
    argv = [a.replace("GAME", "0123") for a in command]
    err = refused(capsys, *argv, "--db", str(missing))
    assert f"no store at '{missing}'" in err
    assert not missing.exists()


def test_a_store_that_is_not_a_store(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: tuple[str, str]) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"these are not the games you are looking for\n" * 100)
    assert "cannot be read (file is not a database)" in refused(capsys, "games", "--db", str(garbage))

    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(Path(db[0]).read_bytes()[:8192])
    assert "cannot be read" in refused(capsys, "log", db[1], "--db", str(truncated))

    folder = tmp_path / "folder.db"
    folder.mkdir()
    assert "is a folder, not a SQLite file" in refused(capsys, "games", "--db", str(folder))


def test_a_bad_event_row(capsys: pytest.CaptureFixture[str], db: tuple[str, str]) -> None:
    path, game = db
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "UPDATE stored_events SET state = CAST('[1, {\"type\": ' AS BLOB) "
            "WHERE originator_id = ? AND originator_version = 5",
            (game.replace("-", ""),),
        )
    conn.close()
    for command in (("log", game), ("state", game), ("explain", game, "7"), ("play", game)):
        err = refused(capsys, *command, "--db", path)
        assert f"game {game} is damaged at version 5: a stored event cannot be decoded" in err
    code, out, _ = run(capsys, "verify", game, "--db", path)
    assert code == 1 and "FAILED at event 5: a stored event cannot be decoded" in out


def test_unknown_bots_and_seats(capsys: pytest.CaptureFixture[str], db: tuple[str, str]) -> None:
    path, game = db
    before = Path(path).read_bytes()
    assert "--bot p2=clever: unknown bot 'clever'; choose from random, greedy" in refused(
        capsys, "play", game, "--bot", "p2=clever", "--db", path
    )
    assert "--bot p3=greedy: this game's seats are p1, p2" in refused(
        capsys, "play", game, "--bot", "p3=greedy", "--db", path
    )
    assert "--seat p7: this game's seats are p1, p2" in refused(capsys, "play", game, "--seat", "p7", "--db", path)
    assert "--as p9: this game's seats are p1, p2 (or spectator, referee)" in refused(
        capsys, "state", game, "--as", "p9", "--db", path
    )
    assert Path(path).read_bytes() == before  # nothing saved, not even a seating


def test_a_missing_fixture_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "no-such-fixture.toml"
    assert f"no fixture file '{missing}'" in refused(capsys, "fixture", "run", str(missing))


def test_a_database_server_that_cannot_be_reached(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTGRES_CONNECT_TIMEOUT", "1")
    err = refused(capsys, "games", "--postgres", "postgresql://nobody@127.0.0.1:1/none")
    assert "the store cannot be used: couldn't get a connection" in err
