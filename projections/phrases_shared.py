"""Phrases both games tell alike (see projections/story.py): a zone key in words, the round
beginning and ending, a deck shuffled, cards drawn, cards sent to their piles, a position
laid out, a card's ability used.

A phrase here names zones through the reader's phrasebook (:meth:`Said.zone`), so each
game's phrasebook lists it under its own event types and it reads that game's zone words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from projections.story import Said, a_or_n, plural, possessive, words


def zone_words(
    key: str,
    shared: Mapping[str, str],
    seat_zones: Mapping[str, str],
    other: Callable[[str, str], str | None] | None = None,
) -> str:
    """A zone key in words: a shared zone by its name (``staging``), a seat's zone as that
    seat's (``p1.hand`` -> ``p1's hand``); ``other`` may name a ``head.rest`` key first
    (None: not one of its own). A key nobody knows reads as itself."""
    if key in shared:
        return shared[key]
    head, _, rest = key.partition(".")
    if other is not None:
        named = other(head, rest)
        if named is not None:
            return named
    if rest in seat_zones:
        return f"{head}'s {seat_zones[rest]}"
    return key


def round_began(said: Said) -> str:
    return f"round {said.get('round')} begins"


def round_ended(said: Said) -> str:
    return f"round {said.get('round')} ends"


def laid_out(said: Said, where: str) -> str:
    """A position set as given: how many cards, and where in the game (``where``)."""
    n = len(said.get("cards") or ()) + int(said.get("cards_hidden", 0) or 0)
    return f"the table is laid out as given: {plural(n, 'card')}, {where}"


def deck_shuffled(said: Said) -> str:
    order = said.get("order")
    n = len(order) if order is not None else int(said.get("count", 0) or 0)
    return f"{said.zone(str(said.get('zone')))} is shuffled ({plural(n, 'card')})"


def cards_drawn(said: Said) -> str:
    cards = said.cards("cards")
    player = said.get("player")
    aside = " and sets them aside to look at" if said.get("aside") else ""
    if cards.hidden:
        return f"{player} draws {a_or_n(cards.count, 'card')}{aside}"
    if cards.count == 1:
        return f"{player} draws {cards.text()}{aside}"
    return f"{player} draws {plural(cards.count, 'card')}{aside}: {cards.text()}"


def to_piles(said: Said, verb: str) -> str:
    """Cards gone to their piles: the pile named when the reader sees every card and they
    all went to one (``Forest Spider#28 goes to the encounter discard pile``), else ``verb``."""
    cards = said.cards("cards")
    piles = {said.state.cards[u].zone for u in cards.uids if u in said.state.cards}
    if not cards.hidden and len(piles) == 1:
        return f"{cards.text()} {cards.be('goes', 'go')} to {said.zone(piles.pop())}"
    return f"{cards.text()} {cards.be()} {verb}"


def ability_used(said: Said, default: str | None = None) -> str:
    """A seat used a card's ability (``default``: the ability an event without one names)."""
    ability = words(str(said.get("ability", default)))
    return f"{said.get('player')} uses {possessive(said.card('card'))} {ability}"
