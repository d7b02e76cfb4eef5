"""The greedy LCG bot keeps Aragorn's resources for a Steward of Gondor in hand, and decides
from a rollout's view (``play_view``) as from the seat's."""

from __future__ import annotations

from functools import partial
from typing import cast
from uuid import uuid4

import msgspec
import pytest

from bots.lcg_greedy import GreedyBot
from domain.game import Game
from domain.kernel.decisions import Choice
from domain.lcg.decks.ready_made import playable_part, ready_made
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import SCENARIOS, load
from domain.lcg.state import LcgState
from projections.lcg import CardView, TableView, play_view, view
from tools.fixtures import Run

load()  # every scenario registered, for the parametrization


def _greedy(game: Game) -> Choice:
    state = cast(LcgState, game.state)
    decision = state.pending
    assert decision is not None
    return GreedyBot(1).choose(decision, lambda: view(state, decision.seat))


def _aragorn_commits(hand: list[str]) -> Run:
    run = Run(
        {
            "game": {"players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
            "position": {
                "at": "lcg.quest.commit",
                "phase": "quest",
                "zones": {
                    "p1.heroes": [{"card": "Aragorn", "resources": 1}, "Gimli", "Legolas"],
                    "p1.hand": hand,
                },
            },
        }
    )
    state = cast(LcgState, run.game.state)
    decision = state.pending
    assert decision is not None and decision.rule == "lcg.quest.commit"
    run.game.answer(decision.seat, decision.id, (str(run.uid("Aragorn")),))
    asked = cast(LcgState, run.game.state).pending
    assert asked is not None and asked.rule == "core-001.response"
    return run


def test_aragorn_does_not_ready_when_his_resource_is_saved_for_a_steward() -> None:
    assert _greedy(_aragorn_commits(["Steward of Gondor"]).game) == ("no",)


def test_aragorn_readies_when_nothing_is_saved_for() -> None:
    assert _greedy(_aragorn_commits(["Gondorian Spearman"]).game) == ("yes",)


def _identity(card: CardView) -> CardView:
    """Which card ``card`` is, and what is attached to it (no stats, no text)."""
    attachments = [_identity(a) for a in card.attachments]
    return CardView(uid=card.uid, code=card.code, name=card.name, type=card.type, attachments=attachments)


def _out_of_play_emptied(table: TableView, seat: str) -> TableView:
    """``table`` with the piles a rollout's view leaves empty emptied (no bot reads them),
    and the encounter cards out of play shown by their identity alone."""
    players = [p if p.seat == seat else msgspec.structs.replace(p, discard=[]) for p in table.players]
    return msgspec.structs.replace(
        table,
        players=players,
        corsair_discard=[],
        encounter_discard=[_identity(c) for c in table.encounter_discard],
        victory=[_identity(c) for c in table.victory],
    )


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_the_rollout_view_is_the_seats_view_and_leads_the_greedy_bot_to_the_same_answers(scenario: str) -> None:
    """Rollouts read ``play_view``: at every decision of whole games of each scenario it is
    the seat's own view but for the piles no bot reads and the encounter cards out of play
    shown by their identity, and the greedy bot answers from it as
    it does from the seat's view (the burgle attempts read the encounter discard pile and the
    card turned up, the fleet the ships offered: a view without them led the rollouts astray)."""
    deck = playable_part(ready_made()["aragorn-gimli-legolas"])
    compared = 0
    for seed in (1, 2):
        game = Game.start(uuid4(), LCG, LCG.created(lcg_options(scenario, 1, None, "standard", [deck]), seed))
        full, light = GreedyBot(seed), GreedyBot(seed)
        while (decision := cast(LcgState, game.state).pending) is not None:
            state = cast(LcgState, game.state)
            seat = decision.seat
            assert play_view(state, seat) == _out_of_play_emptied(view(state, seat), seat), decision.rule
            answer = full.choose(decision, partial(view, state, seat))
            assert light.choose(decision, partial(play_view, state, seat)) == answer, decision.rule
            game.answer(seat, decision.id, answer)
            compared += 1
    assert compared > 50


@pytest.mark.parametrize(("blade", "played"), [("Blade of Gondolin", True), ("Dwarven Axe", False)])
def test_a_blade_of_gondolin_is_played_while_resources_are_saved_for_an_ally(blade: str, played: bool) -> None:
    """Blade of Gondolin puts a progress token on each kill of its hero, the quest's progress
    in a deck of little willpower: it is played with the last Tactics resource even while an
    ally in hand needs more; a lesser attachment waits for the ally."""
    run = Run(
        {
            "game": {"players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
            "position": {
                "at": "lcg.planning",
                "phase": "planning",
                "zones": {
                    "p1.heroes": ["Aragorn", {"card": "Gimli", "resources": 2}, "Legolas"],
                    "p1.hand": ["Beorn", blade],
                },
            },
        }
    )
    state = cast(LcgState, run.game.state)
    decision = state.pending
    assert decision is not None and decision.rule == "lcg.planning.play-ally"
    play = next(o.id for o in decision.options if o.card == run.uid(blade))
    assert _greedy(run.game) == ((play,) if played else ("done",))
