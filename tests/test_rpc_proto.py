"""The contract: the committed stubs are what the .proto generates, and the server serves it."""

from __future__ import annotations

from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import SERVICE_NAME
from tests.rpc_support import threaded_server
from tools.protogen import GEN_PACKAGE, ROOT, generate


def test_committed_stubs_match_the_proto(tmp_path: Path) -> None:
    generated = generate(tmp_path)
    assert generated, "protoc generated nothing"
    names = {p.relative_to(tmp_path) for p in generated}
    committed = {p.relative_to(ROOT) for p in (ROOT / GEN_PACKAGE).rglob("*") if p.is_file() and "_pb2" in p.name}
    assert names == committed, f"stubs missing or extra: {sorted(map(str, names ^ committed))}"
    for name in sorted(names):
        fresh, kept = (tmp_path / name).read_bytes(), (ROOT / name).read_bytes()
        assert fresh == kept, f"{name} differs from what proto/ generates: run `python -m tools.protogen`"


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
        "ExportGame",
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
