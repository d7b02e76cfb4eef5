"""Which characters the greedy LCG player commits to the quest: a small plan of the round.

Committing a character exhausts it, so the question is a trade: willpower against the
staging area's threat and what the staging step will reveal (progress if it is beaten,
raised threat if not) on one side, and on the other the combat to come (each enemy that
will attack wants a defender that survives, or an ally to give up; an undefended attack
hurts a hero; enemies are killed by the characters still ready). Every subset of the ready characters is priced (there
are few), and the cheapest plan wins. A character that readies once committed (Aragorn,
paying a resource) both quests and fights.

The card the staging step reveals is not known, but the encounter deck's composition is
(:mod:`bots.lcg_encounter`): each plan is priced over every kind of card the reveal may
turn up, its threat, the enemy it brings to the combat and the harm its When Revealed
effect does, weighed by its chance.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from bots.lcg_encounter import (
    EXHAUST_ONE,
    HERO_STUCK,
    LESS_WILLPOWER,
    LOSE_QUESTER,
    WOUND_EXHAUSTED,
    WOUND_QUESTER,
    Reveal,
    Shadow,
)
from bots.lcg_plans import MUST_DIE
from bots.lcg_ships import CANCEL_COST, DREADNAUGHT, DREADNAUGHT_GUARDS, THREAT_LIMIT
from projections.lcg import CardView

HERO_LOST: Final = 14.0
"""What losing a hero costs, in threat points: most games are lost with the second."""
HERO_DAMAGE: Final = 0.6
"""What a point of damage on a hero costs (nothing heals it in most decks), besides
``NEAR_DEATH``."""
NEAR_DEATH: Final = 1.0
"""What the point of damage that leaves a hero 1 hit point costs besides ``HERO_DAMAGE``; the
point that leaves him ``n`` costs ``NEAR_DEATH / n``: the last points before death cost more
than the first (a hero left at 1-2 hit points dies to the next undefended attack)."""
ALLY_DAMAGE: Final = 0.15
KILL: Final = 5.0
"""What killing an engaged enemy this round is worth (it attacks no more)."""
MUST_DIE_KILL: Final = 6.0
"""What killing a must-die enemy this round is worth besides ``KILL``: a Hill Troll left
alive attacks again next round (an ally given up and its excess damage in threat, or a
hero) and bars the quest (Journey Along the Anduin, 1B)."""
PROGRESS_ON_KILL: Final = 2.0
"""Progress placed when Legolas (or a Blade of Gondolin) takes part in a kill."""
SHIP_LOST: Final = 3 * HERO_LOST
"""Losing the last ship eliminates the player (The Hunt for the Dreadnaught)."""
SHIP_DAMAGE: Final = 1.0
"""A point of damage on a ship: its hit points are the player's life, and nothing in the
ready-made decks heals it."""
DREADNAUGHT_DAMAGE: Final = 2.0
"""A point of damage on the Dreadnaught (The Hunt for the Dreadnaught: its destruction wins)."""
DREADNAUGHT_DESTROYED: Final = 60.0
"""What destroying the Dreadnaught this round is worth: the game is won (thftd-005). Only its
Damaged side can be left with 5 hit points or fewer (the Elite side flips at the end of the
round it is left with fewer than half), its unique Corsair guarding it (killed first)."""
DREADNAUGHT_CAP: Final = 5
"""At most 5 damage a round on the Dreadnaught per player (thftd-013)."""
SHADOW: Final = 1
"""Attack a shadow card is reckoned to add to each enemy's."""
EXHAUSTIVE: Final = 9
"""Up to this many ready characters every subset is priced; above, a greedy pass."""
QUEST_BOOSTERS: Final = {"Faramir": 1}
"""Ready characters whose Action, used once the characters are committed, gives each of
them this much willpower (core-014: "exhaust Faramir to choose a player; each character
that player controls committed to the quest gets +1 willpower"); the greedy bot uses it in
the commit window (bots/lcg_greedy.py ``_window``), so a plan that leaves the booster
uncommitted counts the bonus and no longer has him for the combat."""


