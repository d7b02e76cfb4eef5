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
from bots.lcg_ships import (
    CANCEL_COST,
    DREADNAUGHT,
    DREADNAUGHT_GUARDS,
    ONE_ATTACKER,
    THREAT_LIMIT,
    damage_to_flip,
)
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
SHIP_NEAR_DEATH: Final = 3.0
"""What the point of damage that leaves a ship ``n`` hit points costs besides ``SHIP_DAMAGE``:
``SHIP_NEAR_DEATH / n``, as ``NEAR_DEATH`` for a hero, three times it as ``SHIP_LOST`` is
three ``HERO_LOST``: the next undefended ship-enemy attack sinks a ship left at a few hit
points, which eliminates the player, so its last points are dearer than its first. The greedy
Dreadnaught row (ships-leadership deck), paired by seed against a flat ``SHIP_DAMAGE``: dev
61001-63400 179 -> 187 of 2,400 (45 gained, 37 lost), held-out 63401-65800 199 -> 216 (50,
33), third 65801-68200 204 -> 209 (49, 44); on the dev seeds 2.0 won 185, 5.0 won 180."""
DREADNAUGHT_DAMAGE: Final = 2.0
"""A point of damage on the Dreadnaught (The Hunt for the Dreadnaught: its destruction wins)."""
DREADNAUGHT_DESTROYED: Final = 60.0
"""What destroying the Dreadnaught this round is worth: the game is won (thftd-005). Only its
Damaged side can be left with 5 hit points or fewer (the Elite side flips at the end of the
round it is left with fewer than half), its unique Corsair guarding it (killed first)."""
DREADNAUGHT_CAP: Final = 5
"""At most 5 damage a round on the Dreadnaught per player (thftd-013)."""
GUARD_KILL: Final = 20.0
"""What killing a Corsair that bars its player from attacking the Dreadnaught
(``DREADNAUGHT_GUARDS``: the unique one its flip engages) is worth besides ``KILL``: on dev
seeds 9401-10200 the greedy bot won 34 of the 69 flipped games whose guard died and 6 of
the 265 others; a plan that kills it keeps its attackers from the quest, even at the dear
threat a failed quest raises above 40 (with Ophidian's one attacker, ``ONE_ATTACKER``: dev
40 -> 45 of 800, held-out 10201-11000 42 -> 48; 10.0 instead: 43 and 46)."""
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
    unseen: tuple[tuple[int, float], ...] = ()
    """Enemies the encounter deck may still reveal whose engagement cost is above the seat's
    threat (Passage through Mirkwood: Dol Guldur Beastmaster and Chieftain Ufthak at 35,
    Hummerhorns at 40): each one's cost and the chance a reveal turns it up. A failed quest
    whose threat reaches a cost brings such an enemy into engagement as it is revealed, in
    the rounds the threat's refresh point would not yet have (``_early_engagement``)."""


_ROUND_FIELDS: Final = (
    "threat",
    "staging",
    "enemies",
    "heroes",
    "ships",
    "per_quester",
    "reveals",
    "reveal_share",
    "optional",
    "useful",
    "location_left",
    "cancelled",
    "planned",
    "success_cost",
    "shadows",
    "waiting",
    "arriving",
    "advance",
    "characters",
    "unseen",
)
"""``Round``'s fields in order, as :func:`_fighting` copies them."""
if tuple(f.name for f in dataclasses.fields(Round)) != _ROUND_FIELDS:
    raise RuntimeError("bots/lcg_quest.py's Round fields changed: update _fighting")


def _fighting(plan: Round, enemies: tuple[CardView, ...]) -> Round:
    """``dataclasses.replace(plan, enemies=enemies)``, by the constructor: ``replace`` is
    interpreted (it reads the fields and calls the class by keyword), and a commit builds a
    round for each combat its reveals bring."""
    return Round(
        plan.threat,
        plan.staging,
        enemies,
        plan.heroes,
        plan.ships,
        plan.per_quester,
        plan.reveals,
        plan.reveal_share,
        plan.optional,
        plan.useful,
        plan.location_left,
        plan.cancelled,
        plan.planned,
        plan.success_cost,
        plan.shadows,
        plan.waiting,
        plan.arriving,
        plan.advance,
        plan.characters,
        plan.unseen,
    )


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
        left = _left(card)
        return damage * SHIP_DAMAGE + sum(SHIP_NEAR_DEATH / n for n in range(left - damage, left))
    if card.type != "hero":
        return damage * ALLY_DAMAGE
    left = _left(card)
    return damage * HERO_DAMAGE + sum(NEAR_DEATH / n for n in range(left - damage, left))


class _Memo:
    """``_wound`` and ``_splash`` of one ``commit`` call (or one ``_best_defence``), each
    worked out once: the prices of defending and of undefended attacks read each character's
    stats for every shadow kind and every other character for a splash (Hummerhorns'), some
    twenty thousand ``_wound`` calls a rollout where a few hundred differ. Its cards are
    alive while it prices, so their identities stand for them; ``characters`` are the ones
    every splash it prices is dealt to."""

    def __init__(self, characters: Sequence[CardView]) -> None:
        self.characters = characters
        self.wounds: dict[tuple[int, int], float] = {}
        self.splashes: dict[tuple[int, int], float] = {}
        self.reckonings: dict[int, _Reckoning] = {}
        """What ``_reckoned`` reads of each combat it reckons, by the combat's identity."""

    def wound(self, card: CardView, damage: int) -> float:
        """``_wound(card, damage)``."""
        key = (id(card), damage)
        found = self.wounds.get(key)
        if found is None:
            found = self.wounds[key] = _wound(card, damage)
        return found

    def splash(self, hit: CardView, damage: int) -> float:
        """``_splash(hit, damage, self.characters)``, its wounds summed in the same order."""
        if damage <= 0:
            return 0.0
        key = (hit.uid, damage)
        found = self.splashes.get(key)
        if found is None:
            found = self.splashes[key] = sum(self.wound(c, damage) for c in self.characters if c.uid != hit.uid)
        return found


