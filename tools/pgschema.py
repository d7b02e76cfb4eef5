"""A scratch PostgreSQL schema for tests and benchmarks: created empty, dropped afterwards."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def scratch_schema(dsn: str, prefix: str = "t") -> Iterator[str]:
    """A fresh, empty schema named ``<prefix>_<random>`` on the database ``dsn``; dropped
    (with everything in it) when the block ends."""
    import psycopg

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
