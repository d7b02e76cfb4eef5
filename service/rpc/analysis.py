"""``AnalyzeDecision`` on the server: the request checked on the worker threads, the search in a
process of its own, the time it took charged to the token and its address.

A search is seconds of pure-Python CPU. Run on a worker thread it would hold the
interpreter the games are served from; in its own process it takes a core of its own and
the commands of every other client go on as before. The processes are started on the first
analysis (a server that is never asked for one starts none), from a fresh interpreter
(``spawn``: a forked copy of a process running gRPC's threads is not safe).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from service.analysis import Done, budget_of, prepare, run
from service.commands import GameService, parse_game_id
from service.rpc import convert
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.limits import Gate


class Analyses:
    def __init__(self, service: GameService, gate: Gate, on_threads: Callable[..., Awaitable[Any]]) -> None:
        self.service = service
        self.gate = gate
        self._on_threads = on_threads
        """Runs a blocking function on the server's worker threads."""
        self._pool: ProcessPoolExecutor | None = None

    def _processes(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.gate.limits.analysis_processes, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def call(self, request: pb.AnalyzeDecisionRequest, entry: Any, peer: str) -> pb.AnalyzeDecisionResponse:
        limits = self.gate.limits
        budget = budget_of(request.budget_seconds, request.rollouts, limits.analysis_seconds, limits.analysis_rollouts)

        def checked() -> Any:
            game_id = parse_game_id(request.game_id, request.token)
            entry.game = str(game_id)
            entry.seat = viewer = self.service.viewer(game_id, request.token)
            job = prepare(self.service, game_id, viewer, request.version, request.true_cards, budget, request.seed)
            entry.version = request.version or None
            return job

        # the limits first: a call past them is refused before any work is done for it
        admitted = self.gate.analysis_admit(request.token, peer)
        spent = 0.0
        try:
            async with self.gate.turn(peer):
                job = await self._on_threads(checked)
            done: Done = await asyncio.get_running_loop().run_in_executor(self._processes(), run, job)
            spent = done.cpu_seconds
        except BrokenProcessPool:
            self._pool = None  # a search process died (killed, out of memory): the next call starts another
            raise
        finally:
            self.gate.analysis_done(admitted, spent)
        found = done.analysis
        entry.version = found.version
        entry.extra["cpu_ms"] = round(1000 * spent, 1)
        return pb.AnalyzeDecisionResponse(
            version=found.version,
            decision=convert.decision_pb(found.decision),
            knowledge=found.knowledge,
            seed=found.seed,
            options=[
                pb.AnalyzedOption(
                    choice=list(o.choice), label=o.label, value=o.value, low=o.low, high=o.high, rollouts=o.rollouts
                )
                for o in found.options
            ],
            rollouts=found.rollouts,
            cpu_seconds=found.cpu_seconds,
        )

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
