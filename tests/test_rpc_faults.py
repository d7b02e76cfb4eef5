"""Faults against a real server: damaged stored games are refused with DATA_LOSS for every
call and never appended to, other games keep working, and errors never echo unbounded input."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from service.app import store_env
from service.games import GameRequest
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.server import MAX_MESSAGE, ThreadedServer
from tests.rpc_support import create, stub_for, threaded_server, tokens

Code = grpc.StatusCode


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ThreadedServer, pb_grpc.GameServiceStub, Path]]:
    db = tmp_path / "games.db"
    with threaded_server(store_env(db=str(db))) as running:
        channel, stub = stub_for(running.address)
        with channel:
            yield running, stub, db


def _play(stub: pb_grpc.GameServiceStub, keys: dict[str, str], answers: int) -> None:
    """Answer ``answers`` decisions with each seat's first option (or nothing)."""
    for n in range(answers):
        view = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
        seat = view.waiting_for
        decision = stub.GetView(pb.GetViewRequest(token=keys[seat])).view.decision
        if decision.kind == pb.KIND_ONE:
            choice = [decision.options[0].id]
        else:
            choice = [o.id for o in decision.options[: decision.min]]
        stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                token=keys[seat],
                expected_version=view.version,
                decision_id=decision.id,
                choice=choice,
                command_id=f"c{n}",
            )
        )


def _rows(db: Path, game_id: str) -> list[tuple[int, bytes]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id=? ORDER BY originator_version",
            [game_id.replace("-", "")],
        ).fetchall()
    return [(int(v), bytes(s)) for v, s in rows]


def _delete(db: Path, game_id: str, version: int) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(
            "DELETE FROM stored_events WHERE originator_id=? AND originator_version=?",
            [game_id.replace("-", ""), version],
        )


def _duplicate(db: Path, game_id: str, version: int) -> None:
    """A copy of event ``version`` stored again after the last event."""
    with sqlite3.connect(db) as conn:
        key = game_id.replace("-", "")
        sql = "SELECT MAX(originator_version) FROM stored_events WHERE originator_id=?"
        (last,) = conn.execute(sql, [key]).fetchone()
        conn.execute(
            "INSERT INTO stored_events SELECT originator_id, ?, topic, state FROM stored_events "
            "WHERE originator_id=? AND originator_version=?",
            [last + 1, key, version],
        )


def _garble(db: Path, game_id: str, version: int) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
            [b'{"not an event', game_id.replace("-", ""), version],
        )


def _duplicate_third(db: Path, game_id: str, version: int) -> None:
    _duplicate(db, game_id, 3)


DAMAGE: dict[str, tuple[Callable[[Path, str, int], None], int | None]] = {
    # how the store was damaged, and the version the refusal must name (None: the one
    # after the last sound event)
    "deleted": (_delete, 4),
    "duplicated": (_duplicate_third, None),
    "undecodable": (_garble, 4),
}
HOT_DAMAGE = ("deleted", "duplicated")
"""What a game held in memory notices before it serves or appends: a row missing or added
(an edit inside a row is found when the game is next loaded)."""
SPREAD_CONNECTIONS = 40
"""One-call connections made after the games of the --processes test, so that the kernel's
hashing of connections to processes reaches every process (see the test)."""


def _expect_data_loss(call: Callable[[], Any], game_id: str, version: int) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    assert caught.value.code() == Code.DATA_LOSS, caught.value.details()
    details = caught.value.details()
    assert game_id in details and f"version {version}" in details, details


def _every_call(stub: pb_grpc.GameServiceStub, keys: dict[str, str], game_id: str) -> dict[str, Callable[[], Any]]:
    def submit() -> Any:
        return stub.SubmitDecision(
            pb.SubmitDecisionRequest(token=keys["p1"], decision_id=1, choice=["x"], command_id="after-damage")
        )

    return {
        "GetView": lambda: stub.GetView(pb.GetViewRequest(token=keys["p1"])),
        "GetView at 9": lambda: stub.GetView(pb.GetViewRequest(token=keys["referee"], version=9)),
        "SubmitDecision": submit,
        "GetHistory": lambda: stub.GetHistory(pb.GetHistoryRequest(token=keys["referee"])),
        "ExplainEvent": lambda: stub.ExplainEvent(pb.ExplainEventRequest(token=keys["referee"], seq=9)),
        "ForkGame": lambda: stub.ForkGame(pb.ForkGameRequest(token=keys["referee"], at=9)),
        "Watch": lambda: next(iter(stub.Watch(pb.WatchRequest(token=keys["referee"])))),
    }


