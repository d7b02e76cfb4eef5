"""A game's whole stored state is checked, not only its event rows: records beside it, the
log of a game the server holds in memory, its snapshots and the length of its log, and
what an import adds. Each damage against a real gRPC server, on SQLite and on PostgreSQL."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import grpc
import msgspec
import pytest

from service.app import store_env
from service.records import command_id, length_id, seats_id
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.server import ThreadedServer
from tests.conftest import POSTGRES_DSN
from tests.rpc_support import ServeProcess, create, pg_env, postgres_schema, stub_for, threaded_server, tokens

Code = grpc.StatusCode
EVENTS, SNAPSHOTS = "stored_events", "stored_snapshots"


@dataclass
class Store:
    """A server's store, edited by hand underneath it (as a damaged disk or an operator would)."""

    env: dict[str, str]
    db: Path | None = None
    schema: str = ""

    def _run(self, sql: str, params: list[Any]) -> list[Any]:
        """``sql`` written with ``{t}`` for the table and ``?`` for parameters, on either store."""
        if self.db is not None:
            with sqlite3.connect(self.db) as conn:
                return conn.execute(sql, params).fetchall()
        import psycopg

        with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
            cursor = conn.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []

    def _table(self, table: str) -> str:
        if self.db is not None:
            return table
        return f"{self.schema}.{table.replace('stored_', 'westmarch_')}"  # the application's names on PostgreSQL

    def _key(self, originator: str | UUID) -> Any:
        uid = UUID(str(originator))
        return uid.hex if self.db is not None else uid

    def rows(self, originator: str | UUID, table: str = EVENTS) -> list[tuple[int, bytes]]:
        sql = f"SELECT originator_version, state FROM {self._table(table)} WHERE originator_id=? ORDER BY 1"
        return [(int(v), bytes(s)) for v, s in self._run(sql, [self._key(originator)])]

    def set_state(self, originator: str | UUID, version: int, state: bytes, table: str = EVENTS) -> None:
        sql = f"UPDATE {self._table(table)} SET state=? WHERE originator_id=? AND originator_version=?"
        self._run(sql, [state, self._key(originator), version])

    def delete(self, originator: str | UUID, version: int, table: str = EVENTS) -> None:
        sql = f"DELETE FROM {self._table(table)} WHERE originator_id=? AND originator_version=?"
        self._run(sql, [self._key(originator), version])


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        db = tmp_path / "games.db"
        env = store_env(db=str(db))
        env["WESTMARCH_SNAPSHOT_EVERY"] = "5"
        yield Store(env, db=db)
        return
    with postgres_schema() as schema:
        env = pg_env(schema)
        env["WESTMARCH_SNAPSHOT_EVERY"] = "5"
        yield Store(env, schema=schema)


@contextmanager
def serving(store: Store) -> Iterator[tuple[ThreadedServer, pb_grpc.GameServiceStub]]:
    with threaded_server(store.env) as server:
        channel, stub = stub_for(server.address)
        with channel:
            yield server, stub


def _answer(stub: pb_grpc.GameServiceStub, keys: dict[str, str], command: str) -> pb.SubmitDecisionRequest:
    """The request answering the pending decision with its first legal choice."""
    view = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
    decision = stub.GetView(pb.GetViewRequest(token=keys[view.waiting_for])).view.decision
    if decision.kind == pb.KIND_ONE:
        choice = [decision.options[0].id]
    else:
        choice = [o.id for o in decision.options[: decision.min]]
    return pb.SubmitDecisionRequest(
        token=keys[view.waiting_for],
        expected_version=view.version,
        decision_id=decision.id,
        choice=choice,
        command_id=command,
    )


def _play(stub: pb_grpc.GameServiceStub, keys: dict[str, str], answers: int, prefix: str = "c") -> None:
    for n in range(answers):
        stub.SubmitDecision(_answer(stub, keys, f"{prefix}{n}"))


def _data_loss(call: Callable[[], Any], *expected: str) -> str:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    details = str(caught.value.details())
    assert caught.value.code() == Code.DATA_LOSS, details
    for text in expected:
        assert text in details, details
    return details


