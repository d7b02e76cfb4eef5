"""The Hobbit saga's Dwarf heroes and allies (The Hobbit: Over Hill and Under Hill, On the
Doorstep): what their text does.

Most of them turn on "while you control at least 5 Dwarf characters": the Dwarf heroes and
allies in play under the player's control (:func:`dwarves`).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.events import Event, LimitUsed
from domain.kernel.flow import If, Let, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import CARDS, Trigger, text
from domain.lcg.effects import (
    PLAYER,
    SELF,
    card_var,
    draw,
    emit,
    put_into_play,
    reduce_threat,
    st,
)
from domain.lcg.rules import planning, table
from domain.lcg.state import LcgState, Seat, Uid

THORIN = "ohauh-002"
NORI = "ohauh-003"
ORI = "ohauh-004"
FILI = "ohauh-006"
KILI = "ohauh-007"
BIFUR = "otd-007"
DWALIN = "otd-008"

COMPANY = 5
""""At least 5 Dwarf characters"."""


def dwarves(s: LcgState, seat: Seat) -> int:
    """The Dwarf characters ``seat`` controls (heroes and allies in play)."""
    return sum(1 for u in table.characters(s, seat) if table.has_trait(s, u, "Dwarf"))


def _company(s: LcgState, uid: Uid) -> bool:
    """The controller of ``uid`` controls at least 5 Dwarf characters."""
    seat = s.controller(uid)
    return seat is not None and dwarves(s, seat) >= COMPANY


# -- heroes --------------------------------------------------------------------------------

THORIN_KEY = "thorin-oakenshield.extra-resource"


def _collected(s: LcgState, e: Event, uid: Uid) -> bool:
    """The resource phase's collection of Thorin's player (every one of their heroes gains 1
    resource at once), once a round, with 5 Dwarf characters under their control."""
    if not isinstance(e, ev.ResourcesAdded) or s.phase != "resource" or uid not in e.cards:
        return False
    seat = s.controller(uid)
    if seat is None or s.limit_used(THORIN_KEY) or dwarves(s, seat) < COMPANY:
        return False
    return set(e.cards) == set(table.heroes(s, seat))


# Thorin Oakenshield — with 5 or more Dwarf characters under his player's control, he collects
# one resource more than the others in the resource phase. The
# extra resource comes with the collection itself (not from any card's effect the players
# could respond to separately); once a round.
text(
    THORIN,
    forced=(
        Trigger(
            ev.ResourcesAdded,
            _collected,
            Seq(
                emit(lambda rt: LimitUsed(key=THORIN_KEY, until="round")),
                emit(lambda rt: ev.ResourcesAdded(cards=(SELF(rt),), amount=1)),
            ),
        ),
    ),
)


def _dwarf_played(s: LcgState, e: Event, uid: Uid) -> bool:
    return (
        isinstance(e, ev.AllyPlayed)
        and e.player == s.controller(uid)
        and table.defn(s, e.card).is_a("Dwarf")
        and s.players[e.player].threat > 0
    )


# Nori — Response: once a Dwarf character has been played from his player's hand, that
# player's threat goes down by 1.
# (The Dwarf characters played from hand are allies: heroes are never played.)
text(
    NORI,
    responses=(
        Trigger(
            ev.AllyPlayed,
            _dwarf_played,
            reduce_threat(PLAYER, 1),
            optional=True,
            prompt="Nori: lower your threat by 1?",
        ),
    ),
)


def _resource_phase_begins(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.PhaseBegan) and e.phase == "resource" and _company(s, uid)


# Ori — with 5 or more Dwarf characters under his player's control, that player draws one more
# card as the resource phase begins.
text(ORI, forced=(Trigger(ev.PhaseBegan, _resource_phase_begins, draw(PLAYER, 1)),))


# -- allies --------------------------------------------------------------------------------


def _played_self(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.AllyPlayed) and e.card == uid


def _played_with_company(s: LcgState, e: Event, uid: Uid) -> bool:
    """This ally was just played from hand, and its player now controls 5 Dwarf characters
    (the ally itself among them: its text is active once it is in play)."""
    return _played_self(s, e, uid) and _company(s, uid)


# Bifur — Response, only while his player controls 5 or more Dwarf characters: once Bifur has
# been played from hand, his player draws 2 cards.
text(
    BIFUR,
    responses=(
        Trigger(ev.AllyPlayed, _played_with_company, draw(PLAYER, 2), optional=True, prompt="Bifur: draw 2 cards?"),
    ),
)


def _dwalin_discount(s: LcgState, seat: Seat, uid: Uid) -> int:
    """Dwalin costs 2 less while his player controls 5 Dwarf characters (before he is in play)."""
    return 2 if s.cards[uid].code == DWALIN and dwarves(s, seat) >= COMPANY else 0


# Dwalin — Sentinel; he costs 2 less to play while his player controls 5 or more Dwarf
# characters. (Sentinel is his keyword, read by the combat rules.)
planning.COST_REDUCTIONS.append(table.needs(_dwalin_discount, DWALIN))


def _brother_in_deck(brother: str) -> Callable[[Runtime], Uid | None]:
    """The first copy of ``brother`` in the player's deck (the copies are alike)."""

    def found(rt: Runtime) -> Uid | None:
        s = st(rt)
        return next((u for u in table.cards_in(s, f"{PLAYER(rt)}.deck") if s.cards[u].code == brother), None)

    return found


def _shuffle_deck(rt: Runtime) -> Event | None:
    zone = f"{PLAYER(rt)}.deck"
    deck = table.cards_in(st(rt), zone)
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(list(deck)))) if deck else None


def _in_planning(s: LcgState, e: Event, uid: Uid) -> bool:
    return _played_self(s, e, uid) and s.phase == "planning"


def _brothers(code: str, brother: str, name: str) -> None:
    """Fili and Kili — Response: once one brother has been played from hand in the planning
    phase, his player finds the other in their deck and puts him into play, then shuffles.
    A copy of Y already in play cannot enter play (unique): the search then finds him but he
    stays in the deck, which is shuffled all the same."""
    text(
        code,
        responses=(
            Trigger(
                ev.AllyPlayed,
                _in_planning,
                Seq(
                    Let(
                        lambda rt: {"brother": _brother_in_deck(brother)(rt)},
                        If(
                            lambda rt: rt.env["brother"] is not None,
                            put_into_play(card_var("brother"), PLAYER),
                        ),
                    ),
                    emit(_shuffle_deck),
                ),
                optional=True,
                prompt=f"{name}: search your deck for {CARDS[brother].name} and put him into play?",
            ),
        ),
    )


_brothers(FILI, KILI, "Fili")
_brothers(KILI, FILI, "Kili")


text(DWALIN)  # his cost reduction is a planning hook (above); Sentinel is a keyword