@pytest.mark.parametrize("damage", HOT_DAMAGE)
def test_a_damaged_game_is_refused_by_every_call_and_never_appended_to(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path], damage: str
) -> None:
    _, stub, db = served
    bad, good = create(stub, seed=5), create(stub, seed=6)
    bad_keys, good_keys = tokens(bad), tokens(good)
    _play(stub, bad_keys, 3)
    # the server holds the game in memory from the plays above: it must notice the damage
    hurt, version = DAMAGE[damage]
    version = version or _rows(db, bad.game_id)[-1][0] + 1
    hurt(db, bad.game_id, version)
    before = _rows(db, bad.game_id)
    for call in _every_call(stub, bad_keys, bad.game_id).values():
        _expect_data_loss(call, bad.game_id, version)
    assert _rows(db, bad.game_id) == before, "nothing may be appended to a damaged game"
    # the other game plays on, and the list marks the bad one without failing
    _play(stub, good_keys, 2)
    listed = {g.game_id: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    assert listed[bad.game_id].damaged and not listed[good.game_id].damaged
    verdict = stub.VerifyGame(pb.VerifyGameRequest(token=bad_keys["referee"]))
    assert not verdict.ok and verdict.first_bad == version


@pytest.mark.parametrize("damage", HOT_DAMAGE)
def test_a_game_held_in_memory_refuses_even_a_fitting_answer_once_its_log_is_damaged(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path], damage: str
) -> None:
    """The server reads nothing before it appends to a game it holds: the append itself
    refuses to land on a log that is not exactly versions 1 to N, and nothing is saved."""
    _, stub, db = served
    access = create(stub, seed=5)
    keys = tokens(access)
    _play(stub, keys, 3)
    view = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
    decision = view.decision
    choice = [o.id for o in decision.options[: max(1, decision.min)]]
    hurt, version = DAMAGE[damage]
    version = version or _rows(db, access.game_id)[-1][0] + 1
    hurt(db, access.game_id, version)
    before = _rows(db, access.game_id)
    request = pb.SubmitDecisionRequest(
        token=keys[view.waiting_for],
        expected_version=view.version,
        decision_id=decision.id,
        choice=choice,
        command_id="fits-the-game-in-memory",
    )
    _expect_data_loss(lambda: stub.SubmitDecision(request), access.game_id, version)
    assert _rows(db, access.game_id) == before, "nothing may be appended to a damaged game"


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_game_damaged_while_the_server_was_down_is_refused(tmp_path: Path, damage: str) -> None:
    db = tmp_path / "games.db"
    with threaded_server(store_env(db=str(db))) as running:
        channel, stub = stub_for(running.address)
        with channel:
            access = create(stub, seed=8)
            keys = tokens(access)
            _play(stub, keys, 3)
    hurt, version = DAMAGE[damage]
    version = version or _rows(db, access.game_id)[-1][0] + 1
    hurt(db, access.game_id, version)
    before = _rows(db, access.game_id)
    with threaded_server(store_env(db=str(db))) as running:
        channel, stub = stub_for(running.address)
        with channel:
            for call in _every_call(stub, keys, access.game_id).values():
                _expect_data_loss(call, access.game_id, version)
            listed = stub.ListGames(pb.ListGamesRequest()).games
            assert [g.damaged != "" for g in listed] == [True]
    assert _rows(db, access.game_id) == before


