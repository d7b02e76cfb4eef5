"""A card's names in every language, for finding a card by any of them.

A card is named in English (its printed name, the key of every card file) and, where a
published edition's name is available, in another language
(``projections/locale/<lang>/card_names.toml``, ``[names]``: English name -> name in that
language). Whatever language the table is told in, a card is found by any of its names:
``?Aragorn`` in Japanese, ``?Guardia`` or ``?Guard of the Citadel`` in Spanish.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("es", "ja")
"""The languages that may name cards otherwise than English."""


@cache
def names(lang: str) -> Mapping[str, str]:
    """English name -> name in ``lang``, for every card ``lang``'s file names (empty: none)."""
    path = LOCALE_DIR / lang / "card_names.toml"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        table = tomllib.load(handle).get("names", {})
    return {str(english): str(name) for english, name in table.items()}


@cache
def traits(lang: str) -> Mapping[str, str]:
    """A printed trait's English word -> its word in ``lang``'s edition
    (``locale/<lang>/card_traits.toml``; empty: none)."""
    path = LOCALE_DIR / lang / "card_traits.toml"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        table = tomllib.load(handle).get("traits", {})
    return {str(english): str(word) for english, word in table.items()}


@cache
def _groups() -> Mapping[str, frozenset[str]]:
    """Each name, casefolded -> every name of its card, casefolded (English first found)."""
    groups: dict[str, set[str]] = {}
    for lang in LANGUAGES:
        for english, name in names(lang).items():
            group = groups.setdefault(english.casefold(), {english.casefold()})
            group.add(name.casefold())
    found: dict[str, frozenset[str]] = {}
    for group in groups.values():
        whole = frozenset(group)
        for name in group:
            found[name] = found.get(name, frozenset()) | whole
    return found


def known_as(name: str) -> frozenset[str]:
    """Every name (casefolded) of the card named ``name`` in any language: its English name
    and its names in the languages that translate it."""
    folded = name.casefold()
    return _groups().get(folded, frozenset({folded}))


def is_named(name: str, query: str) -> bool:
    """Whether ``query`` is one of the names of the card named ``name`` (case aside)."""
    return query.strip().casefold() in known_as(name)


def name_starts(name: str, query: str) -> bool:
    """Whether one of the names of the card named ``name`` starts with ``query`` (case aside)."""
    wanted = query.strip().casefold()
    return any(known.startswith(wanted) for known in known_as(name))
