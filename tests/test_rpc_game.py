"""Whole games over gRPC, against a real server on a loopback port (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import grpc
import msgspec
import pytest

from domain.kernel.events import DecisionAnswered
from domain.verify import verify
from projections.lcg import view as lcg_view
from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer, configure_logging
from tests.rpc_support import create, pg_env, postgres_schema, self_signed, stub_for, threaded_server, tokens
from tools.rpc_client import play_remote, run_bots_async


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ThreadedServer]:
    if request.param == "sqlite":
        with threaded_server(store_env(db=str(tmp_path / "games.db"))) as running:
            yield running
    else:
        with postgres_schema() as schema, threaded_server(pg_env(schema)) as running:
            yield running


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[ThreadedServer]:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as running:
        yield running


def test_bot_clients_play_whole_games(server: ThreadedServer) -> None:
    """Passage through Mirkwood played to the end by bot clients, every seat its own client."""
    report = asyncio.run(
        run_bots_async([server.address], games=2, concurrency=2, bot="greedy", seed=7, players=2, progress=False)
    )
    assert not report.errors, report.text()
    assert report.finished == 2 and sum(report.results.values()) == 2
    assert report.decisions > 50
    channel, stub = stub_for(server.address)
    with channel:
        listed = stub.ListGames(pb.ListGamesRequest()).games
        assert len(listed) == 2 and all(g.over and g.seats == ["p1", "p2"] for g in listed)
        for game in listed:
            # every decision answered over the wire is in the store, in order, once, and re-executes
            history = server.app.history(UUID(game.game_id))
            assert [e.seq for e in history] == list(range(1, game.version + 1))
            assert sum(isinstance(e, DecisionAnswered) for e in history) > 20
            assert verify(server.app.rules_of(UUID(game.game_id)), history).ok


@pytest.mark.parametrize("scenario", ["journey-along-the-anduin", "escape-from-dol-guldur", "the-lonely-mountain"])
def test_core_scenarios_over_grpc(sqlite_server: ThreadedServer, scenario: str) -> None:
    """Journey Along the Anduin and Escape from Dol Guldur played to the end over the wire by bot
    clients; each seat's view shows the scenario's zones (the prisoner, the Nazgûl set aside)."""
    report = asyncio.run(
        run_bots_async(
            [sqlite_server.address],
            games=1,
            concurrency=1,
            bot="greedy",
            seed=11,
            players=2,
            progress=False,
            scenario=scenario,
        )
    )
    assert not report.errors, report.text()
    assert report.finished == 1
    channel, stub = stub_for(sqlite_server.address)
    with channel:
        (listed,) = stub.ListGames(pb.ListGamesRequest()).games
        assert listed.over
        game_id = UUID(listed.game_id)
        history = sqlite_server.app.history(game_id)
        assert verify(sqlite_server.app.rules_of(game_id), history).ok
        revealed = [e for e in history if type(e).__name__ == "QuestStageRevealed"]
        first_stage = sqlite_server.app.state_at(game_id, revealed[0].seq).cards[revealed[0].card].code
        first_stages = {"journey-along-the-anduin": "core-126", "the-lonely-mountain": "otd-071"}
        assert first_stage == first_stages.get(scenario, "core-123")
        if scenario == "escape-from-dol-guldur":
            round_one = next(e.seq for e in history if type(e).__name__ == "RoundBegan")
            setup_view = lcg_view(sqlite_server.app.state_at(game_id, round_one), "p1")
            assert [c.name for c in setup_view.set_aside] == ["Nazgûl of Dol Guldur"]
            assert sum(len(p.prisoner) for p in setup_view.players) == 1
        if scenario == "the-lonely-mountain":
            round_one = next(e.seq for e in history if type(e).__name__ == "RoundBegan")
            setup_view = lcg_view(sqlite_server.app.state_at(game_id, round_one), "p2")
            assert setup_view.treasures == 5
            assert "Bilbo Baggins" in [c.name for p in setup_view.players for c in p.heroes]


@pytest.mark.parametrize("scenario", ["two-player-duel", "trilogy"])
def test_war_of_the_ring_over_grpc(sqlite_server: ThreadedServer, scenario: str) -> None:
    """War of the Ring played to the end over the wire, each deck's seat its own bot client."""
    report = asyncio.run(
        run_bots_async(
            [sqlite_server.address],
            games=1,
            concurrency=1,
            bot="greedy",
            seed=3,
            progress=False,
            game="wotr",
            scenario=scenario,
        )
    )
    assert not report.errors, report.text()
    assert report.finished == 1
    channel, stub = stub_for(sqlite_server.address)
    with channel:
        (listed,) = stub.ListGames(pb.ListGamesRequest()).games
        assert listed.game == "wotr" and listed.over
        history = sqlite_server.app.history(UUID(listed.game_id))
        assert verify(sqlite_server.app.rules_of(UUID(listed.game_id)), history).ok
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateGame(pb.CreateGameRequest(game="wotr", scenario="no-such-scenario"))
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "no-such-scenario" in (refused.value.details() or "")


