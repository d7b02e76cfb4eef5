"""AnalyzeDecision over a real gRPC server: a seat analyses its own decision from its own
knowledge only, the referee any with or without the true cards; nothing is appended; the
analysis time of a token and of an address is limited, and so are the analyses at once."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.app import Westmarch, store_env
from service.commands import GameService
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.limits import Limits
from service.rpc.server import ThreadedServer
from tests.rpc_support import create, stub_for, threaded_server, tokens
from tests.test_analysis import LETHAL, position


def lethal_game(db: str) -> tuple[str, dict[str, str]]:
    """The lethal-attack position stored as a game, with its tokens."""
    run, _ = position(LETHAL)
    app = Westmarch(store_env(db=db))
    app.store(run.game)
    access = GameService(app).issue_tokens(run.game.id)
    app.close()
    keys = dict(access.seats)
    keys["spectator"], keys["referee"] = access.spectator, access.referee
    return str(run.game.id), keys


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ThreadedServer, str, dict[str, str]]]:
    db = str(tmp_path_factory.mktemp("analysis") / "games.db")
    game, keys = lethal_game(db)
    with threaded_server(store_env(db=db)) as server:
        yield server, game, keys


def analyse(stub: pb_grpc.GameServiceStub, token: str, **fields: object) -> pb.AnalyzeDecisionResponse:
    response: pb.AnalyzeDecisionResponse = stub.AnalyzeDecision(pb.AnalyzeDecisionRequest(token=token, **fields))  # type: ignore[arg-type]
    return response


def refused(stub: pb_grpc.GameServiceStub, token: str, **fields: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        analyse(stub, token, **fields)
    return caught.value


def test_a_seat_analyses_its_own_decision_and_nothing_is_appended(
    served: tuple[ThreadedServer, str, dict[str, str]],
) -> None:
    server, game, keys = served
    channel, stub = stub_for(server.address)
    with channel:
        before = stub.GetHistory(pb.GetHistoryRequest(game_id=game, token=keys["referee"]))
        found = analyse(stub, keys["p1"], rollouts=3)
        assert found.knowledge == "p1" and found.decision.seat == "p1" and found.version == before.latest_version
        assert found.rollouts == 3 * len(found.options) and found.seed == 1 and found.cpu_seconds > 0
        best = found.options[0]
        assert best.value == 1.0 and best.low <= best.value <= best.high and " + " in best.label
        assert [o.value for o in found.options] == sorted((o.value for o in found.options), reverse=True)
        assert {o.label for o in found.options if o.value == 0.0} >= {"none", "Aragorn (p1)"}
        again = analyse(stub, keys["p1"], rollouts=3, version=found.version)
        assert [(list(o.choice), o.value, o.low, o.high) for o in again.options] == [
            (list(o.choice), o.value, o.low, o.high) for o in found.options
        ]
        after = stub.GetHistory(pb.GetHistoryRequest(game_id=game, token=keys["referee"]))
        assert after.latest_version == before.latest_version
        assert [e.hash for e in after.events] == [e.hash for e in before.events]


def test_the_referee_analyses_with_or_without_the_true_cards(
    served: tuple[ThreadedServer, str, dict[str, str]],
) -> None:
    server, _, keys = served
    channel, stub = stub_for(server.address)
    with channel:
        assert analyse(stub, keys["referee"], rollouts=1).knowledge == "p1"
        true = analyse(stub, keys["referee"], rollouts=1, true_cards=True)
        assert true.knowledge == "referee" and true.options[0].value == 1.0


def test_a_seat_cannot_use_the_true_cards_nor_the_spectator_analyse(
    served: tuple[ThreadedServer, str, dict[str, str]],
) -> None:
    server, _, keys = served
    channel, stub = stub_for(server.address)
    with channel:
        error = refused(stub, keys["p1"], true_cards=True)
        assert error.code() is grpc.StatusCode.PERMISSION_DENIED and "the true hidden cards are the referee's" in (
            error.details() or ""
        )
        error = refused(stub, keys["spectator"])
        assert error.code() is grpc.StatusCode.PERMISSION_DENIED and "spectator" in (error.details() or "")


@pytest.mark.parametrize(
    ("fields", "code", "message"),
    [
        ({"budget_seconds": 60.0}, grpc.StatusCode.INVALID_ARGUMENT, "above this server's cap of 5 s"),
        ({"rollouts": 10**6}, grpc.StatusCode.INVALID_ARGUMENT, "above this server's cap of 1000"),
        ({"budget_seconds": -1.0}, grpc.StatusCode.INVALID_ARGUMENT, "cannot be negative"),
        ({"version": 99}, grpc.StatusCode.OUT_OF_RANGE, "version 99 is out of range"),
        ({"version": 1}, grpc.StatusCode.FAILED_PRECONDITION, "no decision is pending at version 1"),
    ],
)
def test_bad_requests_are_refused_with_their_reason(
    served: tuple[ThreadedServer, str, dict[str, str]], fields: dict[str, object], code: grpc.StatusCode, message: str
) -> None:
    server, _, keys = served
    channel, stub = stub_for(server.address)
    with channel:
        error = refused(stub, keys["p1"], **fields)
        assert error.code() is code and message in (error.details() or "")
    with pytest.raises(grpc.RpcError) as wrong:
        analyse(stub_for(server.address)[1], "not-a-token")
    assert wrong.value.code() in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.INVALID_ARGUMENT)


def test_a_seat_cannot_analyse_another_seats_decision(tmp_path: Path) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, players=2, seed=4)
            keys, game = tokens(access), access.game_id
            view = stub.GetView(pb.GetViewRequest(game_id=game, token=keys["referee"])).view
            deciding = view.waiting_for
            other = "p2" if deciding == "p1" else "p1"
            error = refused(stub, keys[other])
            assert error.code() is grpc.StatusCode.PERMISSION_DENIED
            assert f"is {deciding}'s: a seat may analyse its own decisions only" in (error.details() or "")
            assert analyse(stub, keys[deciding], rollouts=2).knowledge == deciding


def test_one_tokens_analyses_are_limited_and_the_others_go_on(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    game, keys = lethal_game(db)
    _, other = lethal_game(db)
    limits = Limits(analysis_work_per_second=0.0001, analysis_work_burst=0.01, analyses_at_once=1)
    with threaded_server(store_env(db=db), limits=limits) as server:
        channel, stub = stub_for(server.address)
        with channel:
            analyse(stub, keys["p1"], rollouts=1)  # within the burst: charged with what it took
            error = refused(stub, keys["p1"], rollouts=1)
            assert error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "this token used its share of analysis" in (error.details() or "")
            # another token is not held back by it, and the game itself goes on
            analyse(stub, other["p1"], rollouts=1)
            view = stub.GetView(pb.GetViewRequest(game_id=game, token=keys["p1"])).view
            assert view.decision.seat == "p1"

            # one analysis at a time in this server: a second one while it runs is refused
            running = threading.Thread(target=analyse, args=(stub, keys["referee"]), kwargs={"budget_seconds": 1.0})
            running.start()
            try:
                for _ in range(100):
                    error = refused(stub, other["referee"], rollouts=1) if server.servicer.gate._analyses else None
                    if error is not None:
                        break
                    threading.Event().wait(0.02)
                assert error is not None and error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "running 1 analyses already" in (error.details() or "")
            finally:
                running.join(30)


def test_the_terminal_v_key_asks_the_server(served: tuple[ThreadedServer, str, dict[str, str]]) -> None:
    from tools.rpc_client import play_remote

    server, _, keys = served
    typed = iter(["v 0.5", "q"])
    out = io.StringIO()
    play_remote(server.address, keys["p1"], read=lambda prompt: next(typed), out=out)
    text = out.getvalue()
    assert "chance of winning after each answer, from what p1 knows" in text
    assert re.search(r"type 2,3\s+Gimli \(p1\) \+ Legolas \(p1\)\s+100%", text), text


def test_once_the_game_is_over_anyone_analyses_any_decision_with_the_true_cards(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    game, keys = lethal_game(db)
    with threaded_server(store_env(db=db)) as server:
        channel, stub = stub_for(server.address)
        with channel:
            view = stub.GetView(pb.GetViewRequest(game_id=game, token=keys["p1"])).view
            lethal = [o.id for o in view.decision.options if o.label in ("Gimli (p1)", "Legolas (p1)")]
            stub.SubmitDecision(
                pb.SubmitDecisionRequest(
                    token=keys["p1"], decision_id=view.decision.id, choice=lethal, command_id="the-attack"
                )
            )
            assert stub.GetView(pb.GetViewRequest(token=keys["spectator"])).view.over
            found = analyse(stub, keys["spectator"], version=view.decision.id, true_cards=True, rollouts=1)
            assert found.knowledge == "referee" and found.options[0].value == 1.0
            error = refused(stub, keys["spectator"])
            assert error.code() is grpc.StatusCode.FAILED_PRECONDITION  # nothing is pending once it is over
