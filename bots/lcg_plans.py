"""Scenario plans of the greedy LCG player: what a scenario asks beyond the general heuristics.

Journey Along the Anduin (Core Set): the players cannot leave stage 1 while a Hill Troll
is in play (core-126), and at 32 starting threat the troll searched out at 1B (engagement
cost 30, 6 attack, 3 defense, 9 hit points) engages in the first round. Its excess combat
damage raises the defending player's threat (core-082), so an ally given up to it costs
threat too. Questing with every hero leaves only allies to give up to it and nobody to
wound it; the plan keeps the fighting heroes back from the quest while a troll is to attack
(the hero who quests and readies, Aragorn, still quests, and so does a hero who quests better
than she fights, Éowyn, or the quest fails and raises the threat), lowers the threat (The
Galadhrim's Greeting, Gandalf) while the troll in the staging area is a point from engaging,
engages nothing else by choice, keeps a Forest Snare (and its 3 Lore resources) for the
troll and puts it on the troll once it is engaged, so that it never attacks again, and
wounds the troll with every ready character whose attacks together beat its defense:
damage stays on an enemy (and the hero who took its attack, Gimli, hits harder for each
damage token on him, core-004). The general rules pick the defender: a hero who survives.

The Lonely Mountain (The Hobbit: On the Doorstep): Smaug the Magnificent stays in the staging
area yet is engaged with the first player (otd-041), so the quest plan reckons with his attacks
(8 attack, twice when his shadow card has a burgle effect) and keeps allies back to give up to
them; at Inside Information (3B) every attack that gets through his defense is made, since his
damage stays and brings nearer the progress that removes him (otd-073).
"""

from __future__ import annotations

import math
from typing import Final

from projections.lcg import CardView, PlayerView, TableView

MUST_DIE: Final = frozenset({"Hill Troll"})
"""Enemies that bar the quest while in play (Journey Along the Anduin, 1B): wounded by every
attack that gets through their defense, even one that cannot kill this round."""
FOREST_SNARE: Final = "Forest Snare"


NO_ENGAGEMENT_CHECKS: Final = frozenset({"Anduin Passage"})
"""Quest stages without engagement checks (Journey Along the Anduin, 2B, core-127): an enemy
in the staging area stays there unless engaged by choice."""


EXTRA_REVEALS: Final = {"Anduin Passage": 1}
"""Quest stages that reveal more encounter cards each quest phase than one a player
(Journey Along the Anduin, 2B, core-127: 1 more)."""


BARRING: Final = frozenset({"To the River..."})
"""Quest stages that cannot be defeated while a must-die enemy is in play (Journey Along the
Anduin, 1B, core-126: "while any Hill Troll is in play")."""


def barred(view: TableView) -> bool:
    """Whether the current stage cannot be defeated because a must-die enemy is in play (in
    the staging area or engaged with any player, ``BARRING``): its progress waits on the
    kill, and Éowyn gives a card for her +1 willpower only to keep the quest from failing
    (bots/lcg_greedy.py ``_eowyn_pays``: at To the River... she gave 2.4 cards a game, allies
    and Dwarven Axes among them, and 1.1 with this, seeds 15401-15600; the greedy Anduin row
    won, paired by seed, 46 -> 76 of 800 on seeds 15401-16200 (74 when she paid while the
    quest was within a point of failing, 73 when she never paid there), 54 -> 72 on
    16201-17000, 65 -> 70 on 17001-17800; stage 3 was reached in 110 games of the first
    range, 72 before: the cards kept serve Anduin Passage)."""
    if view.quest is None or view.quest.name not in BARRING:
        return False
    return any(e.name in MUST_DIE for e in [*view.staging, *(e for p in view.players for e in p.engaged)])


def extra_reveals(view: TableView) -> int:
    """The encounter cards the staging step reveals beyond one a player at the current stage."""
    return 0 if view.quest is None else EXTRA_REVEALS.get(view.quest.name, 0)


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
    return [e for e in [*me.engaged, *staged] if unsnared(e)]


