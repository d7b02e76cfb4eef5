"""Group commit: commands that are ready to be saved at the same moment share one transaction.

There is no waiting window. A writer that finds nobody saving saves its own events at once,
together with whatever other writers queued meanwhile; writers that arrive while a save is
under way queue, and the first of them saves the whole queue when it ends. One client alone
therefore waits for its own transaction only, and many clients pay one commit for many
commands (on PostgreSQL the commit is most of the cost of a command).

If the shared transaction is refused because one of its commands conflicts with a save of
another process (the store's unique key on game and version), each command of the batch is
saved again in its own transaction, so only the conflicting one fails. A storage fault
(full, unavailable, read-only) fails the whole batch: every writer in it gets the error and
nothing of the batch was saved. A write may also refuse some items and save the others
(a command whose game's log did not match, see ``service/store.py``): it returns their errors,
and only their writers get them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


class Wake:
    """What a queued writer sleeps on until it is woken: a lock it cannot take until someone
    releases it. A wake-up given before the writer sleeps is kept until it does (it then does
    not sleep), a second one before that is the same wake-up, and sleeping takes it (there is
    nothing to clear). Each is one call into C: a ``threading.Event`` is a ``Condition`` run in
    Python over two locks (one more made per wait), whose wake-up also takes its lock, where
    the woken writer waits for it again: under load, each a hand-off of the interpreter more."""

    __slots__ = ("_lock",)

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lock.acquire()

    def wait(self) -> None:
        """Sleep until woken (at once if woken since the last sleep)."""
        self._lock.acquire()

    def set(self) -> None:
        """Wake the writer (once, however often it is told before it sleeps again)."""
        with contextlib.suppress(RuntimeError):  # woken already, not yet asleep again
            self._lock.release()


@dataclass(eq=False)
class _Pending(Generic[T]):
    items: Sequence[T]
    done: bool = False
    error: BaseException | None = None
    waiting: Wake | None = None
    """Set when the writer's save ended or it is to lead the next: made (under the queue's
    lock, before the writer is queued) only for a writer that found a save under way; one
    that leads at once never waits, and makes none."""


class GroupCommit(Generic[T]):
    def __init__(
        self,
        write: Callable[[Sequence[T]], Sequence[BaseException | None] | None],
        conflict: Callable[[BaseException], bool],
    ) -> None:
        self._write = write
        self._conflict = conflict
        self._lock = threading.Lock()
        self._queue: list[_Pending[T]] = []
        self._saving = False
        self.transactions = 0
        """Transactions written (commands saved, less those that shared one)."""
        self.commands = 0

    def save(self, items: Sequence[T]) -> None:
        """Save ``items`` in one transaction, possibly shared with other writers' items;
        raises what saving them raised (nothing of them was saved then)."""
        me = _Pending(items)
        with self._lock:
            lead = not self._saving
            if lead:
                self._saving = True
            else:
                me.waiting = waiting = Wake()
            self._queue.append(me)
        while not lead:
            waiting.wait()
            with self._lock:
                if me.done:
                    break
                # the last save ended without this writer's items: lead the next one
                lead = not self._saving
                if lead:
                    self._saving = True
        if lead:
            self._lead()
        if me.error is not None:
            raise me.error

    def _lead(self) -> None:
        with self._lock:
            batch, self._queue = self._queue, []
        try:
            self._flush(batch)
        finally:
            with self._lock:
                self._saving = False
                for pending in batch:
                    pending.done = True
                waiting = list(self._queue)
            for pending in batch:
                if pending.waiting is not None:
                    pending.waiting.set()
            if waiting and waiting[0].waiting is not None:
                waiting[0].waiting.set()  # the next in line leads the next save

    def _flush(self, batch: list[_Pending[T]]) -> None:
        self.commands += len(batch)
        if len(batch) == 1:
            self._one(batch[0])
            return
        try:
            self.transactions += 1
            refused = self._write([item for pending in batch for item in pending.items])
        except BaseException as error:
            if not self._conflict(error):
                for pending in batch:
                    pending.error = error
                return
            for pending in batch:  # find the one that conflicts: each on its own
                self._one(pending)
            return
        if refused:
            at = 0
            for pending in batch:
                pending.error = next((e for e in refused[at : at + len(pending.items)] if e is not None), None)
                at += len(pending.items)

    def _one(self, pending: _Pending[T]) -> None:
        try:
            self.transactions += 1
            refused = self._write(pending.items)
        except BaseException as error:
            pending.error = error
            return
        if refused:
            pending.error = next((e for e in refused if e is not None), None)
