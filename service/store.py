"""How games are stored: msgspec JSON through the ``eventsourcing`` mapper interface.

Each game event is one stored event: topic ``westmarch.<ruleset>`` (the first event of a
game: ``westmarch.<ruleset>.created``, so games can be listed by topic), state
``[timestamp, event]``. Snapshots use topic ``westmarch.snapshot``; the service's own records
(token hashes, applied command ids: see ``service/records.py``) use ``westmarch.service.*``,
each a one-event aggregate of its own. The library's default
mapper would transcode a dict per event through its JSON transcoder; msgspec decodes
the tagged structs directly (see BENCHMARKS.md).

The timestamp is the store's note of when an event was saved. It is outside the hash
chain: the chain covers the game (every event with its cause, draws and place), which
re-execution reproduces, and a save time is not part of it. An edited timestamp is
therefore not detected by ``verify``; nothing in the rules or the views depends on it.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, Final, NamedTuple
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.game import GameSnapshot, Recorded
from domain.rulesets import ruleset
from service.records import DECODERS, TOPICS, length_id

EVENT_TOPIC = "westmarch.{ruleset}"
CREATED_TOPIC = "westmarch.{ruleset}.created"
SNAPSHOT_TOPIC = "westmarch.snapshot"

_snapshot_encoder = msgspec.json.Encoder()
_snapshot_decoder = msgspec.json.Decoder(GameSnapshot)
_record_encoder = msgspec.json.Encoder()


def ruleset_of(topic: str) -> str:
    return topic.split(".")[1]


class Row(NamedTuple):
    """A stored event as the service saves it (:func:`insert_stored`): the fields of the
    library's :class:`StoredEvent` in a tuple, made without that frozen dataclass's
    ``__setattr__`` per field (some 1.5 us a row, nine rows a command)."""

    originator_id: UUID
    originator_version: int
    topic: str
    state: bytes


class EventMapper(Mapper[UUID]):
    """Maps :class:`Recorded` game events and :class:`GameSnapshot` to stored events."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        return StoredEvent(*self.to_row(domain_event))

    def to_row(self, domain_event: Any) -> Row:
        """:meth:`to_stored_event` as a :class:`Row`."""
        if isinstance(domain_event, GameSnapshot):
            at = domain_event.timestamp or datetime.now(UTC)
            state = _snapshot_encoder.encode(msgspec.structs.replace(domain_event, timestamp=at))
            topic = SNAPSHOT_TOPIC
        elif isinstance(domain_event, Recorded):
            rules = ruleset(domain_event.ruleset)
            at = domain_event.timestamp or datetime.now(UTC)
            state = rules.codec.encode_stored(at, domain_event.event)
            template = CREATED_TOPIC if domain_event.originator_version == 1 else EVENT_TOPIC
            topic = template.format(ruleset=rules.name)
        elif type(domain_event) in TOPICS:
            topic = TOPICS[type(domain_event)]
            at = domain_event.timestamp or datetime.now(UTC)
            state = _record_encoder.encode(msgspec.structs.replace(domain_event, timestamp=at))
        else:
            raise TypeError(f"cannot store {type(domain_event).__name__}")
        return Row(domain_event.originator_id, domain_event.originator_version, topic, self._seal(state))

    def game_events(self, recorded: Sequence[Recorded]) -> list[Row]:
        """:meth:`to_row` of one game's new events, saved at the same moment: the ruleset,
        the topic and the time are looked up once."""
        if not recorded:
            return []
        rules = ruleset(recorded[0].ruleset)
        encode, now = rules.codec.encode_stored, datetime.now(UTC)
        topic = EVENT_TOPIC.format(ruleset=rules.name)
        seal = self._seal if self.compressor or self.cipher else None
        stored = []
        for e in recorded:
            state = encode(e.timestamp or now, e.event)
            version = e.originator_version
            stored.append(
                Row(
                    e.originator_id,
                    version,
                    topic if version != 1 else CREATED_TOPIC.format(ruleset=rules.name),
                    state if seal is None else seal(state),
                )
            )
        return stored

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        state = self.open_state(stored_event.state)
        originator_id = stored_event.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(str(originator_id))
        if stored_event.topic == SNAPSHOT_TOPIC:
            return _snapshot_decoder.decode(state)
        record = DECODERS.get(stored_event.topic)
        if record is not None:
            return record.decode(state)
        name = ruleset_of(stored_event.topic)
        at, event = ruleset(name).codec.decode_stored(state)
        return Recorded(originator_id, stored_event.originator_version, name, event, at)

    def _seal(self, data: bytes) -> bytes:
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return data

    def open_state(self, data: bytes) -> bytes:
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        return data


def _sqlite_states(recorder: Any, game_id: UUID, gt: int | None, lte: int | None) -> tuple[str, list[Any]]:
    """The SQLite query (unordered) of a game's stored event bytes after version ``gt`` up to
    ``lte`` (either None: no bound), and its parameters."""
    sql = f"SELECT state FROM {recorder.events_table_name} WHERE originator_id=?"
    params: list[Any] = [game_id.hex]
    if gt is not None:
        sql += " AND originator_version>?"
        params.append(gt)
    if lte is not None:
        sql += " AND originator_version<=?"
        params.append(lte)
    return sql, params


def select_states(recorder: Any, game_id: UUID, gt: int | None = None, lte: int | None = None) -> list[bytes]:
    """The stored bytes of a game's events, in order: only the one column a fold needs.

    Reads the library's own tables through its own datastore; for a recorder it does
    not know, falls back on ``select_events``.
    """
    if isinstance(recorder, SQLiteAggregateRecorder):
        sql, params = _sqlite_states(recorder, game_id, gt, lte)
        rows = _sqlite_read(recorder, sql + " ORDER BY originator_version", params)
        return [state if type(state) is bytes else _as_bytes(state) for (state,) in rows]
    if type(recorder).__module__ == "eventsourcing.postgres":
        from psycopg.sql import SQL, Identifier

        statement = SQL("SELECT state FROM {schema}.{table} WHERE originator_id = %s").format(
            schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name)
        )
        values: list[Any] = [game_id]
        if gt is not None:
            statement += SQL(" AND originator_version > %s")
            values.append(gt)
        if lte is not None:
            statement += SQL(" AND originator_version <= %s")
            values.append(lte)
        statement += SQL(" ORDER BY originator_version")
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(statement, values, prepare=True)
            return [bytes(row["state"]) for row in cursor.fetchall()]
    return [s.state for s in recorder.select_events(game_id, gt=gt, lte=lte)]


