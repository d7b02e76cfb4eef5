"""The three Core scenarios played with imported decks (a RingsDB export and an OCTGN deck):
in the terminal (`westmarch new` then `westmarch play`, every seat a bot), with `westmarch
simulate`, and over gRPC (CreateGame with `PlayerSetup.deck`, each seat its own bot client).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from uuid import UUID

import pytest
from grpc import aio

from bots import make_bot
from domain.kernel.events import DecisionAnswered
from domain.lcg import events as ev
from domain.lcg.ruleset import LCG
from domain.verify import verify
from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tests.rpc_support import stub_for, threaded_server
from tools.cli import main
from tools.rpc_client import BotReport, play_seat

DECKS = Path(__file__).parent / "decks"
RINGSDB = DECKS / "aragorn-gimli-legolas.json"
OCTGN = DECKS / "theodred-gloin-thalin.o8d"
SCENARIOS = ("passage-through-mirkwood", "journey-along-the-anduin", "escape-from-dol-guldur")
LINEUPS = [("core-001", "core-004", "core-005"), ("core-002", "core-003", "core-006")]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, _ = capsys.readouterr()
    return code, out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_in_the_terminal(scenario: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    code, out = _run(capsys, "new", "lcg", "--scenario", scenario, "--deck", str(RINGSDB), "--deck", str(OCTGN),
                     "--db", db, "--seed", "3")  # fmt: skip
    assert code == 0
    game = out.strip()
    code, out = _run(capsys, "log", game, "--brief", "--to", "1", "--db", db)
    assert "p1 with Aragorn, Gimli and Legolas; p2 with Théodred, Glóin and Thalin" in out
    code, out = _run(capsys, "play", game, "--bot", "p1=greedy", "--bot", "p2=greedy", "--db", db)
    assert code == 0 and "GAME OVER" in out
    code, out = _run(capsys, "verify", game, "--db", db)
    assert code == 0


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_simulate(scenario: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "simulate", "lcg", "--scenario", scenario, "--deck", str(RINGSDB), "--deck", str(OCTGN),
                     "--games", "2", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["games"] == 2


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_over_grpc(scenario: str, tmp_path: Path) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            request = pb.CreateGameRequest(
                game="lcg",
                scenario=scenario,
                seed=5,
                players=[
                    pb.PlayerSetup(deck=[RINGSDB.read_text(encoding="utf-8")], deck_format="ringsdb"),
                    pb.PlayerSetup(deck=OCTGN.read_text(encoding="utf-8").splitlines()),
                ],
            )
            access = stub.CreateGame(request).access
        game_id = UUID(access.game_id)
        created = server.app.history(game_id)[0]
        assert isinstance(created, ev.GameCreated)
        assert created.options.scenario == scenario
        assert [p.heroes for p in created.options.players] == LINEUPS

        async def play() -> list[pb.View | None]:
            async with aio.insecure_channel(server.address) as achannel:
                astub: pb_grpc.GameServiceAsyncStub = pb_grpc.GameServiceStub(achannel)
                report = BotReport()
                seats = [
                    play_seat(astub, access.game_id, s.token, make_bot("greedy", i), access.version, report)
                    for i, s in enumerate(access.seats)
                ]
                return list(await asyncio.gather(*seats))

        views = asyncio.run(play())
        assert any(v is not None and v.over for v in views)
        history = server.app.history(game_id)
        assert len([e for e in history if isinstance(e, DecisionAnswered)]) > 20
        assert verify(LCG, history).ok


@pytest.mark.parametrize("verb", ["new", "simulate"])
def test_help_shows_how(verb: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([verb, "lcg", "--help"])
    out = capsys.readouterr().out
    assert "westmarch new lcg --scenario journey-along-the-anduin --deck mine.json --deck friend.json" in out
    assert "westmarch simulate lcg --scenario escape-from-dol-guldur --deck mine.json" in out
    assert 'deck_format "ringsdb"' in out and "CreateGame" in out