def test_play_view_submit_history_explain_fork_verify(server: ThreadedServer) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=2, seed=11)
        keys = tokens(access)
        assert access.version > 1 and {s.seat for s in access.seats} == {"p1", "p2"}
        for token in keys.values():
            assert len(token.split(".", 1)[1]) >= 43  # 256 random bits, URL-safe base64
        # the seat that must decide sees its decision; the other sees only who decides
        referee = stub.GetView(pb.GetViewRequest(game_id=access.game_id, token=keys["referee"])).view
        seat = referee.waiting_for
        other = "p2" if seat == "p1" else "p1"
        mine = stub.GetView(pb.GetViewRequest(game_id=access.game_id, token=keys[seat])).view
        theirs = stub.GetView(pb.GetViewRequest(game_id=access.game_id, token=keys[other])).view
        assert mine.HasField("decision") and mine.decision.seat == seat and mine.decision.options
        assert not theirs.HasField("decision") and theirs.waiting_for == seat
        assert json.loads(theirs.table)["players"][0 if seat == "p1" else 1].get("hand") is None
        # answer it; the response has the new version and the seat's events
        result = stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                game_id=access.game_id,
                token=keys[seat],
                expected_version=mine.version,
                decision_id=mine.decision.id,
                choice=[mine.decision.options[0].id] if mine.decision.kind == pb.KIND_ONE else [],
                command_id="first",
                include_view=True,
            )
        )
        assert result.version > mine.version and result.events[0].seq == mine.version + 1
        assert result.events[0].type == "DecisionAnswered" and not result.replayed
        assert result.view.version == result.version and result.view.viewer == seat
        # time travel: a seat sees an old version as it saw it then
        old = stub.GetView(pb.GetViewRequest(game_id=access.game_id, token=keys[other], version=5)).view
        expected = lcg_view(server.app.state_at(UUID(access.game_id), 5), other)  # type: ignore[arg-type]
        assert old.table == msgspec.json.encode(expected)
        # history with causes
        history = stub.GetHistory(pb.GetHistoryRequest(game_id=access.game_id, token=keys[other])).events
        assert [e.seq for e in history] == list(range(1, result.version + 1))
        assert all(e.cause.rule for e in history[1:]) and not any(e.hash for e in history)
        full = stub.GetHistory(pb.GetHistoryRequest(game_id=access.game_id, token=keys["referee"])).events
        assert all(e.hash for e in full)
        # explain: as the referee and as a seat
        ask = pb.ExplainEventRequest(game_id=access.game_id, token=keys["referee"], seq=result.version)
        why = stub.ExplainEvent(ask)
        assert why.because.seq == result.version and why.because.rule
        ask.token = keys[other]
        why_seat = stub.ExplainEvent(ask)
        assert why_seat.because.seq == result.version
        # fork: referee only while the game is on; the fork has new tokens and the first events
        with pytest.raises(grpc.RpcError) as denied:
            stub.ForkGame(pb.ForkGameRequest(game_id=access.game_id, token=keys[seat], at=10))
        assert denied.value.code() is grpc.StatusCode.PERMISSION_DENIED
        fork = stub.ForkGame(pb.ForkGameRequest(game_id=access.game_id, token=keys["referee"], at=10))
        assert fork.forked_from == access.game_id and fork.access.game_id != access.game_id
        fork_keys = tokens(fork.access)
        assert set(fork_keys.values()).isdisjoint(keys.values())
        forked = stub.GetHistory(pb.GetHistoryRequest(game_id=fork.access.game_id, token=fork_keys["referee"])).events
        assert [e.hash for e in forked[:10]] == [e.hash for e in full[:10]]
        verdict = stub.VerifyGame(pb.VerifyGameRequest(game_id=access.game_id, token=keys["spectator"]))
        assert verdict.ok and verdict.events == result.version


def test_same_command_id_is_applied_once(sqlite_server: ThreadedServer) -> None:
    channel, stub = stub_for(sqlite_server.address)
    with channel:
        access = create(stub, players=1, seed=3)
        token = access.seats[0].token
        view = stub.GetView(pb.GetViewRequest(token=token)).view
        request = pb.SubmitDecisionRequest(
            token=token,
            expected_version=view.version,
            decision_id=view.decision.id,
            choice=[view.decision.options[0].id],
            command_id="cmd-1",
        )
        first = stub.SubmitDecision(request)
        again = stub.SubmitDecision(request)
        assert again.replayed and not first.replayed
        assert again.version == first.version and list(again.events) == list(first.events)
        version = stub.GetView(pb.GetViewRequest(token=token)).view.version
        assert version == first.version, "the retry appended events"
        # still the first result after the game has moved on
        nxt = stub.GetView(pb.GetViewRequest(token=token)).view
        stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                token=token,
                expected_version=nxt.version,
                decision_id=nxt.decision.id,
                choice=_legal(nxt.decision),
                command_id="cmd-2",
            )
        )
        late = stub.SubmitDecision(request)
        assert late.replayed and late.version == first.version