def held_back(view: TableView, me: PlayerView, ready: list[CardView], readies: set[int]) -> set[int]:
    """Characters kept from the quest whatever it would gain: while a must-die enemy is to
    attack, every fighting hero that does not ready after committing (one to take the
    attack, the others to wound it); and a hero who attacks into the staging area
    (``STAGING_ATTACKERS``) while it holds an enemy for him (``staging_prey``)."""
    snipers = {
        c.uid
        for c in ready
        if c.name in STAGING_ATTACKERS and c.uid not in readies and staging_prey(view, c) is not None
    }
    if hunt(view, me, ready) is not None:
        return snipers | {c.uid for c in ready if c.uid not in readies and fighter(c)}
    if not trolls(view, me):
        return snipers
    return snipers | {c.uid for c in ready if c.type == "hero" and c.uid not in readies and fighter(c)}


def _left(card: CardView) -> int:
    return (card.hit_points or 0) - card.damage - card.other_groups


BEORN_BONUS: Final = 5
"""Beorn's Action: +5 attack for the phase (then he is shuffled into the deck, core-031)."""


def hunt(view: TableView, me: PlayerView, ready: list[CardView]) -> CardView | None:
    """A must-die enemy in the staging area that the seat can engage by choice and kill this
    round: its fighters (``fighter``) among the ``ready`` characters, Beorn with the +5 of
    his Action, hit through its defense for all its hit points, and its attack is answered
    without one of them (a Feint and a Tactics resource to play it, a character that
    survives it, or an ally spared from the attack to give up). One round of the troll's
    attacks costs less than the three or four it makes while it is worn down, each a hero
    or an ally and its excess in threat."""
    if any(e.name in MUST_DIE for e in me.engaged):
        return None
    hitters = [c for c in ready if fighter(c) and (c.attack or 0) > 0]

    def hits(c: CardView) -> int:
        return (c.attack or 0) + (BEORN_BONUS if c.name == "Beorn" else 0)

    power = sum(hits(c) for c in hitters)
    tactics = sum(h.resources for h in me.heroes if h.sphere == "tactics")
    feint = tactics >= 1 and any(c.name == "Feint" for c in me.hand or [])
    for troll in view.staging:
        if troll.type != "enemy" or troll.name not in MUST_DIE:
            continue
        need = _left(troll) + (troll.defense or 0)
        spare = [
            c
            for c in ready
            if power - (hits(c) if c in hitters else 0) >= need
            and (c.type == "ally" or (c.defense or 0) + _left(c) > (troll.attack or 0) + 1)
        ]
        if power >= need and (feint or spare):
            return troll
    return None


GANDALF: Final = "Gandalf"
GANDALF_DAMAGE: Final = 4
"""Gandalf's Response on entering play (core-073): 4 damage to an enemy in play."""