def select_rows(recorder: Any, game_id: UUID) -> list[tuple[int, bytes]]:
    """Every stored row of a game, in order: (version, stored bytes). What a check of the
    whole log reads: the versions with the bytes, so a row renumbered by hand is seen too."""
    if isinstance(recorder, SQLiteAggregateRecorder):
        sql = (
            f"SELECT originator_version, state FROM {recorder.events_table_name} "
            "WHERE originator_id=? ORDER BY originator_version"
        )
        rows = _sqlite_read(recorder, sql, [game_id.hex])
        return [(v, s if type(s) is bytes else _as_bytes(s)) for v, s in rows]
    if type(recorder).__module__ == "eventsourcing.postgres":
        from psycopg.sql import SQL, Identifier

        statement = SQL(
            "SELECT originator_version, state FROM {schema}.{table} WHERE originator_id = %s "
            "ORDER BY originator_version"
        ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(statement, [game_id], prepare=True)
            return [(int(r["originator_version"]), bytes(r["state"])) for r in cursor.fetchall()]
    return [(s.originator_version, s.state) for s in recorder.select_events(game_id)]


class WriteWatch:
    """Whether anything but this process's own commits wrote a SQLite store since an earlier
    look, so that a game's rows found sound then need not be read and hashed again.

    :meth:`look`, taken on the connection a read then uses and before that read, returns a
    *generation*: the same number as at an earlier look proves (within the limits below)
    that between the two looks the store changed only by commits of :func:`insert_stored`
    in this process, through whichever of its connections, which only add rows (the unique
    (game, version) key keeps them from replacing one; this process deletes no event row:
    :func:`delete_row` is for snapshots). The rows 1 to N of a game read and found sound at
    that earlier look are then the same rows now. Anything else, or any doubt, gives
    another number, and the caller does the full look. What proves it, each compared with
    what was seen at the start of the generation or after the last commit accounted to it:

    - ``PRAGMA data_version`` of a connection of the watch's own (the *watcher*), opened on
      the same database, which never writes (``query_only``): SQLite moves it when any other
      connection, of this process or another, committed since the watcher's last read. It
      is one number for the whole process, whatever pooled connection the service reads or
      commits through (the pool of the ``eventsourcing`` datastore hands its idle
      connections out in turn, so a server's reads rarely go through the connection of
      the last commit).
    - the file: ``os.stat`` of the database and of its ``-wal`` and ``-journal`` files
      (device, inode, size, modification and change times in ns, or absence): a raw edit
      of the bytes, not through SQLite, changes the change time, which no writer can set
      back (``os.utime`` sets the modification time and moves the change time to now);
      a file replaced changes the inode. Not for a store in memory, which nothing outside
      the process can reach.

    A commit of :func:`insert_stored` is accounted to the generation, one at a time: within
    its transaction, holding SQLite's write lock (``BEGIN IMMEDIATE``, so no other SQLite
    writer can commit before it), :meth:`before_commit` finds the watcher and the file as
    last accounted and reads the committing connection's own ``data_version`` (which
    SQLite never moves for that connection's own commits). After the commit,
    :meth:`after_commit` reads the watcher and the file again, then the committing
    connection's ``data_version`` once more: unmoved, no other connection committed
    between our commit and that last read, so the watcher's new value and the file's new
    fingerprint are those of our commit alone and become what the next look compares
    with. Otherwise (another commit before ours, right after it, or a look that started
    a generation meanwhile) nothing is accounted and the next look starts a generation.
    A second commit waits in :meth:`before_commit` until the first is accounted (its
    :meth:`after_commit`, or :meth:`abandon` if it failed), and a look that finds the store
    moved while a commit is between its end and its :meth:`after_commit` waits for it
    (at most :attr:`PATIENCE` seconds; then it is told a number of doubt, below zero and
    never given again, and does the full look without ending the generation).

    A connection the pool opens is told to :meth:`opened` before its first use (its first
    read may move the ``-wal`` file's change time: see there).

    What it does not prove, so a short look would not see it: a raw edit of the file (not
    through SQLite) in the microseconds between :meth:`before_commit` and the stat of
    :meth:`after_commit`, or between the two stats of :meth:`opened`, or one keeping the
    files' sizes within the same tick of the kernel's file timestamps (a few milliseconds)
    as the last stat. A SQLite commit by any
    connection but the watch's accounted ones (another process, a snapshot or record this
    process saves through the library, a test's own statement) is always seen, by the
    watcher's ``data_version``. A commit racing between a look and the read after it is
    read by that read and seen by the next look, as a full look would see it. PostgreSQL
    has no such watch (its server gives no cheap proof that no other session wrote a
    table): every look there hashes the rows (:func:`look_since`).

    A full look must also read what is in the files now: SQLite keeps a connection's page
    cache for as long as it sees no other connection's commit (it drops it, and moves
    ``data_version``, when it does), so a raw edit under a cached page would be read from
    the cache, not the file. When the files changed since a connection's cache was last
    known to match them and its ``data_version`` did not move, :meth:`look` drops that
    cache (``PRAGMA shrink_memory``) before the read. Not dropped, hence still possibly
    read from the cache (as every look did before the watch): a raw edit made after
    another connection's commit that this connection has already read past (SQLite then
    refilled its cache before the edit, and ``data_version`` moved). Dropping the cache
    on every change of the files would cost a server whose connections see each other's
    commits a read of every page from the file system on every command.
    """

    PATIENCE = 0.05
    """Seconds a look that found the store moved waits for a commit of this process to be
    accounted (see the class)."""

    def __init__(self, database: str | None = None) -> None:
        self.generation = 0
        self.quiet = 0
        """Looks that found nothing but this process's commits since the last (tests count them)."""
        self.dropped = 0
        """Page caches dropped after a change of the files that SQLite did not see (tests count them)."""
        self.doubts = 0
        """Looks told a number of doubt, a commit of this process not yet accounted (benchmarks count them)."""
        self._database = database
        """How the watcher connects (the pool's URI); None: the file of the first connection looked through."""
        self._lock = threading.Condition(threading.Lock())
        self._watcher: sqlite3.Connection | None = None
        self._paths: list[str] | None = None
        self._present: list[bool] = []
        """Per path of :attr:`_paths`: whether its file was there at the last look."""
        self._file: tuple[Any, ...] | None = None
        self._watched: int | None = None
        """The watcher's ``data_version`` at the start of the generation or after the last commit accounted."""
        self._committing = False
        self._cached: dict[int, tuple[sqlite3.Connection, int, tuple[Any, ...]]] = {}
        """Per connection: the ``data_version`` and files its page cache was last known to match."""

    def close(self) -> None:
        """Close the watcher (the next look opens it again)."""
        with self._lock:
            if self._watcher is not None:
                self._watcher.close()
                self._watcher = None
            self._watched = None

    def _files(self, conn: sqlite3.Connection) -> tuple[Any, ...]:
        if self._paths is None:
            main = [row[2] for row in conn.execute("PRAGMA database_list").fetchall() if row[1] == "main"]
            path = main[0] if main else ""
            self._paths = [path, path + "-wal", path + "-journal"] if path else []
        prints: list[Any] = []
        present = self._present
        for at, path in enumerate(self._paths):
            # a file that was not there at the last look (the ``-journal`` of a WAL store,
            # every look) told without the exception of a failed stat: three a command,
            # ~15 k instructions; one that was (the database, its ``-wal``) stat'ed at once,
            # one system call where two were (each lets another thread take the interpreter)
            if not (at < len(present) and present[at]) and not os.access(path, os.F_OK):
                prints.append(None)
                continue
            try:
                st = os.stat(path)
            except FileNotFoundError:  # removed since
                prints.append(None)
            else:
                prints.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        self._present = [found is not None for found in prints]
        return tuple(prints)

    @staticmethod
    def _version(conn: sqlite3.Connection) -> int:
        version: int = conn.execute("PRAGMA data_version").fetchone()[0]
        return version

    def _watch(self, conn: sqlite3.Connection) -> int | None:
        """The watcher's ``data_version`` now (None: no watcher can be opened: a store in
        memory without the URI it was opened with)."""
        watcher = self._open(conn)
        return None if watcher is None else self._version(watcher)

    def _open(self, conn: sqlite3.Connection) -> sqlite3.Connection | None:
        """The watcher, opened if it is not. Opened before the files are looked at: opening
        a connection may change them (as root, SQLite gives the ``-wal`` file the database's
        owner, which moves its change time)."""
        if self._watcher is None:
            if self._database is not None:
                database, uri = self._database, True
            else:
                self._files(conn)
                assert self._paths is not None
                if not self._paths:
                    return None
                database, uri = self._paths[0], False
            watcher = sqlite3.connect(database, uri=uri, check_same_thread=False, isolation_level=None)
            watcher.execute("PRAGMA query_only = ON")
            self._version(watcher)
            self._watcher = watcher
        return self._watcher

    def opened(self, conn: sqlite3.Connection) -> None:
        """A connection this process just opened, before its first use: its first read opens
        the ``-wal`` file, and SQLite run as root then gives that file the database's owner,
        which moves its change time (nothing else). That change alone, seen between two
        stats around the read, is taken as this process's own if the files were as last
        accounted before it (a new connection would otherwise start a generation)."""
        with self._lock:
            before = self._files(conn)
            self._version(conn)
            after = self._files(conn)
            if before == self._file and after != before and _owner_given(before, after):
                self._file = after

    def _same(self, files: tuple[Any, ...], watched: int | None) -> bool:
        return watched is not None and watched == self._watched and files == self._file

    def _cache_of(self, conn: sqlite3.Connection, files: tuple[Any, ...], version: int) -> None:
        """Drop ``conn``'s page cache if the files changed since it was last known to match
        them and SQLite did not drop it itself (it does, and moves ``data_version``, when it
        sees another connection's commit): a raw edit of the bytes under a page it holds
        would not be read otherwise. Then its cache is known to match ``files``."""
        cached = self._cached.get(id(conn))
        if cached is None or cached[0] is not conn or (cached[1] == version and cached[2] != files):
            conn.execute("PRAGMA shrink_memory")
            self.dropped += 1
        if len(self._cached) >= 64:  # connections closed and opened again by the pool
            self._cached.clear()
        self._cached[id(conn)] = (conn, version, files)

    def look(self, conn: sqlite3.Connection) -> int:
        """The generation, on ``conn``, before a read through it (see the class)."""
        with self._lock:
            self._open(conn)
            deadline = None
            while True:
                # the files first: whatever changes after their stat is seen by the next look
                files, version = self._files(conn), self._version(conn)
                watched = self._watch(conn)
                if self._same(files, watched) or not self._committing:
                    break
                deadline = deadline or time.monotonic() + self.PATIENCE
                if not self._lock.wait(deadline - time.monotonic()):
                    break
            self._cache_of(conn, files, version)
            if self._same(files, watched):
                return self.generation
            if self._committing:
                self.doubts += 1
                return -self.doubts
            self.generation += 1
            self._file, self._watched = files, watched
            return self.generation

    def before_commit(self, conn: sqlite3.Connection) -> tuple[int, tuple[Any, ...], int, bool]:
        """Within ``conn``'s write transaction, before its commit: what :meth:`after_commit`
        needs (whether the store was then as last accounted, and what was seen). Waits until
        an earlier commit is accounted (:meth:`after_commit` or :meth:`abandon`)."""
        with self._lock:
            self._lock.wait_for(lambda: not self._committing, timeout=1.0)
            self._open(conn)
            files, watched, version = self._files(conn), self._watch(conn), self._version(conn)
            same = self._same(files, watched) and not self._committing
            self._committing = self._committing or same
            return self.generation, files, version, same

    def abandon(self, before: tuple[int, tuple[Any, ...], int, bool]) -> None:
        """The transaction of :meth:`before_commit` was rolled back: nothing to account."""
        if before[3]:
            with self._lock:
                self._committing = False
                self._lock.notify_all()

    def after_commit(self, conn: sqlite3.Connection, before: tuple[int, tuple[Any, ...], int, bool]) -> None:
        """After ``conn`` committed: its changes accounted to the generation, if provably only
        they were made; its page cache known to match the files, if it did before."""
        generation, files_before, version_before, same = before
        with self._lock:
            try:
                watched = self._watch(conn)
                files = self._files(conn)
                version = self._version(conn)  # last: no other commit since ours, up to here
                if version != version_before:
                    return  # another connection committed right after: the next look starts a generation
                cached = self._cached.get(id(conn))
                if cached is not None and cached[0] is conn and cached[1:] == (version, files_before):
                    self._cached[id(conn)] = (conn, version, files)
                if same and generation == self.generation:
                    self._file, self._watched = files, watched
            finally:
                if same:
                    self._committing = False
                    self._lock.notify_all()


def _owner_given(before: tuple[Any, ...], after: tuple[Any, ...]) -> bool:
    """Whether the files differ only by the ``-wal`` file's change time (:meth:`WriteWatch.opened`)."""
    if len(before) != 3 or len(after) != 3 or before[1] is None or after[1] is None:
        return False
    same: bool = before[0] == after[0] and before[2] == after[2] and before[1][:4] == after[1][:4]
    return same


@dataclass(frozen=True)
class LogLook:
    """One read of a game's log against what was found sound before (its rows 1 to ``upto``):
    how many rows are numbered up to ``upto`` and the highest of them, the SHA-256 of their
    stored bytes in order, the rows after ``upto`` in full, and the version and stored bytes
    of the length the last commit recorded (:class:`~service.records.LogLength`), if any."""

    count: int
    highest: int | None
    prefix: bytes
    rows: list[tuple[int, bytes]]
    recorded: tuple[int, bytes] | None = None
    generation: int | None = None
    """The :class:`WriteWatch` generation seen before the read (None: no watch, PostgreSQL)."""
    quiet: bool = False
    """The rows up to ``upto`` were not read: the watch proved nothing but this process's
    commits wrote the store since the look that found them sound (``count``, ``highest``
    and ``prefix`` then say nothing)."""


def look_since(
    recorder: Any, game_id: UUID, upto: int, watch: WriteWatch | None = None, since: int | None = None
) -> LogLook:
    """:class:`LogLook` in one statement (one consistent snapshot of the log). The rows up
    to ``upto`` are hashed without being sent one by one: on PostgreSQL by the server
    (``sha256`` of their ``string_agg``), on SQLite from one concatenated blob. With ``upto``
    0 it reads every row (with the recorded length, in the same snapshot).

    On SQLite with a ``watch``, its generation is taken on the reading connection before the
    read; if it is still ``since`` (the generation of the look that found rows 1 to ``upto``
    sound), those rows are neither read nor hashed (``quiet``): only the rows after them
    and the recorded length are (see :class:`WriteWatch` for what that proves)."""
    table = recorder.events_table_name
    empty = hashlib.sha256(b"").digest()
    length = length_id(game_id)
    if isinstance(recorder, SQLiteAggregateRecorder):
        generation = None
        with recorder.datastore.get_connection(commit=False) as connection:
            if watch is not None:
                generation = watch.look(connection._sqlite_conn)
                if upto and generation == since:
                    watch.quiet += 1
                    cursor = connection.cursor()
                    cursor.execute(_sqlite_look(table, quiet=True), [game_id.hex, upto, length.hex])
                    found = cursor.fetchall()
                    head = found[0]
                    recorded = (int(head[4]), _as_bytes(head[5])) if head[4] is not None else None
                    rows = [(int(r[0]), _as_bytes(r[3])) for r in found[1:]]
                    return LogLook(upto, upto, b"", rows, recorded, generation, quiet=True)
            cursor = connection.cursor()
            cursor.execute(_sqlite_look(table, quiet=False), [game_id.hex, upto, length.hex])
            found = cursor.fetchall()
        head = found[0]
        prefix = hashlib.sha256(_as_bytes(head[3])).digest() if head[3] is not None else empty
        recorded = (int(head[4]), _as_bytes(head[5])) if head[4] is not None else None
        rows = [(int(r[0]), _as_bytes(r[3])) for r in found[1:]]
        return LogLook(int(head[1]), head[2], prefix, rows, recorded, generation)
    if type(recorder).__module__ == "eventsourcing.postgres":
        statement = _pg_look(recorder.datastore.schema, table)
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(statement, {"game": game_id, "upto": upto, "length": length}, prepare=True)
            found = cursor.fetchall()
        head = found[0]
        return LogLook(
            int(head["n"]),
            head["m"],
            bytes(head["s"]) if head["s"] is not None else empty,
            [(int(r["v"]), bytes(r["s"])) for r in found[1:]],
            (int(head["r"]), bytes(head["rs"])) if head["r"] is not None else None,
        )
    every = select_rows(recorder, game_id)
    before = [(v, s) for v, s in every if v <= upto]
    marks = recorder.select_events(length, desc=True, limit=1)
    return LogLook(
        len(before),
        before[-1][0] if before else None,
        hashlib.sha256(b"".join(s for _, s in before)).digest(),
        [(v, s) for v, s in every if v > upto],
        (marks[0].originator_version, marks[0].state) if marks else None,
    )


@cache
def _sqlite_look(table: str, quiet: bool) -> str:
    """:func:`look_since`'s SQLite statement: a head row (the count, highest version and
    joined states of the rows up to ``?2``, then the recorded length), then the rows after
    ``?2``. ``quiet``: the head row without the rows up to ``?2``, which are not read."""
    last = f"FROM {table} WHERE originator_id = ?3 ORDER BY originator_version DESC LIMIT 1"
    recorded = f"(SELECT originator_version {last}), (SELECT state {last})"
    head = (
        f"SELECT 0, 0, NULL, NULL, {recorded} "
        if quiet
        else "SELECT 0, COUNT(*), MAX(originator_version), CAST(group_concat(state, '') AS BLOB), "
        f"{recorded} FROM (SELECT originator_version, state FROM {table} "
        "WHERE originator_id = ?1 AND originator_version <= ?2 ORDER BY originator_version) "
    )
    return (
        f"{head}UNION ALL SELECT originator_version, 1, originator_version, state, NULL, NULL FROM {table} "
        "WHERE originator_id = ?1 AND originator_version > ?2 ORDER BY 1"
    )


@cache
def _pg_look(schema: str, table: str) -> Any:
    from psycopg.sql import SQL, Identifier

    return SQL(
        "SELECT 0::bigint AS v, count(*) AS n, max(originator_version) AS m, "
        "sha256(string_agg(state, ''::bytea ORDER BY originator_version)) AS s, "
        "(SELECT originator_version FROM {schema}.{table} WHERE originator_id = %(length)s "
        "ORDER BY originator_version DESC LIMIT 1) AS r, "
        "(SELECT state FROM {schema}.{table} WHERE originator_id = %(length)s "
        "ORDER BY originator_version DESC LIMIT 1) AS rs FROM {schema}.{table} "
        "WHERE originator_id = %(game)s AND originator_version <= %(upto)s "
        "UNION ALL SELECT originator_version, 1, originator_version, state, NULL, NULL FROM {schema}.{table} "
        "WHERE originator_id = %(game)s AND originator_version > %(upto)s ORDER BY 1"
    ).format(schema=Identifier(schema), table=Identifier(table))


class Folded(NamedTuple):
    """What loading a game reads in one go (:func:`select_fold`): the stored bytes of its
    events (as :func:`select_states`), in order, joined by commas (on SQLite in one value,
    ``group_concat``, which spares a Python object per row to a fold that decodes them in
    one pass), the last of them alone (None if none), and the length its last commit
    recorded (None if not asked, or none recorded)."""

    joined: bytes
    last: bytes | None
    recorded: int | None


def select_fold(recorder: Any, game_id: UUID, gt: int | None, lte: int | None, length: UUID | None) -> Folded:
    """:class:`Folded`: a game's events after ``gt`` up to ``lte``, and the recorded length
    of log ``length`` (a game's :func:`~service.records.length_id`) if given. On SQLite in
    one statement (one consistent snapshot, one trip through the connection pool, where
    a read of the rows then one of the length made two); the last row is read again
    by one indexed look-up, so that the fold need not decode every event's hash to keep the
    last one's (``domain/kernel/stored.py``). Elsewhere the length is read first, then the
    rows (a commit saved between the two reads only lengthens the log)."""
    if not isinstance(recorder, SQLiteAggregateRecorder):
        recorded = None if length is None else latest_version(recorder, length)
        states = select_states(recorder, game_id, gt, lte)
        return Folded(b",".join(states), states[-1] if states else None, recorded)
    inner, params = _sqlite_states(recorder, game_id, gt, lte)
    # the aggregate is the statement's own (in a subquery of its own, its result was copied whole)
    sql = f"SELECT CAST(group_concat(state, ',') AS BLOB), ({inner} ORDER BY originator_version DESC LIMIT 1)"
    values = list(params)
    if length is not None:
        sql += f", (SELECT MAX(originator_version) FROM {recorder.events_table_name} WHERE originator_id=?)"
        values.append(length.hex)
    sql += f" FROM ({inner} ORDER BY originator_version)"
    values += params
    row = _sqlite_read(recorder, sql, values)[0]
    joined, last = row[0], row[1]
    return Folded(
        b"" if joined is None else _as_bytes(joined),
        None if last is None else _as_bytes(last),
        row[2] if length is not None else None,
    )


def delete_row(recorder: Any, originator_id: UUID, version: int) -> None:
    """Delete one stored row (a snapshot found undecodable: a cache, rebuilt from the events).
    Never used on a game's events, which are only ever appended."""
    table = recorder.events_table_name
    if isinstance(recorder, SQLiteAggregateRecorder):
        with recorder.datastore.transaction(commit=True) as cursor:
            sql = f"DELETE FROM {table} WHERE originator_id=? AND originator_version=?"
            cursor.execute(sql, [originator_id.hex, version])
        return
    if type(recorder).__module__ == "eventsourcing.postgres":
        from psycopg.sql import SQL, Identifier

        statement = SQL("DELETE FROM {schema}.{table} WHERE originator_id = %s AND originator_version = %s").format(
            schema=Identifier(recorder.datastore.schema), table=Identifier(table)
        )
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(statement, [originator_id, version])
            conn.commit()
        return
    raise TypeError(f"cannot delete rows from {type(recorder).__name__}")


def latest_version(recorder: Any, game_id: UUID) -> int | None:
    """The version of a game's last stored event (None if it has none): one indexed read
    of one integer, where ``select_events`` would read and wrap the whole last event."""
    if isinstance(recorder, SQLiteAggregateRecorder):
        sql = f"SELECT MAX(originator_version) FROM {recorder.events_table_name} WHERE originator_id=?"
        found: int | None = _sqlite_read(recorder, sql, [game_id.hex])[0][0]
        return found
    if type(recorder).__module__ == "eventsourcing.postgres":
        from psycopg.sql import SQL, Identifier

        statement = SQL("SELECT MAX(originator_version) AS v FROM {schema}.{table} WHERE originator_id = %s").format(
            schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name)
        )
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(statement, [game_id], prepare=True)
            row = cursor.fetchone()
            return None if row is None else row["v"]
    last = recorder.select_events(game_id, desc=True, limit=1)
    return last[0].originator_version if last else None


