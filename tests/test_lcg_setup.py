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

FOREST_SPIDER = "core-096"
OLD_FOREST_ROAD = "core-099"
FLIES_AND_SPIDERS = "core-119"


def _setup(players: int, difficulty: str, seed: int) -> tuple[LcgState, list[Event]]:
    """The table at the end of setup (before round 1 begins), and setup's events."""
    options = lcg_options("passage-through-mirkwood", players, None, difficulty)
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))
    events = list(game.pending_events)
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
