"""Moving a card between zones, as the apply functions of ``domain/lcg/events.py`` do it.

A module of its own so that it can be compiled (domain/build.py): the module of the
events defines ``msgspec.Struct`` classes and stays interpreted, while a card moves about
five times a game round.
"""

from __future__ import annotations

from typing import Final

from msgspec.structs import astuple

from domain.lcg.state import FACE_DOWN_OWN, FACE_DOWN_SHARED, IN_PLAY_ZONES, Card, LcgState, Player, Seat, Uid

_IN_PLAY_ZONES: Final = (*IN_PLAY_ZONES, "revealed")
"""Zones whose cards keep their tokens when moving among them (a revealed enemy keeps
the damage it took as it was revealed when it enters the staging area)."""

_KNOWN: Final[dict[str, bool]] = {}
"""Whether each zone seen so far is one of :data:`_IN_PLAY_ZONES` (by its last part)."""


def in_play_zone(zone: str) -> bool:
    known = _KNOWN.get(zone)
    if known is None:
        known = _KNOWN[zone] = zone.rsplit(".", 1)[-1] in _IN_PLAY_ZONES
    return known


_FIELDS: Final = Card.__struct_fields__
_EXHAUSTED: Final = _FIELDS.index("exhausted")
_COMMITTED: Final = _FIELDS.index("committed")
_DAMAGE: Final = _FIELDS.index("damage")
_RESOURCES: Final = _FIELDS.index("resources")
_PROGRESS: Final = _FIELDS.index("progress")
_ATTACHED_TO: Final = _FIELDS.index("attached_to")
_SURGE: Final = _FIELDS.index("surge")
_SHOWN: Final = _FIELDS.index("shown")
_CANCELLED: Final = _FIELDS.index("cancelled")
"""Where :func:`leaves_play` finds each field it clears in a card's ``astuple``."""


def leaves_play(card: Card) -> None:
    """Tokens, states and attachments do not follow a card out of play.

    Each field is written only if it is not already cleared: a card leaving the deck or a
    hand (most moves) has none to clear, and a read costs less than a write (a Struct's
    attribute set goes through the generic path: callgrind, the stored fold of 12 LCG
    games, 10 writes a call made this function 2 % of the fold's instructions). The fields are
    read at once (``astuple``, one call): each read of a Struct's field from compiled code is a
    generic attribute lookup, nine of them ~1,500 instructions."""
    fields = astuple(card)
    if fields[_EXHAUSTED]:
        card.exhausted = False
    if fields[_COMMITTED]:
        card.committed = False
    if fields[_DAMAGE]:
        card.damage = 0
    if fields[_RESOURCES]:
        card.resources = 0
    if fields[_PROGRESS]:
        card.progress = 0
    if fields[_ATTACHED_TO] is not None:
        card.attached_to = None
    if fields[_SURGE]:
        card.surge = False
    if fields[_SHOWN]:
        card.shown = False
    if fields[_CANCELLED]:
        card.cancelled = False


_SHARED: Final = "\x00shared"
"""In :data:`_FACE_DOWN`: a zone of :data:`FACE_DOWN_SHARED` (no seat is named so)."""

_FACE_DOWN: Final[dict[str, str]] = {}
"""Each zone seen so far by :func:`face_down`: :data:`_SHARED`, the seat whose face-down
pile it would be (a player's :data:`FACE_DOWN_OWN`), or "" if neither; so that a zone's
name is split once (callgrind, the stored fold: splitting it on each move made three
strings, about 170 instructions an event)."""


def face_down(players: dict[Seat, Player], zone: str) -> bool:
    """``state.face_down_pile``, compiled."""
    owner = _FACE_DOWN.get(zone)
    if owner is None:
        if zone in FACE_DOWN_SHARED:
            owner = _SHARED
        else:
            seat, _, rest = zone.partition(".")
            owner = seat if rest in FACE_DOWN_OWN else ""
        _FACE_DOWN[zone] = owner
    if owner == _SHARED:
        return True
    return owner != "" and owner in players


def move(s: LcgState, uid: Uid, zone: str, top: bool = False) -> None:
    """Card ``uid`` goes to ``zone`` (at the bottom, or on top with ``top``)."""
    card = s.cards[uid]
    zones = s.zones
    was = card.zone
    zones[was].remove(uid)
    if not (in_play_zone(zone) and in_play_zone(was)):
        leaves_play(card)
    players = s.players
    if face_down(players, zone):
        # a card keeps what was known of it from one face-down pile to another (a shadow
        # card dealt from the deck); from anywhere else it went face down where it was seen
        card.known = card.known or not face_down(players, was)
    else:
        card.known = False
    card.zone = zone
    pile = zones.setdefault(zone, [])
    if top:
        pile.insert(0, uid)
    else:
        pile.append(uid)
