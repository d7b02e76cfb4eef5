"""Limits that keep one client from crowding out the others.

- Open ``Watch`` streams: at most ``per_token`` per token and ``per_connection`` per client
  connection; one more is refused with RESOURCE_EXHAUSTED.
- Work: at most ``busy_per_connection`` calls of one connection on the worker threads at
  once; the rest wait their turn, so a flooding connection never holds every thread.
- Calls that need no token (``CreateGame``, ``ListGames``): a token bucket per client
  connection, ``rate`` calls a second with bursts of ``burst``; past it RESOURCE_EXHAUSTED.

Lives on the server's event loop (no locks needed).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass


class LimitExceeded(Exception):
    """A client went past one of the server's limits; it may try again later."""


@dataclass(frozen=True)
class Limits:
    streams_per_token: int = 16
    streams_per_connection: int = 64
    open_calls_per_second: float = 20.0
    open_calls_burst: int = 100
    busy_per_connection: int = 3
    """Calls of one connection being worked on at once (the rest wait their turn), so one
    connection never holds every worker thread."""


class Gate:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._busy: dict[str, tuple[asyncio.Semaphore, int]] = {}
        self._streams_by_token: Counter[str] = Counter()
        self._streams_by_peer: Counter[str] = Counter()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    # -- streams ---------------------------------------------------------------------

    def open_stream(self, token: str, peer: str) -> tuple[str, str]:
        """Count a new stream of ``token`` from ``peer``; LimitExceeded if one too many."""
        key = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
        limits = self.limits
        if self._streams_by_token[key] >= limits.streams_per_token:
            raise LimitExceeded(
                f"this token already has {limits.streams_per_token} open Watch streams; close one first"
            )
        if self._streams_by_peer[peer] >= limits.streams_per_connection:
            raise LimitExceeded(
                f"this connection already has {limits.streams_per_connection} open Watch streams; close one first"
            )
        self._streams_by_token[key] += 1
        self._streams_by_peer[peer] += 1
        return key, peer

    def close_stream(self, opened: tuple[str, str]) -> None:
        key, peer = opened
        for counter, name in ((self._streams_by_token, key), (self._streams_by_peer, peer)):
            counter[name] -= 1
            if counter[name] <= 0:
                del counter[name]

    # -- work per connection ---------------------------------------------------------

    @contextlib.asynccontextmanager
    async def turn(self, peer: str) -> AsyncIterator[None]:
        """Wait for one of ``peer``'s places on the worker threads, and hold it."""
        semaphore, users = self._busy.get(peer) or (asyncio.Semaphore(self.limits.busy_per_connection), 0)
        self._busy[peer] = (semaphore, users + 1)
        try:
            async with semaphore:
                yield
        finally:
            semaphore, users = self._busy[peer]
            if users <= 1:
                del self._busy[peer]
            else:
                self._busy[peer] = (semaphore, users - 1)

    # -- calls without a token -------------------------------------------------------

    def open_call(self, rpc: str, peer: str) -> None:
        """Take one call from ``peer``'s bucket; LimitExceeded if it is empty."""
        limits = self.limits
        now = time.monotonic()
        level, at = self._buckets.pop(peer, (float(limits.open_calls_burst), now))
        level = min(float(limits.open_calls_burst), level + (now - at) * limits.open_calls_per_second)
        if level < 1.0:
            self._remember(peer, level, now)
            raise LimitExceeded(
                f"too many {rpc} calls from this connection "
                f"(at most {limits.open_calls_per_second:g} a second); slow down and retry"
            )
        self._remember(peer, level - 1.0, now)

    def _remember(self, peer: str, level: float, now: float) -> None:
        buckets = self._buckets
        buckets[peer] = (level, now)
        while len(buckets) > 10_000:
            buckets.popitem(last=False)
