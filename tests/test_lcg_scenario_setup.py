"""Setup of Journey Along the Anduin and Escape from Dol Guldur, read from a new game's events.

Setup runs before round 1, so a fixture cannot show it; these tests start real games and fold
their events up to the first round. Sources: Core Set rulebook, "Setup"; To the River...
(Core Set #126) and The Necromancer's Tower (#123), both sides.
"""

from __future__ import annotations

import random
import uuid

import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.events import Event
from domain.kernel.runtime import fold
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.cards import CARDS
from domain.lcg.lineups import lcg_options
from domain.lcg.rules import table
from domain.lcg.rules.keywords import guards_of
from domain.lcg.ruleset import LCG
from domain.lcg.state import SET_ASIDE_FACE_UP, LcgState

HILL_TROLL = "core-082"
NAZGUL = "core-102"
OBJECTIVES = {"core-108", "core-109", "core-110"}
ENCOUNTER_ZONES = ("encounter.deck", "encounter.discard", "staging", "victory", "shadows", SET_ASIDE_FACE_UP)


def _setup(scenario: str, players: int, difficulty: str, seed: int) -> tuple[LcgState, list[Event]]:
    """Cards revealed at setup may ask players to choose (King Spider): a random bot answers."""
    options = lcg_options(scenario, players, None, difficulty)
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))
    rng = random.Random(seed)
    while not any(isinstance(e, ev.RoundBegan) for e in game.pending_events):
        decision = game.state.pending
        assert decision is not None and game.state.over is None
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    events = list(game.pending_events)
    first_round = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundBegan))
    state = fold(LCG, events[:first_round])
    assert isinstance(state, LcgState)
    return state, events[:first_round]


def _encounter_cards(state: LcgState) -> list[str]:
    """Encounter cards wherever setup put them: a condition revealed at setup (Caught in a
    Web) is attached to a hero, and is the only card in the attachments nobody owns."""
    zones = [*ENCOUNTER_ZONES, *(f"{seat}.shackles" for seat in state.order)]
    attached = [u for u in state.zone("attachments") if state.cards[u].owner is None]
    return [state.cards[u].code for u in [*(u for z in zones for u in state.zone(z)), *attached]]


@pytest.mark.parametrize(
    ("scenario", "difficulty", "size"),
    [
        ("journey-along-the-anduin", "standard", 47),
        ("journey-along-the-anduin", "easy", 32),
        ("escape-from-dol-guldur", "standard", 41),
        ("escape-from-dol-guldur", "easy", 30),
    ],
)
def test_encounter_cards_of_each_scenario(scenario: str, difficulty: str, size: int) -> None:
    """Standard: every card of the scenario's sets at its printed quantity; Easy: the easy
    quantities (Escape: 37/26 in the deck, 3 objectives and the Nazgûl besides)."""
    state, _ = _setup(scenario, 2, difficulty, seed=5)
    assert len(_encounter_cards(state)) == size


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize("players", [1, 2, 4])
def test_to_the_river_reveals_a_card_per_player_then_a_hill_troll(players: int, seed: int) -> None:
    state, events = _setup("journey-along-the-anduin", players, "standard", seed)
    side_b = next(i for i, e in enumerate(events) if isinstance(e, ev.QuestStageRevealed) and e.side == "B")
    before = [e for e in events[:side_b] if isinstance(e, ev.EncounterCardRevealed)]
    assert len(before) >= players  # one per player, more for Surge
    trolls = [u for u in table.enemies_in_play(state) if state.cards[u].code == HILL_TROLL]
    assert trolls, "a Hill Troll is in play after setup"
    added = [e for e in events[side_b:] if isinstance(e, ev.CardMoved) and state.cards[e.card].code == HILL_TROLL]
    troll_revealed = any(state.cards[e.card].code == HILL_TROLL for e in before)
    assert len(added) == (0 if troll_revealed else 1)
    assert state.cards[table.quest_card(state) or 0].face == "B"


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize("players", [1, 3])
def test_necromancers_tower_setup_objectives_guards_nazgul_and_prisoner(players: int, seed: int) -> None:
    state, events = _setup("escape-from-dol-guldur", players, "standard", seed)
    staged = {state.cards[u].code for u in table.staging(state)}
    assert staged >= OBJECTIVES
    assert [state.cards[u].code for u in state.zone(SET_ASIDE_FACE_UP)] == [NAZGUL]
    assert NAZGUL not in [state.cards[u].code for u in state.zone("encounter.deck")]
    guarded = [e.objective for e in events if isinstance(e, xev.GuardPlaced)]
    assert len(guarded) == len(set(guarded))
    for objective in guarded:
        assert [table.defn(state, g).type in ("enemy", "location") for g in guards_of(state, objective)] == [True]
    captured = [e for e in events if isinstance(e, xev.HeroCaptured)]
    prisoners = [u for seat in state.order for u in state.zone(f"{seat}.prisoner")]
    assert len(captured) == 1 and prisoners == [captured[0].card]
    assert CARDS[state.cards[prisoners[0]].code].type == "hero"
    assert sum(len(table.heroes(state, seat)) for seat in state.order) == 3 * players - 1


def test_the_prisoner_is_chosen_at_random() -> None:
    chosen = set()
    for seed in range(1, 13):
        state, _ = _setup("escape-from-dol-guldur", 2, "standard", seed)
        chosen |= {state.cards[u].code for seat in state.order for u in state.zone(f"{seat}.prisoner")}
    assert len(chosen) >= 3
