"""Group commit: writers that arrive while a save is under way share the next transaction;
a conflict fails only the conflicting writer; a storage fault fails the whole batch."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from service import group_commit
from service.group_commit import GroupCommit


class Store:
    """A real SQLite table with a unique key; the first transaction waits until told to go,
    so that the test can line other writers up behind it."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.conn.execute("CREATE TABLE events (game TEXT, version INTEGER, PRIMARY KEY (game, version))")
        self.transactions: list[list[tuple[str, int]]] = []
        self.hold = threading.Event()
        self.holding = threading.Event()
        self.fail_with: BaseException | None = None

    def write(self, items: Sequence[tuple[str, int]]) -> None:
        if not self.transactions and not self.holding.is_set():
            self.holding.set()
            self.hold.wait(10)
        if self.fail_with is not None and len(items) > 1:
            raise self.fail_with
        self.conn.execute("BEGIN")
        try:
            self.conn.executemany("INSERT INTO events VALUES (?, ?)", items)
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")
        self.transactions.append(list(items))

    def rows(self) -> set[tuple[str, int]]:
        return set(self.conn.execute("SELECT game, version FROM events").fetchall())


def _run(group: GroupCommit[tuple[str, int]], store: Store, writes: list[list[tuple[str, int]]]) -> list[str]:
    """The first write holds its transaction until every other writer is queued."""
    outcomes = [""] * len(writes)

    def writer(n: int) -> None:
        try:
            group.save(writes[n])
            outcomes[n] = "saved"
        except BaseException as error:
            outcomes[n] = type(error).__name__

    first = threading.Thread(target=writer, args=(0,))
    first.start()
    assert store.holding.wait(10)
    rest = [threading.Thread(target=writer, args=(n,)) for n in range(1, len(writes))]
    for t in rest:
        t.start()
    while len(group._queue) < len(rest):  # every other writer queued behind the first
        threading.Event().wait(0.01)
    store.hold.set()
    for t in [first, *rest]:
        t.join(10)
    return outcomes


def test_writers_queued_behind_a_save_share_one_transaction(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    group = GroupCommit(store.write, lambda e: isinstance(e, sqlite3.IntegrityError))
    writes = [[(f"g{n}", 1), (f"g{n}", 2)] for n in range(6)]
    assert _run(group, store, writes) == ["saved"] * 6
    assert [len(t) for t in store.transactions] == [2, 10], "the five queued writers share one transaction"
    assert store.rows() == {item for w in writes for item in w}
    assert (group.commands, group.transactions) == (6, 2)


def test_a_conflict_in_a_shared_transaction_fails_only_its_writer(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    store.conn.execute("INSERT INTO events VALUES ('g3', 1)")  # saved before by another process
    group = GroupCommit(store.write, lambda e: isinstance(e, sqlite3.IntegrityError))
    writes = [[(f"g{n}", 1)] for n in range(5)]
    assert _run(group, store, writes) == ["saved", "saved", "saved", "IntegrityError", "saved"]
    assert store.rows() == {(f"g{n}", 1) for n in range(5)}


def test_a_storage_fault_fails_the_whole_batch_and_saves_none_of_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    store.fail_with = sqlite3.OperationalError("database or disk is full")
    group = GroupCommit(store.write, lambda e: isinstance(e, sqlite3.IntegrityError))
    writes = [[(f"g{n}", 1)] for n in range(4)]
    outcomes = _run(group, store, writes)
    assert outcomes == ["saved", "OperationalError", "OperationalError", "OperationalError"]
    assert store.rows() == {("g0", 1)}


@pytest.mark.parametrize("writers", [1, 8])
def test_every_writer_returns_once_its_items_are_saved(tmp_path: Path, writers: int) -> None:
    """Without any holding back: many writers at once all finish, each item saved once."""
    store = Store(tmp_path / "g.db")
    store.holding.set()  # no first-write hold
    group = GroupCommit(store.write, lambda e: isinstance(e, sqlite3.IntegrityError))
    threads = [
        threading.Thread(target=lambda n=n: [group.save([(f"g{n}", v)]) for v in range(1, 51)]) for n in range(writers)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert store.rows() == {(f"g{n}", v) for n in range(writers) for v in range(1, 51)}
    assert group.commands == writers * 50 and group.transactions <= group.commands


def test_a_writer_that_leads_at_once_makes_no_wake_up_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that finds no save under way saves at once and never waits: it makes no
    ``threading.Event`` to be woken by (one per command of a server with one writer at a
    time), while writers queued behind a save still get one and are woken (above)."""
    made: list[Any] = []

    class Recorded(group_commit._Pending):  # type: ignore[type-arg]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(group_commit, "_Pending", Recorded)
    saved: list[int] = []
    group: GroupCommit[int] = GroupCommit(lambda items: saved.extend(items), lambda error: False)
    for n in range(5):
        group.save([n])
    assert saved == [0, 1, 2, 3, 4] and len(made) == 5
    assert [p.waiting for p in made] == [None] * 5 and all(p.done for p in made)


def test_a_wake_up_given_before_the_sleep_is_kept_and_two_are_one() -> None:
    wake = group_commit.Wake()
    wake.set()
    wake.set()
    wake.wait()  # the wake-up given before: no sleep
    slept = threading.Thread(target=wake.wait)
    slept.start()
    slept.join(0.05)
    assert slept.is_alive()  # the second set was the same wake-up: this sleep waits for another
    wake.set()
    slept.join(10)
    assert not slept.is_alive()


def test_queued_writers_sleep_on_a_lock_not_an_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writers queued behind a save wait on a :class:`~service.group_commit.Wake` (one call
    into C to make, to sleep on and to wake), not a ``threading.Event`` (a Condition run in
    Python), and every one of them is woken with its items saved, once."""
    made: list[Any] = []

    class Recorded(group_commit._Pending):  # type: ignore[type-arg]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(group_commit, "_Pending", Recorded)
    store = Store(tmp_path / "wake.db")
    group: GroupCommit[tuple[str, int]] = GroupCommit(store.write, lambda error: False)
    writes = [[(f"g{n}", 1), (f"g{n}", 2)] for n in range(6)]
    assert _run(group, store, writes) == ["saved"] * 6
    assert store.rows() == {item for write in writes for item in write}
    queued = [p for p in made if p.waiting is not None]
    assert len(queued) == 5 and all(type(p.waiting) is group_commit.Wake for p in queued)
    assert all(p.done and p.error is None for p in made)