def gandalf_kills(view: TableView, me: PlayerView) -> bool:
    """Whether Gandalf played now (the planning phase) kills a must-die enemy this round: his
    4 damage on it as he enters, his 4 attack with the seat's ready fighters (Beorn with the
    +5 of his Action) through its defense for the hit points left, and its attack answered
    without one of the attackers (a Feint and a Tactics resource left after paying for him,
    a character that survives it, Gandalf himself when the others kill it alone, or an ally
    not needed for the kill to give up). Gandalf leaves play at the end of the round: played
    a round too early, his 4 damage leaves a Hill Troll at 5 hit points with 3 defense, more
    than Dúnhere and Thalin (2 attack each) get through; played in the round of the kill,
    his damage and his attack together kill a fresh troll beside them."""
    gandalf = next((c for c in me.hand or [] if c.name == GANDALF), None)
    if gandalf is None:
        return False
    ready = [c for c in [*me.heroes, *me.allies] if not c.exhausted]
    hitters = [*(c for c in ready if fighter(c) and (c.attack or 0) > 0), gandalf]

    def hits(c: CardView) -> int:
        return (c.attack or 0) + (BEORN_BONUS if c.name == "Beorn" else 0)

    power = sum(hits(c) for c in hitters)
    pool = sum(h.resources for h in me.heroes)
    tactics = sum(h.resources for h in me.heroes if h.sphere == "tactics")
    feint = pool - (gandalf.cost or 0) >= 1 and tactics >= 1 and any(c.name == "Feint" for c in me.hand or [])
    # a must-die enemy in the staging area is engaged by choice only while no other enemy
    # is engaged with the seat (``hunt``, the encounter phase's rule): their attacks need
    # defenders of their own
    others = any(not snared(e) and e.name not in MUST_DIE for e in me.engaged)
    for troll in [*(c for c in view.staging if c.type == "enemy" and not others), *me.engaged]:
        if troll.name not in MUST_DIE:
            continue
        left = _left(troll) - GANDALF_DAMAGE
        if left <= 0:
            return True
        need = left + (troll.defense or 0)
        spare = [
            c
            for c in [*ready, gandalf]
            if (fighter(c) or c.type == "hero")
            and power - (hits(c) if c in hitters else 0) >= need
            and (c.type == "ally" or (c.defense or 0) + _left(c) > (troll.attack or 0) + 1)
        ]
        if power >= need and (snared(troll) or feint or spare):
            return True
    return False


def hold_gandalf(view: TableView, me: PlayerView) -> bool:
    """Whether Gandalf stays in hand this planning phase: a must-die enemy is in play and
    his entering does not kill it this round (``gandalf_kills``), while the threat is not
    pressing (``GANDALF_THREAT``, where his 5 threat off is wanted) and no troll is coming
    (``troll_coming``: his 5 threat off keeps it in the staging area; held for a kill, he
    stayed in hand while a Hill Troll at full hit points engaged by check)."""
    if me.threat >= GANDALF_THREAT or troll_coming(view, me):
        return False
    trolls_about = [*(c for c in view.staging if c.name in MUST_DIE), *(e for e in me.engaged if e.name in MUST_DIE)]
    return bool(trolls_about) and not gandalf_kills(view, me)


STAGING_ATTACKERS: Final = {"Dúnhere": 1}
"""Characters who may attack an enemy in the staging area when they attack alone, and the
attack they gain doing so (Dúnhere, core-009: +1)."""


def staging_prey(view: TableView, hitter: CardView) -> CardView | None:
    """The staging-area enemy a staging attacker (``STAGING_ATTACKERS``) attacks alone: one
    he kills, the most threat first (it leaves every later quest and never engages: at
    Anduin Passage, with no engagement checks, the staging area's enemies otherwise pile up
    against the quest), else a must-die enemy his attack gets through the defense of (the
    damage stays: a Hill Troll worn down in the staging area before it engages, while it
    attacks nobody). None: nothing worth his attack."""
    bonus = STAGING_ATTACKERS.get(hitter.name, 0)
    best: tuple[tuple[int, int, int], CardView] | None = None
    for enemy in view.staging:
        if enemy.type != "enemy":
            continue
        dealt = (hitter.attack or 0) + bonus - (enemy.defense or 0)
        if dealt >= _left(enemy):
            key = (2, enemy.threat or 0, -(enemy.attack or 0))
        elif dealt > 0 and enemy.name in MUST_DIE:
            key = (1, 0, 0)
        else:
            continue
        if best is None or key > best[0]:
            best = (key, enemy)
    return best[1] if best else None


def kill_keepers(me: PlayerView, candidates: list[CardView]) -> list[CardView]:
    """The defenders that leave the seat's ready characters enough attack to kill a must-die
    enemy engaged with it this round (its hit points left and its defense; Beorn with the +5
    of his Action): a Hill Troll that survives the round attacks again, and each ally given up
    to it costs its excess damage in threat (core-082). Gandalf, who survives its attack,
    defended it and left two allies to hit its 3 defense for nothing; the Gondorian Spearman
    given up in his place would have let Gandalf's 4 attack kill it. Every candidate when no
    such kill is on, or when every candidate would spoil it."""
    ready = [c for c in [*me.heroes, *me.allies] if not c.exhausted and fighter(c) and (c.attack or 0) > 0]

    def hits(c: CardView) -> int:
        return (c.attack or 0) + (BEORN_BONUS if c.name == "Beorn" else 0)

    power = sum(hits(c) for c in ready)
    for troll in me.engaged:
        if troll.name not in MUST_DIE:
            continue
        need = _left(troll) + (troll.defense or 0)
        if power >= need:
            kept = [c for c in candidates if power - (hits(c) if c in ready else 0) >= need]
            return kept or candidates
    return candidates


