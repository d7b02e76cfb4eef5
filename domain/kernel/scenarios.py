"""Every game's scenarios are looked up alike: by key, and a key no scenario has is told
with the keys there are."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

S = TypeVar("S")


def find_scenario(scenarios: Mapping[str, S], key: str) -> S:
    """The scenario ``key`` of ``scenarios``; a :class:`KeyError` names the known keys."""
    try:
        return scenarios[key]
    except KeyError:
        known = ", ".join(sorted(scenarios))
        raise KeyError(f"unknown scenario {key!r}; known: {known}") from None
