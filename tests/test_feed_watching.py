"""A viewer's feed projected while the rules run equals the feed folded afterwards.

The service projects a command's events for the seat that sent it as the rules apply them
(the feed watches the game's own state), instead of folding them again onto a copy of the
state from before the command. Both must give the same events, redactions and lines, for
every viewer, at every decision of whole games of both rulesets.
"""

from __future__ import annotations

import random
import uuid

import pytest

from bots import random_choice
from domain.game import Game
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from projections.feed import REFEREE, SPECTATOR, Feed
from tests.conftest import new_lcg


def _games() -> list[tuple[str, Game]]:
    return [
        ("lcg, two players", new_lcg(31, players=2)),
        ("lcg, Dol Guldur", new_lcg(32, players=1, scenario="escape-from-dol-guldur")),
        ("wotr, trilogy", Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options("trilogy", {}), 33))),
    ]


@pytest.mark.parametrize("name", [name for name, _ in _games()])
def test_the_feed_watching_the_rules_equals_the_feed_folded_afterwards(name: str) -> None:
    game = dict(_games())[name]
    rules, codec = game.rules, game.rules.codec
    viewers = [*rules.seats(game.state), SPECTATOR, REFEREE]
    rng = random.Random(name)
    answered = 0
    while (decision := game.state.pending) is not None and answered < 400:
        before = codec.encode(game.state)
        viewer = viewers[answered % len(viewers)]
        watching = Feed(rules, viewer, game.state)
        events = game.answer(decision.seat, decision.id, random_choice(decision, rng), watching)
        folded = Feed(rules, viewer, codec.decode_state(before)).project_many(events)
        assert watching.collected() == folded, f"{name}: decision {decision.id} as seen by {viewer}"
        answered += 1
    assert answered >= 10
