"""Who plays with what: heroes per player and their decks.

Rules: each player starts with 1 to 3 heroes (three in every default lineup); no two copies
of a unique card (every hero is unique) may be in play at once, across all players. A player
brings a deck (:mod:`domain.lcg.decks`) or plays the ready-made deck of their heroes.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.kernel.ruleset import SetupError as SetupError  # re-exported: every game raises the kernel's
from domain.lcg.cards import CARDS
from domain.lcg.decks import MAX_HEROES, MIN_HEROES, Deck, lookup, problems
from domain.lcg.decks.ready_made import default_deck
from domain.lcg.scenarios import scenario
from domain.lcg.state import HeroSetup, Options

MAX_PLAYERS = 4

DEFAULT_HEROES: tuple[tuple[str, ...], ...] = (
    ("core-001", "core-004", "core-005"),  # Aragorn, Gimli, Legolas
    ("core-002", "core-003", "core-006"),  # Théodred, Glóin, Thalin
    ("core-007", "core-008", "core-009"),  # Éowyn, Eleanor, Dúnhere
    ("core-010", "core-011", "core-012"),  # Denethor, Glorfindel, Beravor
)


def hero_code(name: str) -> str:
    """A hero's code from its name (accents, case and punctuation optional) or its code."""
    code = lookup(name)
    if code is None or CARDS.get(code) is None or CARDS[code].type != "hero":
        known = ", ".join(sorted(c.name for c in CARDS.values() if c.type == "hero"))
        raise SetupError(f"unknown hero {name!r}; the heroes are: {known}")
    return code


MIN_DECK_FOR_CONTRACT = {"thftd-047": 100}
"""Contracts' deck restrictions: A Perilous Voyage: "your deck must contain at least 100 cards"."""


def contract_code(name: str, deck: Sequence[str], player: int) -> str:
    """The contract named ``name``, checked against the player's deck (rulebook, Contracts:
    "if a contract places restrictions on the contents of a player's deck, those restrictions
    must be met in order to choose that contract")."""
    code = contract_named(name)
    least = MIN_DECK_FOR_CONTRACT.get(code, 0)
    if len(deck) < least:
        raise SetupError(f"player {player}'s deck has {len(deck)} cards; {CARDS[code].name} needs at least {least}")
    return code


def contract_named(name: str) -> str:
    """The code of the contract named ``name`` (or given by its code); SetupError if none is."""
    found = [c for c in CARDS.values() if c.type == "contract" and name.casefold() in (c.code, c.name.casefold())]
    if not found:
        known = ", ".join(sorted(c.name for c in CARDS.values() if c.type == "contract"))
        raise SetupError(f"unknown contract {name!r}; known: {known}")
    return found[0].code


def starting_deck() -> tuple[str, ...]:
    """Every Core Set Leadership and Tactics ally at its printed quantity (seed 001's starting
    deck; the benchmark's long game still deals it). Core Set cards only: the card pool has
    grown beyond it (the Hobbit saga's Dwarves), and seed 001's games must not change."""
    return tuple(
        c.code
        for c in CARDS.values()
        if c.type == "ally" and c.sphere in ("leadership", "tactics") and c.code.startswith("core-")
        for _ in range(c.quantity)
    )


def lcg_options(
    scenario_key: str,
    players: int,
    heroes: list[list[str]] | None = None,
    difficulty: str = "standard",
    decks: Sequence[Deck | None] = (),
    contracts: Sequence[str | None] = (),
) -> Options:
    """Validated options for a new game; raises :class:`SetupError` with the reason.

    ``heroes`` and ``decks`` are per player, in seat order (missing or None: the default).
    A deck that names heroes gives the player's lineup; one that names none is played with
    the heroes given in ``heroes``, or a default lineup.
    """
    try:
        modes = scenario(scenario_key).difficulties
    except KeyError as error:
        raise SetupError(str(error.args[0])) from None
    if difficulty not in modes:
        raise SetupError(f"unknown difficulty {difficulty!r}; choose from {', '.join(modes)}")
    if not 1 <= players <= MAX_PLAYERS:
        raise SetupError(f"the game takes 1 to {MAX_PLAYERS} players, not {players}")
    chosen = [list(h) for h in heroes] if heroes else []
    if len(chosen) > players:
        raise SetupError(f"heroes were given for {len(chosen)} players but the game has {players}")
    if len(decks) > players:
        raise SetupError(f"decks were given for {len(decks)} players but the game has {players}")
    brought = [*decks, *[None] * (players - len(decks))]
    named: list[tuple[str, ...] | None] = [None] * players
    for i in range(players):
        deck = brought[i]
        if i < len(chosen) and chosen[i]:
            if deck is not None and deck.heroes:
                raise SetupError(f"player {i + 1}'s deck names its heroes; do not name heroes for player {i + 1} too")
            named[i] = tuple(hero_code(n) for n in chosen[i])
            if not MIN_HEROES <= len(named[i] or ()) <= MAX_HEROES:
                raise SetupError(f"player {i + 1} needs {MIN_HEROES} to {MAX_HEROES} heroes, got {len(chosen[i])}")
        elif deck is not None and deck.heroes:
            named[i] = deck.heroes
    lineups: list[tuple[str, ...]] = []
    for i in range(players):
        codes = named[i]
        if codes is None:
            taken = {c for lineup in lineups for c in lineup} | {c for n in named if n for c in n}
            codes = next((d for d in DEFAULT_HEROES if not taken & set(d)), None)
            if codes is None:
                raise SetupError(f"no default heroes left for player {i + 1}; name them with --heroes")
        lineups.append(codes)
    setups = []
    for i, (lineup, deck) in enumerate(zip(lineups, brought, strict=True)):
        if deck is None:
            deck = default_deck(lineup)
        else:
            deck = msgspec.structs.replace(deck, heroes=lineup)
            found = problems(deck)
            if found:
                lines = "\n".join(f"  {p}" for p in found)
                named_as = f" {deck.name!r}" if deck.name else ""
                raise SetupError(f"player {i + 1}'s deck{named_as} is refused:\n{lines}")
        setups.append(HeroSetup(lineup, deck.codes()))
    if len(contracts) > players:
        raise SetupError(f"contracts were given for {len(contracts)} players but the game has {players}")
    for i, name in enumerate(contracts):
        if name:
            setups[i] = msgspec.structs.replace(setups[i], contract=contract_code(name, setups[i].deck, i + 1))
    every = [c for lineup in lineups for c in lineup]
    twice = sorted({CARDS[c].name for c in every if every.count(c) > 1})
    if twice:
        raise SetupError(f"heroes are unique: {', '.join(twice)} cannot be in play twice")
    return Options(scenario=scenario_key, players=tuple(setups), difficulty=difficulty)
