"""Player decks: heroes and card quantities, whether a deck may be played, and the ready-made ones.

A deck is read from a RingsDB deck export, an OCTGN ``.o8d`` deck or a plain list
(:mod:`domain.lcg.decks.formats`); :func:`problems` names, one line each, everything that
keeps it from the table. Deck-building rules (Core Set rulebook, "Deck Construction" and
"Heroes"; the FAQ's uniqueness rule): 1 to 3 heroes, no two heroes of the same unique title,
at most 3 copies of a card by title. The rulebook's 50-card minimum for a constructed deck
is not enforced: one Core Set cannot build four such decks, and its own starting decks are
smaller. No card of the pool has a contract, so no contract restricts a deck yet.

The card pool a deck may use is every player card the engine plays: defined in
:data:`~domain.lcg.cards.CARDS` with its text, if it has any, implemented in
:data:`~domain.lcg.cards.TEXTS`. It grows as card texts are written.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache

import msgspec

from domain.lcg.cards import CARDS, PLAYER_CARD_IDS, TEXTS, load_texts

load_texts()

MAX_COPIES = 3
MIN_HEROES, MAX_HEROES = 1, 3
PLAYER_TYPES = ("hero", "ally", "attachment", "event")
"""The card types a player deck (and its heroes) is made of."""


class Deck(msgspec.Struct, frozen=True):
    """Heroes (codes, in the order listed) and card quantities (code, copies)."""

    name: str
    heroes: tuple[str, ...] = ()
    cards: tuple[tuple[str, int], ...] = ()
    unreadable: tuple[str, ...] = ()
    """What could not be read (an unknown card, a malformed line), one problem each."""

    def codes(self) -> tuple[str, ...]:
        """The deck as the table gets it: one code per physical card."""
        return tuple(code for code, copies in self.cards for _ in range(copies))

    @property
    def size(self) -> int:
        return sum(copies for _, copies in self.cards)


Playable = Callable[[str], bool]


def playable(code: str) -> bool:
    """Whether the engine plays this player card: it is defined and its text implemented."""
    card = CARDS.get(code)
    if card is not None and card.sphere == "baggins":
        return False  # the Hobbit saga's Bilbo Baggins comes with his scenario, never in a deck
    return card is not None and card.type in PLAYER_TYPES and (not card.text or code in TEXTS)


def in_core_set(code: str) -> bool:
    """Whether the card is a Core Set player card (implemented or not)."""
    return code in PLAYER_CARD_IDS


def title(code: str) -> str:
    card = CARDS.get(code)
    if card is not None:
        return card.name
    ids = PLAYER_CARD_IDS.get(code)
    return ids.name if ids is not None else code


def card_type(code: str) -> str:
    card = CARDS.get(code)
    if card is not None:
        return card.type
    ids = PLAYER_CARD_IDS.get(code)
    return ids.type if ids is not None else "unknown"


def _where(code: str) -> str:
    """How a card is named in a problem: its title and where it is printed."""
    number = code.removeprefix("core-")
    return f"{title(code)} (Core Set #{int(number)})" if number.isdigit() else title(code)


def problems(deck: Deck, allowed: Playable = playable) -> list[str]:
    """Everything that keeps ``deck`` from being played, one line each (none: it is legal).

    ``allowed`` is the card pool; by default the cards the engine plays.
    """
    found = list(deck.unreadable)
    if not MIN_HEROES <= len(deck.heroes) <= MAX_HEROES:
        how = "no hero" if not deck.heroes else f"{len(deck.heroes)} heroes"
        found.append(f"the deck has {how}; a deck has {MIN_HEROES} to {MAX_HEROES} heroes")
    seen: set[str] = set()
    for code in deck.heroes:
        kind = card_type(code)
        if kind != "hero":
            found.append(f"{title(code)} is {_a(kind)} card, not a hero")
        elif title(code) in seen:
            found.append(f"{title(code)} is among the heroes twice; a hero is unique")
        seen.add(title(code))
    copies: dict[str, int] = {}
    for code, n in deck.cards:
        copies[title(code)] = copies.get(title(code), 0) + n
        kind = card_type(code)
        if kind == "hero":
            found.append(f"{title(code)} is a hero; list it among the heroes, once")
        elif kind not in PLAYER_TYPES:
            found.append(f"{title(code)} is {_a(kind)} card, not a player card")
    for name, n in copies.items():
        if n > MAX_COPIES:
            found.append(f"{n} copies of {name}; a deck holds at most {MAX_COPIES} of a title")
    for code in dict.fromkeys([*deck.heroes, *(c for c, _ in deck.cards)]):
        if card_type(code) in PLAYER_TYPES and not allowed(code):
            found.append(f"{_where(code)} is not playable yet: its text is not implemented")
    return found


def _a(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


# -- names ---------------------------------------------------------------------------------


def fold(name: str) -> str:
    """A card name as a reader may type it: accents, case, punctuation and a leading
    "The" do not matter (``Celebrian's Stone``, ``galadhrims greeting``, ``For Gondor``)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    plain = re.sub(r"[^a-z0-9]+", " ", plain).strip()
    return plain.removeprefix("the ").replace(" ", "")


@cache
def _names() -> dict[str, list[str]]:
    """Codes by folded name and alias: every card defined, and every Core Set player card."""
    names: dict[str, list[str]] = {}
    entries: list[tuple[str, Iterable[str]]] = [(c.code, (c.name,)) for c in CARDS.values()]
    entries += [(i.code, (i.name, *i.aliases)) for i in PLAYER_CARD_IDS.values()]
    for code, spellings in entries:
        for spelling in spellings:
            codes = names.setdefault(fold(spelling), [])
            if code not in codes:
                codes.append(code)
    return names


@cache
def _ids() -> dict[str, str]:
    """Our codes by every code a deck file may use: ours, RingsDB's, OCTGN's."""
    ids = {code: code for code in CARDS}
    for entry in PLAYER_CARD_IDS.values():
        ids[entry.code] = ids[entry.ringsdb] = ids[entry.octgn.casefold()] = entry.code
    for card in CARDS.values():
        for other in (card.ringsdb_code, card.octgn_id.casefold()):
            if other:
                ids[other] = card.code
    return ids


def lookup(name_or_code: str) -> str | None:
    """The card a deck line names: by our code, RingsDB code, OCTGN id, name or alias.

    A name shared by a player card and an encounter card means the player card.
    """
    text = name_or_code.strip()
    code = _ids().get(text) or _ids().get(text.casefold())
    if code is not None:
        return code
    codes = _names().get(fold(text), [])
    players = [c for c in codes if card_type(c) in PLAYER_TYPES]
    found = players or codes
    return found[0] if found else None


def random_deck(rng: random.Random, taken: Iterable[str] = (), name: str = "random deck") -> Deck:
    """A legal deck drawn from the card pool with ``rng``: 1 to 3 heroes not in ``taken``,
    and 20 to 50 cards, at most 3 copies of a title (for tests and bot experiments)."""
    used = set(taken)
    heroes = [c for c in sorted(CARDS) if CARDS[c].type == "hero" and playable(c) and c not in used]
    chosen = rng.sample(heroes, min(len(heroes), rng.randint(MIN_HEROES, MAX_HEROES)))
    pool = [c for c in sorted(CARDS) if CARDS[c].type in PLAYER_TYPES[1:] and playable(c)]
    copies: dict[str, int] = {}
    for _ in range(rng.randint(20, 50)):
        code = rng.choice(pool)
        if copies.get(code, 0) < MAX_COPIES:
            copies[code] = copies.get(code, 0) + 1
    return Deck(name, tuple(chosen), tuple(copies.items()))
