"""The greedy LCG player's rules for The Lonely Mountain's burgle attempts (and Bilbo).

A failed burgle attempt at stage 2B makes Smaug the Golden (6 attack) attack the first player
(domain/lcg/cards/the_lonely_mountain.py, otd-072), and Bilbo Baggins leaving play loses the
game; so the bot makes every attempt it can succeed at, uses The Lonely Mountain's Action
only when the turned-up card cannot be matched, and never lets Bilbo take what kills him.
The burgle effects are the cards' printed text (domain/lcg/rules/burgle.py, ``BURGLES``).
"""

from __future__ import annotations

from typing import Final

from domain.kernel.decisions import Choice, Decision
from domain.lcg.rules.burgle import BURGLES, Burgle
from projections.lcg import CardView, PlayerView, TableView

LOSES_WHEN_GONE: Final = frozenset({"Bilbo Baggins"})
"""Characters whose leaving play loses the game (Bilbo Baggins, otd-001): never the one to
take damage, defend or be given up while any other answer remains."""
SMAUG_THE_GOLDEN: Final = "Smaug the Golden"
"""Its threat is the number of non-Burglar characters committed to the quest (otd-040)."""


def essential(card: CardView) -> bool:
    """Whether losing this character loses the game."""
    return card.name in LOSES_WHEN_GONE


def _effect(view: TableView) -> Burgle | None:
    # the burgle card the attempt resolved is the last one it discarded (BurgleCardsDiscarded
    # appends the cards it discards to the encounter discard pile in order)
    for card in reversed(view.encounter_discard):
        if card.code in BURGLES:
            return BURGLES[card.code]
    return None


def matching(view: TableView, me: PlayerView) -> list[CardView]:
    """The cards in hand that match the turned-up card for the current burgle effect."""
    effect = _effect(view)
    if effect is None or not me.burgled:
        return []
    up = me.burgled[0]
    return [c for c in me.hand or [] if all(getattr(c, which) == getattr(up, which) for which in effect.match)]


def can_succeed(view: TableView, me: PlayerView) -> bool:
    """Whether the hand holds enough matching cards for the attempt to succeed now."""
    effect = _effect(view)
    return effect is not None and len(matching(view, me)) >= effect.count


def step(decision: Decision, view: TableView) -> Choice | None:
    """Step 3: discard whenever the attempt can succeed (a failure makes Smaug attack), and
    give up the cheapest matching cards."""
    ids = {o.id for o in decision.options}
    if "discard" in ids:
        return ("discard",)
    me = next(p for p in view.players if p.seat == decision.seat)
    hand = {c.uid: c for c in me.hand or []}
    cards = sorted((o for o in decision.options if o.card in hand), key=lambda o: hand[o.card or 0].cost or 0)
    return tuple(o.id for o in cards[: decision.min]) if len(cards) >= decision.min else None


def golden_tax(view: TableView) -> int:
    """Threat each non-Burglar character committed adds to the quest (Smaug the Golden's X)."""
    return sum(1 for c in view.staging if c.name == SMAUG_THE_GOLDEN)