class Span(NamedTuple):
    """How many events of a game are stored, the version of the last (None if none), and
    the length its last commit recorded (:class:`~service.records.LogLength`; None for a
    game saved before lengths were recorded)."""

    rows: int
    latest: int | None
    recorded: int | None


def stored_span(recorder: Any, game_id: UUID) -> Span:
    """:class:`Span` in one read (one consistent snapshot of the log and its recorded length).

    A sound log holds versions 1 to N, its last commit recorded N: one indexed read of three
    integers tells a missing, extra or cut-off row without reading any event."""
    length = length_id(game_id)
    if isinstance(recorder, SQLiteAggregateRecorder):
        table = recorder.events_table_name
        sql = (
            f"SELECT COUNT(*), MAX(originator_version), (SELECT MAX(originator_version) FROM {table} "
            f"WHERE originator_id = ?2) FROM {table} WHERE originator_id = ?1"
        )
        count, latest, recorded = _sqlite_read(recorder, sql, [game_id.hex, length.hex])[0]
        return Span(int(count), latest, recorded)
    if type(recorder).__module__ == "eventsourcing.postgres":
        from psycopg.sql import SQL, Identifier

        statement = SQL(
            "SELECT COUNT(*) AS n, MAX(originator_version) AS v, (SELECT MAX(originator_version) FROM {schema}.{table} "
            "WHERE originator_id = %(length)s) AS r FROM {schema}.{table} WHERE originator_id = %(game)s"
        ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(statement, {"game": game_id, "length": length}, prepare=True)
            row = cursor.fetchone()
            return Span(0, None, None) if row is None else Span(int(row["n"]), row["v"], row["r"])
    events = recorder.select_events(game_id)
    return Span(len(events), events[-1].originator_version if events else None, latest_version(recorder, length))


FIRSTS_INDEX = "{table}_firsts"
"""The index of the rows that begin an aggregate (version 1): a game's creation event, a
service record. Games are listed from it, so listing reads one row per game rather than
every stored event (the store's notification log with a topic filter scans them all)."""


def ensure_firsts_index(recorder: Any) -> None:
    """Create the partial index :data:`FIRSTS_INDEX` on the events table if it is missing
    (once per store; later starts only look it up). Another process creating it at the
    same moment is not an error."""
    table = recorder.events_table_name
    name = FIRSTS_INDEX.format(table=table)
    if isinstance(recorder, SQLiteAggregateRecorder):
        if _sqlite_read(recorder, "SELECT 1 FROM sqlite_master WHERE type='index' AND name=?", [name]):
            return
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS {name} ON {table} (originator_version) WHERE originator_version = 1"
            )
        return
    if type(recorder).__module__ == "eventsourcing.postgres":
        import psycopg
        from psycopg.sql import SQL, Identifier

        schema = recorder.datastore.schema
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_indexes WHERE schemaname = %s AND indexname = %s", [schema, name])
            if cursor.fetchone() is not None:
                return
            statement = SQL(
                "CREATE INDEX IF NOT EXISTS {name} ON {schema}.{table} (notification_id) WHERE originator_version = 1"
            ).format(name=Identifier(name), schema=Identifier(schema), table=Identifier(table))
            try:
                cursor.execute(statement)
                conn.commit()
            except (psycopg.errors.UniqueViolation, psycopg.errors.DuplicateTable):
                conn.rollback()  # another process made it first


