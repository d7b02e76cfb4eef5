"""PostgreSQL as the store, with its tables created safely by processes starting together.

The eventsourcing library creates a store's types, tables and functions on the first start
(``CREATE_TABLE``, on by default). Its statements are not safe under concurrency: two
``westmarch serve --postgres DSN`` started at the same moment on a fresh database can both
try to create the composite type of stored events, and one of them then dies with
``duplicate key value violates unique constraint "pg_type_typname_nsp_index"`` (or "tuple
concurrently updated"). Here each recorder's creation runs under a PostgreSQL advisory lock
named after the schema, so one process creates while the others wait and then find
everything made.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from eventsourcing import postgres
from eventsourcing.persistence import AggregateRecorder, ApplicationRecorder, ProcessRecorder

SCHEMA_LOCK = "westmarch: creating the tables of schema {schema}"
"""The advisory lock's name (hashed to its key by PostgreSQL's ``hashtext``)."""


class PostgresFactory(postgres.PostgresFactory):
    """The library's PostgreSQL factory, its recorders' tables created under the schema
    lock. The recorders themselves are the library's own classes."""

    def application_recorder(self) -> ApplicationRecorder:
        with self.schema_lock():
            return super().application_recorder()

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        with self.schema_lock():
            return super().aggregate_recorder(purpose)

    def tracking_recorder(self, tracking_recorder_class: Any = None) -> Any:
        with self.schema_lock():
            return super().tracking_recorder(tracking_recorder_class)

    def process_recorder(self) -> ProcessRecorder:
        with self.schema_lock():
            return super().process_recorder()

    @contextlib.contextmanager
    def schema_lock(self) -> Iterator[None]:
        """Hold the schema's advisory lock while tables are created (no lock when they are
        not), on a connection of the pool while the creation takes another: with a pool of
        one connection (``POSTGRES_POOL_SIZE=1``, no overflow) there is no lock, as before."""
        if not self.env_create_table() or self.datastore.pool.max_size < 2:
            yield
            return
        name = SCHEMA_LOCK.format(schema=self.datastore.schema or "public")
        with self.datastore.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", [name])
            conn.commit()
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", [name])
                conn.commit()
