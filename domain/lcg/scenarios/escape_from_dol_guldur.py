"""Escape from Dol Guldur (Core Set): quest cards 123-125 and three encounter sets.

The quest cards' texts, the objectives and the prisoner are in
:mod:`domain.lcg.cards.escape_from_dol_guldur`.
"""

from __future__ import annotations

from domain.lcg.scenarios import SCENARIOS, Scenario

ESCAPE_FROM_DOL_GULDUR = Scenario(
    key="escape-from-dol-guldur",
    title="Escape from Dol Guldur",
    quest=("core-123", "core-124", "core-125"),
    encounter_sets=("Escape from Dol Guldur", "Spiders of Mirkwood", "Dol Guldur Orcs"),
)

SCENARIOS[ESCAPE_FROM_DOL_GULDUR.key] = ESCAPE_FROM_DOL_GULDUR
