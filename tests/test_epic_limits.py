"""Epic Multiplayer under the server's limits (service/rpc/limits.py, service/rpc/epic.py):
CreateEpic is bounded like CreateGame and in its groups; WatchEpic streams count as Watch
streams, and its watchers share their looks at the organizer's sheet. And the budget of
calls without a token per client address, beside the one per connection."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import pytest

from service.app import store_env
from service.epic import EpicService
from service.rpc.gen.westmarch.v1 import epic_pb2 as epb
from service.rpc.gen.westmarch.v1 import epic_pb2_grpc as epb_grpc
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.limits import Gate, LimitExceeded, Limits, address_of
from service.rpc.server import ThreadedServer
from tests.rpc_support import pg_env, postgres_schema, threaded_server, wait_until

Code = grpc.StatusCode


@contextmanager
def _served(
    tmp_path: Path, limits: Limits | None = None, store: str = "sqlite"
) -> Iterator[tuple[ThreadedServer, grpc.Channel]]:
    """A server on SQLite, or with ``store="postgres"`` on a fresh PostgreSQL schema."""
    with contextlib.ExitStack() as stack:
        if store == "postgres":
            env = pg_env(stack.enter_context(postgres_schema()))
        else:
            env = store_env(db=str(tmp_path / "games.db"))
        server = stack.enter_context(threaded_server(env, limits=limits or Limits()))
        yield server, stack.enter_context(grpc.insecure_channel(server.address))


STORES = pytest.mark.parametrize("store", ["sqlite", "postgres"])


def _code(call: Any) -> Code:
    try:
        call()
    except grpc.RpcError as error:
        return error.code()  # type: ignore[no-any-return]
    return Code.OK


@STORES
def test_an_epic_event_of_more_groups_than_the_server_opens_is_refused_and_creates_nothing(
    tmp_path: Path, store: str
) -> None:
    with _served(tmp_path, Limits(groups_per_epic=4), store) as (_server, channel):
        epics, games = epb_grpc.EpicServiceStub(channel), pb_grpc.GameServiceStub(channel)
        with pytest.raises(grpc.RpcError) as caught:
            epics.CreateEpic(epb.CreateEpicRequest(groups=[1] * 5, seed=1))
        assert caught.value.code() == Code.INVALID_ARGUMENT
        assert "at most 4 groups" in str(caught.value.details())
        assert list(games.ListGames(pb.ListGamesRequest()).games) == []
        made = epics.CreateEpic(epb.CreateEpicRequest(groups=[1] * 4, seed=1))
        assert len(made.groups) == 4


@STORES
def test_create_epic_is_limited_like_create_game(tmp_path: Path, store: str) -> None:
    limits = Limits(open_calls_per_second=0.01, open_calls_burst=2)
    with _served(tmp_path, limits, store) as (_server, channel):
        epics = epb_grpc.EpicServiceStub(channel)
        codes = [_code(lambda n=n: epics.CreateEpic(epb.CreateEpicRequest(groups=[1], seed=n))) for n in range(3)]
        assert codes == [Code.OK, Code.OK, Code.RESOURCE_EXHAUSTED]
        # CreateGame draws on the same bucket of the connection
        games = pb_grpc.GameServiceStub(channel)
        assert _code(lambda: games.CreateGame(pb.CreateGameRequest(game="lcg"))) == Code.RESOURCE_EXHAUSTED


@STORES
def test_watch_epic_streams_count_against_the_tokens_streams_and_share_their_looks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str
) -> None:
    reports = []
    report = EpicService.report

    def counted(self: EpicService, epic_id: Any) -> Any:
        reports.append(time.monotonic())
        return report(self, epic_id)

    monkeypatch.setattr(EpicService, "report", counted)
    limits = Limits(streams_per_token=6)
    with _served(tmp_path, limits, store) as (_server, channel):
        epics = epb_grpc.EpicServiceStub(channel)
        made = epics.CreateEpic(epb.CreateEpicRequest(groups=[1, 1], seed=3))
        request = epb.WatchEpicRequest(organizer_token=made.organizer_token)
        streams = [epics.WatchEpic(request) for _ in range(6)]
        for stream in streams:
            next(stream)
        with pytest.raises(grpc.RpcError) as caught:
            next(epics.WatchEpic(request))
        assert caught.value.code() == Code.RESOURCE_EXHAUSTED and "token" in str(caught.value.details())
        # six watchers polling for a second: about one look per poll, not six
        start, before = time.monotonic(), len(reports)
        time.sleep(1.0)
        looks = len(reports) - before
        polls = (time.monotonic() - start) / 0.2
        assert looks <= polls + 2, f"{looks} looks at the sheet in {polls:.0f} polls of 6 watchers"
        # closing a stream frees its place
        streams[0].cancel()

        def admitted() -> bool:
            try:
                stream = epics.WatchEpic(request)
                next(stream)
                streams.append(stream)
                return True
            except grpc.RpcError:
                return False

        wait_until(admitted)
        for stream in streams:
            stream.cancel()


def test_a_watch_epic_with_a_wrong_token_is_refused_and_frees_its_place(tmp_path: Path) -> None:
    limits = Limits(streams_per_token=1, streams_per_connection=1)
    with _served(tmp_path, limits) as (_server, channel):
        epics = epb_grpc.EpicServiceStub(channel)
        made = epics.CreateEpic(epb.CreateEpicRequest(groups=[1], seed=4))
        for _ in range(3):  # each refusal closes its stream: the connection's one place is free again
            with pytest.raises(grpc.RpcError) as caught:
                next(epics.WatchEpic(epb.WatchEpicRequest(organizer_token=made.organizer_token + "x")))
            assert caught.value.code() in (Code.PERMISSION_DENIED, Code.UNAUTHENTICATED)
        stream = epics.WatchEpic(epb.WatchEpicRequest(organizer_token=made.organizer_token))
        assert next(stream).epic_id == made.epic_id
        stream.cancel()


def test_the_connections_of_one_address_share_its_budget_of_calls_without_a_token() -> None:
    gate = Gate(
        Limits(open_calls_per_second=0.001, open_calls_burst=3, address_calls_per_second=0.001, address_calls_burst=5)
    )
    peers = [f"ipv4:127.0.0.1:{port}" for port in range(5000, 5004)]
    admitted = []
    for n in range(8):
        try:
            gate.open_call("ListGames", peers[n % 4])
            admitted.append(n)
        except LimitExceeded as error:
            assert "this address" in str(error)
    assert admitted == [0, 1, 2, 3, 4]  # five for the address, though each connection had three
    gate.open_call("ListGames", "ipv4:127.0.0.2:5000")  # another address is not touched
    with pytest.raises(LimitExceeded, match="this connection"):
        for _ in range(4):
            gate.open_call("ListGames", "ipv4:127.0.0.3:5000")


def test_the_work_of_one_addresses_connections_is_counted_together() -> None:
    gate = Gate(
        Limits(open_work_per_second=0.0001, open_work_burst=1.0, address_work_per_second=0.0001, address_work_burst=1.5)
    )
    gate.open_call("ListGames", "ipv4:10.0.0.1:1")
    gate.charge("ipv4:10.0.0.1:1", 0.8)
    gate.open_call("ListGames", "ipv4:10.0.0.1:2")
    gate.charge("ipv4:10.0.0.1:2", 0.8)  # each connection is within its 1.0; the address is past its 1.5
    with pytest.raises(LimitExceeded, match="this address used their share"):
        gate.open_call("ListGames", "ipv4:10.0.0.1:3")
    gate.open_call("ListGames", "ipv4:10.0.0.2:1")


@pytest.mark.parametrize(
    ("peer", "address"),
    [
        ("ipv4:127.0.0.1:5000", "address ipv4:127.0.0.1"),
        ("ipv6:[::1]:5000", "address ipv6:[::1]"),
        ("unix:/tmp/westmarch.sock", "address unix:/tmp/westmarch.sock"),
    ],
)
def test_a_peers_address_is_its_host_without_the_port(peer: str, address: str) -> None:
    assert address_of(peer) == address


def test_watch_epic_ends_when_the_server_stops_and_nothing_is_left_counted(tmp_path: Path) -> None:
    with _served(tmp_path) as (server, channel):
        epics = epb_grpc.EpicServiceStub(channel)
        made = epics.CreateEpic(epb.CreateEpicRequest(groups=[1], seed=5))
        stream = epics.WatchEpic(epb.WatchEpicRequest(organizer_token=made.organizer_token))
        next(stream)
        done = threading.Event()
        stream.add_done_callback(lambda _: done.set())
        stream.cancel()
        assert done.wait(5)
        gate = server.servicer.gate  # type: ignore[union-attr]
        wait_until(lambda: not gate._streams_by_token and not gate._streams_by_peer)
