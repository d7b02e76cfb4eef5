"""What a search's rollouts on The Hunt for the Dreadnaught read once rather than again and
again (issues 24 and 27): a quest commit's greedy reckoning of each combat, the ships' auras,
the views of the cards no text of the game changes. Each answer is the one the plain reading
gives."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, cast
from uuid import uuid4

import msgspec

from bots.lcg_encounter import Shadow
from bots.lcg_greedy import GreedyBot
from bots.lcg_plans import MUST_DIE
from bots.lcg_quest import (
    CANCELLED_ATTACK,
    DREADNAUGHT_CAP,
    DREADNAUGHT_DAMAGE,
    DREADNAUGHT_DESTROYED,
    GUARD_KILL,
    HERO_LOST,
    KILL,
    MUST_DIE_KILL,
    ONE_ATTACKER,
    PROGRESS_ON_KILL,
    SHADOW,
    Round,
    Wounds,
    _can_defend,
    _cancel_price,
    _defended,
    _herald,
    _left,
    _mean_undefended,
    _Memo,
    _reckoned,
    _undefended_in,
    is_ship,
)
from bots.lcg_ships import DREADNAUGHT, DREADNAUGHT_GUARDS
from bots.worlds import copy_state
from domain.game import Game
from domain.kernel.events import Limit
from domain.lcg.cards import corsairs
from domain.lcg.cards import hunt_for_the_dreadnaught as hunt
from domain.lcg.lineups import lcg_options
from domain.lcg.rules import ships, table
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.lcg import CardView, play_view, view


def _plain_reckoned(
    ready: list[CardView], plan: Round, memo: _Memo | None = None, wounds: Wounds | None = None
) -> float:
    # bots/lcg_quest.py ``_reckoned`` as it read the combat for every set of characters
    if memo is None:
        memo = _Memo(plan.characters)
    if wounds is None:
        wounds = {}
    seen = id(plan.shadows)
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
                _undefended_in(wounds, h, sunk.get(h.uid, 0), attack, plan, seen, memo)
                if plan.shadows
                else memo.wound(h, sunk.get(h.uid, 0) + attack + SHADOW) - memo.wound(h, sunk.get(h.uid, 0)),
                h,
            )
            for h in hit
        ]
        undefended, target = min(prices, key=lambda p: p[0], default=(HERO_LOST, None))
        if enemy.name == DREADNAUGHT and enemy.type == "enemy":
            # Destroy the Dreadnaught's Response cancels its attack for 4 threat (thftd-005)
            cancel = _cancel_price(plan.threat, enemy, plan.characters or plan.heroes)
            if cancel < undefended:
                undefended, target = cancel, None
        best: tuple[float, CardView | None] = (undefended, None)
        for card in free:
            if not _can_defend(card, enemy):
                continue
            met = (-1, id(card), attack, seen)
            price = wounds.get(met)
            if price is None:
                price = wounds[met] = _defended(card, attack, plan.shadows, plan.characters, memo)
            if price < best[0]:
                best = (price, card)
        cost += best[0]
        if best[1] is not None:
            free.remove(best[1])
        elif on_ship and target is not None:
            sunk[target.uid] = sunk.get(target.uid, 0) + attack + _mean_undefended(plan.shadows)
    power = sum(c.attack or 0 for c in free if not is_ship(c))
    # Ophidian takes one attacker a round (thftd-018): only a single hard enough hitter kills it
    alone = max((c.attack or 0 for c in free if not is_ship(c)), default=0)
    guards = [e for e in plan.enemies if e.name in DREADNAUGHT_GUARDS]
    killed: list[CardView] = []
    dreadnaught = next((e for e in plan.enemies if e.name == DREADNAUGHT and e.type == "enemy"), None)
    if guards and dreadnaught is not None:
        # the guards are attacked first (bots/lcg_greedy.py ``_attack_target``): killed, their
        # ban on attacking the Dreadnaught is lifted for the attacks after
        need = sum(_left(e) + (e.defense or 0) for e in guards)
        if power >= need and all(alone >= _left(e) + (e.defense or 0) for e in guards if e.name == ONE_ATTACKER):
            power -= need
            cost -= (KILL + GUARD_KILL) * len(guards)
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
            if enemy.name == ONE_ATTACKER and alone < need:
                continue
            power -= need
            cost -= KILL + (MUST_DIE_KILL if enemy.name in MUST_DIE else 0.0)
            if any(_herald(c) for c in free):
                cost -= PROGRESS_ON_KILL
    return cost


def _ship(rng: random.Random, uid: int, kind: str) -> CardView:
    return CardView(
        uid=uid,
        code=f"s-{uid}",
        name=rng.choice(["Pride of Lebennin", "Gimli", "Legolas", "Gandalf"]),
        type=kind,
        damage=rng.randint(0, 3),
        attack=rng.choice([None, 0, 1, 2, 3]),
        defense=rng.choice([None, 0, 1, 2]),
        hit_points=rng.choice([1, 3, 5, 16]),
        traits=("Ship",) if kind == "ship-objective" else (),
    )


def _foe(rng: random.Random, uid: int) -> CardView:
    name = rng.choice([DREADNAUGHT, ONE_ATTACKER, "Varjax", "Corsair Raider", "Hill Troll", "Forest Spider"])
    return CardView(
        uid=uid,
        code=f"e-{uid}",
        name=name,
        type="enemy",
        damage=rng.randint(0, 3),
        attack=rng.choice([None, 1, 2, 3, 4, 6]),
        defense=rng.choice([None, 0, 1, 2]),
        hit_points=rng.choice([2, 4, 6, 30]),
        traits=("Ship",) if name == DREADNAUGHT or rng.random() < 0.4 else (),
        keywords=("Massive",) if rng.random() < 0.2 else (),
    )


def test_a_commit_reckons_each_combat_as_the_plain_reckoning_does() -> None:
    # ``_reckoned`` reads what a combat gives whoever is ready (its attacks, their targets and
    # the Dreadnaught's cancel price, the undefended prices while no ship is hurt, the guards
    # and the kills) once per commit (``_Memo.reckonings``), for the hundreds of sets of
    # characters left ready it reckons it with
    rng = random.Random(11)
    for _ in range(300):
        characters = [_ship(rng, n, rng.choice(["hero", "hero", "ally", "ship-objective"])) for n in range(7)]
        heroes = tuple(c for c in characters if c.type == "hero") or (_ship(rng, 90, "hero"),)
        fleet = tuple(c for c in characters if is_ship(c))
        enemies = tuple(sorted((_foe(rng, 100 + n) for n in range(rng.randint(0, 4))), key=lambda e: -(e.attack or 0)))
        plan = Round(
            threat=rng.randint(20, 46),
            staging=2.0,
            enemies=enemies,
            heroes=heroes,
            ships=fleet if rng.random() < 0.8 else (),
            cancelled=rng.choice([0, 0, 1]),
            shadows=rng.choice(
                [(), (Shadow(0.75), Shadow(0.25, attack=1, undefended_attack=3, undefended_threat=2, threat=1))]
            ),
            characters=tuple(characters) if rng.random() < 0.7 else (),
        )
        memo = _Memo(plan.characters)
        wounds: Wounds = {}
        for left in range(1 << len(characters)):
            ready = [c for j, c in enumerate(characters) if left >> j & 1]
            assert _reckoned(ready, plan, memo, wounds) == _plain_reckoned(ready, plan)
        assert list(memo.reckonings) == [id(plan)]


def _dreadnaught_game(decisions: int) -> Game:
    """A greedy-played two-seat Hunt for the Dreadnaught game, ``decisions`` answered."""
    game = Game.start(uuid4(), LCG, LCG.created(lcg_options("hunt-for-the-dreadnaught", 2, None, "standard"), 5))
    bots = {seat: GreedyBot(7 + n) for n, seat in enumerate(LCG.seats(game.state))}
    for _ in range(decisions):
        decision = game.state.pending
        assert decision is not None
        choice = bots[decision.seat].choose(decision, partial(view, game.state, decision.seat))
        game.answer(decision.seat, decision.id, choice)
    return game


def test_a_ships_aura_counts_the_ships_its_heroes_controller_controls() -> None:
    # the aura finds the ship among the game's cards of its code (``_controls``), where it read
    # every character's type, and reads whose hero it is asked of only once a ship of the code
    # is under a player's control: the same ships, the same bonus
    state = cast(LcgState, _dreadnaught_game(60).state)
    seats = list(state.players)
    found = 0
    for code in (hunt.EITHILIANT, hunt.GOLDEN_WING, hunt.PRIDE, hunt.TWILIGHTS_CALL):
        for seat in seats:
            plain = [u for u in ships.ship_objectives(state, seat) if state.cards[u].code == code]
            assert sorted(hunt._controls(state, code, seat)) == sorted(plain)
            found += len(plain)
    assert found >= 1
    # each aura gives what "each hero you control gets +1 (+2 Upgraded)" reads plainly
    auras = dict(zip((hunt.EITHILIANT, hunt.GOLDEN_WING, hunt.PRIDE), table.in_game(state, table.AURAS), strict=True))
    given = 0
    for code, stat in ((hunt.EITHILIANT, "willpower"), (hunt.GOLDEN_WING, "hit_points"), (hunt.PRIDE, "defense")):
        for uid in state.cards:
            seat = table.holder(state, uid)
            plain = 0
            if table.defn(state, uid).type == "hero" and seat is not None:
                plain = sum(
                    2 if state.cards[u].face == "B" else 1
                    for u in ships.ship_objectives(state, seat)
                    if state.cards[u].code == code
                )
            for which in ("willpower", "attack", "defense", "hit_points"):
                assert auras[code](state, uid, which) == (plain if which == stat else 0)
            given += plain
    assert given >= 1


def test_a_rollout_view_keeps_the_cards_no_ship_can_change() -> None:
    # the ships' auras give heroes stats, Eithiliant a hero traits, Isle of Fortune resources to
    # itself: every other card's view is kept between a rollout's views as in a game without
    # them (it was built afresh every view), and shows what the seat's own view shows
    state = cast(LcgState, _dreadnaught_game(60).state)
    seat = next(iter(state.players))
    first, again, shown = play_view(state, seat), play_view(state, seat), view(state, seat)
    mine, mine_again, own = first.players[0], again.players[0], shown.players[0]
    assert mine.hand and mine.allies and any(is_ship(c) for c in mine.allies)
    assert all(a is b for a, b in zip(mine.hand, mine_again.hand or [], strict=True))
    assert all(a is b for a, b in zip(mine.allies, mine_again.allies, strict=True))
    assert all(a is not b for a, b in zip(mine.heroes, mine_again.heroes, strict=True))
    assert mine.hand == own.hand and mine.allies == own.allies and mine.heroes == own.heroes
    assert first.staging == shown.staging and first.active_location == shown.active_location


def _plain_stat(state: LcgState, uid: int, which: str, parts: list[tuple[str, int]]) -> int:
    # domain/lcg/rules/table.py ``_stats`` as it asked every aura in the game of every stat of every card
    card = state.cards[uid]
    value = table.printed(state, uid, which)
    parts.append(("printed", value))
    for m in state.modifiers:
        if m.target == uid and m.stat == which:
            value += m.amount
            parts.append((table.modifier_source(state, m.source, uid), m.amount))
    passive = table.text_of(card.code).stat
    if passive is not None and not table.blank(state, uid):
        extra = passive(state, uid, which)
        value += extra
        if extra:
            parts.append(("its own text", extra))
    for a in table.attachments_on(state, uid):
        host = table.text_of(state.cards[a].code).host
        if host is not None and host.stat is not None:
            extra = host.stat(state, a, uid, which)
            value += extra
            if extra:
                parts.append((table.name(state, a), extra))
    for aura in table.in_game(state, table.AURAS):
        extra = aura(state, uid, which)
        value += extra
        if extra:
            parts.append(("an effect in play", extra))
    return max(value, 0)


def _plain_traits(state: LcgState, uid: int) -> tuple[str, ...]:
    # domain/lcg/rules/table.py ``traits_on`` as it asked every text giving traits of every card
    printed = table.defn(state, uid).traits
    on = table.attachments_on(state, uid)
    given = [t for aura in table.TRAIT_AURAS for t in aura(state, uid)]
    if not on and not given:
        return printed
    gained = [t for a in on for t in table._host(state, a).traits] + given
    return (*printed, *dict.fromkeys(t for t in gained if t not in printed))


def test_a_stat_asks_only_the_auras_that_may_give_it_and_counts_as_every_aura_asked() -> None:
    # each ship's aura gives one stat to heroes alone (``table.for_stat``, ``table.scoped``),
    # and Eithiliant's borrowed traits go to a hero alone: a card's stat asks an aura only of
    # a hero and of its stat, its traits only of a hero (every stat of every card asked the
    # three of them, mostly 0: ~230,000 interpreted calls in 40 search rollouts); each stat,
    # its parts and the traits are what asking every aura gives, at every point of a game
    state = cast(LcgState, _dreadnaught_game(60).state)
    auras = table.in_game(state, table.AURAS)
    assert [table.STAT_SCOPES.get(a) for a in auras] == ["willpower", "hit_points", "defense"]
    assert all(table.SCOPES.get(a) == frozenset({"hero"}) for a in auras)
    game = Game.start(uuid4(), LCG, LCG.created(lcg_options("hunt-for-the-dreadnaught", 2, None, "standard"), 9))
    bots = {seat: GreedyBot(3 + n) for n, seat in enumerate(LCG.seats(game.state))}
    checked = given = borrowed = 0
    for step in range(400):
        decision = game.state.pending
        if decision is None:
            break
        if step % 20 == 0:
            s = cast(LcgState, game.state)
            for uid in s.cards:
                for which in table.STATS:
                    plain: list[tuple[str, int]] = []
                    value = _plain_stat(s, uid, which, plain)
                    assert table.stat(s, uid, which) == value
                    assert table.stat_parts(s, uid, which) == plain
                    checked += 1
                    given += any(part == "an effect in play" for part, _ in plain)
                traits = _plain_traits(s, uid)
                assert table.traits(s, uid) == traits
                borrowed += traits != table.defn(s, uid).traits
        choice = bots[decision.seat].choose(decision, partial(view, game.state, decision.seat))
        game.answer(decision.seat, decision.id, choice)
    assert checked > 10_000 and given > 0 and borrowed > 0


def test_a_heros_stats_and_traits_ask_each_ship_aura_once() -> None:
    # a hero's four stats ask each ship aura in the game of its own stat alone, its traits
    # Eithiliant's borrowed traits once, and no other card's stats or traits ask them at all:
    # counted by putting counting auras in their places
    state = cast(LcgState, _dreadnaught_game(60).state)
    kept, kept_traits = list(table.AURAS), list(table.TRAIT_AURAS)
    asked: list[tuple[int, str]] = []
    marks = (table.NEEDS, table.SCOPES, getattr(table, "STAT_SCOPES", {}))

    def marked(hook: Any, counted: Any) -> Any:
        for marking in marks:
            if hook in marking:
                marking[counted] = marking[hook]
        return counted

    def counting(aura: table.Aura) -> table.Aura:
        def counted(s: LcgState, uid: int, which: str) -> int:
            asked.append((uid, which))
            return aura(s, uid, which)

        return cast(table.Aura, marked(aura, counted))

    def counting_traits(aura: Callable[[LcgState, int], tuple[str, ...]]) -> Callable[[LcgState, int], tuple[str, ...]]:
        def counted(s: LcgState, uid: int) -> tuple[str, ...]:
            asked.append((uid, "traits"))
            return aura(s, uid)

        return cast(Callable[[LcgState, int], tuple[str, ...]], marked(aura, counted))

    try:
        table.AURAS[:] = [counting(a) for a in kept]
        table.TRAIT_AURAS[:] = [counting_traits(a) for a in kept_traits]
        table._POOL.cards = None  # the hooks of the game read again
        heroes = [u for u in state.cards if table.defn(state, u).type == "hero"]
        others = [u for u in state.cards if table.defn(state, u).type != "hero"]
        for uid in heroes:
            on = table.attachments_on(state, uid)
            table.stats_on(state, uid, ("willpower", "attack", "defense", "hit_points"), on)
            table.traits_on(state, uid, on)
        stats = ("willpower", "hit_points", "defense", "traits")
        assert sorted(asked) == sorted((u, w) for u in heroes for w in stats)
        asked.clear()
        for uid in others:
            for which in table.STATS:
                table.stat(state, uid, which)
            table.traits(state, uid)
        assert asked == []
    finally:
        table.AURAS[:] = kept
        table.TRAIT_AURAS[:] = kept_traits
        table._POOL.cards = None
        for marking in marks:
            for hook in [h for h in marking if h not in kept and h not in kept_traits]:
                if getattr(hook, "__name__", "") == "counted":
                    del marking[hook]


def _positions() -> list[LcgState]:
    """Every 40th decision's state of a greedy-played two-seat Dreadnaught game (copies)."""
    game = Game.start(uuid4(), LCG, LCG.created(lcg_options("hunt-for-the-dreadnaught", 2, None, "standard"), 9))
    bots = {seat: GreedyBot(3 + n) for n, seat in enumerate(LCG.seats(game.state))}
    out: list[LcgState] = []
    for step in range(600):
        decision = game.state.pending
        if decision is None:
            break
        if step % 40 == 0:
            out.append(cast(LcgState, copy_state(LCG, game.state)))
        game.answer(
            decision.seat, decision.id, bots[decision.seat].choose(decision, partial(view, game.state, decision.seat))
        )
    return out


