"""Storage faults told apart: what went wrong with the store, not with the request.

The event store's driver errors reach the service wrapped by the ``eventsourcing`` library
(its ``OperationalError`` and kin, with the driver's error as the cause). :func:`fault_of`
reads the whole chain and says which of three faults it was, so the service can answer
with a status a client can act on:

``unavailable``
    The connection was lost or killed, or the database is busy: the pool's idle connections
    are checked (:func:`drop_dead_connections`, since the server that killed one may have
    killed them all) and the call retried once on a fresh connection, then UNAVAILABLE
    (retryable).
``full``
    The disk or the database is full: RESOURCE_EXHAUSTED; writes work again once there is
    room, nothing half-written (the transaction rolled back).
``read-only``
    The store refuses writes: FAILED_PRECONDITION, and the server reports NOT_SERVING
    until a probe finds it writable again.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

UNAVAILABLE = "unavailable"
FULL = "full"
READ_ONLY = "read-only"

_SQLITE_FULL = 13
_SQLITE_READONLY = 8
_SQLITE_BUSY = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
_PG_FULL = ("53100", "53200", "53300")  # disk full, out of memory, too many connections
_PG_READ_ONLY = "25006"
_PG_GONE = ("57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004")


@dataclass(frozen=True)
class StorageFault:
    kind: str
    detail: str

    @property
    def message(self) -> str:
        match self.kind:
            case "full":
                return "the game store is full; nothing was saved: try again when space is freed"
            case "read-only":
                return "the game store is read-only just now; nothing was saved"
        return "the game store is unavailable just now; nothing was saved: retry"


def fault_of(error: BaseException) -> StorageFault | None:
    """The storage fault behind ``error`` (following its causes), or None if it is none."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        found = _one(current)
        if found is not None:
            return found
        current = current.__cause__ or current.__context__
    return None


def _one(error: BaseException) -> StorageFault | None:
    detail = str(error) or type(error).__name__
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if code is not None:
            primary = code & 0xFF
            if primary == _SQLITE_FULL:
                return StorageFault(FULL, detail)
            if primary == _SQLITE_READONLY:
                return StorageFault(READ_ONLY, detail)
            if primary in _SQLITE_BUSY:
                return StorageFault(UNAVAILABLE, detail)
        return None
    module = type(error).__module__
    if module.startswith("psycopg"):
        state: Any = getattr(error, "sqlstate", None)
        if state in _PG_FULL:
            return StorageFault(FULL, detail)
        if state == _PG_READ_ONLY:
            return StorageFault(READ_ONLY, detail)
        import psycopg

        if state in _PG_GONE or isinstance(error, (psycopg.OperationalError, psycopg.InterfaceError)):
            return StorageFault(UNAVAILABLE, detail)
        return None
    from eventsourcing.persistence import ConnectionUnavailableError, InterfaceError

    if isinstance(error, ConnectionUnavailableError | InterfaceError) and error.__cause__ is None:
        return StorageFault(UNAVAILABLE, detail)
    return None


def drop_dead_connections(app: Any) -> None:
    """Check the idle connections of ``app``'s PostgreSQL pool, replacing those the server
    closed (a terminated backend is found only when next used: without this a retry after
    a lost connection can be handed another dead one). Nothing for SQLite."""
    pool = getattr(getattr(app.recorder, "datastore", None), "pool", None)
    if type(app.recorder).__module__ != "eventsourcing.postgres" or pool is None:
        return
    pool.check()


def writable(app: Any) -> bool:
    """Whether the application's store takes writes now (a probe that changes nothing)."""
    from eventsourcing.sqlite import SQLiteAggregateRecorder

    recorder = app.recorder
    try:
        if isinstance(recorder, SQLiteAggregateRecorder):
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute("PRAGMA user_version")
                (version,) = cursor.fetchone()
                cursor.execute(f"PRAGMA user_version = {int(version)}")
            return True
        if type(recorder).__module__ == "eventsourcing.postgres":
            with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
                cursor.execute("SHOW transaction_read_only")
                row = cursor.fetchone()
                return row is not None and next(iter(row.values())) == "off"
    except Exception as error:
        if fault_of(error) is not None:
            return False
        raise
    return True
