"""Journey Along the Anduin (Core Set): quest cards 126-128 and four encounter sets.

The quest cards' texts are in :mod:`domain.lcg.cards.journey_along_the_anduin`.
"""

from __future__ import annotations

from domain.lcg.scenarios import SCENARIOS, Scenario

JOURNEY_ALONG_THE_ANDUIN = Scenario(
    key="journey-along-the-anduin",
    title="Journey Along the Anduin",
    quest=("core-126", "core-127", "core-128"),
    encounter_sets=("Journey Along the Anduin", "Sauron's Reach", "Dol Guldur Orcs", "Wilderlands"),
)

SCENARIOS[JOURNEY_ALONG_THE_ANDUIN.key] = JOURNEY_ALONG_THE_ANDUIN