def select_firsts(recorder: Any, after: int, limit: int, topics: Sequence[str]) -> list[tuple[int, UUID, str, bytes]]:
    """Up to ``limit`` rows that begin an aggregate, of the given topics, after position
    ``after`` in the store's order of saving: (position, aggregate id, topic, state)."""
    table = recorder.events_table_name
    if isinstance(recorder, SQLiteAggregateRecorder):
        marks = ",".join("?" * len(topics))
        sql = (
            f"SELECT rowid, originator_id, topic, state FROM {table} "
            f"WHERE originator_version = 1 AND rowid > ? AND topic IN ({marks}) ORDER BY rowid LIMIT ?"
        )
        rows = _sqlite_read(recorder, sql, [after, *topics, limit])
        return [(r[0], UUID(r[1]), r[2], _as_bytes(r[3])) for r in rows]
    if type(recorder).__module__ == "eventsourcing.postgres":
        from psycopg.sql import SQL, Identifier

        statement = SQL(
            "SELECT notification_id, originator_id, topic, state FROM {schema}.{table} "
            "WHERE originator_version = 1 AND notification_id > %s AND topic = ANY(%s) "
            "ORDER BY notification_id LIMIT %s"
        ).format(schema=Identifier(recorder.datastore.schema), table=Identifier(table))
        with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(statement, [after, list(topics), limit], prepare=True)
            return [
                (r["notification_id"], _as_uuid(r["originator_id"]), r["topic"], _as_bytes(r["state"]))
                for r in cursor.fetchall()
            ]
    notes = recorder.select_notifications(after + 1, limit, topics=topics)  # a store in memory: no index
    return [(n.id, _as_uuid(n.originator_id), n.topic, n.state) for n in notes]