@dataclass(frozen=True)
class Round:
    """What the seat sees of the round ahead."""

    threat: int
    """The seat's threat."""
    staging: float
    """Threat the quest will meet: the staging area's, and what the reveals will likely add
    when ``reveals`` does not say."""
    enemies: tuple[CardView, ...]
    """Enemies that will attack the seat this round, hardest hitter first."""
    heroes: tuple[CardView, ...]
    ships: tuple[CardView, ...] = ()
    """The seat's ship-objectives (The Hunt for the Dreadnaught): only they defend against a
    ship-enemy, and its undefended attack is dealt to one of them."""
    per_quester: int = 0
    """Threat each committed non-Burglar character adds (Smaug the Golden, The Lonely Mountain)."""
    reveals: tuple[Reveal, ...] = ()
    """What the seat's own staging reveal may turn up (its enemy only if it will engage the
    seat), each with its chance; empty: ``staging`` counts the reveals already."""
    reveal_share: float = 1.0
    """The part of a revealed card's threat the seat's willpower must answer (1 / players)."""
    optional: CardView | None = None
    """An enemy the seat may engage by choice after the quest (bots/lcg_plans.py): each plan
    is priced with it fought and without, the better of the two."""
    useful: float = math.inf
    """Progress the quest can still take this round: what the active location and the stage
    lack (bots/lcg_plans.py ``useful_progress``), or less at a stage taking at most so much
    each round (The Hunt for the Dreadnaught, bots/lcg_ships.py ``useful_progress``);
    willpower beyond it gains nothing."""
    location_left: int = 0
    """Progress the active location still needs while locations wait in the staging area
    behind it (0 when none wait): the quest's progress goes to it first, and only once it is
    explored can the players travel to one of the waiting locations and take its threat out
    of every later quest."""
    cancelled: int = 0
    """Attacks the seat can cancel (a Feint in hand and a Tactics resource to play it): the
    hardest hitters' (``CANCELLED_ATTACK`` or more, as bots/lcg_events.py plays it) take no
    defender, and every character left ready attacks them."""
    planned: bool = False
    """The combat priced by its cheapest plan (``defence``), as the greedy bot chooses its
    defenders at the stages where it plans them (bots/lcg_plans.py ``plans_defence``)."""
    success_cost: float = 0.0
    """What questing successfully costs besides the progress it makes (The Lonely Mountain's
    stage 2B: a burgle attempt that takes a treasure, 2 threat more on The Lonely Mountain
    for the rest of the game, and a progress on Smaug the Golden; bots/lcg_hobbit.py
    ``success_cost``); a tie is no success."""
    shadows: tuple[Shadow, ...] = ()
    """What the shadow card dealt to each attack may do, each kind with its chance
    (bots/lcg_encounter.py ``shadow_odds``); empty: a flat ``SHADOW`` on every attack (and
    ``UNDEFENDED_SHADOW`` threat on an undefended one in a planned combat)."""
    waiting: tuple[CardView, ...] = ()
    """Staging-area enemies whose engagement cost is above the seat's threat: a failed quest
    raises the threat before the engagement checks, and one that it takes to their cost
    engages and attacks this round (Hummerhorns at 40 deals 5 damage to a hero besides)."""
    arriving: tuple[CardView, ...] = ()
    """Enemies that come into play and attack this round when the quest makes ``advance``
    progress: the stage it defeats reveals them (The Hunt for the Dreadnaught's stage 1B
    brings the Dreadnaught, bots/lcg_ships.py ``arriving``)."""
    advance: float = math.inf
    """The quest's progress (its willpower beyond the threat) that brings ``arriving``."""
    characters: tuple[CardView, ...] = ()
    """Every character the seat controls, ready or not: a shadow card that damages each of
    them (``Shadow.each``) is priced on all of them; empty: on the one it hits alone."""


def _left(card: CardView) -> int:
    # in an epic group the hit points shown are a global value, the other groups' damage counted in it
    return (card.hit_points or 0) - card.damage - card.other_groups


def is_ship(card: CardView) -> bool:
    """A ship (a ship-enemy, or a ship-objective the players control)."""
    return "Ship" in card.traits


def _wound(card: CardView, damage: int) -> float:
    if damage <= 0:
        return 0.0
    ship = is_ship(card)
    if damage >= _left(card):
        if ship:
            return SHIP_LOST
        return HERO_LOST if card.type == "hero" else 1.0 + (card.cost or 0)
    if ship:
        return damage * SHIP_DAMAGE
    if card.type != "hero":
        return damage * ALLY_DAMAGE
    left = _left(card)
    return damage * HERO_DAMAGE + sum(NEAR_DEATH / n for n in range(left - damage, left))


