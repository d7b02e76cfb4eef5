"""One client's commands while another floods ``AnalyzeDecision``, into the ``analysis-flood``
section of BENCHMARKS.md (``python -m tools.bench_analysis``).

An analysis is seconds of search; a client asking for them without pause, with the tokens of
as many games as it likes to create, must not slow the games of the others. The figure is
one client's ``SubmitDecision`` p99 (from 127.0.0.1) while another client (a process of its
own, from ::1: another address) creates games and asks for 2-second analyses of their first
decision from eight callers without pause, against the same client's p99 alone, in
alternating stretches (``tools/bench_load.py``'s fairness), with the CPU each process spent.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

import grpc

from projections.i18n import from_environment, speaking
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tools.bench import publish, told_row
from tools.bench_load import Fairness, dual_stack, fairness, fairness_row, flood_address, run_flood
from tools.bench_service import serve, submit_loops
from tools.phrase import phrase
from tools.rpc_client import aio_channel

GAMES = 16
"""Games the flood creates, each with a token of its own (a token's share of analysis is small)."""


async def analysis_flood(address: str, stop: asyncio.Event, counts: dict[str, int], callers: int) -> None:
    """``callers`` loops asking AnalyzeDecision (2 s of search) of the first decision of games
    the flood created, each call with the next game's seat token, until ``stop``."""
    async with aio_channel(address) as channel:
        stub = pb_grpc.GameServiceStub(channel)
        keys = []
        for n in range(GAMES):
            made = await stub.CreateGame(pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup()], seed=n + 1))
            keys.append(made.access.seats[0].token)

        async def caller(k: int) -> None:
            while not stop.is_set():
                key = keys[k % len(keys)]
                k += callers
                try:
                    await stub.AnalyzeDecision(pb.AnalyzeDecisionRequest(token=key, budget_seconds=2.0))
                    outcome = "analyses answered"
                except grpc.aio.AioRpcError as error:
                    outcome = f"analyses {error.code().name}"
                counts[outcome] = counts.get(outcome, 0) + 1

        await asyncio.gather(*(caller(k) for k in range(callers)))


def _flood_process(address: str, callers: int, ready: Any, stop: Any, results: Any) -> None:
    run_flood(analysis_flood, address, callers, ready, stop, results, settle=3.0)


MEASURE = phrase(
    "one client's SubmitDecision p99 (127.0.0.1) while another client creates games and asks for 2-second "
    "analyses of them from eight callers without pause (from ::1), against its p99 alone"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_analysis", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds measured in all (default: 30)")
    parser.add_argument("--output", default="BENCHMARKS.md", help="where to write the figures")
    parser.add_argument("--print-only", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        server = dual_stack(serve(["--host", "[::]", "--db", str(Path(tmp) / "bench.db")]))
        addresses = (server.address, flood_address(server))
        try:
            asyncio.run(submit_loops([addresses[0]], 1, 1.0))  # warm
            found: Fairness = fairness(server, args.seconds, flood_process=_flood_process, addresses=addresses)
        finally:
            server.stop()
    row = fairness_row(found, MEASURE)
    print(told_row(row), file=sys.stderr)
    if args.print_only:
        return 0
    command = "python -m tools.bench_analysis" + (f" --seconds {args.seconds:g}" if args.seconds != 30.0 else "")
    publish(args.output, "analysis-flood", "Analysis under a flood", command, [row], echo=False)
    return 0


if __name__ == "__main__":
    with speaking(from_environment()):  # WESTMARCH_LANG or LANG: the console's language
        raise SystemExit(main())
