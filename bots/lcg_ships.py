"""The greedy LCG player's rules for The Hunt for the Dreadnaught's ships.

A player whose ship-objectives are all destroyed is eliminated (domain/lcg/cards/
hunt_for_the_dreadnaught.py, "no-ship"), and only a ship defends against a ship-enemy: an
undefended ship-enemy attack is dealt to the ship (domain/lcg/rules/ships.py). So the bot
takes the sturdiest ship, keeps damage it chooses off its ship while a character can take
it and live, and pays threat rather than let more Corsairs board while its threat is low.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Final

import msgspec

from bots.lcg_encounter import composition, stand_in
from bots.lcg_plans import sphere_pool
from domain.kernel.decisions import Choice, Decision, Option
from projections.lcg import CardView, PlayerView, TableView

FLEET_ORDER: Final = (
    "Twilight's Call",
    "Pride of Lebennin",
    "Swan Ship of Dol Amroth",
    "Silent Mist",
    "Golden Wing",
    "Eithiliant",
)
"""The Basic ships, best first for the ready-made decks: the ship's defense and hit points
are the player's life (thftd-006..011). Twilight's Call (4 defense, 18 hit points, the first
card each round without a resource match) before Pride of Lebennin (5 defense, 16 hit points,
+1 defense to each hero): paired by seed on the greedy Dreadnaught row, Pride of Lebennin
first -> Twilight's Call first won dev 112401-114800 221 -> 232 of 2,400 (210 gained, 199
lost), held-out 114801-117200 222 -> 241 (213/194), third 117201-119600 230 -> 235
(209/204), and 122001-124400, which no run had used, 223 -> 237; with Golden Wing first
(3 threat off, 3 defense) dev fell to 183."""
THREAT_BEFORE_BOARDING: Final = 46
"""Up to this threat an engaging ship's "raise your threat or it gains Boarding 1" is paid
in threat (War Galley's 4, Corsair Skiff's 3, Out of the Mist's shadow 4 against an attack
again): one more Corsair engaged costs a defender and a wound every round it lives, the
threat only brings the 50 nearer. Swept on the greedy Dreadnaught row's dev seeds
112401-114800 (compiled figures equal, pure run), paired against 40: 36 won 205 -> 182 of
2,400, 44 -> 218, 46 -> 221 (25 gained, 9 lost), 47 -> 220; at 46, held-out 114801-117200 218 -> 222,
third 117201-119600 228 -> 230, and a fourth range no run had used, 119601-122000, 250 -> 245
(901 -> 918 of 9,600 in all)."""


def is_ship(card: CardView) -> bool:
    """A ship-objective the players control (it defends only against ship-enemies)."""
    return card.type != "enemy" and "Ship" in card.traits


def fleet(decision: Decision, view: TableView) -> Choice | None:
    """Preparing the fleet: the first ship of ``FLEET_ORDER`` offered."""
    names = {c.uid: c.name for c in view.offered}
    ranked = [o for name in FLEET_ORDER for o in decision.options if o.card is not None and names.get(o.card) == name]
    return (ranked[0].id,) if ranked else None


def threat_or_boarding(decision: Decision, view: TableView) -> Choice | None:
    """Raise the threat while it stays low; else let the ship gain Boarding 1 (or, Out of
    the Mist's shadow, thftd-043, let the enemy attack again)."""
    ids = {o.id for o in decision.options}
    other = next((i for i in ("boarding", "again") if i in ids), None)
    if "threat" not in ids or other is None:
        return None
    me = next(p for p in view.players if p.seat == decision.seat)
    raise_by = next((int(w) for o in decision.options if o.id == "threat" for w in o.label.split() if w.isdigit()), 4)
    if other == "again" and me.threat + raise_by < THREAT_LIMIT and _sinks(view, me):
        return ("threat",)
    return ("threat",) if me.threat + raise_by <= THREAT_BEFORE_BOARDING else (other,)


def _sinks(view: TableView, me: PlayerView) -> bool:
    """Whether Out of the Mist's second attack (thftd-043) may destroy the player's last
    ship: its attacker is a ship-enemy, and the ship's hit points left do not cover the
    attack twice (the first defended or not, the second on an exhausted ship)."""
    attacker = next(
        (e for e in [*me.engaged, *view.staging] if any(c.name == "Out of the Mist" for c in e.shadows)), None
    )
    if attacker is None or not _ship_enemy(attacker):
        return False
    left = max((((c.hit_points or 0) - c.damage) for c in me.allies if is_ship(c)), default=0)
    return left <= 2 * ((attacker.attack or 0) + 1)


WARSHIP_STAGE: Final = "Destroy the Dreadnaught"
"""Stage 2 (thftd-005): its Action removes 5 progress per player to shuffle a set-aside
Gondorian Warship into the encounter deck: a second ship (losing the last one eliminates
the player) with 5 attack, whose shadow deals 5 damage to the attacking enemy (thftd-012).
The stage prints no quest points, so its progress buys nothing else. (The heroes and allies
attack the Dreadnaught too: see ``dreadnaught_attackers``.)"""


def warship(card: CardView) -> bool:
    """Whether an Action of ``card`` is the stage's: always taken when offered."""
    return card.type == "quest" and card.name == WARSHIP_STAGE


CANCEL_COST: Final = 4
"""Destroy the Dreadnaught (thftd-005): "raise your threat by 4 to cancel that attack"."""
THREAT_LIMIT: Final = 50
"""A player at this threat is eliminated (Core Set rulebook)."""


def cancel_dreadnaught(decision: Decision, view: TableView) -> Choice | None:
    """Pay 4 threat to cancel the Dreadnaught's attack when no ready ship can take it for at
    most 3 damage (a shadow card's point counted), or when the ship's hit points are the
    scarcer of the player's two lives: the damage is a larger share of what the ship has left
    than 4 threat is of what the threat has left before 50 (the Dreadnaught attacks every
    round, and a ship lost, like a threat of 50, eliminates the player). Never when the
    threat would come within a point of elimination."""
    ids = {o.id for o in decision.options}
    if not {"yes", "no"} <= ids:
        return None
    me = next(p for p in view.players if p.seat == decision.seat)
    dreadnaught = next((e for e in [*me.engaged, *view.staging] if e.name == "Dreadnaught"), None)
    attack = (dreadnaught.attack or 0) if dreadnaught else 7
    if me.threat + CANCEL_COST >= THREAT_LIMIT - 1:
        return ("no",)
    ready = [c for c in me.allies if is_ship(c) and not c.exhausted]
    taken = min((max(0, attack + 1 - (c.defense or 0)) for c in ready), default=attack + 1)
    left = min((((c.hit_points or 0) - c.damage) for c in ready), default=0)
    scarcer = taken * (THREAT_LIMIT - me.threat) > CANCEL_COST * left
    return ("no",) if ready and taken <= 3 and taken < left and not scarcer else ("yes",)


DREADNAUGHT: Final = "Dreadnaught"
DAMAGE_CAP: Final = 5
"""The Dreadnaught (thftd-013): "No more than 5 damage per player can be placed on the
Dreadnaught each round"; damage beyond it is lost."""


def dreadnaught_attackers(enemy: CardView, ready: list[CardView], players: int = 1) -> list[CardView] | None:
    """The attackers sent at the Dreadnaught, or None for any other enemy.

    Attackers strike together, their attack summed before its defense is taken off (Core
    Set rulebook, "Attacking an enemy"); a ship-enemy is an enemy for all purposes but
    defending (The Hunt for the Dreadnaught rulebook, Ship-Enemies), so every character may
    attack it: the fewest attackers whose sum puts the round's 5 damage on it, else every
    attacker whose sum gets through its defense at all (its damage stays on it); but never
    the damage that flips its Elite side with more than ``FLIP_LEFT`` left (``_held_short``)."""
    if enemy.name != DREADNAUGHT or enemy.type != "enemy":
        return None
    held = _held_short(enemy, ready, players)
    if held is not None:
        return held
    defense = enemy.defense or 0
    left = (enemy.hit_points or 0) - enemy.damage - enemy.other_groups
    want = defense + min(DAMAGE_CAP * players, left)
    strongest = sorted((c for c in ready if c.attack), key=lambda c: -(c.attack or 0))
    if sum(c.attack or 0 for c in strongest) <= defense:
        return []
    chosen: list[CardView] = []
    for card in strongest:
        if sum(c.attack or 0 for c in chosen) >= want:
            break
        chosen.append(card)
    for card in sorted(chosen, key=lambda c: c.attack or 0):
        if sum(c.attack or 0 for c in chosen) - (card.attack or 0) >= want:
            chosen.remove(card)
    return chosen


FLIP_LEFT: Final = 6
"""The most hit points per player the Dreadnaught's Elite side is let flip with (thftd-013:
at the end of the round it has fewer than half its 15 left): a round whose damage would flip
it with more left puts on it only what keeps it unflipped, so that it flips the round after
with a round's 5 or fewer left; with more, its Damaged side needs two rounds of attacks once
its guard is dead, the guard and the Massive Dreadnaught attacking all the while. Paired
against main (compiled) on the greedy Dreadnaught row: dev 112401-114800 221 -> 228 (5 lost,
12 gained), held-out 114801-117200 222 -> 230 (11, 19), third 117201-119600 230 -> 237 (7,
14), fresh 122001-124400 223 -> 238 (8, 23); 5 (held at 6 or 7 left): dev 228 (14, 21); 3
(always flipped at 12 damage): dev 196 (122, 97)."""


def damage_to_flip(dreadnaught: CardView) -> int:
    """The damage that flips the Dreadnaught's Elite side at the end of the round (thftd-013:
    when it has fewer than half its starting hit points left): its hit points left less the
    most it keeps unflipped; 0 once it is on its Damaged side (Massive)."""
    if "Massive" in dreadnaught.keywords:
        return 0
    hit_points = dreadnaught.hit_points or 0
    return hit_points - dreadnaught.damage - dreadnaught.other_groups - (hit_points - 1) // 2


def _held_short(enemy: CardView, ready: list[CardView], players: int) -> list[CardView] | None:
    """The attackers sent at the Dreadnaught's Elite side when the round's damage would flip it
    with more than ``FLIP_LEFT`` hit points per player left: the subset whose summed attack
    puts the most damage on it that leaves it unflipped, the fewest of them for it (none when
    it can take no more unflipped); None when the round's damage may go on it."""
    flip = damage_to_flip(enemy)
    if flip <= 0:
        return None
    defense = enemy.defense or 0
    left = (enemy.hit_points or 0) - enemy.damage - enemy.other_groups
    dealt = max(0, min(DAMAGE_CAP * players, left, sum(c.attack or 0 for c in ready) - defense))
    if dealt == 0 or dealt < flip or left - dealt <= FLIP_LEFT * players:
        return None
    room = flip - 1
    able = [c for c in ready if c.attack]
    best: list[CardView] = []
    best_key = (0, 0)
    for size in range(1, len(able) + 1):
        for group in itertools.combinations(able, size):
            total = sum(c.attack or 0 for c in group)
            if defense < total <= defense + room and (total, -size) > best_key:
                best, best_key = list(group), (total, -size)
    return best


def kept_for_dreadnaught(enemy: CardView, view: TableView, me: PlayerView) -> list[CardView]:
    """The ready characters held back from attacking ``enemy`` for the Dreadnaught's turn.

    The greedy bot picks the Dreadnaught as its first target (``GreedyBot._attack_target``);
    this keeps its attackers when an attack on a smaller enemy is asked first all the same
    (the target chosen by someone else, a position set up at that attack). Its destruction
    wins the game and each round it lives
    attacks the ship again (or costs 4 threat to cancel), so the attackers that put the
    round's damage on it (``dreadnaught_attackers``) are kept for it whenever the player may
    attack it this round (no guard engaged, ``DREADNAUGHT_GUARDS``): engaged with the
    player, or Massive in the staging area (engaged with each player)."""
    target = attackable_dreadnaught(view, me)
    if enemy.name == DREADNAUGHT or target is None:
        return []
    ready = [c for c in [*me.heroes, *me.allies] if not c.exhausted and (c.attack or 0) > 0]
    return dreadnaught_attackers(target, ready) or []


def attackable_dreadnaught(view: TableView, me: PlayerView) -> CardView | None:
    """The Dreadnaught the seat may attack this round: engaged with it, or Massive in the
    staging area (engaged with each player, thftd-013), while no guard is engaged with it
    (``DREADNAUGHT_GUARDS``); None otherwise."""
    if any(e.name in DREADNAUGHT_GUARDS for e in me.engaged):
        return None
    massive = [e for e in view.staging if e.name == DREADNAUGHT and "Massive" in e.keywords]
    return next((e for e in [*me.engaged, *massive] if e.name == DREADNAUGHT and e.type == "enemy"), None)


def wound_ship(enemy: CardView, ready: list[CardView]) -> list[CardView] | None:
    """Every ready attacker at a ship-enemy that cannot be destroyed this round, when their
    summed attack gets through its defense (None for any other enemy): only a ship defends
    against its attack, so each round it lives costs the ship hit points, and the damage
    stays on it for the next round's attack."""
    if enemy.type != "enemy" or "Ship" not in enemy.traits:
        return None
    return ready if sum(c.attack or 0 for c in ready) > (enemy.defense or 0) else None


TEN_DAMAGE_WORTH: Final = 9
"""The setup card's once-a-game 10 damage (Easy and Standard Mode, B, thftd-001/002) is
spent on an engaged non-unique ship-enemy whose hit points left and defense add up to this
much (an attack of 9 or more to kill it: the Skirmisher, the War Galley, the Slave Ship, the
Ramming Ship, the Black Sails, the Corsair Warship), or one hitting as hard as
``TEN_DAMAGE_ATTACK``: a ship-enemy's attack falls on the ship, whatever allies are ready.
A Corsair Skiff (2 attack, 2 defense, 5 hit points) is left to the characters."""
TEN_DAMAGE_ATTACK: Final = 6


def ten_damage(card: CardView, option: Option, me: PlayerView) -> bool:
    """Whether to use the setup card's Quest Action now (see ``TEN_DAMAGE_WORTH``)."""
    if card.type != "setup" or "10 damage" not in option.label:
        return False
    return any(_ten_damage_target(e) for e in me.engaged)


def _ten_damage_target(enemy: CardView) -> bool:
    left = (enemy.hit_points or 0) - enemy.damage
    ship = enemy.type == "enemy" and "Ship" in enemy.traits
    tough = left + (enemy.defense or 0) >= TEN_DAMAGE_WORTH or (enemy.attack or 0) >= TEN_DAMAGE_ATTACK
    return ship and enemy.name != DREADNAUGHT and tough


def ten_damage_target(decision: Decision, view: TableView) -> Choice | None:
    """The engaged enemy the 10 damage goes to: the ship-enemy hitting hardest, then the one
    with the most hit points left (10 damage destroys every non-unique enemy)."""
    me = next(p for p in view.players if p.seat == decision.seat)
    engaged = {e.uid: e for p in view.players for e in p.engaged}
    offered = [engaged[o.card] for o in decision.options if o.card in engaged]
    if not offered:
        return None
    mine = {e.uid for e in me.engaged}

    def key(e: CardView) -> tuple[bool, bool, int, int]:
        return (e.uid in mine, "Ship" in e.traits, e.attack or 0, (e.hit_points or 0) - e.damage)

    return (str(max(offered, key=key).uid),)


LEAKS: Final = frozenset({"Taking on Water", "Grappled!"})
"""Conditions on a ship discarded by exhausting 3 characters (thftd-042, thftd-045): Taking
on Water deals the ship 2 damage each time it exhausts (to quest, defend or attack),
Grappled! keeps it from readying."""


BAIL_WINDOWS: Final = ("lcg.combat.window", "lcg.planning.window")


def bail_out(card: CardView, decision: Decision) -> bool:
    """Discard a condition of ``LEAKS`` in the combat phase's last window (the characters
    still ready then have nothing left to do this round and ready again in the refresh
    phase, so the 3 exhausted cost nothing), else in the planning phase, before the quest:
    three of the least useful characters miss one quest, the ship would pay every round."""
    return card.name in LEAKS and decision.rule in BAIL_WINDOWS


def _ship_enemy(card: CardView) -> bool:
    return card.type == "enemy" and "Ship" in card.traits


def ship_kept(enemy: CardView, candidates: list[CardView], view: TableView, me: PlayerView) -> bool:
    """Whether the ship stays back from defending against ``enemy``, a non-ship enemy it may
    defend against (Sea Monster, thftd-033): a ship-enemy engaged with the player (or the
    Massive Dreadnaught in the staging area) is still to attack, only a ship may defend
    against it, and a character other than a ship can take ``enemy``'s attack."""
    if _ship_enemy(enemy) or not any(is_ship(c) for c in candidates):
        return False
    if not any(not is_ship(c) for c in candidates):
        return False
    massive = [e for e in view.staging if _ship_enemy(e) and "Massive" in e.keywords]
    return any(_ship_enemy(e) for e in [*me.engaged, *massive])


DRAW_TAX: Final = "Tolfalas Landing"
"""While in the staging area: a player drawing N cards by a player card effect raises their
threat by N (thftd-038), each copy on its own."""


def draw_worth(view: TableView, cards: int) -> bool:
    """Whether drawing ``cards`` by a player card effect is worth what Tolfalas Landing in
    the staging area takes for it: never a threat point a card. The threat is this
    scenario's clock (each point nearer the 50 that eliminates the player, and the Corsairs
    in the staging area engage as it rises), and Gandalf, the draw's other use here, lowers
    it by 5 instead (a studied game: his 3 cards under two Tolfalas Landings cost 6 threat
    in the second round)."""
    return cards == 0 or not any(c.name == DRAW_TAX for c in view.staging)


def dreadnaught_gain(me: PlayerView, bonus: int) -> int:
    """The damage more the ready characters put on the engaged Dreadnaught this round when
    each gets ``bonus`` attack (For Gondor!): their attacks are summed against its defense,
    up to the round's 5 (``DAMAGE_CAP``) and its hit points left."""
    target = next((e for e in me.engaged if e.name == DREADNAUGHT and e.type == "enemy"), None)
    if target is None:
        return 0
    ready = [c for c in [*me.heroes, *me.allies] if not c.exhausted and (c.attack or 0) > 0]
    power = sum(c.attack or 0 for c in ready)
    cap = min(DAMAGE_CAP, (target.hit_points or 0) - target.damage - target.other_groups)

    def dealt(total: int) -> int:
        return max(0, min(cap, total - (target.defense or 0)))

    return dealt(power + bonus * len(ready)) - dealt(power)


CAPPED_STAGES: Final = frozenset({"Searching the High Seas", WARSHIP_STAGE})
PROGRESS_CAP: Final = 5
"""Both stages take at most 5 progress per player each round (thftd-004, thftd-005)."""


def useful_progress(view: TableView) -> float | None:
    """The most progress this round's quest can use at a capped stage: the active
    location's quest points left (it takes progress first), then the stage's round cap, or
    what stage 1B still lacks if less. Willpower committed beyond it only exhausts the ship
    or the characters the combat wants; None at any other stage."""
    quest = view.quest
    if quest is None or quest.name not in CAPPED_STAGES:
        return None
    players = max(1, sum(1 for p in view.players if not p.eliminated))
    stage = PROGRESS_CAP * players
    if quest.quest_points:
        stage = min(stage, max(0, quest.quest_points - quest.progress - quest.other_groups))
    active = view.active_location
    before = max(0, (active.quest_points or 0) - active.progress) if active is not None else 0
    return float(before + stage)


DREADNAUGHT_GUARDS: Final = frozenset(
    {
        "Captain of the Haven",
        "Commander of the Dreadnaught",
        "Descendant of Castamir",
        "Hydraken",
        "Ophidian",
        "Varjax",
        "Umbar Captain",
    }
)
"""Enemies whose engaged player may not attack the Dreadnaught: the six unique Corsairs its
flip brings (thftd-014..019), and Umbar Captain, which forbids attacking any ship-enemy
(thftd-025)."""


def guards_dreadnaught(enemy: CardView, view: TableView) -> bool:
    """Whether ``enemy`` keeps its player from attacking the Dreadnaught in play: each round
    it lives the Dreadnaught, whose destruction wins, takes no damage; so every attack that
    gets through its defense is made at it, its damage staying for the next round, before
    any smaller enemy is killed."""
    if enemy.name not in DREADNAUGHT_GUARDS:
        return False
    return any(e.name == DREADNAUGHT for p in view.players for e in p.engaged) or any(
        e.name == DREADNAUGHT for e in view.staging
    )


def guard_keepers(me: PlayerView, view: TableView, candidates: list[CardView], strict: bool = False) -> list[CardView]:
    """The defenders that leave the seat's ready characters enough attack to kill a guard of
    the Dreadnaught engaged with it this round (``guards_dreadnaught``: its hit points left
    and its defense; a ship never attacks it, ships attack only ship-enemies, The Hunt for the
    Dreadnaught rulebook; Ophidian takes one attacker alone, thftd-018): each round the guard
    lives, "The engaged player cannot attack the Dreadnaught" (thftd-014..019), and the guard
    attacks again. Every candidate when no such kill is on, or when every candidate would
    spoil it (``strict``: none then, and the greedy bot leaves the attack undefended when a
    hero lives through it). Paired against main (compiled) on the greedy Dreadnaught row,
    with ``dreadnaught_keepers``: dev 112401-114800 240 -> 250 of 2,400 (1 lost, 11 gained),
    held-out 114801-117200 252 -> 263 (3, 14), third 117201-119600 251 -> 261 (1, 11), fresh
    131601-134000 240 -> 253 (4, 17); Mirkwood, The Lonely Mountain and the Anduin, seeds
    1-200, game for game the same. Without the undefended attack, dev 247; the keeping alone
    (neither that nor ``dreadnaught_keepers``) 246, 258, 257 (+18, short of the bar)."""
    ready = _ready_attackers(me)
    for guard in me.engaged:
        if not guards_dreadnaught(guard, view):
            continue
        need = (guard.hit_points or 0) - guard.damage - guard.other_groups + (guard.defense or 0)
        one = guard.name == ONE_ATTACKER
        if _guard_power(ready, None, one) >= need:
            kept = [c for c in candidates if _guard_power(ready, c, one) >= need]
            return kept if strict else kept or candidates
    return candidates


def _ready_attackers(me: PlayerView) -> list[CardView]:
    """The seat's ready characters with attack that are not ships (a ship-objective attacks
    only ship-enemies, The Hunt for the Dreadnaught rulebook)."""
    return [c for c in [*me.heroes, *me.allies] if not c.exhausted and not is_ship(c) and (c.attack or 0) > 0]


def _guard_power(ready: list[CardView], without: CardView | None, one: bool) -> int:
    """The attack ``ready`` puts on a guard without ``without``: the hardest hitter alone at Ophidian."""
    hits = [c.attack or 0 for c in ready if without is None or c.uid != without.uid]
    return max(hits, default=0) if one else sum(hits)


def dreadnaught_keepers(me: PlayerView, view: TableView, candidates: list[CardView]) -> list[CardView]:
    """The defenders that leave the seat's ready characters enough attack to destroy the
    Dreadnaught this round (``dreadnaught_attackers``: its hit points left within the round's
    ``DAMAGE_CAP``, thftd-013: "Cannot take more than 5 damage per player each round"), when
    the player may attack it (no guard engaged, ``DREADNAUGHT_GUARDS``): its destruction
    wins the game. A ship always may defend (only a ship defends against a ship-enemy).
    Every candidate when no such kill is on, or when every candidate would spoil
    it. Measured with ``guard_keepers`` (see there): beside it on the dev range, 246 -> 247;
    beside it and the undefended guard attack, 249 -> 250."""
    target = attackable_dreadnaught(view, me)
    if target is None:
        return candidates
    ready = _ready_attackers(me)
    full = _dealt(target, ready)
    if full == 0 or full < (target.hit_points or 0) - target.damage - target.other_groups:
        return candidates
    kept = [c for c in candidates if is_ship(c) or _dealt(target, [r for r in ready if r.uid != c.uid]) >= full]
    return kept or candidates


def _dealt(target: CardView, ready: list[CardView]) -> int:
    """The damage ``dreadnaught_attackers`` of ``ready`` put on the Dreadnaught this round."""
    chosen = dreadnaught_attackers(target, ready) or []
    left = (target.hit_points or 0) - target.damage - target.other_groups
    return max(0, min(DAMAGE_CAP, left, sum(c.attack or 0 for c in chosen) - (target.defense or 0)))


ONE_ATTACKER: Final = "Ophidian"
"""The guard no more than 1 character can attack each round (thftd-018: "No more than 1
character can attack Ophidian each round"): the quest plan prices its kill only when a single
ready character's attack gets through its defense for its hit points (bots/lcg_quest.py), and
``guard_keepers`` counts its one hardest hitter."""


SEARCHING: Final = "Searching the High Seas"
DREADNAUGHT_STAND_IN: Final = CardView(
    uid=-13,
    code="thftd-013",
    name=DREADNAUGHT,
    type="enemy",
    attack=7,
    defense=4,
    hit_points=15,
    traits=("Elite", "Corsair", "Ship"),
)
"""The set-aside Dreadnaught, Elite side (thftd-013: 7 attack, 4 defense, 15 hit points per
player), as the quest plan meets it before it is in play."""


def arriving(view: TableView) -> tuple[tuple[CardView, ...], float]:
    """The enemies a quest this round may bring, and the progress that brings them: at
    Searching the High Seas (thftd-004, advancing at the end of the quest phase) when this
    round's quest can complete it, the Dreadnaught, which stage 2's When Revealed adds to the
    staging area (thftd-005) and which engages in the encounter phase (no engagement cost)
    and attacks the ship this round; only a ship defends against it, and a ship that quested
    is exhausted."""
    quest = view.quest
    if quest is None or quest.name != SEARCHING or not quest.quest_points:
        return (), float("inf")
    players = max(1, sum(1 for p in view.players if not p.eliminated))
    left = max(0, quest.quest_points - quest.progress - quest.other_groups)
    if left > PROGRESS_CAP * players:
        return (), float("inf")
    active = view.active_location
    before = max(0, (active.quest_points or 0) - active.progress) if active is not None else 0
    hit_points = (DREADNAUGHT_STAND_IN.hit_points or 0) * players
    return (msgspec.structs.replace(DREADNAUGHT_STAND_IN, hit_points=hit_points),), float(before + left)


SHIP_ENEMY_REACH: Final = 1
"""A ship-enemy is kept out of engagement by a threat cut (Gandalf's 5, core-073) when its
engagement cost is at most this far above the threat: the refresh phase's point, or a failed
quest's, takes the threat there. Counted for the ship-enemies in the staging area and those
still in the encounter deck (a revealed one engages at once when the threat reaches its
cost): the greedy Dreadnaught row (deck ``leadership``), paired by seed, won 41 -> 45 of
800 on the dev seeds 27401-28200 (4 gained, 0 lost), 44 -> 46 on 28201-29000 (5 gained, 3
lost), 41 -> 43 on 29001-29800 (3 gained, 1 lost); counting only the staged ones, 41 -> 41
on the dev seeds (Gandalf's mode changed in 10 games)."""


def keeps_ship_enemy_away(view: TableView, me: PlayerView, off: int) -> bool:
    """Whether taking ``off`` threat now brings the threat under the engagement cost of a
    ship-enemy, in the staging area or still in the encounter deck, that the threat reaches
    or nearly reaches (``SHIP_ENEMY_REACH``): only a ship defends against a ship-enemy, and
    its undefended attack is dealt to the ship (The Hunt for the Dreadnaught rulebook,
    Ship-Enemies); waiting in the staging area, it attacks nothing. Never in a scenario
    without ship-enemies."""
    left: Counter[str] = composition(view) or Counter()
    unseen = [stand_in(code) for code, n in left.items() if n > 0]
    return any(
        _ship_enemy(e)
        and e.name != DREADNAUGHT
        and e.engagement_cost is not None
        and me.threat - off < e.engagement_cost <= me.threat + SHIP_ENEMY_REACH
        for e in [*view.staging, *unseen]
    )


RAMMING_SHIP: Final = "Ramming Ship"
RAMMING_BONUS: Final = 4
"""Ramming Ship (thftd-030): "Forced: After Ramming Ship engages you, it gets +4 Attack until
the end of the round": the round it engages it attacks with 8, not its printed 4 (the largest
source of ship damage at stage 1, ``python -m tools.dread_stats``)."""
BOARDER: Final = "thftd-023"
"""The Corsair a Boarding keyword brings, as the quest plan meets it before it is revealed
from the face-down Corsair deck: Fierce Marauder (3 attack, 2 defense, 3 hit points), the
deck's common profile (9 of its 13 cards attack for 3; thftd-020..025)."""
UNKILLED: Final = 99
"""The hit points the quest plan gives a Boarding Corsair (``BOARDER``): its attack priced,
its kill never counted. The face-down Corsair deck hides which Corsair comes (1 to 5 hit
points, 1 to 4 defense), and a stand-in killed for ``KILL`` (bots/lcg_quest.py) kept every
hero back from the quest at a staged War Galley. Paired seed by seed (compiled,
ships-leadership, with the Snowbourn Scout chooser and Ramming Ship's +4), against main:
dev 97801-100200 224 -> 247 (77 gained, 54 lost), held-out 100201-102600 192 -> 198 (64/58),
third 102601-105000 216 -> 225 (65/56): +38; with the stand-in's own 3 hit points (its
kill counted) 237, 199, 213: +17."""
COBAS_HAVEN: Final = "Cobas Haven"
"""While Cobas Haven is the active location, each ship-enemy's Boarding value is 1 less (thftd-035)."""


def _boarding(enemy: CardView, view: TableView) -> int:
    """``enemy``'s Boarding value as it engages now (thftd rulebook, Boarding X)."""
    printed = 0
    for keyword in enemy.keywords:
        name, _, x = keyword.rpartition(" ")
        if name == "Boarding" and x.isdigit():
            printed += int(x)
    active = view.active_location
    if printed and active is not None and active.name == COBAS_HAVEN:
        printed -= 1
    return max(0, printed)


def engaging(enemy: CardView, view: TableView) -> tuple[CardView, ...]:
    """What attacks the seat this round when ``enemy`` engages it from the staging area this
    round (a revealed enemy its threat reaches, a staged one the engagement checks bring):
    the enemy itself, a Ramming Ship at its +4 (``RAMMING_BONUS``), and for a ship-enemy's
    Boarding X (The Hunt for the Dreadnaught rulebook, Boarding: "after a ship-enemy with the
    Boarding keyword engages a player from the staging area, reveal the top X cards from the
    Corsair deck and put the revealed enemies into play, engaged with that player") X
    Corsairs (``BOARDER``), which attack this round and which only a character defends."""
    if not _ship_enemy(enemy):
        return (enemy,)
    first = enemy
    if enemy.name == RAMMING_SHIP:
        first = msgspec.structs.replace(enemy, attack=(enemy.attack or 0) + RAMMING_BONUS)
    boarders = _boarding(enemy, view)
    corsairs = [
        msgspec.structs.replace(stand_in(BOARDER, -200 - 10 * abs(enemy.uid) - k), hit_points=UNKILLED)
        for k in range(boarders)
    ]
    return (first, *corsairs)


TWILIGHTS_CALL: Final = "Twilight's Call"
TWILIGHT_RULE: Final = "thftd-011.action"
"""Twilight's Call's Action (thftd-011: "Action: Play an ally or attachment from your hand.
(Limit once per round.)"): the card it plays from hand (then an attachment's target)."""
TWILIGHT_WINDOWS: Final = frozenset({"lcg.combat.window.shadows", "lcg.combat.window.enemy-attacks"})
"""The action windows where Twilight's Call's Action plays an ally from hand while an enemy
is engaged with the player: before the enemies attack (their shadow cards dealt: a fresh
defender or chump), else before the player attacks (a fresh attacker). The resources are
those the planning step left, with Théodred's added at the quest (core-002: "add 1 resource
to that hero's resource pool"), which otherwise waited for the next planning. Paired by seed
against main (compiled) on the greedy Dreadnaught row: dev 112401-114800 240 -> 256 of
2,400 (10 lost, 26 gained), held-out 114801-117200 252 -> 264 (14, 26), third
117201-119600 251 -> 256 (16, 21), fresh 131601-134000 240 -> 250 (19, 29); Mirkwood,
Lonely Mountain, Anduin 1-200 unchanged. Only before the enemies attack: dev 250,
held-out 260, third 251; also with no enemy engaged (before their attacks, else at the
combat phase's last window): dev 269, held-out 247, third 234."""


def twilight_ally(me: PlayerView) -> CardView | None:
    """The ally in hand Twilight's Call's Action plays now: the dearest the heroes' pools of
    its sphere pay for (then the most defense, attack and hit points), None when none."""
    allies = [c for c in me.hand or [] if c.type == "ally" and (c.cost or 0) <= sphere_pool(me, c.sphere)]
    return max(
        allies, key=lambda c: (c.cost or 0, (c.defense or 0) + (c.attack or 0) + (c.hit_points or 0)), default=None
    )


def twilight_play(card: CardView, decision: Decision, me: PlayerView) -> bool:
    """Whether to use Twilight's Call's Action now: in ``TWILIGHT_WINDOWS`` with an enemy
    engaged with the player, when an ally in hand can be paid for."""
    if card.name != TWILIGHTS_CALL or decision.rule not in TWILIGHT_WINDOWS or not me.engaged:
        return False
    return twilight_ally(me) is not None


def twilight_choice(decision: Decision, view: TableView) -> Choice | None:
    """The ally Twilight's Call's Action plays (``twilight_ally``); None when it is not offered."""
    me = next(p for p in view.players if p.seat == decision.seat)
    ally = twilight_ally(me)
    picked = next((o for o in decision.options if ally is not None and o.card == ally.uid), None)
    return (picked.id,) if picked is not None else None