def _calls(stub: pb_grpc.GameServiceStub, keys: dict[str, str]) -> dict[str, Callable[[], Any]]:
    return {
        "GetView": lambda: stub.GetView(pb.GetViewRequest(token=keys["p1"])),
        "GetView at 2": lambda: stub.GetView(pb.GetViewRequest(token=keys["referee"], version=2)),
        "SubmitDecision": lambda: stub.SubmitDecision(
            pb.SubmitDecisionRequest(token=keys["p1"], decision_id=1, choice=["x"], command_id="after-damage")
        ),
        "GetHistory": lambda: stub.GetHistory(pb.GetHistoryRequest(token=keys["referee"])),
        "ExplainEvent": lambda: stub.ExplainEvent(pb.ExplainEventRequest(token=keys["referee"], seq=2)),
        "ForkGame": lambda: stub.ForkGame(pb.ForkGameRequest(token=keys["referee"], at=2)),
        "Watch": lambda: next(iter(stub.Watch(pb.WatchRequest(token=keys["referee"])))),
    }


def _listed(stub: pb_grpc.GameServiceStub) -> dict[str, pb.GameSummary]:
    return {g.game_id: g for g in stub.ListGames(pb.ListGamesRequest()).games}


# -- records beside a game -------------------------------------------------------------------


def test_an_undecodable_seats_record_is_data_loss_naming_the_game_and_the_game_is_marked(store: Store) -> None:
    with serving(store) as (_, stub):
        bad, good = create(stub, seed=5), create(stub, seed=6)
        _play(stub, tokens(bad), 2)
    store.set_state(seats_id(UUID(bad.game_id)), 1, b'{"originator_id": 7')
    before = store.rows(bad.game_id)
    with serving(store) as (_, stub):
        for name, call in _calls(stub, tokens(bad)).items():
            details = _data_loss(call, bad.game_id, "seats record")
            assert "Traceback" not in details, name
        listed = _listed(stub)
        assert "seats record" in listed[bad.game_id].damaged and not listed[good.game_id].damaged
        _play(stub, tokens(good), 2)  # the other game plays on
    assert store.rows(bad.game_id) == before


def test_an_undecodable_command_record_makes_a_retry_of_that_command_data_loss(store: Store) -> None:
    with serving(store) as (_, stub):
        access = create(stub, seed=7)
        keys = tokens(access)
        first = _answer(stub, keys, "once")
        stub.SubmitDecision(first)
        seat = stub.GetView(pb.GetViewRequest(token=first.token)).view.viewer
        assert stub.SubmitDecision(first).replayed, "a retry of a sound record gets the first result"
        store.set_state(command_id(UUID(access.game_id), seat, "once"), 1, b"\x00\xff not a record")
        before = store.rows(access.game_id)
        _data_loss(lambda: stub.SubmitDecision(first), access.game_id, "command 'once'")
        assert store.rows(access.game_id) == before
        assert "command 'once'" in _listed(stub)[access.game_id].damaged
        _play(stub, keys, 1, prefix="other")  # the game itself is sound: other commands go on
        assert len(store.rows(access.game_id)) > len(before)


def test_damage_one_server_finds_marks_the_game_in_every_servers_listing(store: Store) -> None:
    """Two servers on one store (PostgreSQL, or one SQLite file): what the first finds damaged,
    a record beside a game or a row inside its log, the second lists as damaged, though it
    never looked; once repaired, neither is marked."""
    with serving(store) as (_, first), serving(store) as (_, second):
        access, other = create(first, seed=17), create(first, seed=18)
        keys = tokens(access)
        once = _answer(first, keys, "once")
        first.SubmitDecision(once)
        seat = first.GetView(pb.GetViewRequest(token=once.token)).view.viewer
        _play(first, tokens(other), 3)
        record = command_id(UUID(access.game_id), seat, "once")
        sound_record, sound_row = store.rows(record)[0][1], dict(store.rows(other.game_id))[3]
        store.set_state(record, 1, b"\x00\xff not a record")
        _garble(store, other.game_id, 3)
        listed = _listed(second)
        assert not listed[access.game_id].damaged and not listed[other.game_id].damaged, "nothing seen yet"

        _data_loss(lambda: first.SubmitDecision(once), access.game_id, "command 'once'")
        _data_loss(lambda: first.GetView(pb.GetViewRequest(token=tokens(other)["p1"])), other.game_id, "version 3")
        listed = _listed(second)
        assert "command 'once'" in listed[access.game_id].damaged
        assert "version 3" in listed[other.game_id].damaged

        store.set_state(record, 1, sound_record)
        store.set_state(other.game_id, 3, sound_row)
        listed = _listed(second)
        assert not listed[access.game_id].damaged and not listed[other.game_id].damaged, "repaired: not marked"
        assert second.SubmitDecision(once).replayed


