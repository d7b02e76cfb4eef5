"""The quest plan's combat pricing (bots/lcg_quest.py ``_best_defence``) reads each card's
stats once per decision and keeps its prices for the other combats of a ``commit`` call; it
must choose as the plain reckoning below does, assignment by assignment, to the last bit of
each price: the greedy bot's games (and so the search's rollouts) hang on its ties. So must
``commit``, which prices its plans as bitmasks with each reveal's outlook and each combat
worked out once per call, against the plain reckoning of every plan card by card."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Sequence

import msgspec

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
from bots.lcg_quest import (
    EXHAUSTIVE,
    KILL,
    MUST_DIE_KILL,
    PROGRESS_ON_KILL,
    QUEST_BOOSTERS,
    STUCK,
    Round,
    Wounds,
    _arrived,
    _best_defence,
    _defended,
    _engaged_by_failure,
    _engagement_harm,
    _fight,
    _left,
    _mean_undefended,
    _quest,
    _rounds,
    _undefended,
    _weakest,
    _with,
    _wound,
    commit,
    defence,
    is_ship,
)
from projections.lcg import CardView


def _plain(
    ready: Sequence[CardView],
    attacks: Sequence[CardView],
    engaged: Sequence[CardView],
    heroes: Sequence[CardView],
    defenders: Collection[int] | None,
    limit: int,
    shadows: Sequence[Shadow],
) -> tuple[float, CardView | None] | None:
    """``_best_defence`` as it read every card's stats in every assignment."""
    ready = [c for c in ready if not is_ship(c)]
    able = [c for c in ready if defenders is None or c.uid in defenders]
    if (len(able) + 1) ** len(attacks) > limit:
        return None

    def wounded(plan: Sequence[CardView | None]) -> float:
        taken: dict[int, int] = {}
        cost = 0.0
        for enemy, card in zip(attacks, plan, strict=True):
            attack = enemy.attack or 0
            if card is not None:
                cost += _defended(card, attack, shadows)
                continue
            alive = [h for h in heroes if taken.get(h.uid, 0) < _left(h)]
            if not alive:
                return math.inf
            added = {h.uid: _undefended(h, taken.get(h.uid, 0), attack, shadows) for h in alive}
            hit = min(alive, key=lambda h: added[h.uid])
            taken[hit.uid] = taken.get(hit.uid, 0) + attack + _mean_undefended(shadows)
            cost += added[hit.uid]
        return cost

    def kills(free: list[CardView]) -> float:
        power = sum(c.attack or 0 for c in free)
        progress = any(c.name == "Legolas" or any(a.name == "Blade of Gondolin" for a in c.attachments) for c in free)
        gain = 0.0
        for enemy in sorted(engaged, key=lambda e: _left(e) + (e.defense or 0)):
            need = _left(enemy) + (enemy.defense or 0)
            if power >= need:
                power -= need
                gain += KILL + (MUST_DIE_KILL if enemy.name in MUST_DIE else 0.0)
                gain += PROGRESS_ON_KILL if progress else 0.0
        return gain

    best: tuple[float, int, bool] | None = None
    chosen: CardView | None = None
    for plan in itertools.product(*([None, *able] for _ in attacks)):
        used = {c.uid for c in plan if c is not None}
        if len(used) < sum(1 for c in plan if c is not None):
            continue
        cost = wounded(plan) - kills([c for c in ready if c.uid not in used])
        first = plan[0] if plan else None
        key = (cost, -len(used), first is None)
        if best is None or key < best:
            best, chosen = key, first
    return (best[0], chosen) if best is not None else None


def _character(rng: random.Random, uid: int, kind: str) -> CardView:
    names = ["Gimli", "Legolas", "Beravor", "Gandalf", "Snowbourn Scout"]
    blade = [CardView(uid=1000 + uid, code="core-039", name="Blade of Gondolin", type="attachment")]
    return CardView(
        uid=uid,
        code=f"x-{uid}",
        name=rng.choice(names),
        type=kind,
        damage=rng.randint(0, 3),
        attack=rng.choice([None, 0, 1, 2, 3]),
        defense=rng.choice([None, 0, 1, 2, 3]),
        hit_points=rng.choice([1, 2, 3, 4, 5]),
        cost=rng.choice([None, 1, 2, 3]),
        traits=("Ship",) if rng.random() < 0.1 else (),
        attachments=blade if rng.random() < 0.2 else [],
    )