def _splash(hit: CardView, damage: int, characters: Sequence[CardView]) -> float:
    """What ``damage`` dealt to each of ``characters`` but ``hit`` costs (a shadow card that
    deals damage to each character the defending player controls: Hummerhorns')."""
    if damage <= 0:
        return 0.0
    return sum(_wound(c, damage) for c in characters if c.uid != hit.uid)


def _defended(card: CardView, attack: int, shadows: Sequence[Shadow], characters: Sequence[CardView] = ()) -> float:
    """What ``card`` defending an attack of ``attack`` (its shadow card not counted) costs:
    the damage past its defense, a flat ``SHADOW`` added, or over what the shadow card may
    add to the attack, the threat it may raise and the damage it may deal to the seat's
    other ``characters``."""
    if not shadows:
        return _wound(card, attack + SHADOW - (card.defense or 0))
    return sum(
        s.chance
        * (_wound(card, attack + s.attack - (card.defense or 0)) + s.threat + _splash(card, s.each, characters))
        for s in shadows
    )


def _undefended(
    hero: CardView, before: int, attack: int, shadows: Sequence[Shadow], characters: Sequence[CardView] = ()
) -> float:
    """What an undefended attack of ``attack`` (its shadow card not counted) adds to the cost
    when it hits ``hero``, dealt ``before`` damage already this combat: with the shadow
    cards' undefended attack and threat, and the damage they may deal to the seat's other
    ``characters``, each with its chance. A flat margin would price
    the attack's mean and miss its tail: a Forest Spider's 2 undefended on a 5-hit-point
    hero costs 2 points of damage, but with Dol Guldur Orcs' shadow (+3 undefended, 3 of
    Passage through Mirkwood's 36 encounter cards) it kills him; Hummerhorns' shadow (2
    damage to each character when undefended) kills every other hero and ally left at 2 hit
    points, which the price of the one hit missed."""
    if not shadows:
        return _wound(hero, before + attack + SHADOW) - _wound(hero, before) + UNDEFENDED_SHADOW
    return sum(
        s.chance
        * (
            _wound(hero, before + attack + s.undefended_attack)
            - _wound(hero, before)
            + s.undefended_threat
            + _splash(hero, s.undefended_each, characters)
        )
        for s in shadows
    )


def _mean_undefended(shadows: Sequence[Shadow]) -> int:
    """The attack an undefended attack's shadow card adds, rounded: the damage counted on
    the hero it hits for the attacks after it."""
    if not shadows:
        return SHADOW
    return round(sum(s.chance * s.undefended_attack for s in shadows))


def _can_defend(card: CardView, enemy: CardView) -> bool:
    """Ships defend only against ship-enemies, and only ships defend against those
    (The Hunt for the Dreadnaught rulebook, Ships; Sea Monster's exception aside)."""
    return is_ship(card) == is_ship(enemy)


Fights = dict[tuple[int, ...], float]
"""The combats one ``commit`` has priced, by ``_fight_key``: the reveals that bring no enemy
and leave the ready characters be price the same combat, once for each of a dozen kinds of
card, for every plan."""


def _fight_key(ready: Sequence[CardView], plan: Round) -> tuple[int, ...]:
    """What ``_fight`` reads: the ready characters and the enemies (each in its order, which
    breaks ties), the heroes, the ships and the attacks cancelled. The cards are those of one
    ``commit`` call, alive while it prices, so their identities stand for them."""
    return (
        plan.cancelled,
        id(plan.heroes),
        id(plan.ships),
        len(ready),
        *map(id, ready),
        *map(id, plan.enemies),
    )


Wounds = dict[tuple[int, int, int, int], float]
"""What a character defending an attack, or a hero taking an undefended one, costs, by
``_best_defence``'s key: the combats of one ``commit`` meet the same characters, attacks and
shadow cards again and again."""


def _fought(ready: list[CardView], plan: Round, fights: Fights, wounds: Wounds) -> float:
    """``_fight``, each combat priced once in a ``commit`` call."""
    key = _fight_key(ready, plan)
    cost = fights.get(key)
    if cost is None:
        cost = fights[key] = _fight(ready, plan, wounds)
    return cost


