"""Live games: one shared feed per watched game, fanned out to its watchers.

Every ``Watch`` stream of a game reads the game's new events from one buffer, filled by at
most one store read per change of the game (however many streams watch it), instead of
each stream asking the store. Each stream then projects the shared events for its own
viewer, off the event loop. The buffer keeps the events no watcher has passed yet.

Lives on the server's event loop; store reads and projections run on its thread pool.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from domain.kernel.events import Event

Run = Callable[..., Awaitable[Any]]
"""Runs a blocking function off the event loop: ``await run(fn, *args)``."""
Fetch = Callable[[UUID, int, int | None], list[Event]]
"""Reads a game's events after one version, up to another (or the end)."""


@dataclass(eq=False)
class LiveGame:
    game_id: UUID
    base: int
    """The version before ``events[0]``: the buffer holds events ``base + 1`` on."""
    events: list[Event] = field(default_factory=list)
    stale: bool = True
    """Changed since the last read (to an unknown version), or never read."""
    wanted: int = 0
    """The latest version a wake announced: the buffer is read again until it holds it."""
    read_at: float = 0.0
    reading: asyncio.Task[None] | None = None
    watchers: dict[int, int] = field(default_factory=dict)
    """Each watcher (by a number) and the version it has seen."""

    @property
    def latest(self) -> int:
        return self.base + len(self.events)


class LiveGames:
    """The buffers of the games being watched in this process."""

    def __init__(self, run: Run, fetch: Fetch, refresh_seconds: float) -> None:
        self.run = run
        self.fetch = fetch
        self.refresh_seconds = refresh_seconds
        """A buffer older than this is read again even if nothing woke it (a safety net
        beside the store's notification poll for commits of other processes)."""
        self.games: dict[UUID, LiveGame] = {}
        self.reads = 0
        """Store reads made for watchers (one per change of a watched game)."""
        self._next = 0

    def join(self, game_id: UUID, version: int) -> tuple[LiveGame, int]:
        """Start watching ``game_id`` from ``version``; returns the game and a watcher number."""
        live = self.games.get(game_id)
        if live is None:
            live = self.games[game_id] = LiveGame(game_id, version)
        self._next += 1
        live.watchers[self._next] = version
        return live, self._next

    def leave(self, live: LiveGame, watcher: int) -> None:
        live.watchers.pop(watcher, None)
        if not live.watchers and self.games.get(live.game_id) is live:
            del self.games[live.game_id]
            if live.reading is not None and not live.reading.done():
                live.reading.cancel()

    def wake(self, game_id: UUID, version: int | None = None) -> None:
        """The game changed (up to ``version``, if known): read it again unless the
        buffer already holds that version (a change seen once by commit, once by poll)."""
        live = self.games.get(game_id)
        if live is None:
            return
        if version is None:
            live.stale = True
        else:
            live.wanted = max(live.wanted, version)

    async def since(self, live: LiveGame, watcher: int, version: int) -> list[Event]:
        """The events after ``version``: from the buffer, read from the store once per change."""
        if version < live.base:
            # joined behind the buffer: its own read of the gap, then the shared events
            gap: list[Event] = await self.run(self.fetch, live.game_id, version, live.base)
            self.reads += 1
            return gap + list(live.events)
        if live.stale or live.wanted > live.latest or time.monotonic() - live.read_at > self.refresh_seconds:
            await self._read(live)
        found = live.events[version - live.base :]
        return list(found)

    def seen(self, live: LiveGame, watcher: int, version: int) -> None:
        """Watcher ``watcher`` has seen up to ``version``: drop what every watcher has seen."""
        if watcher in live.watchers:
            live.watchers[watcher] = version
        low = min(live.watchers.values(), default=live.latest)
        if low > live.base:
            del live.events[: low - live.base]
            live.base = low

    async def _read(self, live: LiveGame) -> None:
        if live.reading is None:
            live.stale = False
            live.reading = asyncio.get_running_loop().create_task(self._fill(live))
        task = live.reading
        await asyncio.shield(task)

    async def _fill(self, live: LiveGame) -> None:
        try:
            new: list[Event] = await self.run(self.fetch, live.game_id, live.latest, None)
            self.reads += 1
            live.events.extend(new)
            live.read_at = time.monotonic()
        except BaseException:
            live.stale = True
            raise
        finally:
            live.reading = None