def kill_spoilt(me: PlayerView, candidates: list[CardView]) -> bool:
    """Whether the seat's ready fighters kill a must-die enemy engaged with it this round
    (``kill_keepers``) and every one of the ``candidates`` to defend is an attacker the kill
    needs: an attack met by any of them (Thalin defending the Dol Guldur Orcs engaged beside
    the troll) costs the kill, and the troll attacks again next round."""
    needed = {c.uid for c in _kill_needs(me)}
    return bool(candidates) and all(c.uid in needed for c in candidates)


def _kill_needs(me: PlayerView) -> list[CardView]:
    """The ready fighters each of whom a must-die enemy's kill this round needs."""
    ready = [c for c in [*me.heroes, *me.allies] if not c.exhausted and fighter(c) and (c.attack or 0) > 0]

    def hits(c: CardView) -> int:
        return (c.attack or 0) + (BEORN_BONUS if c.name == "Beorn" else 0)

    power = sum(hits(c) for c in ready)
    for troll in me.engaged:
        if troll.name in MUST_DIE:
            need = _left(troll) + (troll.defense or 0)
            if power >= need:
                return [c for c in ready if power - hits(c) < need]
    return []


def useful_progress(view: TableView) -> float:
    """The progress a quest success can still place this round: what the active location
    lacks and what the stage lacks. Progress beyond a stage's quest points is lost (Core Set
    rulebook, Quest Resolution), and at To the River... (1B), which holds while a Hill Troll
    is in play, every character committed past its 8 points is one fewer to fight the troll.
    Unbounded in an Epic Multiplayer group, whose stage counts every group's progress."""
    stage = view.quest
    if stage is None or stage.quest_points is None or stage.other_groups:
        return math.inf
    location = view.active_location
    lacking = 0
    if location is not None and location.quest_points is not None:
        lacking = max(0, location.quest_points - location.progress)
    return float(lacking + max(0, stage.quest_points - stage.progress))


def sphere_pool(me: PlayerView, sphere: str | None) -> int:
    """The resources the seat's heroes have to pay for a card of ``sphere`` (a neutral card:
    every hero's)."""
    return sum(h.resources for h in me.heroes if sphere == "neutral" or h.sphere == sphere)


def fighter(card: CardView) -> bool:
    """A character that hits at least as hard as it quests (Thalin, Legolas, Gimli): kept
    for the troll; a quester (Éowyn, 4 willpower, 1 attack) adds little to the attack and
    her willpower keeps the quest from failing, each failure a point of threat nearer the
    50 that ends the game."""
    return (card.attack or 0) >= (card.willpower or 0)


def wound(enemy: CardView, ready: list[CardView], view: TableView | None = None) -> list[CardView] | None:
    """Every ready attacker, when ``enemy`` must die (or be worn down: Smaug the Magnificent
    at stage 3, ``wear_down``) and their attack together gets through its defense; None when
    the general rule applies."""
    if enemy.name not in MUST_DIE and not (view is not None and wear_down(enemy, view)):
        return None
    power = sum(c.attack or 0 for c in ready)
    return ready if power > (enemy.defense or 0) else None


