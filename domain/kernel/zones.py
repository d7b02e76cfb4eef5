"""Cards in zones: the bookkeeping a game's fold does when a card is created or moves.

A game's state holds each card once in ``cards`` (by uid) and lists its uid in the zone
it lies in (``zones``; a deck is listed top first), the card's own ``zone`` naming that
list. The functions here keep the two in step. What else changes when a card moves (the
tokens it loses on leaving play) is each game's rule: it lifts the card, applies its rule,
and puts the card down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

import msgspec


class Card(Protocol):
    """A card as the bookkeeping sees it: its uid and the zone it lies in."""

    uid: int
    zone: str


C = TypeVar("C", bound=Card)


class Table(Protocol[C]):
    """The part of a game's state that records where its cards are."""

    cards: dict[int, C]
    zones: dict[str, list[int]]


class NewCard(msgspec.Struct, frozen=True, array_like=True):
    """A card brought into the game, at the bottom of ``zone``."""

    uid: int
    code: str
    zone: str
    owner: str | None = None


def add(table: Table[C], card: C) -> None:
    """A new card, at the bottom of the zone it names."""
    table.cards[card.uid] = card
    table.zones.setdefault(card.zone, []).append(card.uid)


def lift(table: Table[C], uid: int) -> C:
    """Take card ``uid`` out of its zone; its ``zone`` still names where it was."""
    card = table.cards[uid]
    table.zones[card.zone].remove(uid)
    return card


def put(table: Table[C], card: C, zone: str, top: bool = False) -> None:
    """Put a lifted card into ``zone``: at the bottom, or on top with ``top``."""
    card.zone = zone
    pile = table.zones.setdefault(zone, [])
    if top:
        pile.insert(0, card.uid)
    else:
        pile.append(card.uid)


def shuffled(table: Table[C], zone: str, order: Sequence[int], joining: Callable[[C], None]) -> None:
    """``zone`` now holds ``order``, top first. A card that joins it from another zone is
    lifted from there and given to ``joining`` (the game's rule for a card entering a deck)."""
    for uid in order:
        card = table.cards[uid]
        if card.zone != zone:
            table.zones[card.zone].remove(uid)
            joining(card)
            card.zone = zone
    table.zones[zone] = list(order)


def redrawn(table: Table[C], places: Sequence[int], cards: Sequence[int]) -> list[tuple[C, C]]:
    """Each of ``cards`` takes the place (zone and position) of the card at the same index in
    ``places`` (a take-back's redraw: ``cards`` is a shuffle of ``places``). Returns the
    pairs (card, the card whose place it took) for a game to move what else belongs to a
    place (an LCG shadow card's enemy)."""
    spots = []
    for uid in places:
        card = table.cards[uid]
        spots.append((card, card.zone, table.zones[card.zone].index(uid)))
    moved = []
    for uid, (old, zone, index) in zip(cards, spots, strict=True):
        card = table.cards[uid]
        card.zone = zone
        table.zones[zone][index] = uid
        moved.append((card, old))
    return moved
