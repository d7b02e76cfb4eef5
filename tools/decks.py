"""Decks at the command line: ``--deck FILE``, ``westmarch decks`` and ``westmarch deck show``."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from domain.lcg.decks import Deck, card_type, in_core_set, problems, title
from domain.lcg.decks.formats import read_deck
from domain.lcg.decks.ready_made import playable_part, ready_made, waiting
from domain.lcg.lineups import DEFAULT_HEROES
from projections.i18n import N_, _, card_name, nsay, say
from projections.prompts import error_text

_SECTIONS = (("ally", N_("Allies")), ("attachment", N_("Attachments")), ("event", N_("Events")))


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
    heroes = ", ".join(card_name(title(h)) for h in deck.heroes)
    lines = [deck.name, "", say("Heroes (%(n)s): %(heroes)s", n=len(deck.heroes), heroes=heroes)]
    for kind, heading in _SECTIONS:
        cards = [(c, n) for c, n in deck.cards if card_type(c) == kind]
        if cards:
            lines += ["", f"{_(heading)} ({sum(n for _c, n in cards)})"]
            lines += [f"{n}x {card_name(title(c))}" for c, n in cards]
    others = [(c, n) for c, n in deck.cards if card_type(c) not in {k for k, _h in _SECTIONS}]
    if others:
        lines += ["", _("Other cards")] + [f"{n}x {card_name(title(c))} ({card_type(c)})" for c, n in others]
    found = problems(deck, in_core_set) if source.shipped else problems(deck)
    later = waiting(deck) if source.shipped else []
    lines.append("")
    if found:
        lines.append(
            nsay(
                "NOT LEGAL (%(n)d problem), %(size)s cards:",
                "NOT LEGAL (%(n)d problems), %(size)s cards:",
                len(found),
                size=deck.size,
            )
        )
        lines += [f"  {error_text(str(p))}" for p in found]
    else:
        lines.append(say("legal: %(heroes)s heroes, %(size)s cards", heroes=len(deck.heroes), size=deck.size))
    if later:
        lines.append(
            say(
                "not played yet (their text is to come), left out of the game deck: %(cards)s",
                cards=", ".join(card_name(c) for c in later),
            )
        )
    return "\n".join(lines), not found


DEFAULT_FOR = (N_("default for p1"), N_("default for p2"), N_("default for p3"), N_("default for p4"))


def listing() -> str:
    """The ready-made decks: key, heroes, size, which seat plays it by default, what waits."""
    defaults = {frozenset(lineup): DEFAULT_FOR[i] for i, lineup in enumerate(DEFAULT_HEROES[: len(DEFAULT_FOR)])}
    rows = []
    for key, deck in ready_made().items():
        heroes = ", ".join(card_name(title(h)) for h in deck.heroes)
        seat = _(defaults[frozenset(deck.heroes)]) if frozenset(deck.heroes) in defaults else ""
        size = nsay("%(n)3d card", "%(n)3d cards", deck.size)
        rows.append(f"{key:24} {size}  {heroes:32} {seat}")
        later = waiting(deck)
        if later:
            left_out = say(
                "not played yet (their text is to come), left out: %(cards)s",
                cards=", ".join(card_name(c) for c in later),
            )
            rows.append(f"{'':24} {left_out}")
    rows.append("")
    rows.append(
        _("play one with: westmarch new lcg --deck KEY (once per player); see one with: westmarch deck show KEY")
    )
    return "\n".join(rows)
