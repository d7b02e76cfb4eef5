"""Generate the Python gRPC stubs from ``proto/westmarch/v1/*.proto``.

The stubs are committed under ``service/rpc/gen`` (a test regenerates them into a
temporary folder and fails on any difference, so they cannot drift from the contract).
Run ``python -m tools.protogen`` after changing a ``.proto`` file. It uses grpcio-tools
(the pinned version in the ``dev`` extra) and mypy-protobuf for the ``.pyi`` stubs.

``proto/`` is the one import root, as a client author (and ``buf``, ``proto/buf.yaml``)
compiles it: ``protoc -Iproto westmarch/v1/*.proto``. protoc names a generated module after
its file's path (``westmarch.v1.epic_pb2``), so the modules are written to a scratch folder
and their imports of one another rewritten to the package they live in here
(``service.rpc.gen.westmarch.v1``); the descriptors keep the proto's own file names.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
GEN_PACKAGE = "service/rpc/gen"
"""The generated modules are importable as ``service.rpc.gen.westmarch.v1``."""


def proto_files() -> list[Path]:
    return sorted(PROTO_DIR.rglob("*.proto"))


def generate(out_root: Path) -> list[Path]:
    """Write the generated modules under ``out_root/service/rpc/gen``; returns them."""
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    files = [p.relative_to(PROTO_DIR).as_posix() for p in proto_files()]
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "grpc_tools.protoc",
                f"-I{PROTO_DIR}",
                f"--python_out={scratch}",
                f"--grpc_python_out={scratch}",
                f"--mypy_out={scratch}",
                f"--mypy_grpc_out={scratch}",
                *files,
            ],
            check=True,
            env=env,
            cwd=ROOT,
            capture_output=True,
        )
        generated = []
        for made in sorted(Path(scratch).rglob("*")):
            if made.is_file() and "_pb2" in made.name:
                target = out_root / GEN_PACKAGE / made.relative_to(scratch)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(rehome(made.read_text(encoding="utf-8")), encoding="utf-8")
                generated.append(target)
    return generated


GEN_MODULE = GEN_PACKAGE.replace("/", ".")
_MODULE_PATHS = (
    # the generated modules' imports of one another
    (re.compile(r"^from (westmarch\.v1) import ", re.MULTILINE), rf"from {GEN_MODULE}.\1 import "),
    # the module name the message classes are built under
    (re.compile(r"(BuildTopDescriptorsAndMessages\(DESCRIPTOR, ')(westmarch\.v1\.)"), rf"\1{GEN_MODULE}.\2"),
    # where the version check's message says the module is
    (re.compile(r"(generated code in )(westmarch/v1/)"), rf"\1{GEN_PACKAGE}/\2"),
)


def rehome(text: str) -> str:
    """A module protoc generated as ``westmarch.v1.*``, importing its siblings from
    ``service.rpc.gen.westmarch.v1`` instead."""
    for pattern, replacement in _MODULE_PATHS:
        text = pattern.sub(replacement, text)
    stray = re.search(r"^(?:from|import) westmarch\b.*$", text, re.MULTILINE)
    if stray:
        raise ValueError(f"an import protogen does not know how to rewrite: {stray.group(0)}")
    return text


SCHEMA_DIR = PROTO_DIR / "westmarch" / "v1" / "schema"
"""JSON Schemas of each game's table view and event bodies, shipped beside the proto."""


SCHEMA_NOTES = {
    "table": "View.table: the table as one viewer may see it (hidden cards are left out or shown face down).",
    "events": "Each event in full. Event.body carries its fields but 'type' (Event.type) and the envelope "
    "(seq, cause, flow, draws, hash: Event's own fields); fields a viewer may not see are left out or emptied.",
}


def schemas() -> dict[str, bytes]:
    """File name to JSON Schema, generated from the code: ``<game>.table.json`` describes
    ``View.table``; ``<game>.events.json`` describes each event in full, of which
    ``Event.body`` carries the fields (the tag ``type`` and the envelope fields seq, cause,
    flow, draws and hash travel as Event's own fields). For a viewer who may not see part
    of an event, those fields are left out or emptied in the body it receives."""
    import msgspec

    from domain.rulesets import names, ruleset
    from projections.lcg import TableView as LcgTable
    from projections.wotr import TableView as WotrTable

    tables: dict[str, Any] = {"lcg": LcgTable, "wotr": WotrTable}
    out: dict[str, bytes] = {}
    for name in names():
        for kind, schema in (
            ("table", msgspec.json.schema(tables[name])),
            ("events", msgspec.json.schema(ruleset(name).codec.event_type)),
        ):
            schema = {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": f"{name} {kind}",
                "description": SCHEMA_NOTES[kind],
                **schema,
            }
            out[f"{name}.{kind}.json"] = msgspec.json.format(msgspec.json.encode(schema), indent=1) + b"\n"
    return out


def main() -> int:
    for path in generate(ROOT):
        print(path.relative_to(ROOT))
    SCHEMA_DIR.mkdir(parents=True, exist_ok=True)
    for old in SCHEMA_DIR.glob("*.json"):
        old.unlink()
    for name, data in schemas().items():
        (SCHEMA_DIR / name).write_bytes(data)
        print((SCHEMA_DIR / name).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
