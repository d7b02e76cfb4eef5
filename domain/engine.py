"""The Westmarch a game is started with, as its first event records it."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version


@cache
def engine() -> str:
    """This Westmarch ("westmarch 0.1.0"), from the installed package."""
    try:
        return f"westmarch {version('westmarch')}"
    except PackageNotFoundError:
        return "westmarch (not installed)"