def select_moves(
    recorder: Any, after: int, limit: int, topics: Sequence[str], with_state: str
) -> list[tuple[int, UUID, int, str, bytes | None]]:
    """Up to ``limit`` rows of the given topics after position ``after`` in the store's order
    of saving, as the notification log gives them: (position, aggregate id, version, topic,
    state), with the state only of the rows of topic ``with_state`` (None for the others).
    What a sweep reads of the log: on SQLite neither the states it does not decode (every
    game event's, most of the rows) nor a notification object per row are made."""
    if isinstance(recorder, SQLiteAggregateRecorder):
        marks = ",".join("?" * len(topics))
        sql = (
            f"SELECT rowid, originator_id, originator_version, topic, CASE WHEN topic = ? THEN state END "
            f"FROM {recorder.events_table_name} WHERE rowid > ? AND topic IN ({marks}) ORDER BY rowid LIMIT ?"
        )
        rows = _sqlite_read(recorder, sql, [with_state, after, *topics, limit])
        return [(r[0], UUID(r[1]), r[2], r[3], None if r[4] is None else _as_bytes(r[4])) for r in rows]
    notes = recorder.select_notifications(after + 1, limit, topics=topics)
    return [
        (n.id, _as_uuid(n.originator_id), n.originator_version, n.topic, n.state if n.topic == with_state else None)
        for n in notes
    ]