def _fight(ready: list[CardView], plan: Round, wounds: Wounds | None = None) -> float:
    """The cost of the combat with ``ready`` characters left to defend and attack."""
    # a must-die enemy's kill decides who defends: the greedy reckoning below gave its attack
    # to Gandalf (who survives it) and left too little attack to kill a Hill Troll
    if plan.planned or any(e.name in MUST_DIE for e in plan.enemies):
        attacks = [
            e for n, e in enumerate(plan.enemies) if not (n < plan.cancelled and (e.attack or 0) >= CANCELLED_ATTACK)
        ]
        planned = _best_defence(
            ready,
            attacks,
            plan.enemies,
            plan.heroes,
            limit=PRICED_PLANS,
            shadows=plan.shadows,
            wounds=wounds,
            characters=plan.characters,
        )
        if planned is not None:
            return planned[0]
    free = list(ready)
    cost = 0.0
    # the damage undefended ship-enemy attacks put on each ship, counted in the next one's
    sunk: dict[int, int] = {}
    for n, enemy in enumerate(plan.enemies):
        if n < plan.cancelled and (enemy.attack or 0) >= CANCELLED_ATTACK:
            continue
        attack = enemy.attack or 0
        on_ship = is_ship(enemy) and bool(plan.ships)
        hit = plan.ships if on_ship else plan.heroes
        prices = [
            (
                _undefended(h, sunk.get(h.uid, 0), attack, plan.shadows, plan.characters)
                if plan.shadows
                else _wound(h, sunk.get(h.uid, 0) + attack + SHADOW) - _wound(h, sunk.get(h.uid, 0)),
                h,
            )
            for h in hit
        ]
        undefended, target = min(prices, key=lambda p: p[0], default=(HERO_LOST, None))
        if enemy.name == DREADNAUGHT and enemy.type == "enemy" and _cancel_price(plan.threat) < undefended:
            # Destroy the Dreadnaught's Response cancels its attack for 4 threat (thftd-005)
            undefended, target = _cancel_price(plan.threat), None
        best: tuple[float, CardView | None] = (undefended, None)
        for card in free:
            if not _can_defend(card, enemy):
                continue
            price = _defended(card, attack, plan.shadows, plan.characters)
            if price < best[0]:
                best = (price, card)
        cost += best[0]
        if best[1] is not None:
            free.remove(best[1])
        elif on_ship and target is not None:
            sunk[target.uid] = sunk.get(target.uid, 0) + attack + _mean_undefended(plan.shadows)
    power = sum(c.attack or 0 for c in free if not is_ship(c))
    guards = [e for e in plan.enemies if e.name in DREADNAUGHT_GUARDS]
    killed: list[CardView] = []
    dreadnaught = next((e for e in plan.enemies if e.name == DREADNAUGHT and e.type == "enemy"), None)
    if guards and dreadnaught is not None:
        # the guards are attacked first (bots/lcg_greedy.py ``_attack_target``): killed, their
        # ban on attacking the Dreadnaught is lifted for the attacks after
        need = sum(_left(e) + (e.defense or 0) for e in guards)
        if power >= need:
            power -= need
            cost -= KILL * len(guards)
            killed, guards = guards, []
    # the attackers the Dreadnaught's round of damage needs are kept for it before any kill
    # (bots/lcg_ships.py ``kept_for_dreadnaught``)
    if dreadnaught is not None and not guards:
        # a ship-objective attacks a ship-enemy too (The Hunt for the Dreadnaught rulebook)
        ships = sum(c.attack or 0 for c in free if is_ship(c))
        if power + ships - (dreadnaught.defense or 0) >= _left(dreadnaught) <= DREADNAUGHT_CAP:
            cost -= DREADNAUGHT_DESTROYED
        dealt = max(0, min(DREADNAUGHT_CAP, _left(dreadnaught), power - (dreadnaught.defense or 0)))
        cost -= DREADNAUGHT_DAMAGE * dealt
        power -= (dreadnaught.defense or 0) + dealt if dealt else 0
    for enemy in sorted(plan.enemies, key=lambda e: _left(e) + (e.defense or 0)):
        need = _left(enemy) + (enemy.defense or 0)
        if enemy.name != DREADNAUGHT and enemy not in killed and power >= need:
            power -= need
            cost -= KILL + (MUST_DIE_KILL if enemy.name in MUST_DIE else 0.0)
            if any(c.name == "Legolas" or any(a.name == "Blade of Gondolin" for a in c.attachments) for c in free):
                cost -= PROGRESS_ON_KILL
    return cost