@pytest.mark.parametrize("where", ["first", "last"])
def test_the_command_line_lists_a_damaged_game_and_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """One unreadable first or last event marks its game; the listing goes on."""
    from tools.cli import main

    db = str(tmp_path / "games.db")
    assert main(["new", "lcg", "--db", db, "--seed", "4"]) == 0
    game_id = capsys.readouterr().out.strip()
    assert main(["new", "lcg", "--db", db, "--seed", "5"]) == 0
    capsys.readouterr()
    version = 1 if where == "first" else _rows(Path(db), game_id)[-1][0]
    _garble(Path(db), game_id, version)
    assert main(["games", "--db", db]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if not line.startswith(" ")]
    assert len(listed) == 2 and [("DAMAGED" in line) for line in listed] == [False, True]  # newest first
    assert main(["state", game_id[:8], "--db", db]) == 2
    err = capsys.readouterr().err
    assert f"game {game_id} is damaged at version {version}" in err and "Traceback" not in err
    assert main(["verify", game_id, "--db", db]) == 1
    assert f"FAILED at event {version}" in capsys.readouterr().out


@pytest.mark.parametrize("size", [70_000, 1_000_000])
def test_huge_arguments_get_a_short_invalid_argument_and_the_channel_stays_usable(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path], size: int
) -> None:
    _, stub, _ = served
    huge = "x" * size
    requests: list[Callable[[], Any]] = [
        lambda: stub.CreateGame(pb.CreateGameRequest(game="lcg", scenario=huge)),
        lambda: stub.CreateGame(pb.CreateGameRequest(game=huge)),
        lambda: stub.CreateGame(pb.CreateGameRequest(game="lcg", options={"difficulty": huge})),
        lambda: stub.CreateGame(pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup(heroes=[huge])])),
        lambda: stub.GetView(pb.GetViewRequest(game_id=huge, token=huge)),
    ]
    for call in requests:
        with pytest.raises(grpc.RpcError) as caught:
            call()
        assert caught.value.code() in (Code.INVALID_ARGUMENT, Code.UNAUTHENTICATED), caught.value.details()
        assert len(caught.value.details()) <= MAX_MESSAGE
    # the same channel still serves
    assert stub.ListGames(pb.ListGamesRequest()) is not None


def test_a_retried_create_with_one_request_id_makes_one_game(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path],
) -> None:
    _, stub, _ = served
    request = pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup(), pb.PlayerSetup()], request_id="r" * 32)
    first = stub.CreateGame(request).access
    again = stub.CreateGame(request).access
    assert again.game_id == first.game_id
    assert tokens(again) == tokens(first), "a retry gives the tokens the lost answer carried"
    assert stub.GetView(pb.GetViewRequest(token=tokens(again)["p2"])).view.viewer == "p2"
    listed = [g.game_id for g in stub.ListGames(pb.ListGamesRequest()).games]
    assert listed.count(first.game_id) == 1 and len(listed) == 1
    # the same id for another request is refused; another id is another game
    changed = pb.CreateGameRequest(game="lcg", request_id="r" * 32)
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateGame(changed)
    assert caught.value.code() == Code.ALREADY_EXISTS
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateGame(pb.CreateGameRequest(game="lcg", request_id="short"))
    assert caught.value.code() == Code.INVALID_ARGUMENT and "request_id" in caught.value.details()
    other = stub.CreateGame(pb.CreateGameRequest(game="lcg", request_id="s" * 32)).access
    assert other.game_id != first.game_id
    assert len(stub.ListGames(pb.ListGamesRequest()).games) == 2


# -- storage faults ----------------------------------------------------------------------


def _on_every_connection(server: ThreadedServer, sql: str) -> None:
    """Run ``sql`` on each of the server's SQLite connections (how a test fills the disk or
    makes the store read-only without mounting anything): those in the pool, none being in
    use meanwhile (the pool's lock held), and those the pool makes later (the server's
    threads, the bot sweep's among them, may need one more at any moment)."""
    import time

    pool: Any = server.app.recorder.datastore.pool  # type: ignore[attr-defined]
    if not hasattr(pool, "_made_before_test"):
        pool._made_before_test = pool._create_connection
    made = pool._made_before_test

    def create_with_sql() -> Any:
        connection = made()
        connection._sqlite_conn.execute(sql)
        return connection

    pool._create_connection = create_with_sql
    while True:
        with pool._put_condition:
            if not pool._num_in_use:
                for connection in list(pool._pool):
                    connection._sqlite_conn.execute(sql)
                return
        time.sleep(0.001)


def _count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        (n,) = conn.execute("SELECT COUNT(*) FROM stored_events").fetchone()
    return int(n)


