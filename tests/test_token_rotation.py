"""A referee replaces a viewer's token (``RotateToken``, ``westmarch tokens --rotate``):
the old token is refused at once by every server process, on SQLite and PostgreSQL, and a
Watch opened with it ends (service/rpc/auth.py, service/records.py TokenRotated)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from uuid import UUID

import grpc
import pytest

from bots import random_choice
from service.app import store_env
from service.records import seats_id
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from tests.rpc_support import ROOT, ServeProcess, create, pg_env, postgres_schema, stub_for, threaded_server, tokens

Code = grpc.StatusCode


def _refused(call: object) -> Code:
    try:
        call()  # type: ignore[operator]
    except grpc.RpcError as error:
        return error.code()  # type: ignore[no-any-return]
    return Code.OK


def test_a_rotated_token_is_refused_at_once_by_every_server_on_postgresql() -> None:
    with postgres_schema() as schema, threaded_server(pg_env(schema)) as one, threaded_server(pg_env(schema)) as two:
        first, a = stub_for(one.address)
        second, b = stub_for(two.address)
        with first, second:
            access = create(a, seed=21)
            keys = tokens(access)
            assert b.GetView(pb.GetViewRequest(token=keys["p1"])).view.version  # server two has checked it
            rotated = a.RotateToken(pb.RotateTokenRequest(token=keys["referee"], viewer="p1"))
            assert rotated.viewer == "p1" and rotated.token != keys["p1"]
            for stub in (a, b):
                assert _refused(lambda s=stub: s.GetView(pb.GetViewRequest(token=keys["p1"]))) == Code.UNAUTHENTICATED
                view = stub.GetView(pb.GetViewRequest(token=rotated.token)).view
                assert view.viewer == "p1"
            # the other viewers' tokens are untouched
            assert b.GetView(pb.GetViewRequest(token=keys["spectator"])).view.viewer == "spectator"


def test_only_the_referee_rotates_and_a_refused_rotation_appends_nothing(tmp_path: Path) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, players=2, seed=22)
            keys = tokens(access)
            app = server.servicer.service.app  # type: ignore[union-attr]
            access_id = UUID(access.game_id)
            before = app.record_version(seats_id(access_id))
            with pytest.raises(grpc.RpcError) as caught:
                stub.RotateToken(pb.RotateTokenRequest(token=keys["p1"], viewer="p2"))
            assert caught.value.code() == Code.PERMISSION_DENIED and "referee" in str(caught.value.details())
            with pytest.raises(grpc.RpcError) as caught:
                stub.RotateToken(pb.RotateTokenRequest(token=keys["referee"], viewer="p9"))
            assert caught.value.code() == Code.INVALID_ARGUMENT and "p1, p2, spectator, referee" in str(
                caught.value.details()
            )
            assert app.record_version(seats_id(access_id)) == before
            # the referee may replace its own token too
            new = stub.RotateToken(pb.RotateTokenRequest(token=keys["referee"], viewer="referee")).token
            assert _refused(lambda: stub.RotateToken(pb.RotateTokenRequest(token=keys["referee"], viewer="p1"))) == (
                Code.UNAUTHENTICATED
            )
            assert stub.GetView(pb.GetViewRequest(token=new)).view.viewer == "referee"
            assert app.record_version(seats_id(access_id)) == before + 1


def test_a_watch_opened_with_a_token_rotated_since_ends_unauthenticated(tmp_path: Path) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, seed=23)
            keys = tokens(access)
            stream = stub.Watch(pb.WatchRequest(token=keys["spectator"]))
            next(stream)
            stub.RotateToken(pb.RotateTokenRequest(token=keys["referee"], viewer="spectator"))
            view = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view
            decision = decision_from_pb(view.decision)
            stub.SubmitDecision(
                pb.SubmitDecisionRequest(
                    token=keys["p1"],
                    decision_id=decision.id,
                    choice=list(random_choice(decision, random.Random(1))),
                    command_id="after-rotation",
                )
            )
            with pytest.raises(grpc.RpcError) as caught:
                for _ in range(100):
                    next(stream)
            assert caught.value.code() == Code.UNAUTHENTICATED


def test_tokens_rotate_at_the_command_line_is_refused_at_once_by_a_running_server(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    with ServeProcess(["--db", db]) as server:
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, seed=24)
            keys = tokens(access)
            assert stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.viewer == "p1"
            done = subprocess.run(
                [sys.executable, "-m", "tools.cli", "tokens", access.game_id[:8], "--rotate", "p1", "--db", db],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, done.stderr
            new = done.stdout.split()[-1]
            assert new.startswith(access.game_id + ".")
            assert _refused(lambda: stub.GetView(pb.GetViewRequest(token=keys["p1"]))) == Code.UNAUTHENTICATED
            assert stub.GetView(pb.GetViewRequest(token=new)).view.viewer == "p1"
            wrong = subprocess.run(
                [sys.executable, "-m", "tools.cli", "tokens", access.game_id, "--rotate", "p7", "--db", db],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "no viewer 'p7'" in wrong.stderr
