"""A command's append on SQLite (service/store.py ``Append``, ``insert_stored``) whose guard
the write watch proves: while the watch proves, at the commit, that only this process's
commits wrote the store since the look that found the game's rows sound, the rows go in
without the guard's read of the game's index range (its ``COUNT(*)``); a row deleted or
added through another connection between that look and the commit is still refused, and
nothing of the command is saved. The rows and responses are those the guarded insert gives.

Also: the stored form's timestamp worked out once a save (``Codec.encode_at``) gives the
bytes ``Codec.encode_stored`` gives, and the watch's fingerprint of the files, which now
stats at once a file it saw, is the plain ``os.stat`` of each path (None when absent)."""

from __future__ import annotations

import random
import sqlite3
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bots import random_choice
from domain.game import Recorded
from domain.rulesets import ruleset
from service.app import ConcurrentUpdate, DamagedGame, Westmarch, store_env
from service.commands import GameService
from service.games import GameRequest
from service.rpc import convert
from service.store import EventMapper, WriteWatch
from tests.test_write_watch import Table, _table, plain_prints


@pytest.fixture
def table(tmp_path: Path) -> Any:
    db = tmp_path / "games.db"
    played = _table(store_env(db=str(db)), db)
    yield played
    played.app.close()


def test_the_watch_proves_each_commands_guard_while_only_this_process_writes(table: Table) -> None:
    before = table.watch.proved
    for _ in range(6):
        table.answer()
    assert table.watch.proved - before == 6


def _between_look_and_commit(table: Table, write: str, params: list[Any]) -> None:
    """Run ``write`` through another connection after the command's look, before its commit."""
    original = table.app.commit
    assert table.db is not None
    db = table.db

    def commit(game: Any, before: int, *also: Any, since: int | None = None) -> list[bytes]:
        with sqlite3.connect(db) as conn:
            conn.execute(write, params)
        return original(game, before, *also, since=since)

    table.app.commit = commit  # type: ignore[method-assign]


@pytest.mark.parametrize("which", ["middle", "last"])
def test_a_row_deleted_between_the_look_and_the_commit_is_refused(table: Table, which: str) -> None:
    """A middle row: only the guard's count tells it (the lowest and highest versions stay)."""
    for _ in range(2):
        table.answer()
    version = 2 if which == "middle" else table.version
    hexid = uuid.UUID(str(table.game_id)).hex
    _between_look_and_commit(
        table, "DELETE FROM stored_events WHERE originator_id=? AND originator_version=?", [hexid, version]
    )
    proved = table.watch.proved
    expected = [(v, s) for v, s in table.rows() if v != version]
    with pytest.raises((DamagedGame, ConcurrentUpdate)):
        table.answer()
    assert table.rows() == expected, "nothing of the command may be saved"
    assert table.watch.proved == proved


def test_a_row_added_between_the_look_and_the_commit_is_refused(table: Table) -> None:
    rows = table.rows()
    hexid = uuid.UUID(str(table.game_id)).hex
    _between_look_and_commit(
        table,
        "INSERT INTO stored_events VALUES (?, ?, 'westmarch.lcg', ?)",
        [hexid, table.version + 1, rows[-1][1]],
    )
    proved = table.watch.proved
    with pytest.raises((DamagedGame, ConcurrentUpdate)):
        table.answer()
    assert table.rows() == [*rows, (table.version + 1, rows[-1][1])], "nothing of the command may be saved"
    assert table.watch.proved == proved


