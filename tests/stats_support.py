"""What the stats tools' tests share (tools/mirk_stats.py, lonely_stats.py, anduin_stats.py):
each tool must end the seeds it plays as bench-bots' greedy row ends them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from bots.search import Budget
from tools.bench_bots import Row, Tally, play


class Ending(Protocol):
    """A stats tool's record of one game, as far as its ending goes."""

    @property
    def won(self) -> bool: ...

    @property
    def reason(self) -> str: ...


def assert_ends_as_bench(row: Row, seeds: Sequence[int], records: Sequence[Ending]) -> Tally:
    """The games of ``records`` (seeds ``seeds``, in order) won and lost as bench-bots plays
    them in ``row``; the bench's tally."""
    tally = Tally()
    for i, seed in enumerate(seeds):
        play(row, seed, i, Budget(), tally)
    assert Counter(r.reason for r in records if not r.won) == tally.losses
    assert sum(r.won for r in records) == tally.wins
    return tally
