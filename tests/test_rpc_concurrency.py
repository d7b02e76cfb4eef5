"""Several server processes on one PostgreSQL database, and a server killed under load.

Two ``westmarch serve`` processes share a fresh schema of the local PostgreSQL. Clients race
on one game through both: every command either wins (and its events are saved once) or gets
ABORTED; the stored stream has no gap and no duplicate, equals the fold of the accepted
commands, and a watcher on the other process sees all of it. A server killed with SIGKILL
while clients submit loses no command it acknowledged.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from uuid import UUID

import grpc
import msgspec
import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.events import NO_CAUSE, DecisionAnswered
from domain.lcg.ruleset import LCG
from service.app import Westmarch
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from tests.conftest import POSTGRES_DSN
from tests.rpc_support import ServeProcess, create, pg_env, postgres_schema, stub_for, tokens


@pytest.fixture
def schema() -> Iterator[str]:
    with postgres_schema() as name:
        yield name


def _pg_args(schema: str) -> tuple[list[str], dict[str, str]]:
    return ["--postgres", POSTGRES_DSN], {"POSTGRES_SCHEMA": schema}


def test_clients_racing_through_two_processes(schema: str) -> None:
    args, env = _pg_args(schema)
    with ServeProcess(args, env) as a, ServeProcess(args, env) as b:
        channels = [stub_for(a.address), stub_for(b.address)]
        stubs = [s for _, s in channels]
        access = create(stubs[0], players=1, seed=8, difficulty="easy")
        token = access.seats[0].token
        watch = stubs[1].Watch(pb.WatchRequest(token=token, from_version=0))  # on the other process
        watched: list[int] = []
        done_watching = threading.Event()

        def follow() -> None:
            try:
                for update in watch:
                    watched.extend(e.seq for e in update.events)
                    if update.view.over:
                        break
            except grpc.RpcError:
                pass
            done_watching.set()

        threading.Thread(target=follow, daemon=True).start()
        accepted: list[tuple[pb.SubmitDecisionRequest, pb.SubmitDecisionResponse]] = []
        refused: list[tuple[grpc.StatusCode, str]] = []
        lock = threading.Lock()
        stop = time.monotonic() + 8

        def client(n: int) -> None:
            rng = random.Random(n)
            stub = stubs[n % 2]
            while time.monotonic() < stop and len(accepted) < 30:
                view = stub.GetView(pb.GetViewRequest(token=token)).view
                if view.over:
                    return
                decision = decision_from_pb(view.decision)
                request = pb.SubmitDecisionRequest(
                    token=token,
                    expected_version=view.version if rng.random() < 0.8 else 0,
                    decision_id=decision.id,
                    choice=list(random_choice(decision, rng)),
                    command_id=uuid.uuid4().hex,
                )
                try:
                    response = stubs[rng.randrange(2)].SubmitDecision(request)
                except grpc.RpcError as error:
                    with lock:
                        refused.append((error.code(), error.details() or ""))
                    continue
                with lock:
                    accepted.append((request, response))

        with ThreadPoolExecutor(8) as pool:
            list(pool.map(client, range(8)))
        # the same command id sent to both processes at once is applied once
        view = stubs[0].GetView(pb.GetViewRequest(token=token)).view
        twice: list[pb.SubmitDecisionResponse] = []
        if not view.over:
            decision = decision_from_pb(view.decision)
            request = pb.SubmitDecisionRequest(
                token=token,
                expected_version=view.version,
                decision_id=decision.id,
                choice=list(random_choice(decision, random.Random(0))),
                command_id="sent-twice",
            )
            with ThreadPoolExecutor(6) as pool:
                results = list(pool.map(lambda i: _try(stubs[i % 2], request), range(6)))
            twice = [r for r in results if isinstance(r, pb.SubmitDecisionResponse)]
            assert twice and len({r.version for r in twice}) == 1, results
            assert sum(not r.replayed for r in twice) <= 1
            assert all(isinstance(r, pb.SubmitDecisionResponse) or r is grpc.StatusCode.ABORTED for r in results)
            accepted.append((request, twice[0]))
        over = [(c, d) for c, d in refused if c is grpc.StatusCode.FAILED_PRECONDITION and "game is over" in d]
        assert all(c is grpc.StatusCode.ABORTED for c, _ in refused if (c, _) not in over), refused
        assert any(c is grpc.StatusCode.ABORTED for c, _ in refused), "the clients never raced"
        assert len(accepted) >= 10
        # the stream: no gap, no duplicate, and exactly the accepted commands, folded
        app = Westmarch(pg_env(schema))
        try:
            game_id = UUID(access.game_id)
            history = app.history(game_id)
            assert [e.seq for e in history] == list(range(1, len(history) + 1))
            answers = [e for e in history if isinstance(e, DecisionAnswered)]
            by_first = sorted(accepted, key=lambda pair: pair[1].events[0].seq)
            assert len(answers) == len(by_first), "an accepted command is missing or one was applied twice"
            start = access.version
            for (request, response), answer in zip(by_first, answers, strict=True):
                assert response.events[0].seq == start + 1 == answer.seq
                assert (answer.decision, answer.choice) == (request.decision_id, tuple(request.choice))
                start = response.version
            assert start == len(history)
            created = msgspec.structs.replace(history[0], seq=0, cause=NO_CAUSE, flow=None, draws=0, hash="")
            replay = Game.start(uuid.uuid4(), LCG, created)
            for request, _ in by_first:
                replay.answer("p1", request.decision_id, tuple(request.choice))
            assert [LCG.codec.encode(e) for e in replay.pending_events] == [LCG.codec.encode(e) for e in history]
        finally:
            app.close()
        deadline = time.monotonic() + 10
        while len(watched) < len(history) and not done_watching.is_set() and time.monotonic() < deadline:
            time.sleep(0.05)
        watch.cancel()
        for channel, _ in channels:
            channel.close()
        assert watched == list(range(1, len(watched) + 1)), "the watcher saw a gap or a duplicate"
        assert len(watched) == len(history), "the watcher on the other process missed commands"


def test_each_process_views_what_the_other_saved(schema: str) -> None:
    """A process that keeps a game in memory still shows the version another process saved."""
    args, env = _pg_args(schema)
    with ServeProcess(args, env) as a, ServeProcess(args, env) as b:
        (channel_a, stub_a), (channel_b, stub_b) = stub_for(a.address), stub_for(b.address)
        with channel_a, channel_b:
            access = create(stub_a, players=1, seed=12)
            token = access.seats[0].token
            rng = random.Random(12)
            for n in range(12):
                here, there = (stub_a, stub_b) if n % 2 else (stub_b, stub_a)
                seen = here.GetView(pb.GetViewRequest(token=token)).view  # kept by ``here`` from now on
                decision = decision_from_pb(seen.decision)
                saved = there.SubmitDecision(
                    pb.SubmitDecisionRequest(
                        token=token,
                        expected_version=seen.version,
                        decision_id=decision.id,
                        choice=list(random_choice(decision, rng)),
                        command_id=f"c{n}",
                    )
                )
                after = here.GetView(pb.GetViewRequest(token=token)).view
                assert after.version == saved.version > seen.version
                assert after.decision.id == saved.decision.id


def test_a_process_answers_on_a_game_another_process_moved_on(schema: str) -> None:
    """Each process holds the game as it last saved it and reads nothing before answering:
    an answer to the game as the other process left it is answered there after one reload,
    and an answer to the game as held, now stale, is refused and saves nothing."""
    args, env = _pg_args(schema)
    with ServeProcess(args, env) as a, ServeProcess(args, env) as b:
        (channel_a, stub_a), (channel_b, stub_b) = stub_for(a.address), stub_for(b.address)
        with channel_a, channel_b:
            access = create(stub_a, players=1, seed=21)
            token = access.seats[0].token
            rng = random.Random(21)
            view = stub_b.GetView(pb.GetViewRequest(token=token)).view  # both processes hold it now
            decision, version = view.decision, view.version
            for n in range(10):
                stub = (stub_a, stub_b)[n % 2]
                d = decision_from_pb(decision)
                request = pb.SubmitDecisionRequest(
                    token=token,
                    expected_version=version,
                    decision_id=d.id,
                    choice=list(random_choice(d, rng)),
                    command_id=f"c{n}",
                )
                saved = stub.SubmitDecision(request)
                assert not saved.replayed and saved.events[0].seq == version + 1
                decision, version = saved.decision, saved.version
            # process a holds the game as it saved it before b's last answer: the same
            # answer again (a new command) fits a's game, and is refused
            stale = pb.SubmitDecisionRequest()
            stale.CopyFrom(request)
            stale.command_id = "fits-the-stale-game"
            with pytest.raises(grpc.RpcError) as caught:
                stub_a.SubmitDecision(stale)
            assert caught.value.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION)
            latest = stub_a.GetView(pb.GetViewRequest(token=token)).view
            assert latest.version == version


def _try(stub: object, request: pb.SubmitDecisionRequest) -> pb.SubmitDecisionResponse | grpc.StatusCode:
    try:
        response: pb.SubmitDecisionResponse = stub.SubmitDecision(request)  # type: ignore[attr-defined]
        return response
    except grpc.RpcError as error:
        return error.code()


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_sigkill_under_load_loses_no_acknowledged_command(store: str, tmp_path: Path) -> None:
    if store == "sqlite":
        args, env = ["--db", str(tmp_path / "games.db")], {}
        with _KilledUnderLoad(args, env) as check:
            check()
    else:
        with postgres_schema() as schema:
            args, env = _pg_args(schema)
            with _KilledUnderLoad(args, env) as check:
                check()


class _KilledUnderLoad:
    """Clients submit to several games; the server is killed; a new one must know every ack."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.args, self.env = args, env

    def __enter__(self) -> object:
        acknowledged: list[tuple[pb.SubmitDecisionRequest, pb.SubmitDecisionResponse]] = []
        lock = threading.Lock()
        server = ServeProcess(self.args, self.env)
        channel, stub = stub_for(server.address)
        games = [tokens(create(stub, players=1, seed=30 + i))["p1"] for i in range(4)]
        killed = threading.Event()

        def client(token: str) -> None:
            rng = random.Random(token)
            while not killed.is_set():
                try:
                    view = stub.GetView(pb.GetViewRequest(token=token), timeout=5).view
                    if view.over:
                        return
                    decision = decision_from_pb(view.decision)
                    request = pb.SubmitDecisionRequest(
                        token=token,
                        expected_version=view.version,
                        decision_id=decision.id,
                        choice=list(random_choice(decision, rng)),
                        command_id=uuid.uuid4().hex,
                    )
                    response = stub.SubmitDecision(request, timeout=5)
                except grpc.RpcError:
                    return  # the server is gone: whatever was not acknowledged may be lost
                with lock:
                    acknowledged.append((request, response))

        threads = [threading.Thread(target=client, args=(t,), daemon=True) for t in games]
        for thread in threads:
            thread.start()
        time.sleep(1.5)
        server.kill()
        killed.set()
        for thread in threads:
            thread.join(10)
        channel.close()
        self.acknowledged, self.games = list(acknowledged), games

        def check() -> None:
            assert len(self.acknowledged) > 20, "too little load to mean anything"
            with ServeProcess(self.args, self.env) as again:
                channel, stub = stub_for(again.address)
                with channel:
                    for request, response in self.acknowledged:
                        retried = stub.SubmitDecision(request)
                        assert retried.replayed and retried.version == response.version
                        assert [e.seq for e in retried.events] == [e.seq for e in response.events]
                    for token in self.games:
                        verdict = stub.VerifyGame(pb.VerifyGameRequest(token=token))
                        assert verdict.ok, verdict.reason
                assert again.terminate() == 0, "no graceful exit on SIGTERM"

        return check

    def __exit__(self, *exc: object) -> None:
        pass
