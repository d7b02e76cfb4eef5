"""What one viewer may see of a Lord of the Rings LCG table (default-deny).

A seat sees its own hand, every face-up card, and counts of face-down piles; never
another seat's hand, any deck's order or contents, a face-down shadow card, the quest
cards not yet revealed, or the seed. A spectator sees only the public table. The
referee sees everything; so does everyone once the game is over.

The view's Struct classes are in ``projections/lcg_types.py`` and the code that builds a
view in ``projections/lcg_view.py`` (compiled with the rules, domain/build.py); this
module gathers them with the projection the feed uses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.lcg import events as lcg_events
from projections.feed import card_refs, redact_cards
from projections.lcg_types import CardView, Hosts, PlayerView, TableView
from projections.lcg_view import (
    REFEREE,
    SPECTATOR,
    card_view,
    hosts,
    identity_view,
    play_view,
    view,
    visible,
)
from projections.projection import GameProjection

__all__ = [
    "CARD_FIELDS",
    "PROJECTION",
    "REFEREE",
    "SPECTATOR",
    "CardView",
    "Hosts",
    "LcgProjection",
    "PlayerView",
    "TableView",
    "card_view",
    "hosts",
    "identity_view",
    "play_view",
    "view",
    "visible",
]

CARD_FIELDS = (
    "card",
    "enemy",
    "defender",
    "cards",
    "attackers",
    "to",
    "objective",
    "guard",
    "burgle",
    "revealed",
    "discarded",
)
"""Event fields that hold card uids (``to`` only when it is a uid, not a zone name)."""


class LcgProjection(GameProjection):
    """The LCG part of the per-viewer feed (``projections/feed.py`` does the generic part)."""

    def __init__(self) -> None:
        super().__init__("lcg", view, visible, CARD_FIELDS)

    def reveals(self, event: Any, viewer: str) -> set[int]:
        """Cards an event shows to one seat beyond the zone rules: a card it looked at."""
        # its type has no subtypes: no isinstance (a call of the struct metaclass's check) per event
        if type(event) is lcg_events.CardLookedAt and event.player == viewer:
            return {event.card}
        return set()

    def refs(self, body: dict[str, Any]) -> set[int]:
        """Every card uid the game-specific fields of an event body mention (the feed asks
        this of every event: the card fields read without a call through ``super()``)."""
        found = card_refs(body, self.card_fields)
        payments = body.get("payments")
        if payments:
            found.update(payment[0] for payment in payments)
        return found

    def redact(self, body: dict[str, Any], seeing: Callable[[int], bool]) -> bool:
        """Remove from ``body`` what the viewer may not see; True if anything was removed."""
        changed = redact_cards(body, self.card_fields, seeing)
        payments = body.get("payments")
        if payments:
            kept = [p for p in payments if seeing(p[0])]
            if len(kept) != len(payments):
                body["payments"] = kept
                changed = True
        return changed


PROJECTION = LcgProjection()
