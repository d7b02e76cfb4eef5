"""Ships: which characters may defend against and attack which enemies.

Rules (The Hunt for the Dreadnaught rulebook, Ships):
- Ship-enemies are enemies for all purposes, except that their attacks can only be
  defended by ship-objectives, and an undefended attack by a ship-enemy must be assigned
  to a ship-objective the defending player controls instead of to a hero.
- Ship-objectives are allies (and characters) for all purposes, except that they can only
  attack ship-enemies and only defend against attacks by ship-enemies.
- Card texts make exceptions (Sea Monster: ship-objectives may attack it and defend
  against it), and forbid attacks (Captain of the Haven: a player engaged with it may not
  attack the Dreadnaught); a scenario module registers them here.

Without ship cards at the table every function here allows what the Core rules allow.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.lcg.rules import table
from domain.lcg.state import LcgState, Seat, Uid

FIGHTS_SHIPS: set[str] = set()
"""Non-ship enemies (by code) that ship-objectives may attack and defend against."""

AttackBan = Callable[[LcgState, Seat, Uid], bool]
ATTACK_BANS: list[AttackBan] = []
"""Texts that forbid a player to attack an enemy: ``ban(state, seat, enemy)``."""

AttackerLimit = Callable[[LcgState, Uid], int | None]
ATTACKER_LIMITS: list[AttackerLimit] = []
"""Texts that limit how many characters may attack an enemy (Ophidian)."""


def is_ship(s: LcgState, uid: Uid) -> bool:
    return table.defn(s, uid).is_a("Ship")


def is_ship_enemy(s: LcgState, uid: Uid) -> bool:
    return table.defn(s, uid).type == "enemy" and is_ship(s, uid)


TAKEN = "taken-as-ship:"
"""The lasting flag on an enemy a player took over as a ship-objective (Corsair Skirmisher)."""


def is_ship_objective(s: LcgState, uid: Uid) -> bool:
    if table.defn(s, uid).type == "ship-objective":
        return True
    return bool(s.limits) and s.cards[uid].zone.endswith(".allies") and s.limit_used(f"{TAKEN}{uid}")


def _ship_fight(s: LcgState, enemy: Uid) -> bool:
    return is_ship_enemy(s, enemy) or s.cards[enemy].code in FIGHTS_SHIPS


def may_defend(s: LcgState, character: Uid, enemy: Uid) -> bool:
    """Ship-objectives defend only against ship-enemies; other characters never do."""
    if is_ship_objective(s, character):
        return _ship_fight(s, enemy)
    return not is_ship_enemy(s, enemy)


def may_attack(s: LcgState, character: Uid, enemy: Uid) -> bool:
    """Ship-objectives attack only ship-enemies (and what a text allows)."""
    return _ship_fight(s, enemy) if is_ship_objective(s, character) else True


def attack_banned(s: LcgState, seat: Seat, enemy: Uid) -> bool:
    return any(ban(s, seat, enemy) for ban in table.in_game(s, ATTACK_BANS))


def attacker_limit(s: LcgState, enemy: Uid) -> int | None:
    limits = [n for limit in ATTACKER_LIMITS if (n := limit(s, enemy)) is not None]
    return min(limits) if limits else None


def undefended_targets(s: LcgState, seat: Seat, enemy: Uid) -> list[Uid]:
    """Who takes an undefended attack: a ship-objective of the player against a ship-enemy
    (a hero if the player has none left), a hero otherwise."""
    if is_ship_enemy(s, enemy):
        ships = [u for u in table.characters(s, seat) if is_ship_objective(s, u)]
        if ships:
            return ships
    return table.heroes(s, seat)


TAKERS: set[str] = set()
"""Codes of the enemies a player may take over as ship-objectives (Corsair Skirmisher)."""


def ships_in_game(s: LcgState) -> bool:
    """Whether any card of the game may be a ship-objective: one printed so, or an enemy a
    player may take over as one (in any other game no character is a ship-objective)."""
    return "ship-objective" in table.types_in_game(s) or not TAKERS.isdisjoint(table.codes_in_game(s))


def ship_objectives(s: LcgState, seat: Seat) -> list[Uid]:
    if not ships_in_game(s):
        return []
    return [u for u in table.characters(s, seat) if is_ship_objective(s, u)]
