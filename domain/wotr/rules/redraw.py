"""A take-back draws afresh what chance decided and no person has seen (``wotr.take-back.redraw``).

A take-back goes back to a question and tells the game a fresh seed (kernel ``Reseeded``),
so the chance still to come is new (the location a path or battleground activation picks,
a Shadow bot's random card); this program does the same for the chance already decided but
not yet shown: the order of every draw deck, and what a Shadow bot holds in its hand and
cycle pile. Otherwise a player could learn their next draw, or the card a bot will play, by
taking back and trying again.

Rule (rules §3: draw decks are face down and hands are secret; seed 003, Setup and Random
Shadow Hand: a Shadow bot's cards are drawn and cycled unexamined, face down): a person's
own hand and piles are known to them and stay as they are; what lies face down unseen, any
of its cards could lie in any of its places. What some seat knows stays where it is: the top
of a deck its owner's Mirror of Galadriel shows, a card taken by name and shown, a card that
went face down where it could be seen (a card in reserve cycled by a bot): each a card whose
``known`` the fold set and no shuffle has reset.

Each seat's draw deck is one pool; a Shadow bot's hand, deck and cycle pile are one pool.
Each pool's unseen cards trade places with a shuffle recorded in a ``CardsRedrawn`` event, so
the new game re-executes from its log.
"""

from __future__ import annotations

from domain.kernel.events import CardsRedrawn, Event
from domain.kernel.flow import ForEach, register
from domain.kernel.runtime import Runtime
from domain.wotr.effects import emit, st
from domain.wotr.rules import table
from domain.wotr.rules.table import cards_in
from domain.wotr.state import BOT_UNSEEN, Seat, Uid, WotrState


def piles(s: WotrState, seat: Seat) -> tuple[str, ...]:
    """The piles of ``seat`` whose unseen cards could be one another (see the module)."""
    return tuple(f"{seat}.{pile}" for pile in BOT_UNSEEN) if s.is_bot(seat) else (f"{seat}.deck",)


def unseen(s: WotrState, seat: Seat) -> list[Uid]:
    """The cards of the seat's pool that no seat knows."""
    deck = cards_in(s, f"{seat}.deck")
    shown = deck[0] if deck and table.mirror_in_play(s, seat) else None
    return [u for pile in piles(s, seat) for u in cards_in(s, pile) if not s.cards[u].known and u != shown]


def _to_redraw(rt: Runtime) -> list[str]:
    s = st(rt)
    return [seat for seat in s.seats() if len(unseen(s, seat)) > 1]


def _redraw(rt: Runtime) -> Event:
    s = st(rt)
    places = unseen(s, str(rt.env["seat"]))
    zones = tuple(dict.fromkeys(s.cards[u].zone for u in places))
    return CardsRedrawn(piles=zones, places=tuple(places), cards=tuple(rt.shuffle(places)))


REDRAW = register("wotr.take-back.redraw", ForEach(_to_redraw, "seat", emit(_redraw)), rule="wotr.take-back.redraw")
