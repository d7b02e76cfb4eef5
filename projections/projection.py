"""What both games' projections share (see :class:`projections.feed.Projection`).

A game's projection is its table as a viewer may see it, whether a viewer may see a card,
and which fields of its events hold card uids: those give the uids an event body mentions
and what is removed from a body for a viewer who may not see them. A game adds what its
events say beyond card fields (the cards an event itself reveals, a payment's card).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from projections.feed import card_refs, redact_cards


class GameProjection:
    """A game's projection from its ``view`` and ``visible`` and its events' ``card_fields``."""

    def __init__(
        self,
        name: str,
        view: Callable[[Any, str], Any],
        visible: Callable[[Any, str, int], bool],
        card_fields: tuple[str, ...],
    ) -> None:
        self.name = name
        self.view = view
        """The table as ``viewer`` may see it: ``view(state, viewer)``."""
        self.visible = visible
        """May ``viewer`` see card ``uid``: ``visible(state, viewer, uid)``."""
        self.card_fields = card_fields

    def reveals(self, event: Any, viewer: str) -> set[int]:
        """Cards ``event`` itself shows to ``viewer`` beyond the zone rules (none here)."""
        return set()

    def refs(self, body: dict[str, Any]) -> set[int]:
        """Every card uid the card fields of an event body mention."""
        return card_refs(body, self.card_fields)

    def redact(self, body: dict[str, Any], seeing: Callable[[int], bool]) -> bool:
        """Remove from ``body`` the cards the viewer may not see; True if anything was removed."""
        return redact_cards(body, self.card_fields, seeing)
