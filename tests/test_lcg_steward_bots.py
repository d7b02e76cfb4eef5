"""The greedy LCG bot keeps Aragorn's resources for a Steward of Gondor in hand."""

from __future__ import annotations

from typing import cast

from bots.lcg_greedy import GreedyBot
from domain.game import Game
from domain.kernel.decisions import Choice
from domain.lcg.state import LcgState
from projections.lcg import view
from tools.fixtures import Run


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


def test_the_rollout_view_leads_the_greedy_bot_to_the_same_answers() -> None:
    """Rollouts read ``play_view`` (no piles out of play, the hand as printed): the greedy
    bot must answer every decision of whole games as it does from the seat's full view."""
    from functools import partial
    from uuid import uuid4

    from domain.lcg.decks.ready_made import playable_part, ready_made
    from domain.lcg.lineups import lcg_options
    from domain.lcg.ruleset import LCG
    from projections.lcg import play_view

    deck = playable_part(ready_made()["aragorn-gimli-legolas"])
    compared = 0
    for seed in (1, 2, 3):
        game = Game.start(
            uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 1, None, "standard", [deck]), seed)
        )
        full, light = GreedyBot(seed), GreedyBot(seed)
        while (decision := cast(LcgState, game.state).pending) is not None:
            state = cast(LcgState, game.state)
            seat = decision.seat
            answer = full.choose(decision, partial(view, state, seat))
            assert light.choose(decision, partial(play_view, state, seat)) == answer, decision.rule
            game.answer(seat, decision.id, answer)
            compared += 1
    assert compared > 100
