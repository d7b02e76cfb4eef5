"""The Hunt for the Dreadnaught (2019): two quest stages and one encounter set of 46 cards.

The setup cards (one per difficulty), the ships, the Corsair deck and the quest texts are
in :mod:`domain.lcg.cards.hunt_for_the_dreadnaught`; the other encounter cards in
:mod:`domain.lcg.cards.corsairs`.
"""

from __future__ import annotations

from domain.lcg.scenarios import SCENARIOS, Scenario

HUNT_FOR_THE_DREADNAUGHT = Scenario(
    key="hunt-for-the-dreadnaught",
    title="The Hunt for the Dreadnaught",
    quest=("thftd-004", "thftd-005"),
    encounter_sets=("The Hunt for the Dreadnaught",),
    difficulties=("standard", "easy", "hard"),
)

SCENARIOS[HUNT_FOR_THE_DREADNAUGHT.key] = HUNT_FOR_THE_DREADNAUGHT
