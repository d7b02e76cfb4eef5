"""Listing games reads one row per game from the index of first rows, not every event."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import psycopg

from service.app import Westmarch, store_env
from service.commands import GameService
from service.games import GameRequest
from service.store import CREATED_TOPIC, FIRSTS_INDEX, ensure_firsts_index
from tests.conftest import POSTGRES_DSN


def _play(service: GameService, games: int) -> list[str]:
    """``games`` games, each answered a few times (so the store holds more than first rows)."""
    made = []
    for seed in range(1, games + 1):
        access = service.create(GameRequest(game="lcg"), seed=seed)
        seat = next(iter(access.seats))
        version = access.version
        for n in range(3):
            decision = service.view_as(access.game_id, seat).decision
            assert decision is not None
            choice = [decision.options[0].id] * max(1, decision.min)
            version = service.submit_as(access.game_id, seat, version, decision.id, choice, f"c{n}").version
        made.append(str(access.game_id))
    return made


def test_games_are_listed_in_order_and_in_pages_from_the_index(sqlite_app: Westmarch) -> None:
    service = GameService(sqlite_app)
    made = _play(service, 7)
    listed = [str(info.id) for info in sqlite_app.games()]
    assert listed == made  # the service's own records (version 1 too) are not games
    assert [str(i.id) for i in service.games(2, 3)] == made[2:5]
    assert [str(i.id) for i in service.games(6, 100)] == made[6:]
    assert service.games(7, 10) == []
    assert all(i.version > 1 and not i.damaged for i in service.games())


def test_the_listing_query_searches_the_index(sqlite_app: Westmarch) -> None:
    GameService(sqlite_app).create(GameRequest(game="lcg"), seed=1)
    path = sqlite_app.env["SQLITE_DBNAME"]
    table = sqlite_app.recorder.events_table_name  # type: ignore[attr-defined]
    with sqlite3.connect(path) as db:
        plan = db.execute(
            f"EXPLAIN QUERY PLAN SELECT rowid, originator_id, topic, state FROM {table} "
            "WHERE originator_version = 1 AND rowid > ? AND topic IN (?) ORDER BY rowid LIMIT ?",
            [0, CREATED_TOPIC.format(ruleset="lcg"), 500],
        ).fetchall()
    assert any(FIRSTS_INDEX.format(table=table) in str(row) for row in plan), plan


def test_a_store_made_before_the_index_gets_it_when_opened(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    app = Westmarch(store_env(db=path))
    GameService(app).create(GameRequest(game="lcg"), seed=1)
    table = app.recorder.events_table_name  # type: ignore[attr-defined]
    app.close()
    name = FIRSTS_INDEX.format(table=table)
    with sqlite3.connect(path) as db:
        db.execute(f"DROP INDEX {name}")
    reopened = Westmarch(store_env(db=path))
    try:
        assert len(list(reopened.games())) == 1
    finally:
        reopened.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [name]).fetchone() is not None


def test_a_read_only_store_without_the_index_still_lists_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    app = Westmarch(store_env(db=str(path)))
    GameService(app).create(GameRequest(game="lcg"), seed=1)
    table = app.recorder.events_table_name  # type: ignore[attr-defined]
    app.close()
    with sqlite3.connect(path) as db:
        db.execute(f"DROP INDEX {FIRSTS_INDEX.format(table=table)}")
    path.chmod(0o444)
    tmp_path.chmod(0o555)  # no journal can be made beside it either
    try:
        reopened = Westmarch(store_env(db=f"file:{path}?mode=ro"))
        try:
            assert len(list(reopened.games())) == 1
        finally:
            reopened.close()
    finally:
        tmp_path.chmod(0o755)
        path.chmod(0o644)
    with sqlite3.connect(path) as db:  # it could not be made: the games were listed without it
        assert db.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name LIKE '%firsts'").fetchone() is None


def test_processes_opening_one_postgresql_store_at_once_make_one_index(pg_app: Westmarch) -> None:
    first, pg_schema = pg_app, pg_app.recorder.datastore.schema  # type: ignore[attr-defined]
    service = GameService(first)
    made = _play(service, 3)
    table = first.recorder.events_table_name  # type: ignore[attr-defined]
    name = FIRSTS_INDEX.format(table=table)
    with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
        conn.execute(f"DROP INDEX {pg_schema}.{name}")
    failures: list[BaseException] = []

    def open_one() -> None:
        try:
            ensure_firsts_index(first.recorder)
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
        found = conn.execute(
            "SELECT count(*) FROM pg_indexes WHERE schemaname = %s AND indexname = %s", [pg_schema, name]
        ).fetchone()
    assert found == (1,)
    assert [str(i.id) for i in first.games()] == made
    assert [str(i.id) for i in service.games(1, 1)] == made[1:2]
