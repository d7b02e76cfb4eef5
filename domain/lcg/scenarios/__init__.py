"""Scenarios: which quest cards and which encounter sets make up the game."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel.scenarios import find_scenario
from domain.lcg.cards import CARDS

DIFFICULTIES = ("standard", "easy")


@dataclass(frozen=True)
class Scenario:
    key: str
    title: str
    quest: tuple[str, ...]
    """Quest card codes in stage order."""
    encounter_sets: tuple[str, ...]
    difficulties: tuple[str, ...] = DIFFICULTIES
    """The difficulty modes the scenario offers (a setup card per mode, or Easy by quantities)."""

    def encounter_deck(self, difficulty: str) -> list[str]:
        """Every card of the encounter sets, as many copies as printed (Easy: as listed
        for Easy mode, which leaves some cards out)."""
        deck = []
        for card in CARDS.values():
            if card.encounter_set in self.encounter_sets and card.type != "quest":
                copies = card.easy_quantity if difficulty == "easy" else card.quantity
                deck += [card.code] * (copies if copies is not None else card.quantity)
        return deck


SCENARIOS: dict[str, Scenario] = {}


def scenario(key: str) -> Scenario:
    load()
    return find_scenario(SCENARIOS, key)


def load() -> None:
    from domain.lcg.scenarios import (  # noqa: F401
        escape_from_dol_guldur,
        hunt_for_the_dreadnaught,
        journey_along_the_anduin,
        passage_through_mirkwood,
        the_lonely_mountain,
    )
