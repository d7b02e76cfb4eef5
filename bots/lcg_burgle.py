"""The greedy LCG player's rules for The Lonely Mountain's burgle attempts (and Bilbo).

A failed burgle attempt at stage 2B makes Smaug the Golden (6 attack) attack the first player
(domain/lcg/cards/the_lonely_mountain.py, otd-072), and Bilbo Baggins leaving play loses the
game; so the bot makes every attempt it can succeed at, uses The Lonely Mountain's Action
only when the turned-up card cannot be matched, and never lets Bilbo take what kills him:
neither an attack's damage nor, under Dragon-Spell (otd-051), the resources he spends.
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


DRAGON_SPELL: Final = "Dragon-Spell"
"""Attached to the hero with the most resources (otd-051): each resource that hero spends
deals it 1 damage. It goes on Bilbo Baggins, whose resources pile up for The Lonely
Mountain's Action and Pretending to Sleep; on dev seeds 4001-4200 every one of the 24
games lost to Bilbo leaving play (not to threat) was lost to his spending under it (on
travel to Hidden Path, Pretending to Sleep, the Action, Gandalf's cost). Guarded
(``spending_kills``), no game of 4001-4800 is lost so (106 before), nor of 4801-5600 (102)."""


def essential(card: CardView) -> bool:
    """Whether losing this character loses the game."""
    return card.name in LOSES_WHEN_GONE


def spending_kills(hero: CardView, amount: int) -> bool:
    """Whether ``amount`` resources spent by ``hero`` kill it: Dragon-Spell's damage, 1 a
    resource spent, reaches its hit points."""
    spelled = any(a.name == DRAGON_SPELL for a in hero.attachments)
    return spelled and amount > 0 and hero.damage + amount >= (hero.hit_points or 0)


def bilbo_can_spend(me: PlayerView, amount: int) -> bool:
    """Whether the seat's essential hero (Bilbo Baggins, the Baggins resources' one holder)
    can spend ``amount`` and live; True when the seat has none."""
    return not any(essential(h) and spending_kills(h, amount) for h in me.heroes)


def play_kills(card: CardView, me: PlayerView) -> bool:
    """Whether paying for ``card`` needs what kills the seat's essential hero: the other heroes
    able to pay (its sphere's, any for a neutral card) pay all they can first, and Bilbo
    Baggins the rest (``spending_kills``)."""
    neutral = card.sphere == "neutral"
    others = sum(h.resources for h in me.heroes if not essential(h) and (neutral or h.sphere == card.sphere))
    share = (card.cost or 0) - others
    return share > 0 and any(
        essential(h) and (neutral or h.sphere == card.sphere) and spending_kills(h, share) for h in me.heroes
    )


def payment_kills(option_id: str, me: PlayerView) -> bool:
    """Whether a payment option (``uid:amount,...``) makes an essential hero spend what kills it."""
    heroes = {str(h.uid): h for h in me.heroes if essential(h)}
    for part in option_id.split(","):
        uid, _, amount = part.partition(":")
        if uid in heroes and amount.isdigit() and spending_kills(heroes[uid], int(amount)):
            return True
    return False


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