def troll_coming(view: TableView, me: PlayerView) -> bool:
    """A must-die enemy still in the staging area engages this seat this round, or will if
    the threat rises by ``COMING`` (failed quests, the refresh phase's point a round), and
    none is engaged with it yet: threat lowered now keeps it there while allies come down
    (lowering it once the troll is engaged frees nobody)."""
    if any(e.name in MUST_DIE for e in me.engaged) or not engagement_checks(view):
        return False
    if hunt(view, me, [c for c in [*me.heroes, *me.allies] if not c.exhausted]) is not None:
        return False
    return any(
        c.type == "enemy"
        and c.name in MUST_DIE
        and c.engagement_cost is not None
        and c.engagement_cost <= me.threat + COMING
        for c in view.staging
    )


COMING: Final = 12
"""A must-die enemy in the staging area whose engagement cost is at most this far above the
threat is coming (``troll_coming``): Gandalf is played for his 5 threat off, and The
Galadhrim's Greeting for its 6. At 12 a Hill Troll (engagement cost 30) is coming from the
first round of a game started at 26 threat: each threat point taken off while it waits puts
off its engagement by check at full hit points. The greedy Anduin row (seeds 4601-5400, an
older bot) won 63 games with 2, 58 with 1, 61 with 3; paired by seed with 2, on the
development seeds 17801-18600 it won 79 -> 82 with 3, 85 with 4, 101 with 5, 106 with 6,
117 with 8, 124 with 12; with 12 on the held-out 18601-19400 84 -> 120, and on 19401-20200
74 -> 117."""


RESERVES: Final = {"Feint": ("tactics", 1), "The Galadhrim's Greeting": ("spirit", 3), FOREST_SNARE: ("lore", 3)}
"""Cards whose cost is kept in the heroes' pools while a must-die enemy is about (by name:
sphere and cost): a Feint stops a Hill Troll's attack, whose excess damage is threat (an ally
given up to it costs 3 to 5), The Galadhrim's Greeting takes 6 threat off while the troll
waits in the staging area for the threat to reach its engagement cost, and a Forest Snare
on the troll stops all its attacks while it is worn down (``snare``)."""


def reserve(view: TableView, me: PlayerView) -> dict[str, int]:
    """Resources kept by sphere for the events in hand that answer a must-die enemy: a Feint
    while one is in play (``troll_about``: its Tactics resource kept from the round it waits
    in the staging area, for the round a failed quest's threat brings it in; kept only from
    the round it was to engage, the greedy Anduin row won, paired by seed, 68 -> 71 of 800 on
    seeds 13001-13800, 63 -> 68 on 13801-14600, 56 -> 62 on 14601-15400), the Greeting while
    one in the staging area is within 3 threat of engaging (a planning phase spent to the last
    resource left both in hand when the troll came, core-082)."""
    kept: dict[str, int] = {}
    hand = {c.name for c in me.hand or []}
    near = any(
        c.name in MUST_DIE and c.engagement_cost is not None and c.engagement_cost <= me.threat + 3
        for c in view.staging
    )
    wanted = {
        "Feint": troll_about(view),
        "The Galadhrim's Greeting": near and not any(e.name in MUST_DIE for e in me.engaged),
        FOREST_SNARE: any(unsnared(e) for e in [*view.staging, *me.engaged]),
    }
    for name, (sphere, cost) in RESERVES.items():
        if name in hand and wanted[name]:
            kept[sphere] = kept.get(sphere, 0) + cost
    return kept


def snared(enemy: CardView) -> bool:
    """An enemy under a Forest Snare (core-069): it cannot attack."""
    return any(a.name == FOREST_SNARE for a in enemy.attachments)


def unsnared(enemy: CardView) -> bool:
    """A must-die enemy without a Forest Snare: its attacks are still to come."""
    return enemy.name in MUST_DIE and not snared(enemy)


def troll_about(view: TableView) -> bool:
    """A must-die enemy without a Forest Snare is in play: a Forest Snare is kept for it."""
    return any(unsnared(e) for e in [*view.staging, *(e for p in view.players for e in p.engaged)])


