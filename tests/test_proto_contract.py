"""The contract a client author meets: ``proto/`` compiles on its own (``protoc -Iproto``, as
buf lays it out), keeps buf's lint rules, and the running server's reflection lists every
service it serves, with descriptors a client can build from."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from service.rpc.gen.westmarch.v1 import epic_pb2 as epb
from service.rpc.gen.westmarch.v1 import epic_pb2_grpc as epb_grpc
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from tests.rpc_support import stub_for, threaded_server
from tools.protogen import PROTO_DIR, proto_files

SERVED = {
    "westmarch.v1.GameService",
    "westmarch.v1.EpicService",
    "westmarch.v1.RoomService",
    "grpc.health.v1.Health",
    "grpc.reflection.v1alpha.ServerReflection",
}


def compile_alone(out: Path) -> descriptor_pb2.FileDescriptorSet:
    """Every .proto compiled with ``proto/`` as the only import root (and protoc's own
    well-known types), into ``out``: Python modules and a descriptor set."""
    files = [p.relative_to(PROTO_DIR).as_posix() for p in proto_files()]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            f"-I{PROTO_DIR}",
            f"--python_out={out}",
            f"--grpc_python_out={out}",
            f"--descriptor_set_out={out / 'set.binpb'}",
            "--include_imports",
            *files,
        ],
        capture_output=True,
        text=True,
        cwd=out,
    )
    assert result.returncode == 0, result.stderr
    return descriptor_pb2.FileDescriptorSet.FromString((out / "set.binpb").read_bytes())


def test_the_proto_folder_compiles_alone(tmp_path: Path) -> None:
    found = compile_alone(tmp_path)
    names = {f.name for f in found.file}
    assert {"westmarch/v1/westmarch.proto", "westmarch/v1/epic.proto", "westmarch/v1/room.proto"} <= names
    for f in found.file:
        for dependency in f.dependency:
            assert dependency in names, f"{f.name} imports {dependency}, which -Iproto does not hold"
    # the modules generated this way import one another by the proto's own paths
    made = tmp_path / "westmarch" / "v1" / "epic_pb2.py"
    assert "from westmarch.v1 import westmarch_pb2" in made.read_text()
    # and the committed stubs register the same files under the same names
    assert epb.DESCRIPTOR.name == "westmarch/v1/epic.proto"
    assert [d.name for d in epb.DESCRIPTOR.dependencies] == ["westmarch/v1/westmarch.proto"]


def test_buf_lint_is_clean() -> None:
    buf = Path(sys.executable).with_name("buf")
    path = str(buf) if buf.exists() else shutil.which("buf")
    assert path, "buf is not installed: it comes with the dev extra (pip install -e '.[dev]', package buf-bin)"
    assert (PROTO_DIR / "buf.yaml").is_file()
    result = subprocess.run([path, "lint"], cwd=PROTO_DIR, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    built = subprocess.run([path, "build", "-o", "-#format=json"], cwd=PROTO_DIR, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()


def test_the_lint_rules_that_matter_hold(tmp_path: Path) -> None:
    """buf's STANDARD rules a client author leans on, checked on the descriptors themselves
    (so they hold even where buf is not installed)."""
    ours = [f for f in compile_alone(tmp_path).file if f.package.startswith("westmarch.")]
    assert len(ours) == len(proto_files())
    problems: list[str] = []
    for f in ours:
        if str(Path(f.name).parent) != f.package.replace(".", "/"):
            problems.append(f"{f.name}: package {f.package} is not its folder")
        if not re.fullmatch(r"westmarch\.v\d+", f.package):
            problems.append(f"{f.name}: package {f.package} has no version suffix")
        enums = [*f.enum_type, *(e for m in f.message_type for e in m.enum_type)]
        for enum in enums:
            prefix = _snake(enum.name)
            zero = enum.value[0]
            if zero.number != 0 or zero.name != f"{prefix}_UNSPECIFIED":
                problems.append(f"{enum.name}: its zero value is {zero.name}, not {prefix}_UNSPECIFIED")
            problems += [f"{v.name}: not prefixed {prefix}_" for v in enum.value if not v.name.startswith(prefix + "_")]
        for message in f.message_type:
            if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", message.name):
                problems.append(f"message {message.name} is not PascalCase")
            problems += [
                f"{message.name}.{field.name} is not lower_snake_case"
                for field in message.field
                if not re.fullmatch(r"[a-z][a-z0-9_]*", field.name)
            ]
        for service in f.service:
            if not service.name.endswith("Service"):
                problems.append(f"service {service.name} does not end in Service")
            for method in service.method:
                want = (f".{f.package}.{method.name}Request", f".{f.package}.{method.name}Response")
                if (method.input_type, method.output_type) != want:
                    problems.append(f"{service.name}.{method.name} takes {method.input_type} for {want[0]} ...")
    assert not problems, "\n".join(problems)


def test_watch_epic_sends_what_get_epic_returns() -> None:
    """WatchEpic has messages of its own (one pair per call) with GetEpic's very fields, so a
    sheet decodes the same from either call."""

    def fields(message: object) -> list[tuple[str, int, int, int, str]]:
        descriptor = message.DESCRIPTOR  # type: ignore[attr-defined]
        return [
            (f.name, f.number, f.type, int(f.is_repeated), f.message_type.full_name if f.message_type else "")
            for f in descriptor.fields
        ]

    def mapless(rows: list[tuple[str, int, int, int, str]]) -> list[tuple[str, int, int, int, str]]:
        return [(n, num, t, lab, re.sub(r"^westmarch\.v1\.\w+\.", "", m)) for n, num, t, lab, m in rows]

    assert fields(epb.WatchEpicRequest) == fields(epb.GetEpicRequest)
    assert mapless(fields(epb.WatchEpicResponse)) == mapless(fields(epb.GetEpicResponse))
    sheet = epb.GetEpicResponse(epic_id="e", version=3, totals={"progress": 4}, reached=["1B"])
    assert epb.WatchEpicResponse.FromString(sheet.SerializeToString()).totals["progress"] == 4


def _reflect(channel: grpc.Channel, **request: str) -> list[reflection_pb2.ServerReflectionResponse]:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    return list(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(**request)]), timeout=10))


def test_reflection_lists_every_served_service(tmp_path: Path) -> None:
    from service.app import store_env

    with threaded_server(store_env(db=str(tmp_path / "g.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            (reply,) = _reflect(channel, list_services="")
            listed = {s.name for s in reply.list_services_response.service}
            assert listed == SERVED
            # each listed westmarch service answers its calls (none is listed but unserved)
            assert stub.GetCatalog(pb.GetCatalogRequest(), timeout=10).games
            with pytest.raises(grpc.RpcError) as refused:
                epb_grpc.EpicServiceStub(channel).GetEpic(epb.GetEpicRequest(organizer_token=""), timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            # a client builds every westmarch service from reflection alone, imports included
            pool = descriptor_pool.DescriptorPool()
            wanted = [name for name in sorted(listed) if name.startswith("westmarch.")]
            files: dict[str, descriptor_pb2.FileDescriptorProto] = {}
            for name in wanted:
                (answer,) = _reflect(channel, file_containing_symbol=name)
                for raw in answer.file_descriptor_response.file_descriptor_proto:
                    proto = descriptor_pb2.FileDescriptorProto.FromString(raw)
                    files[proto.name] = proto
            missing = {d for f in files.values() for d in f.dependency} - set(files)
            for name in sorted(missing):
                (answer,) = _reflect(channel, file_by_filename=name)
                for raw in answer.file_descriptor_response.file_descriptor_proto:
                    proto = descriptor_pb2.FileDescriptorProto.FromString(raw)
                    files[proto.name] = proto
            ours = ["westmarch/v1/westmarch.proto", "westmarch/v1/epic.proto", "westmarch/v1/room.proto"]
            assert set(files) == set(ours)
            for name in ours:
                pool.Add(files[name])
            for name in wanted:
                assert pool.FindServiceByName(name).methods, name


GAME_LINE = re.compile(r'^//   "(?P<game>[a-z]+)" +(?P<title>[^.]+)\.')
SCENARIO_START = re.compile(r'^//\s+"[a-z0-9-]+"( \(default\))?:')
SCENARIO_LINE = re.compile(
    r'^//\s+"(?P<key>[a-z0-9-]+)"(?P<default> \(default\))?: (?P<min>\d+)(?: to (?P<max>\d+))? players?; '
    r"seats (?P<seats>[a-z0-9-]+(?:, [a-z0-9-]+)*); difficulty (?P<difficulties>[a-z]+(?:, [a-z]+)*)$"
)


def _header_games() -> dict[str, dict[str, object]]:
    """The games as the header comment of westmarch.proto lists them: each game's title, its
    default scenario and each scenario's players, seats and difficulties, with the text of
    the game's block (for its options)."""
    header = (PROTO_DIR / "westmarch" / "v1" / "westmarch.proto").read_text().split("\nsyntax", 1)[0]
    games: dict[str, dict[str, object]] = {}
    current: dict[str, object] | None = None
    for line in header.splitlines():
        if game := GAME_LINE.match(line):
            current = games[game["game"]] = {"title": game["title"], "default": "", "scenarios": {}, "text": ""}
        if current is None:
            continue
        current["text"] = f"{current['text']}{line}\n"
        if SCENARIO_START.match(line):
            found = SCENARIO_LINE.match(line)
            assert found, f"a scenario line the contract test cannot read: {line!r}"
            low = int(found["min"])
            scenarios = current["scenarios"]
            assert isinstance(scenarios, dict)
            scenarios[found["key"]] = (
                low,
                int(found["max"] or low),
                tuple(found["seats"].split(", ")),
                tuple(found["difficulties"].split(", ")),
            )
            if found["default"]:
                assert not current["default"], f"two default scenarios for one game: {line!r}"
                current["default"] = found["key"]
    return games


def test_the_proto_names_every_scenario_difficulty_and_seat_of_the_catalog(tmp_path: Path) -> None:
    from service.app import store_env

    with threaded_server(store_env(db=str(tmp_path / "g.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            catalog = stub.GetCatalog(pb.GetCatalogRequest(), timeout=10).games
    served = {
        g.game: {
            "title": g.title,
            "default": g.default_scenario,
            "scenarios": {
                s.key: (s.min_players, s.max_players, tuple(s.seats), tuple(s.difficulties)) for s in g.scenarios
            },
        }
        for g in catalog
    }
    written = _header_games()
    assert {k: {f: v for f, v in g.items() if f != "text"} for k, g in written.items()} == served
    assert set(served) == {"lcg", "wotr"} and all(len(g["scenarios"]) >= 4 for g in served.values())  # type: ignore[arg-type]
    # every option the catalog offers, with each of its values, is named in its game's block
    for game in catalog:
        text = str(written[game.game]["text"])
        for option in game.options:
            assert f'"{option.name}"' in text, f"{game.game}: option {option.name} is not in the proto's header"
            for value in option.values:
                assert not value or f'"{value}"' in text, f"{game.game}: {option.name}={value} is not in the header"
