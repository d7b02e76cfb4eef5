"""Who sees which games: an unlisted game never appears in ListGames (nor do its forks),
and ``serve --private`` lists no game at all; both on real servers, SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from tests.rpc_support import ROOT, ServeProcess, pg_env, postgres_schema, stub_for, threaded_server, tokens


def _listed(stub: object) -> set[str]:
    return {g.game_id for g in stub.ListGames(pb.ListGamesRequest()).games}  # type: ignore[attr-defined]


def test_an_unlisted_game_is_played_by_its_tokens_but_never_listed(tmp_path: Path) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            public = stub.CreateGame(pb.CreateGameRequest(game="lcg", seed=1)).access
            hidden = stub.CreateGame(pb.CreateGameRequest(game="lcg", seed=2, unlisted=True)).access
            assert _listed(stub) == {public.game_id}
            keys = tokens(hidden)
            view = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view
            assert view.version == hidden.version
            fork = stub.ForkGame(pb.ForkGameRequest(token=keys["referee"], at=hidden.version)).access
            assert fork.game_id not in _listed(stub), "a fork of an unlisted game is unlisted"
            public_fork = stub.ForkGame(pb.ForkGameRequest(token=tokens(public)["referee"], at=2)).access
            assert _listed(stub) == {public.game_id, public_fork.game_id}
            # offsets count listed games only
            assert [g.game_id for g in stub.ListGames(pb.ListGamesRequest(offset=1)).games] == [public_fork.game_id]


def test_unlisted_is_kept_across_server_processes_on_postgresql() -> None:
    with postgres_schema() as schema, threaded_server(pg_env(schema)) as one, threaded_server(pg_env(schema)) as two:
        first, made = stub_for(one.address)
        second, other = stub_for(two.address)
        with first, second:
            hidden = made.CreateGame(pb.CreateGameRequest(game="lcg", seed=3, unlisted=True)).access
            public = made.CreateGame(pb.CreateGameRequest(game="lcg", seed=4)).access
            assert _listed(other) == {public.game_id}
            assert other.GetView(pb.GetViewRequest(token=tokens(hidden)["spectator"])).view.version > 0


def test_a_private_server_lists_nothing_and_says_why(tmp_path: Path) -> None:
    with ServeProcess(["--db", str(tmp_path / "games.db"), "--private"]) as server:
        channel, stub = stub_for(server.address)
        with channel:
            access = stub.CreateGame(pb.CreateGameRequest(game="lcg", seed=5)).access
            with pytest.raises(grpc.RpcError) as caught:
                stub.ListGames(pb.ListGamesRequest())
            assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert "serve --private" in str(caught.value.details())
            assert stub.GetView(pb.GetViewRequest(token=tokens(access)["p1"])).view.version == access.version


def test_serve_help_names_the_private_listing() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tools.cli", "serve", "--help"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "--private" in out and "--epic-groups" in out


def test_serve_refuses_an_epic_cap_below_one_group(capsys: pytest.CaptureFixture[str]) -> None:
    from tools.cli import main

    assert main(["serve", "--port", "0", "--epic-groups", "0"]) == 2
    assert "--epic-groups must be at least 1" in capsys.readouterr().err
