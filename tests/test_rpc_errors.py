"""Bad input: each gets its status code and a message naming what was wrong, and appends nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import grpc
import pytest

from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.server import ThreadedServer
from tests.rpc_support import create, stub_for, threaded_server, tokens

Code = grpc.StatusCode


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    folder: Path = tmp_path_factory.mktemp("errors")
    with threaded_server(store_env(db=str(folder / "games.db"))) as running:
        yield running


@pytest.fixture(scope="module")
def stub(server: ThreadedServer) -> Iterator[pb_grpc.GameServiceStub]:
    channel, stub = stub_for(server.address)
    with channel:
        yield stub


@pytest.fixture(scope="module")
def game(stub: pb_grpc.GameServiceStub) -> dict[str, Any]:
    access = create(stub, players=2, seed=21)
    keys = tokens(access)
    view = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
    seat = view.waiting_for
    return {
        "id": access.game_id,
        "keys": keys,
        "seat": seat,
        "other": "p2" if seat == "p1" else "p1",
        "view": stub.GetView(pb.GetViewRequest(token=keys[seat])).view,
    }


def _submit(game: dict[str, Any], **fields: Any) -> pb.SubmitDecisionRequest:
    view = game["view"]
    base: dict[str, Any] = {
        "game_id": game["id"],
        "token": game["keys"][game["seat"]],
        "expected_version": view.version,
        "decision_id": view.decision.id,
        "choice": [view.decision.options[0].id] if view.decision.kind == pb.KIND_ONE else [],
        "command_id": "never-applied",
    }
    base.update(fields)
    return pb.SubmitDecisionRequest(**base)


CASES: list[tuple[str, Code, str, Callable[[pb_grpc.GameServiceStub, dict[str, Any]], Any]]] = [
    (
        "game id not a uuid",
        Code.INVALID_ARGUMENT,
        "is not a UUID",
        lambda s, g: s.GetView(pb.GetViewRequest(game_id="not-a-game", token=g["keys"]["p1"])),
    ),
    (
        "unknown game",
        Code.NOT_FOUND,
        "no game",
        lambda s, g: s.GetView(pb.GetViewRequest(game_id=str(uuid4()), token=g["keys"]["p1"])),
    ),
    (
        "missing token",
        Code.UNAUTHENTICATED,
        "token is required",
        lambda s, g: s.GetView(pb.GetViewRequest(game_id=g["id"])),
    ),
    (
        "wrong token",
        Code.UNAUTHENTICATED,
        "not valid",
        lambda s, g: s.GetView(pb.GetViewRequest(game_id=g["id"], token=g["id"] + ".guess")),
    ),
    (
        "another game's token",
        Code.UNAUTHENTICATED,
        "not valid",
        lambda s, g: s.SubmitDecision(_submit(g, token=tokens(create(s, seed=2))["p1"])),
    ),
    (
        "stale version",
        Code.ABORTED,
        "expected game version",
        lambda s, g: s.SubmitDecision(_submit(g, expected_version=3)),
    ),
    (
        "not your decision",
        Code.FAILED_PRECONDITION,
        "is for seat",
        lambda s, g: s.SubmitDecision(_submit(g, token=g["keys"][g["other"]])),
    ),
    (
        "a choice not among the options",
        Code.INVALID_ARGUMENT,
        "unknown option 'no-such-option'",
        lambda s, g: s.SubmitDecision(_submit(g, choice=["no-such-option"])),
    ),
    (
        "an option given twice",
        Code.INVALID_ARGUMENT,
        "illegal choice",
        lambda s, g: s.SubmitDecision(_submit(g, choice=[g["view"].decision.options[0].id] * 2)),
    ),
    (
        "unknown decision id",
        Code.INVALID_ARGUMENT,
        "is not pending",
        lambda s, g: s.SubmitDecision(_submit(g, decision_id=999_999)),
    ),
    ("no command id", Code.INVALID_ARGUMENT, "command_id", lambda s, g: s.SubmitDecision(_submit(g, command_id=""))),
    (
        "command id too long",
        Code.INVALID_ARGUMENT,
        "command_id",
        lambda s, g: s.SubmitDecision(_submit(g, command_id="x" * 500)),
    ),
    (
        "malformed choice",
        Code.INVALID_ARGUMENT,
        "malformed choice",
        lambda s, g: s.SubmitDecision(_submit(g, choice=["x" * 1000])),
    ),
    (
        "the spectator submits",
        Code.PERMISSION_DENIED,
        "spectator token cannot",
        lambda s, g: s.SubmitDecision(_submit(g, token=g["keys"]["spectator"])),
    ),
    (
        "the referee submits",
        Code.PERMISSION_DENIED,
        "referee token cannot",
        lambda s, g: s.SubmitDecision(_submit(g, token=g["keys"]["referee"])),
    ),
    (
        "a seat forks a game in progress",
        Code.PERMISSION_DENIED,
        "only the referee",
        lambda s, g: s.ForkGame(pb.ForkGameRequest(game_id=g["id"], token=g["keys"]["p1"], at=3)),
    ),
    (
        "fork beyond the end",
        Code.OUT_OF_RANGE,
        "the game has events",
        lambda s, g: s.ForkGame(pb.ForkGameRequest(game_id=g["id"], token=g["keys"]["referee"], at=10**6)),
    ),
    (
        "a version beyond the latest",
        Code.OUT_OF_RANGE,
        "out of range",
        lambda s, g: s.GetView(pb.GetViewRequest(game_id=g["id"], token=g["keys"]["p1"], version=10**6)),
    ),
    (
        "a negative version",
        Code.INVALID_ARGUMENT,
        "negative",
        lambda s, g: s.GetView(pb.GetViewRequest(game_id=g["id"], token=g["keys"]["p1"], version=-1)),
    ),
    (
        "explain an event that does not exist",
        Code.OUT_OF_RANGE,
        "out of range",
        lambda s, g: s.ExplainEvent(pb.ExplainEventRequest(game_id=g["id"], token=g["keys"]["p1"], seq=0)),
    ),
    (
        "history past the end",
        Code.OUT_OF_RANGE,
        "out of range",
        lambda s, g: s.GetHistory(pb.GetHistoryRequest(game_id=g["id"], token=g["keys"]["p1"], to_version=10**6)),
    ),
    (
        "history backwards",
        Code.OUT_OF_RANGE,
        "to_version 2 is before after_version 5",
        lambda s, g: s.GetHistory(
            pb.GetHistoryRequest(game_id=g["id"], token=g["keys"]["p1"], after_version=5, to_version=2)
        ),
    ),
    (
        "an unknown game kind",
        Code.INVALID_ARGUMENT,
        "unknown game 'chess'",
        lambda s, g: s.CreateGame(pb.CreateGameRequest(game="chess")),
    ),
    (
        "an unknown hero",
        Code.INVALID_ARGUMENT,
        "unknown hero 'Sauron'",
        lambda s, g: s.CreateGame(
            pb.CreateGameRequest(players=[pb.PlayerSetup(heroes=["Sauron", "Gimli", "Legolas"])])
        ),
    ),
    (
        "too many players",
        Code.INVALID_ARGUMENT,
        "1 to 4 players",
        lambda s, g: s.CreateGame(pb.CreateGameRequest(players=[pb.PlayerSetup()] * 5)),
    ),
    (
        "a deck of encounter cards",
        Code.INVALID_ARGUMENT,
        "Forest Spider is an enemy card, not a player card",
        lambda s, g: s.CreateGame(pb.CreateGameRequest(players=[pb.PlayerSetup(deck=["Forest Spider"] * 10)])),
    ),
    (
        "an unknown option",
        Code.INVALID_ARGUMENT,
        "unknown option 'speed'",
        lambda s, g: s.CreateGame(pb.CreateGameRequest(options={"speed": "fast"})),
    ),
    (
        "watch from beyond the end",
        Code.OUT_OF_RANGE,
        "out of range",
        lambda s, g: next(s.Watch(pb.WatchRequest(game_id=g["id"], token=g["keys"]["p1"], from_version=10**6))),
    ),
    (
        "watch with a wrong token",
        Code.UNAUTHENTICATED,
        "not valid",
        lambda s, g: next(s.Watch(pb.WatchRequest(game_id=g["id"], token="nope"))),
    ),
]


@pytest.mark.parametrize(("name", "code", "says", "call"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_refused_and_appends_nothing(
    server: ThreadedServer,
    stub: pb_grpc.GameServiceStub,
    game: dict[str, Any],
    name: str,
    code: Code,
    says: str,
    call: Callable[[pb_grpc.GameServiceStub, dict[str, Any]], Any],
) -> None:
    game_id = UUID(game["id"])
    before = server.app.version(game_id)
    games_before = len(list(server.app.games()))
    with pytest.raises(grpc.RpcError) as refused:
        call(stub, game)
    assert refused.value.code() is code, f"{name}: {refused.value.code()} {refused.value.details()}"
    assert says in (refused.value.details() or ""), refused.value.details()
    assert server.app.version(game_id) == before, f"{name} appended events"
    created = len(list(server.app.games())) - games_before
    assert created <= (1 if name == "another game's token" else 0), f"{name} created a game"
    # the server keeps serving, and the game goes on as before
    view = stub.GetView(pb.GetViewRequest(game_id=game["id"], token=game["keys"][game["seat"]])).view
    assert view.version == before and view.decision.id == game["view"].decision.id


def test_malformed_messages_get_invalid_argument(server: ThreadedServer, game: dict[str, Any]) -> None:
    game_id = UUID(game["id"])
    before = server.app.version(game_id)
    with grpc.insecure_channel(server.address) as channel:
        for method in ("SubmitDecision", "GetView", "CreateGame"):
            raw = channel.unary_unary(f"/westmarch.v1.GameService/{method}")
            with pytest.raises(grpc.RpcError) as refused:
                raw(b"\xff\xff\xff\x0f garbage", timeout=5)
            assert refused.value.code() is Code.INVALID_ARGUMENT
            assert "malformed" in (refused.value.details() or "")
        for method in ("Watch", "ExportGame"):
            stream = channel.unary_stream(f"/westmarch.v1.GameService/{method}")
            with pytest.raises(grpc.RpcError) as refused:
                next(iter(stream(b"\x0a\xff\xff\xff", timeout=5)))
            assert refused.value.code() is Code.INVALID_ARGUMENT
        unknown = channel.unary_unary("/westmarch.v1.GameService/DropTables")
        with pytest.raises(grpc.RpcError) as refused:
            unknown(b"", timeout=5)
        assert refused.value.code() is Code.UNIMPLEMENTED
    assert server.app.version(game_id) == before


def test_the_game_over_is_a_failed_precondition(server: ThreadedServer, stub: pb_grpc.GameServiceStub) -> None:
    import random

    from bots import random_choice
    from service.rpc.convert import decision_from_pb

    access = create(stub, players=1, seed=4)
    token = access.seats[0].token
    rng = random.Random(4)
    view = stub.GetView(pb.GetViewRequest(token=token)).view
    last = view
    while not view.over:
        last = view
        decision = decision_from_pb(view.decision)
        result = stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                token=token,
                expected_version=view.version,
                decision_id=decision.id,
                choice=list(random_choice(decision, rng)),
                command_id=f"c{view.version}",
                include_view=True,
            )
        )
        view = result.view
    final = server.app.version(UUID(access.game_id))
    with pytest.raises(grpc.RpcError) as refused:
        stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                token=token, decision_id=last.decision.id, choice=["x"], command_id="after-the-end"
            )
        )
    assert refused.value.code() is Code.FAILED_PRECONDITION and "the game is over" in (refused.value.details() or "")
    assert server.app.version(UUID(access.game_id)) == final
    # once it is over, a seat may fork it and sees everything (the seed too)
    fork = stub.ForkGame(pb.ForkGameRequest(token=token, at=5))
    assert fork.access.game_id
    history = stub.GetHistory(pb.GetHistoryRequest(token=token)).events
    assert b'"seed"' in history[0].body and all(e.hash for e in history)