def _health(address: str) -> int:
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as channel:
        status: int = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest()).status
        return status


def test_a_full_store_answers_resource_exhausted_and_recovers(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path],
) -> None:
    server, stub, db = served
    access = create(stub, seed=9)
    keys = tokens(access)
    with sqlite3.connect(db) as conn:
        (pages,) = conn.execute("PRAGMA page_count").fetchone()
    _on_every_connection(server, f"PRAGMA max_page_count = {pages}")
    before = _count(db)
    with pytest.raises(grpc.RpcError) as caught:
        for _ in range(200):  # until a save needs a page more than the store may have
            create(stub, seed=10)
    assert caught.value.code() == Code.RESOURCE_EXHAUSTED, caught.value.details()
    assert "full" in caught.value.details()
    with pytest.raises(grpc.RpcError) as caught:
        for n in range(200):
            _play_more(stub, keys, n)
    assert caught.value.code() == Code.RESOURCE_EXHAUSTED
    grown = _count(db)
    assert grown >= before  # whole commands only: every stored game still folds
    for game in stub.ListGames(pb.ListGamesRequest()).games:
        assert not game.damaged
    _on_every_connection(server, "PRAGMA max_page_count = 1073741823")
    _play_more(stub, keys, 500)
    assert _count(db) > grown


def _play_more(stub: pb_grpc.GameServiceStub, keys: dict[str, str], n: int) -> None:
    """One more decision, with a command id of its own."""
    view = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
    decision = stub.GetView(pb.GetViewRequest(token=keys[view.waiting_for])).view.decision
    if decision.kind == pb.KIND_ONE:
        choice = [decision.options[0].id]
    else:
        choice = [o.id for o in decision.options[: decision.min]]
    stub.SubmitDecision(
        pb.SubmitDecisionRequest(
            token=keys[view.waiting_for],
            expected_version=view.version,
            decision_id=decision.id,
            choice=choice,
            command_id=f"more-{n}",
        )
    )


def test_a_read_only_store_answers_failed_precondition_and_health_follows(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path],
) -> None:
    from grpc_health.v1 import health_pb2

    from tests.rpc_support import wait_until

    server, stub, db = served
    access = create(stub, seed=11)
    keys = tokens(access)
    assert _health(server.address) == health_pb2.HealthCheckResponse.SERVING
    _on_every_connection(server, "PRAGMA query_only = ON")
    before = _count(db)
    with pytest.raises(grpc.RpcError) as caught:
        _play_more(stub, keys, 1)
    assert caught.value.code() == Code.FAILED_PRECONDITION and "read-only" in caught.value.details()
    wait_until(lambda: _health(server.address) == health_pb2.HealthCheckResponse.NOT_SERVING)
    assert stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.version > 0, "reads still work"
    assert _count(db) == before
    _on_every_connection(server, "PRAGMA query_only = OFF")
    wait_until(lambda: _health(server.address) == health_pb2.HealthCheckResponse.SERVING)
    _play_more(stub, keys, 2)
    assert _count(db) > before


def test_postgres_backends_killed_under_load_lose_nothing_and_say_unavailable_at_worst() -> None:
    """Bots play while the server's database connections are terminated again and again:
    every game finishes and verifies, and no call fails with INTERNAL or UNKNOWN."""
    import threading

    import psycopg

    from tests.conftest import POSTGRES_DSN
    from tests.rpc_support import pg_env, postgres_schema
    from tools.rpc_client import run_bots

    with postgres_schema() as schema, threaded_server(pg_env(schema)) as server:
        stop = threading.Event()
        killed: list[int] = []

        def killer() -> None:
            with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
                for _ in range(40):  # bounded: at most 40 rounds, 0.25 s apart
                    if stop.wait(0.25):
                        return
                    rows = conn.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE pid <> pg_backend_pid() AND query LIKE %s",
                        [f"%{schema}%"],
                    ).fetchall()
                    killed.append(len(rows))

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        try:
            report = run_bots([server.address], games=6, concurrency=3, bot="greedy", seed=5, progress=False)
        finally:
            stop.set()
            thread.join(30)
        assert sum(killed) > 0, "the test must really kill connections"
        assert not report.errors, report.errors
        assert report.finished == 6
        channel, stub = stub_for(server.address)
        with channel:
            games = stub.ListGames(pb.ListGamesRequest()).games
            assert len(games) == 6 and all(g.over and not g.damaged for g in games)


