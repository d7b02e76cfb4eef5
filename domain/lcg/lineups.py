"""Who plays with what: heroes per player and the starting decks.

Rules: each player starts with three heroes; no two copies of a unique card (every
hero is unique) may be in play at once, across all players. The starting deck is every
Core Set Leadership and Tactics ally at its printed quantity (seed 001: "Starting deck:
three heroes and only allies from Leadership and Tactics").
"""

from __future__ import annotations

import unicodedata

from domain.kernel.ruleset import SetupError as SetupError  # re-exported: every game raises the kernel's
from domain.lcg.cards import CARDS
from domain.lcg.scenarios import DIFFICULTIES, scenario
from domain.lcg.state import HeroSetup, Options

MAX_PLAYERS = 4
HEROES_PER_PLAYER = 3

DEFAULT_HEROES: tuple[tuple[str, ...], ...] = (
    ("core-001", "core-004", "core-005"),  # Aragorn, Gimli, Legolas
    ("core-002", "core-003", "core-006"),  # Théodred, Glóin, Thalin
    ("core-007", "core-008", "core-009"),  # Éowyn, Eleanor, Dúnhere
    ("core-010", "core-011", "core-012"),  # Denethor, Glorfindel, Beravor
)


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return plain.casefold().replace(" ", "").replace("-", "")


def hero_code(name: str) -> str:
    """A hero's code from its name (accents and case optional) or its code."""
    heroes = {c.code: c for c in CARDS.values() if c.type == "hero"}
    if name in heroes:
        return name
    matches = [c.code for c in heroes.values() if _fold(c.name) == _fold(name)]
    if not matches:
        known = ", ".join(sorted(c.name for c in heroes.values()))
        raise SetupError(f"unknown hero {name!r}; the heroes are: {known}")
    return matches[0]


def starting_deck() -> tuple[str, ...]:
    return tuple(
        c.code
        for c in CARDS.values()
        if c.type == "ally" and c.sphere in ("leadership", "tactics")
        for _ in range(c.quantity)
    )


def lcg_options(
    scenario_key: str,
    players: int,
    heroes: list[list[str]] | None = None,
    difficulty: str = "standard",
) -> Options:
    """Validated options for a new game; raises :class:`SetupError` with the reason."""
    try:
        scenario(scenario_key)
    except KeyError as error:
        raise SetupError(str(error.args[0])) from None
    if difficulty not in DIFFICULTIES:
        raise SetupError(f"unknown difficulty {difficulty!r}; choose from {', '.join(DIFFICULTIES)}")
    if not 1 <= players <= MAX_PLAYERS:
        raise SetupError(f"the game takes 1 to {MAX_PLAYERS} players, not {players}")
    chosen = [list(h) for h in heroes] if heroes else []
    if len(chosen) > players:
        raise SetupError(f"heroes were given for {len(chosen)} players but the game has {players}")
    lineups: list[tuple[str, ...]] = []
    for i in range(players):
        if i < len(chosen):
            codes = tuple(hero_code(n) for n in chosen[i])
            if len(codes) != HEROES_PER_PLAYER:
                raise SetupError(f"player {i + 1} needs {HEROES_PER_PLAYER} heroes, got {len(codes)}")
        else:
            taken = {c for lineup in lineups for c in lineup} | {hero_code(n) for h in chosen for n in h}
            codes = next(
                (d for d in DEFAULT_HEROES if not taken & set(d)),
                tuple(),
            )
            if not codes:
                raise SetupError(f"no default heroes left for player {i + 1}; name them with --heroes")
        lineups.append(codes)
    every = [c for lineup in lineups for c in lineup]
    twice = sorted({CARDS[c].name for c in every if every.count(c) > 1})
    if twice:
        raise SetupError(f"heroes are unique: {', '.join(twice)} cannot be in play twice")
    deck = starting_deck()
    return Options(
        scenario=scenario_key,
        players=tuple(HeroSetup(lineup, deck) for lineup in lineups),
        difficulty=difficulty,
    )
