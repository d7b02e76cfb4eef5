"""Taking back a decision over gRPC: with every seat's consent, or the referee's word; the
game it is taken back from stays whole, the new one folds, verifies and hides what it must."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import grpc
import pytest

from domain.kernel.events import DecisionRequested
from domain.kernel.runtime import fold
from domain.verify import verify
from service.app import store_env
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.server import ThreadedServer
from tests.rpc_support import create, pg_env, postgres_schema, stub_for, threaded_server, tokens
from tools.table import lineage


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadedServer]:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as running:
        yield running


def play(stub: pb_grpc.GameServiceStub, game: str, keys: dict[str, str], answers: int, rng: random.Random) -> None:
    for _ in range(answers):
        stub.SubmitDecision(random_answer(stub, game, keys, rng))


def random_answer(
    stub: pb_grpc.GameServiceStub, game: str, keys: dict[str, str], rng: random.Random
) -> pb.SubmitDecisionRequest:
    """A random answer to the pending decision, by the seat it waits for."""
    from bots import random_choice

    seat = stub.GetView(pb.GetViewRequest(game_id=game, token=keys["referee"])).view.waiting_for
    view = stub.GetView(pb.GetViewRequest(game_id=game, token=keys[seat])).view
    decision = decision_from_pb(view.decision)
    return pb.SubmitDecisionRequest(
        game_id=game,
        token=keys[seat],
        expected_version=view.version,
        decision_id=decision.id,
        choice=list(random_choice(decision, rng)),
        command_id=f"{game}-{view.version}",
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

        # the source is as it was; the branch is its prefix up to the question, then a fresh
        # seed and what no seat had seen drawn afresh, then the question asked again
        assert app.history(UUID(game)) == before
        events = app.history(UUID(branch))
        assert events[: done.at] == before[: done.at]
        tail = [type(e).__name__ for e in events[done.at :]]
        assert tail[0] == "Reseeded" and "CardsRedrawn" in tail and tail[-1] == "DecisionRequested", tail
        view = stub.GetView(pb.GetViewRequest(game_id=branch, token=keys["p1"])).view  # the same token
        assert view.HasField("decision") and view.decision.id == len(events) and view.decision.seat == "p1"
        asked = before[done.at - 1]
        assert isinstance(asked, DecisionRequested)
        assert [o.id for o in view.decision.options] == [o.id for o in asked.decision.options]
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
        assert view.HasField("decision") and view.decision.seat == "p2" and view.decision.id > done.at
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
    record = lineage(server.app, branch.id)
    assert record is not None and branch.version > record.at  # the question, asked again after the redraw


# -- a take-back cannot reveal an unseen card ------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def any_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ThreadedServer]:
    if request.param == "sqlite":
        with threaded_server(store_env(db=str(tmp_path / "games.db"))) as running:
            yield running
        return
    with postgres_schema() as schema, threaded_server(pg_env(schema)) as running:
        yield running


def _shown(events: list[Any]) -> list[int]:
    """The cards chance brought into sight: encounter cards revealed, cards drawn."""
    from domain.lcg import events as lcg_ev

    out: list[int] = []
    for event in events:
        if isinstance(event, lcg_ev.EncounterCardRevealed):
            out.append(event.card)
        elif isinstance(event, lcg_ev.CardsDrawn):
            out += event.cards
    return out


def _answer_showing_cards(
    stub: pb_grpc.GameServiceStub, app: Any, game: str, keys: dict[str, str], rng: random.Random
) -> pb.SubmitDecisionRequest:
    """Play until an answer brings three cards or more into sight (the last commit to the
    quest of four players reveals four encounter cards; the refresh before a round's
    resource phase draws four); that answer."""
    for _ in range(2000):
        request = random_answer(stub, game, keys, rng)
        answered = stub.SubmitDecision(request)
        if len(_shown(app.history(UUID(game), gt=request.expected_version, lte=answered.version))) >= 3:
            return request
    raise AssertionError("no answer brought three cards into sight")


def test_a_take_back_over_grpc_cannot_reveal_an_unseen_card(any_server: ThreadedServer) -> None:
    """Four seats; the answer that revealed (or drew) several cards is taken back on the
    referee's word and given again: what it shows is drawn afresh, not what it showed."""
    app = any_server.app
    channel, stub = stub_for(any_server.address)
    with channel:
        access = create(stub, players=4, seed=21)
        game, keys = access.game_id, tokens(access)
        answer = _answer_showing_cards(stub, app, game, keys, random.Random(21))
        before = app.history(UUID(game))
        seat = stub.GetView(pb.GetViewRequest(game_id=game, token=answer.token)).view.viewer
        done = take_back(stub, game, keys["referee"], seat)
        branch = done.game_id
        shown = _shown(before[done.at :])

        view = stub.GetView(pb.GetViewRequest(game_id=branch, token=answer.token)).view
        retried = stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                game_id=branch,
                token=answer.token,
                expected_version=view.version,
                decision_id=view.decision.id,
                choice=list(answer.choice),
                command_id="again",
            )
        )
        again = _shown(app.history(UUID(branch), gt=view.version, lte=retried.version))
        assert len(again) >= 3 and again[:3] != shown[:3], "the same answer showed the same cards again"

        assert stub.VerifyGame(pb.VerifyGameRequest(game_id=branch, token=keys["spectator"])).ok
        # the seats are told that it happened, never what: no seed, no card; the referee sees both
        for viewer in ("p1", seat, "spectator"):
            told = stub.GetHistory(pb.GetHistoryRequest(game_id=branch, token=keys[viewer], after_version=done.at))
            redrawn = [json.loads(e.body) for e in told.events if e.type in ("Reseeded", "CardsRedrawn")]
            assert redrawn and all(not {"seed", "cards", "places"} & set(body) for body in redrawn), redrawn
            assert all(not e.hash for e in told.events if e.type == "CardsRedrawn")
        told = stub.GetHistory(pb.GetHistoryRequest(game_id=branch, token=keys["referee"], after_version=done.at))
        assert "seed" in json.loads(told.events[0].body) and told.events[0].type == "Reseeded"
