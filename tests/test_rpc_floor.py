"""What the gRPC server does per call beyond the game service's own work (the floor of
``tools/bench_load.py``): counted, so that work cut from it stays cut."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4, uuid5

import pytest
from eventsourcing.persistence import StoredEvent

from bots import random_choice
from domain.engine import engine
from domain.lcg.decks.ready_made import ready_made
from projections.lcg import PROJECTION
from projections.projection import GameProjection
from projections.prompts import translate
from service import store
from service.app import Westmarch, store_env
from service.autoplay import Autoplay
from service.commands import Access, GameService, SubmitResult
from service.games import GameRequest, PlayerSetup
from service.records import command_id, length_id
from service.room import SeatPlan
from service.rpc import convert
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tests.rpc_support import create, stub_for, threaded_server


def _random_commands(
    service: GameService, seed: int, moves: int, with_view: Callable[[int], bool] = lambda n: False
) -> Iterator[tuple[Access, SubmitResult]]:
    """A new LCG game of ``seed`` played by the random bot through ``submit_as`` for up to
    ``moves`` commands (``c0``, ``c1``, ...), each command's result with the game's access."""
    rng = random.Random(seed)
    access = service.create(GameRequest(game="lcg"), seed=seed)
    seat = next(iter(access.seats))
    version, decision = access.version, service.view_as(access.game_id, seat).decision
    for n in range(moves):
        assert decision is not None
        choice = list(random_choice(decision, rng))
        result = service.submit_as(access.game_id, seat, version, decision.id, choice, f"c{n}", with_view(n))
        yield access, result
        if result.over:
            return
        version, decision = result.version, result.decision


def test_the_server_fills_the_first_games_caches_before_its_first_call(tmp_path: Path) -> None:
    """The ready-made decks are parsed and the engine's version read once, at start: not by
    the first CreateGame of each worker thread, all missing those caches at once."""
    ready_made.cache_clear()
    engine.cache_clear()
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        assert ready_made.cache_info().currsize == 1
        assert engine.cache_info().currsize == 1
        misses = ready_made.cache_info().misses, engine.cache_info().misses
        channel, stub = stub_for(server.address)
        with channel:
            for seed in range(1, 4):
                create(stub, seed=seed)
        assert (ready_made.cache_info().misses, engine.cache_info().misses) == misses


def _answer(stub: pb_grpc.GameServiceStub, token: str, n: int) -> None:
    view = stub.GetView(pb.GetViewRequest(token=token)).view
    choice = list(random_choice(decision_from_pb(view.decision), random.Random(n)))
    stub.SubmitDecision(
        pb.SubmitDecisionRequest(
            token=token,
            expected_version=view.version,
            decision_id=view.decision.id,
            choice=choice,
            command_id=f"c{n}",
        )
    )


def test_a_command_wakes_the_event_loop_only_for_a_game_someone_watches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A saved command hands the loop a wake of its game's watchers only while the game has
    some: with none, nothing (the answer is sent all the same); a watcher is woken as before."""
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        hub = server.servicer.hub
        woken: list[UUID] = []
        wake = hub.wake

        def counted(game_id: UUID, version: int | None = None) -> None:
            woken.append(game_id)
            wake(game_id, version)

        monkeypatch.setattr(hub, "wake", counted)
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, seed=5)
            token = access.seats[0].token
            for n in range(3):
                _answer(stub, token, n)
            # a wake handed over is run before the answer it came with is sent
            assert woken == []
            stream = stub.Watch(pb.WatchRequest(token=token, from_version=0))
            first = next(stream)
            for n in range(3, 6):
                _answer(stub, token, n)
                update = next(stream)
                assert update.view.version > first.view.version
                first = update
            stream.cancel()
        assert woken and set(woken) == {UUID(access.game_id)}


def test_a_command_on_a_game_without_bots_hands_the_autoplay_threads_no_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room of a game is read after each command saved on it, on the thread that saved
    it: a game the server has nothing to play on takes no turn of the autoplay threads."""
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        autoplay = server.autoplay
        turns: list[UUID] = []
        turn = autoplay._turn

        def counted(game_id: UUID) -> None:
            turns.append(game_id)
            turn(game_id)

        monkeypatch.setattr(autoplay, "_turn", counted)
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, seed=5)
            for n in range(3):
                _answer(stub, access.seats[0].token, n)
        assert turns == []


def test_a_sweep_reads_the_notification_log_without_making_a_notification_of_each_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A periodic sweep reads the rows saved since the sweep before last (on a busy server,
    each command's events): on SQLite it takes only what it needs of them (a room's opening
    in full, of a game's event its id and version), not a notification with its state each.
    A room opened since is watched all the same."""
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    service = GameService(app)
    player = Autoplay(service, every=0)
    rng = random.Random(1)
    try:
        player.first_sweep()
        game_id = service.create(GameRequest("lcg"), seed=1).game_id
        for n in range(5):
            decision = service.state(game_id).pending
            service.submit_as(game_id, decision.seat, 0, decision.id, random_choice(decision, rng), f"c{n}")
        seated = GameRequest("lcg", players=(PlayerSetup(),), seating=(SeatPlan("p1", name="Ann"),))
        roomed = service.create(seated, seed=3).game_id
        made: list[int] = []
        select = app.recorder.select_notifications

        def counted(*args: object, **kwargs: object) -> object:
            made.append(1)
            return select(*args, **kwargs)

        monkeypatch.setattr(app.recorder, "select_notifications", counted)
        player.tick()
        assert made == []
        assert player.watched == 1 and roomed in player._watched
    finally:
        player.close()
        app.close()


