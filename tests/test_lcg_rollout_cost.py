"""What the greedy blueprint reads once per decision rather than again and again (a search's
rollouts ask it a decision at a time, issue 27): the encounter deck of a scenario, and the
per-commit facts of the quest plan's combats. Each check is on a real Passage through
Mirkwood position, and the answers are the ones the plain reckoning gives."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from functools import partial
from typing import Any, cast
from uuid import uuid4

import msgspec
import pytest

from bots import lcg_encounter, lcg_greedy, lcg_quest
from bots.lcg_encounter import SHADOW_EFFECTS, Shadow, composition, reveals, shadow_odds
from bots.lcg_greedy import GreedyBot
from bots.worlds import searchable
from domain import build
from domain.game import Game
from domain.lcg import cards
from domain.lcg.cards import CARDS, CardDef, core_set_events
from domain.lcg.lineups import lcg_options
from domain.lcg.rules import resources
from domain.lcg.rules import table as rules_table
from domain.lcg.rules.playing_events import ACTION_EVENTS, event_actions
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import SCENARIOS, Scenario
from domain.lcg.state import Attack, LcgState
from projections import lcg_view
from projections.lcg import CardView, TableView, play_view, view
from tests.test_lcg_mirkwood_bots import MIRKWOOD, _encounter, _run
from tests.test_lcg_quest_bots import _character, _enemy, _round
from tools.fixtures import Run

pure_only = pytest.mark.skipif(build.mode() != "pure", reason="patches module functions: pure Python only")


def _position(**more: list[str]) -> LcgState:
    """Flies and Spiders at threat 33: a Forest Spider engaged, Hummerhorns in the staging
    area, Old Forest Road active, the quest to commit to; ``more``: other zones' cards (a
    zone's key with ``_`` for ``.``)."""
    zones: dict[str, Any] = {
        "quest": ["Flies and Spiders"],
        "p1.engaged": ["Forest Spider"],
        "staging": ["Hummerhorns"],
        "active": ["Old Forest Road"],
        "encounter.discard": _encounter(False)[:6],
        **{key.replace("_", "."): cards for key, cards in more.items()},
    }
    return cast(LcgState, _run(zones, threat=33).game.state)


def _plain_shadows(left: Counter[str]) -> tuple[Shadow, ...]:
    """``shadow_odds`` as it grouped the cards: a Shadow made and counted for each."""
    total = sum(left.values())
    grouped: Counter[Shadow] = Counter()
    for code, n in left.items():
        grouped[SHADOW_EFFECTS.get(code, Shadow(1.0))] += n
    return tuple(
        Shadow(n / total, s.attack, s.undefended_attack, s.threat, s.undefended_threat, s.each, s.undefended_each)
        for s, n in sorted(grouped.items(), key=lambda g: -g[1])
    )


def _plain_composition(table: TableView, deck: Counter[str]) -> Counter[str]:
    """``composition`` as it reckoned the cards left: the deck less every card the seat sees."""
    left = Counter(deck)
    seen: dict[int, str] = {}

    def mark(card: CardView) -> None:
        seen[card.uid] = card.code
        for other in (*card.attachments, *card.shadows):
            mark(other)

    for card in [*table.staging, *table.revealed, *table.encounter_discard, *table.victory, *table.set_aside]:
        mark(card)
    if table.active_location is not None:
        mark(table.active_location)
    for player in table.players:
        for card in (*player.heroes, *player.allies, *player.engaged):
            mark(card)
    left.subtract(Counter(code for code in seen.values() if code in left))
    return +left


@pure_only
def test_the_encounter_deck_is_read_once_per_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    # every registered card was read for each composition, two or three a decision
    table = view(_position(), "p1")
    deck = Counter(
        c for c in Scenario.encounter_deck(SCENARIOS[MIRKWOOD], "standard") if c not in lcg_encounter.OUTSIDE_THE_DECK
    )
    first = composition(table)
    assert first is not None

    def unread(self: Scenario, difficulty: str) -> list[str]:
        raise AssertionError("the encounter deck read again")

    monkeypatch.setattr(Scenario, "encounter_deck", unread)
    again = composition(table)
    assert again is not None
    plain = _plain_composition(table, deck)
    assert list(again.items()) == list(first.items()) == list(plain.items())
    assert sum(again.values()) < sum(deck.values())
    assert shadow_odds(table) == shadow_odds(table, again) == _plain_shadows(again)
    assert reveals(table) == reveals(table, again)


