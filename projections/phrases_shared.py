"""Phrases both games tell alike (see projections/story.py): a zone key in words, the round
beginning and ending, a deck shuffled, cards drawn, cards sent to their piles, a position
laid out, a card's ability used.

A phrase here names zones through the reader's phrasebook (:meth:`Said.zone`), so each
game's phrasebook lists it under its own event types and it reads that game's zone words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from projections.i18n import N_, _, nsay, say
from projections.story import Said, a_or_n, plural, possessive, words


def zone_words(
    key: str,
    shared: Mapping[str, str],
    seat_zones: Mapping[str, str],
    other: Callable[[str, str], str | None] | None = None,
) -> str:
    """A zone key in words: a shared zone by its name (``staging``), a seat's zone as that
    seat's (``p1.hand`` -> ``p1's hand``); ``other`` may name a ``head.rest`` key first
    (None: not one of its own). A key nobody knows reads as itself. The names in ``shared``
    and ``seat_zones`` are English messages (marked with ``N_``), said in the language spoken."""
    if key in shared:
        return _(shared[key])
    head, _dot, rest = key.partition(".")
    if other is not None:
        named = other(head, rest)
        if named is not None:
            return named
    if rest in seat_zones:
        return say("%(seat)s's %(zone)s", seat=head, zone=_(seat_zones[rest]))
    return key


def round_began(said: Said) -> str:
    return say("round %(round)s begins", round=said.get("round"))


def round_ended(said: Said) -> str:
    return say("round %(round)s ends", round=said.get("round"))


def laid_out(said: Said, where: str) -> str:
    """A position set as given: how many cards, and where in the game (``where``)."""
    n = len(said.get("cards") or ()) + int(said.get("cards_hidden", 0) or 0)
    return say("the table is laid out as given: %(cards)s, %(where)s", cards=plural(n, "card"), where=where)


def deck_shuffled(said: Said) -> str:
    order = said.get("order")
    n = len(order) if order is not None else int(said.get("count", 0) or 0)
    return say("%(zone)s is shuffled (%(cards)s)", zone=said.zone(str(said.get("zone"))), cards=plural(n, "card"))


def cards_drawn(said: Said) -> str:
    cards = said.cards("cards")
    player = said.get("player")
    aside = bool(said.get("aside"))
    if cards.hidden:
        if aside:
            return say(
                "%(player)s draws %(cards)s and sets them aside to look at",
                player=player,
                cards=a_or_n(cards.count, "card"),
            )
        return say("%(player)s draws %(cards)s", player=player, cards=a_or_n(cards.count, "card"))
    if cards.count == 1:
        if aside:
            return say("%(player)s draws %(card)s and sets it aside to look at", player=player, card=cards.text())
        return say("%(player)s draws %(card)s", player=player, card=cards.text())
    if aside:
        return say(
            "%(player)s draws %(count)s and sets them aside to look at: %(cards)s",
            player=player,
            count=plural(cards.count, "card"),
            cards=cards.text(),
        )
    return say(
        "%(player)s draws %(count)s: %(cards)s", player=player, count=plural(cards.count, "card"), cards=cards.text()
    )


def to_piles(said: Said, verb: str) -> str:
    """Cards gone to their piles: the pile named when the reader sees every card and they
    all went to one (``Forest Spider#28 goes to the encounter discard pile``), else said
    as ``verb`` (``discarded``, ``cycled``, ``eliminated``)."""
    cards = said.cards("cards")
    piles = {said.state.cards[u].zone for u in cards.uids if u in said.state.cards}
    if not cards.hidden and len(piles) == 1:
        return nsay(
            "%(cards)s goes to %(zone)s",
            "%(cards)s go to %(zone)s",
            cards.count,
            cards=cards.text(),
            zone=said.zone(piles.pop()),
        )
    if verb == "cycled":
        return nsay("%(cards)s is cycled", "%(cards)s are cycled", cards.count, cards=cards.text())
    if verb == "eliminated":
        return nsay("%(cards)s is eliminated", "%(cards)s are eliminated", cards.count, cards=cards.text())
    return nsay("%(cards)s is discarded", "%(cards)s are discarded", cards.count, cards=cards.text())


def ability_used(said: Said, default: str | None = None) -> str:
    """A seat used a card's ability (``default``: the ability an event without one names)."""
    code = str(said.get("ability", default))
    card = said.card("card")
    return say(
        "%(player)s uses %(card_s)s %(ability)s",
        player=said.get("player"),
        ability=ability_word(code),
        card_s=possessive(card),
        card=card,
    )


ABILITIES = {
    "action": N_("action"),
    "response": N_("response"),
    "ability": N_("ability"),
    "forced": N_("forced effect"),
    "travel": N_("travel effect"),
    "when-revealed": N_("when revealed effect"),
    "shadow": N_("shadow effect"),
}


def ability_word(code: str) -> str:
    return _(ABILITIES[code]) if code in ABILITIES else words(code)
