"""Shared helpers: games played by random bots, and stores on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots import random_choice
from domain.game import Game
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from service.app import Westmarch, store_env

POSTGRES_DSN = os.environ.get("WESTMARCH_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def new_lcg(
    seed: int, players: int = 1, difficulty: str = "standard", scenario: str = "passage-through-mirkwood"
) -> Game:
    options = lcg_options(scenario, players, None, difficulty)
    return Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))


def play_randomly(game: Game, rng: random.Random, limit: int = 20_000) -> Game:
    for _ in range(limit):
        decision = game.state.pending
        if decision is None:
            return game
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    raise AssertionError(f"game did not end within {limit} decisions")


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Westmarch]:
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    yield app
    app.close()


def postgres_app(schema: str) -> Westmarch:
    """An application on the local PostgreSQL, its tables in a schema of their own."""
    env = store_env(postgres=POSTGRES_DSN)
    env["POSTGRES_SCHEMA"] = schema
    return Westmarch(env)


@pytest.fixture
def pg_app() -> Iterator[Westmarch]:
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    app = postgres_app(schema)
    try:
        yield app
    finally:
        app.close()
        with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
