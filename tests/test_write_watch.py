"""The short log check on SQLite (service/store.py ``WriteWatch``): while only this process's
commits wrote the store, a game's rows found sound are not hashed again on each command; any
other write, through another connection, through the service's own connection outside a
commit of the service, or as raw bytes of the database file with its modification time set
back, is still refused on the next command, also while threads read and commit through
several of the pool's connections at once. Real SQLite files, the real service."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bots import random_choice
from service.app import DamagedGame, Westmarch, store_env
from service.commands import GameService
from service.games import GameRequest
from service.store import WriteWatch


@dataclass
class Table:
    """One game of the service, played by its first seat's random answers."""

    app: Westmarch
    service: GameService
    game_id: Any
    seat: str
    version: int
    decision: Any
    rng: random.Random
    db: Path | None

    @property
    def watch(self) -> WriteWatch:
        assert self.app.watch is not None
        return self.app.watch

    def answer(self) -> None:
        assert self.decision is not None, "the game ended before the test was done with it"
        choice = list(random_choice(self.decision, self.rng))
        result = self.service.submit_as(
            self.game_id, self.seat, self.version, self.decision.id, choice, uuid.uuid4().hex
        )
        self.version, self.decision = result.version, result.decision

    def rows(self) -> list[tuple[int, bytes]]:
        """The game's rows as a fresh connection reads them from the file."""
        assert self.db is not None
        with sqlite3.connect(self.db) as conn:
            sql = "SELECT originator_version, state FROM stored_events WHERE originator_id=? ORDER BY 1"
            return [(int(v), bytes(s)) for v, s in conn.execute(sql, [uuid.UUID(str(self.game_id)).hex])]


def plain_prints(paths: list[str]) -> tuple[Any, ...]:
    """Each path's file as a plain ``os.stat`` tells it (None when it is missing)."""
    prints: list[Any] = []
    for path in paths:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            prints.append(None)
        else:
            prints.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(prints)


def _table(env: dict[str, str], db: Path | None, snapshot_every: int = 100000) -> Table:
    app = Westmarch({**env, "WESTMARCH_SNAPSHOT_EVERY": str(snapshot_every)})
    return _game(app, GameService(app), db)


def _game(app: Westmarch, service: GameService, db: Path | None, seed: int = 5) -> Table:
    """Another game of the same service (its own seat's random answers)."""
    access = service.create(GameRequest(game="lcg"), seed=seed)
    seat = next(iter(access.seats))
    view = service.view_as(access.game_id, seat)
    table = Table(app, service, access.game_id, seat, access.version, view.decision, random.Random(seed), db)
    for _ in range(3):
        table.answer()
    return table


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    db = tmp_path / "games.db"
    played = _table(store_env(db=str(db)), db)
    yield played
    played.app.close()


def _edited(state: bytes) -> bytes:
    """The same event with another rule named as its cause: it decodes, the same size, only
    the hash chain tells it from what was played."""
    stamp, event = msgspec.json.decode(state)
    rule = event.get("cause", {}).get("rule", "")
    event["cause"] = {**event.get("cause", {}), "rule": "x" * len(rule) if rule else "x"}
    return msgspec.json.encode([stamp, event])


def _short_looks(table: Table, answers: int) -> int:
    """How many of ``answers`` commands took the short look (no hashing of the known rows)."""
    before = table.watch.quiet
    for _ in range(answers):
        table.answer()
    return table.watch.quiet - before


def test_a_games_commands_take_the_short_look_while_only_this_process_writes(table: Table) -> None:
    generation = table.watch.generation
    assert _short_looks(table, 5) == 5
    assert table.watch.generation == generation


