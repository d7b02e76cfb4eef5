"""Trilogy: the standard game, always four decks, 2-4 people (rules digest §9.1, seed 004).

Frodo (Dwarf, Hobbit, Rohan, Wizard) and Aragorn (Dúnedain, Elf) for the Free Peoples;
The Witch-king (Mordor) and Saruman (Isengard, Monstrous, Southron) for the Shadow. Turn
order Frodo, Witch-king, Aragorn, Saruman; Frodo starts. Draw 7 and cycle 2; the draw
step gives the Free Peoples 3 cards each and the Shadow 4. Each player has a Ring token,
once per game: draw 2; an unused token is worth 1 point at the end. All 27 paths (one of
each number is reached) and all 14 battlegrounds.
"""

from __future__ import annotations

from domain.wotr.scenarios import SCENARIOS, Scenario, SeatDef, deck_of

TRILOGY = Scenario(
    key="trilogy",
    title="Trilogy",
    seats=(
        SeatDef("frodo", "free", deck_of("frodo"), 7, 2, 3, ring="game"),
        SeatDef("witch-king", "shadow", deck_of("witch-king"), 7, 2, 4, ring="game"),
        SeatDef("aragorn", "free", deck_of("aragorn"), 7, 2, 3, ring="game"),
        SeatDef("saruman", "shadow", deck_of("saruman"), 7, 2, 4, ring="game"),
    ),
    order=("frodo", "witch-king", "aragorn", "saruman"),
)

SCENARIOS[TRILOGY.key] = TRILOGY
