"""Limits that keep one client from crowding out the others.

- Open ``Watch`` streams: at most ``per_token`` per token and ``per_connection`` per client
  connection; one more is refused with RESOURCE_EXHAUSTED.
- Work: at most ``busy_per_connection`` calls of one connection on the worker threads at
  once; the rest wait their turn, so a flooding connection never holds every thread.
- Calls that need no token (``CreateGame``, ``ListGames``): a token bucket per client
  connection, ``rate`` calls a second with bursts of ``burst``; past it RESOURCE_EXHAUSTED.
- The time those calls take: each connection's calls without a token may use
  ``open_work_per_second`` seconds of the worker threads' CPU a second, with bursts of
  ``open_work_burst``; past it RESOURCE_EXHAUSTED. A call's rate alone says little of its
  cost (listing a hundred games costs ten times creating one), and this share is what
  bounds how much a client without a token slows the games being played.
- The same two budgets per client address (the connections of one address together):
  ``address_calls_per_second`` and ``address_work_per_second``, a few connections' worth,
  so opening more connections does not multiply a client's share.
- Epic Multiplayer: ``CreateEpic`` is a call without a token like ``CreateGame`` and opens at
  most ``groups_per_epic`` games; ``WatchEpic`` streams count as ``Watch`` streams.
- Analysis (``AnalyzeDecision``) costs CPU seconds, not milliseconds: one call searches at
  most ``analysis_seconds`` (or ``analysis_rollouts``); each token may use
  ``analysis_work_per_second`` of analysis time a second (bursts of ``analysis_work_burst``)
  and each client address ``analysis_address_work_per_second`` (bursts of
  ``analysis_address_work_burst``), charged with the CPU each analysis took; at most
  ``analyses_at_once`` wait or run in one server process (past any of these,
  RESOURCE_EXHAUSTED). The search runs in ``analysis_processes`` processes of its own, so it
  never holds the worker threads or the interpreter the games are served from.
- Refusals themselves: each client address (all its connections together) is answered at
  most ``refusals_per_second`` RESOURCE_EXHAUSTED a second past a burst of ``refusals_burst``; a refusal past that is
  answered when its turn comes. A connection that keeps calling past its limits thus waits
  for its answers instead of keeping the event loop busy refusing it, and the calls it may
  have open at once are bounded by HTTP/2 (``calls_per_connection``, enforced by gRPC's
  core before any Python runs), so waiting refusals cannot pile up either.

Lives on the server's event loop (no locks needed).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass

from projections.i18n import pgettext, say


class LimitExceeded(Exception):
    """A client went past one of the server's limits; it may try again later."""


@dataclass(frozen=True)
class Limits:
    streams_per_token: int = 16
    streams_per_connection: int = 64
    open_calls_per_second: float = 20.0
    open_calls_burst: int = 100
    open_work_per_second: float = 0.025
    open_work_burst: float = 0.5
    """Seconds of worker-thread CPU a connection's calls without a token may use a second
    (a fortieth of a core), and in a burst."""
    address_calls_per_second: float = 60.0
    address_calls_burst: int = 300
    address_work_per_second: float = 0.075
    address_work_burst: float = 1.5
    """The calls without a token of all of one address's connections together: three
    connections' worth, so eight connections of one client get what three would."""
    groups_per_epic: int = 16
    """Games one CreateEpic may open (the rules set no bound on the groups of an event)."""
    busy_per_connection: int = 3
    """Calls of one connection being worked on at once (the rest wait their turn), so one
    connection never holds every worker thread."""
    refusals_per_second: float = 20.0
    refusals_burst: int = 600
    """Refusals answered to one connection at once before the rest are paced (a client
    opening a few hundred streams at once learns of the limit without waiting)."""
    analysis_seconds: float = 5.0
    """CPU seconds one AnalyzeDecision may search, at most (a larger budget is refused)."""
    analysis_rollouts: int = 1000
    """Rollouts of each answer one AnalyzeDecision may ask for, at most."""
    analysis_work_per_second: float = 0.2
    analysis_work_burst: float = 10.0
    """Seconds of analysis CPU one token may use a second, and in a burst: a player who asks
    for a 2-second hint at every decision gets five at once, then one every ten seconds."""
    analysis_address_work_per_second: float = 0.5
    analysis_address_work_burst: float = 20.0
    """The same for all the tokens of one client address together (tokens cost nothing to
    make: every new game brings some)."""
    analyses_at_once: int = 4
    """Analyses waiting or running in one server process at once."""
    analysis_processes: int = 1
    """Processes that run the analyses (a core each while they search)."""
    calls_per_connection: int = 1000
    """Calls open at once on one connection (HTTP/2 ``SETTINGS_MAX_CONCURRENT_STREAMS``);
    gRPC's core refuses more (UNAVAILABLE) before any Python runs. Far above
    ``streams_per_connection``: that is the limit a client meets (RESOURCE_EXHAUSTED), this
    one only bounds the refusals a connection can have waiting for their turn."""