@pure_only
def test_a_commit_prices_its_planned_combats_from_what_it_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # the quest plan priced each combat by ``_best_defence``, which read the characters'
    # stats, the heroes' hit points and the kill needs again for each of a few hundred
    # combats a commit; the commit's own reckoning of them chooses the same
    state = _position()
    decision = state.pending
    assert decision is not None and decision.rule == "lcg.quest.commit"
    expected = GreedyBot(1).choose(decision, partial(view, state, decision.seat))
    calls: list[int] = []
    plain = lcg_quest._best_defence
    wounds: Counter[tuple[int, int]] = Counter()
    wound = lcg_quest._wound

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return plain(*args, **kwargs)

    def wounded(card: CardView, damage: int) -> float:
        wounds[id(card), damage] += 1
        return wound(card, damage)

    monkeypatch.setattr(lcg_quest, "_best_defence", counted)
    monkeypatch.setattr(lcg_quest, "_wound", wounded)
    assert GreedyBot(1).choose(decision, partial(view, state, decision.seat)) == expected
    assert not calls
    # each wound priced once for the commit's combats (``_Memo``; once more at most for the
    # reveals' harms and an engagement's, which read their own): it was up to 20 times
    assert wounds and max(wounds.values()) <= 2


@pure_only
def test_a_commit_reckons_each_undefended_attack_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a combat with too many plans to price, or none to plan, is reckoned greedily
    # (``_reckoned``) for each set of characters the commit leaves ready; it priced each hero's
    # undefended attack again for each (in this game's 11th commit 109 times the same price):
    # the commit keeps them, as its walk of the planned combats does
    game = searchable(LCG.name)
    played = Game.start(uuid4(), LCG, LCG.created(lcg_options(MIRKWOOD, 2, None, "standard"), 11))
    seats = frozenset(("p1", "p2"))
    bots = {s: game.blueprint(11, seats) for s in seats}
    priced: Counter[tuple[int, int, int]] = Counter()
    reckoned: list[int] = []
    commits: list[int] = []
    undefended, plain, commit = lcg_quest._undefended, lcg_quest._reckoned, lcg_quest.commit

    def counted(hero: CardView, before: int, attack: int, *args: Any) -> float:
        priced[id(hero), before, attack] += 1
        return undefended(hero, before, attack, *args)

    def reckoning(*args: Any) -> float:
        reckoned.append(1)
        return plain(*args)

    def committing(*args: Any) -> list[CardView]:
        priced.clear()
        chosen = commit(*args)
        commits.append(max(priced.values(), default=0))
        return chosen

    monkeypatch.setattr(lcg_quest, "_undefended", counted)
    monkeypatch.setattr(lcg_quest, "_reckoned", reckoning)
    monkeypatch.setattr(lcg_greedy, "commit", committing)
    while (decision := played.state.pending) is not None:
        view_of = partial(game.view, played.state, decision.seat)
        played.answer(decision.seat, decision.id, bots[decision.seat].choose(decision, view_of))
    assert reckoned and commits and max(commits) == 1


def test_a_round_rebuilt_for_a_combat_is_the_round_with_its_enemies() -> None:
    # ``_fighting`` copies a Round field by field where ``dataclasses.replace`` read them
    rng = random.Random(5)
    for _ in range(200):
        characters = [_character(rng, n, rng.choice(["hero", "ally"])) for n in range(rng.randint(0, 6))]
        plan = _round(rng, characters)
        enemies = tuple(_enemy(rng, 500 + n) for n in range(rng.randint(0, 3)))
        assert lcg_quest._fighting(plan, enemies) == dataclasses.replace(plan, enemies=enemies)


