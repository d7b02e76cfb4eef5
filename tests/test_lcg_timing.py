"""Forced effects due at the same moment: the first player orders them (FAQ 1.02).

No two Core Set Forced effects on the cards here can fall due at one moment yet (each
listens to its own card), so this test lays out a table with two enemies engaging a
player and starts the game at the rule step that resolves the Forced effects of both
engagements together, as the trigger collection builds them from the two events.
"""

from __future__ import annotations

from uuid import uuid4

from domain.game import Game
from domain.kernel.events import Frame
from domain.kernel.flow import program
from domain.kernel.runtime import apply
from domain.lcg import events as ev
from domain.lcg.position import build
from domain.lcg.rules.triggers import triggered
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState

TABLE = {
    "at": "lcg.encounter.engagement-check",
    "phase": "encounter",
    "first": "p2",
    "zones": {
        "p3.engaged": ["Forest Spider", "Hummerhorns"],
        "p3.heroes": ["Éowyn", "Glorfindel", "Dúnhere"],
    },
}
GAME = {
    "players": 3,
    "heroes": [["Aragorn", "Gimli", "Legolas"], ["Théodred", "Glóin", "Thalin"], ["Éowyn", "Glorfindel", "Dúnhere"]],
}


def _game_at_the_moment() -> tuple[Game, dict[str, int]]:
    placed = build(GAME, TABLE)
    state = LCG.new_state()
    for laid in (placed.created, placed.placed):
        apply(LCG, state, laid)
    assert isinstance(state, LcgState)
    spider, hummerhorns = placed.labels["Forest Spider"], placed.labels["Hummerhorns"]
    due = []
    for enemy in (spider, hummerhorns):
        moment = ev.EnemyEngaged(enemy=enemy, player="p3", seq=2)
        due += triggered(state, moment, "forced")
    for n, item in enumerate(due):  # numbered as one moment's abilities are
        item[0] = n
    frames = [*placed.frames, Frame(program("lcg.forced").key, 0, {"_by": 2}, due)]
    return Game.start_at(uuid4(), LCG, placed.created, placed.placed, frames), placed.labels


def test_the_first_player_orders_forced_effects_due_at_once() -> None:
    game, labels = _game_at_the_moment()
    decision = game.state.pending
    assert decision is not None
    assert decision.seat == "p2" and decision.rule == "lcg.forced", "the first player orders them, not p3"
    assert {o.card for o in decision.options} == {labels["Forest Spider"], labels["Hummerhorns"]}
    assert "none" not in {o.id for o in decision.options}, "a Forced effect cannot be declined"
    hummerhorns = next(o for o in decision.options if o.card == labels["Hummerhorns"])
    game.answer("p2", decision.id, (hummerhorns.id,))
    hero = game.state.pending
    assert hero is not None and hero.seat == "p3" and hero.rule == "core-075.forced"
    game.answer("p3", hero.id, (str(labels["Éowyn"]),))
    events = list(game.pending_events)
    damage = next(i for i, e in enumerate(events) if isinstance(e, ev.DamageDealt))
    bonus = next(i for i, e in enumerate(events) if type(e).__name__ == "ModifierAdded")
    assert damage < bonus, "Hummerhorns' effect, chosen first, resolved before Forest Spider's"