def _as_uuid(value: Any) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))


class LogMismatch(Exception):
    """A game's stored log was not exactly versions 1 to N when N+1 was to be appended:
    another process appended first, or the log was damaged. Nothing of it was saved."""

    def __init__(self, game_id: UUID, before: int) -> None:
        self.game_id, self.before = game_id, before
        super().__init__(f"game {game_id} was not stored as versions 1 to {before}")


@dataclass(frozen=True)
class Append:
    """One command's rows: a game's new events first, then records of other aggregates.

    With a ``guard`` (the game and its version before the command), the rows are saved
    only if the store then holds exactly the game's versions 1 to that version: as many
    rows as the version, the lowest 1 and the highest that version (distinct, by the
    unique key, so exactly 1 to N). The check is folded into the first row's INSERT,
    so a game held in memory needs no read before it appends: a row another process
    appended, a row deleted, or a row added by hand refuses the append
    (:class:`LogMismatch`), and the caller looks at the store then.
    """

    rows: Sequence[StoredEvent | Row]
    guard: tuple[UUID, int] | None = None


def insert_stored(
    recorder: Any, appends: Sequence[Append], watch: WriteWatch | None = None
) -> list[LogMismatch | None]:
    """Insert several commands' rows in one transaction; for each command, None or the
    :class:`LogMismatch` that refused its rows (the others are saved all the same). The
    store's unique (game, version) key refuses a version saved before for the whole
    transaction (``IntegrityError``, or psycopg's ``UniqueViolation``).

    On SQLite, the guarded first row, then one ``executemany``; on PostgreSQL one
    ``INSERT ... unnest`` per command, guarded in its WHERE clause, without the
    library's table lock (which serialises every writer of every process only to keep
    notification ids in commit order: the service's watchers do not rely on that order,
    since each game's events are read by version and a missed wake-up is caught by the
    watch's periodic look).

    On SQLite the transaction takes the write lock at once (``BEGIN IMMEDIATE``), and a
    ``watch`` is told of the commit from within it (:meth:`WriteWatch.before_commit`), and
    after it (:meth:`WriteWatch.after_commit`, or :meth:`WriteWatch.abandon` if it failed).
    """
    refused: list[LogMismatch | None] = [None] * len(appends)
    if isinstance(recorder, SQLiteAggregateRecorder):
        table = recorder.events_table_name
        plain = f"INSERT INTO {table} VALUES (?, ?, ?, ?)"
        # MIN and MAX each read one end of the game's index range; COUNT walks it
        guarded = (
            f"INSERT INTO {table} SELECT ?1, ?2, ?3, ?4 WHERE "
            f"(SELECT COUNT(*) FROM {table} WHERE originator_id = ?1) = ?5 "
            f"AND (SELECT MIN(originator_version) FROM {table} WHERE originator_id = ?1) = 1 "
            f"AND (SELECT MAX(originator_version) FROM {table} WHERE originator_id = ?1) = ?5"
        )
        rows: list[tuple[Any, ...]] = []
        # the pool's connection (and its writer lock), driven directly: the library's
        # transaction adds three context managers and a cursor wrapper per command
        with recorder.datastore.get_connection(commit=True) as connection:
            raw: sqlite3.Connection = connection._sqlite_conn
            raw.execute("BEGIN IMMEDIATE")
            mark = None
            try:
                mark = None if watch is None else watch.before_commit(raw)
                for n, append in enumerate(appends):
                    mine = _sqlite_rows(append.rows)
                    if append.guard is not None and mine:
                        game_id, before = append.guard
                        if raw.execute(guarded, (*mine[0], before)).rowcount != 1:
                            refused[n] = LogMismatch(game_id, before)
                            continue
                        mine = mine[1:]
                    rows += mine
                if rows:
                    raw.executemany(plain, rows)
                raw.commit()
            except BaseException:
                try:
                    raw.rollback()
                finally:
                    if watch is not None and mark is not None:
                        watch.abandon(mark)
                raise
            if watch is not None and mark is not None:
                watch.after_commit(raw, mark)
        return refused
    if type(recorder).__module__ == "eventsourcing.postgres":
        plain, guarded = _pg_inserts(recorder.datastore.schema, recorder.events_table_name)
        cursors = []
        # one round trip: BEGIN, each command's INSERT and COMMIT are sent together
        with recorder.datastore.get_connection() as connection:
            with connection.pipeline(), connection.transaction():
                for append in appends:
                    values: dict[str, Any] = {
                        "ids": [r.originator_id for r in append.rows],
                        "versions": [r.originator_version for r in append.rows],
                        "topics": [r.topic for r in append.rows],
                        "states": [r.state for r in append.rows],
                    }
                    cursor = connection.cursor()
                    if append.guard is None:
                        cursor.execute(plain, values, prepare=True)
                    else:
                        values["game"], values["before"] = append.guard
                        cursor.execute(guarded, values, prepare=True)
                    cursors.append(cursor)
            for n, (append, cursor) in enumerate(zip(appends, cursors, strict=True)):
                if append.guard is not None and cursor.rowcount != len(append.rows):
                    refused[n] = LogMismatch(*append.guard)
        return refused
    for n, append in enumerate(appends):
        if append.guard is not None:
            game_id, before = append.guard
            count, latest, _ = stored_span(recorder, game_id)
            if count != before or (latest or 0) != before:
                refused[n] = LogMismatch(game_id, before)
                continue
        recorder.insert_events([s if isinstance(s, StoredEvent) else StoredEvent(*s) for s in append.rows])
    return refused


