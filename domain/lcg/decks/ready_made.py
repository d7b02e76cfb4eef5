"""The decks shipped with Westmarch: one per default lineup and one per sphere.

Each is a plain deck list in ``domain/lcg/decks/`` (its key is the file's name), built from
the quantities of one Core Set (``thorin-nori-ori`` and its variants ``thorin-nori-ori-will``
and ``thorin-nori-ori-allies``, for The Lonely Mountain, add the two Hobbit saga boxes'
Dwarves, as the deck lists in those boxes do): the four decks the default lineups play
together never hold more copies of a card than one Core Set does. A player who brings no deck
plays the ready-made deck of their heroes (:func:`default_deck`; of two or more with the same
heroes, the first by file name: ``thorin-nori-ori-allies``, the bench row's deck, for Thorin
Oakenshield, Nori and Ori), so every default seat has cards of its own spheres to play. Cards
the engine does not play yet are left out of the game deck (:func:`playable_part`) and listed
by :func:`waiting`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

import msgspec

from domain.lcg.cards import CARDS
from domain.lcg.decks import Deck, playable, title
from domain.lcg.decks.formats import read_deck


@cache
def ready_made() -> dict[str, Deck]:
    """The decks shipped with Westmarch (``domain/lcg/decks/*.txt``), by key: the file's name
    without ``.txt`` (``westmarch new lcg --deck KEY``)."""
    folder = resources.files("domain.lcg.decks")
    found = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".txt"):
            key = entry.name.removesuffix(".txt")
            found[key] = read_deck(entry.read_text(encoding="utf-8"), "text", key)
    return found


def waiting(deck: Deck) -> list[str]:
    """The cards of a deck the engine does not play yet (by title, once each)."""
    return list(dict.fromkeys(title(c) for c, _ in deck.cards if not playable(c)))


def playable_part(deck: Deck) -> Deck:
    """The deck without the cards the engine does not play yet."""
    return msgspec.structs.replace(deck, cards=tuple((c, n) for c, n in deck.cards if playable(c)))


def default_deck(heroes: Sequence[str]) -> Deck:
    """The ready-made deck a lineup plays when its player brings none.

    The ready-made deck of exactly these heroes if there is one; otherwise every card of the
    single-sphere ready-made decks of the heroes' spheres. Only cards the engine plays.
    """
    wanted = set(heroes)
    decks = ready_made().values()
    exact = next((d for d in decks if set(d.heroes) == wanted), None)
    if exact is not None:
        return playable_part(exact)
    spheres = {CARDS[h].sphere for h in heroes}
    copies: dict[str, int] = {}
    for deck in decks:
        sphere = {CARDS[h].sphere for h in deck.heroes}
        if len(sphere) == 1 and sphere <= spheres:
            for code, n in deck.cards:
                copies[code] = max(copies.get(code, 0), n)
    name = " and ".join(sorted(s or "" for s in spheres))
    return playable_part(Deck(f"{name} cards", tuple(heroes), tuple(copies.items())))
