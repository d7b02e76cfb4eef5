"""Counting reads of a msgspec Struct's fields, for tests that check a hot path reads fewer."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest


class Counted:
    """A Struct field's descriptor that counts its reads, then reads through the one it replaced."""

    def __init__(self, kept: Any, counts: Counter[str], field: str) -> None:
        self.kept, self.counts, self.field = kept, counts, field

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is not None:
            self.counts[self.field] += 1
        return self.kept.__get__(obj, owner)

    def __set__(self, obj: Any, value: Any) -> None:
        self.kept.__set__(obj, value)


def count_reads(monkeypatch: pytest.MonkeyPatch, kind: type, fields: Any, counts: Counter[str]) -> None:
    """Count in ``counts`` every read of each of ``fields`` of ``kind`` (undone with ``monkeypatch``)."""
    for field in fields:
        monkeypatch.setattr(kind, field, Counted(kind.__dict__[field], counts, field))