def _plain_submit_pb(r: SubmitResult) -> pb.SubmitDecisionResponse:
    """A submission's response built the plain way: each event and the decision (with each
    option) made as a message of its own and copied into the response."""
    out = pb.SubmitDecisionResponse(
        version=r.version,
        events=[convert.event_pb(p) for p in r.events],
        replayed=r.replayed,
        waiting_for=r.waiting_for,
        over=r.over,
    )
    if r.decision is not None:
        d = r.decision
        decision = pb.Decision(
            id=d.id,
            seat=d.seat,
            kind=convert.KIND_TO_PB[d.kind],
            prompt=translate(d.prompt),
            rule=d.rule,
            options=[pb.Option(id=o.id, label=translate(o.label), card=o.card) for o in d.options],
            min=d.min,
            max=d.max,
        )
        if d.about is not None:
            decision.about = d.about
        out.decision.CopyFrom(decision)
    if r.view is not None:
        out.view.CopyFrom(convert.view_pb(r.view))
    return out


class _Counting:
    """The protobuf module as ``service/rpc/convert.py`` sees it, counting the Event, Decision
    and Option messages made apart (not as a field of a message already made)."""

    def __init__(self) -> None:
        self.made: list[str] = []

    def __getattr__(self, name: str) -> Any:
        kind = getattr(pb, name)
        if name not in ("Event", "Decision", "Option"):
            return kind

        def make(*args: Any, **kwargs: Any) -> Any:
            self.made.append(name)
            return kind(*args, **kwargs)

        return make


def test_a_submissions_response_is_written_in_place_and_is_the_plain_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The floor's response: its events and decision are written into the response's own
    fields, no Event, Decision or Option message made apart and copied in; the response is
    the one built the plain way, byte for byte, with and without the view."""
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    service = GameService(app)
    results = [r for seed in (1, 2, 3) for _, r in _random_commands(service, seed, 60, lambda n: n % 7 == 0)]
    app.close()
    counting = _Counting()
    for result in results:
        with monkeypatch.context() as patch:
            patch.setattr(convert, "pb", counting)
            response = convert.submit_pb(result)
        plain = _plain_submit_pb(result)
        assert response == plain
        assert response.SerializeToString(deterministic=True) == plain.SerializeToString(deterministic=True)
    assert counting.made == []
    assert any(r.decision is not None and r.decision.options for r in results)
    assert any(r.view is not None for r in results) and sum(len(r.events) for r in results) > 100


def test_a_command_saves_its_rows_without_making_a_stored_event_of_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite a command's rows (its events, the command applied, the log's length) go to
    the store as tuples, no library StoredEvent made of each; what is stored is what the
    library's mapping of the same events and records stores."""
    made: list[StoredEvent] = []

    def counted(*args: Any, **kwargs: Any) -> StoredEvent:
        made.append(StoredEvent(*args, **kwargs))
        return made[-1]

    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    service = GameService(app)
    with monkeypatch.context() as patch:
        patch.setattr(store, "StoredEvent", counted)
        played = list(_random_commands(service, 4, 20))
    assert made == [] and len(played) == 20
    access = played[0][0]
    seat = next(iter(access.seats))
    ids = [access.game_id, length_id(access.game_id), command_id(access.game_id, seat, "c3")]
    rows = [row for i in ids for row in app.recorder.select_events(i)]
    assert len(rows) > 20
    for row in rows:
        assert app.mapper.to_stored_event(app.mapper.to_domain_event(row)) == row
    app.close()


def test_the_lcg_projection_reads_an_events_cards_without_a_call_through_its_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The feed asks the LCG projection for every event's cards and redactions: answered
    without a call through ``GameProjection`` (none made over a game's commands), and the
    same as the plain reading (the base's answer, then the payments), for events with and
    without payments, cards seen and unseen."""
    calls: list[str] = []
    for name in ("refs", "redact"):
        plain = getattr(GameProjection, name)
        monkeypatch.setattr(GameProjection, name, lambda self, *a, _p=plain, _n=name: calls.append(_n) or _p(self, *a))
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    service = GameService(app)
    bodies = [p.body for seed in (2, 5) for _, r in _random_commands(service, seed, 40) for p in r.events]
    app.close()
    assert calls == [] and len(bodies) > 100
    monkeypatch.undo()
    assert any(b.get("payments") for b in bodies)
    for body in bodies:
        base = GameProjection.refs(PROJECTION, body)
        assert PROJECTION.refs(body) == base | {p[0] for p in body.get("payments", ())}
        for hidden in (base, set(list(base)[::2]), {p[0] for p in body.get("payments", ())}):
            mine, plain = copy.deepcopy(body), copy.deepcopy(body)
            seeing = lambda uid, _h=hidden: uid not in _h  # noqa: E731
            changed = GameProjection.redact(PROJECTION, plain, seeing)
            if "payments" in plain:
                kept = [p for p in plain["payments"] if seeing(p[0])]
                if len(kept) != len(plain["payments"]):
                    plain["payments"], changed = kept, True
            assert (PROJECTION.redact(mine, seeing), mine) == (changed, plain)


def test_a_commands_id_is_the_uuid5_of_its_game_seat_and_command() -> None:
    """command_id writes uuid5 out (the library's imports hashlib at each call): the same ids."""
    for game_id, seat, command in [(uuid4(), "p1", uuid4().hex), (uuid4(), "free", "ré/ø"), (UUID(int=0), "", "")]:
        assert command_id(game_id, seat, command) == uuid5(game_id, f"command/{seat}/{command}")
