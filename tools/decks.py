"""Decks at the command line: ``--deck FILE``, ``westmarch decks`` and ``westmarch deck show``."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from domain.lcg.decks import Deck, card_type, in_core_set, problems, title
from domain.lcg.decks.formats import read_deck
from domain.lcg.decks.ready_made import playable_part, ready_made, waiting
from domain.lcg.lineups import DEFAULT_HEROES

_SECTIONS = (("ally", "Allies"), ("attachment", "Attachments"), ("event", "Events"))


@dataclass(frozen=True)
class DeckArgument:
    """A deck named on the command line: read from a file, or one of the ready-made decks."""

    deck: Deck
    shipped: bool


def deck_source(value: str) -> DeckArgument:
    """A deck file (RingsDB JSON, OCTGN .o8d or a list), or a ready-made deck's key."""
    path = Path(value)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise argparse.ArgumentTypeError(f"cannot read deck {value}: {error}") from None
        return DeckArgument(read_deck(text, "", path.name), shipped=False)
    shipped = ready_made().get(value)
    if shipped is not None:
        return DeckArgument(shipped, shipped=True)
    known = ", ".join(ready_made())
    raise argparse.ArgumentTypeError(f"no deck file {value!r}, nor a ready-made deck of that name ({known})")


def deck_argument(value: str) -> Deck:
    """``--deck``: as :func:`deck_source`; a ready-made deck is played as by default, without
    the cards whose text is still to come."""
    source = deck_source(value)
    return playable_part(source.deck) if source.shipped else source.deck


def show(source: DeckArgument) -> tuple[str, bool]:
    """A deck as a list a player reads, then whether it may be played and why not.

    A ready-made deck is checked against the whole Core Set; the cards it holds that the
    engine does not play yet are listed apart (they are left out of the game deck).
    """
    deck = source.deck
    lines = [deck.name, "", f"Heroes ({len(deck.heroes)}): " + ", ".join(title(h) for h in deck.heroes)]
    for kind, heading in _SECTIONS:
        cards = [(c, n) for c, n in deck.cards if card_type(c) == kind]
        if cards:
            lines += ["", f"{heading} ({sum(n for _, n in cards)})"]
            lines += [f"{n}x {title(c)}" for c, n in cards]
    others = [(c, n) for c, n in deck.cards if card_type(c) not in {k for k, _ in _SECTIONS}]
    if others:
        lines += ["", "Other cards"] + [f"{n}x {title(c)} ({card_type(c)})" for c, n in others]
    found = problems(deck, in_core_set) if source.shipped else problems(deck)
    later = waiting(deck) if source.shipped else []
    lines.append("")
    if found:
        lines.append(f"NOT LEGAL ({len(found)} problem{'s' if len(found) > 1 else ''}), {deck.size} cards:")
        lines += [f"  {p}" for p in found]
    else:
        lines.append(f"legal: {len(deck.heroes)} heroes, {deck.size} cards")
    if later:
        lines.append(f"not played yet (their text is to come), left out of the game deck: {', '.join(later)}")
    return "\n".join(lines), not found


def listing() -> str:
    """The ready-made decks: key, heroes, size, which seat plays it by default, what waits."""
    defaults = {frozenset(lineup): f"default for p{i + 1}" for i, lineup in enumerate(DEFAULT_HEROES)}
    rows = []
    for key, deck in ready_made().items():
        heroes = ", ".join(title(h) for h in deck.heroes)
        seat = defaults.get(frozenset(deck.heroes), "")
        rows.append(f"{key:24} {deck.size:3} cards  {heroes:32} {seat}")
        later = waiting(deck)
        if later:
            rows.append(f"{'':24} not played yet (their text is to come), left out: {', '.join(later)}")
    rows.append("")
    rows.append("play one with: westmarch new lcg --deck KEY (once per player); see one with: westmarch deck show KEY")
    return "\n".join(rows)