def _enemy(rng: random.Random, uid: int) -> CardView:
    return CardView(
        uid=uid,
        code=f"e-{uid}",
        name=rng.choice(["Forest Spider", "Hill Troll", "Chieftain Ufthak"]),
        type="enemy",
        damage=rng.randint(0, 2),
        attack=rng.choice([None, 1, 2, 3, 4, 6]),
        defense=rng.choice([None, 0, 1, 2, 3]),
        hit_points=rng.choice([2, 3, 4, 6]),
    )


def test_the_combat_pricing_chooses_as_the_plain_reckoning_does() -> None:
    rng = random.Random(7)
    for _ in range(400):
        characters = [_character(rng, n, rng.choice(["hero", "ally"])) for n in range(rng.randint(0, 5))]
        heroes = [c for c in characters if c.type == "hero"] or [_character(rng, 90, "hero")]
        engaged = [_enemy(rng, 100 + n) for n in range(rng.randint(0, 3))]
        attacks = sorted(engaged, key=lambda e: -(e.attack or 0))
        shadows = rng.choice(
            [(), (Shadow(0.75), Shadow(0.25, attack=1, undefended_attack=3, undefended_threat=2, threat=1))]
        )
        defenders = None if rng.random() < 0.7 else {c.uid for c in characters if rng.random() < 0.5}
        limit = rng.choice([500, 5000])
        wounds: Wounds = {}
        # a commit call prices the same cards in several combats, its prices kept between them
        for fewer in (characters, characters[1:], characters):
            expected = _plain(fewer, attacks, engaged, heroes, defenders, limit, shadows)
            found = _best_defence(fewer, attacks, engaged, heroes, defenders, limit, shadows, wounds)
            assert found == expected
            if found is not None and expected is not None:
                assert found[1] is expected[1]
                assert math.copysign(1.0, found[0]) == math.copysign(1.0, expected[0])


def test_a_hero_near_death_is_spared_a_wound_an_ally_can_take() -> None:
    # Gimli (5 hit points, 2 damage) has quested; Eastern Crows (attack 1) attack: undefended,
    # with its shadow card's 1, they leave him 1 hit point, a dead hero at the next undefended
    # attack: the Snowbourn Scout (cost 1) is given up rather than those last points.
    gimli = CardView(
        uid=1, code="core-004", name="Gimli", type="hero", exhausted=True, damage=2, attack=2, defense=2, hit_points=5
    )
    scout = CardView(
        uid=2, code="core-016", name="Snowbourn Scout", type="ally", attack=0, defense=1, hit_points=1, cost=1
    )
    crows = CardView(uid=3, code="core-115", name="Eastern Crows", type="enemy", attack=1, defense=0, hit_points=1)
    assert defence([scout], [crows], [crows], [gimli]) is scout


def _plain_commit(
    ready: Sequence[CardView], readies: set[int], plan: Round, kept: Collection[int] = frozenset()
) -> list[CardView]:
    """``commit`` as it priced every plan card by card, each reveal's outlook and each combat
    worked out anew (the quest plan before it priced plans as bitmasks with its outlooks and
    combats numbered)."""
    booster = next((c for c in ready if c.type == "ally" and c.name in QUEST_BOOSTERS), None)
    questers = [
        c for c in ready if ((c.willpower or 0) > 0 or c.uid in readies or booster is not None) and c.uid not in kept
    ]

    def revealed(reveal: Reveal, chosen: Sequence[CardView], willpower: int, left: list[CardView], r: Round) -> float:
        harm = 0.0
        spent = [c for c in chosen if c.uid not in {c.uid for c in left}]
        if reveal.harm == EXHAUST_ONE:
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
        fight = _with(r, [reveal.enemy] if reveal.enemy is not None else [])
        threat = reveal.threat * r.reveal_share
        drawn = _engaged_by_failure(willpower, r, threat)
        combat = _with(fight, (*drawn, *_arrived(willpower, r, threat)))
        quest, engaging = _quest(willpower, r, threat), _engagement_harm(drawn, r)
        harm += engaging
        return quest + _fight(left, combat) + harm

    def round_cost(chosen: Sequence[CardView], willpower: int, left: list[CardView], r: Round) -> float:
        if not r.reveals:
            drawn = _engaged_by_failure(willpower, r, 0.0)
            fought = _fight(left, _with(r, (*drawn, *_arrived(willpower, r, 0.0))))
            return _quest(willpower, r) + fought + _engagement_harm(drawn, r)
        return sum(x.chance * revealed(x, chosen, willpower, left, r) for x in r.reveals)

    def price(chosen: Sequence[CardView]) -> float:
        uids = {c.uid for c in chosen}
        willpower = sum(c.willpower or 0 for c in chosen)
        willpower -= plan.per_quester * sum(1 for c in chosen if "Burglar" not in c.traits)
        left = [c for c in ready if c.uid not in uids or c.uid in readies]
        if booster is not None and chosen and booster.uid not in uids:
            willpower += QUEST_BOOSTERS[booster.name] * len(chosen)
            left = [c for c in left if c.uid != booster.uid]
        return min(round_cost(chosen, willpower, left, r) for r in _rounds(plan))

    if len(questers) <= EXHAUSTIVE:
        plans: list[tuple[CardView, ...]] = [
            combo for k in range(len(questers) + 1) for combo in itertools.combinations(questers, k)
        ]
        more = -1 if math.isinf(plan.useful) else 1
        best: tuple[CardView, ...] = min(plans, key=lambda p: (price(p), more * len(p)))
        return list(best)
    chosen = [c for c in questers if c.uid in readies]
    rest = sorted((c for c in questers if c.uid not in readies), key=lambda c: -(c.willpower or 0))
    for card in rest:
        if price([*chosen, card]) <= price(chosen):
            chosen.append(card)
    return chosen


