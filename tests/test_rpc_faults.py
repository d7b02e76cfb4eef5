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
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 2 and [("DAMAGED" in line) for line in listed] == [True, False]
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