def test_a_rollout_view_gives_again_the_views_of_the_cards_unchanged_since_the_last() -> None:
    # a search's rollouts build a view for every decision of the greedy player, and most of
    # its cards (a hand, the heroes with nothing attached, the encounter discard pile) are as
    # they were at the last one: their views are the ones built then, as a fresh build makes them
    state = _position(p1_hand=["Feint", "Blade Mastery", "Gondorian Spearman"], p1_allies=["Faramir"])
    first = play_view(state, "p1")
    again = play_view(state, "p1")
    mine, mine_again = first.players[0], again.players[0]
    assert mine.hand and mine.allies and mine.heroes and first.encounter_discard
    assert all(a is b for a, b in zip(mine.hand, mine_again.hand or [], strict=True))
    assert all(a is b for a, b in zip(mine.allies, mine_again.allies, strict=True))
    assert all(a is b for a, b in zip(first.encounter_discard, again.encounter_discard, strict=True))
    # the enemies without shadow cards too, engaged and staged
    assert first.staging and first.staging[0] is again.staging[0]
    assert mine.engaged and mine.engaged[0] is mine_again.engaged[0]
    # Gimli's text changes his attack by his own damage alone: his view is kept too
    kept = [a for a, b in zip(mine.heroes, mine_again.heroes, strict=True) if a is b]
    assert [h.name for h in kept] == ["Aragorn", "Gimli", "Legolas"]
    # a card whose state changed is built again; the seat's own view never gives a kept one
    hero = kept[0]
    state.cards[hero.uid].exhausted = not hero.exhausted
    changed = play_view(state, "p1")
    shown = view(state, "p1")
    again_hero = next(h for h in changed.players[0].heroes if h.uid == hero.uid)
    assert again_hero is not hero and again_hero.exhausted is not hero.exhausted
    assert changed.players[0].allies[0] is mine.allies[0]
    assert shown.players[0].allies[0] is not mine.allies[0]
    for built, fresh in (
        (changed.players[0].heroes, shown.players[0].heroes),
        (changed.players[0].hand, shown.players[0].hand),
        (changed.players[0].allies, shown.players[0].allies),
        (changed.staging, shown.staging),
        (changed.players[0].engaged, shown.players[0].engaged),
    ):
        assert built == fresh
    assert changed.quest == shown.quest and changed.active_location == shown.active_location


def test_a_rollout_view_gives_again_the_views_of_attachments_unchanged_since_the_last() -> None:
    # an attachment's view (in the attachments zone) shows no card it guards: like a plain
    # card's, it depends on its face and tokens alone, and the heroes' attachments and the
    # conditions attached to them are given again, where they were built afresh every view
    zones: dict[str, Any] = {
        "quest": ["Flies and Spiders"],
        "p1.engaged": ["Forest Spider"],
        "active": ["Old Forest Road"],
        "encounter.discard": _encounter(False)[:6],
        "attachments": [{"card": "Caught in a Web", "on": "Aragorn"}, {"card": "Celebrían's Stone", "on": "Aragorn"}],
    }
    state = cast(LcgState, _run(zones, threat=33).game.state)
    first = play_view(state, "p1").players[0].heroes[0]
    again = play_view(state, "p1").players[0].heroes[0]
    assert first.name == "Aragorn" and first is again  # nor has he changed: his view given again too
    assert [a.name for a in first.attachments] == ["Caught in a Web", "Celebrían's Stone"]
    assert all(a is b for a, b in zip(first.attachments, again.attachments, strict=True))
    assert first.attachments == view(state, "p1").players[0].heroes[0].attachments
    # an attachment whose tokens changed is built again
    stone = first.attachments[1]
    state.cards[stone.uid].exhausted = not stone.exhausted
    changed = play_view(state, "p1").players[0].heroes[0]
    assert changed.attachments[0] is first.attachments[0] and changed.attachments[1] is not stone
    assert changed.attachments == view(state, "p1").players[0].heroes[0].attachments
    assert changed is not first and changed == view(state, "p1").players[0].heroes[0]


