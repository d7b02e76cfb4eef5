"""What both games' terminal tables (tools/render_lcg.py, tools/render_wotr.py) lay out
alike: a titled group of cards, each seat's block and the end of the game under the table,
every card a view shows, and the card a decision is about, with its text."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol, TypeVar

from domain.kernel.decisions import Decision


class Card(Protocol):
    """A card as a view shows it."""

    uid: int
    name: str
    text: str


C = TypeVar("C")
K = TypeVar("K", bound=Card)
P = TypeVar("P")


def group(title: str, cards: list[C], line: Callable[[C], str], indent: str = "    ") -> list[str]:
    """``  Title:`` and a line per card below it; nothing for no cards."""
    if not cards:
        return []
    return [f"  {title}:"] + [indent + line(c) for c in cards]


def seats_and_end(players: Iterable[P], player: Callable[[P], list[str]], end: str | None) -> list[str]:
    """Each seat's block after a blank line, then the end of the game (if it is over)."""
    lines: list[str] = []
    for p in players:
        lines.append("")
        lines += player(p)
    if end is not None:
        lines.append("")
        lines.append(end)
    return lines


def every_card(roots: Iterable[C], inner: Callable[[C], Iterable[C]]) -> list[C]:
    """The cards ``roots`` and, after each, the cards it holds (``inner``), all the way down."""
    found: list[C] = []

    def add(c: C) -> None:
        found.append(c)
        for held in inner(c):
            add(held)

    for c in roots:
        add(c)
    return found


def about(shown: Mapping[int, K], decision: Decision) -> tuple[K | None, list[str]]:
    """The card ``decision`` is about, if the view shows it, and its text as a note."""
    card = shown.get(decision.about) if decision.about is not None else None
    if card is None:
        return None, []
    return card, [f"  {card.name}: {card.text or '(no text)'}"]