def _cancel_price(threat: int) -> float:
    """What cancelling the Dreadnaught's attack costs at ``threat``: its 4 threat
    (thftd-005, ``CANCEL_COST``), as a failed quest's threat is priced (``_quest``); never
    within a point of the 50 that eliminates (bots/lcg_ships.py ``cancel_dreadnaught`` does
    not cancel there)."""
    if threat + CANCEL_COST >= THREAT_LIMIT - 1:
        return math.inf
    return _threat_price(threat, CANCEL_COST)


CANCELLED_ATTACK: Final = 3
"""The least attack of an enemy whose attack a Feint is played against (bots/lcg_events.py)."""


ENGAGEMENT_HARM: Final = {"Hummerhorns": 5}
"""Damage dealt to a single hero of the player an enemy engages (core-075's Forced)."""
MUST_DIE_DRAWN: Final = 6.0
"""What a must-die enemy that a failed quest's threat draws in costs beyond this round's
combat: a Hill Troll that engages by check at To the River... (1B) does so at full hit
points, is worn down over three or four rounds of its attacks (each an ally given up and
its excess damage in threat, or a hero), and bars the quest meanwhile. Priced as one round
of its combat, a failure that drew it in looked cheaper than the quest (two kills beside
it), and the bot quested with nobody to bring it in."""


def _engaged_by_failure(willpower: int, plan: Round, revealed: float) -> tuple[CardView, ...]:
    """The waiting enemies that the threat a failed quest raises brings to the combat."""
    raised = max(0.0, plan.staging + revealed - willpower)
    reach = plan.threat + math.ceil(raised - 1e-9)
    return tuple(e for e in plan.waiting if e.engagement_cost is not None and e.engagement_cost <= reach)


def _arrived(willpower: int, plan: Round, revealed: float) -> tuple[CardView, ...]:
    """The enemies a quest that makes ``plan.advance`` progress brings (``Round.arriving``)."""
    if not plan.arriving or willpower - plan.staging - revealed < plan.advance:
        return ()
    return plan.arriving


def _engagement_harm(enemies: Sequence[CardView], plan: Round) -> float:
    """What engaging ``enemies`` costs besides their attacks: Hummerhorns' 5 damage to the
    hero that takes it best, a must-die enemy's later rounds (``MUST_DIE_DRAWN``)."""
    cost = 0.0
    for enemy in enemies:
        if enemy.name in MUST_DIE:
            cost += MUST_DIE_DRAWN
        damage = ENGAGEMENT_HARM.get(enemy.name, 0)
        if damage:
            cost += min((_wound(h, damage) for h in plan.heroes), default=HERO_LOST)
    return cost


def _with(plan: Round, enemies: Sequence[CardView]) -> Round:
    """``plan`` with ``enemies`` attacking too, hardest hitter first."""
    if not enemies:
        return plan
    return dataclasses.replace(plan, enemies=tuple(sorted((*plan.enemies, *enemies), key=lambda e: -(e.attack or 0))))


def _quest(willpower: int, plan: Round, revealed: float = 0.0) -> float:
    """The cost (negative: the gain) of questing with ``willpower`` against the staging area
    and ``revealed`` threat more."""
    margin = willpower - plan.staging - revealed
    if margin >= 0:
        gained = min(float(margin), plan.useful)
        cost = plan.success_cost if margin > 0 else 0.0
        return cost - gained - (LOCATION_LOCK - 1.0) * min(gained, float(plan.location_left))
    raised = -margin
    if plan.threat + raised >= THREAT_LIMIT:
        return 100.0
    return _threat_price(plan.threat, raised)


def _threat_price(threat: int, raised: float) -> float:
    """What raising a threat of ``threat`` by ``raised`` costs: a point each, dearer above 40."""
    return raised * (1.0 + max(0.0, threat + raised - 40) / 3)


