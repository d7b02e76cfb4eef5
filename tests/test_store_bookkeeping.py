"""The service's per-command bookkeeping around the store, made cheaper with the same results:
a stored row made without the named tuple's interpreted ``__new__`` and a service record's
topic found before the isinstance checks (the same rows as the plain reading), the length
record a command saved not decoded again when the next command reads back its very bytes
(while a record changed in the store is still decoded, and refused if it names another head),
the write watch's ``data_version`` read through a cursor it keeps per connection, a log's
digest carried over a command's rows in one update, and the log's reads made through the
pooled connection's own cursor rather than the library's pass-through wrapper, the pool's
connection lent and given back without the datastore's context manager."""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from service.app import DamagedGame, Verified, store_env
from service.records import TOPICS, CommandApplied, LogLength, length_id
from service.store import Append, EventMapper, Row, WriteWatch, _row, _sqlite_read, insert_stored, look_since
from tests.test_write_watch import Table, _table


@pytest.fixture
def table(tmp_path: Path) -> Any:
    db = tmp_path / "games.db"
    played = _table(store_env(db=str(db)), db)
    yield played
    played.app.close()


def _plain_row(mapper: EventMapper, record: Any) -> Row:
    """``to_row`` of a service record as it was read: the two isinstance checks first."""
    topic = TOPICS[type(record)]
    at = record.timestamp or datetime.now(UTC)
    state = msgspec.json.Encoder().encode(msgspec.structs.replace(record, timestamp=at))
    return Row(record.originator_id, record.originator_version, topic, mapper._seal(state))


def test_rows_and_records_are_stored_as_the_plain_reading_stores_them(table: Table) -> None:
    mapper = table.app.mapper
    assert isinstance(mapper, EventMapper)
    at = datetime(2026, 12, 7, 20, 0, 0, 123456, tzinfo=UTC)
    game_id = uuid.uuid4()
    records: list[Any] = [
        CommandApplied(
            originator_id=uuid.uuid4(),
            game_id=game_id,
            seat="p1",
            command_id="c",
            decision=3,
            choice=("a", "b"),
            before=2,
            after=9,
            timestamp=at,
        ),
        LogLength(originator_id=length_id(game_id), originator_version=9, game_id=game_id, head="ab", timestamp=at),
    ]
    for record in records:
        row = mapper.to_row(record)
        assert type(row) is Row and row == _plain_row(mapper, record)
        assert row.originator_id == record.originator_id and row.state == _plain_row(mapper, record).state
    fields = (game_id, 4, "westmarch.lcg", b"[1,{}]")
    assert type(_row(fields)) is Row and _row(fields) == Row(*fields) and _row(fields).topic == "westmarch.lcg"