def _played(tmp_path: Path, name: str, proved: bool, games: int = 3) -> tuple[list[Any], list[bytes], int]:
    """Seeded games of the floor's loop: each game's rows (version, topic, event without its
    save time) and each response's protobuf bytes; and how many guards the watch proved."""
    app = Westmarch(store_env(db=str(tmp_path / f"{name}.db")))
    if not proved:
        original = app.commit

        def guarded(game: Any, before: int, *also: Any, since: int | None = None) -> list[bytes]:
            return original(game, before, *also)

        app.commit = guarded  # type: ignore[method-assign]
    service = GameService(app)
    rng = random.Random(7)
    rows: list[Any] = []
    responses: list[bytes] = []
    try:
        for _ in range(games):
            access = service.create(GameRequest(game="lcg"), seed=rng.randrange(1, 2**31))
            seat = next(iter(access.seats))
            version, decision = access.version, service.view_as(access.game_id, seat).decision
            while decision is not None:
                choice = list(random_choice(decision, rng))
                result = service.submit_as(access.game_id, seat, version, decision.id, choice, f"c{version}")
                responses.append(convert.submit_pb(result).SerializeToString(deterministic=True))
                if result.over:
                    break
                version, decision = result.version, result.decision
            stored = app.recorder.select_events(access.game_id)
            rows.append([(s.originator_version, s.topic, msgspec.json.decode(s.state)[1]) for s in stored])
        assert app.watch is not None
        return rows, responses, app.watch.proved
    finally:
        app.close()


def test_the_proved_insert_saves_what_the_guarded_insert_saves(tmp_path: Path) -> None:
    rows, responses, proved = _played(tmp_path, "proved", True)
    plain_rows, plain_responses, plain_proved = _played(tmp_path, "guarded", False)
    assert plain_proved == 0
    assert proved == len(responses) > 50
    assert rows == plain_rows
    assert responses == plain_responses


def test_the_stored_form_with_its_time_worked_out_once_is_the_same() -> None:
    rules = ruleset("lcg")
    codec = rules.codec
    app = Westmarch({"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        service = GameService(app)
        access = service.create(GameRequest(game="lcg"), seed=11)
        events = app.history(access.game_id)
        mapper = app.mapper
        assert isinstance(mapper, EventMapper)
    finally:
        app.close()
    moments = [
        datetime(1970, 1, 1, tzinfo=UTC),
        datetime(2026, 12, 7, 20, 1, 2, 345678, tzinfo=UTC),
        datetime(1969, 7, 20, 20, 17, 40, 1, tzinfo=UTC),
        datetime.now(UTC),
        datetime(2030, 1, 1, tzinfo=UTC) + timedelta(microseconds=999_999),
    ]
    for at in moments:
        for event in events:
            assert codec.encode_at(codec.micros(at), event) == codec.encode_stored(at, event)
    game_id = uuid.uuid4()
    stamped = [Recorded(game_id, e.seq, "lcg", e, moments[n % len(moments)]) for n, e in enumerate(events)]
    for recorded in (stamped, [Recorded(game_id, e.seq, "lcg", e) for e in events]):
        rows = mapper.game_events(recorded)
        for row, r in zip(rows, recorded, strict=True):
            if r.timestamp is not None:
                assert row == mapper.to_row(r)
            else:  # saved now: the same bytes but for the time
                assert msgspec.json.decode(row.state)[1] == msgspec.json.decode(mapper.to_row(r).state)[1]
                assert row[:3] == mapper.to_row(r)[:3]


def test_the_watchs_fingerprint_of_the_files_is_a_plain_stat_of_each(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
        watch = WriteWatch()
        paths = [str(db), str(db) + "-wal", str(db) + "-journal"]

        def step(n: int) -> None:
            if n == 1:
                conn.execute("INSERT INTO t VALUES (1)")
                conn.commit()
            elif n in (2, 3):
                Path(paths[2]).write_bytes(b"x" * (n - 1))
            elif n == 4:
                Path(paths[2]).unlink()
            elif n == 5:
                Path(paths[1]).rename(tmp_path / "moved")
            elif n == 6:
                (tmp_path / "moved").rename(paths[1])

        for n in range(8):
            step(n)
            assert watch._files(conn) == plain_prints(paths)
            assert watch._files(conn) == plain_prints(paths)
    finally:
        conn.close()
