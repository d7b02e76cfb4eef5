"""A take-back draws afresh what chance decided and no seat has seen (``lcg.take-back.redraw``).

A take-back goes back to a question and tells the game a fresh seed (kernel ``Reseeded``),
so the chance still to come is new; this program does the same for the chance already
decided but not yet shown: the order of the encounter deck and of each player's deck, the
face-down shadow cards not yet turned, the cards face down under Orc Guards, the Corsair
deck, the treasures under The Lonely Mountain. Otherwise a player could learn the next
encounter card or a shadow card by taking back and trying again.

Rule (seed 001, "On the table": decks and shadow cards lie face down, a hand only its owner
sees): what lies face down is unknown to every seat, so any unseen card of a pile could lie in
any unseen place of it, and a shadow card dealt from the encounter deck could be any card no
seat has seen of that deck. What some seat knows stays where it is: a hand (never face
down), a card a seat looked at and that was put back (Henamarth Riversong, Denethor, Dark
Knowledge), a card put face down where it could be seen (a burgle attempt's card back on top
of its deck): each is a card whose ``known`` the fold set, and no shuffle has reset.

Each pile and the pile it was dealt from (the encounter deck with the shadow cards, a deck
with the cards under Orc Guards) is one pool; each pool's unseen cards trade places with a
shuffle recorded in a ``CardsRedrawn`` event, so the new game re-executes from its log.
"""

from __future__ import annotations

from domain.kernel.events import CardsRedrawn, Event
from domain.kernel.flow import ForEach, register
from domain.kernel.runtime import Runtime
from domain.lcg.effects import emit, st
from domain.lcg.rules.table import cards_in
from domain.lcg.state import LcgState, Uid


def pools(s: LcgState) -> dict[str, tuple[str, ...]]:
    """Each pool by name: the face-down piles whose unseen cards could be one another."""
    found: dict[str, tuple[str, ...]] = {"encounter.deck": ("encounter.deck", "shadows")}
    for seat in s.order:
        found[f"{seat}.deck"] = (f"{seat}.deck", f"{seat}.under")
    found["corsair.deck"] = ("corsair.deck",)
    found["treasures"] = ("treasures",)
    return found


def unseen(s: LcgState, piles: tuple[str, ...]) -> list[Uid]:
    """The cards of ``piles`` no seat knows (a shadow card turned face up is seen by all)."""
    return [u for pile in piles for u in cards_in(s, pile) if not (s.cards[u].known or s.cards[u].shown)]


def _to_redraw(rt: Runtime) -> list[str]:
    s = st(rt)
    return [name for name, piles in pools(s).items() if len(unseen(s, piles)) > 1]


def _redraw(rt: Runtime) -> Event:
    s = st(rt)
    places = unseen(s, pools(s)[str(rt.env["pool"])])
    piles = tuple(dict.fromkeys(s.cards[u].zone for u in places))
    return CardsRedrawn(piles=piles, places=tuple(places), cards=tuple(rt.shuffle(places)))


REDRAW = register("lcg.take-back.redraw", ForEach(_to_redraw, "pool", emit(_redraw)), rule="lcg.take-back.redraw")