def test_every_idle_postgres_connection_killed_at_once_costs_no_call_an_error() -> None:
    """The database terminates all the server's idle connections (a restart, a failover):
    the next call is answered, not UNAVAILABLE. A dead connection is found only when used,
    so the one retry after a lost connection must not be handed another dead one."""
    import time

    import psycopg

    from tests.conftest import POSTGRES_DSN
    from tests.rpc_support import pg_env, postgres_schema

    with postgres_schema() as schema, threaded_server(pg_env(schema)) as server:
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, seed=14)
            keys = tokens(access)
            _play(stub, keys, 3)
            pool: Any = server.app.recorder.datastore.pool  # type: ignore[attr-defined]
            deadline = time.monotonic() + 30
            while len(pool._pool) < 2 and time.monotonic() < deadline:  # the pool's minimum, made in the background
                time.sleep(0.05)
            with pool._lock:
                pids = [conn.info.backend_pid for conn in pool._pool]
            assert len(pids) >= 2, "the test needs more than one idle connection to kill"
            with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
                for pid in pids:
                    conn.execute("SELECT pg_terminate_backend(%s)", [pid])
            games = stub.ListGames(pb.ListGamesRequest()).games
            assert [g.game_id for g in games] == [access.game_id]
            view = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
            assert view.version == games[0].version


def test_a_watch_whose_game_is_damaged_mid_stream_ends_with_data_loss(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path],
) -> None:
    _, stub, db = served
    access = create(stub, seed=12)
    keys = tokens(access)
    _play(stub, keys, 2)
    stream = stub.Watch(pb.WatchRequest(token=keys["spectator"]))
    first = next(iter(stream))
    assert first.view.version > 0
    _delete(db, access.game_id, 3)
    with pytest.raises(grpc.RpcError) as caught:
        for _ in stream:  # the stream looks again within its fallback interval
            pass
    assert caught.value.code() == Code.DATA_LOSS, caught.value.details()
    assert "version 3" in caught.value.details()


# -- floods ------------------------------------------------------------------------------


def test_watchers_of_a_game_share_one_store_read_per_change(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path],
) -> None:
    """Ten streams watch a game; each change is read from the store once, not ten times."""
    import threading

    server, stub, _ = served
    access = create(stub, players=2, seed=13)
    keys = tokens(access)
    viewers = ["p1", "p2", "spectator", "referee"] * 3
    streams = [stub.Watch(pb.WatchRequest(token=keys[v])) for v in viewers[:10]]
    firsts = [next(iter(s)) for s in streams]
    assert all(f.view.version == firsts[0].view.version for f in firsts)
    live = server.servicer.live
    seen: list[int] = []
    lock = threading.Lock()

    def drain(stream: Any) -> None:
        for update in stream:
            with lock:
                seen.append(update.view.version)
            return

    before = live.reads
    threads = [threading.Thread(target=drain, args=(s,), daemon=True) for s in streams]
    for t in threads:
        t.start()
    _play_more(stub, keys, 1)
    for t in threads:
        t.join(10)
    assert len(seen) == 10 and len(set(seen)) == 1
    assert live.reads - before == 1, f"{live.reads - before} store reads for one change watched by 10 streams"
    for s in streams:
        s.cancel()