def test_a_cards_holder_is_read_by_the_compiled_rules() -> None:
    # ``table.holder`` answers ``LcgState.controller`` (an interpreted method a view asked of
    # every hero's stats under the ships' auras) without asking it
    positions = _positions()
    plain = [{uid: s.controller(uid) for uid in s.cards} for s in positions]
    assert any(seat is not None for held in plain for seat in held.values())
    with _without("controller"):
        assert [{uid: table.holder(s, uid) for uid in s.cards} for s in positions] == plain


def test_blanking_and_kept_resources_are_asked_only_of_the_cards_they_reach() -> None:
    # Overworked blanks allies alone and Isle of Fortune keeps resources on itself alone
    # (``table.scoped``): ``table.blank`` and ``table.resources_on`` ask them of no other
    # card (a view asked Isle of Fortune's of every card it built, the rules and views
    # Overworked's of every card with a passive stat or a trigger), and answer as asking
    # every one of them does, Overworked's flag raised or not
    blanking, kept = list(table.BLANKING), list(table.KEPT_RESOURCES)
    asked: list[tuple[str, int]] = []
    marks = (table.NEEDS, table.SCOPES)

    def counting(what: str, hook: Any) -> Any:
        def counted(s: LcgState, uid: int) -> Any:
            asked.append((what, uid))
            return hook(s, uid)

        for marking in marks:
            if hook in marking:
                marking[counted] = marking[hook]
        return counted

    positions = _positions()
    flagged = [msgspec.structs.replace(s, limits=[*s.limits, Limit("overworked", "round")]) for s in positions]
    states = [*positions, *flagged]
    blanks = [{u: any(b(s, u) for b in blanking) for u in s.cards} for s in states]
    resources = [{u: s.cards[u].resources + sum(k(s, u) for k in kept) for u in s.cards} for s in states]
    assert any(any(blank.values()) for blank in blanks)
    assert any(on[u] != s.cards[u].resources for on, s in zip(resources, states, strict=True) for u in s.cards)
    try:
        table.BLANKING[:] = [counting("blank", b) for b in blanking]
        table.KEPT_RESOURCES[:] = [counting("kept", k) for k in kept]
        table._POOL.cards = None
        for s, blank, on in zip(states, blanks, resources, strict=True):
            table._POOL.cards = None
            assert {u: table.blank(s, u) for u in s.cards} == blank
            assert {u: table.resources_on(s, u) for u in s.cards} == on
        assert asked
        assert all(table.defn(positions[0], u).type == "ally" for what, u in asked if what == "blank")
        assert all(positions[0].cards[u].code == corsairs.ISLE_OF_FORTUNE for what, u in asked if what == "kept")
    finally:
        table.BLANKING[:] = blanking
        table.KEPT_RESOURCES[:] = kept
        table._POOL.cards = None
        for marking in marks:
            for hook in [h for h in marking if getattr(h, "__name__", "") == "counted"]:
                del marking[hook]