def test_a_rollout_view_gives_again_the_view_of_a_hero_whose_attachments_are_unchanged() -> None:
    # a hero with attachments was built afresh for every view, its stats read from each
    # attachment's text (~1.1 M instructions of a search rollout's ~40 M, compiled): while it
    # and its attachments are unchanged (their views the ones kept) the view built before is
    # given again, where each attachment's bonus reads nothing but the two cards
    # (``Host.steady``) or gives nothing outside an attack (``Host.in_attacks``)
    zones: dict[str, Any] = {
        "quest": ["Flies and Spiders"],
        "p1.engaged": ["Dol Guldur Orcs"],
        "active": ["Old Forest Road"],
        "attachments": [
            {"card": "Citadel Plate", "on": "Aragorn"},
            {"card": "Steward of Gondor", "on": "Aragorn"},
            {"card": "Blade of Gondolin", "on": "Legolas"},
            {"card": "Dwarven Axe", "on": "Legolas"},
        ],
    }
    state = cast(LcgState, _run(zones, threat=33).game.state)
    first = play_view(state, "p1").players[0].heroes
    aragorn, legolas = first[0], first[2]
    assert (aragorn.name, aragorn.hit_points, legolas.name, legolas.attack) == ("Aragorn", 5 + 4, "Legolas", 3 + 1)
    assert "Gondor" in aragorn.traits
    again = play_view(state, "p1").players[0].heroes
    assert again[0] is aragorn and again[2] is legolas
    assert first == view(state, "p1").players[0].heroes
    # an attachment's tokens changed, or the hero's: built again, as a fresh view shows it
    plate = aragorn.attachments[0]
    state.cards[plate.uid].exhausted = True
    changed = play_view(state, "p1").players[0].heroes
    assert changed[0] is not aragorn and changed[2] is legolas and changed == view(state, "p1").players[0].heroes
    state.cards[aragorn.uid].damage = 2
    hurt = play_view(state, "p1").players[0].heroes[0]
    assert hurt is not changed[0] and hurt.damage == 2 and hurt == view(state, "p1").players[0].heroes[0]
    assert play_view(state, "p1").players[0].heroes[0] is hurt
    # attacking an Orc, Legolas's Blade of Gondolin gives +1 attack: built afresh in the attack
    orcs = state.zone("p1.engaged")[0]
    state.attack = Attack(enemy=orcs, player="p1", attackers=[legolas.uid])
    attacking = play_view(state, "p1").players[0].heroes[2]
    assert attacking is not legolas and attacking.attack == 3 + 1 + 1
    assert attacking == view(state, "p1").players[0].heroes[2]
    assert play_view(state, "p1").players[0].heroes[2] is not attacking
    state.attack = None
    assert play_view(state, "p1").players[0].heroes[2] is legolas


@pure_only
def test_a_rollout_view_gives_again_the_view_of_a_card_whose_text_reads_its_own_tokens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Gimli's text gives him +1 attack for each damage token on him, and his view was built
    # afresh for every view (~1,000 times in 20 search rollouts); his text reads his own
    # tokens alone (``Text.steady_stat``), so his view is given again while they are unchanged,
    # in a game where no text can blank his (Overworked: ``table.BLANKING``, tied to its code)
    state = _position()
    first = play_view(state, "p1").players[0].heroes
    gimli = next(h for h in first if h.name == "Gimli")
    assert gimli.attack == 2 and play_view(state, "p1").players[0].heroes[1] is gimli
    state.cards[gimli.uid].damage = 2
    hurt = play_view(state, "p1").players[0].heroes[1]
    assert hurt is not gimli and hurt.attack == 2 + 2 and hurt == view(state, "p1").players[0].heroes[1]
    assert play_view(state, "p1").players[0].heroes[1] is hurt
    # where a text that blanks others' can apply, his view is built afresh each time
    monkeypatch.setattr(rules_table, "BLANKING", [*rules_table.BLANKING, lambda s, uid: False])
    blankable = play_view(state, "p1").players[0].heroes[1]
    assert blankable is not hurt and blankable == hurt
    assert play_view(state, "p1").players[0].heroes[1] is not blankable


