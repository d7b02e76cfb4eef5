"""Moving a card between zones, as the apply functions of ``domain/wotr/events.py`` do it.

A module of its own so that it can be compiled (domain/build.py), as ``domain/lcg/moving.py``
is for the LCG: the module of the events defines ``msgspec.Struct`` classes and stays
interpreted, while a card moves about once every two events of a game.
"""

from __future__ import annotations

from typing import Final

from domain.wotr.state import BOT_UNSEEN, Card, WotrState

PILES: Final = ("deck", "hand", "cycle", "eliminated", "aside")
"""The zones (by their last part) a card enters without a wielder, and not held in reserve."""

_PILE: Final[dict[str, bool]] = {}
"""Whether each zone seen so far is one of :data:`PILES` (by its last part)."""


def _pile(zone: str) -> bool:
    known = _PILE.get(zone)
    if known is None:
        known = _PILE[zone] = zone.rsplit(".", 1)[-1] in PILES
    return known


def unseen_pile(s: WotrState, zone: str) -> bool:
    """Whether ``zone`` is a seat's draw deck, or one of a Shadow bot's :data:`BOT_UNSEEN`."""
    seat, _, rest = zone.partition(".")
    if seat not in s.players:
        return False
    if rest == "deck":
        return True
    if rest not in BOT_UNSEEN:
        return False
    options = s.options
    return options is not None and seat in options.bots


def to_pile(card: Card) -> None:
    """A card entering a pile is wielded by no one and no longer held in reserve."""
    card.wielder = None
    card.reserved = False


def move(s: WotrState, uid: int, zone: str) -> None:
    """Card ``uid`` goes to the bottom of ``zone``."""
    card = s.cards[uid]
    zones = s.zones
    zones[card.zone].remove(uid)
    if _pile(zone):
        to_pile(card)
    # what was known of a card goes with it from one unseen pile to another (a bot's draw);
    # from anywhere else it went there where it could be seen
    card.known = unseen_pile(s, zone) and (card.known or not unseen_pile(s, card.zone))
    card.zone = zone
    zones.setdefault(zone, []).append(uid)


def items_on(s: WotrState, uid: int) -> list[int]:
    """The items a character wields (they share its zone)."""
    cards = s.cards
    return [i for i in s.zones.get(cards[uid].zone, []) if cards[i].wielder == uid]


def move_with_items(s: WotrState, uid: int, zone: str) -> None:
    items = items_on(s, uid)
    move(s, uid, zone)
    for item in items:
        move(s, item, zone)