def snare(view: TableView, me: PlayerView) -> CardView | None:
    """The must-die enemy engaged with the seat that a Forest Snare goes on first (core-069:
    the attached enemy cannot attack): a Hill Troll snared is worn down round after round by
    every attack that gets through its defense, and its 6 attack, whose excess damage raises
    the threat (core-082), never falls on a character again, the way players beat it with a
    Core Set alone."""
    return max((e for e in me.engaged if unsnared(e)), key=lambda e: e.attack or 0, default=None)


GANDALF_THREAT: Final = 40
"""Below this threat Gandalf's 4 damage goes to a must-die enemy rather than 5 threat off."""


def troll_to_wound(view: TableView, me: PlayerView) -> bool:
    """A must-die enemy is in play (engaged or in the staging area) and the threat is not yet
    pressing: Gandalf's 4 damage stays on it, nearly half of what it takes through its
    defense (9 hit points, 3 defense), where 5 threat off only puts off its engagement."""
    enemies = [*view.staging, *(e for p in view.players for e in p.engaged)]
    return me.threat < GANDALF_THREAT and any(e.name in MUST_DIE for e in enemies)


def chosen_prey(view: TableView, me: PlayerView, ready: list[CardView]) -> CardView | None:
    """At a stage without engagement checks (Anduin Passage, core-127) the staging area's
    enemies stay there, their threat against every quest, unless engaged by choice, one a
    round: the one with most threat that the ``ready`` characters can kill. The quest plan
    reckons with it as an enemy to come, so that it keeps back who defends and kills it
    (Legolas' kill puts 2 progress on the quest besides)."""
    if engagement_checks(view) or me.engaged:
        return None
    power = sum(c.attack or 0 for c in ready)
    staged = [c for c in view.staging if c.type == "enemy"]
    prey = [
        c
        for c in staged
        if power - (c.defense or 0) >= _left(c) and not (c.name == "Goblin Sniper" and len(staged) > 1)
    ]
    return max(prey, key=lambda c: (c.threat or 0, -(c.attack or 0)), default=None)


# -- The Lonely Mountain ------------------------------------------------------------------

SMAUG_THE_MAGNIFICENT: Final = "Smaug the Magnificent"
"""Stays in the staging area yet is engaged with the first player (otd-041): he attacks the
first player each combat phase, and again when dealt a shadow card with a burgle effect."""
SECOND_ATTACK: Final = 2
"""How many of Smaug the Magnificent's attacks a round's plan reckons with: most of The
Lonely Mountain's encounter cards carry a burgle effect (21 of 35), so his second attack is
more likely than not."""


def staging_attackers(view: TableView, me: PlayerView) -> list[CardView]:
    """The enemies that attack this seat from the staging area this round, once per attack:
    Smaug the Magnificent, for the first player."""
    if not me.first:
        return []
    return [c for c in view.staging if c.name == SMAUG_THE_MAGNIFICENT] * SECOND_ATTACK


INSIDE_INFORMATION: Final = "Inside Information"


def wear_down(enemy: CardView, view: TableView) -> bool:
    """Smaug the Magnificent at Inside Information (3B): he leaves play once the stage has
    more progress than his remaining hit points (otd-073), taking his 6 threat and his
    attacks with him, and he is Indestructible: each damage that gets through his defense
    stays and is one progress token less before he goes."""
    return enemy.name == SMAUG_THE_MAGNIFICENT and view.quest is not None and view.quest.name == INSIDE_INFORMATION


# -- Passage through Mirkwood ---------------------------------------------------------------

MIRKWOOD: Final = frozenset({"Flies and Spiders", "A Fork in the Road", "Beorn's Path", "Don't Leave the Path!"})
"""Passage through Mirkwood's quest stages."""


def plans_defence(view: TableView, me: PlayerView) -> bool:
    """Whether the seat's defenders are chosen by a plan of the whole combat
    (bots/lcg_quest.py ``defence``), and the quest plan prices the combat so: at Passage
    through Mirkwood's stages, where no enemy must die and no ship defends: the scenario it
    was measured in (the bench-bots greedy row)."""
    return view.quest is not None and view.quest.name in MIRKWOOD and not any(e.name in MUST_DIE for e in me.engaged)
