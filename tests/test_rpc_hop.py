"""What a call costs the server on its way, besides the rules (issue 27's gRPC ratio): the hand-off
to a worker thread and back (``service.rpc.server.Settling``: one wake-up of the event loop for
the outcomes that came in together, where ``run_in_executor`` woke it once per outcome), the ids
of a game's seats and room records (made once per game, not once per call), and the write
watch's look at the files (one system call for a file that was there at the last look, where
``os.access`` then ``os.stat`` were two). Each is checked against the plain way it replaced."""

from __future__ import annotations

import asyncio
import contextvars
import os
import sqlite3
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from uuid import uuid5

import pytest

from service.records import room_id, seats_id
from service.rpc.server import Settling
from service.store import WriteWatch
from tests.test_write_watch import plain_prints

speaking: contextvars.ContextVar[str] = contextvars.ContextVar("speaking", default="en")


class Boom(Exception):
    pass


def _outcomes(run: Any, stop_iteration: bool = False) -> list[tuple[str, Any]]:
    """Results and errors of a few calls run through ``run(loop, executor, fn, *args)``
    (and one raising StopIteration, if asked)."""

    def double(n: int) -> int:
        return 2 * n

    def fail(n: int) -> int:
        raise Boom(f"no {n}")

    def told() -> str:
        return speaking.get()

    def ended() -> Any:
        return next(iter(()))

    async def main() -> list[tuple[str, Any]]:
        loop = asyncio.get_running_loop()
        found: list[tuple[str, Any]] = []
        with ThreadPoolExecutor(3) as executor:
            speaking.set("es")
            calls: list[tuple[Any, tuple[Any, ...]]] = [(double, (21,)), (fail, (7,)), (told, ()), (double, (4,))]
            for fn, args in [*calls, (ended, ())] if stop_iteration else calls:
                try:
                    found.append(("ok", await run(loop, executor, fn, *args)))
                except Exception as error:  # every error is compared
                    found.append((type(error).__name__, str(error)))
        return found

    return asyncio.run(main())


def _plain(loop: asyncio.AbstractEventLoop, executor: ThreadPoolExecutor, fn: Any, *args: Any) -> Any:
    context = contextvars.copy_context()
    return loop.run_in_executor(executor, context.run, fn, *args)


def _settled(loop: asyncio.AbstractEventLoop, executor: ThreadPoolExecutor, fn: Any, *args: Any) -> Any:
    return Settling(loop).run(executor, fn, args)


def test_settling_gives_what_run_in_executor_gave() -> None:
    plain, settled = _outcomes(_plain), _outcomes(_settled, stop_iteration=True)
    assert settled[:4] == plain == [("ok", 42), ("Boom", "no 7"), ("ok", "es"), ("ok", 8)]
    # a StopIteration cannot be an asyncio future's error: run_in_executor's future then never
    # settled (asyncio logged a TypeError, the caller waited for ever); it is told a RuntimeError
    assert settled[4][0] == "RuntimeError" and "StopIteration" in settled[4][1]


def _wakes(use_settling: bool, calls: int) -> tuple[list[int], int]:
    """Run ``calls`` calls that all end while the event loop is busy; their results and how
    many times the loop was woken from another thread to take them."""

    async def main() -> tuple[list[int], int]:
        loop = asyncio.get_running_loop()
        woken = 0
        threadsafe = loop.call_soon_threadsafe

        def counting(*args: Any, **kwargs: Any) -> Any:
            nonlocal woken
            woken += 1
            return threadsafe(*args, **kwargs)

        loop.call_soon_threadsafe = counting  # type: ignore[method-assign,assignment]
        ended = threading.Semaphore(0)

        def work(n: int) -> int:
            ended.release()
            return n * n

        with ThreadPoolExecutor(calls) as executor:
            settling = Settling(loop)
            futures = [
                settling.run(executor, work, (n,)) if use_settling else loop.run_in_executor(executor, work, n)
                for n in range(calls)
            ]
            for _ in range(calls):  # the loop is held here until every call has ended
                ended.acquire()
            executor.shutdown(wait=True)
            results = list(await asyncio.gather(*futures))
        return results, woken

    return asyncio.run(main())


def test_outcomes_that_come_in_together_wake_the_loop_once() -> None:
    plain, plain_wakes = _wakes(False, 8)
    settled, wakes = _wakes(True, 8)
    assert settled == plain == [n * n for n in range(8)]
    assert plain_wakes == 8
    assert wakes == 1


def test_a_call_cancelled_before_a_thread_takes_it_is_not_run() -> None:
    ran: list[int] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        gate = threading.Event()
        with ThreadPoolExecutor(1) as executor:
            settling = Settling(loop)
            busy = settling.run(executor, gate.wait, (5.0,))  # holds the only thread
            queued = settling.run(executor, ran.append, (1,))
            queued.cancel()
            gate.set()
            assert await busy
            after = settling.run(executor, ran.append, (2,))
            await after
        assert queued.cancelled()

    asyncio.run(main())
    assert ran == [2]


def test_the_ids_of_a_games_records_are_made_once() -> None:
    game = uuid.uuid4()
    assert seats_id(game) == uuid5(game, "seats") and room_id(game) == uuid5(game, "room")
    assert seats_id(game) is seats_id(game) and room_id(game) is room_id(game)
    assert seats_id(uuid.UUID(game.hex)) is seats_id(game)


def test_the_watch_looks_at_a_file_it_saw_with_one_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x)")
    watch = WriteWatch()
    paths = [str(db), f"{db}-wal", f"{db}-journal"]
    accessed: list[str] = []
    access = os.access

    def counting(path: Any, mode: int) -> bool:
        accessed.append(str(path))
        return access(path, mode)

    monkeypatch.setattr(os, "access", counting)
    seen = []
    for step in range(6):
        if step == 2:
            conn.execute("INSERT INTO t VALUES (1)")
        if step == 3:
            Path(f"{db}-journal").write_bytes(b"x")  # a file that was not there appears
        if step == 4:
            Path(f"{db}-journal").unlink()  # and one that was goes
        if step == 5:
            conn.execute("INSERT INTO t VALUES (2)")
        before = len(accessed)
        prints = watch._files(conn)
        assert prints == plain_prints(paths)
        seen.append((prints, len(accessed) - before))
    # the first look asks after every file; then only after those it did not find the time before
    assert [n for _, n in seen] == [3, 1, 1, 1, 0, 1]
    assert seen[3][0][2] is not None and seen[4][0][2] is None
    conn.close()