@pure_only
def test_a_view_reads_no_card_definition_again_while_the_registry_is_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # each card a view showed looked its definition up by code (``CARDS``) to check that its
    # face, kept by code, was still the registered card's (a test may register a code anew):
    # the faces are kept while the card registry's version is unchanged
    state = _position(p1_hand=["Feint", "Blade Mastery", "Gondorian Spearman"], p1_allies=["Faramir"])
    first = play_view(state, "p1")
    looked: list[str] = []

    class Counted(dict[str, CardDef]):
        def __getitem__(self, code: str) -> CardDef:
            looked.append(code)
            return CARDS[code]

    monkeypatch.setattr(lcg_view, "_CARDS", Counted())
    assert play_view(state, "p1") == first
    shown = view(state, "p1")
    assert not looked and len(shown.players[0].hand or []) == 3
    # a card registered anew is read again, and no view kept of a card of that code is given
    aragorn = first.players[0].heroes[0]
    printed = CARDS[aragorn.code]
    assert aragorn.name == "Aragorn" and aragorn is play_view(state, "p1").players[0].heroes[0]
    cards.register_cards(msgspec.structs.replace(printed, name="Aragorn II"))
    try:
        renamed = play_view(state, "p1").players[0].heroes[0]
        assert renamed.name == "Aragorn II" and aragorn.code in looked
        assert view(state, "p1").players[0].heroes[0] == renamed
    finally:
        cards.register_cards(printed)
    assert play_view(state, "p1") == first


@pure_only
def test_a_view_asks_no_text_giving_traits_that_cannot_apply_in_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # a card with something attached showed the traits ``table.traits_on`` gives, which asked
    # every text that gives traits (Eithiliant's, an interpreted call) even in the games
    # where none can apply: ~6,000 instructions a card (compiled); the view asks those
    # ``table.in_game`` keeps, and shows the same traits
    asked: list[int] = []

    def borrowed(s: LcgState, uid: int) -> tuple[str, ...]:
        asked.append(uid)
        return ()

    monkeypatch.setattr(rules_table, "TRAIT_AURAS", [*rules_table.TRAIT_AURAS, borrowed])
    monkeypatch.setitem(rules_table.NEEDS, borrowed, frozenset({"thftd-001"}))
    zones: dict[str, Any] = {
        "quest": ["Flies and Spiders"],
        "staging": ["Hummerhorns"],
        "attachments": [{"card": "Caught in a Web", "on": "Aragorn"}],
    }
    state = cast(LcgState, _run(zones).game.state)
    assert all(card.code != "thftd-001" for card in state.cards.values())
    for table in (view(state, "p1"), play_view(state, "p1")):
        aragorn = next(h for h in table.players[0].heroes if h.name == "Aragorn")
        assert [a.name for a in aragorn.attachments] == ["Caught in a Web"]
        assert not asked
        assert aragorn.traits == rules_table.traits(state, aragorn.uid)
        asked.clear()


