"""The Lonely Mountain (The Hobbit: On the Doorstep): quest cards 71-74 and two encounter sets.

The quest cards' texts, Bilbo Baggins and the burgle effects are in
:mod:`domain.lcg.cards.the_lonely_mountain`; burgle attempts in :mod:`domain.lcg.rules.burgle`.
"""

from __future__ import annotations

from domain.lcg.scenarios import SCENARIOS, Scenario

THE_LONELY_MOUNTAIN = Scenario(
    key="the-lonely-mountain",
    title="The Lonely Mountain",
    quest=("otd-071", "otd-072", "otd-073", "otd-074"),
    encounter_sets=("Wilderland", "The Lonely Mountain"),
)

SCENARIOS[THE_LONELY_MOUNTAIN.key] = THE_LONELY_MOUNTAIN