# -- a game held in memory -------------------------------------------------------------------


def _garble(store: Store, game_id: str, version: int) -> None:
    store.set_state(game_id, version, b'[1,{"not an event')


def _edit(store: Store, game_id: str, version: int) -> None:
    """An edit that still decodes: only the hash chain says the event is not what was played."""
    state = dict(store.rows(game_id))[version]
    stamp, event = msgspec.json.decode(state)
    event["cause"] = {**event.get("cause", {}), "rule": "edited.by.hand"}
    store.set_state(game_id, version, msgspec.json.encode([stamp, event]))


@pytest.mark.parametrize("damage", [_garble, _edit], ids=["undecodable", "edited"])
def test_a_game_held_in_memory_is_not_served_or_extended_once_a_row_inside_its_log_is_damaged(
    store: Store, damage: Callable[[Store, str, int], None]
) -> None:
    with serving(store) as (_, stub):
        access = create(stub, seed=5)
        keys = tokens(access)
        _play(stub, keys, 3)  # the server now holds the game in memory, checked past event 3
        watch = stub.Watch(pb.WatchRequest(token=keys["spectator"]))
        assert next(iter(watch)).view.version > 3
        fitting = _answer(stub, keys, "fits-the-game-in-memory")
        damage(store, access.game_id, 3)
        before = store.rows(access.game_id)
        _data_loss(lambda: stub.SubmitDecision(fitting), access.game_id, "version 3")
        _data_loss(lambda: stub.GetView(pb.GetViewRequest(token=keys["p1"])), access.game_id, "version 3")
        assert store.rows(access.game_id) == before, "nothing may be appended to a damaged log"
        with pytest.raises(grpc.RpcError) as ended:
            for _ in watch:  # the stream looks again within its fallback interval
                pass
        assert ended.value.code() == Code.DATA_LOSS and "version 3" in str(ended.value.details())
        assert _listed(stub)[access.game_id].damaged
        verdict = stub.VerifyGame(pb.VerifyGameRequest(token=keys["referee"]))
        assert not verdict.ok and verdict.first_bad == 3


@pytest.mark.parametrize("damage", [_garble, _edit], ids=["undecodable", "edited"])
def test_a_view_of_a_game_held_in_memory_checks_the_stored_log_as_a_command_does(
    store: Store, damage: Callable[[Store, str, int], None]
) -> None:
    with serving(store) as (_, stub):
        access = create(stub, seed=6)
        keys = tokens(access)
        _play(stub, keys, 3)
        assert stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.version > 3  # held and checked
        damage(store, access.game_id, 3)
        # the first call after the damage is a view: it is refused, as a command would be
        _data_loss(lambda: stub.GetView(pb.GetViewRequest(token=keys["p1"])), access.game_id, "version 3")
        _data_loss(lambda: stub.GetView(pb.GetViewRequest(token=keys["spectator"])), access.game_id, "version 3")


# -- snapshots and the length of the log -----------------------------------------------------


