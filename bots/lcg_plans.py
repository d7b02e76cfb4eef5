"""Scenario plans of the greedy LCG player: what a scenario asks beyond the general heuristics.

Journey Along the Anduin (Core Set): the players cannot leave stage 1 while a Hill Troll
is in play (core-126), and at 32 starting threat the troll searched out at 1B (engagement
cost 30, 6 attack, 3 defense, 9 hit points) engages in the first round. Its excess combat
damage raises the defending player's threat (core-082), so an ally given up to it costs
threat too. Questing with every hero leaves only allies to give up to it and nobody to
wound it; the plan keeps the heroes back from the quest while a troll is to attack (the
hero who quests and readies, Aragorn, still quests), engages nothing else by choice, and
wounds the troll with every ready character whose attacks together beat its defense:
damage stays on an enemy (and the hero who took its attack, Gimli, hits harder for each
damage token on him, core-004). The general rules pick the defender: a hero who survives.
"""

from __future__ import annotations

from projections.lcg import CardView, PlayerView, TableView

MUST_DIE = frozenset({"Hill Troll"})
"""Enemies that bar the quest while in play (Journey Along the Anduin, 1B): wounded by every
attack that gets through their defense, even one that cannot kill this round."""


NO_ENGAGEMENT_CHECKS = frozenset({"Anduin Passage"})
"""Quest stages without engagement checks (Journey Along the Anduin, 2B, core-127): an enemy
in the staging area stays there unless engaged by choice."""


def engagement_checks(view: TableView) -> bool:
    """Whether the encounter phase makes engagement checks at the current quest stage."""
    return view.quest is None or view.quest.name not in NO_ENGAGEMENT_CHECKS


def _will_engage(enemy: CardView, me: PlayerView, view: TableView) -> bool:
    cost = enemy.engagement_cost
    return engagement_checks(view) and cost is not None and cost <= me.threat


def trolls(view: TableView, me: PlayerView) -> list[CardView]:
    """The must-die enemies that will attack this seat this round: engaged with it, or in
    the staging area with an engagement cost its threat reaches, when engagement checks are
    made."""
    staged = [c for c in view.staging if c.type == "enemy" and _will_engage(c, me, view)]
    return [e for e in [*me.engaged, *staged] if e.name in MUST_DIE]


def held_back(view: TableView, me: PlayerView, ready: list[CardView], readies: set[int]) -> set[int]:
    """Characters kept from the quest whatever it would gain: while a must-die enemy is to
    attack, every fighting hero that does not ready after committing (one to take the
    attack, the others to wound it)."""
    if not trolls(view, me):
        return set()
    return {c.uid for c in ready if c.type == "hero" and c.uid not in readies and fighter(c)}


def fighter(card: CardView) -> bool:
    """A character that hits at least as hard as it quests (Thalin, Legolas, Gimli): kept
    for the troll; a quester (Éowyn, 4 willpower, 1 attack) adds little to the attack and
    her willpower keeps the quest from failing, each failure a point of threat nearer the
    50 that ends the game."""
    return (card.attack or 0) >= (card.willpower or 0)


def wound(enemy: CardView, ready: list[CardView]) -> list[CardView] | None:
    """Every ready attacker, when ``enemy`` must die and their attack together gets through
    its defense; None when the general rule applies."""
    if enemy.name not in MUST_DIE:
        return None
    power = sum(c.attack or 0 for c in ready)
    return ready if power > (enemy.defense or 0) else None


def troll_coming(view: TableView, me: PlayerView) -> bool:
    """A must-die enemy still in the staging area engages this seat this round, or will if
    the quest fails by a point, and none is engaged with it yet: threat lowered now keeps it
    there while allies come down (lowering it once the troll is engaged frees nobody)."""
    if any(e.name in MUST_DIE for e in me.engaged) or not engagement_checks(view):
        return False
    return any(
        c.type == "enemy"
        and c.name in MUST_DIE
        and c.engagement_cost is not None
        and c.engagement_cost <= me.threat + 1
        for c in view.staging
    )
