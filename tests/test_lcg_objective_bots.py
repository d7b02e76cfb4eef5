"""The greedy LCG player and Escape from Dol Guldur's Restricted objectives: a claimed
objective goes to the hero with the fewest Restricted attachments, and when a third must go
the bot keeps the objective (its claim cost threat)."""

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


def _claim(attachments: list[dict[str, str]]) -> Run:
    run = Run(
        {
            "game": {"scenario": "escape-from-dol-guldur", "players": 1},
            "position": {
                "at": "lcg.travel",
                "phase": "travel",
                "zones": {"staging": ["Shadow Key"], "attachments": attachments},
            },
        }
    )
    decision = run.game.state.pending
    assert decision is not None
    run.game.answer(decision.seat, decision.id, run.choice(decision, ["Shadow Key"]))
    return run


def test_a_claimed_objective_goes_to_the_hero_with_the_fewest_restricted() -> None:
    run = _claim([{"card": "Citadel Plate", "on": "Aragorn"}, {"card": "Dwarven Axe", "on": "Gimli"}])
    assert cast(LcgState, run.game.state).pending.rule == "core-110.action"  # type: ignore[union-attr]
    assert _greedy(run.game) == (str(run.uid("Legolas")),)


def test_the_bot_keeps_the_objective_when_a_third_restricted_must_go() -> None:
    run = _claim([{"card": "Citadel Plate", "on": "Aragorn"}, {"card": "Dwarven Axe", "on": "Aragorn"}])
    decision = run.game.state.pending
    assert decision is not None
    run.game.answer(decision.seat, decision.id, (str(run.uid("Aragorn")),))
    assert cast(LcgState, run.game.state).pending.rule == "lcg.keyword.restricted"  # type: ignore[union-attr]
    dropped = _greedy(run.game)
    assert dropped != (str(run.uid("Shadow Key")),) and len(dropped) == 1
