"""Generate the Python gRPC stubs from ``proto/westmarch/v1/*.proto``.

The stubs are committed under ``service/rpc/gen`` (a test regenerates them into a
temporary folder and fails on any difference, so they cannot drift from the contract).
Run ``python -m tools.protogen`` after changing a ``.proto`` file. It uses grpcio-tools
(the pinned version in the ``dev`` extra) and mypy-protobuf for the ``.pyi`` stubs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
    files = [f"{GEN_PACKAGE}/{p.relative_to(PROTO_DIR).as_posix()}" for p in proto_files()]
    out = str(out_root)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            f"-I{GEN_PACKAGE}={PROTO_DIR}",
            f"--python_out={out}",
            f"--grpc_python_out={out}",
            f"--mypy_out={out}",
            f"--mypy_grpc_out={out}",
            *files,
        ],
        check=True,
        env=env,
        cwd=ROOT,
        capture_output=True,
    )
    generated = sorted(p for p in (out_root / GEN_PACKAGE).rglob("*") if p.is_file() and "_pb2" in p.name)
    return generated


def main() -> int:
    for path in generate(ROOT):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
