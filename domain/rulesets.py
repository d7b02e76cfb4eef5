"""The games Westmarch knows, by name. The kernel never imports this module."""

from __future__ import annotations

from functools import cache
from typing import Any

from domain.kernel.events import Event
from domain.kernel.ruleset import Ruleset


@cache
def _all() -> dict[str, Ruleset[Any]]:
    from domain.lcg.ruleset import LCG
    from domain.wotr.ruleset import WOTR

    return {r.name: r for r in (LCG, WOTR)}


def names() -> list[str]:
    return sorted(_all())


def ruleset(key: str | type[Event]) -> Ruleset[Any]:
    """A ruleset by name, or the ruleset a (non-kernel) event type belongs to."""
    rulesets = _all()
    if isinstance(key, str):
        try:
            return rulesets[key]
        except KeyError:
            raise KeyError(f"unknown game {key!r}; known: {', '.join(sorted(rulesets))}") from None
    for rules in rulesets.values():
        if key in rules.events:
            return rules
    raise KeyError(f"{key.__name__} belongs to no known game")