def _length_decodes(table: Table, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the length records ``_check_recorded`` decodes."""
    decoded: list[int] = []
    mapper = table.app.mapper
    original = mapper.to_domain_event

    def counted(stored: Any) -> Any:
        if stored.originator_id == length_id(table.game_id):
            decoded.append(stored.originator_version)
        return original(stored)

    monkeypatch.setattr(mapper, "to_domain_event", counted)
    return decoded


def test_a_commands_own_length_record_is_not_decoded_again(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    decoded = _length_decodes(table, monkeypatch)
    for _ in range(4):
        table.answer()
    assert decoded == []


def test_a_length_record_changed_in_the_store_is_decoded_and_refused(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded = _length_decodes(table, monkeypatch)
    table.answer()
    assert table.db is not None
    length = length_id(table.game_id).hex
    with sqlite3.connect(table.db) as conn:
        sql = "SELECT originator_version, state FROM stored_events WHERE originator_id=? ORDER BY 1 DESC LIMIT 1"
        version, state = conn.execute(sql, [length]).fetchone()
        record = msgspec.json.decode(state)
        record["head"] = "0" * len(record["head"])
        conn.execute(
            "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
            [msgspec.json.encode(record), length, version],
        )
    with pytest.raises(DamagedGame) as refused:
        table.answer()
    assert "last commit recorded" in str(refused.value)
    assert decoded == [version]


def test_the_watchs_data_version_reads_as_the_plain_statement_and_holds_no_snapshot(tmp_path: Path) -> None:
    """Read through a cursor the watch keeps per connection (no row factory), ``data_version``
    is what the plain statement gives, and the kept cursor leaves no read open: the
    connection sees the other's commits, and a checkpoint is not blocked by it."""
    db = tmp_path / "games.db"
    mine = sqlite3.connect(db, isolation_level=None)
    other = sqlite3.connect(db, isolation_level=None)
    try:
        mine.execute("PRAGMA journal_mode=WAL")
        mine.execute("CREATE TABLE t (x)")
        mine.row_factory = sqlite3.Row
        watch = WriteWatch()
        for n in range(4):
            assert watch._version(mine) == mine.execute("PRAGMA data_version").fetchone()[0]
            assert watch._version(mine) == watch._version(mine)
            other.execute("INSERT INTO t VALUES (?)", [n])
            assert other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0, "not blocked"
            assert mine.execute("SELECT COUNT(*) FROM t").fetchone()[0] == n + 1
        assert len(watch._cursors) == 1
    finally:
        mine.close()
        other.close()


def test_a_logs_digest_carried_over_new_rows_in_one_update_is_the_digest_row_by_row(table: Table) -> None:
    known = table.service._checked[table.game_id]
    states = [state for _, state in table.rows()]
    start = Verified(0, "", hashlib.sha256(), known.generation)
    one_by_one = hashlib.sha256()
    for n in range(0, len(states), 3):
        start = start.extended(states[n : n + 3], n + len(states[n : n + 3]), "")
        for state in states[n : n + 3]:
            one_by_one.update(state)
        assert start.digest == one_by_one.digest()
    assert known.digest == start.digest, "the digest the service carried over its own commands"


def test_reads_through_the_pooled_connection_give_the_rows_the_librarys_cursor_gives(table: Table) -> None:
    recorder: Any = table.app.recorder
    sql = "SELECT originator_version, state FROM stored_events WHERE originator_id=? ORDER BY 1"
    mine = _sqlite_read(recorder, sql, [uuid.UUID(str(table.game_id)).hex])
    with recorder.datastore.get_connection(commit=False) as connection:
        cursor = connection.cursor()
        cursor.execute(sql, [uuid.UUID(str(table.game_id)).hex])
        theirs = cursor.fetchall()
    assert [tuple(r) for r in mine] == [tuple(r) for r in theirs] == table.rows()
    assert all(type(r) is type(t) for r, t in zip(mine, theirs, strict=True))
    look = look_since(recorder, table.game_id, 0, table.watch)
    assert look.rows == table.rows() and not look.quiet


def _pool_at_rest(pool: Any) -> tuple[int, int, int, bool]:
    return pool.num_in_use, pool._num_readers, pool._num_writers, pool._writer_lock.locked()


def test_the_pool_is_given_its_connection_back_after_a_read_or_write_that_fails(table: Table) -> None:
    """The log's reads and a command's insert borrow the pool's connection without the
    datastore's context manager: given back, its reader or writer count and lock released,
    also when the statement fails."""
    recorder: Any = table.app.recorder
    pool = recorder.datastore.pool
    assert _pool_at_rest(pool) == (0, 0, 0, False)
    with pytest.raises(sqlite3.OperationalError):
        _sqlite_read(recorder, "SELECT nothing FROM nowhere", [])
    assert _pool_at_rest(pool) == (0, 0, 0, False)

    class Failing(WriteWatch):
        def look(self, conn: sqlite3.Connection) -> int:
            raise RuntimeError("the look fails")

    with pytest.raises(RuntimeError):
        look_since(recorder, table.game_id, 0, Failing())
    assert _pool_at_rest(pool) == (0, 0, 0, False)
    stored = recorder.select_events(table.game_id, limit=1)
    with pytest.raises(sqlite3.IntegrityError):  # version 1 saved again
        insert_stored(recorder, [Append([Row(table.game_id, 1, stored[0].topic, stored[0].state)])], table.watch)
    assert _pool_at_rest(pool) == (0, 0, 0, False)
    table.answer()  # the store still takes a command
    assert _pool_at_rest(pool) == (0, 0, 0, False)
