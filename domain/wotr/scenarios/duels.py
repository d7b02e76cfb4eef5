"""The Two-Player and Three-Player Duels (rules digest §9.2-9.3).

Two-Player Duel: Gandalf (every Free Peoples card) against The Witch-king (every Shadow
card); Gandalf starts. Gandalf draws 4, the Witch-king 6, nobody cycles; the same counts
in each draw step. Each Ring token is used once per round: draw 3, then eliminate 1 and
cycle 1 card from hand.

Three-Player Duel: Gandalf against The Witch-king (Mordor) and Saruman (Isengard,
Monstrous, Southron). Turn order Gandalf, Witch-king, Gandalf, Saruman (Gandalf acts
twice in each cycle); Gandalf starts. Gandalf draws 6 and cycles none, each Shadow player
draws 7 and cycles 2; the draw step gives Gandalf 6 and each Shadow player 4. Gandalf's
Ring token follows the Duel rule, the Shadow players' the Trilogy rule.

Both use the Duel rules for paths and for "each player" texts (see ``Scenario.duel``).
"""

from __future__ import annotations

from domain.wotr.scenarios import SCENARIOS, Scenario, SeatDef, deck_of

TWO_PLAYER_DUEL = Scenario(
    key="two-player-duel",
    title="Two-Player Duel",
    seats=(
        SeatDef("gandalf", "free", deck_of("frodo", "aragorn"), 4, 0, 4, ring="round"),
        SeatDef("witch-king", "shadow", deck_of("witch-king", "saruman"), 6, 0, 6, ring="round"),
    ),
    order=("gandalf", "witch-king"),
    duel=True,
)

THREE_PLAYER_DUEL = Scenario(
    key="three-player-duel",
    title="Three-Player Duel",
    seats=(
        SeatDef("gandalf", "free", deck_of("frodo", "aragorn"), 6, 0, 6, ring="round"),
        SeatDef("witch-king", "shadow", deck_of("witch-king"), 7, 2, 4, ring="game"),
        SeatDef("saruman", "shadow", deck_of("saruman"), 7, 2, 4, ring="game"),
    ),
    order=("gandalf", "witch-king", "gandalf", "saruman"),
    duel=True,
)

SCENARIOS[TWO_PLAYER_DUEL.key] = TWO_PLAYER_DUEL
SCENARIOS[THREE_PLAYER_DUEL.key] = THREE_PLAYER_DUEL