def _sqlite_rows(rows: Sequence[StoredEvent | Row]) -> list[tuple[Any, ...]]:
    """The rows as SQLite takes them, each aggregate's id written out once for its rows in a row."""
    found: list[tuple[Any, ...]] = []
    last: Any = None
    text: Any = None
    for s in rows:
        game_id = s.originator_id
        if game_id is not last:
            last, text = game_id, game_id.hex if isinstance(game_id, UUID) else game_id
        # the state as a bytearray: sqlite3 binds it as the same BLOB, but takes a bytes
        # parameter through its adaptation protocol first (two failed attribute lookups,
        # ~4 k instructions a row: 30 k a command on the floor, callgrind)
        found.append((text, s.originator_version, s.topic, bytearray(s.state)))
    return found


@cache
def _pg_inserts(schema: str, table: str) -> tuple[Any, Any]:
    """The INSERT of a command's rows (one array per column), and the same made conditional
    on the game's log (the subqueries run once, on the statement's snapshot, before any row
    is inserted)."""
    from psycopg.sql import SQL, Identifier

    insert = SQL(
        "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
        "SELECT * FROM unnest(%(ids)s::uuid[], %(versions)s::bigint[], %(topics)s::text[], %(states)s::bytea[])"
    ).format(schema=Identifier(schema), table=Identifier(table))
    guard = SQL(
        " WHERE (SELECT count(*) FROM {schema}.{table} WHERE originator_id = %(game)s) = %(before)s "
        "AND (SELECT min(originator_version) FROM {schema}.{table} WHERE originator_id = %(game)s) = 1 "
        "AND (SELECT max(originator_version) FROM {schema}.{table} WHERE originator_id = %(game)s) = %(before)s"
    ).format(schema=Identifier(schema), table=Identifier(table))
    return insert, insert + guard


