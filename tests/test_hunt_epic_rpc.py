"""Epic Multiplayer over gRPC: CreateEpic and GetEpic beside GameService, and groups played
in parallel through two server processes on PostgreSQL.

Whatever the interleaving, the organizer's count of each group equals the sum of that group's
stored log (no contribution lost or counted twice), and every group's game verifies alone.
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import cast
from uuid import UUID

import grpc
import pytest

from bots import random_choice
from domain.lcg import epic as organizer
from domain.lcg import events as ev
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.verify import verify
from service.app import Westmarch, store_env
from service.organizer import Organizer
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import epic_pb2 as epb
from service.rpc.gen.westmarch.v1 import epic_pb2_grpc as epb_grpc
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer
from tests.conftest import POSTGRES_DSN
from tests.rpc_support import ServeProcess, pg_env, postgres_schema, stub_for, threaded_server


def _play_group(address: str, access: pb.GameAccess, seed: int, decisions: int) -> None:
    channel, stub = stub_for(address)
    tokens = {s.seat: s.token for s in access.seats}
    rng = random.Random(seed)
    with channel:
        for n in range(decisions):
            view = stub.GetView(pb.GetViewRequest(token=access.referee_token)).view
            if view.over:
                return
            decision = decision_from_pb(view.decision)
            request = pb.SubmitDecisionRequest(
                token=tokens[decision.seat],
                decision_id=decision.id,
                choice=list(random_choice(decision, rng)),
                command_id=f"s{seed}-{n}",
            )
            try:
                stub.SubmitDecision(request)
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.ABORTED:  # told something meanwhile: look again
                    raise


def _followed(app: Westmarch) -> Organizer:
    return Organizer(app, lambda game_id: cast(LcgState, app.state_at(game_id)))


def _check_counts(app: Westmarch, epic_id: UUID) -> organizer.EpicState:
    """The organizer's count of each group equals the group's log up to the version its
    tracking record says it processed; no group event counted twice."""
    tracking = _followed(app)
    stored = [app.mapper.to_domain_event(s) for s in app.recorder.select_events(epic_id)]
    state = organizer.fold_epic(stored)
    sources = [(e.group, e.source) for e in stored if isinstance(e, organizer.ContributionCounted)]
    assert len(sources) == len(set(sources)), "a group event was counted twice"
    for group in state.groups:
        events = app.history(group.game_id)
        game = cast(LcgState, app.state_at(group.game_id))
        through = tracking.followed(group.game_id)
        own = {"progress": 0, "damage": 0}
        for e in events:
            if e.seq > through:
                continue
            if isinstance(e, ev.ProgressPlaced) and game.cards[e.card].code == "thftd-004":
                own["progress"] += e.amount
            if isinstance(e, ev.DamageDealt) and game.cards[e.card].code == "thftd-013":
                own["damage"] += e.amount
        assert state.contributed[group.game_id] == own, "the organizer's count differs from the group's log"
        assert verify(LCG, events).ok
    return state


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    folder: Path = tmp_path_factory.mktemp("epic-rpc")
    with threaded_server(store_env(db=str(folder / "games.db"))) as running:
        yield running


def test_create_and_follow_an_epic_event_over_grpc(server: ThreadedServer) -> None:
    channel = grpc.insecure_channel(server.address)
    epics = epb_grpc.EpicServiceStub(channel)
    with channel:
        created = epics.CreateEpic(epb.CreateEpicRequest(groups=[2, 1], difficulties=["easy", "standard"], seed=21))
        assert dict(created.totals) == {"progress": 24, "damage": 45}
        assert [len(g.seats) for g in created.groups] == [2, 1]
        threads = [
            threading.Thread(target=_play_group, args=(server.address, g, 40 + i, 120))
            for i, g in enumerate(created.groups)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        sheet = epics.GetEpic(epb.GetEpicRequest(organizer_token=created.organizer_token))
        assert sheet.epic_id == created.epic_id and sheet.players == 3
        assert [g.difficulty for g in sheet.groups] == ["easy", "standard"], "each group chooses its own difficulty"
        assert [g.game_id for g in sheet.groups] == [g.game_id for g in created.groups]
        with pytest.raises(grpc.RpcError) as refused:
            epics.GetEpic(epb.GetEpicRequest(organizer_token=created.groups[0].referee_token))
        assert refused.value.code() in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.NOT_FOUND)
        with pytest.raises(grpc.RpcError) as bad:
            epics.CreateEpic(epb.CreateEpicRequest(groups=[5]))
        assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert server.app is not None
    state = _check_counts(server.app, UUID(created.epic_id))
    assert dict(sheet.counted) == {k: state.total(k) for k in state.totals}
    assert state.total("progress") > 0, "no progress was placed: the test shows nothing shared"


def test_groups_in_parallel_through_two_processes_on_postgresql() -> None:
    with postgres_schema() as schema:
        env = {"POSTGRES_SCHEMA": schema}
        args = ["--postgres", POSTGRES_DSN]
        with ServeProcess(args, env) as a, ServeProcess(args, env) as b:
            channel = grpc.insecure_channel(a.address)
            with channel:
                created = epb_grpc.EpicServiceStub(channel).CreateEpic(
                    epb.CreateEpicRequest(groups=[1, 1, 2], difficulty="easy", seed=5)
                )
            addresses = [a.address, b.address, a.address]
            threads = [
                threading.Thread(target=_play_group, args=(addresses[i], g, 50 + i, 90))
                for i, g in enumerate(created.groups)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            channel = grpc.insecure_channel(b.address)
            with channel:
                sheet = epb_grpc.EpicServiceStub(channel).GetEpic(
                    epb.GetEpicRequest(organizer_token=created.organizer_token)
                )
        app = Westmarch(pg_env(schema))
        state = _check_counts(app, UUID(created.epic_id))
        assert dict(sheet.counted) == {k: state.total(k) for k in state.totals}
        assert state.total("progress") > 0, "no progress was placed: the test shows nothing shared"


def _play_until_killed(address: str, access: pb.GameAccess, seed: int, stop: threading.Event) -> None:
    """Play on until the server goes away (its process is killed)."""
    try:
        _play_group(address, access, seed, 10_000 if not stop.is_set() else 0)
    except grpc.RpcError as error:
        assert error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN)


def test_a_server_killed_mid_event_loses_nothing() -> None:
    with postgres_schema() as schema:
        env = {"POSTGRES_SCHEMA": schema}
        args = ["--postgres", POSTGRES_DSN]
        with ServeProcess(args, env) as a:
            channel = grpc.insecure_channel(a.address)
            with channel:
                created = epb_grpc.EpicServiceStub(channel).CreateEpic(
                    epb.CreateEpicRequest(groups=[1, 1], difficulty="easy", seed=9)
                )
            stop = threading.Event()
            thread = threading.Thread(target=_play_until_killed, args=(a.address, created.groups[0], 60, stop))
            thread.start()
            thread.join(2.5)
            a.kill()  # SIGKILL while the group is submitting
            stop.set()
            thread.join(30)
        with ServeProcess(args, env) as b:
            for i, group in enumerate(created.groups):
                _play_group(b.address, group, 70 + i, 60)
            channel = grpc.insecure_channel(b.address)
            with channel:
                sheet = epb_grpc.EpicServiceStub(channel).GetEpic(
                    epb.GetEpicRequest(organizer_token=created.organizer_token)
                )
        app = Westmarch(pg_env(schema))
        state = _check_counts(app, UUID(created.epic_id))
        assert dict(sheet.counted) == {k: state.total(k) for k in state.totals}
        assert all(_followed(app).followed(g.game_id) > 0 for g in state.groups)


def test_the_organizer_watches_the_sheet_change(server: ThreadedServer) -> None:
    channel = grpc.insecure_channel(server.address)
    epics = epb_grpc.EpicServiceStub(channel)
    with channel:
        created = epics.CreateEpic(epb.CreateEpicRequest(groups=[1, 1], difficulty="easy", seed=33))
        stream = epics.WatchEpic(epb.WatchEpicRequest(organizer_token=created.organizer_token))
        seen: list[epb.WatchEpicResponse] = []

        def watch() -> None:
            try:
                seen.extend(stream)
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.CANCELLED

        watcher = threading.Thread(target=watch)
        watcher.start()
        for i, group in enumerate(created.groups):
            _play_group(server.address, group, 80 + i, 3000)
        watcher.join(20)
        if watcher.is_alive():
            stream.cancel()
            watcher.join(5)
    versions = [s.version for s in seen]
    assert len(versions) >= 2 and versions == sorted(versions), versions
    assert all(a != b for a, b in itertools.pairwise(seen)), "each sheet sent differs from the last"
    assert len(set(versions)) >= 2, "the counts changed while watching"
    assert all(g.result for g in seen[-1].groups), "the stream ends once every group's game is over"
    assert server.app is not None
    state = _check_counts(server.app, UUID(created.epic_id))
    assert dict(seen[-1].counted) == {k: state.total(k) for k in state.totals}