class Gate:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._busy: dict[str, tuple[asyncio.Semaphore, int]] = {}
        self._streams_by_token: Counter[str] = Counter()
        self._streams_by_peer: Counter[str] = Counter()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._refusals: OrderedDict[str, float] = OrderedDict()
        self._work: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._analyses = 0

    # -- streams ---------------------------------------------------------------------

    def open_stream(self, token: str, peer: str) -> tuple[str, str]:
        """Count a new stream of ``token`` from ``peer``; LimitExceeded if one too many."""
        key = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
        limits = self.limits
        if self._streams_by_token[key] >= limits.streams_per_token:
            raise LimitExceeded(
                say(
                    "this token already has %(streams_per_token)s open Watch streams; close one first",
                    streams_per_token=limits.streams_per_token,
                )
            )
        if self._streams_by_peer[peer] >= limits.streams_per_connection:
            raise LimitExceeded(
                say(
                    "this connection already has %(streams_per_connection)s open Watch streams; close one first",
                    streams_per_connection=limits.streams_per_connection,
                )
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
        """Take one call from ``peer``'s bucket and its address's; LimitExceeded if either
        is empty, or either's share of the worker threads is used up."""
        limits = self.limits
        now = time.monotonic()
        address = address_of(peer)
        level = self._level(peer, now, limits.open_calls_burst, limits.open_calls_per_second)
        shared = self._level(address, now, limits.address_calls_burst, limits.address_calls_per_second)
        if level < 1.0 or shared < 1.0:
            self._remember(peer, level, now)
            self._remember(address, shared, now)
            whose, rate = (
                (pgettext("caller", "this connection"), limits.open_calls_per_second)
                if level < 1.0
                else (pgettext("caller", "this address"), limits.address_calls_per_second)
            )
            raise LimitExceeded(
                say(
                    "too many %(rpc)s calls from %(whose)s (at most %(rate)s a second); slow down and retry",
                    rpc=rpc,
                    whose=whose,
                    rate=format(rate, "g"),
                )
            )
        work, _ = self._work_left(peer, now, limits.open_work_burst, limits.open_work_per_second)
        work_shared, _ = self._work_left(address, now, limits.address_work_burst, limits.address_work_per_second)
        if work <= 0.0 or work_shared <= 0.0:
            self._remember(peer, level, now)
            self._remember(address, shared, now)
            whose, share = (
                (pgettext("caller", "this connection"), limits.open_work_per_second)
                if work <= 0.0
                else (pgettext("caller", "this address"), limits.address_work_per_second)
            )
            raise LimitExceeded(
                say(
                    "the calls without a token from %(whose)s used their share of the server (%(n)s ms of work a "
                    "second); slow down and retry",
                    whose=whose,
                    n=format(1000 * share, "g"),
                )
            )
        self._remember(peer, level - 1.0, now)
        self._remember(address, shared - 1.0, now)

    def charge(self, peer: str, seconds: float) -> None:
        """``peer``'s call without a token took ``seconds`` of a worker thread's CPU."""
        limits = self.limits
        now = time.monotonic()
        work, _ = self._work_left(peer, now, limits.open_work_burst, limits.open_work_per_second)
        self._work[peer] = (work - seconds, now)
        address = address_of(peer)
        work, _ = self._work_left(address, now, limits.address_work_burst, limits.address_work_per_second)
        self._work[address] = (work - seconds, now)

    def _level(self, key: str, now: float, burst: int, rate: float) -> float:
        level, at = self._buckets.pop(key, (float(burst), now))
        return min(float(burst), level + (now - at) * rate)

    def _work_left(self, key: str, now: float, burst: float, rate: float) -> tuple[float, float]:
        work, at = self._work.pop(key, (burst, now))
        work = min(burst, work + (now - at) * rate)
        self._work[key] = (work, now)
        while len(self._work) > 10_000:
            self._work.popitem(last=False)
        return work, now

    def _remember(self, peer: str, level: float, now: float) -> None:
        buckets = self._buckets
        buckets[peer] = (level, now)
        while len(buckets) > 10_000:
            buckets.popitem(last=False)

    # -- analysis --------------------------------------------------------------------

    def analysis_admit(self, token: str, peer: str) -> tuple[str, str]:
        """Let one analysis of ``token`` from ``peer`` wait for its turn: LimitExceeded when
        the token's or the address's share of analysis time is used up, or the server has as
        many analyses as it takes. Returns what :meth:`analysis_done` is told."""
        limits = self.limits
        now = time.monotonic()
        token_key = "analysis token " + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
        address_key = "analysis " + address_of(peer)
        mine, _ = self._work_left(token_key, now, limits.analysis_work_burst, limits.analysis_work_per_second)
        shared, _ = self._work_left(
            address_key, now, limits.analysis_address_work_burst, limits.analysis_address_work_per_second
        )
        if mine <= 0.0 or shared <= 0.0:
            whose, rate, left = (
                (pgettext("caller", "this token"), limits.analysis_work_per_second, mine)
                if mine <= 0.0
                else (pgettext("caller", "this address"), limits.analysis_address_work_per_second, shared)
            )
            raise LimitExceeded(
                say(
                    "%(whose)s used its share of analysis (%(rate)s s of CPU a second); retry in %(max)s s",
                    whose=whose,
                    rate=format(rate, "g"),
                    max=max(1, math.ceil(-left / rate + 0.5)),
                )
            )
        if self._analyses >= limits.analyses_at_once:
            raise LimitExceeded(
                say(
                    "the server is running %(analyses_at_once)s analyses already; retry in a few seconds",
                    analyses_at_once=limits.analyses_at_once,
                )
            )
        self._analyses += 1
        return token_key, address_key

    def analysis_done(self, admitted: tuple[str, str], seconds: float) -> None:
        """An admitted analysis ended, having taken ``seconds`` of CPU: its token and its
        address are charged with them."""
        limits = self.limits
        self._analyses -= 1
        now = time.monotonic()
        token_key, address_key = admitted
        for key, burst, rate in (
            (token_key, limits.analysis_work_burst, limits.analysis_work_per_second),
            (address_key, limits.analysis_address_work_burst, limits.analysis_address_work_per_second),
        ):
            work, _ = self._work_left(key, now, burst, rate)
            self._work[key] = (work - seconds, now)

    # -- refusals --------------------------------------------------------------------

    def refusal_wait(self, peer: str) -> float:
        """Seconds ``peer``'s next refusal waits for its turn (0 within the burst).

        Each refusal books the next slot of ``refusals_per_second`` (a virtual schedule: the
        generic cell rate algorithm); the slots up to ``refusals_burst`` ahead of now are
        answered at once."""
        limits = self.limits
        now = time.monotonic()
        step = 1.0 / limits.refusals_per_second
        address = address_of(peer)  # one schedule for all of an address's connections
        booked = max(now, self._refusals.pop(address, now)) + step
        refusals = self._refusals
        refusals[address] = booked
        while len(refusals) > 10_000:
            refusals.popitem(last=False)
        return max(0.0, booked - now - limits.refusals_burst * step)


def address_of(peer: str) -> str:
    """The client address of a gRPC peer, without its port: ``ipv4:127.0.0.1:5000`` and
    ``ipv4:127.0.0.1:5001`` are one address ``address ipv4:127.0.0.1``; ``ipv6:[::1]:5000``
    is ``address ipv6:[::1]``; a peer without a port (``unix:...``) is its own address. The
    prefix keeps an address's buckets apart from any connection's."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        rest = rest.rsplit(":", 1)[0]
    return f"address {kind}:{rest}"
