"""ExportGame over gRPC, against a real server on a loopback port.

During play only the referee may export (the record holds every hidden card and the seed);
once the game is over everyone may, and every export is the whole record, which verifies
offline and imports into another store.
"""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path
from uuid import UUID

import grpc
import msgspec
import pytest

from domain.lcg.ruleset import LCG
from domain.record import verify_record
from domain.rulesets import ruleset
from service.app import Westmarch, store_env
from service.archive import import_record
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tests.rpc_support import create, stub_for, threaded_server, tokens
from tools.cli import main


def exported(stub: pb_grpc.GameServiceStub, game_id: str, token: str) -> list[bytes]:
    chunks = [c.lines for c in stub.ExportGame(pb.ExportGameRequest(game_id=game_id, token=token))]
    assert all(c.endswith(b"\n") for c in chunks), "each chunk holds whole lines"
    return io.BytesIO(b"".join(chunks)).readlines()


def first_legal(decision: pb.Decision) -> list[str]:
    ids = [o.id for o in decision.options]
    if decision.kind == pb.KIND_ONE:
        return ids[:1]
    if decision.kind == pb.KIND_ORDER:
        return ids
    if decision.kind == pb.KIND_NUMBER:
        return [str(decision.min)]
    return ids[: decision.min]


def test_export_refused_to_seats_during_play_complete_for_the_referee_open_to_all_after(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, players=2, seed=5)
            keys = tokens(access)
            game = access.game_id
            for viewer in ("p1", "p2", "spectator"):
                with pytest.raises(grpc.RpcError) as refused:
                    exported(stub, game, keys[viewer])
                assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED
                assert f"the {viewer} cannot export a game in progress" in (refused.value.details() or "")
            saved = tmp_path / "game.jsonl"
            assert main(["export", "--server", server.address, "--token", keys["p1"], "-o", str(saved)]) == 2
            assert "PERMISSION_DENIED: the p1 cannot export" in capsys.readouterr().err and not saved.exists()
            with pytest.raises(grpc.RpcError) as refused:
                exported(stub, game, "not-a-token")
            assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
            # the referee's export is the whole game so far: every event, verified offline
            during = exported(stub, game, keys["referee"])
            assert len(during) == 1 + access.version
            assert msgspec.json.decode(during[0])["over"] is False
            assert verify_record(during, ruleset).verdict.ok
            # play to the end, each seat answering its own decisions
            version = access.version
            for n in range(5000):
                view = stub.GetView(pb.GetViewRequest(game_id=game, token=keys["referee"])).view
                if view.over:
                    break
                seat = view.waiting_for
                decision = stub.GetView(pb.GetViewRequest(game_id=game, token=keys[seat])).view.decision
                version = stub.SubmitDecision(
                    pb.SubmitDecisionRequest(
                        game_id=game,
                        token=keys[seat],
                        decision_id=decision.id,
                        choice=first_legal(decision),
                        command_id=f"c{n}",
                    )
                ).version
            else:
                raise AssertionError("the game did not end")
            # now everyone may export, and every export is the same record
            records = {viewer: exported(stub, game, token) for viewer, token in keys.items()}
            assert {len(r) for r in records.values()} == {1 + version}
            assert len({b"".join(r[1:]) for r in records.values()}) == 1
            header = msgspec.json.decode(records["p1"][0])
            assert header["over"] is True and header["outcome"]["result"] in ("won", "lost")
            assert header["rules_version"] == LCG.rules_version and header["events"] == version
            assert records["referee"][: len(during)][1:] == during[1:], "the record only grows"
            assert verify_record(records["spectator"], ruleset).verdict.ok
            verdict = stub.VerifyGame(pb.VerifyGameRequest(game_id=game, token=keys["p2"]))
            assert verdict.status == pb.VERIFY_STATUS_OK and verdict.recorded_rules_version == LCG.rules_version
            assert verdict.current_rules_version == LCG.rules_version and verdict.text.startswith("ok: ")
            # the command line exports as any token's viewer, and the file verifies offline
            assert main(["export", "--server", server.address, "--token", keys["p1"], "-o", str(saved)]) == 0
            assert saved.read_bytes().splitlines(keepends=True)[1:] == records["p1"][1:]
            assert main(["verify", str(saved)]) == 0
            # and it imports into another store as the same game
            other = Westmarch(store_env(db=str(tmp_path / "other.db")))
            done = import_record(other, records["p2"])
            assert done.events == version
            assert LCG.codec.encode(other.state_at(done.game_id)) == LCG.codec.encode(server.app.state_at(done.game_id))
            other.close()
            # a stored event that cannot be read is DATA_LOSS, not a broken record
            with sqlite3.connect(str(tmp_path / "games.db")) as conn:
                conn.execute(
                    "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                    (b"[1,{", UUID(game).hex, version),
                )
            with pytest.raises(grpc.RpcError) as refused:
                exported(stub, game, keys["referee"])
            assert refused.value.code() is grpc.StatusCode.DATA_LOSS
            # the check of the whole stored log before serving names the version
            assert f"damaged at version {version}: a stored event cannot be decoded" in (refused.value.details() or "")