def test_a_flood_of_streams_and_open_calls_is_refused_and_others_play_on(tmp_path: Path) -> None:
    from service.rpc.limits import Limits

    limits = Limits(streams_per_token=4, streams_per_connection=6, open_calls_per_second=1, open_calls_burst=5)
    with threaded_server(store_env(db=str(tmp_path / "games.db")), limits=limits) as server:
        flood_channel, flood = stub_for(server.address)
        player_channel, player = stub_for(server.address)
        with flood_channel, player_channel:
            access = create(player, seed=14)
            keys = tokens(access)
            opened = [flood.Watch(pb.WatchRequest(token=keys["spectator"])) for _ in range(4)]
            for s in opened:
                next(iter(s))
            with pytest.raises(grpc.RpcError) as caught:
                next(iter(flood.Watch(pb.WatchRequest(token=keys["spectator"]))))
            assert caught.value.code() == Code.RESOURCE_EXHAUSTED and "token" in caught.value.details()
            # the same limit per connection, whatever the tokens
            other = create(player, seed=15)
            more = [flood.Watch(pb.WatchRequest(token=tokens(other)["spectator"])) for _ in range(2)]
            for s in more:
                next(iter(s))
            with pytest.raises(grpc.RpcError) as caught:
                next(iter(flood.Watch(pb.WatchRequest(token=tokens(other)["referee"]))))
            assert caught.value.code() == Code.RESOURCE_EXHAUSTED and "connection" in caught.value.details()
            # calls without a token: a burst, then refused, per connection
            codes = []
            for _ in range(12):
                try:
                    flood.ListGames(pb.ListGamesRequest())
                    codes.append(Code.OK)
                except grpc.RpcError as error:
                    codes.append(error.code())
            assert Code.RESOURCE_EXHAUSTED in codes and codes[0] == Code.OK
            # the other client plays on; closing a stream frees its place
            _play_more(player, keys, 1)
            opened[0].cancel()
            from tests.rpc_support import wait_until

            def reopened() -> bool:
                try:
                    next(iter(flood.Watch(pb.WatchRequest(token=keys["spectator"]))))
                    return True
                except grpc.RpcError:
                    return False

            wait_until(reopened)
            for s in opened[1:] + more:
                s.cancel()


def test_five_hundred_watch_streams_at_once_on_one_connection_are_each_admitted_or_refused(
    served: tuple[ThreadedServer, pb_grpc.GameServiceStub, Path],
) -> None:
    """The flood of the service's fairness goal: every stream past the limits gets
    RESOURCE_EXHAUSTED from the server's limits (none is refused by HTTP/2 as UNAVAILABLE)."""
    import asyncio

    from service.rpc.limits import Limits
    from tools.rpc_client import aio_channel

    server, stub, _ = served
    spectator = tokens(create(stub, seed=16))["spectator"]

    async def flood() -> list[str]:
        channel = aio_channel(server.address)
        flooding = pb_grpc.GameServiceStub(channel)
        streams = [flooding.Watch(pb.WatchRequest(token=spectator)) for _ in range(500)]

        async def first(stream: Any) -> str:
            try:
                await stream.read()
                return "OK"
            except grpc.RpcError as error:
                return str(error.code().name)

        outcomes = await asyncio.gather(*(first(s) for s in streams))
        for s in streams:
            s.cancel()
        await channel.close()
        return list(outcomes)

    outcomes = asyncio.run(flood())
    per_token = Limits().streams_per_token
    assert outcomes.count("OK") == per_token
    assert outcomes.count("RESOURCE_EXHAUSTED") == 500 - per_token, sorted(set(outcomes))


def test_calls_without_a_token_are_limited_by_the_work_they_cost(tmp_path: Path) -> None:
    """Listing games costs far more than one call of the rate: a connection's share of the
    worker threads' time runs out first, and other connections are still served."""
    from service.rpc.limits import Limits
    from tools.rpc_client import channel

    limits = Limits(open_calls_per_second=1000, open_calls_burst=1000, open_work_per_second=0.001, open_work_burst=0.02)
    with threaded_server(store_env(db=str(tmp_path / "games.db")), limits=limits) as server:
        for seed in range(10):
            server.servicer.service.create(GameRequest(game="lcg"), seed + 1, "")
        with channel(server.address) as flood_channel, channel(server.address) as other_channel:  # two connections
            flood, other = pb_grpc.GameServiceStub(flood_channel), pb_grpc.GameServiceStub(other_channel)
            codes = []
            for _ in range(200):
                try:
                    flood.ListGames(pb.ListGamesRequest())
                    codes.append(Code.OK)
                except grpc.RpcError as error:
                    codes.append(error.code())
                    assert "share of the server" in str(error.details())
                    break
            assert codes[0] == Code.OK and codes[-1] == Code.RESOURCE_EXHAUSTED
            assert len(other.ListGames(pb.ListGamesRequest()).games) == 10


