"""Scenarios: who plays which deck, in which order, with which locations.

A scenario names its seats (one per deck), each seat's team, factions and cards, the
opening hand and cycle, the draw-step count and the Ring token rule; the turn order and
the first starting player; which paths and battlegrounds are used (and, in the
Fellowship scenario, the fixed battleground schedule); the last path; whether the Duel
rules apply (path scoring and "each player" doubling).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel.scenarios import find_scenario
from domain.wotr.cards import CARDS, LOCATIONS, codes_named


@dataclass(frozen=True)
class SeatDef:
    seat: str
    team: str
    cards: tuple[str, ...]
    setup_draw: int
    setup_cycle: int
    draw: int
    ring: str = ""
    """``game`` (once per game, draw 2; +1 VP unused), ``round`` (Duel: once per round,
    draw 3, eliminate 1, cycle 1) or empty (no token)."""

    @property
    def factions(self) -> tuple[str, ...]:
        out: list[str] = []
        for code in self.cards:
            faction = CARDS[code].faction
            if faction not in out:
                out.append(faction)
        return tuple(out)


@dataclass(frozen=True)
class Scenario:
    key: str
    title: str
    seats: tuple[SeatDef, ...]
    order: tuple[str, ...]
    """Turn order positions; the first is the first starting player."""
    last_path: int = 9
    duel: bool = False
    """Duel rules: a path goes to the Free Peoples only if their defense exceeds the attack
    (a tie scores for nobody), and text addressing "each" player of a team with a single
    deck is resolved twice by that deck."""
    paths: tuple[str, ...] | None = None
    """The path codes in use (None: all 27)."""
    schedule: tuple[tuple[str, ...], ...] | None = None
    """Battlegrounds activated in each round instead of a random one (Fellowship)."""

    def seat(self, seat: str) -> SeatDef:
        return next(s for s in self.seats if s.seat == seat)

    def path_codes(self) -> list[str]:
        every = [code for code, loc in LOCATIONS.items() if loc.kind == "path" and not loc.replaces]
        return [c for c in every if self.paths is None or c in self.paths]

    def battleground_codes(self) -> list[str]:
        every = [code for code, loc in LOCATIONS.items() if loc.kind == "battleground" and not loc.replaces]
        if self.schedule is None:
            return every
        scheduled = {c for codes in self.schedule for c in codes}
        return [c for c in every if c in scheduled]


SCENARIOS: dict[str, Scenario] = {}


def scenario(key: str) -> Scenario:
    load()
    return find_scenario(SCENARIOS, key)


def deck_of(*decks: str) -> tuple[str, ...]:
    """Every card of the named Trilogy decks, as many copies as printed."""
    return tuple(c.code for c in CARDS.values() if c.deck in decks and not c.expansion for _ in range(c.quantity))


def cards_named(*names: str) -> tuple[str, ...]:
    """Card codes by printed name (a name given twice is two copies)."""
    out: list[str] = []
    for name in names:
        codes = codes_named(name)
        if not codes:
            raise KeyError(f"no card named {name!r}")
        out.append(codes[0])
    return tuple(out)


def load() -> None:
    from domain.wotr.scenarios import duels, fellowship, trilogy  # noqa: F401