def _legal(decision: pb.Decision) -> list[str]:
    import random

    from bots import random_choice
    from service.rpc.convert import decision_from_pb

    return list(random_choice(decision_from_pb(decision), random.Random(0)))


def test_watch_streams_and_resumes_without_gap_or_duplicate(sqlite_server: ThreadedServer) -> None:
    channel, stub = stub_for(sqlite_server.address)
    with channel:
        access = create(stub, players=1, seed=5)
        token = access.seats[0].token
        seen: list[int] = []
        stream = stub.Watch(pb.WatchRequest(token=token, from_version=0))
        first = next(stream)
        seen += [e.seq for e in first.events]
        assert first.view.version == access.version and seen == list(range(1, access.version + 1))
        for n in range(6):  # answer some decisions while watching
            view = stub.GetView(pb.GetViewRequest(token=token)).view
            stub.SubmitDecision(
                pb.SubmitDecisionRequest(
                    token=token,
                    expected_version=view.version,
                    decision_id=view.decision.id,
                    choice=_legal(view.decision),
                    command_id=f"w{n}",
                )
            )
            update = next(stream)
            seen += [e.seq for e in update.events]
            if n == 2:
                stream.cancel()  # the client goes away ...
                stream = stub.Watch(pb.WatchRequest(token=token, from_version=seen[-1]))  # ... and comes back
                resumed = next(stream)
                assert resumed.view.version == seen[-1] and not resumed.events
        stream.cancel()
        latest = stub.GetView(pb.GetViewRequest(token=token)).view.version
        assert seen == list(range(1, latest + 1)), "the stream has a gap or a duplicate"


def test_tls_and_terminal_play_over_grpc(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    env = store_env(db=str(tmp_path / "g.db"))
    with threaded_server(env, tls_cert=str(cert), tls_key=str(key)) as server:
        with grpc.secure_channel(server.address, grpc.ssl_channel_credentials(cert.read_bytes())) as ch:
            from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc

            access = create(pb_grpc.GameServiceStub(ch), players=1)
        with grpc.insecure_channel(server.address) as plain, pytest.raises(grpc.RpcError):
            create(pb_grpc.GameServiceStub(plain), players=1)
        answers = iter(["1", "1", "1", "q"])
        out = io.StringIO()
        outcome = play_remote(
            server.address, access.seats[0].token, tls_ca=str(cert), read=lambda _: next(answers), out=out
        )
        assert outcome is None
        text = out.getvalue()
        assert "viewing as p1" in text and "p1:" in text and "saved" in text
        assert server.app.version(UUID(access.game_id)) > access.version


def test_each_call_is_logged_as_json(sqlite_server: ThreadedServer) -> None:
    stream = io.StringIO()
    configure_logging("info", stream)
    try:
        channel, stub = stub_for(sqlite_server.address)
        with channel:
            access = create(stub, players=1)
            view = stub.GetView(pb.GetViewRequest(token=access.seats[0].token)).view
            with pytest.raises(grpc.RpcError):
                stub.SubmitDecision(
                    pb.SubmitDecisionRequest(
                        token=access.seats[0].token,
                        expected_version=view.version - 1,
                        decision_id=view.decision.id,
                        command_id="x",
                    )
                )
    finally:
        logging.getLogger("westmarch").handlers.clear()
    records = [json.loads(line) for line in stream.getvalue().splitlines()]
    calls = {r["rpc"]: r for r in records if r.get("msg") == "call"}
    assert calls["CreateGame"]["outcome"] == "OK" and calls["CreateGame"]["game"] == access.game_id
    submit = calls["SubmitDecision"]
    assert submit["outcome"] == "ABORTED" and submit["seat"] == "p1" and submit["game"] == access.game_id
    assert isinstance(submit["ms"], float) and calls["GetView"]["version"] == view.version


def test_tokens_for_a_game_started_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tools.cli import main

    db = str(tmp_path / "games.db")
    assert main(["new", "lcg", "--players", "2", "--db", db]) == 0
    game_id = capsys.readouterr().out.strip()
    assert main(["tokens", game_id, "--db", db]) == 0
    issued = dict(line.split() for line in capsys.readouterr().out.splitlines()[1:])
    assert set(issued) == {"p1", "p2", "spectator", "referee"}
    assert main(["tokens", game_id, "--db", db]) == 2
    assert "already has tokens" in capsys.readouterr().err
    with threaded_server(store_env(db=db)) as running:
        channel, stub = stub_for(running.address)
        with channel:
            view = stub.GetView(pb.GetViewRequest(token=issued["p1"])).view
            assert view.game_id == game_id and view.viewer == "p1"
            with pytest.raises(grpc.RpcError) as refused:
                stub.GetView(pb.GetViewRequest(token=issued["p1"] + "x"))
            assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