def test_refusals_past_their_burst_wait_their_turn() -> None:
    """An address refused without pause is answered at the pace of its refusals, all its
    connections on one schedule (eight connections wait as one does), each address on its own."""
    from service.rpc.limits import Gate, Limits

    gate = Gate(Limits(refusals_per_second=10, refusals_burst=3))
    waits = [gate.refusal_wait(f"ipv4:127.0.0.1:{n % 2 + 1}") for n in range(6)]
    assert waits[:3] == [0.0, 0.0, 0.0]
    assert 0.0 < waits[3] < waits[4] < waits[5]
    assert waits[5] - waits[3] == pytest.approx(0.2, abs=0.05)  # two steps of 1/10 s
    assert gate.refusal_wait("ipv4:127.0.0.2:1") == 0.0


# -- every core --------------------------------------------------------------------------


def test_serve_with_several_processes_shares_the_port_and_the_store(tmp_path: Path) -> None:
    """``serve --processes 2`` on PostgreSQL: connections spread over both processes, games
    made through one are played through the other, and SIGTERM stops them all."""
    import json
    import os
    import signal as signals
    import subprocess
    import sys

    from tests.conftest import POSTGRES_DSN
    from tests.rpc_support import ROOT, pg_env, postgres_schema
    from tools.rpc_client import channel, run_bots

    log = tmp_path / "serve.log"
    with postgres_schema() as schema, log.open("w") as err:
        env = {**os.environ, "POSTGRES_SCHEMA": schema}
        command = [sys.executable, "-m", "tools.cli", "serve", "--port", "0", "--postgres", POSTGRES_DSN]
        proc = subprocess.Popen(
            [*command, "--processes", "2"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=err, text=True
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert "serving on" in line, line
            address = line.strip().rsplit(" ", 1)[-1]
            report = run_bots([address] * 16, games=16, concurrency=8, bot="random", seed=3, progress=False)
            assert not report.errors and report.finished == 16
            # the kernel hashes each connection to a process: the games' 8 connections all
            # land on one process once in 128 runs, so 40 more each make one call (1 in 2^47)
            for _ in range(SPREAD_CONNECTIONS):
                with channel(address) as extra:
                    pb_grpc.GameServiceStub(extra).ListGames(pb.ListGamesRequest())
            proc.send_signal(signals.SIGTERM)
            assert proc.wait(60) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
        lines = [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]
        pids = {x["pid"] for x in lines if x.get("msg") == "call"}
        assert len(pids) == 2 and proc.pid not in pids, f"calls were served by {pids}"
        assert all(not os.path.exists(f"/proc/{pid}") for pid in pids), "a server process outlived the stop"
        with threaded_server(pg_env(schema)) as server:
            channel, stub = stub_for(server.address)
            with channel:
                games = stub.ListGames(pb.ListGamesRequest()).games
                assert len(games) == 16 and all(g.over for g in games)


def test_one_connection_waits_for_its_turn_on_the_worker_threads_and_others_do_not() -> None:
    """At most ``busy_per_connection`` calls of one connection are worked on at once; the
    next waits until one of them is done, while another connection goes straight in."""
    import asyncio

    from service.rpc.limits import Gate, Limits

    async def scene() -> list[str]:
        gate, seen = Gate(Limits(busy_per_connection=2)), []
        release = asyncio.Event()

        async def call(peer: str, name: str) -> None:
            async with gate.turn(peer):
                seen.append(name)
                await release.wait()

        tasks = [asyncio.create_task(call("ipv4:127.0.0.1:1", f"a{n}")) for n in range(3)]
        tasks.append(asyncio.create_task(call("ipv4:127.0.0.1:2", "b0")))
        for _ in range(5):
            await asyncio.sleep(0)
        before = list(seen)
        release.set()
        await asyncio.gather(*tasks)
        return [*before, "|", *seen[len(before) :]]

    assert asyncio.run(scene()) == ["a0", "a1", "b0", "|", "a2"]


def test_with_few_worker_threads_one_connection_still_cannot_hold_them_all(tmp_path: Path) -> None:
    for workers, busy in ((1, 1), (2, 1), (3, 2), (4, 3), (12, 3)):
        with threaded_server(store_env(db=str(tmp_path / f"games{workers}.db")), workers=workers) as server:
            assert server.servicer.gate.limits.busy_per_connection == busy
