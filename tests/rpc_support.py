"""Helpers for the gRPC tests: real servers on loopback ports (threads or processes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc

from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from service.rpc.server import ServerOptions, ThreadedServer
from tests.conftest import POSTGRES_DSN
from tools.pgschema import scratch_schema

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh, empty schema on the local PostgreSQL, dropped afterwards."""
    with scratch_schema(POSTGRES_DSN) as schema:
        yield schema


def pg_env(schema: str) -> dict[str, str]:
    from service.app import store_env

    env = store_env(postgres=POSTGRES_DSN)
    env["POSTGRES_SCHEMA"] = schema
    return env


@contextmanager
def threaded_server(env: dict[str, str], **options: object) -> Iterator[ThreadedServer]:
    server = ThreadedServer(ServerOptions(env=env, **options))  # type: ignore[arg-type]
    server.start()
    try:
        yield server
    finally:
        server.stop()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, and its key (PEM files in ``folder``)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def stub_for(address: str) -> tuple[grpc.Channel, pb_grpc.GameServiceStub]:
    channel = grpc.insecure_channel(address)
    return channel, pb_grpc.GameServiceStub(channel)


class ServeProcess:
    """``westmarch serve`` in a subprocess, on a free loopback port."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        full_env = {**os.environ, "WESTMARCH_LANG": "en"}  # the first line is read here: in English
        full_env.update(env or {})
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tools.cli", "serve", "--port", "0", "--log-level", "warning", *args],
            cwd=ROOT,
            env=full_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "serving on" not in line:
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line!r} {self.proc.stderr.read() if self.proc.stderr else ''}")
        self.address = line.strip().rsplit(" ", 1)[-1]

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(20)

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def create(
    stub: pb_grpc.GameServiceStub, players: int = 1, seed: int = 1, difficulty: str = "standard", scenario: str = ""
) -> pb.GameAccess:
    response = stub.CreateGame(
        pb.CreateGameRequest(
            game="lcg",
            scenario=scenario,
            players=[pb.PlayerSetup() for _ in range(players)],
            options={"difficulty": difficulty},
            seed=seed,
        )
    )
    return response.access


def tokens(access: pb.GameAccess) -> dict[str, str]:
    out = {s.seat: s.token for s in access.seats}
    out["spectator"] = access.spectator_token
    out["referee"] = access.referee_token
    return out


def wait_until(predicate: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")
