"""One client flooding Epic Multiplayer or the calls without a token, against another client's play.

Writes the ``epic-flood`` section of BENCHMARKS.md (``python -m tools.bench_epic_flood``).
A real ``westmarch serve`` in a process of its own with the limits as shipped
(``service.rpc.limits.Limits``), listening on both IPv4 and IPv6 loopback: the measured client
plays one-seat games by chaining ``SubmitDecision`` from 127.0.0.1, and a flooding process
from ::1 (another client address to the server), in alternating stretches:

- **WatchEpic**: one connection opens 400 ``WatchEpic`` streams on one organizer token of a
  16-player event (the flood that once raised another player's p99 173-215x);
- **CreateEpic**: one connection calls ``CreateEpic`` without pause, 8 calls at once, asking
  for 50 groups of one and for 16 (the flood that once made about 16,000 games in 33 s);
- **ListGames**: eight connections call ``ListGames`` without pause (the flood that once cut
  another player's throughput to 21 %).

The figure is the measured client's p99 under each flood against its p99 alone (the stretches
alone pooled), with the calls the flood had answered and refused.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import grpc

from projections.i18n import from_environment, speaking
from service.rpc.gen.westmarch.v1 import epic_pb2 as epb
from service.rpc.gen.westmarch.v1 import epic_pb2_grpc as epb_grpc
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tools.bench import publish, told_row
from tools.bench_load import Fairness, dual_stack, fairness, fairness_row, flood_address, run_flood
from tools.bench_service import serve, submit_loops
from tools.phrase import Phrase, phrase, told
from tools.rpc_client import aio_channel

Counts = dict[str, int]


def _count(counts: Counts, key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


async def _until(stop: asyncio.Event, call: Callable[[], Awaitable[Any]], counts: Counts, name: str) -> None:
    while not stop.is_set():
        try:
            await call()
            _count(counts, f"{name} answered")
        except grpc.RpcError as error:
            _count(counts, f"{name} {error.code().name}")


async def watch_epic_flood(address: str, stop: asyncio.Event, counts: Counts, callers: int) -> None:
    """400 WatchEpic streams on one organizer token, from one connection."""
    channel = aio_channel(address)
    epics = epb_grpc.EpicServiceStub(channel)
    made = await epics.CreateEpic(epb.CreateEpicRequest(groups=[4, 4, 4, 4], seed=5))
    request = epb.WatchEpicRequest(organizer_token=made.organizer_token)
    streams = []

    async def watch() -> None:
        stream = epics.WatchEpic(request)
        streams.append(stream)
        try:
            async for _ in stream:
                _count(counts, "WatchEpic sheets")
        except grpc.RpcError as error:
            _count(counts, f"WatchEpic {error.code().name}")

    tasks = [asyncio.create_task(watch()) for _ in range(400)]
    await stop.wait()
    for stream in streams:
        stream.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task
    await channel.close()


async def create_epic_flood(address: str, stop: asyncio.Event, counts: Counts, callers: int) -> None:
    """CreateEpic without pause on one connection, ``callers`` at once: 50 groups, then 16."""
    channel = aio_channel(address)
    epics = epb_grpc.EpicServiceStub(channel)

    def caller(n: int) -> Callable[[], Awaitable[Any]]:
        sizes = iter(range(10**9))

        def call() -> Awaitable[Any]:
            groups = 50 if next(sizes) % 2 else 16
            return epics.CreateEpic(epb.CreateEpicRequest(groups=[1] * groups, seed=n))

        return call

    tasks = [asyncio.create_task(_until(stop, caller(n), counts, "CreateEpic")) for n in range(callers)]
    await stop.wait()
    for task in tasks:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    await channel.close()


async def list_games_flood(address: str, stop: asyncio.Event, counts: Counts, callers: int) -> None:
    """ListGames without pause from eight connections."""
    channels = [aio_channel(address) for _ in range(8)]
    stubs = [pb_grpc.GameServiceStub(c) for c in channels]
    for n in range(20):  # something to list
        with contextlib.suppress(grpc.RpcError):
            await stubs[n % 8].CreateGame(pb.CreateGameRequest(game="lcg", seed=n + 1))

    def lister(stub: Any) -> Callable[[], Awaitable[Any]]:  # an aio stub
        return lambda: stub.ListGames(pb.ListGamesRequest())

    tasks = [asyncio.create_task(_until(stop, lister(stub), counts, "ListGames")) for stub in stubs]
    await stop.wait()
    for task in tasks:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    for channel in channels:
        await channel.close()


Flood = Callable[[str, asyncio.Event, Counts, int], Coroutine[Any, Any, None]]

FLOODS: dict[str, tuple[Phrase, Flood]] = {
    "watch-epic": (
        phrase("one connection holding 400 WatchEpic streams on one organizer token (16 players)"),
        watch_epic_flood,
    ),
    "create-epic": (
        phrase("one connection calling CreateEpic without pause, 8 at once, for 50 groups of one and for 16"),
        create_epic_flood,
    ),
    "list-games": (phrase("eight connections calling ListGames without pause (no token)"), list_games_flood),
}


class _Flood:
    """One of :data:`FLOODS` as a client process of its own (picklable for a spawned process)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __call__(self, address: str, callers: int, ready: Any, stop: Any, results: Any) -> None:
        run_flood(FLOODS[self.kind][1], address, callers, ready, stop, results, settle=1.5)


def row(kind: str, fair: Fairness) -> tuple[str, str, str]:
    measure = phrase(
        "one client's SubmitDecision p99 (127.0.0.1) while %(flood)s from ::1, against its p99 alone",
        flood=FLOODS[kind][0],
    )
    return fairness_row(fair, measure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_epic_flood", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=24.0, help="seconds measured per flood (default: 24)")
    parser.add_argument("--flood", choices=sorted(FLOODS), action="append", help="only this flood (repeatable)")
    parser.add_argument("--output", default="BENCHMARKS.md", help="where to write the figures")
    parser.add_argument("--print-only", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args(argv)
    kinds = args.flood or list(FLOODS)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        server = dual_stack(serve(["--host", "[::]", "--db", str(Path(tmp) / "bench.db")]))
        addresses = (server.address, flood_address(server))
        try:
            asyncio.run(submit_loops([addresses[0]], 1, 1.0))  # warm
            for n, kind in enumerate(kinds, 1):
                print(f"[{n}/{len(kinds)}] {kind} ...", file=sys.stderr, flush=True)
                found = fairness(server, args.seconds, flood_process=_Flood(kind), addresses=addresses)
                rows.append(row(kind, found))
                print(f"  {told(rows[-1][1])}", file=sys.stderr, flush=True)
        finally:
            server.stop()
    if args.print_only:
        for found_row in rows:
            print(told_row(found_row))
        return 0
    command = "python -m tools.bench_epic_flood" + (f" --seconds {args.seconds:g}" if args.seconds != 24.0 else "")
    title = "Floods of Epic Multiplayer and of calls without a token"
    publish(args.output, "epic-flood", title, command, rows, echo=False)
    return 0


if __name__ == "__main__":
    with speaking(from_environment()):  # WESTMARCH_LANG or LANG: the console's language
        raise SystemExit(main())
