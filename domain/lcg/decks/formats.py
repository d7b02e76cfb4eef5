"""Reading a deck from the formats players share decks in.

- **RingsDB** deck export (JSON): ``heroes`` and ``slots`` map RingsDB card codes to
  quantities; ``slots`` lists the heroes too. ``sideslots`` (the sideboard) is not the deck.
- **OCTGN** ``.o8d`` (XML): ``<deck game="…">`` with ``<section name="Hero">``, ``Ally``,
  ``Attachment``, ``Event``…, each ``<card qty="3" id="OCTGN id">Name</card>``. The
  ``Sideboard`` and the shared scenario sections (Quest, Encounter, Special, Setup) are not
  the player's deck.
- **Plain text**: one card per line, ``3x Guard of the Citadel``, ``Guard of the Citadel x3``,
  ``3 Guard of the Citadel`` or just the name (one copy); names with or without accents,
  aliases, codes; a trailing ``(Core Set)`` is ignored. Heroes are the hero cards listed, on
  their own lines or as ``Heroes: Aragorn, Gimli, Legolas``. Headings (``Heroes (3)``,
  ``Allies``…), ``Packs:`` lines, ``#`` comments and a first line naming the deck (RingsDB's
  text export) are skipped; cards under a ``Sideboard`` heading are not the deck.

Nothing here refuses a deck: what cannot be read becomes a problem in ``Deck.unreadable``,
and :func:`domain.lcg.decks.problems` names everything at once.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

import msgspec

from domain.lcg.decks import Deck, card_type, lookup

FORMATS = ("ringsdb", "o8d", "text")
OCTGN_LOTR_GAME = "a21af4e8-be4b-4cda-a6b6-534f9717391f"
"""The OCTGN id of The Lord of the Rings: The Card Game (the ``game`` of an ``.o8d`` deck)."""
MAX_TEXT = 100_000
"""Longer than any deck file; a longer text is refused unread."""


def detect(text: str) -> str:
    """The format of a deck text: JSON is RingsDB's, XML is OCTGN's, anything else a list."""
    start = text.lstrip("\ufeff \t\r\n")[:1]
    return "ringsdb" if start == "{" else "o8d" if start == "<" else "text"


def read_deck(text: str, fmt: str = "", name: str = "") -> Deck:
    """The deck ``text`` holds, in format ``fmt`` (``ringsdb``, ``o8d``, ``text``; empty: detect)."""
    if len(text) > MAX_TEXT:
        return Deck(name, unreadable=(f"the deck text is {len(text):,} characters; a deck is under {MAX_TEXT:,}",))
    fmt = fmt or detect(text)
    if fmt == "ringsdb":
        return _ringsdb(text, name)
    if fmt == "o8d":
        return _o8d(text, name)
    if fmt == "text":
        return _plain(text, name)
    return Deck(name, unreadable=(f"unknown deck format {fmt!r}; use {', '.join(FORMATS)} (or none to detect it)",))


class _Builder:
    """Heroes and card quantities as they are read, with the problems met."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.heroes: list[str] = []
        self.cards: dict[str, int] = {}
        self.problems: list[str] = []

    def add(self, code: str, copies: int, where: str) -> None:
        if copies < 1:
            self.problems.append(f"{where}: {copies} copies; a card is listed once or more")
        elif card_type(code) == "hero":
            self.heroes += [code] * copies
        else:
            self.cards[code] = self.cards.get(code, 0) + copies

    def deck(self) -> Deck:
        return Deck(self.name, tuple(self.heroes), tuple(self.cards.items()), tuple(self.problems))


# -- RingsDB -------------------------------------------------------------------------------


class _RingsDbDeck(msgspec.Struct):
    slots: dict[str, int]
    heroes: dict[str, int] = {}
    name: str = ""


def _ringsdb(text: str, name: str) -> Deck:
    try:
        data = msgspec.json.decode(text.encode(), type=_RingsDbDeck)
    except msgspec.ValidationError as error:
        return Deck(name, unreadable=(f"not a RingsDB deck export: {error}",))
    except msgspec.DecodeError as error:
        return Deck(name, unreadable=(f"not valid JSON: {error}",))
    deck = _Builder(data.name or name)
    hero_codes = set(data.heroes)
    for ringsdb_code, copies in data.heroes.items():
        code = lookup(ringsdb_code)
        if code is None:
            deck.problems.append(f"hero {ringsdb_code}: no card has this RingsDB code in the card pool")
        elif card_type(code) != "hero":
            deck.heroes.append(code)  # named as a problem: not a hero
        else:
            deck.add(code, copies, f"hero {ringsdb_code}")
    for ringsdb_code, copies in data.slots.items():
        if ringsdb_code in hero_codes:
            continue
        code = lookup(ringsdb_code)
        if code is None:
            deck.problems.append(f"card {ringsdb_code}: no card has this RingsDB code in the card pool")
        else:
            deck.add(code, copies, f"card {ringsdb_code}")
    return deck.deck()


