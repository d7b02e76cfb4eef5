"""What the gRPC server does per call beyond the game service's own work (the floor of
``tools/bench_load.py``): counted, so that work cut from it stays cut."""

from __future__ import annotations

from pathlib import Path

from domain.engine import engine
from domain.lcg.decks.ready_made import ready_made
from service.app import store_env
from tests.rpc_support import create, stub_for, threaded_server


def test_the_server_fills_the_first_games_caches_before_its_first_call(tmp_path: Path) -> None:
    """The ready-made decks are parsed and the engine's version read once, at start: not by
    the first CreateGame of each worker thread, all missing those caches at once."""
    ready_made.cache_clear()
    engine.cache_clear()
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        assert ready_made.cache_info().currsize == 1
        assert engine.cache_info().currsize == 1
        misses = ready_made.cache_info().misses, engine.cache_info().misses
        channel, stub = stub_for(server.address)
        with channel:
            for seed in range(1, 4):
                create(stub, seed=seed)
        assert (ready_made.cache_info().misses, engine.cache_info().misses) == misses
