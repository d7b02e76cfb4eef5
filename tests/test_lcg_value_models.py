"""The search's value of a position, scenario by scenario (bots/worlds.py ``LCG_VALUE_MODELS``):
The Hunt for the Dreadnaught reads the ships a player's life hangs on, which the Passage
through Mirkwood model does not."""

from __future__ import annotations

from typing import Any, cast

import pytest

from bots.worlds import (
    LCG_VALUE,
    LCG_VALUE_FEATURES,
    LCG_VALUE_WEIGHTS,
    SHIP_HIT_POINTS,
    SHIP_VALUE_FEATURES,
    SHIP_VALUE_WEIGHTS,
    ValueModel,
    lcg_value_model,
    logistic,
    searchable,
    ship_features,
)
from domain.lcg.state import LcgState
from tools import fit_value
from tools.fixtures import Run

DREADNAUGHT = "hunt-for-the-dreadnaught"


def _state(zones: dict[str, Any], quest: str = "Searching the High Seas") -> LcgState:
    run = Run(
        {
            "game": {"scenario": DREADNAUGHT, "players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
            "position": {
                "at": "lcg.quest.commit",
                "phase": "quest",
                "threat": {"p1": 30},
                "zones": {"quest": [{"card": quest, "face": "B"}], **zones},
            },
        }
    )
    return cast(LcgState, run.game.state)


def _features(zones: dict[str, Any], quest: str = "Searching the High Seas") -> dict[str, float]:
    return dict(zip(SHIP_VALUE_FEATURES, ship_features(_state(zones, quest), "p1"), strict=True))


def test_the_dreadnaughts_features_read_the_ships_and_the_dreadnaught() -> None:
    whole = _features({"p1.allies": ["Pride of Lebennin"]})
    worn = _features({"p1.allies": [{"card": "Pride of Lebennin", "damage": 10}]})
    sunk = _features({})
    assert whole["ships"] == 1.0  # Pride of Lebennin: 16 hit points
    assert worn["ships"] == (16 - 10) / SHIP_HIT_POINTS
    assert sunk["ships"] == 0.0
    assert whole["dreadnaught"] == 0.0
    hit = _features(
        {"p1.allies": ["Pride of Lebennin"], "p1.engaged": [{"card": "Dreadnaught", "damage": 6}]},
        "Destroy the Dreadnaught",
    )
    assert hit["dreadnaught"] == 6 / 15  # 15 hit points per player
    # the features every LCG position has come first, read as the Mirkwood model reads them
    assert SHIP_VALUE_FEATURES[: len(LCG_VALUE_FEATURES)] == LCG_VALUE_FEATURES


def test_each_scenario_is_valued_by_its_own_model() -> None:
    assert lcg_value_model("passage-through-mirkwood") is LCG_VALUE
    assert lcg_value_model("journey-along-the-anduin") is LCG_VALUE
    ships = lcg_value_model(DREADNAUGHT)
    assert ships.names == SHIP_VALUE_FEATURES
    assert len(SHIP_VALUE_WEIGHTS) == len(SHIP_VALUE_FEATURES) + 1
    weights = dict(zip(SHIP_VALUE_FEATURES, SHIP_VALUE_WEIGHTS[1:], strict=True))
    assert weights["ships"] > 0 and weights["threat"] < 0


def test_a_damaged_ship_lowers_the_value_of_a_dreadnaught_position() -> None:
    value = searchable("lcg").value
    assert value is not None
    whole = value(_state({"p1.allies": ["Pride of Lebennin"]}), "p1")
    worn = value(_state({"p1.allies": [{"card": "Pride of Lebennin", "damage": 10}]}), "p1")
    assert 0.0 < worn < whole < 1.0


def test_a_dreadnaught_fit_reads_the_ships() -> None:
    data = fit_value.samples(2, 7, DREADNAUGHT)
    assert data and all(len(x) == len(SHIP_VALUE_FEATURES) for x, _ in data)
    # before the scenario had weights of its own, its positions were valued by the Mirkwood
    # model's weights on the features both read: --check scores that reading beside the others
    model = lcg_value_model(DREADNAUGHT)
    reading = fit_value.mirkwood_reading(model)
    assert len(reading) == len(model.weights)
    for x, _ in data:
        assert logistic(reading, x) == logistic(LCG_VALUE_WEIGHTS, x[: len(LCG_VALUE_FEATURES)])
    odd = ValueModel(("ships",), ship_features, (0.0, 1.0), "ODD")
    with pytest.raises(ValueError, match="Mirkwood model's features"):
        fit_value.mirkwood_reading(odd)
