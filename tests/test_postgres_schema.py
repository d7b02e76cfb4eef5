"""Creating the PostgreSQL tables is safe when servers start together on a fresh schema
(service/postgres.py: the creation runs under an advisory lock)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from domain.kernel.events import Event
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from service.app import Westmarch
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from tests.conftest import POSTGRES_DSN
from tests.rpc_support import ServeProcess, create, pg_env, postgres_schema, stub_for


def test_applications_starting_at_once_on_a_fresh_schema_all_start() -> None:
    # Without the lock, 4 applications at once failed in most rounds: "duplicate key value
    # violates unique constraint pg_type_typname_nsp_index", "tuple concurrently updated".
    for _ in range(4):
        with postgres_schema() as schema:
            start = threading.Barrier(4)

            with ThreadPoolExecutor(4) as pool:
                futures = [pool.submit(_open_app, start, schema) for _ in range(4)]
                apps = [f.result() for f in futures]  # raises what an application raised
            try:
                game = apps[0].create("lcg", _created())
                assert all(a.version(game.id) == game.version for a in apps)
            finally:
                for app in apps:
                    app.close()


def test_two_servers_started_at_once_on_a_fresh_schema_both_serve() -> None:
    with postgres_schema() as schema:
        env = {"POSTGRES_SCHEMA": schema}
        args = ["--postgres", POSTGRES_DSN]
        with ThreadPoolExecutor(2) as pool:
            futures = [pool.submit(ServeProcess, args, env) for _ in range(2)]
            servers = [f.result() for f in futures]
        try:
            for server in servers:
                channel, stub = stub_for(server.address)
                with channel:
                    access = create(stub)
                    assert access.game_id
                    listing = stub.ListGames(pb.ListGamesRequest())
                    assert access.game_id in {g.game_id for g in listing.games}
            assert all(s.terminate() == 0 for s in servers)
        finally:
            for server in servers:
                server.__exit__()


def _open_app(start: threading.Barrier, schema: str) -> Westmarch:
    start.wait()
    return Westmarch(pg_env(schema))


def _created() -> Event:
    return LCG.created(lcg_options("passage-through-mirkwood", 1, None, "standard"), 7)
