"""Per-round caps on progress and damage a card may receive.

Searching the High Seas, Destroy the Dreadnaught: "no more than 5 progress per player can
be placed on this stage each round"; the Dreadnaught: "no more than 5 damage per player
can be placed on it each round". What a card has received this round is kept as a lasting
modifier until the end of the round, so the fold alone knows it.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.lcg.state import LcgState, Uid

RECEIVED_PROGRESS = "progress-this-round"
RECEIVED_DAMAGE = "damage-this-round"

Cap = Callable[[LcgState, Uid], int]
PROGRESS_CAPS: dict[str, Cap] = {}
"""Cards (by code) that receive at most so much progress each round."""
DAMAGE_CAPS: dict[str, Cap] = {}
"""Cards (by code) that receive at most so much damage each round."""


def _room(caps: dict[str, Cap], tally: str, s: LcgState, uid: Uid) -> tuple[int, int] | None:
    """The card's cap this round and what it has received so far (None: no cap)."""
    cap = caps.get(s.cards[uid].code)
    if cap is None:
        return None
    return cap(s, uid), s.modifier_total(uid, tally) if s.modifiers else 0


def _allowed(caps: dict[str, Cap], tally: str, s: LcgState, uid: Uid | None, amount: int) -> int:
    room = _room(caps, tally, s, uid) if uid is not None else None
    if room is None:
        return amount
    cap, received = room
    return max(0, min(amount, cap - received))


def progress_allowed(s: LcgState, uid: Uid | None, amount: int) -> int:
    return _allowed(PROGRESS_CAPS, RECEIVED_PROGRESS, s, uid, amount)


def progress_room(s: LcgState, uid: Uid) -> tuple[int, int] | None:
    """The progress the card may receive each round and what it has received this round."""
    return _room(PROGRESS_CAPS, RECEIVED_PROGRESS, s, uid)


def damage_room(s: LcgState, uid: Uid) -> tuple[int, int] | None:
    """The damage the card may take each round and what it has taken this round."""
    return _room(DAMAGE_CAPS, RECEIVED_DAMAGE, s, uid)


ThreatCap = Callable[[LcgState, str, Uid | None], int | None]
THREAT_REDUCTION_CAPS: list[ThreatCap] = []
"""Texts that limit how much a player's threat may be reduced, given the card whose effect
reduces it (Hard Mode: 1 each round; A Perilous Voyage: not by player cards)."""
REDUCED_THREAT = "threat-reduced-this-round:"


def threat_reduction_allowed(s: LcgState, seat: str, source: Uid | None = None) -> int:
    limits = [n for cap in THREAT_REDUCTION_CAPS if (n := cap(s, seat, source)) is not None]
    return min(limits) if limits else 1 << 30


def damage_allowed(s: LcgState, uid: Uid | None, amount: int) -> int:
    return _allowed(DAMAGE_CAPS, RECEIVED_DAMAGE, s, uid, amount)