MMAP_SIZE: Final = 1 << 28
"""Bytes of a database each SQLite connection of the service reads through a memory map
(``PRAGMA mmap_size``; beyond them, by ``read`` as before). A page is then read where the
kernel holds it, not copied by a system call into the connection's own cache: loading a
game (``state_at``, 40 games of 454 events on a 9 MB file) spent some 250-300 ns of system
time per event in those copies, about 0 so; the rows' bytes are the same."""

STATEMENTS = 128
"""Prepared statements each SQLite connection of the service keeps (see :func:`keep_statements`)."""


def keep_statements(
    pool: Any, size: int = STATEMENTS, opened: Callable[[sqlite3.Connection], None] | None = None
) -> None:
    """Have the SQLite pool's connections, opened from now on, keep ``size`` prepared
    statements. The library opens them with ``cached_statements=True``, which ``sqlite3``
    takes as a cache of one statement: a command runs about ten different ones, so each was
    compiled again on every command (some 25 us for the log check's statement alone). The
    connection is otherwise opened as the library's ``SQLiteConnectionPool._create_connection``
    (eventsourcing 9) opens it: the same arguments, WAL mode for a file, rows as ``sqlite3.Row``.
    ``opened`` is told of each new connection (:meth:`WriteWatch.opened`)."""
    from eventsourcing.persistence import InterfaceError
    from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteConnection

    def create() -> SQLiteConnection:
        try:
            conn = sqlite3.connect(
                database=pool.db_name,
                uri=True,
                check_same_thread=False,
                isolation_level=None,
                cached_statements=size,
                timeout=pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT,
            )
        except (sqlite3.Error, TypeError) as error:
            raise InterfaceError(error) from error
        if not pool.is_sqlite_memory_mode and not pool.is_journal_mode_wal:
            if str(conn.execute("PRAGMA journal_mode;").fetchone()[0]).lower() != "wal":
                conn.execute("PRAGMA journal_mode=WAL;")
                pool.journal_mode_was_changed_to_wal = True
            pool.is_journal_mode_wal = True
        if not pool.is_sqlite_memory_mode:
            conn.execute(f"PRAGMA mmap_size={MMAP_SIZE}")
        conn.row_factory = sqlite3.Row
        if opened is not None:
            opened(conn)
        return SQLiteConnection(sqlite_conn=conn, max_age=pool.max_age)

    pool._create_connection = create


def keep_connections(pool: Any) -> None:
    """Have the SQLite pool keep every connection it opens, up to as many as it may have
    in use at once (the library's ``pool_size`` plus ``max_overflow``; by default 5 kept
    and 10 more opened when needed, each closed when given back while 5 are idle). A
    threaded server has more threads at work than 5, and each connection opened again
    starts with no prepared statement, an empty page cache and, for a server running as
    root, a new change time on the ``-wal`` file (SQLite gives it the database's owner),
    which the :class:`WriteWatch` must take for a possible raw edit (a full look)."""
    pool.pool_size, pool.max_overflow = pool.pool_size + pool.max_overflow, 0


def _sqlite_read(recorder: Any, sql: str, params: list[Any]) -> list[Any]:
    """The rows of one SELECT on a pooled SQLite connection.

    One statement in SQLite's autocommit mode reads one consistent snapshot, so the
    BEGIN and ROLLBACK the library's transaction wraps around a read are left out (they
    cost about a quarter of a millisecond per read); the pool's reader-writer lock is kept.
    """
    with recorder.datastore.get_connection(commit=False) as connection:
        cursor = connection.cursor()
        cursor.execute(sql, params)
        rows: list[Any] = cursor.fetchall()
        return rows


def _as_bytes(value: Any) -> bytes:
    """A stored state as bytes, even if an edit by hand turned it into text."""
    return value.encode() if isinstance(value, str) else bytes(value)