def test_commands_that_take_snapshots_keep_the_short_look(tmp_path: Path) -> None:
    """A snapshot is saved by a commit of the service's own (it only adds a row)."""
    db = tmp_path / "games.db"
    table = _table(store_env(db=str(db)), db, snapshot_every=2)
    datastore = table.app.recorder.datastore  # type: ignore[attr-defined]

    def snapshots() -> int:
        # through the pool: a connection opened by root changes the -wal file's owner, hence
        # its change time, which the watch takes for a possible raw edit
        with datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT COUNT(*) FROM stored_snapshots")
            return int(cursor.fetchone()[0])

    try:
        before = snapshots()
        assert _short_looks(table, 5) == 5
        assert snapshots() > before
        table.app.close()
        again = Westmarch({**store_env(db=str(db)), "WESTMARCH_SNAPSHOT_EVERY": "2"})
        try:
            assert again.snapshots is not None
            assert again.snapshots.recorder.select_events(table.game_id), "the library reads them"
            assert not again.drop_bad_snapshots(table.game_id), "every snapshot saved decodes"
            assert again.game(table.game_id).version == table.version
        finally:
            again.close()
    finally:
        table.app.close()


def test_a_row_changed_through_another_connection_is_refused_on_the_next_command(table: Table) -> None:
    assert _short_looks(table, 2) == 2
    assert table.db is not None
    state = dict(table.rows())[2]
    with sqlite3.connect(table.db) as conn:
        sql = "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=2"
        conn.execute(sql, [_edited(state), uuid.UUID(str(table.game_id)).hex])
    before = table.rows()
    with pytest.raises(DamagedGame) as refused:
        table.answer()
    assert refused.value.version == 2
    assert table.rows() == before, "nothing may be appended to a damaged log"


def test_a_row_changed_through_the_services_own_connection_is_refused(table: Table) -> None:
    """A write through the very connection the service reads with (no other connection's
    commit, so ``data_version`` does not move) is not one of the service's commits."""
    assert _short_looks(table, 2) == 2
    state = dict(table.rows())[2]
    with table.app.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
        sql = "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=2"
        cursor.execute(sql, [_edited(state), uuid.UUID(str(table.game_id)).hex])
    with pytest.raises(DamagedGame) as refused:
        table.answer()
    assert refused.value.version == 2


def _flip(path: Path, state: bytes) -> int:
    """Change one letter inside every copy of ``state`` in ``path``, in place (same size), and
    set its modification time back: how many copies were changed."""
    data = path.read_bytes()
    before = os.stat(path)
    middle = len(state) // 2
    at = next(i for i in range(middle, len(state)) if chr(state[i]).isalpha())
    copies = 0
    with open(path, "r+b") as f:
        found = data.find(state)
        while found >= 0:
            f.seek(found + at)
            f.write(b"q" if state[at : at + 1] != b"q" else b"z")
            copies += 1
            found = data.find(state, found + 1)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    return copies


@pytest.mark.parametrize("where", ["database", "wal"])
def test_a_raw_edit_of_the_file_with_its_time_set_back_is_refused_on_the_next_command(table: Table, where: str) -> None:
    assert table.db is not None
    if where == "database":  # the rows moved from the write-ahead log into the database file
        with sqlite3.connect(table.db) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        table.answer()  # the checkpoint is another connection's: this look hashes the rows
    assert _short_looks(table, 2) == 2
    state = dict(table.rows())[2]
    wal = Path(f"{table.db}-wal")
    copies = sum(_flip(path, state) for path in (table.db, wal) if path.exists())
    assert copies >= 1
    assert dict(table.rows())[2] != state, "the edit is what a reader of the file now reads"
    with pytest.raises(DamagedGame) as refused:
        table.answer()
    assert refused.value.version == 2


@pytest.mark.parametrize("name", ["file::memory:?cache=shared", ":memory:"])
def test_a_store_in_memory_takes_the_short_look_and_sees_a_write_outside_the_service(name: str) -> None:
    """A private database in memory (``:memory:``) is another one for each connection: the
    watch's own connection would see none of the service's, so it proves nothing there."""
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": name}
    table = _table(env, None)
    try:
        assert _short_looks(table, 3) == (3 if "cache=shared" in name else 0)
        with table.app.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            sql = "SELECT state FROM stored_events WHERE originator_id=? AND originator_version=2"
            cursor.execute(sql, [uuid.UUID(str(table.game_id)).hex])
            state = bytes(cursor.fetchone()[0])
            sql = "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=2"
            cursor.execute(sql, [_edited(state), uuid.UUID(str(table.game_id)).hex])
        with pytest.raises(DamagedGame) as refused:
            table.answer()
        assert refused.value.version == 2
    finally:
        table.app.close()