def test_twilights_call_waives_the_resource_match_as_its_text_reads() -> None:
    # Twilight's Call's waiver (asked of every card a player may pay for) is read by the
    # compiled rules, without the state's interpreted methods: it is what its text reads
    # plainly, its Basic side for the first card a round (the flag not raised, then raised),
    # its Upgraded side for every card
    positions = _positions()
    states = [
        *positions,
        *(
            msgspec.structs.replace(s, limits=[*s.limits, Limit(f"played-a-card:{seat}", "round")])
            for s in positions
            for seat in s.players
        ),
    ]
    upgraded = []
    for s in positions:
        cards = dict(s.cards)
        for u in table.uids_of(s, hunt.TWILIGHTS_CALL):
            cards[u] = msgspec.structs.replace(cards[u], face="B")
        upgraded.append(msgspec.structs.replace(s, cards=cards))
    states += upgraded

    def plain(s: LcgState, seat: str) -> bool:
        ships_here = [u for u in ships.ship_objectives(s, seat) if s.cards[u].code == hunt.TWILIGHTS_CALL]
        return any(s.cards[u].face == "B" for u in ships_here) or (
            bool(ships_here) and not s.limit_used(f"played-a-card:{seat}")
        )

    expected = [{seat: plain(s, seat) for seat in s.players} for s in states]
    assert any(any(e.values()) for e in expected) and any(not all(e.values()) for e in expected)
    with _without("limit_used"):
        assert [{seat: hunt._ignores_match(s, seat) for seat in s.players} for s in states] == expected


@contextlib.contextmanager
def _without(method: str) -> Iterator[None]:
    """``LcgState``'s interpreted method ``method`` made unusable for the block: code that
    still calls it there fails, so the test shows the compiled path does without it."""
    kept = getattr(LcgState, method)
    setattr(LcgState, method, None)
    try:
        yield
    finally:
        setattr(LcgState, method, kept)
