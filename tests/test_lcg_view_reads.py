"""A table view reads what the rules read: each card's stats, traits, resources, keywords and
text as ``table`` gives them, though the view keeps what a card's definition decides per
code and side and shows the printed stats of a card nothing changes (projections/lcg_view.py)."""

from __future__ import annotations

import random
from typing import cast
from uuid import uuid4

import pytest

from bots import random_choice
from domain.game import Game
from domain.lcg.lineups import lcg_options
from domain.lcg.rules import ship_keywords, table
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import SCENARIOS, load
from domain.lcg.state import LcgState
from projections.lcg import REFEREE, CardView, view

load()  # every scenario registered, for the parametrization


def _shown(v: CardView) -> list[CardView]:
    return [v, *(c for a in v.attachments for c in _shown(a)), *(c for sh in v.shadows for c in _shown(sh))]


def _check(s: LcgState, v: CardView) -> None:
    uid = v.uid
    stats = {"willpower": v.willpower, "attack": v.attack, "defense": v.defense, "threat": v.threat}
    stats |= {"engagement_cost": v.engagement_cost}
    for which, shown in stats.items():
        if shown is not None:
            assert shown == table.stat(s, uid, which), (v.name, which)
    if v.hit_points is not None:
        expected = table.global_value(s, uid, "hit_points") if v.type == "enemy" else table.hit_points(s, uid)
        assert v.hit_points == expected, v.name
    assert v.traits == table.traits(s, uid), v.name
    assert v.resources == table.resources_on(s, uid), v.name
    assert v.keywords == ship_keywords.printed_keywords(s, uid), v.name
    assert v.text == table.printed_text(s, uid), v.name
    assert v.other_groups == table.other_groups(s, uid), v.name


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_card_a_view_shows_reads_as_the_rules_read_it(scenario: str) -> None:
    game = Game.start(uuid4(), LCG, LCG.created(lcg_options(scenario, 2), 3))
    rng = random.Random(3)
    checked = 0
    n = 0
    while (decision := cast(LcgState, game.state).pending) is not None and n < 1500:
        s = cast(LcgState, game.state)
        if n % 3 == 0:
            seen = view(s, REFEREE)
            cards = [*seen.staging, *seen.revealed, *seen.setup, *seen.set_aside]
            cards += [c for c in (seen.quest, seen.active_location) if c is not None]
            for p in seen.players:
                cards += [*p.heroes, *p.allies, *p.engaged, *(p.hand or [])]
            for v in (c for top in cards for c in _shown(top)):
                _check(s, v)
                checked += 1
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
        n += 1
    assert checked > 100
