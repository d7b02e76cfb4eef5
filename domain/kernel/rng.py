"""Chance that can be replayed: a counter-based generator keyed by the game's seed.

Draw number ``n`` of a game is computed from ``(seed, n)`` alone, so the generator's
whole state is one integer in the game state (``State.rng``), advanced by the events
that record each outcome. SHA-256 rather than :mod:`random` keeps outcomes identical
across Python versions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Stream:
    """The bits of one draw: an endless SHA-256 stream for ``(seed, n)``."""

    def __init__(self, seed: int, n: int) -> None:
        self._key = f"westmarch:{seed}:{n}:".encode()
        self._block = 0
        self._buffer = b""

    def _bytes(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += hashlib.sha256(self._key + str(self._block).encode()).digest()
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``, by rejection sampling."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        bits = max(1, (bound - 1).bit_length())
        size = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(size), "big") & mask
            if value < bound:
                return value


def shuffled(seed: int, n: int, items: Sequence[T]) -> list[T]:
    """Fisher-Yates shuffle of ``items`` with draw ``n`` of ``seed``."""
    out = list(items)
    stream = Stream(seed, n)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def pick(seed: int, n: int, items: Sequence[T], count: int = 1) -> list[T]:
    """``count`` distinct items chosen uniformly with draw ``n`` of ``seed``."""
    return shuffled(seed, n, items)[:count]
