"""Paying costs (domain/lcg/rules/resources.py): heroes of the card's sphere pay, any hero
pays for a neutral card, a card costing 0 still needs a hero of its sphere, and a cost that
must come from several heroes' pools is split among that many."""

from __future__ import annotations

from typing import cast

from domain.lcg.events import Payment
from domain.lcg.rules.resources import can_pay_cost, cost_payments
from domain.lcg.state import LcgState
from tools.fixtures import Run


def _table() -> tuple[LcgState, Run]:
    run = Run(
        {
            "game": {"players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
            "position": {
                "at": "lcg.planning.window",
                "phase": "planning",
                "zones": {
                    "p1.heroes": [
                        {"card": "Aragorn", "resources": 2},
                        {"card": "Gimli", "resources": 1},
                        {"card": "Legolas", "resources": 1},
                    ]
                },
            },
        }
    )
    return cast(LcgState, run.game.state), run


def test_only_heroes_of_the_sphere_pay() -> None:
    s, run = _table()
    aragorn, gimli, legolas = run.uid("Aragorn"), run.uid("Gimli"), run.uid("Legolas")
    assert cost_payments(s, "p1", "leadership", 2) == [(Payment(aragorn, 2),)]
    assert not can_pay_cost(s, "p1", "leadership", 3)
    assert cost_payments(s, "p1", "tactics", 2) == [(Payment(gimli, 1), Payment(legolas, 1))]
    assert not can_pay_cost(s, "p1", "spirit", 1)


def test_any_hero_pays_for_a_neutral_card() -> None:
    s, _ = _table()
    assert can_pay_cost(s, "p1", "neutral", 4)
    assert len(cost_payments(s, "p1", "neutral", 4)) == 1
    assert len(cost_payments(s, "p1", "neutral", 2)) == 4  # 2+0+0, 1+1+0, 1+0+1, 0+1+1


def test_a_card_costing_nothing_still_needs_a_hero_of_its_sphere() -> None:
    s, _ = _table()
    assert cost_payments(s, "p1", "tactics", 0) == [()]
    assert not can_pay_cost(s, "p1", "lore", 0)
    assert cost_payments(s, "p1", "lore", 0) == []


def test_a_cost_from_several_heroes_pools() -> None:
    s, run = _table()
    assert can_pay_cost(s, "p1", "neutral", 3, heroes_needed=3)
    assert cost_payments(s, "p1", "neutral", 3, heroes_needed=3) == [
        (Payment(run.uid("Aragorn"), 1), Payment(run.uid("Gimli"), 1), Payment(run.uid("Legolas"), 1))
    ]
    assert not can_pay_cost(s, "p1", "tactics", 2, heroes_needed=3)
