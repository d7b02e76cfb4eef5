"""Passage through Mirkwood (Core Set): quest cards 119-122 and three encounter sets.

The quest cards' texts are in :mod:`domain.lcg.cards.passage_through_mirkwood`.
"""

from __future__ import annotations

from domain.lcg.scenarios import SCENARIOS, Scenario

PASSAGE_THROUGH_MIRKWOOD = Scenario(
    key="passage-through-mirkwood",
    title="Passage through Mirkwood",
    quest=("core-119", "core-120", "core-121", "core-122"),
    encounter_sets=("Passage Through Mirkwood", "Spiders of Mirkwood", "Dol Guldur Orcs"),
)

SCENARIOS[PASSAGE_THROUGH_MIRKWOOD.key] = PASSAGE_THROUGH_MIRKWOOD
