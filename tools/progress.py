"""A progress bar on stderr for long work (quiet when stderr is not a terminal)."""

from __future__ import annotations

import sys
import time
from types import TracebackType


class Progress:
    def __init__(self, total: int, label: str, enabled: bool | None = None) -> None:
        self.total, self.label = total, label
        self.done = 0
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.started = time.perf_counter()
        self._last = 0.0

    def __enter__(self) -> Progress:
        return self

    def advance(self, n: int = 1, note: str = "") -> None:
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self._last > 0.1 or self.done == self.total):
            self._last = now
            self._draw(note)

    def _draw(self, note: str) -> None:
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        elapsed = time.perf_counter() - self.started
        rate = self.done / elapsed if elapsed else 0.0
        eta = (self.total - self.done) / rate if rate else 0.0
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} {rate:.1f}/s eta {eta:.0f}s {note}"[:120].ljust(120)
        )
        sys.stderr.flush()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()
