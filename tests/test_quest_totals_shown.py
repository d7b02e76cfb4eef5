"""The quest's two sides as the desk shows them (the terminal's notes while committing, the
staging area's threat on the table, the explanation's terms) are the rules' own totals: what
each QuestResolved event records, not the sum of the staged cards' threat, which counts a card
that contributes none."""

from __future__ import annotations

import re
from functools import partial
from typing import cast
from uuid import uuid4

import pytest

from bots.lcg_greedy import GreedyBot
from domain.game import Game
from domain.kernel.runtime import apply, fold
from domain.lcg import events as ev
from domain.lcg.decks.ready_made import playable_part, ready_made
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import SCENARIOS, load
from domain.lcg.state import LcgState
from projections.arithmetic import working
from projections.lcg import view
from tools.fixtures import Run
from tools.render_lcg import notes, render

load()  # every scenario registered, for the parametrization


def _committing_past_radagasts_cunning() -> Run:
    """Quest commitment while Radagast's Cunning (Core Set #23: "that enemy does not
    contribute its threat") keeps the Forest Spider's 2 threat out of the staging area's."""
    return Run(
        {
            "game": {"players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
            "position": {
                "at": "lcg.quest.commit",
                "phase": "quest",
                "modifiers": [
                    {"card": "Forest Spider", "stat": "contributes-no-threat", "amount": 1, "until": "phase"}
                ],
                "zones": {"staging": ["Forest Spider", "Old Forest Road"]},  # threat 2 and 1
            },
        }
    )


def _sum_shown(line: str) -> int:
    """What the terms of an explanation's ``threat T = A 2 + B 1 - other effects 1`` add up to."""
    rhs = line.split(" = ", 1)[1]
    if rhs == "no card":
        return 0
    parts = re.split(r" ([+-]) ", rhs)
    signs = [1] + [1 if sign == "+" else -1 for sign in parts[1::2]]
    return sum(sign * int(term.rsplit(" ", 1)[1]) for sign, term in zip(signs, parts[::2], strict=True))


def test_the_explanation_adds_up_the_threat_the_quest_counts() -> None:
    """Why the quest failed: the Forest Spider Radagast's Cunning keeps out is not a term."""
    run = _committing_past_radagasts_cunning()
    decision = run.game.state.pending
    assert decision is not None
    run.game.answer(decision.seat, decision.id, ())  # nobody committed
    at = next(n for n, e in enumerate(run.log) if isinstance(e, ev.QuestResolved))
    resolved = run.log[at]
    assert isinstance(resolved, ev.QuestResolved) and resolved.threat == 1
    assert working(LCG, resolved, fold(LCG, run.log[:at]))[1] == "threat 1 = Old Forest Road 1"


def test_the_terminal_shows_the_staging_threat_the_quest_counts() -> None:
    state = cast(LcgState, _committing_past_radagasts_cunning().game.state)
    decision = state.pending
    assert decision is not None and decision.rule == "lcg.quest.commit"
    table = view(state, "p1")
    assert table.staging_threat == 1
    assert "Willpower committed so far: 0; threat in the staging area: 1" in "\n".join(notes(table, decision))
    assert "Staging area (threat 1):" in render(table)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_quest_resolved_is_the_totals_the_table_showed(scenario: str) -> None:
    deck = playable_part(ready_made()["aragorn-gimli-legolas"])
    game = Game.start(uuid4(), LCG, LCG.created(lcg_options(scenario, 1, None, "standard", [deck]), 4))
    bot = GreedyBot(4)
    while (decision := cast(LcgState, game.state).pending) is not None:
        playing = cast(LcgState, game.state)
        game.answer(decision.seat, decision.id, bot.choose(decision, partial(view, playing, decision.seat)))
    state = LCG.new_state()
    resolved = 0
    for event in game.pending_events:
        if isinstance(event, ev.QuestResolved):
            table = view(state, "p1")
            assert (table.committed_willpower, table.staging_threat) == (event.willpower, event.threat), event.seq
            threat_line = working(LCG, event, state)[1]
            assert _sum_shown(threat_line) == event.threat, threat_line
            resolved += 1
        apply(LCG, state, event)
    assert resolved > 0
