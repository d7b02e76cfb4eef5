"""Game setup for Passage through Mirkwood, read from the events a new game starts with.

Setup runs before round 1, so a fixture (which starts at a step of the round) cannot
show it; these tests start real games and fold their events up to the first round.
Sources: Core Set rulebook, "Setup"; Flies and Spiders (Core Set #119), side A.
"""

from __future__ import annotations

import uuid

import pytest

from domain.game import Game
from domain.kernel.events import Event
from domain.kernel.runtime import fold
from domain.lcg import events as ev
from domain.lcg.cards import CARDS
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.feed import SPECTATOR, Feed

FOREST_SPIDER = "core-096"
OLD_FOREST_ROAD = "core-099"
FLIES_AND_SPIDERS = "core-119"


def _setup(players: int, difficulty: str, seed: int, mulligan: tuple[str, ...] = ()) -> tuple[LcgState, list[Event]]:
    """The table at the end of setup (before round 1 begins), and setup's events.

    Each player keeps their setup hand, but those in ``mulligan`` take a mulligan.
    """
    options = lcg_options("passage-through-mirkwood", players, None, difficulty)
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))
    while (d := game.state.pending) is not None and d.rule == "lcg.setup.mulligan":
        game.answer(d.seat, d.id, ("mulligan",) if d.seat in mulligan else ("keep",))
    events = [r.event for r in game.collect_events()]
    first_round = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundBegan))
    setup = events[:first_round]
    state = fold(LCG, setup)
    assert isinstance(state, LcgState)
    return state, setup


def _codes(state: LcgState, zone: str) -> list[str]:
    return [state.cards[u].code for u in state.zone(zone)]


@pytest.mark.parametrize("players", [1, 2])
def test_each_player_draws_a_hand_of_six(players: int) -> None:
    state, _ = _setup(players, "standard", seed=7)
    for seat in state.order:
        assert len(state.zone(f"{seat}.hand")) == 6


@pytest.mark.parametrize("players", [1, 2])
def test_starting_threat_is_the_heroes_total_threat_cost(players: int) -> None:
    state, _ = _setup(players, "standard", seed=7)
    for seat in state.order:
        heroes = state.zone(f"{seat}.heroes")
        assert len(heroes) == 3
        expected = sum(CARDS[state.cards[h].code].threat_cost for h in heroes)
        assert state.players[seat].threat == expected
    # the default first lineup: Aragorn 12 + Gimli 11 + Legolas 9
    assert state.players["p1"].threat == 32


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_flies_and_spiders_puts_a_forest_spider_and_an_old_forest_road_in_staging(seed: int) -> None:
    state, events = _setup(1, "standard", seed)
    assert sorted(_codes(state, "staging")) == sorted([FOREST_SPIDER, OLD_FOREST_ROAD])
    # Setup text of side A, then the encounter deck is shuffled, then the card flips to B.
    kinds = [
        (type(e).__name__, getattr(e, "side", None) or getattr(e, "to", None) or getattr(e, "zone", None))
        for e in events
        if isinstance(e, ev.QuestStageRevealed | ev.CardMoved | ev.DeckShuffled)
    ]
    start = kinds.index(("QuestStageRevealed", "A"))
    assert kinds[start:] == [
        ("QuestStageRevealed", "A"),
        ("CardMoved", "staging"),
        ("CardMoved", "staging"),
        ("DeckShuffled", "encounter.deck"),
        ("QuestStageRevealed", "B"),
    ]


@pytest.mark.parametrize(("difficulty", "size"), [("standard", 34), ("easy", 25)])
def test_encounter_deck_after_setup(difficulty: str, size: int) -> None:
    state, _ = _setup(1, difficulty, seed=5)
    deck = _codes(state, "encounter.deck")
    assert len(deck) == size
    # the two cards in staging came out of the deck: 4 Forest Spiders and 2 Old Forest Roads in all
    assert deck.count(FOREST_SPIDER) == 3
    assert deck.count(OLD_FOREST_ROAD) == 1
    assert not state.zone("encounter.discard")