# -- OCTGN ---------------------------------------------------------------------------------

_NOT_THE_DECK = {"sideboard", "quest", "encounter", "special", "setup", "second special", "staging setup"}


def _o8d(text: str, name: str) -> Deck:
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        return Deck(name, unreadable=("an OCTGN deck declares no DOCTYPE or entities",))
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        return Deck(name, unreadable=(f"not a readable OCTGN deck (XML): {error}",))
    if root.tag != "deck":
        return Deck(name, unreadable=(f"not an OCTGN deck: the document is <{root.tag}>, not <deck>",))
    game = root.get("game", OCTGN_LOTR_GAME)
    if game.casefold() != OCTGN_LOTR_GAME:
        return Deck(name, unreadable=(f"an OCTGN deck of another game (game id {game})",))
    deck = _Builder(name)
    for section in root.iter("section"):
        if section.get("name", "").strip().casefold() in _NOT_THE_DECK:
            continue
        for card in section.iter("card"):
            label = (card.text or "").strip()
            octgn_id = card.get("id", "")
            where = f"{label or octgn_id} ({section.get('name', '')})"
            try:
                copies = int(card.get("qty", "1"))
            except ValueError:
                deck.problems.append(f"{where}: quantity {card.get('qty')!r} is not a number")
                continue
            code = lookup(octgn_id) if octgn_id else None
            code = code or (lookup(label) if label else None)
            if code is None:
                deck.problems.append(f"{where}: not a card of the card pool (OCTGN id {octgn_id or 'missing'})")
            else:
                deck.add(code, copies, where)
    return deck.deck()


# -- plain text ----------------------------------------------------------------------------

_HEADING = re.compile(
    r"(heroes|hero|allies|ally|attachments?|events?|side ?quests?|contracts?|sideboard|deck|player cards)"
    r"\s*(\(\d+\))?\s*:?",
    re.IGNORECASE,
)
_META = re.compile(r"(packs?|name|deck|title|author|threat|starting threat)\s*:\s*(.*)", re.IGNORECASE)
_HERO_LIST = re.compile(r"heroes?\s*:\s*(.+)", re.IGNORECASE)
_QTY_FIRST = re.compile(r"(\d+)\s*[x×]?\s+(.+)|(\d+)[x×](.+)", re.IGNORECASE)
_QTY_LAST = re.compile(r"(.+?)\s*[x×]\s*(\d+)", re.IGNORECASE)
_TRAILER = re.compile(r"\s*(\([^()]*\)|\[[^\[\]]*\])\s*$")


def _plain(text: str, name: str) -> Deck:
    deck = _Builder(name)
    sideboard = False
    first = True
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith(("#", "//")):
            continue
        was_first, first = first, False
        heroes = _HERO_LIST.fullmatch(line)
        if heroes and not sideboard:
            for hero in heroes.group(1).split(","):
                _card_line(deck, hero.strip(), 1, f"line {number}")
            continue
        heading = _HEADING.fullmatch(line)
        if heading:
            sideboard = heading.group(1).casefold() == "sideboard"
            continue
        meta = _META.fullmatch(line)
        if meta:
            if meta.group(1).casefold() in ("name", "deck", "title") and meta.group(2).strip():
                deck.name = meta.group(2).strip()
            continue
        copies, card = _quantity(line)
        if sideboard:
            continue
        if copies is None and was_first and lookup(_bare(card)) is None:
            deck.name = line  # the deck's title (RingsDB's text export starts with it)
            continue
        _card_line(deck, card, 1 if copies is None else copies, f"line {number}")
    return deck.deck()


def _quantity(line: str) -> tuple[int | None, str]:
    """A line's explicit number of copies (None if it gives none) and the card it names."""
    first = _QTY_FIRST.fullmatch(line)
    if first:
        count, card = (first.group(1), first.group(2)) if first.group(1) else (first.group(3), first.group(4))
        return int(count), card.strip()
    last = _QTY_LAST.fullmatch(line)
    if last and lookup(_bare(line)) is None:
        return int(last.group(2)), last.group(1).strip()
    return None, line


def _bare(card: str) -> str:
    """A card's name without trailing ``(Core Set)`` or ``[01073]`` notes."""
    while True:
        shorter = _TRAILER.sub("", card)
        if shorter == card:
            return card.strip()
        card = shorter


def _card_line(deck: _Builder, card: str, copies: int, where: str) -> None:
    code = lookup(_bare(card))
    if code is None:
        tag = re.search(r"\[([^\[\]]+)\]\s*$", card)
        code = lookup(tag.group(1)) if tag else None
    if code is None:
        deck.problems.append(f"{where}: unknown card {_bare(card)!r}")
    else:
        deck.add(code, copies, where)