def test_an_undecodable_snapshot_is_dropped_and_taken_again_from_the_events(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    with serving(store) as (_, stub):
        access = create(stub, seed=9)
        keys = tokens(access)
        _play(stub, keys, 8)
        snapshots = store.rows(access.game_id, SNAPSHOTS)
        assert snapshots, "the game has snapshots to damage"
        expected = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
        at = snapshots[0][0]
        for version, _ in snapshots:
            store.set_state(access.game_id, version, b"{not a snapshot", SNAPSHOTS)
        with caplog.at_level(logging.WARNING, logger="westmarch.store"):
            # a look at an earlier version reads a snapshot while the game is held in memory
            assert stub.GetView(pb.GetViewRequest(token=keys["referee"], version=at)).view.version == at
    assert any("snapshot" in r.getMessage() and access.game_id in r.getMessage() for r in caplog.records)
    caplog.clear()
    for version, _ in store.rows(access.game_id, SNAPSHOTS):
        store.set_state(access.game_id, version, b"{not a snapshot", SNAPSHOTS)
    with caplog.at_level(logging.WARNING, logger="westmarch.store"), serving(store) as (_, stub):
        # a server started afresh loads the game through its latest snapshot
        view = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
        assert view.version == expected.version and view.table == expected.table
        _play(stub, keys, 2, prefix="after")
    assert any("snapshot" in r.getMessage() for r in caplog.records)
    rebuilt = store.rows(access.game_id, SNAPSHOTS)
    assert rebuilt and all(not state.startswith(b"{not") for _, state in rebuilt)


def test_a_log_whose_last_row_was_deleted_is_told_from_a_finished_one(store: Store) -> None:
    with serving(store) as (_, stub):
        hot, cold = create(stub, seed=10), create(stub, seed=11)
        _play(stub, tokens(hot), 3)
        _play(stub, tokens(cold), 3)
        last = store.rows(cold.game_id)[-1][0]
        store.delete(cold.game_id, last)
        last_hot = store.rows(hot.game_id)[-1][0]
        store.delete(hot.game_id, last_hot)
        # the server held the game: it knows its log was longer
        _data_loss(lambda: stub.GetView(pb.GetViewRequest(token=tokens(hot)["p1"])), hot.game_id, f"version {last_hot}")
    before = store.rows(cold.game_id)
    with serving(store) as (_, stub):
        # a server started afresh: the log's own last event says it was cut short
        for call in _calls(stub, tokens(cold)).values():
            _data_loss(call, cold.game_id, f"version {last}", "last events are missing")
        listed = _listed(stub)
        assert "last events are missing" in listed[cold.game_id].damaged and listed[hot.game_id].damaged
        verdict = stub.VerifyGame(pb.VerifyGameRequest(token=tokens(cold)["referee"]))
        assert not verdict.ok and verdict.first_bad == last, "re-execution goes on where the log stops"
    assert store.rows(cold.game_id) == before


# -- import onto a stored game ---------------------------------------------------------------


def _forged_end(lines: list[bytes]) -> list[bytes]:
    """The record with one more event: a GameEnded the rules did not produce, its hash (and
    the header's) recomputed so the chain holds."""
    from domain.engine import engine
    from domain.kernel.events import Cause, GameEnded, Outcome
    from domain.lcg.ruleset import LCG
    from domain.record import header_line
    from domain.verify import canonical, chain_link

    header = msgspec.json.decode(lines[0])
    _, first = LCG.codec.decode_stored(lines[1].rstrip(b"\n"))
    _, last = LCG.codec.decode_stored(lines[-1].rstrip(b"\n"))
    ended = GameEnded(seq=last.seq + 1, cause=Cause(rule="lcg.end"), outcome=Outcome("won", "the quest was completed"))
    ended = msgspec.structs.replace(ended, hash=chain_link(last.hash, canonical(LCG, ended)))
    forged = LCG.codec.encode_stored(datetime.now(UTC), ended) + b"\n"
    return [header_line(UUID(header["game_id"]), LCG, first, ended, engine()), *lines[1:], forged]


def test_an_import_onto_a_stored_game_re_executes_what_it_adds_and_refuses_a_forged_end(store: Store) -> None:
    from domain.record import check_record
    from domain.rulesets import ruleset
    from service.app import Westmarch
    from service.archive import ImportRefused, import_record

    with serving(store) as (_, stub):
        access = create(stub, players=2, seed=12)
        keys = tokens(access)
        _play(stub, keys, 3)
        record = b"".join(c.lines for c in stub.ExportGame(pb.ExportGameRequest(token=keys["referee"])))
        lines = record.splitlines(keepends=True)
        forged = _forged_end(lines)
        assert check_record(forged, ruleset).verdict.ok, "the forgery passes the chain check on its own"
        before = store.rows(access.game_id)
        importer = Westmarch(store.env)  # as `westmarch import` runs beside the server
        try:
            with pytest.raises(ImportRefused, match="re-execut") as refused:
                import_record(importer, forged)
            assert refused.value.verdict is not None and refused.value.verdict.first_bad == len(lines)
            assert import_record(importer, lines).added == 0, "the game's own record still imports"
        finally:
            importer.close()
        assert store.rows(access.game_id) == before
        view = stub.GetView(pb.GetViewRequest(token=keys["p2"])).view
        assert not view.over and view.version == len(lines) - 1
        _play(stub, keys, 1, prefix="after")


# -- a whole command deleted -----------------------------------------------------------------


def _delete_last_command(store: Store, game_id: str) -> tuple[int, int]:
    """Delete every row of the game's last command (the versions between the lengths its
    last two commits recorded), as one would who wanted a shorter game that reads as sound;
    the versions deleted."""
    recorded = [v for v, _ in store.rows(length_id(UUID(game_id)))]
    first, last = recorded[-2] + 1, recorded[-1]
    for version in range(first, last + 1):
        store.delete(game_id, version)
    return first, last


def _reads_as_sound(store: Store, game_id: str) -> bool:
    """Whether the rows left chain from the first and end at a question, as a whole log does."""
    from domain.kernel.events import DecisionRequested
    from domain.lcg.ruleset import LCG
    from domain.verify import check_chain

    events = [LCG.codec.decode_stored(state)[1] for _, state in store.rows(game_id)]
    return check_chain(LCG, events).ok and isinstance(events[-1], DecisionRequested)


def test_a_whole_command_deleted_is_data_loss_naming_the_game_and_what_is_missing(store: Store) -> None:
    with serving(store) as (_, stub):
        hot, cold = create(stub, seed=13), create(stub, seed=14)
        _play(stub, tokens(hot), 4)
        _play(stub, tokens(cold), 4)
        first, last = _delete_last_command(store, cold.game_id)
        assert _reads_as_sound(store, cold.game_id), "what is left chains and ends at a question"
        hot_first, hot_last = _delete_last_command(store, hot.game_id)
        before = store.rows(hot.game_id)
        missing = f"events {hot_first} to {hot_last} are missing"
        # the server holds the game in memory: a view and a command are both refused
        _data_loss(lambda: stub.GetView(pb.GetViewRequest(token=tokens(hot)["p1"])), hot.game_id, missing)
        _data_loss(lambda: stub.SubmitDecision(_answer(stub, tokens(hot), "after")), hot.game_id, missing)
        assert store.rows(hot.game_id) == before, "nothing is appended to a log cut short"
    before = store.rows(cold.game_id)
    with serving(store) as (_, stub):
        # a server started afresh
        missing = f"events {first} to {last} are missing"
        for name, call in _calls(stub, tokens(cold)).items():
            details = _data_loss(call, cold.game_id, missing)
            assert "Traceback" not in details, name
        assert missing in _listed(stub)[cold.game_id].damaged
        verdict = stub.VerifyGame(pb.VerifyGameRequest(token=tokens(cold)["referee"]))
        assert not verdict.ok and verdict.first_bad == first and missing in verdict.reason
    assert store.rows(cold.game_id) == before


def test_a_whole_command_deleted_is_refused_by_every_server_process_on_postgresql() -> None:
    with postgres_schema() as schema:
        store = Store(pg_env(schema), schema=schema)
        dsn_args = ["--postgres", POSTGRES_DSN]
        env = {"POSTGRES_SCHEMA": schema}
        with ServeProcess(dsn_args, env) as one, ServeProcess(dsn_args, env) as two:
            first_channel, first = stub_for(one.address)
            second_channel, second = stub_for(two.address)
            with first_channel, second_channel:
                access = create(first, seed=15)
                keys = tokens(access)
                _play(first, keys, 3)
                _play(second, keys, 2, prefix="two")  # both processes now hold the game
                assert first.GetView(pb.GetViewRequest(token=keys["p1"])).view.version > 0
                done, last = _delete_last_command(store, access.game_id)
                missing = f"events {done} to {last} are missing"
                before = store.rows(access.game_id)
                for stub in (first, second):
                    _data_loss(lambda s=stub: s.GetView(pb.GetViewRequest(token=keys["p1"])), access.game_id, missing)
                    _data_loss(lambda s=stub: s.SubmitDecision(_answer(s, keys, "late")), access.game_id, missing)
                    assert missing in _listed(stub)[access.game_id].damaged
                assert store.rows(access.game_id) == before


def test_a_whole_command_deleted_is_refused_by_every_process_of_serve_processes(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = Store(store_env(db=str(db)), db=db)
    with ServeProcess(["--db", str(db), "--processes", "2"]) as server:
        try:
            channel, stub = stub_for(server.address)
            with channel:
                access = create(stub, seed=16)
                keys = tokens(access)
                _play(stub, keys, 4)
            # connections are spread over the children: several, so each child is likely reached
            for n in range(6):
                channel, stub = stub_for(server.address)
                with channel:
                    assert stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.version > 0, n
            done, last = _delete_last_command(store, access.game_id)
            for _ in range(6):
                channel, stub = stub_for(server.address)
                with channel:
                    _data_loss(
                        lambda s=stub: s.GetView(pb.GetViewRequest(token=keys["p1"])),
                        access.game_id,
                        f"events {done} to {last} are missing",
                    )
            assert server.terminate() == 0
        finally:
            if server.proc.poll() is None:
                server.terminate()  # SIGTERM: the parent stops its children (SIGKILL would orphan them)
