"""Events of The Hobbit saga scenarios: burgle attempts (The Lonely Mountain).

Like :mod:`domain.lcg.events`, each apply function only writes down what happened. The card a
burgle attempt turns up lies face up in ``<seat>.burgle`` until the attempt ends, when it
goes back on top of its owner's deck (it was only turned up; the next attempt shuffles the
deck again).
"""

from __future__ import annotations

from domain.kernel.events import Event
from domain.lcg.events import _move, on
from domain.lcg.state import LcgState, Seat, Uid


class BurgleAttemptBegan(Event, frozen=True, kw_only=True):
    """The first player makes a burgle attempt (the cause names the text that asked for it)."""

    player: Seat


@on(BurgleAttemptBegan)
def _began(s: LcgState, e: BurgleAttemptBegan) -> None:
    pass


class BurgleCardsDiscarded(Event, frozen=True, kw_only=True):
    """Step 1: cards discarded from the top of the encounter deck until one with a burgle
    effect (``burgle``, the last of ``cards``; None if the deck ran out without one, when it is
    reset from its discard pile and the discarding goes on)."""

    cards: tuple[Uid, ...]
    burgle: Uid | None = None


@on(BurgleCardsDiscarded)
def _discarded(s: LcgState, e: BurgleCardsDiscarded) -> None:
    for uid in e.cards:
        _move(s, uid, "encounter.discard")


class BurgleCardTurnedUp(Event, frozen=True, kw_only=True):
    """Step 2: the top card of the first player's deck is turned up (the revealed card)."""

    player: Seat
    card: Uid


@on(BurgleCardTurnedUp)
def _turned_up(s: LcgState, e: BurgleCardTurnedUp) -> None:
    _move(s, e.card, f"{e.player}.burgle")


class BurgleSucceeded(Event, frozen=True, kw_only=True):
    """Step 3: the first player discarded the cards the burgle effect asked for."""

    player: Seat
    burgle: Uid
    revealed: Uid
    discarded: tuple[Uid, ...]


@on(BurgleSucceeded)
def _succeeded(s: LcgState, e: BurgleSucceeded) -> None:
    for uid in e.discarded:
        _move(s, uid, f"{e.player}.discard")
    _move(s, e.revealed, f"{e.player}.deck", top=True)


class BurgleFailed(Event, frozen=True, kw_only=True):
    """The attempt failed, and why: ``empty-deck`` (no card to turn up), ``no-burgle-card``
    (no card of the encounter deck or its discard pile has a burgle effect), ``not-discarded`` (the first
    player did not, or could not, discard the cards asked for)."""

    player: Seat
    reason: str
    burgle: Uid | None = None
    revealed: Uid | None = None


@on(BurgleFailed)
def _failed(s: LcgState, e: BurgleFailed) -> None:
    if e.revealed is not None:
        _move(s, e.revealed, f"{e.player}.deck", top=True)


HOBBIT_EVENTS: tuple[type[Event], ...] = (
    BurgleAttemptBegan,
    BurgleCardsDiscarded,
    BurgleCardTurnedUp,
    BurgleSucceeded,
    BurgleFailed,
)