def _splash(hit: CardView, damage: int, characters: Sequence[CardView]) -> float:
    """What ``damage`` dealt to each of ``characters`` but ``hit`` costs (a shadow card that
    deals damage to each character the defending player controls: Hummerhorns')."""
    if damage <= 0:
        return 0.0
    return sum(_wound(c, damage) for c in characters if c.uid != hit.uid)


def _defended(
    card: CardView,
    attack: int,
    shadows: Sequence[Shadow],
    characters: Sequence[CardView] = (),
    memo: _Memo | None = None,
) -> float:
    """What ``card`` defending an attack of ``attack`` (its shadow card not counted) costs:
    the damage past its defense, a flat ``SHADOW`` added, or over what the shadow card may
    add to the attack, the threat it may raise and the damage it may deal to the seat's
    other ``characters``; ``memo``: the wounds and splashes worked out already (its
    characters ``characters``)."""
    if memo is None:
        memo = _Memo(characters)
    if not shadows:
        return memo.wound(card, attack + SHADOW - (card.defense or 0))
    return sum(
        s.chance * (memo.wound(card, attack + s.attack - (card.defense or 0)) + s.threat + memo.splash(card, s.each))
        for s in shadows
    )


def _undefended(
    hero: CardView,
    before: int,
    attack: int,
    shadows: Sequence[Shadow],
    characters: Sequence[CardView] = (),
    memo: _Memo | None = None,
) -> float:
    """What an undefended attack of ``attack`` (its shadow card not counted) adds to the cost
    when it hits ``hero``, dealt ``before`` damage already this combat: with the shadow
    cards' undefended attack and threat, and the damage they may deal to the seat's other
    ``characters``, each with its chance. A flat margin would price
    the attack's mean and miss its tail: a Forest Spider's 2 undefended on a 5-hit-point
    hero costs 2 points of damage, but with Dol Guldur Orcs' shadow (+3 undefended, 3 of
    Passage through Mirkwood's 36 encounter cards) it kills him; Hummerhorns' shadow (2
    damage to each character when undefended) kills every other hero and ally left at 2 hit
    points, which the price of the one hit missed. ``memo`` as ``_defended``'s."""
    if memo is None:
        memo = _Memo(characters)
    if not shadows:
        return memo.wound(hero, before + attack + SHADOW) - memo.wound(hero, before) + UNDEFENDED_SHADOW
    return sum(
        s.chance
        * (
            memo.wound(hero, before + attack + s.undefended_attack)
            - memo.wound(hero, before)
            + s.undefended_threat
            + memo.splash(hero, s.undefended_each)
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


Wounds = dict[tuple[int, int, int, int], float]
"""What a character defending an attack, or a hero taking an undefended one, costs, by
``_best_defence``'s key: the combats of one ``commit`` meet the same characters, attacks and
shadow cards again and again."""


def _fight(ready: list[CardView], plan: Round, wounds: Wounds | None = None) -> float:
    """The cost of the combat with ``ready`` characters left to defend and attack: by its
    cheapest plan (``_planned_path``), else (or with too many plans to price) ``_reckoned``."""
    if _planned_path(plan):
        planned = _best_defence(
            ready,
            _priced_attacks(plan),
            plan.enemies,
            plan.heroes,
            limit=PRICED_PLANS,
            shadows=plan.shadows,
            wounds=wounds,
            characters=plan.characters,
        )
        if planned is not None:
            return planned[0]
    return _reckoned(ready, plan)


def _planned_path(plan: Round) -> bool:
    """Whether ``_fight`` prices ``plan``'s combat by its cheapest plan (``_best_defence``)."""
    # a must-die enemy's kill decides who defends: the greedy reckoning below gave its attack
    # to Gandalf (who survives it) and left too little attack to kill a Hill Troll
    return plan.planned or any(e.name in MUST_DIE for e in plan.enemies)


def _priced_attacks(plan: Round) -> list[CardView]:
    """The attacks of ``plan``'s combat that a cheapest plan meets: all but those cancelled."""
    return [e for n, e in enumerate(plan.enemies) if not (n < plan.cancelled and (e.attack or 0) >= CANCELLED_ATTACK)]


def _kill_needs(engaged: Sequence[CardView]) -> list[tuple[int, float]]:
    """What killing each of ``engaged`` takes, fewest first, and what its kill is worth
    besides ``KILL`` (``_Assignments.needs``)."""
    return [
        (_left(e) + (e.defense or 0), MUST_DIE_KILL if e.name in MUST_DIE else 0.0)
        for e in sorted(engaged, key=lambda e: _left(e) + (e.defense or 0))
    ]


def _herald(card: CardView) -> bool:
    """Whether ``card`` taking part in a kill places progress (``PROGRESS_ON_KILL``)."""
    return card.name == "Legolas" or any(a.name == "Blade of Gondolin" for a in card.attachments)


def _reckoned(ready: list[CardView], plan: Round, memo: _Memo | None = None, wounds: Wounds | None = None) -> float:
    """``_fight``'s greedy reckoning: each attack met by the cheapest of the ``ready``
    characters or left to the hero it hurts least, the ones left ready killing what they can
    (``memo``: the wounds of ``plan.characters`` worked out already, and what the reckoning
    reads of ``plan`` whoever is ready, ``_Reckoning``; ``wounds``: the prices of
    defending and of undefended attacks worked out already, by ``_best_defence``'s keys, for a
    ``commit`` call that reckons the same combat with many sets of characters left ready)."""
    if memo is None:
        memo = _Memo(plan.characters)
    if wounds is None:
        wounds = {}
    seen = id(plan.shadows)
    at = memo.reckonings.get(id(plan))
    if at is None:
        at = memo.reckonings[id(plan)] = _Reckoning(plan)
    free = list(ready)
    afloat = [is_ship(c) for c in free]
    cost = 0.0
    # the damage undefended ship-enemy attacks put on each ship, counted in the next one's
    sunk: dict[int, int] = {}
    for n, (attack, on_ship, hit, ship, cancel) in enumerate(at.steps):
        found = at.unhurt[n] if not sunk else None
        if found is None:
            prices = [
                (
                    _undefended_in(wounds, h, sunk.get(h.uid, 0), attack, plan, seen, memo)
                    if plan.shadows
                    else memo.wound(h, sunk.get(h.uid, 0) + attack + SHADOW) - memo.wound(h, sunk.get(h.uid, 0)),
                    h,
                )
                for h in hit
            ]
            found = min(prices, key=lambda p: p[0], default=(HERO_LOST, None))
            if cancel is not None and cancel < found[0]:
                # Destroy the Dreadnaught's Response cancels its attack for 4 threat (thftd-005)
                found = (cancel, None)
            if not sunk:
                at.unhurt[n] = found
        undefended, target = found
        best = undefended
        chosen = -1
        for k, card in enumerate(free):
            if afloat[k] != ship:
                continue
            met = (-1, id(card), attack, seen)
            price = wounds.get(met)
            if price is None:
                price = wounds[met] = _defended(card, attack, plan.shadows, plan.characters, memo)
            if price < best:
                best = price
                chosen = k
        cost += best
        if chosen >= 0:
            del free[chosen]
            del afloat[chosen]
        elif on_ship and target is not None:
            sunk[target.uid] = sunk.get(target.uid, 0) + attack + at.mean
    power = 0
    ships = 0
    # Ophidian takes one attacker a round (thftd-018): only a single hard enough hitter kills it
    alone = 0
    for k, card in enumerate(free):
        if afloat[k]:
            ships += card.attack or 0
        else:
            power += card.attack or 0
            alone = max(alone, card.attack or 0)
    guards = at.guards
    killed = False
    dreadnaught = at.dreadnaught
    if guards and dreadnaught is not None:
        # the guards are attacked first (bots/lcg_greedy.py ``_attack_target``): killed, their
        # ban on attacking the Dreadnaught is lifted for the attacks after
        need = at.guarded
        if power >= need and all(alone >= hard for hard in at.single):
            power -= need
            cost -= (KILL + GUARD_KILL) * len(guards)
            killed = True
    # the attackers the Dreadnaught's round of damage needs are kept for it before any kill
    # (bots/lcg_ships.py ``kept_for_dreadnaught``)
    if dreadnaught is not None and (killed or not guards):
        # a ship-objective attacks a ship-enemy too (The Hunt for the Dreadnaught rulebook)
        if power + ships - (dreadnaught.defense or 0) >= _left(dreadnaught) <= DREADNAUGHT_CAP:
            cost -= DREADNAUGHT_DESTROYED
        dealt = max(0, min(DREADNAUGHT_CAP, _left(dreadnaught), power - (dreadnaught.defense or 0)))
        cost -= DREADNAUGHT_DAMAGE * dealt
        power -= (dreadnaught.defense or 0) + dealt if dealt else 0
    herald: bool | None = None
    for need, worth, single, guard in at.kills:
        if not (killed and guard) and power >= need:
            if single and alone < need:
                continue
            power -= need
            cost -= worth
            if herald is None:
                herald = any(_herald(c) for c in free)
            if herald:
                cost -= PROGRESS_ON_KILL
    return cost


class _Reckoning:
    """What ``_reckoned`` reads of a combat (``plan``) whichever characters are left ready,
    read once for the many sets of them a ``commit`` call reckons it with (``_Memo.reckonings``):
    the attacks met (those not cancelled), each one's targets and Dreadnaught cancel price, the
    undefended price of each while no ship has taken an undefended attack's damage (``unhurt``),
    the Dreadnaught and its guards, and the kills in the order they are tried."""

    def __init__(self, plan: Round) -> None:
        self.plan = plan
        """Held so that its identity, the key of ``_Memo.reckonings``, is never another's while
        the memo lives."""
        self.steps: list[tuple[int, bool, tuple[CardView, ...], bool, float | None]] = []
        """Each attack met: its attack, whether a ship takes it undefended, who
        may take it undefended, whether it is a ship-enemy, its cancel price (the Dreadnaught's)."""
        for n, enemy in enumerate(plan.enemies):
            if n < plan.cancelled and (enemy.attack or 0) >= CANCELLED_ATTACK:
                continue
            ship = is_ship(enemy)
            on_ship = ship and bool(plan.ships)
            cancel = None
            if enemy.name == DREADNAUGHT and enemy.type == "enemy":
                cancel = _cancel_price(plan.threat, enemy, plan.characters or plan.heroes)
            self.steps.append((enemy.attack or 0, on_ship, plan.ships if on_ship else plan.heroes, ship, cancel))
        self.unhurt: list[tuple[float, CardView | None] | None] = [None] * len(self.steps)
        self.mean = _mean_undefended(plan.shadows)
        self.guards = [e for e in plan.enemies if e.name in DREADNAUGHT_GUARDS]
        self.guarded = sum(_left(e) + (e.defense or 0) for e in self.guards)
        """What killing every guard takes."""
        self.single = [_left(e) + (e.defense or 0) for e in self.guards if e.name == ONE_ATTACKER]
        """What the guard that takes one attacker a round needs of it."""
        self.dreadnaught = next((e for e in plan.enemies if e.name == DREADNAUGHT and e.type == "enemy"), None)
        self.kills: list[tuple[int, float, bool, bool]] = [
            (
                _left(e) + (e.defense or 0),
                KILL + (MUST_DIE_KILL if e.name in MUST_DIE else 0.0),
                e.name == ONE_ATTACKER,
                e in self.guards,
            )
            for e in sorted(plan.enemies, key=lambda e: _left(e) + (e.defense or 0))
            if e.name != DREADNAUGHT
        ]
        """The kills tried, fewest needed first: what each takes, what it is worth, whether it
        takes a single attacker, whether it is a guard (killed before, if the guards were)."""


def _undefended_in(
    wounds: Wounds, hero: CardView, before: int, attack: int, plan: Round, seen: int, memo: _Memo
) -> float:
    """``_undefended`` of ``plan``'s shadow cards and characters (``seen``: the shadow cards'
    identity), kept in ``wounds`` under ``_Assignments.walk``'s key."""
    met = (id(hero), before, attack, seen)
    price = wounds.get(met)
    if price is None:
        price = wounds[met] = _undefended(hero, before, attack, plan.shadows, plan.characters, memo)
    return price


THREAT_A_ROUND: Final = 4
"""The threat a cancel of the Dreadnaught's attack is priced at beyond the present one for
each round the Dreadnaught has before it flips (``_flip_rounds``): the 4 threat stay on
until the flip, when the threat decides the game (flipped games lost within a round or two
at 44 or more), and the threat rises about this much a round on the way (the refresh
point, failed quests, Corsairs' Forced effects and shadows), so they are priced as raised
there; the quest then keeps the ship back to defend the attack of the Dreadnaught its
progress brings. It replaced a flat 12 (swept 0/6/12/18 on seeds 11401-12200: 34/35/41/40
of 800). Paired with the flat 12, Dreadnaught dev seeds 13001-13800 44 -> 46 of 800 (only
flat 3, only this 5), held-out 13801-14600 48 -> 55 (2 and 9); 2/3/5/6 a round: dev
42/48/45/43 (3: held-out 51, 10 and 13 seeds apart); 6 a round at 5 damage a round whatever
the attack: dev 43; 4 a round and 4 more at 5 damage a round: dev 44."""


def _flip_rounds(dreadnaught: CardView, characters: Sequence[CardView]) -> int:
    """The rounds the Dreadnaught's Elite side has before it flips (thftd-013: at the end of
    the round it has fewer than half its starting hit points left): the damage it still
    needs over what ``characters``' summed attack (the ships' aside) puts on it a round past
    its defense, at least 1 and at most the 5 of ``DREADNAUGHT_CAP``; 0 once it is on its
    Damaged side (Massive)."""
    need = damage_to_flip(dreadnaught)
    if need <= 0:
        return 0
    power = sum(c.attack or 0 for c in characters if not is_ship(c))
    rate = max(1, min(DREADNAUGHT_CAP, power - (dreadnaught.defense or 0)))
    return -(-need // rate)


def _cancel_price(threat: int, dreadnaught: CardView, characters: Sequence[CardView]) -> float:
    """What cancelling ``dreadnaught``'s attack costs at ``threat``: its 4 threat (thftd-005,
    ``CANCEL_COST``), as a failed quest's threat is priced (``_quest``) at the threat
    expected when the Dreadnaught flips (``THREAT_A_ROUND`` for each of its
    ``_flip_rounds`` with ``characters`` attacking it); never within a point of the 50 that
    eliminates (bots/lcg_ships.py ``cancel_dreadnaught`` does not cancel there)."""
    if threat + CANCEL_COST >= THREAT_LIMIT - 1:
        return math.inf
    return _threat_price(threat + THREAT_A_ROUND * _flip_rounds(dreadnaught, characters), CANCEL_COST)


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
    return dataclasses.replace(plan, enemies=_joined(plan.enemies, enemies))


def _joined(enemies: tuple[CardView, ...], more: Sequence[CardView]) -> tuple[CardView, ...]:
    """``enemies`` with ``more`` attacking too, hardest hitter first (``_with``'s enemies)."""
    if not more:
        return enemies
    return tuple(sorted((*enemies, *more), key=lambda e: -(e.attack or 0)))


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
    return _threat_price(plan.threat, raised) + _early_engagement(plan, raised)


def _early_engagement(plan: Round, raised: float) -> float:
    """What a failed quest's ``raised`` threat costs in enemies it brings into engagement
    sooner: each unseen enemy whose engagement cost the raised threat reaches engages as it
    is revealed, this round and each round until the refresh phase's point a round would
    have taken the threat to its cost, rather than wait in the staging area till then."""
    reach = plan.threat + math.ceil(raised - 1e-9)
    return EARLY_ENGAGEMENT * sum(chance * (cost - plan.threat) for cost, chance in plan.unseen if cost <= reach)


def _threat_price(threat: int, raised: float) -> float:
    """What raising a threat of ``threat`` by ``raised`` costs: a point each, dearer above 40."""
    return raised * (1.0 + max(0.0, threat + raised - 40) / 3)


EARLY_ENGAGEMENT: Final = 8.0
"""What a revealed enemy engaging at once rather than waiting in the staging area till the
threat reaches its engagement cost costs, in threat points (``_early_engagement``); swept
2-16 on Mirkwood seeds 6401-7200, 8 best: paired with none, Mirkwood 6401-7200 337 -> 346,
15601-16400 317 -> 335, 16401-17200 333 -> 340 of 800, mostly round 1's commit at threat 32
(Aragorn and Gimli rather than Aragorn alone); Anduin 11001-11400 33 -> 34, Dreadnaught
11001-11400 19 -> 19 of 400, Lonely Mountain 1-200 7 -> 6, 201-600 9 -> 9."""


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


def _rounds(plan: Round) -> tuple[Round, ...]:
    """The rounds each plan is priced in: ``plan``; with an enemy to engage by choice, the
    round that fights it and the round that leaves it (the plan's price is the better)."""
    if plan.optional is None:
        return (plan,)
    enemies = tuple(sorted((*plan.enemies, plan.optional), key=lambda e: -(e.attack or 0)))
    return (dataclasses.replace(plan, enemies=enemies, optional=None), dataclasses.replace(plan, optional=None))


_HARMS: Final = {
    EXHAUST_ONE: 1,
    WOUND_EXHAUSTED: 2,
    WOUND_QUESTER: 3,
    LOSE_QUESTER: 4,
    LESS_WILLPOWER: 5,
    HERO_STUCK: 6,
}
"""Each When Revealed harm the plan prices (bots/lcg_encounter.py), as a number (0: none)."""


class _Plans:
    """The plans of one ``commit`` call, priced: the cost of the quest and the combat, over
    what the staging step may reveal, in each round of ``_rounds``.

    Each ready character's facts are read once (its willpower, its prices wounded), a set of
    characters is a bitmask of their positions among the ready characters (the characters
    left ready for a combat are always in that order, which breaks its ties), and what each
    reveal brings for each willpower total (the quest's cost, the harm of engaging, the combat
    with its enemies) and each combat for each set of characters left ready are worked out
    once, by number: a commit prices some sixty plans against a dozen reveals each."""

    def __init__(self, ready: Sequence[CardView], readies: set[int], plan: Round, booster: int) -> None:
        self.cards = list(ready)
        self.plan = plan
        self.rounds = _rounds(plan)
        self.booster = booster
        """The position of the ready ally whose Action adds willpower (``QUEST_BOOSTERS``), or -1."""
        self.boost = QUEST_BOOSTERS[ready[booster].name] if booster >= 0 else 0
        n = len(ready)
        self.size = n
        uids = [c.uid for c in ready]
        self.same = [sum(1 << j for j in range(n) if uids[j] == uid) for uid in uids]
        """The positions of the characters with each one's uid (its own, but for a repeat)."""
        self.itself = [sum(1 << j for j in range(n) if ready[j] is card) for card in ready]
        self.readying = sum(1 << j for j in range(n) if uids[j] in readies)
        self.willpower = [c.willpower or 0 for c in ready]
        self.taxed = [0 if "Burglar" in c.traits else 1 for c in ready]
        self.reveals = plan.reveals
        self.harms = [_HARMS.get(r.harm, 0) for r in plan.reveals]
        # what a point of damage on each character costs, and two (``WOUND_EXHAUSTED``, ``WOUND_QUESTER``)
        self.wounded = [_wound(c, 1) for c in ready] if 2 in self.harms else []
        self.wounded_twice = [_wound(c, 2) for c in ready] if 3 in self.harms else []
        self.stride = (len(plan.reveals) + 1) * len(self.rounds)
        self.outlooks: dict[int, tuple[float, float, int]] = {}
        self.combats: list[Round] = []
        self.combat_keys: dict[tuple[int, ...], int] = {}
        self.fights: dict[int, float] = {}
        self.lefts: dict[int, list[CardView]] = {}
        """The characters at the positions of each set left ready (a bitmask) that a combat is
        reckoned with: the same few dozen sets meet every combat (``_fought``)."""
        self.wounds: Wounds = {}
        self.weakened: dict[int, int] = {}
        # What ``_best_defence`` would read again for every combat and set of characters left
        # ready (a few hundred of each a commit): the characters that can defend (not ships),
        # each one's attack and whether its kill places progress, the heroes' hit points, each
        # character's price defending each attack; and for each combat (``_specs``) its
        # attacks and kill needs; for each set of characters that can defend (``_ables``)
        # their uids, attacks and repeats. ``_planned`` walks the same assignments with them.
        self.landed = sum(1 << j for j in range(n) if not is_ship(ready[j]))
        self.uids = uids
        self.attacks = [c.attack or 0 for c in ready]
        self.heralds = [_herald(c) for c in ready]
        hero_uids = [h.uid for h in plan.heroes]
        self.lasting = [(h, hero_uids.index(h.uid), _left(h)) for h in plan.heroes]
        self.span = _span(self.lasting)
        self.mean = _mean_undefended(plan.shadows)
        self.covers: dict[int, float] = {}
        self.memo = _Memo(plan.characters)
        self.spots: dict[int, float] = {}
        self.joined: dict[int, tuple[CardView, ...]] = {}
        """The enemies of each reveal's combat, by slot (reveal and round, ``_outlook``)."""
        self.bare: dict[int, int] = {}
        """The number of each slot's combat when the quest brings no enemy more."""
        self.specs: dict[int, tuple[list[int], list[tuple[int, float]]] | None] = {}
        self.ables: dict[int, tuple[list[int], list[int], list[int], list[tuple[int, int]], list[int]]] = {}

    def price(self, chosen: Sequence[int]) -> float:
        """The cost of committing the characters at positions ``chosen`` (in their order)."""
        uids = 0
        willpower = 0
        taxed = 0
        for i in chosen:
            uids |= self.same[i]
            willpower += self.willpower[i]
            taxed += self.taxed[i]
        willpower -= self.plan.per_quester * taxed
        left = ((1 << self.size) - 1) & ~(uids & ~self.readying)
        if self.booster >= 0 and chosen and not uids >> self.booster & 1:
            willpower += self.boost * len(chosen)
            left &= ~self.same[self.booster]
        best = 0.0
        for n in range(len(self.rounds)):
            cost = self._round(n, chosen, willpower, left)
            if n == 0 or cost < best:
                best = cost
        return best

    def _round(self, n: int, chosen: Sequence[int], willpower: int, left: int) -> float:
        """The cost of the quest and the combat of round ``n``, over what the staging step may reveal."""
        if not self.reveals:
            quest, harm, combat = self._outlook(willpower, -1, n)
            return quest + self._fought(left, combat) + harm
        total = 0.0
        for k, reveal in enumerate(self.reveals):
            kind = self.harms[k]
            harm = 0.0
            power = willpower
            ready = left
            if kind == 1:
                # EXHAUST_ONE: the seat exhausts the character it misses least
                ready = self._weakened(left)
            elif kind == 2:
                # WOUND_EXHAUSTED: every quester that did not ready
                harm = sum([self.wounded[i] for i in chosen if not self.same[i] & left])
            elif kind == 3 and chosen:
                # WOUND_QUESTER
                harm = min([self.wounded_twice[i] for i in chosen])
            elif kind == 4 and chosen:
                # LOSE_QUESTER
                power -= min([self.willpower[i] for i in chosen])
            elif kind == 5:
                # LESS_WILLPOWER
                power -= len(chosen)
            elif kind == 6:
                # HERO_STUCK
                harm = STUCK
            found = self.outlooks.get(power * self.stride + (k + 1) * len(self.rounds) + n)
            if found is None:
                found = self._outlook(power, k, n)
            quest, engaging, combat = found
            harm += engaging
            fought = self.fights.get(combat << self.size | ready)
            if fought is None:
                fought = self._fought(ready, combat)
            total += reveal.chance * (quest + fought + harm)
        return total

    def _weakened(self, left: int) -> int:
        """``left`` without the character the seat misses least (``_weakest``)."""
        found = self.weakened.get(left)
        if found is None:
            gone = _weakest([c for j, c in enumerate(self.cards) if left >> j & 1])
            found = left
            for j, card in enumerate(self.cards):
                if card is gone:
                    found = left & ~self.itself[j]
                    break
            self.weakened[left] = found
        return found

    def _outlook(self, willpower: int, k: int, n: int) -> tuple[float, float, int]:
        """For ``willpower`` questing in round ``n`` when reveal ``k`` turns up (-1: no reveal
        priced): the quest's cost, the harm of engaging the waiting enemies a failed quest
        brings, and the combat with them and the reveal's enemy (its number)."""
        key = willpower * self.stride + (k + 1) * len(self.rounds) + n
        found = self.outlooks.get(key)
        if found is None:
            plan = self.rounds[n]
            slot = (k + 1) * len(self.rounds) + n
            if k < 0:
                drawn = _engaged_by_failure(willpower, plan, 0.0)
                coming = (*drawn, *_arrived(willpower, plan, 0.0))
                found = (
                    _quest(willpower, plan),
                    _engagement_harm(drawn, plan),
                    self._slot_combat(slot, n, plan.enemies, coming),
                )
            else:
                reveal = self.reveals[k]
                fight = self.joined.get(slot)
                if fight is None:
                    fight = self.joined[slot] = _joined(
                        plan.enemies, [reveal.enemy, *reveal.more] if reveal.enemy is not None else []
                    )
                revealed = reveal.threat * plan.reveal_share
                drawn = _engaged_by_failure(willpower, plan, revealed)
                coming = (*drawn, *_arrived(willpower, plan, revealed))
                found = (
                    _quest(willpower, plan, revealed),
                    _engagement_harm(drawn, plan),
                    self._slot_combat(slot, n, fight, coming),
                )
            self.outlooks[key] = found
        return found

    def _slot_combat(self, slot: int, n: int, enemies: tuple[CardView, ...], coming: Sequence[CardView]) -> int:
        """``_combat`` of ``slot``'s ``enemies`` (the same each time) and ``coming``: kept
        by slot when nothing comes, as for most willpower totals (no enemies sorted, no key made)."""
        if coming:
            return self._combat(n, enemies, coming)
        found = self.bare.get(slot)
        if found is None:
            found = self.bare[slot] = self._combat(n, enemies, coming)
        return found

    def _combat(self, n: int, enemies: tuple[CardView, ...], coming: Sequence[CardView]) -> int:
        """The number of the combat of round ``n`` with ``enemies`` and ``coming`` attacking
        (``_with``), by the enemies' identities in their order: the rounds of one commit
        differ in nothing else ``_fight`` reads, and each combat's round is built once."""
        enemies = _joined(enemies, coming)
        key = tuple([id(e) for e in enemies])
        found = self.combat_keys.get(key)
        if found is None:
            plan = self.rounds[n]
            found = self.combat_keys[key] = len(self.combats)
            self.combats.append(plan if enemies is plan.enemies else _fighting(plan, enemies))
        return found

    def _fought(self, left: int, combat: int) -> float:
        """``_fight`` of combat number ``combat`` with the characters ``left`` ready, each priced once."""
        key = combat << self.size | left
        cost = self.fights.get(key)
        if cost is None:
            found = self._planned(left, combat)
            if found is None:
                ready = self.lefts.get(left)
                if ready is None:
                    ready = self.lefts[left] = [c for j, c in enumerate(self.cards) if left >> j & 1]
                found = _reckoned(ready, self.combats[combat], self.memo, self.wounds)
            cost = self.fights[key] = found
        return cost

    def _spec(self, combat: int) -> tuple[list[int], list[tuple[int, float]]] | None:
        """Combat ``combat``'s attacks (their attack values) and kill needs, when ``_fight``
        prices it by its cheapest plan; None when it reckons it greedily."""
        if combat in self.specs:
            return self.specs[combat]
        plan = self.combats[combat]
        spec = None
        if _planned_path(plan):
            spec = ([e.attack or 0 for e in _priced_attacks(plan)], _kill_needs(plan.enemies))
        self.specs[combat] = spec
        return spec

    def _able(self, able: int) -> tuple[list[int], list[int], list[int], list[tuple[int, int]], list[int]]:
        """The characters at the positions ``able`` (a bitmask), as ``_best_defence`` reads
        them: their positions, each one's repeats among them (a bitmask of their order), their
        uids, uids and attacks, and the uids of those whose kill places progress."""
        found = self.ables.get(able)
        if found is None:
            positions = [j for j in range(self.size) if able >> j & 1]
            uids = [self.uids[j] for j in positions]
            twins = [sum(1 << k for k, other in enumerate(uids) if other == uid) for uid in uids]
            powers = [(self.uids[j], self.attacks[j]) for j in positions]
            heralds = [self.uids[j] for j in positions if self.heralds[j]]
            found = self.ables[able] = (positions, twins, uids, powers, heralds)
        return found

    def _planned(self, left: int, combat: int) -> float | None:
        """``_best_defence``'s cost of combat ``combat`` with the characters ``left`` ready
        (all of them may defend, ``PRICED_PLANS`` at most), from what this commit read once;
        None when ``_fight`` reckons it greedily."""
        spec = self._spec(combat)
        if spec is None:
            return None
        hits, needs = spec
        positions, twins, able_uids, powers, heralds = self._able(left & self.landed)
        if (len(positions) + 1) ** len(hits) > PRICED_PLANS:
            return None
        plan = self.plan
        cover: list[list[float]] = []
        for attack in hits:
            row: list[float] = []
            for j in positions:
                met = attack << self.size | j
                price = self.covers.get(met)
                if price is None:
                    price = self.covers[met] = _defended(
                        self.cards[j], attack, plan.shadows, plan.characters, self.memo
                    )
                row.append(price)
            cover.append(row)
        walk = _Assignments(
            hits,
            cover,
            twins,
            self.lasting,
            plan.shadows,
            self.wounds,
            able_uids,
            powers,
            heralds,
            needs,
            plan.characters,
            self.memo,
            self.spots,
            self.span,
            self.mean,
        )
        walk.walk(0, 0, 0, 0.0, [0] * len(self.lasting), -1)
        if not walk.found:
            return None
        return walk.best


def commit(
    ready: Sequence[CardView], readies: set[int], plan: Round, kept: Collection[int] = frozenset()
) -> list[CardView]:
    """The characters to commit: the cheapest plan for the quest and the combat after it;
    ``kept`` are held back whatever the price (a scenario's plan, bots/lcg_plans.py)."""
    booster = next((n for n, c in enumerate(ready) if c.type == "ally" and c.name in QUEST_BOOSTERS), -1)
    # with a booster every character adds willpower, one of no willpower too
    questers = [
        n
        for n, c in enumerate(ready)
        if ((c.willpower or 0) > 0 or c.uid in readies or booster >= 0) and c.uid not in kept
    ]
    plans = _Plans(ready, readies, plan, booster)

    if len(questers) <= EXHAUSTIVE:
        combos: list[tuple[int, ...]] = [
            combo for k in range(len(questers) + 1) for combo in itertools.combinations(questers, k)
        ]
        # on equal prices more questers (a margin against what the staging step reveals), unless
        # the quest takes no more progress: then a character left ready may yet defend or hunt
        more = -1 if math.isinf(plan.useful) else 1
        best = min(combos, key=lambda p: (plans.price(p), more * len(p)))
        return [ready[n] for n in best]
    chosen = [n for n in questers if ready[n].uid in readies]
    rest = sorted((n for n in questers if ready[n].uid not in readies), key=lambda n: -(ready[n].willpower or 0))
    for n in rest:
        if plans.price([*chosen, n]) <= plans.price(chosen):
            chosen.append(n)
    return [ready[n] for n in chosen]


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
    memo = _Memo(characters)
    cover: list[list[float]] = []
    for attack in hits:
        row: list[float] = []
        for c in able:
            met = (-1, id(c), attack, seen)
            price = wounds.get(met)
            if price is None:
                price = wounds[met] = _defended(c, attack, shadows, characters, memo)
            row.append(price)
        cover.append(row)
    able_uids = [c.uid for c in able]
    # the defenders of an assignment as a bitmask of their positions in ``able``; one that
    # meets a position of the same uid twice is no assignment
    twins = [sum(1 << k for k, other in enumerate(able_uids) if other == uid) for uid in able_uids]
    # each hero by the first position of its uid (the damage an assignment deals it)
    hero_uids = [h.uid for h in heroes]
    lasting = [(h, hero_uids.index(h.uid), _left(h)) for h in heroes]
    walk = _Assignments(
        hits,
        cover,
        twins,
        lasting,
        shadows,
        wounds,
        able_uids,
        [(c.uid, c.attack or 0) for c in ready],
        [c.uid for c in ready if _herald(c)],
        _kill_needs(engaged),
        characters,
        memo,
        {},
        _span(lasting),
        _mean_undefended(shadows),
    )
    walk.walk(0, 0, 0, 0.0, [0] * len(heroes), -1)
    if not walk.found:
        return None
    return (walk.best, able[walk.lead] if walk.lead >= 0 else None)


def _positions(uids: list[int], uid: int) -> int:
    """The positions of ``uid`` in ``uids``, as a bitmask."""
    return sum(1 << j for j, other in enumerate(uids) if other == uid)


def _span(lasting: list[tuple[CardView, int, int]]) -> int:
    """The most hit points any of ``lasting``'s heroes has left, at least 1 (``_Assignments.span``)."""
    return max([1, *(left for _, _, left in lasting)])


class _Assignments:
    """The assignments of ``_best_defence``'s ready characters to its attacks, walked in
    the order of ``itertools.product`` over each attack's choices (none, then each
    character in turn), one attack after another: the damage of the attacks assigned so far
    is summed once for every assignment that begins so, and one that gives a character two
    attacks is left at its first repeat. The cheapest (the first of equal keys) is kept."""

    def __init__(
        self,
        hits: list[int],
        cover: list[list[float]],
        twins: list[int],
        lasting: list[tuple[CardView, int, int]],
        shadows: Sequence[Shadow],
        wounds: Wounds,
        able_uids: list[int],
        powers: list[tuple[int, int]],
        heralds: list[int],
        needs: list[tuple[int, float]],
        characters: Sequence[CardView],
        memo: _Memo,
        spots: dict[int, float],
        span: int,
        mean: int,
    ) -> None:
        self.hits = hits
        self.cover = cover
        self.twins = twins
        self.lasting = lasting
        """Each hero, the first position of its uid (where its damage is counted) and its hit points left."""
        self.span = span
        """``_span(lasting)``: the keys of ``spots`` by the damage a hero took before."""
        self.spots = spots
        """What an undefended attack costs on a hero, by attack, hero and the damage it took
        before: the same in every combat of a ``commit`` (its heroes and shadow cards are)."""
        self.shadows = shadows
        self.seen = id(shadows)
        self.mean = mean
        """``_mean_undefended(shadows)``, worked out once by the caller (once per ``commit``)."""
        self.wounds = wounds
        self.strengths = [a for _, a in powers]
        self.reach = [_positions(able_uids, uid) for uid, _ in powers]
        """For each of ``powers``, the positions of the characters that can defend with its uid
        (a bitmask; 0: it does not defend): it attacks unless the defenders' bitmask meets it."""
        self.herald_reach = [_positions(able_uids, uid) for uid in heralds]
        self.needs = needs
        """What killing each engaged enemy takes, fewest first, and what its kill is worth besides ``KILL``."""
        self.characters = characters
        self.memo = memo
        self.gains: dict[int, float] = {}
        """The kills of the characters left ready, by the defenders' bitmask."""
        self.found = False
        self.best = 0.0
        self.most = 0
        self.lead = -1
        """The defender of the first attack in the cheapest assignment (-1: undefended)."""

    def walk(self, n: int, used: int, count: int, hurt: float, taken: list[int], lead: int) -> None:
        """Every assignment that begins with the attacks before ``n`` assigned so: ``used``
        their defenders (``count`` of them), ``hurt`` their damage, ``taken`` the damage
        each hero took, ``lead`` the first attack's defender."""
        if n == len(self.hits):
            self.settle(used, count, hurt, lead)
            return
        # undefended: the damage goes on the hero it hurts least
        after = taken
        lost = hurt
        if not math.isinf(hurt):
            attack = self.hits[n]
            hit = -1
            added = 0.0
            for m, (h, group, left) in enumerate(self.lasting):
                before = taken[group]
                if before >= left:
                    continue
                # a key of each attack, hero and damage before (none for a negative one)
                spot = (attack * len(self.lasting) + m) * self.span + before if attack >= 0 <= before else -1
                price = self.spots.get(spot) if spot >= 0 else None
                if price is None:
                    met = (id(h), before, attack, self.seen)
                    price = self.wounds.get(met)
                    if price is None:
                        price = self.wounds[met] = _undefended(
                            h, before, attack, self.shadows, self.characters, self.memo
                        )
                    if spot >= 0:
                        self.spots[spot] = price
                if hit < 0 or price < added:
                    hit, added = group, price
            if hit < 0:
                lost = math.inf
            else:
                after = list(taken)
                after[hit] += attack + self.mean
                lost = hurt + added
        # the last attack's choices settle their assignments at once
        last = n + 1 == len(self.hits)
        if last:
            self.settle(used, count, lost, lead if n else -1)
        else:
            self.walk(n + 1, used, count, lost, after, lead if n else -1)
        costs = self.cover[n]
        for j in range(len(costs)):
            if used & self.twins[j]:
                continue
            if last:
                self.settle(used | 1 << j, count + 1, hurt + costs[j], lead if n else j)
            else:
                self.walk(n + 1, used | 1 << j, count + 1, hurt + costs[j], taken, lead if n else j)

    def settle(self, used: int, count: int, hurt: float, lead: int) -> None:
        """The assignment of every attack: kept if it is the cheapest so far."""
        # the kills of the characters left ready (``_fight`` reckons them alike)
        gain = self.gains.get(used)
        if gain is None:
            power = 0
            for k, strength in enumerate(self.strengths):
                if not used & self.reach[k]:
                    power += strength
            free_progress = any(not used & reach for reach in self.herald_reach)
            gain = 0.0
            for need, extra in self.needs:
                if power >= need:
                    power -= need
                    gain += KILL + extra + (PROGRESS_ON_KILL if free_progress else 0.0)
            self.gains[used] = gain
        cost = hurt - gain
        # on equal prices more defenders, and the attack at hand defended
        if (
            not self.found
            or cost < self.best
            or (cost == self.best and (count > self.most or (count == self.most and lead >= 0 > self.lead)))
        ):
            self.found, self.best, self.most, self.lead = True, cost, count, lead