LOCATION_LOCK: Final = 2.0
"""What a point of progress that explores the active location is worth while locations wait
in the staging area behind it (``Round.location_left``): Passage through Mirkwood's
locations, two or three threat each, pile up in the staging area of a deck with five
willpower on its heroes, and a quest that cannot clear the active location cannot travel
again (the greedy bot left Old Forest Road and Mountains of Mirkwood in the staging area in
a trial, and won 26 of 200 games instead of 44, seeds 1-100 and 401-500)."""

STUCK: Final = 2.0
"""What a hero that does not ready next round costs, in threat points."""


def _weakest(cards: Sequence[CardView]) -> CardView | None:
    return min(
        cards, key=lambda c: (c.type == "hero", (c.willpower or 0) + (c.attack or 0) + (c.defense or 0)), default=None
    )


Outlooks = dict[tuple[int, int, int], tuple[float, float, Round]]
"""What a reveal brings whichever characters quest, by ``_outlook``'s key: a commit prices
each of some sixty plans against the same dozen reveals, and the plans' willpower takes a
handful of values."""


def _outlook(willpower: int, reveal: Reveal, plan: Round, outlooks: Outlooks) -> tuple[float, float, Round]:
    """For ``willpower`` questing when ``reveal`` turns up: the quest's cost, the harm of
    engaging the waiting enemies a failed quest brings, and the combat with them and the
    reveal's enemy; each worked out once in a ``commit`` call. The reveal and the round are
    those of one call, alive while it prices, so their identities stand for them."""
    key = (willpower, id(reveal), id(plan))
    found = outlooks.get(key)
    if found is None:
        fight = _with(plan, [reveal.enemy] if reveal.enemy is not None else [])
        revealed = reveal.threat * plan.reveal_share
        drawn = _engaged_by_failure(willpower, plan, revealed)
        coming = (*drawn, *_arrived(willpower, plan, revealed))
        found = outlooks[key] = (_quest(willpower, plan, revealed), _engagement_harm(drawn, plan), _with(fight, coming))
    return found


def _revealed(
    reveal: Reveal,
    chosen: Sequence[CardView],
    spent: list[CardView],
    willpower: int,
    left: list[CardView],
    plan: Round,
    priced: tuple[Fights, Outlooks, Wounds],
) -> float:
    """The cost of the round when ``reveal`` turns up: ``chosen`` committed, ``spent`` of
    them exhausted by it (the others ready again), ``left`` ready for the combat."""
    harm = 0.0
    if reveal.harm == EXHAUST_ONE:
        # the seat exhausts the character it misses least
        gone = _weakest(left)
        left = [c for c in left if c is not gone]
    elif reveal.harm == WOUND_EXHAUSTED:
        harm = sum(_wound(c, 1) for c in spent)
    elif reveal.harm == WOUND_QUESTER and chosen:
        harm = min(_wound(c, 2) for c in chosen)
    elif reveal.harm == LOSE_QUESTER and chosen:
        willpower -= min(c.willpower or 0 for c in chosen)
    elif reveal.harm == LESS_WILLPOWER:
        willpower -= len(chosen)
    elif reveal.harm == HERO_STUCK:
        harm = STUCK
    fights, outlooks, wounds = priced
    quest, engaging, combat = _outlook(willpower, reveal, plan, outlooks)
    harm += engaging
    return quest + _fought(left, combat, fights, wounds) + harm


def _rounds(plan: Round) -> tuple[Round, ...]:
    """The rounds each plan is priced in: ``plan``; with an enemy to engage by choice, the
    round that fights it and the round that leaves it (the plan's price is the better)."""
    if plan.optional is None:
        return (plan,)
    enemies = tuple(sorted((*plan.enemies, plan.optional), key=lambda e: -(e.attack or 0)))
    return (dataclasses.replace(plan, enemies=enemies, optional=None), dataclasses.replace(plan, optional=None))


def _round(
    chosen: Sequence[CardView],
    willpower: int,
    left: list[CardView],
    plan: Round,
    priced: tuple[Fights, Outlooks, Wounds],
) -> float:
    """The cost of the quest and the combat, over what the staging step may reveal."""
    if not plan.reveals:
        drawn = _engaged_by_failure(willpower, plan, 0.0)
        fought = _fought(left, _with(plan, (*drawn, *_arrived(willpower, plan, 0.0))), priced[0], priced[2])
        return _quest(willpower, plan) + fought + _engagement_harm(drawn, plan)
    ready = {c.uid for c in left}
    spent = [c for c in chosen if c.uid not in ready]
    return sum(r.chance * _revealed(r, chosen, spent, willpower, left, plan, priced) for r in plan.reveals)