def _round(rng: random.Random, characters: list[CardView]) -> Round:
    heroes = tuple(c for c in characters if c.type == "hero") or (_character(rng, 90, "hero"),)
    enemies = tuple(sorted((_enemy(rng, 100 + n) for n in range(rng.randint(0, 3))), key=lambda e: -(e.attack or 0)))
    harms = ["", "", EXHAUST_ONE, WOUND_EXHAUSTED, WOUND_QUESTER, LOSE_QUESTER, LESS_WILLPOWER, HERO_STUCK]
    reveals = tuple(
        Reveal(
            rng.choice([0.05, 0.1, 0.25]), rng.randint(0, 4), _enemy(rng, 200 + n) if rng.random() < 0.4 else None, h
        )
        for n, h in enumerate(rng.sample(harms, rng.randint(0, len(harms))))
    )
    waiting = tuple(
        msgspec.structs.replace(_enemy(rng, 300 + n), engagement_cost=rng.randint(25, 40))
        for n in range(rng.randint(0, 2))
    )
    return Round(
        threat=rng.randint(20, 45),
        staging=rng.choice([0.0, 2.0, 3.5, 6.0]),
        enemies=enemies,
        heroes=heroes,
        per_quester=rng.choice([0, 0, 1]),
        reveals=reveals,
        reveal_share=rng.choice([1.0, 0.5]),
        optional=_enemy(rng, 400) if rng.random() < 0.3 else None,
        useful=rng.choice([math.inf, 2.0, 5.0]),
        location_left=rng.choice([0, 2]),
        cancelled=rng.choice([0, 0, 1]),
        planned=rng.random() < 0.5,
        shadows=rng.choice(
            [(), (Shadow(0.75), Shadow(0.25, attack=1, undefended_attack=3, undefended_threat=2, threat=1))]
        ),
        waiting=waiting,
    )


def test_the_quest_plan_chooses_as_the_plain_reckoning_does() -> None:
    # the plans priced as bitmasks, each reveal's outlook and each combat numbered and kept
    # for the commit call, choose what pricing every plan card by card does (ties included:
    # the greedy bot's games hang on them), with a booster, Burglars, kept characters, more
    # questers than the exhaustive search takes, and every reveal harm
    rng = random.Random(11)
    for _ in range(300):
        characters = [_character(rng, n, rng.choice(["hero", "ally"])) for n in range(rng.randint(0, 11))]
        characters = [
            msgspec.structs.replace(
                c,
                willpower=rng.choice([None, 0, 1, 2, 3]),
                name="Faramir" if rng.random() < 0.05 and c.type == "ally" else c.name,
                traits=("Burglar",) if rng.random() < 0.1 else c.traits,
            )
            for c in characters
        ]
        readies = {c.uid for c in characters if rng.random() < 0.15}
        kept = {c.uid for c in characters if rng.random() < 0.1}
        plan = _round(rng, characters)
        expected = _plain_commit(characters, readies, plan, kept)
        found = commit(characters, readies, plan, kept)
        assert [c.uid for c in found] == [c.uid for c in expected]