# -- a server's threads: reads and commits through several of the pool's connections ----------


class Spy:
    """The connections the service's looks and commits went through (the watch's own
    ``look`` and ``before_commit``, unchanged)."""

    def __init__(self, watch: WriteWatch) -> None:
        self.seen: set[int] = set()
        self.look: Callable[[sqlite3.Connection], int] = watch.look
        self.before_commit: Callable[[sqlite3.Connection], Any] = watch.before_commit
        watch.look = self.spied_look  # type: ignore[method-assign]
        watch.before_commit = self.spied_before_commit  # type: ignore[method-assign]

    def spied_look(self, conn: sqlite3.Connection) -> int:
        self.seen.add(id(conn))
        return self.look(conn)

    def spied_before_commit(self, conn: sqlite3.Connection) -> Any:
        self.seen.add(id(conn))
        return self.before_commit(conn)


def _spied(table: Table) -> Spy:
    return Spy(table.watch)


def _second_connection(table: Table) -> None:
    """One command played while the test holds one of the pool's connections: the service
    opens another, and from then on the pool hands its idle connections out in turn."""
    with table.app.recorder.datastore.get_connection(commit=False):  # type: ignore[attr-defined]
        table.answer()


def _threads(tables: list[Table], answers: int) -> list[BaseException]:
    """Each table's game played ``answers`` commands in a thread of its own, all at once:
    what went wrong in them."""
    errors: list[BaseException] = []
    start = threading.Barrier(len(tables))

    def play(table: Table) -> None:
        try:
            start.wait()
            for _ in range(answers):
                if table.decision is None:
                    return
                table.answer()
        except BaseException as error:  # told to the test
            errors.append(error)

    threads = [threading.Thread(target=play, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_reads_through_the_pools_connections_in_turn_take_the_short_look(table: Table) -> None:
    """The pool hands out its idle connections in turn, so the reads go through another
    connection than the commits: the process's own commits still keep the generation, and so
    does the connection the pool opened (as root, SQLite gives the -wal file the database's
    owner then, which moves its change time)."""
    generation = table.watch.generation
    _second_connection(table)
    spy = _spied(table)
    assert _short_looks(table, 6) == 6
    assert len(spy.seen) >= 2
    assert table.watch.generation == generation


def test_the_pool_keeps_the_connections_a_busy_server_opened(table: Table) -> None:
    """More threads at once than the library's 5 kept connections: the pool keeps them all
    rather than closing the extra ones and opening them again (each new one costing the
    short look, for a server running as root, and its prepared statements)."""
    from contextlib import ExitStack

    pool = table.app.recorder.datastore.pool  # type: ignore[attr-defined]
    with ExitStack() as held:
        opened = [held.enter_context(table.app.recorder.datastore.get_connection(commit=False)) for _ in range(9)]  # type: ignore[attr-defined]
    assert pool.num_in_pool == 9
    with ExitStack() as held:
        again = [held.enter_context(table.app.recorder.datastore.get_connection(commit=False)) for _ in range(9)]  # type: ignore[attr-defined]
    assert {id(c) for c in again} == {id(c) for c in opened}


def test_games_played_by_several_threads_at_once_take_the_short_look(table: Table) -> None:
    others = [_game(table.app, table.service, table.db, seed) for seed in (6, 7, 8)]
    tables = [table, *others]
    spy = _spied(table)
    before, commands = table.watch.quiet, 0
    for _ in range(3):
        versions = sum(t.version for t in tables)
        assert _threads(tables, 4) == []
        commands += sum(1 for t in tables if t.version > 0) * 4
        assert sum(t.version for t in tables) > versions
    assert len(spy.seen) >= 2
    # a look that meets another thread's commit between its end and the watch's note of it
    # may do the full look; most do not
    assert table.watch.quiet - before >= commands // 2


_EDIT = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=2",
             [bytes.fromhex(sys.argv[3]), sys.argv[2]])
conn.commit()
"""


def _edit_in_another_process(table: Table, version_state: bytes) -> None:
    assert table.db is not None
    hex_id = uuid.UUID(str(table.game_id)).hex
    subprocess.run([sys.executable, "-c", _EDIT, str(table.db), hex_id, version_state.hex()], check=True)


def test_a_row_changed_by_another_process_while_threads_play_is_refused(table: Table) -> None:
    others = [_game(table.app, table.service, table.db, seed) for seed in (6, 7, 8)]
    assert _threads([table, *others], 3) == []
    assert _short_looks(table, 2) == 2
    state = dict(table.rows())[2]
    stop = threading.Event()
    errors: list[BaseException] = []

    def keep_playing(other: Table) -> None:
        try:
            while not stop.is_set() and other.decision is not None:
                other.answer()
        except BaseException as error:  # told to the test
            errors.append(error)

    threads = [threading.Thread(target=keep_playing, args=(o,)) for o in others]
    for thread in threads:
        thread.start()
    try:
        _edit_in_another_process(table, _edited(state))
        with pytest.raises(DamagedGame) as refused:
            table.answer()
        assert refused.value.version == 2
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert errors == [], "the other games are sound and go on"
    with pytest.raises(DamagedGame):
        table.answer()


@pytest.mark.parametrize("where", ["database", "wal"])
def test_a_raw_edit_after_threads_played_is_refused_whichever_connection_reads(table: Table, where: str) -> None:
    """The edit is under pages the pool's connections may hold in their caches: whichever of
    them the next command reads through, it reads the file."""
    assert table.db is not None
    others = [_game(table.app, table.service, table.db, seed) for seed in (6, 7, 8)]
    assert _threads([table, *others], 3) == []
    if where == "database":
        with sqlite3.connect(table.db) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        table.answer()
    spy = _spied(table)
    assert _short_looks(table, 4) == 4
    assert len(spy.seen) >= 2
    state = dict(table.rows())[2]
    copies = sum(_flip(path, state) for path in (table.db, Path(f"{table.db}-wal")) if path.exists())
    assert copies >= 1
    with pytest.raises(DamagedGame) as refused:
        table.answer()
    assert refused.value.version == 2


# -- the watch itself, on raw connections to a real file -------------------------------------


def _connect(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


def _commit(watch: WriteWatch, conn: sqlite3.Connection, value: int, after: sqlite3.Connection | None = None) -> None:
    """A commit as :func:`~service.store.insert_stored` makes it; ``after`` commits a row of
    its own between that commit and the watch's look after it."""
    conn.execute("BEGIN IMMEDIATE")
    mark = watch.before_commit(conn)
    conn.execute("INSERT INTO t VALUES (?)", [value])
    conn.commit()
    if after is not None:
        after.execute("INSERT INTO t VALUES (-1)")
    watch.after_commit(conn, mark)


@pytest.fixture
def files(tmp_path: Path) -> Iterator[tuple[Path, sqlite3.Connection, sqlite3.Connection]]:
    db = tmp_path / "watch.db"
    ours, other = _connect(db), _connect(db)
    ours.execute("CREATE TABLE t (x INTEGER)")
    yield db, ours, other
    ours.close()
    other.close()


def test_the_watch_keeps_its_generation_over_its_own_commits(files: tuple[Path, Any, Any]) -> None:
    _, ours, _ = files
    watch = WriteWatch()
    generation = watch.look(ours)
    for value in range(3):
        _commit(watch, ours, value)
        assert watch.look(ours) == generation


def test_another_connections_commit_right_after_ours_is_not_taken_as_ours(files: tuple[Path, Any, Any]) -> None:
    _, ours, other = files
    watch = WriteWatch()
    generation = watch.look(ours)
    _commit(watch, ours, 1, after=other)
    assert watch.look(ours) != generation


def test_another_connections_commit_before_ours_starts_a_generation(files: tuple[Path, Any, Any]) -> None:
    _, ours, other = files
    watch = WriteWatch()
    generation = watch.look(ours)
    other.execute("INSERT INTO t VALUES (-1)")
    _commit(watch, ours, 1)
    assert watch.look(ours) != generation


def test_commits_through_several_connections_of_the_process_keep_the_generation(
    files: tuple[Path, Any, Any],
) -> None:
    db, ours, other = files
    watch = WriteWatch()
    second = _connect(db)  # before the first look: opening one may change the files (see above)
    generation = watch.look(ours)
    try:
        assert watch.look(second) == generation
        for value in range(3):
            _commit(watch, second, value)
            assert watch.look(ours) == generation
            _commit(watch, ours, value)
            assert watch.look(second) == generation
        other.execute("INSERT INTO t VALUES (-1)")
        assert watch.look(second) != generation
        assert watch.look(ours) != generation
    finally:
        second.close()


def test_a_connection_of_the_process_writing_outside_the_watch_starts_a_generation(
    files: tuple[Path, Any, Any],
) -> None:
    """A write through a connection the watch saw (a snapshot, a record saved by the library,
    a test's own statement) is not one of the watched commits."""
    db, ours, _ = files
    watch = WriteWatch()
    second = _connect(db)
    try:
        generation = watch.look(ours)
        assert watch.look(second) == generation
        second.execute("INSERT INTO t VALUES (-1)")
        assert watch.look(second) != generation
        generation = watch.look(ours)
        ours.execute("INSERT INTO t VALUES (-2)")
        assert watch.look(ours) != generation
    finally:
        second.close()


def test_concurrent_commits_of_the_processs_threads_never_hide_another_connections(
    files: tuple[Path, Any, Any],
) -> None:
    """Threads commit through connections of their own, all at once, and look through them;
    another connection commits now and then: no look after its commit gives the generation
    before it, and the threads' own commits alone keep it."""
    db, ours, other = files
    watch = WriteWatch()
    stop = threading.Event()
    errors: list[BaseException] = []

    def commit_and_look(n: int) -> None:
        conn = _connect(db)
        try:
            while not stop.is_set():
                try:
                    _commit(watch, conn, n)
                except sqlite3.OperationalError as error:  # BEGIN IMMEDIATE refused: nothing was done
                    assert "locked" in str(error) and not conn.in_transaction
                    continue
                watch.look(conn)
                stop.wait(0.001)  # SQLite's busy handler lets a waiting writer in only now and then
        except BaseException as error:  # told to the test
            errors.append(error)
        finally:
            conn.close()

    threads = [threading.Thread(target=commit_and_look, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    try:
        for _ in range(20):
            before = watch.look(ours)
            other.execute("INSERT INTO t VALUES (-1)")
            for _ in range(5):
                assert watch.look(ours) != before
        kept = 0
        for _ in range(20):
            generation = watch.look(ours)
            threading.Event().wait(0.002)
            kept += watch.look(ours) == generation
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert errors == []
    assert kept >= 10, "the threads' own commits keep the generation (but for a look caught mid-commit)"


def test_a_connection_the_process_opens_keeps_the_generation_but_not_a_raw_edit_before_it(
    files: tuple[Path, Any, Any],
) -> None:
    """Opening a connection may move the -wal file's change time (as root, SQLite gives it the
    database's owner at the first read): told to the watch, that alone is the process's own;
    a raw edit of the files before it is not."""
    db, ours, _ = files
    watch = WriteWatch()
    _commit(watch, ours, 1)
    generation = watch.look(ours)
    fresh = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    try:
        watch.opened(fresh)
        assert watch.look(ours) == generation
        assert watch.look(fresh) == generation
    finally:
        fresh.close()
    wal = Path(f"{db}-wal")
    before = os.stat(wal)
    with open(wal, "r+b") as f:  # a byte of the last frame changed in place, its time set back
        f.seek(before.st_size - 1)
        last = f.read(1)
        f.seek(before.st_size - 1)
        f.write(bytes([last[0] ^ 1]))
    os.utime(wal, ns=(before.st_atime_ns, before.st_mtime_ns))
    again = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    try:
        watch.opened(again)
        assert watch.look(ours) != generation
    finally:
        again.close()
