"""The room around a game over gRPC (RoomService): seating checked before anything is saved,
bot seats played by the server (once, across processes and restarts), auto-pass, the lobby's
open seats taken once, table talk read only by those entitled, take-backs told in the room
and followed, decks read as CreateGame reads them, an epic group's take-back."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import grpc
import msgspec
import pytest

from bots import BOTS, is_action_window, make_bot, random_choice
from domain.kernel.events import DecisionAnswered
from domain.lcg import epic as organizer
from projections.lcg import TableView
from service.app import Westmarch, store_env
from service.autoplay import Autoplay
from service.commands import GameService
from service.games import GameRequest, PlayerSetup
from service.records import CommandApplied, command_id
from service.room import SeatPlan
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import epic_pb2 as epb
from service.rpc.gen.westmarch.v1 import epic_pb2_grpc as epb_grpc
from service.rpc.gen.westmarch.v1 import room_pb2 as rpb
from service.rpc.gen.westmarch.v1 import room_pb2_grpc as rpb_grpc
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.limits import Limits
from service.rpc.server import ThreadedServer
from tests.rpc_support import pg_env, postgres_schema, stub_for, threaded_server, tokens, wait_until

DECKS = Path(__file__).parent / "decks"
Stubs = tuple[pb_grpc.GameServiceStub, rpb_grpc.RoomServiceStub]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    folder = tmp_path_factory.mktemp("room")
    with threaded_server(store_env(db=str(folder / "games.db"))) as running:
        yield running


@pytest.fixture(scope="module")
def stubs(server: ThreadedServer) -> Iterator[tuple[pb_grpc.GameServiceStub, rpb_grpc.RoomServiceStub]]:
    channel, stub = stub_for(server.address)
    with channel:
        yield stub, rpb_grpc.RoomServiceStub(channel)


def rows(server: ThreadedServer) -> int:
    """Every row of the store: games, their records, rooms."""
    with sqlite3.connect(server.app.env["SQLITE_DBNAME"]) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM stored_events").fetchone()
    db.close()
    return int(count)


def lcg(players: int, seating: list[pb.SeatPlan], seed: int = 1, unlisted: bool = False) -> pb.CreateGameRequest:
    return pb.CreateGameRequest(
        game="lcg", players=[pb.PlayerSetup() for _ in range(players)], seating=seating, seed=seed, unlisted=unlisted
    )


def play(stub: pb_grpc.GameServiceStub, keys: dict[str, str], game_id: str, seed: int, limit: int = 5000) -> pb.View:
    """Random answers for the seats ``keys`` holds until the game ends; the server plays the rest."""
    rng = random.Random(seed)
    for n in range(limit):
        view = stub.GetView(pb.GetViewRequest(game_id=game_id, token=keys["referee"])).view
        if view.over:
            return view
        seat = view.waiting_for
        if seat not in keys:
            time.sleep(0.01)
            continue
        mine = stub.GetView(pb.GetViewRequest(game_id=game_id, token=keys[seat])).view
        if not mine.HasField("decision"):
            continue
        decision = decision_from_pb(mine.decision)
        request = pb.SubmitDecisionRequest(
            game_id=game_id,
            token=keys[seat],
            decision_id=decision.id,
            choice=list(random_choice(decision, rng)),
            command_id=f"t{n}",
        )
        try:
            stub.SubmitDecision(request)
        except grpc.RpcError as error:
            assert error.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION), error
    raise AssertionError("the game did not end")


# -- seating --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seating", "said"),
    [
        ([pb.SeatPlan(seat="p7")], "the game has no seat 'p7'"),
        ([pb.SeatPlan(seat="p1", name="A"), pb.SeatPlan(seat="p1", name="B")], "seat p1 is given twice"),
        ([pb.SeatPlan(seat="p2", bot="clever")], "unknown bot 'clever' for p2; offered: random, greedy"),
        ([pb.SeatPlan(seat="p2", bot="greedy", name="Robo")], "seat p2 is a bot's"),
        ([pb.SeatPlan(seat="p2", name="Bob", open=True)], "it cannot be open to anyone too"),
        ([pb.SeatPlan(seat="p1", name="x" * 41)], "a name is 1 to 40 characters"),
    ],
)
def test_a_refused_seating_creates_nothing(
    server: ThreadedServer,
    stubs: Stubs,
    seating: list[pb.SeatPlan],
    said: str,
) -> None:
    stub, _ = stubs
    before = rows(server)
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateGame(lcg(2, seating))
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert said in (refused.value.details() or "")
    assert rows(server) == before


def test_a_seat_the_rules_play_takes_no_seating(server: ThreadedServer, stubs: Stubs) -> None:
    stub, _ = stubs
    before = rows(server)
    request = pb.CreateGameRequest(
        game="wotr", scenario="two-player-duel", options={"bots": "shadow"}, seating=[pb.SeatPlan(seat="witch-king")]
    )
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateGame(request)
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "the rules play seat witch-king" in (refused.value.details() or "")
    assert rows(server) == before


def test_the_catalog_offers_every_bot_make_bot_offers(
    stubs: Stubs,
) -> None:
    stub, _ = stubs
    games = stub.GetCatalog(pb.GetCatalogRequest()).games
    assert all(list(g.bots) == list(BOTS) for g in games)
    trilogy = next(s for g in games if g.game == "wotr" for s in g.scenarios if s.key == "trilogy")
    assert list(trilogy.shadow_seats) == ["witch-king", "saruman"]


# -- bot seats and auto-pass -----------------------------------------------------------------


def test_the_server_plays_a_bot_seat_through_the_command_path(server: ThreadedServer, stubs: Stubs) -> None:
    """A bot seat has no token; each of its decisions is a command of its own (command id
    ``bot/<decision>``), and the game it plays verifies."""
    stub, rooms = stubs
    access = stub.CreateGame(lcg(2, [pb.SeatPlan(seat="p1", name="Ann"), pb.SeatPlan(seat="p2", bot="random")])).access
    assert [s.seat for s in access.seats] == ["p1"]
    keys = tokens(access)
    room = rooms.GetRoom(rpb.GetRoomRequest(token=keys["p1"])).room
    assert [(s.seat, s.name, s.bot) for s in room.seats] == [("p1", "Ann", ""), ("p2", "", "random")]
    play(stub, keys, access.game_id, seed=3)
    game_id = UUID(access.game_id)
    answered = [e for e in server.app.history(game_id) if isinstance(e, DecisionAnswered) and e.seat == "p2"]
    assert answered
    for event in answered:
        record = server.app.record(command_id(game_id, "p2", f"bot/{event.decision}"))
        assert isinstance(record, CommandApplied) and record.choice == event.choice
    assert stub.VerifyGame(pb.VerifyGameRequest(token=keys["p1"])).ok


def test_auto_pass_is_kept_with_the_game_and_passes_the_seats_windows(server: ThreadedServer, stubs: Stubs) -> None:
    stub, rooms = stubs
    access = stub.CreateGame(lcg(1, [pb.SeatPlan(seat="p1", name="Ann")], seed=5)).access
    keys = tokens(access)
    seat = rooms.SetSeat(rpb.SetSeatRequest(token=keys["p1"], auto_pass=True)).seat
    assert seat.auto_pass and seat.name == "Ann"
    game_id = UUID(access.game_id)
    for n in range(40):  # the person answers what is not a window; the windows pass themselves
        view = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view
        if view.over:
            break
        decision = decision_from_pb(view.decision)
        if is_action_window(decision):
            wait_until(lambda d=decision: stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.decision.id != d.id)
            continue
        stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                token=keys["p1"],
                decision_id=decision.id,
                choice=list(random_choice(decision, random.Random(n))),
                command_id=f"a{n}",
            )
        )
    passed = [
        e
        for e in server.app.history(game_id)
        if isinstance(e, DecisionAnswered) and server.app.record(command_id(game_id, "p1", f"auto-pass/{e.decision}"))
    ]
    assert passed and all(e.choice == ("pass",) for e in passed)
    assert [s.auto_pass for s in rooms.GetRoom(rpb.GetRoomRequest(token=keys["p1"])).room.seats] == [True]
    with pytest.raises(grpc.RpcError) as refused:
        rooms.SetSeat(rpb.SetSeatRequest(token=keys["spectator"], auto_pass=True))
    assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED


def test_a_game_waiting_for_a_bot_goes_on_after_a_restart(tmp_path: Path) -> None:
    """Bot seats are kept with the game: a server started on a store whose game waits for a
    bot (its last server stopped first) plays it on."""
    env = store_env(db=str(tmp_path / "games.db"))
    app = Westmarch(env)
    service = GameService(app)  # no server: nothing plays the bot
    request = GameRequest("lcg", players=(PlayerSetup(),), seating=(SeatPlan("p1", bot="greedy"),))
    access = service.create(request, seed=9)
    assert service.state(access.game_id).pending.seat == "p1"  # the bot's mulligan, waiting
    waiting = service.state(access.game_id).version
    app.close()
    with threaded_server(env) as running:
        wait_until(lambda: running.servicer.service.state(access.game_id).over is not None, 60)
        assert running.servicer.service.state(access.game_id).version > waiting


def test_two_server_processes_answer_each_bot_decision_once() -> None:
    """Two servers on one PostgreSQL database, both told again and again to play the same
    all-bot game: every decision is answered once (the other's try finds the first answer by
    its command id), and the game verifies."""
    with postgres_schema() as schema:
        env = pg_env(schema)
        with threaded_server(env) as first, threaded_server(env) as second:
            seating = [pb.SeatPlan(seat=f"p{n}", bot="random") for n in range(1, 4)]
            channel, stub = stub_for(first.address)
            with channel:
                access = stub.CreateGame(lcg(3, seating, seed=11)).access
                game_id = UUID(access.game_id)
                both = [first.autoplay, second.autoplay]

                def nudge(autoplay: Autoplay) -> None:
                    while first.servicer.service.state(game_id).over is None:
                        autoplay.notify(game_id)
                        time.sleep(0.005)

                threads = [threading.Thread(target=nudge, args=(a,)) for a in both]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(180)
                answered = [e for e in first.app.history(game_id) if isinstance(e, DecisionAnswered)]
                # an answer is counted once its submit returns, a moment after the save is seen
                wait_until(lambda: sum(a.answered for a in both) >= len(answered), 30)
                assert sum(a.answered for a in both) == len(answered) > 50
                assert stub.VerifyGame(pb.VerifyGameRequest(token=access.referee_token)).ok


# -- the lobby ----------------------------------------------------------------------------------


def test_an_open_seat_is_taken_once(server: ThreadedServer, stubs: Stubs) -> None:
    stub, rooms = stubs
    seating = [pb.SeatPlan(seat="p1", name="Ann"), pb.SeatPlan(seat="p2", open=True)]
    access = stub.CreateGame(lcg(2, seating, seed=13)).access
    keys = tokens(access)
    listed = {g.game_id: g for g in rooms.ListOpenGames(rpb.ListOpenGamesRequest()).games}
    assert [(s.seat, s.open) for s in listed[access.game_id].seats] == [("p1", False), ("p2", True)]
    assert listed[access.game_id].title == "Passage through Mirkwood"

    results: list[object] = []

    def take(name: str) -> None:
        try:
            results.append(rooms.JoinGame(rpb.JoinGameRequest(game_id=access.game_id, seat="p2", name=name)))
        except grpc.RpcError as error:
            results.append(error)

    racers = [threading.Thread(target=take, args=(name,)) for name in ("Bob", "Eve", "Mallory")]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(30)
    joined = [r for r in results if isinstance(r, rpb.JoinGameResponse)]
    refused = [r for r in results if isinstance(r, grpc.RpcError)]
    assert len(joined) == 1 and len(refused) == 2
    assert all(r.code() is grpc.StatusCode.ALREADY_EXISTS for r in refused)
    token = joined[0].token
    assert stub.GetView(pb.GetViewRequest(token=token)).view.viewer == "p2"
    with pytest.raises(grpc.RpcError) as old:  # the link made for the seat no longer opens it
        stub.GetView(pb.GetViewRequest(token=keys["p2"]))
    assert old.value.code() is grpc.StatusCode.UNAUTHENTICATED
    assert access.game_id not in {g.game_id for g in rooms.ListOpenGames(rpb.ListOpenGamesRequest()).games}
    with pytest.raises(grpc.RpcError) as closed:
        rooms.JoinGame(rpb.JoinGameRequest(game_id=access.game_id, seat="p1", name="Eve"))
    assert closed.value.code() is grpc.StatusCode.ALREADY_EXISTS and "not open" in (closed.value.details() or "")


def test_an_unlisted_game_is_not_offered_or_joined(
    stubs: Stubs,
) -> None:
    stub, rooms = stubs
    access = stub.CreateGame(lcg(2, [pb.SeatPlan(seat="p2", open=True)], seed=14, unlisted=True)).access
    assert access.game_id not in {g.game_id for g in rooms.ListOpenGames(rpb.ListOpenGamesRequest()).games}
    with pytest.raises(grpc.RpcError) as refused:
        rooms.JoinGame(rpb.JoinGameRequest(game_id=access.game_id, seat="p2", name="Eve"))
    assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED


def test_a_private_server_lists_no_open_game(tmp_path: Path) -> None:
    with threaded_server(store_env(db=str(tmp_path / "g.db")), private=True) as running:
        channel, _ = stub_for(running.address)
        with channel, pytest.raises(grpc.RpcError) as refused:
            rpb_grpc.RoomServiceStub(channel).ListOpenGames(rpb.ListOpenGamesRequest())
    assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED


# -- table talk ---------------------------------------------------------------------------------


def test_each_channel_is_read_only_by_those_entitled(
    stubs: Stubs,
) -> None:
    stub, rooms = stubs
    access = stub.CreateGame(lcg(2, [pb.SeatPlan(seat="p1", name="Ann"), pb.SeatPlan(seat="p2", name="Bob")])).access
    keys = tokens(access)
    rooms.Say(rpb.SayRequest(token=keys["p1"], text="I hold Gandalf"))
    rooms.Say(rpb.SayRequest(token=keys["spectator"], text="p1 looks confident"))
    rooms.Say(rpb.SayRequest(token=keys["referee"], channel="table", text="play on"))
    rooms.Say(rpb.SayRequest(token=keys["referee"], channel="watchers", text="p1 has no Gandalf"))

    def heard(viewer: str) -> list[tuple[str, str, str]]:
        room = rooms.GetRoom(rpb.GetRoomRequest(token=keys[viewer])).room
        return [(m.channel, m.name, m.text) for m in room.messages]

    assert heard("p2") == [("table", "Ann", "I hold Gandalf"), ("table", "referee", "play on")]
    assert heard("spectator") == [
        ("watchers", "spectator", "p1 looks confident"),
        ("watchers", "referee", "p1 has no Gandalf"),
    ]
    assert len(heard("referee")) == 4
    later = rooms.GetRoom(rpb.GetRoomRequest(token=keys["p2"], heard={"table": 3})).room.messages
    assert [m.text for m in later] == ["play on"]  # only what the page has not heard
    for token, channel in ((keys["p1"], "watchers"), (keys["spectator"], "table"), (keys["p1"], "epic")):
        with pytest.raises(grpc.RpcError) as refused:
            rooms.Say(rpb.SayRequest(token=token, channel=channel, text="psst"))
        assert refused.value.code() in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.INVALID_ARGUMENT)
    for text in ("", "x" * 501):
        with pytest.raises(grpc.RpcError) as refused:
            rooms.Say(rpb.SayRequest(token=keys["p1"], text=text))
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT


def test_the_groups_of_an_epic_event_talk_to_one_another(server: ThreadedServer) -> None:
    channel, _ = stub_for(server.address)
    with channel:
        rooms = rpb_grpc.RoomServiceStub(channel)
        created = epb_grpc.EpicServiceStub(channel).CreateEpic(epb.CreateEpicRequest(groups=[1, 1], seed=4))
        first, second = (tokens(g) for g in created.groups)
        rooms.Say(rpb.SayRequest(token=first["p1"], channel="epic", text="the Dreadnaught is ours"))
        rooms.Say(rpb.SayRequest(token=first["p1"], channel="table", text="just us"))
        room = rooms.GetRoom(rpb.GetRoomRequest(token=second["p1"])).room
        assert [(m.channel, m.text, m.game_id) for m in room.messages] == [
            ("epic", "the Dreadnaught is ours", created.groups[0].game_id)
        ]
        assert list(room.says) == ["table", "epic"] and room.epic_id == created.epic_id
        assert not rooms.GetRoom(rpb.GetRoomRequest(token=first["spectator"])).room.messages


def test_an_epic_events_organizer_talks_with_every_group(server: ThreadedServer) -> None:
    """The organizer's token opens the event's channel between the groups: the organizer reads
    what the groups' seats say there and says something every group's seats read (as a Watch
    of the room shows at once); it holds no seat and no other channel, and a wrong organizer
    token is refused."""
    channel, _ = stub_for(server.address)
    with channel:
        rooms = rpb_grpc.RoomServiceStub(channel)
        created = epb_grpc.EpicServiceStub(channel).CreateEpic(epb.CreateEpicRequest(groups=[1, 2], seed=6))
        first, second = (tokens(g) for g in created.groups)
        organizer = created.organizer_token
        watching = rooms.WatchRoom(rpb.WatchRoomRequest(token=second["p2"]))
        assert not next(iter(watching)).room.messages
        rooms.Say(rpb.SayRequest(token=first["p1"], channel="epic", text="group 1 sighted it"))
        said = rooms.Say(rpb.SayRequest(token=organizer, channel="epic", text="stage 1B: 20 of 24 progress")).message
        assert (said.by, said.name, said.channel, said.game_id) == ("organizer", "organizer", "epic", created.epic_id)
        updates = iter(watching)
        heard: list[tuple[str, str]] = []
        while len(heard) < 2:  # told in one update or in two
            heard += [(m.by, m.text) for m in next(updates).room.messages]
        assert heard == [("p1", "group 1 sighted it"), ("organizer", "stage 1B: 20 of 24 progress")]
        watching.cancel()
        for token in (first["p1"], second["p1"], second["referee"]):
            room = rooms.GetRoom(rpb.GetRoomRequest(token=token)).room
            assert ("organizer", "stage 1B: 20 of 24 progress") in [(m.by, m.text) for m in room.messages]
        assert not rooms.GetRoom(rpb.GetRoomRequest(token=second["spectator"])).room.messages
        room = rooms.GetRoom(rpb.GetRoomRequest(token=organizer)).room
        assert [(m.by, m.text) for m in room.messages] == [
            ("p1", "group 1 sighted it"),
            ("organizer", "stage 1B: 20 of 24 progress"),
        ]
        assert (room.viewer, list(room.reads), list(room.says), room.epic_id) == (
            "organizer",
            ["epic"],
            ["epic"],
            created.epic_id,
        )
        assert not room.seats
        with pytest.raises(grpc.RpcError) as refused:
            rooms.Say(rpb.SayRequest(token=organizer, channel="table", text="hello table"))
        assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED
        assert "the organizer cannot say anything on table; it may on epic" in (refused.value.details() or "")
        with pytest.raises(grpc.RpcError) as refused:
            rooms.SetSeat(rpb.SetSeatRequest(token=organizer, name="Boss"))
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        forged = organizer[:-4] + ("AAAA" if not organizer.endswith("AAAA") else "BBBB")
        with pytest.raises(grpc.RpcError) as refused:
            rooms.Say(rpb.SayRequest(token=forged, channel="epic", text="an impostor"))
        assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED
        assert "an impostor" not in [m.text for m in rooms.GetRoom(rpb.GetRoomRequest(token=organizer)).room.messages]


# -- take-backs, my games, decks ----------------------------------------------------------------


def test_a_take_back_is_told_in_the_room_and_followed(server: ThreadedServer, stubs: Stubs) -> None:
    stub, rooms = stubs
    seating = [pb.SeatPlan(seat="p1", name="Ann"), pb.SeatPlan(seat="p2", name="Bob")]
    access = stub.CreateGame(lcg(2, seating, seed=21)).access
    keys = tokens(access)
    rooms.SetSeat(rpb.SetSeatRequest(token=keys["p2"], auto_pass=True))
    decision = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.decision
    stub.SubmitDecision(
        pb.SubmitDecisionRequest(token=keys["p1"], decision_id=decision.id, choice=["keep"], command_id="k")
    )
    asked = stub.TakeBack(pb.TakeBackRequest(token=keys["p1"]))
    assert list(asked.waiting_for) == ["p2"]
    [ask] = rooms.GetRoom(rpb.GetRoomRequest(token=keys["p2"])).room.take_backs
    assert (ask.seat, ask.at, list(ask.agreed), list(ask.waiting_for)) == ("p1", decision.id, ["p1"], ["p2"])
    branch = stub.TakeBack(pb.TakeBackRequest(token=keys["p2"], seat="p1")).game_id
    assert rooms.GetRoom(rpb.GetRoomRequest(token=keys["p1"])).room.moved_to == branch
    moved = rooms.GetRoom(rpb.GetRoomRequest(game_id=branch, token=keys["p2"])).room
    assert (moved.came_from, moved.came_at, moved.came_why, moved.came_seat) == (
        access.game_id,
        decision.id,
        "take-back",
        "p1",
    )
    assert [(s.name, s.auto_pass) for s in moved.seats] == [("Ann", False), ("Bob", True)]  # everyone keeps their seat
    mine = rooms.GetMyGames(
        rpb.GetMyGamesRequest(games=[rpb.MyGameRef(token=keys["p1"]), rpb.MyGameRef(token=keys["p1"][:-3] + "abc")])
    ).games
    assert (mine[0].game_id, mine[0].viewer, mine[0].name, mine[0].waiting_for) == (branch, "p1", "Ann", "p1")
    assert mine[1].error and not mine[1].game_id
    assert server.servicer.service.rooms.room(UUID(access.game_id)).moved is not None


def test_a_deck_is_read_as_create_game_reads_it(
    stubs: Stubs,
) -> None:
    stub, rooms = stubs
    ringsdb = (DECKS / "aragorn-gimli-legolas.json").read_text()
    read = rooms.CheckDeck(rpb.CheckDeckRequest(deck=[ringsdb]))
    assert (read.deck_format, list(read.heroes), list(read.problems)) == (
        "ringsdb",
        ["Aragorn", "Gimli", "Legolas"],
        [],
    )
    assert rooms.CheckDeck(rpb.CheckDeckRequest(deck=["leadership"])).deck_format == "ready-made"
    bad = ["Heroes: Aragorn, Aragorn", "3x Gaurd of the Citadel", "4x Faramir"]
    problems = list(rooms.CheckDeck(rpb.CheckDeckRequest(deck=bad)).problems)
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateGame(pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup(deck=bad)]))
    assert problems and all(p in (refused.value.details() or "") for p in problems)


def test_a_take_back_in_an_epic_group_moves_the_group(server: ThreadedServer) -> None:
    """Alone in her group, a player takes a decision back: the organizer follows the group's
    new game and counts it to the end as it counts any group; once the organizer has counted
    what followed a decision, taking it back is refused with the reason."""
    channel, stub = stub_for(server.address)
    with channel:
        epics = epb_grpc.EpicServiceStub(channel)
        setups = [
            epb.EpicGroupSetup(players=[pb.PlayerSetup()] * 2, seating=[pb.SeatPlan(seat="p2", bot="greedy")])
            for _ in range(2)
        ]
        created = epics.CreateEpic(epb.CreateEpicRequest(setups=setups, difficulty="easy", seed=8))
        first, second = (tokens(g) for g in created.groups)
        decision = stub.GetView(pb.GetViewRequest(token=first["p1"])).view.decision
        stub.SubmitDecision(
            pb.SubmitDecisionRequest(token=first["p1"], decision_id=decision.id, choice=["keep"], command_id="k")
        )
        branch = stub.TakeBack(pb.TakeBackRequest(token=first["p1"])).game_id  # alone: at once
        assert branch
        sheet = epics.GetEpic(epb.GetEpicRequest(organizer_token=created.organizer_token))
        assert [g.game_id for g in sheet.groups] == [branch, created.groups[1].game_id]

        service = server.servicer.service

        def placed_after(version: int) -> bool:
            """Whether the group's log placed a contribution after ``version``: once it did,
            a take-back to ``version`` is refused (the take-back has the organizer follow
            the group first, so whether it counted them yet does not matter)."""
            events = server.app.history(UUID(branch), gt=version)
            return any(organizer.contributions(service.state(UUID(branch)), events).values())

        bot = make_bot("greedy", 5, "lcg")  # p1 plays well enough to quest past stage 1A
        answered: int | None = None  # the version of p1's last decision
        for n in range(2000):  # on until the group contributes after one of p1's decisions
            view = stub.GetView(pb.GetViewRequest(game_id=branch, token=first["p1"])).view
            if view.over:
                raise AssertionError("the group never contributed")
            if not view.HasField("decision"):
                continue
            # p1's decision is pending: the bot seat cannot move, so the log read is whole (the
            # bot's moves after p1's decision are played on threads of the server's own)
            if answered is not None and placed_after(answered):
                with pytest.raises(grpc.RpcError) as refused:
                    stub.TakeBack(pb.TakeBackRequest(game_id=branch, token=first["p1"]))
                assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
                assert "the organizer has counted what the group did after version" in (refused.value.details() or "")
                break
            mine = decision_from_pb(view.decision)
            table = msgspec.json.decode(view.table, type=TableView)
            stub.SubmitDecision(
                pb.SubmitDecisionRequest(
                    game_id=branch,
                    token=first["p1"],
                    decision_id=mine.id,
                    choice=list(bot.choose(mine, lambda table=table: table)),
                    command_id=f"e{n}",
                )
            )
            answered = mine.id
        else:
            raise AssertionError("nothing was counted after p1's decisions")
        play(stub, first, branch, seed=1)
        play(stub, second, created.groups[1].game_id, seed=2)
        sheet = epics.GetEpic(epb.GetEpicRequest(organizer_token=created.organizer_token))
        for group in sheet.groups:  # the organizer's count of each group is what its log placed
            game_id = UUID(group.game_id)
            placed = organizer.contributions(service.state(game_id), server.app.history(game_id))
            assert dict(group.contributed) == placed
        assert [g.result for g in sheet.groups] == ["lost", "lost"] or all(g.result for g in sheet.groups)


def test_the_rooms_calls_are_under_the_servers_limits(tmp_path: Path) -> None:
    """WatchRoom streams count as Watch streams (per token); the calls without a token
    (CheckDeck, JoinGame, ListOpenGames) draw on the same budget as CreateGame."""
    limits = Limits(streams_per_token=2, open_calls_per_second=0.01, open_calls_burst=4)
    with threaded_server(store_env(db=str(tmp_path / "g.db")), limits=limits) as running:
        channel, stub = stub_for(running.address)
        with channel:
            rooms = rpb_grpc.RoomServiceStub(channel)
            access = stub.CreateGame(lcg(1, [pb.SeatPlan(seat="p1", name="Ann")])).access  # the first open call
            token = access.seats[0].token
            streams = [rooms.WatchRoom(rpb.WatchRoomRequest(token=token)) for _ in range(3)]
            assert next(streams[0]).room.seats[0].name == "Ann" and next(streams[1]).room.viewer == "p1"
            with pytest.raises(grpc.RpcError) as refused:
                next(streams[2])
            assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
            for stream in streams[:2]:
                stream.cancel()
            for _ in range(3):
                rooms.CheckDeck(rpb.CheckDeckRequest(deck=["leadership"]))
            with pytest.raises(grpc.RpcError) as refused:
                rooms.CheckDeck(rpb.CheckDeckRequest(deck=["leadership"]))
            assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED


def test_a_search_bot_seat_searches_in_a_process_of_its_own(tmp_path: Path) -> None:
    """The search bot (whatever make_bot offers may sit at the table) answers through the
    command path like any bot, its search run outside the server's interpreter."""
    with threaded_server(store_env(db=str(tmp_path / "g.db"))) as running:
        running.autoplay.search_seconds = 0.02
        channel, stub = stub_for(running.address)
        with channel:
            access = stub.CreateGame(lcg(1, [pb.SeatPlan(seat="p1", bot="search")], seed=17)).access
        game_id = UUID(access.game_id)

        def answered() -> list[DecisionAnswered]:
            return [e for e in running.app.history(game_id) if isinstance(e, DecisionAnswered)]

        # a bound on liveness only: the spawned search process starts slowly on a loaded machine
        wait_until(lambda: len(answered()) >= 4, 240)
        for event in answered()[:4]:
            record = running.app.record(command_id(game_id, "p1", f"bot/{event.decision}"))
            assert isinstance(record, CommandApplied) and record.choice == event.choice
        assert running.autoplay._searches is not None  # the search's own process


def test_malformed_room_requests_are_refused_as_invalid(server: ThreadedServer) -> None:
    channel = grpc.insecure_channel(server.address)
    with channel:
        for method, call in (("Say", channel.unary_unary), ("WatchRoom", channel.unary_stream)):
            send = call(f"/westmarch.v1.RoomService/{method}", request_serializer=bytes, response_deserializer=bytes)
            with pytest.raises(grpc.RpcError) as refused:
                answer = send(b"\xff\x00\x07")
                if method == "WatchRoom":
                    next(iter(answer))
            assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT, method
            assert "malformed" in (refused.value.details() or "")