@pure_only
def test_an_action_window_reads_what_the_heroes_can_pay_once_for_the_whole_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a window asked each Action event in hand whether it can be paid for, and each asked
    # afresh which heroes match its sphere and what their pools hold (a search's rollouts
    # ask ~30 windows each); the hand's events now share one ``Purse``, with the same answers
    run = Run(
        {
            "game": {"players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
            "position": {
                "at": "lcg.combat.window.shadows",
                "phase": "combat",
                "zones": {
                    "p1.heroes": [{"card": "Aragorn", "resources": 2}, {"card": "Gimli", "resources": 1}, "Legolas"],
                    "p1.hand": ["Common Cause", "Ever Vigilant", "Sneak Attack", "For Gondor!", "Feint", "Feint"],
                    "p1.allies": [{"card": "Snowbourn Scout", "exhausted": True}],
                    "p1.engaged": ["East Bight Patrol"],
                },
            },
        }
    )
    state = cast(LcgState, run.game.state)
    plain = [
        f"{uid}.{i}"
        for uid in state.zone("p1.hand")
        for i, action in enumerate(rules_table.text_of(state.cards[uid].code).actions)
        if action.available(state, uid, "p1")
    ]
    asked: list[str | None] = []
    matching = resources.matching_heroes

    def counted(s: LcgState, seat: str, sphere: str | None) -> list[int]:
        asked.append(sphere)
        return matching(s, seat, sphere)

    monkeypatch.setattr(resources, "matching_heroes", counted)
    options = event_actions(state, "p1")
    assert [o.id for o in options] == plain
    # Ever Vigilant, For Gondor! and both Feints (no hero exhausted for Common Cause, no ally
    # in hand for Sneak Attack): six events whose cost the heroes' resources cover
    assert len(plain) == 4
    # once per sphere asked (it was once per event the heroes' resources could cover: six)
    assert sorted(asked, key=str) == ["leadership", "tactics"]


@pure_only
def test_a_heros_resource_icons_are_read_from_the_attachments_only_under_a_card_giving_icons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a card's cost asks, of each hero whose sphere is not the card's, the icons its
    # attachments give, and each such hero's read every attachment in play: now only a hero
    # that a card giving icons (Celebrían's Stone) is attached to has them read
    run = Run(
        {
            "game": {"players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
            "position": {
                "at": "lcg.planning",
                "phase": "planning",
                "zones": {
                    "p1.heroes": [{"card": "Aragorn", "resources": 2}, {"card": "Gimli", "resources": 3}, "Legolas"],
                    "p1.hand": ["The Favor of the Lady", "Guard of the Citadel"],
                    "attachments": [
                        {"card": "Celebrían's Stone", "on": "Aragorn"},
                        {"card": "Blade of Gondolin", "on": "Gimli"},
                        {"card": "Horn of Gondor", "on": "Legolas"},
                    ],
                },
            },
        }
    )
    state = cast(LcgState, run.game.state)
    aragorn, gimli, legolas = (run.uid(name) for name in ("Aragorn", "Gimli", "Legolas"))
    scanned: list[str] = []
    cards_in = rules_table.cards_in

    def counted(s: LcgState, key: str) -> list[int]:
        if key == "attachments":
            scanned.append(key)
        return cards_in(s, key)

    monkeypatch.setattr(rules_table, "cards_in", counted)
    assert rules_table.spheres(state, gimli) == ("tactics",)
    assert rules_table.spheres(state, legolas) == ("tactics",)
    assert not scanned  # each read all three attachments
    assert rules_table.spheres(state, aragorn) == ("leadership", "spirit")
    assert scanned == ["attachments"]
    assert resources.can_pay_cost(state, "p1", "spirit", 1) and not resources.can_pay_cost(state, "p1", "lore", 0)


def test_quick_strike_is_playable_where_it_has_a_choice() -> None:
    # every action window asks whether Quick Strike has a choice while it is in hand and a
    # Tactics resource pays for it: read up to the first choice (``_can_strike``), it is
    # whether the list of all its choices (``_strikes``) is not empty, in every seat at every
    # decision of greedy games with ships and Ranged (Dreadnaught) and Dúnhere's staging
    # attacks (Anduin)
    seen: Counter[bool] = Counter()
    for scenario, players in (
        ("passage-through-mirkwood", 2),
        ("journey-along-the-anduin", 1),
        ("hunt-for-the-dreadnaught", 2),
    ):
        game = Game.start(uuid4(), LCG, LCG.created(lcg_options(scenario, players, None, "standard"), 4))
        bots = {seat: GreedyBot(5 + n) for n, seat in enumerate(LCG.seats(game.state))}
        for _ in range(600):
            decision = game.state.pending
            if decision is None:
                break
            s = cast(LcgState, game.state)
            for seat in s.active_seats():
                plain = bool(core_set_events._strikes(s, seat))
                assert core_set_events._can_strike(s, seat) == plain
                seen[plain] += 1
            game.answer(
                decision.seat, decision.id, bots[decision.seat].choose(decision, partial(view, s, decision.seat))
            )
    assert seen[True] > 50 and seen[False] > 50


@pure_only
def test_rain_of_arrows_reads_the_archers_only_with_an_enemy_engaged(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rain of Arrows is playable with a ready Ranged character and an enemy engaged: the
    # engaged enemies are read first, and with none the ready characters are not (every
    # action window asks it while it is in hand and paid for)
    state = _position()
    read: list[str] = []
    ranged = core_set_events._ready_ranged
    monkeypatch.setattr(core_set_events, "_ready_ranged", lambda s, seat: read.append(seat) or ranged(s, seat))
    playable = ACTION_EVENTS["core-033"][0]
    assert playable(state, "p1", 0) == (bool(ranged(state, "p1")) and bool(core_set_events._engaged_enemies(state)))
    assert read == ["p1"]
    read.clear()
    alone = msgspec.structs.replace(state, zones={**state.zones, "p1.engaged": []})
    assert not core_set_events._engaged_enemies(alone)
    assert playable(alone, "p1", 0) is False
    assert read == []
