"""The contract: the committed stubs are what the .proto generates, and the server serves it."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import SERVICE_NAME
from tests.rpc_support import threaded_server
from tools.protogen import GEN_PACKAGE, ROOT, SCHEMA_DIR, generate, schemas


def test_committed_stubs_match_the_proto(tmp_path: Path) -> None:
    generated = generate(tmp_path)
    assert generated, "protoc generated nothing"
    names = {p.relative_to(tmp_path) for p in generated}
    committed = {p.relative_to(ROOT) for p in (ROOT / GEN_PACKAGE).rglob("*") if p.is_file() and "_pb2" in p.name}
    assert names == committed, f"stubs missing or extra: {sorted(map(str, names ^ committed))}"
    for name in sorted(names):
        fresh, kept = (tmp_path / name).read_bytes(), (ROOT / name).read_bytes()
        assert fresh == kept, f"{name} differs from what proto/ generates: run `python -m tools.protogen`"


def test_committed_json_schemas_match_the_code() -> None:
    fresh = schemas()
    kept = {p.name: p.read_bytes() for p in SCHEMA_DIR.glob("*.json")}
    assert set(fresh) == set(kept) == {f"{g}.{k}.json" for g in ("lcg", "wotr") for k in ("table", "events")}
    for name, data in fresh.items():
        assert kept[name] == data, f"{name} differs from what the code generates: run `python -m tools.protogen`"


def test_views_and_events_sent_match_their_schemas(tmp_path: Path) -> None:
    """The table a seat receives validates against its game's schema (checked structurally by
    decoding it as the schema's type), and every event type sent is one the schema names."""
    import json

    import msgspec

    from projections.lcg import TableView
    from service.app import store_env
    from tests.rpc_support import create, stub_for, tokens

    names = {d for d in json.loads((SCHEMA_DIR / "lcg.events.json").read_bytes())["$defs"]}
    with threaded_server(store_env(db=str(tmp_path / "g.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            keys = tokens(create(stub, players=2, seed=3))
            view = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view
            msgspec.json.decode(view.table, type=TableView)
            history = stub.GetHistory(pb.GetHistoryRequest(token=keys["p2"])).events
            assert history and {e.type for e in history} <= names


def test_the_service_is_westmarch_v1() -> None:
    service = pb.DESCRIPTOR.services_by_name["GameService"]
    assert service.full_name == SERVICE_NAME == "westmarch.v1.GameService"
    assert {m.name for m in service.methods} == {
        "CreateGame",
        "ListGames",
        "GetView",
        "SubmitDecision",
        "Watch",
        "GetHistory",
        "ExplainEvent",
        "ForkGame",
        "VerifyGame",
        "GetCatalog",
        "ExportGame",
        "TakeBack",
        "RotateToken",
        "AnalyzeDecision",
    }


def test_health_and_reflection(tmp_path: Path) -> None:
    from service.app import store_env

    with threaded_server(store_env(db=str(tmp_path / "g.db"))) as server, grpc.insecure_channel(server.address) as ch:
        health = health_pb2_grpc.HealthStub(ch)
        for name in ("", SERVICE_NAME):
            reply = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        reflect = reflection_pb2_grpc.ServerReflectionStub(ch)
        replies = list(reflect.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
        listed = {s.name for s in replies[0].list_services_response.service}
        assert {SERVICE_NAME, "grpc.health.v1.Health"} <= listed
        replies = list(
            reflect.ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE_NAME)])
            )
        )
        assert replies[0].file_descriptor_response.file_descriptor_proto, "no descriptor for the service"


def test_the_catalog_lists_every_game_scenario_option_and_seat(tmp_path: Path) -> None:
    from domain.lcg.scenarios import SCENARIOS as LCG_SCENARIOS
    from domain.lcg.scenarios import load
    from domain.wotr.options import scenario_keys
    from service.app import store_env
    from tests.rpc_support import stub_for

    load()
    with threaded_server(store_env(db=str(tmp_path / "g.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            games = {g.game: g for g in stub.GetCatalog(pb.GetCatalogRequest()).games}
            assert set(games) == {"lcg", "wotr"}
            assert {s.key for s in games["lcg"].scenarios} == set(LCG_SCENARIOS)
            assert {s.key for s in games["wotr"].scenarios} == set(scenario_keys())
            trilogy = next(s for s in games["wotr"].scenarios if s.key == "trilogy")
            assert list(trilogy.seats) == ["frodo", "witch-king", "aragorn", "saruman"]
            options = {o.name: o for o in games["wotr"].options}
            assert list(options["play_cost"].values) == ["cycle", "cycle-or-forsake"]
            assert options["when_played_in_reserve"].default == "false" and options["excess_hand"].description
            assert [o.name for o in games["lcg"].options] == ["difficulty"]
            # every option value the catalog offers is one CreateGame takes
            for game in games.values():
                for option in game.options:
                    for value in option.values:
                        request = pb.CreateGameRequest(
                            game=game.game, scenario=game.default_scenario, options={option.name: value}
                        )
                        made = stub.CreateGame(request)
                        assert made.access.game_id


def test_every_catalog_deck_plays_by_its_key(tmp_path: Path) -> None:
    import msgspec

    from domain.lcg.decks.ready_made import ready_made
    from projections.lcg import TableView
    from service.app import store_env
    from tests.rpc_support import stub_for, tokens

    with threaded_server(store_env(db=str(tmp_path / "g.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            lcg = next(g for g in stub.GetCatalog(pb.GetCatalogRequest()).games if g.game == "lcg")
            assert {d.key for d in lcg.decks} >= {"leadership", "tactics", "spirit", "lore"}
            for deck in lcg.decks:
                # the catalog lists the deck shipped under its key, every copy of every card
                shipped = sum(n for _, n in ready_made()[deck.key].cards)
                assert len(deck.heroes) == 3 and sum(int(line.split("x ", 1)[0]) for line in deck.cards) == shipped
                made = stub.CreateGame(pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup(deck=[deck.key])]))
                view = stub.GetView(pb.GetViewRequest(token=tokens(made.access)["referee"])).view
                table = msgspec.json.decode(view.table, type=TableView)
                assert [h.name for h in table.players[0].heroes] == list(deck.heroes)


def test_every_difficulty_the_catalog_lists_starts_its_scenario(tmp_path: Path) -> None:
    """Each scenario's difficulties (the default first) are what CreateGame takes for it, and
    nothing else is: a difficulty one scenario has and another lacks is refused there."""
    from service.app import store_env
    from tests.rpc_support import stub_for

    with threaded_server(store_env(db=str(tmp_path / "g.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            games = stub.GetCatalog(pb.GetCatalogRequest()).games
            every = {d for g in games for s in g.scenarios for d in s.difficulties}
            assert {"standard", "easy", "hard", "challenging"} <= every
            for game in games:
                bots = {"bots": "shadow"} if game.game == "wotr" else {}
                for scenario in game.scenarios:
                    assert scenario.difficulties[0] == "standard"
                    for difficulty in sorted(every):
                        request = pb.CreateGameRequest(
                            game=game.game, scenario=scenario.key, options={**bots, "difficulty": difficulty}, seed=1
                        )
                        if difficulty in scenario.difficulties:
                            assert stub.CreateGame(request).access.game_id
                        else:
                            with pytest.raises(grpc.RpcError) as refused:
                                stub.CreateGame(request)
                            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (scenario.key, difficulty)
