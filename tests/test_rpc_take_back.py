"""Taking back a decision over gRPC: with every seat's consent, or the referee's word; the
game it is taken back from stays whole, the new one folds, verifies and hides what it must."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import grpc
import pytest

from domain.kernel.runtime import fold
from domain.verify import verify
from service.app import store_env
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.server import ThreadedServer
from tests.rpc_support import create, stub_for, threaded_server, tokens
from tools.table import lineage


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadedServer]:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as running:
        yield running


def play(stub: pb_grpc.GameServiceStub, game: str, keys: dict[str, str], answers: int, rng: random.Random) -> None:
    from bots import random_choice

    for _ in range(answers):
        seat = stub.GetView(pb.GetViewRequest(game_id=game, token=keys["referee"])).view.waiting_for
        view = stub.GetView(pb.GetViewRequest(game_id=game, token=keys[seat])).view
        decision = decision_from_pb(view.decision)
        stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                game_id=game,
                token=keys[seat],
                expected_version=view.version,
                decision_id=decision.id,
                choice=list(random_choice(decision, rng)),
                command_id=f"{game}-{view.version}",
            )
        )


def take_back(stub: pb_grpc.GameServiceStub, game: str, token: str, seat: str = "") -> pb.TakeBackResponse:
    response: pb.TakeBackResponse = stub.TakeBack(pb.TakeBackRequest(game_id=game, token=token, seat=seat))
    return response


def test_with_every_seats_consent(server: ThreadedServer) -> None:
    app = server.app
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=2, seed=5)
        game, keys = access.game_id, tokens(access)
        play(stub, game, keys, 12, random.Random(5))
        before = app.history(UUID(game))

        asked = take_back(stub, game, keys["p1"])
        assert asked.seat == "p1" and not asked.game_id and list(asked.waiting_for) == ["p2"]
        again = take_back(stub, game, keys["p1"])  # asking twice changes nothing
        assert list(again.waiting_for) == ["p2"] and again.at == asked.at
        with pytest.raises(grpc.RpcError) as refused:
            take_back(stub, game, keys["spectator"], "p1")
        assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED
        with pytest.raises(grpc.RpcError) as refused:
            take_back(stub, game, keys["p2"], "p7")
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "its seats are p1, p2" in str(refused.value.details())

        done = take_back(stub, game, keys["p2"], "p1")  # p2 consents: it happens
        assert done.game_id and not done.waiting_for and done.at == asked.at
        assert take_back(stub, game, keys["p1"]).game_id == done.game_id  # told again to whoever asks
        branch = done.game_id

        # the source is as it was; the branch is its prefix up to the question, asked again
        assert app.history(UUID(game)) == before
        events = app.history(UUID(branch))
        assert events == before[: done.at]
        view = stub.GetView(pb.GetViewRequest(game_id=branch, token=keys["p1"])).view  # the same token
        assert view.HasField("decision") and view.decision.id == done.at and view.decision.seat == "p1"
        # p2 does not see p1's hand in the new game either
        p2 = stub.GetView(pb.GetViewRequest(game_id=branch, token=keys["p2"])).view
        assert json.loads(p2.table)["players"][0].get("hand") is None
        record = lineage(app, UUID(branch))
        assert record is not None and record.why == "take-back" and str(record.source) == game

        # play on in the branch; it verifies, folds and the source still verifies
        play(stub, branch, keys, 10, random.Random(6))
        rules = app.rules_of(UUID(branch))
        events = app.history(UUID(branch))
        assert verify(rules, events).ok and verify(rules, app.history(UUID(game))).ok
        assert rules.codec.encode(fold(rules, events)) == rules.codec.encode(app.state_at(UUID(branch)))
        check = stub.VerifyGame(pb.VerifyGameRequest(game_id=branch, token=keys["spectator"]))
        assert check.ok


def test_on_the_referees_word(server: ThreadedServer) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=2, seed=7)
        game, keys = access.game_id, tokens(access)
        play(stub, game, keys, 8, random.Random(7))
        with pytest.raises(grpc.RpcError) as refused:
            take_back(stub, game, keys["referee"])  # the referee names the seat
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        done = take_back(stub, game, keys["referee"], "p2")
        assert done.game_id and not done.waiting_for
        view = stub.GetView(pb.GetViewRequest(game_id=done.game_id, token=keys["p2"])).view
        assert view.HasField("decision") and view.decision.seat == "p2" and view.decision.id == done.at
        fresh = create(stub, players=2, seed=8)
        with pytest.raises(grpc.RpcError) as refused:
            take_back(stub, fresh.game_id, tokens(fresh)["referee"], "p2")
        assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        assert "p2 has made no decision in this game yet" in str(refused.value.details())


def test_explain_event_carries_the_arithmetic_to_the_referee(server: ThreadedServer) -> None:
    from domain.lcg import events as lcg_ev

    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=2, seed=5)
        game, keys = access.game_id, tokens(access)
        resolved = None
        rng = random.Random(5)
        while resolved is None:
            play(stub, game, keys, 1, rng)
            resolved = next((e for e in server.app.history(UUID(game)) if isinstance(e, lcg_ev.QuestResolved)), None)
        ask = pb.ExplainEventRequest(game_id=game, token=keys["referee"], seq=resolved.seq)
        because = stub.ExplainEvent(ask).because
        assert because.working[0].startswith(f"willpower {resolved.willpower} = ")
        assert because.section == "Core Set rulebook, Phase 3: Quest, Step 3: Quest Resolution"
        seat = stub.ExplainEvent(pb.ExplainEventRequest(game_id=game, token=keys["p1"], seq=resolved.seq)).because
        assert not seat.working and seat.section == because.section


def test_the_terminal_takes_back_over_grpc(server: ThreadedServer) -> None:
    import io

    from tools.rpc_client import play_remote

    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=4)
        token = tokens(access)["p1"]
    typed = iter(["1", "u", "q"])
    out = io.StringIO()
    assert play_remote(server.address, token, read=lambda _: next(typed), out=out) is None
    text = out.getvalue()
    found = re.search(r"p1's last decision is taken back: play goes on in game (\S+); (\S+) is kept", text)
    assert found and found.group(2) == access.game_id
    branch = server.app.game(UUID(found.group(1)))
    assert branch.state.pending is not None and branch.state.pending.seat == "p1"
    assert branch.version == lineage(server.app, branch.id).at  # type: ignore[union-attr]