def commit(
    ready: Sequence[CardView], readies: set[int], plan: Round, kept: Collection[int] = frozenset()
) -> list[CardView]:
    """The characters to commit: the cheapest plan for the quest and the combat after it;
    ``kept`` are held back whatever the price (a scenario's plan, bots/lcg_plans.py)."""
    booster = next((c for c in ready if c.type == "ally" and c.name in QUEST_BOOSTERS), None)
    # with a booster every character adds willpower, one of no willpower too
    questers = [
        c for c in ready if ((c.willpower or 0) > 0 or c.uid in readies or booster is not None) and c.uid not in kept
    ]

    rounds = _rounds(plan)
    priced: tuple[Fights, Outlooks, Wounds] = ({}, {}, {})

    def price(chosen: Sequence[CardView]) -> float:
        uids = {c.uid for c in chosen}
        willpower = sum(c.willpower or 0 for c in chosen)
        willpower -= plan.per_quester * sum(1 for c in chosen if "Burglar" not in c.traits)
        left = [c for c in ready if c.uid not in uids or c.uid in readies]
        if booster is not None and chosen and booster.uid not in uids:
            willpower += QUEST_BOOSTERS[booster.name] * len(chosen)
            left = [c for c in left if c.uid != booster.uid]
        return min(_round(chosen, willpower, left, r, priced) for r in rounds)

    if len(questers) <= EXHAUSTIVE:
        plans: list[tuple[CardView, ...]] = [
            combo for k in range(len(questers) + 1) for combo in itertools.combinations(questers, k)
        ]
        # on equal prices more questers (a margin against what the staging step reveals), unless
        # the quest takes no more progress: then a character left ready may yet defend or hunt
        more = -1 if math.isinf(plan.useful) else 1
        best: tuple[CardView, ...] = min(plans, key=lambda p: (price(p), more * len(p)))
        return list(best)
    chosen = [c for c in questers if c.uid in readies]
    rest = sorted((c for c in questers if c.uid not in readies), key=lambda c: -(c.willpower or 0))
    for card in rest:
        if price([*chosen, card]) <= price(chosen):
            chosen.append(card)
    return chosen


UNDEFENDED_SHADOW: Final = 0.3
"""Threat an undefended attack's shadow card is reckoned to raise besides (Passage through
Mirkwood: East Bight Patrol's 3 when the attack is undefended, Ungoliant's Spawn's 8 rather
than 4)."""
PLANS: Final = 5000
"""At most this many assignments of defenders to attacks are priced for a defender
(``defence``); beyond, the general rules choose it."""
PRICED_PLANS: Final = 500
"""At most this many for each combat a quest plan prices (``_fight``, a few hundred combats
for one commit); beyond, its greedy reckoning stands."""


def defence(
    ready: Sequence[CardView],
    attacks: Sequence[CardView],
    engaged: Sequence[CardView],
    heroes: Sequence[CardView],
    defenders: Collection[int] | None = None,
    shadows: Sequence[Shadow] = (),
    characters: Sequence[CardView] = (),
) -> CardView | None:
    """The defender of the first of ``attacks`` in the cheapest plan of the combat
    (``_best_defence``), only one of ``defenders`` (uids; None: any ready character); None
    when that plan leaves the attack undefended, or when there are too many plans to price;
    the shadow cards priced as ``shadows`` says (``Round.shadows``)."""
    planned = _best_defence(ready, attacks, engaged, heroes, defenders, shadows=shadows, characters=characters)
    return planned[1] if planned is not None else None


