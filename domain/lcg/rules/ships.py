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
from typing import Final

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
    return table.definition_of(s, uid).is_a("Ship")


def is_ship_enemy(s: LcgState, uid: Uid) -> bool:
    return table.definition_of(s, uid).type == "enemy" and is_ship(s, uid)


TAKEN = "taken-as-ship:"
"""The lasting flag on an enemy a player took over as a ship-objective (Corsair Skirmisher)."""


def is_ship_objective(s: LcgState, uid: Uid) -> bool:
    if table.definition_of(s, uid).type == "ship-objective":
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
    limits = [n for limit in table.in_game(s, ATTACKER_LIMITS) if (n := limit(s, enemy)) is not None]
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


def heroes_aura(code: str, stat: str) -> table.Aura:
    """The aura "each hero you control gets +1 ``stat``" (+2 on the Upgraded side) of the
    ship-objectives of ``code`` (The Hunt for the Dreadnaught's Eithiliant, Golden Wing, Pride
    of Lebennin), for ``table.AURAS``: built here, in the compiled rules, since every stat of
    every hero a view or a rule reads asks it (interpreted in the card's module, each ask was
    a Python frame), and recorded as giving ``stat`` alone (``table.for_stat``)."""

    def aura(s: LcgState, uid: Uid, which: str) -> int:
        # a hero's four stats read ~9 us in all, compiled, most of it here: its ship is found
        # among the game's cards of its code (``_controls``), and whose hero ``uid`` is, only
        # once a ship of the code is under some player's control (most of the game, two of
        # the three are not)
        if which != stat:
            return 0
        cards = s.cards
        seat: Seat | None = None
        total = 0
        for u in table.uids_of(s, code):
            ship = cards[u]
            zone = ship.zone
            if not (zone.endswith(".heroes") or zone.endswith(".allies")):
                continue
            if seat is None:
                if table.definition_of(s, uid).type != "hero":
                    return 0
                seat = table.holder(s, uid)
                if seat is None:
                    return 0
            if (zone == seat + ".heroes" or zone == seat + ".allies") and is_ship_objective(s, u):
                total += 2 if ship.face == "B" else 1
        return total

    return table.for_stat(aura, stat)


BORROWED: Final = "traits:"
"""The lasting flag Eithiliant's Setup records (``traits:<hero>:<other>``): the hero has the
other's printed traits until the end of the game (:func:`borrowed_traits`)."""


def borrowed_traits(s: LcgState, uid: Uid) -> tuple[str, ...]:
    """Eithiliant's Setup (The Hunt for the Dreadnaught): the chosen hero has the printed
    traits of the other hero chosen, for ``table.TRAIT_AURAS``: here, in the compiled rules,
    since every hero's view asks it."""
    if not s.limits:
        return ()
    prefix = f"{BORROWED}{uid}:"
    return tuple(
        t for x in s.limits if x.key.startswith(prefix) for t in table.defn(s, int(x.key[len(prefix) :])).traits
    )


def controlled(s: LcgState, code: str, seat: Seat) -> list[Uid]:
    """The ship-objectives of ``code`` that ``seat`` controls, in uid order: read from the
    game's cards of ``code`` rather than from every character the seat controls."""
    heroes = f"{seat}.heroes"
    allies = f"{seat}.allies"
    cards = s.cards
    return [
        u
        for u in table.uids_of(s, code)
        if (cards[u].zone == heroes or cards[u].zone == allies) and is_ship_objective(s, u)
    ]


PLAYED_FIRST: Final = "played-a-card:"
"""The flag a player's first card played in a round raises under Twilight's Call (by seat)."""


def ignores_match(code: str) -> Callable[[LcgState, Seat], bool]:
    """Twilight's Call (``code``): "the first card you play each round" (Basic side), "each
    card you play" (Upgraded side) "does not need a resource match", for
    ``resources.IGNORES_RESOURCE_MATCH``: built here, in the compiled rules, since every card a
    player may pay for asks it (interpreted in the card's module, each ask was a Python frame)."""

    def ignores(s: LcgState, seat: Seat) -> bool:
        ships_here = controlled(s, code, seat)
        if any(s.cards[u].face == "B" for u in ships_here):
            return True
        if not ships_here:
            return False
        flag = PLAYED_FIRST + seat
        return not any(limit.key == flag for limit in s.limits)

    return ignores
