"""Benchmarks of the gRPC service, written to the ``service`` section of BENCHMARKS.md.

Measured in one run, with servers in their own processes on loopback ports and the clients
in this process (the same two cores serve both, as they would for any load test here):

- Command round trip (``SubmitDecision``) with one client, p50/p99, on SQLite: one-seat games
  played by a random bot, each answer sent as soon as the previous one returns.
- Throughput with 50 concurrent bot games, the same loop 50 times at once, against a bare echo
  gRPC server of the same shape (the same ``westmarch.v1`` service on the same asyncio server,
  every call answered with a canned response of about the same size), so the ratio says what
  the game service costs on top of gRPC itself.
- The same 50 games played by full bot clients (``westmarch bots``: each seat watches the game
  and answers when its decision comes).
- Memory (RSS) of one server holding 1,000 live games, each watched by a client.
- The same on PostgreSQL with two server processes sharing the database.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
from grpc import aio

from bots import random_choice
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tools.bench import publish
from tools.pgschema import scratch_schema
from tools.phrase import phrase
from tools.rpc_client import aio_channel, run_bots_async

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_DSN = os.environ.get("WESTMARCH_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


# -- the echo server ---------------------------------------------------------------------


def _canned() -> dict[str, Any]:
    decision = pb.Decision(
        id=42,
        seat="p1",
        kind=pb.KIND_ONE,
        prompt="Choose an ally to play, or done",
        rule="lcg.planning.play-ally",
        options=[pb.Option(id=str(i), label=f"Option {i}", card=i) for i in range(1, 6)],
        min=1,
        max=1,
    )
    events = [
        pb.Event(
            seq=100 + i,
            type="CardsExhausted",
            cause=pb.Cause(rule="lcg.quest.commit", answer=99),
            body=b'{"cards":[1,2,3]}',
            text="CardsExhausted(cards=Aragorn#1, Gimli#2, Legolas#3)",
        )
        for i in range(8)
    ]
    access = pb.GameAccess(game_id=str(uuid.uuid4()), game="lcg", seats=[pb.SeatToken(seat="p1", token="x" * 80)])
    view = pb.View(game_id=access.game_id, game="lcg", viewer="p1", version=100, table=b"{" + b" " * 6000 + b"}")
    return {
        "CreateGame": pb.CreateGameResponse(access=access),
        "ListGames": pb.ListGamesResponse(),
        "GetView": pb.GetViewResponse(view=view),
        "SubmitDecision": pb.SubmitDecisionResponse(version=108, events=events, decision=decision, waiting_for="p1"),
        "GetHistory": pb.GetHistoryResponse(events=events),
        "ExplainEvent": pb.ExplainEventResponse(),
        "ForkGame": pb.ForkGameResponse(access=access),
        "VerifyGame": pb.VerifyGameResponse(ok=True),
    }


async def _echo_main(port: int, through_servicer: bool = False) -> None:
    """The echo server: canned answers, on the same gRPC server as the service's. With
    ``through_servicer`` each call also goes the service's own way to its answer: the
    limits of its connection, the call's log entry and the hand-off to a worker thread and
    back (``service.rpc.server.Servicer.unary``), with no game behind it."""
    from service.rpc.server import SERVICE_NAME, _parser

    canned = _canned()
    wrap: Callable[[str, Any], Callable[[Any, Any], Awaitable[Any]]] | None = None
    cleanup: list[Callable[[], None]] = []
    if through_servicer:
        from concurrent.futures import ThreadPoolExecutor

        from service.app import Westmarch, store_env
        from service.commands import GameService
        from service.rpc.server import WORKERS, Hub, Servicer

        store = tempfile.TemporaryDirectory(prefix="westmarch-echo-")
        cleanup.append(store.cleanup)
        app = Westmarch(store_env(db=str(Path(store.name) / "echo.db")))  # the servicer needs one; never read
        servicer = Servicer(GameService(app), ThreadPoolExecutor(WORKERS), Hub(asyncio.get_running_loop()))
        wrap = servicer.unary
    requests = {
        "CreateGame": pb.CreateGameRequest,
        "ListGames": pb.ListGamesRequest,
        "GetView": pb.GetViewRequest,
        "SubmitDecision": pb.SubmitDecisionRequest,
        "GetHistory": pb.GetHistoryRequest,
        "ExplainEvent": pb.ExplainEventRequest,
        "ForkGame": pb.ForkGameRequest,
        "VerifyGame": pb.VerifyGameRequest,
    }

    def handler(name: str) -> Callable[[Any, Any], Awaitable[Any]]:
        response = canned[name]
        if wrap is not None:
            return wrap(name, lambda request, entry: response)

        async def answer(request: Any, context: Any) -> Any:
            return response

        return answer

    methods: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        name: grpc.unary_unary_rpc_method_handler(
            handler(name), request_deserializer=_parser(kind), response_serializer=type(canned[name]).SerializeToString
        )
        for name, kind in requests.items()
    }
    server = aio.server(options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, methods),))
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print(f"echo: serving on 127.0.0.1:{bound}", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.stop(1)
    for done in cleanup:
        done()


# -- processes ---------------------------------------------------------------------------


class Proc:
    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        full = dict(os.environ)
        full.update(env or {})
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=full, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "serving on" not in line:
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line!r}")
        self.address = line.strip().rsplit(" ", 1)[-1]

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def serve(args: list[str], env: dict[str, str] | None = None) -> Proc:
    return Proc([sys.executable, "-m", "tools.cli", "serve", "--port", "0", "--log-level", "warning", *args], env)


# -- load --------------------------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def submit_loops(
    addresses: list[str], loops: int, seconds: float, echo: bool = False, rate: float | None = None
) -> tuple[list[float], int]:
    """``loops`` clients, each on its own connection (spread over ``addresses``) playing one-seat
    games by chaining SubmitDecision; latencies (ms), count. With a ``rate``, the clients
    together make about that many SubmitDecision calls a second (each waits for its turn);
    otherwise each calls again as soon as it is answered."""
    channels = [aio_channel(addresses[n % len(addresses)]) for n in range(loops)]
    stubs = [pb_grpc.GameServiceStub(c) for c in channels]
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    interval = loops / rate if rate else 0.0

    async def loop(n: int) -> None:
        stub = stubs[n % len(stubs)]
        rng = random.Random(n)
        turn = time.perf_counter() + interval * n / loops
        while time.perf_counter() < deadline:
            access = (await stub.CreateGame(pb.CreateGameRequest(game="lcg", seed=rng.randrange(1, 2**31)))).access
            token = access.seats[0].token
            view = (await stub.GetView(pb.GetViewRequest(token=token))).view
            decision, version = view.decision, view.version
            if echo:
                decision = (await stub.SubmitDecision(pb.SubmitDecisionRequest(token=token))).decision
            while time.perf_counter() < deadline:
                d = decision_from_pb(decision)
                request = pb.SubmitDecisionRequest(
                    token=token,
                    expected_version=version,
                    decision_id=d.id,
                    choice=list(random_choice(d, rng)),
                    command_id=uuid.uuid4().hex,
                )
                if interval:
                    turn += interval
                    await asyncio.sleep(max(0.0, turn - time.perf_counter()))
                started = time.perf_counter()
                result = await stub.SubmitDecision(request)
                latencies.append((time.perf_counter() - started) * 1000)
                if result.over or not result.HasField("decision"):
                    break
                decision, version = result.decision, result.version

    await asyncio.gather(*(loop(n) for n in range(loops)))
    for c in channels:
        await c.close()
    return latencies, len(latencies)


async def hold_games(addresses: list[str], games: int) -> list[Any]:
    """Create ``games`` games (spread over the servers), answer one decision in each and keep a
    watch stream open on each; returns the open streams (cancel them when done)."""
    # 50 streams a connection, as 50 clients' browsers or bots would hold them (the server
    # allows 64 open streams per connection)
    channels = [aio_channel(addresses[n % len(addresses)]) for n in range(max(1, -(-games // 50)))]
    stubs = [pb_grpc.GameServiceStub(c) for c in channels]
    streams: list[Any] = []
    rng = random.Random(1)

    async def one(i: int) -> None:
        stub = stubs[i // 50]
        access = (await stub.CreateGame(pb.CreateGameRequest(game="lcg", seed=i + 1))).access
        token = access.seats[0].token
        stream = stub.Watch(pb.WatchRequest(token=token, from_version=access.version, omit_tables=True))
        update = await stream.read()
        assert isinstance(update, pb.WatchResponse)
        streams.append(stream)
        d = decision_from_pb(update.view.decision)
        await stub.SubmitDecision(
            pb.SubmitDecisionRequest(
                token=token,
                expected_version=update.view.version,
                decision_id=d.id,
                choice=list(random_choice(d, rng)),
                command_id="1",
            )
        )
        await stream.read()

    for start in range(0, games, 50):
        await asyncio.gather(*(one(i) for i in range(start, min(games, start + 50))))
    streams.append(channels)
    return streams


async def release(streams: list[Any]) -> None:
    channels = streams.pop()
    for stream in streams:
        stream.cancel()
    for c in channels:
        await c.close()


# -- the run -----------------------------------------------------------------------------


def measure(
    label: str, servers: list[Proc], echo: Proc | None, quick: bool, games: int
) -> tuple[list[tuple[str, str, str]], dict[str, float]]:
    rows: list[tuple[str, str, str]] = []
    addresses = [s.address for s in servers]
    seconds = 3.0 if quick else 15.0
    lat, _ = asyncio.run(submit_loops(addresses[:1], 1, seconds / 2))
    p50, p99 = _pct(lat, 0.5), _pct(lat, 0.99)
    figures = {"p50": p50, "p99": p99}
    goal = phrase("goal p99 <= 10 ms") if label == "SQLite" else ""
    rows.append(
        (
            phrase(
                "%(label)s: SubmitDecision round trip, one client (%(lat)s commands)",
                label=label,
                lat=format(len(lat), ","),
            ),
            phrase(
                "p50 %(p50)s ms, p99 %(p99)s ms, mean %(lat)s ms",
                p50=format(p50, ".2f"),
                p99=format(p99, ".2f"),
                lat=format(statistics.fmean(lat), ".2f"),
            ),
            goal,
        )
    )
    if echo is not None:
        lat_e, _ = asyncio.run(submit_loops([echo.address], 1, seconds / 2, echo=True))
        figures["echo_p50"], figures["echo_p99"] = _pct(lat_e, 0.5), _pct(lat_e, 0.99)
        rows.append(
            (
                phrase("echo server (same service, canned answers): round trip, one client"),
                phrase(
                    "p50 %(figures)s ms, p99 %(figures2)s ms",
                    figures=format(figures["echo_p50"], ".2f"),
                    figures2=format(figures["echo_p99"], ".2f"),
                ),
                "",
            )
        )
    started = time.perf_counter()
    _, count = asyncio.run(submit_loops(addresses, 50, seconds))
    rate = count / (time.perf_counter() - started)
    figures["rate"] = rate
    rows.append(
        (
            phrase(
                "%(label)s: throughput, 50 concurrent bot games (%(servers)s server process(es))",
                label=label,
                servers=len(servers),
            ),
            phrase("%(rate)s commands/s", rate=format(rate, ",.0f")),
            "",
        )
    )
    if echo is not None:
        started = time.perf_counter()
        _, echo_count = asyncio.run(submit_loops([echo.address], 50, seconds, echo=True))
        echo_rate = echo_count / (time.perf_counter() - started)
        figures["echo_rate"] = echo_rate
        rows.append(
            (
                phrase("echo server: throughput, 50 concurrent clients"),
                phrase("%(echo_rate)s calls/s", echo_rate=format(echo_rate, ",.0f")),
                "",
            )
        )
        rows.append(
            (
                phrase("%(label)s: throughput as a share of the echo server's", label=label),
                f"{100 * rate / echo_rate:.0f} %",
                phrase("goal >= 50 %%"),
            )
        )
    report = asyncio.run(
        run_bots_async(addresses, 50 if not quick else 10, 50, bot="random", seed=1, players=2, progress=False)
    )
    rows.append(
        (
            phrase(
                "%(label)s: `westmarch bots` clients, %(games)s two-seat games, 50 at a time, each seat watching",
                label=label,
                games=report.games,
            ),
            phrase(
                "%(n)s decisions/s, SubmitDecision p50 %(n2)s ms, p99 %(n3)s ms",
                n=format(report.decisions / report.seconds, ",.0f"),
                n2=format(_pct(report.latencies, 0.5), ".1f"),
                n3=format(_pct(report.latencies, 0.99), ".1f"),
            ),
            "",
        )
    )
    before = [s.rss_mib() for s in servers]
    after = asyncio.run(_hold_and_measure(addresses, games, servers))
    each = [
        phrase("%(n)s MiB (from %(n2)s)", n=format(a, ",.0f"), n2=format(b, ",.0f"))
        for a, b in zip(after, before, strict=True)
    ]
    rss = functools.reduce(lambda said, more: phrase("%(list)s, %(more)s", list=said, more=more), each)
    figures["rss"] = max(after)
    rows.append(
        (
            phrase(
                "%(label)s: RSS of each server process holding %(games)s live games (each answered once, each watched)",
                label=label,
                games=format(games, ","),
            ),
            rss,
            phrase("goal <= 1 GiB") if len(servers) == 1 else "",
        )
    )
    return rows, figures


async def _hold_and_measure(addresses: list[str], games: int, servers: list[Proc]) -> list[float]:
    streams = await hold_games(addresses, games)
    await asyncio.sleep(1.0)
    rss = [s.rss_mib() for s in servers]
    await release(streams)
    return rss


def main(args: argparse.Namespace) -> int:
    quick = bool(args.quick)
    games = min(args.games, 200) if quick else args.games
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        echo = Proc([sys.executable, "-m", "tools.bench_service", "echo"])
        try:
            server = serve(["--db", str(Path(tmp) / "bench.db")])
            try:
                got, _ = measure("SQLite", [server], echo, quick, games)
                rows += got
            finally:
                server.stop()
            with scratch_schema(POSTGRES_DSN, "bench") as schema:
                env = {"POSTGRES_SCHEMA": schema}
                first = serve(["--postgres", POSTGRES_DSN], env)
                second = serve(["--postgres", POSTGRES_DSN], env)
                try:
                    got, _ = measure(phrase("PostgreSQL, two processes"), [first, second], None, quick, games)
                    rows += got
                finally:
                    first.stop()
                    second.stop()
        finally:
            echo.stop()
    command = "westmarch bench-service" + (" --quick" if quick else "")
    publish(args.output, "service", "gRPC service (westmarch serve)", command, rows)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["echo"]:
        through = "--through-servicer" in sys.argv[2:]
        ports = [a for a in sys.argv[2:] if a != "--through-servicer"]
        asyncio.run(_echo_main(int(ports[0]) if ports else 0, through))
    else:
        parser = argparse.ArgumentParser()
        parser.add_argument("--output", default="BENCHMARKS.md")
        parser.add_argument("--quick", action="store_true")
        parser.add_argument("--games", type=int, default=1000)
        sys.exit(main(parser.parse_args()))