def _best_defence(
    ready: Sequence[CardView],
    attacks: Sequence[CardView],
    engaged: Sequence[CardView],
    heroes: Sequence[CardView],
    defenders: Collection[int] | None = None,
    limit: int = PLANS,
    shadows: Sequence[Shadow] = (),
    wounds: Wounds | None = None,
    characters: Sequence[CardView] = (),
) -> tuple[float, CardView | None] | None:
    """The cost of the cheapest plan of the combat and the defender it gives the first of
    ``attacks`` (None: undefended). Every assignment of the ``ready`` characters to the
    attacks still to come is priced (one defender each, or none: the damage goes on the hero
    that takes it best, the damage of one undefended attack counted in the next), then the
    characters left ready attack and kill what they can of the ``engaged`` enemies, as
    ``_fight`` reckons the kills. A defender that survives each attack may cost more than a
    few points of damage on a hero and a kill: three heroes that defend three attacks round
    after round never wear the enemies down, and an enemy killed attacks no more (Legolas'
    kill is 2 progress besides). None when there are more than ``limit`` assignments.
    ``wounds`` keeps the characters' and heroes' prices for the other combats of a
    ``commit`` call: its cards and shadow cards are alive while it prices, so their
    identities stand for them."""
    ready = [c for c in ready if not is_ship(c)]
    able = [c for c in ready if defenders is None or c.uid in defenders]
    if (len(able) + 1) ** len(attacks) > limit:
        return None
    # Each card's stats are read once here, not in the loop over the assignments (a few
    # hundred for each of the few hundred combats a commit prices): what each character
    # costs defending each attack, what each undefended attack adds on each hero for the
    # damage it already took, and the kills for each attack power left ready, are the same
    # in every assignment that meets them.
    hits = [e.attack or 0 for e in attacks]
    if wounds is None:
        wounds = {}
    seen = id(shadows)
    cover: list[list[float]] = []
    for attack in hits:
        row: list[float] = []
        for c in able:
            met = (-1, id(c), attack, seen)
            price = wounds.get(met)
            if price is None:
                price = wounds[met] = _defended(c, attack, shadows, characters)
            row.append(price)
        cover.append(row)
    able_uids = [c.uid for c in able]
    powers = [(c.uid, c.attack or 0) for c in ready]
    heralds = [c.uid for c in ready if c.name == "Legolas" or any(a.name == "Blade of Gondolin" for a in c.attachments)]
    needs = [
        (_left(e) + (e.defense or 0), MUST_DIE_KILL if e.name in MUST_DIE else 0.0)
        for e in sorted(engaged, key=lambda e: _left(e) + (e.defense or 0))
    ]
    lasting = [(h, h.uid, _left(h)) for h in heroes]
    mean = _mean_undefended(shadows)
    gains: dict[tuple[int, bool], float] = {}

    best: tuple[float, int, bool] | None = None
    chosen: CardView | None = None
    for plan in itertools.product(*([-1, *range(len(able))] for _ in attacks)):
        used = {able_uids[j] for j in plan if j >= 0}
        if len(used) < sum(1 for j in plan if j >= 0):
            continue
        # the damage of the assignment: each attack's defender, or the hero it hurts least
        taken: dict[int, int] = {}
        hurt = 0.0
        for attack, j, costs in zip(hits, plan, cover, strict=True):
            if j >= 0:
                hurt += costs[j]
                continue
            hit: int | None = None
            added = 0.0
            for h, uid, left in lasting:
                before = taken.get(uid, 0)
                if before >= left:
                    continue
                met = (id(h), before, attack, seen)
                price = wounds.get(met)
                if price is None:
                    price = wounds[met] = _undefended(h, before, attack, shadows, characters)
                if hit is None or price < added:
                    hit, added = uid, price
            if hit is None:
                hurt = math.inf
                break
            taken[hit] = taken.get(hit, 0) + attack + mean
            hurt += added
        # the kills of the characters left ready (``_fight`` reckons them alike)
        power = sum(a for uid, a in powers if uid not in used)
        free_progress = any(uid not in used for uid in heralds)
        gkey = (power, free_progress)
        gain = gains.get(gkey)
        if gain is None:
            gain = 0.0
            for need, extra in needs:
                if power >= need:
                    power -= need
                    gain += KILL + extra + (PROGRESS_ON_KILL if free_progress else 0.0)
            gains[gkey] = gain
        cost = hurt - gain
        first = able[plan[0]] if plan and plan[0] >= 0 else None
        # on equal prices more defenders, and the attack at hand defended
        key = (cost, -len(used), first is None)
        if best is None or key < best:
            best, chosen = key, first
    return (best[0], chosen) if best is not None else None