def test_the_quest_starts_at_stage_1_side_b() -> None:
    state, _ = _setup(1, "standard", seed=9)
    assert _codes(state, "quest") == [FLIES_AND_SPIDERS]
    stage = state.cards[state.zone("quest")[0]]
    assert stage.face == "B"
    assert stage.progress == 0
    assert _codes(state, "quest.deck") == ["core-120", "core-121", "core-122"]


def test_each_player_in_turn_may_take_a_mulligan_once() -> None:
    """Core Set rulebook, "Draw Setup Hand": a player may shuffle the setup hand back and draw
    6 new cards, once; the second hand is kept. The decision is recorded like any other."""
    options = lcg_options("passage-through-mirkwood", 2, None, "standard")
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, 11))
    asked = []
    while (d := game.state.pending) is not None and d.rule == "lcg.setup.mulligan":
        assert [o.id for o in d.options] == ["keep", "mulligan"]
        asked.append(d.seat)
        state = game.state
        assert isinstance(state, LcgState)
        before = list(state.zone(f"{d.seat}.hand"))
        game.answer(d.seat, d.id, ("mulligan",) if d.seat == "p1" else ("keep",))
        after = game.state
        assert isinstance(after, LcgState)
        if d.seat == "p1":  # (p2's answer ends setup: round 1 has begun and drawn a card after it)
            hand = after.zone("p1.hand")
            assert len(hand) == 6 and hand != before  # a new hand, from the deck the old one went back to
            assert len(hand) + len(after.zone("p1.deck")) == len(options.players[0].deck)
    assert asked == ["p1", "p2"]  # once each, from the first player
    assert game.state.pending is not None and game.state.pending.rule != "lcg.setup.mulligan"
    events = [r.event for r in game.collect_events()]
    shuffles = [e for e in events if isinstance(e, ev.DeckShuffled) and e.zone == "p1.deck"]
    assert len(shuffles) == 2  # setup's shuffle, then the mulligan's
    drawn = [e for e in events if isinstance(e, ev.CardsDrawn) and e.player == "p1"]
    assert len(drawn[0].cards) == len(drawn[1].cards) == 6 and set(drawn[0].cards) <= set(shuffles[1].order)
    assert len([e for e in events if isinstance(e, ev.DeckShuffled) and e.zone == "p2.deck"]) == 1


def test_the_mulligan_is_replayed_from_the_record() -> None:
    """The hand after a mulligan is the fold of the recorded events (the shuffle's order is in them)."""
    state, events = _setup(1, "standard", seed=4, mulligan=("p1",))
    assert fold(LCG, events) == state
    assert len(state.zone("p1.hand")) == 6


def test_a_mulligan_shows_other_seats_no_card_of_either_hand() -> None:
    """p2 and a spectator see that p1 took a mulligan, and how many cards moved, never which."""
    options = lcg_options("passage-through-mirkwood", 2, None, "standard")
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, 11))
    while (d := game.state.pending) is not None and d.rule == "lcg.setup.mulligan":
        game.answer(d.seat, d.id, ("mulligan",) if d.seat == "p1" else ("keep",))
    events = [r.event for r in game.collect_events()]
    end = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundBegan))
    drawn = [e for e in events[:end] if isinstance(e, ev.CardsDrawn) and e.player == "p1"]
    p1_cards = {u for e in drawn for u in e.cards}
    assert len(drawn) == 2 and len(p1_cards) > 6
    for viewer in ("p2", SPECTATOR):
        feed = Feed(LCG, viewer, LCG.new_state())
        for event in events[:end]:
            projected = feed.project(event)
            if projected.type in ("DeckShuffled", "CardsDrawn") and projected.body.get("player", "p1") == "p1":
                assert "order" not in projected.body
                assert not p1_cards & set(projected.body.get("cards", ())), (viewer, projected.body)
