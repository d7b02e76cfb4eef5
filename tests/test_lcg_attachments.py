"""Attachment rules the fixtures cannot show by events: traits an attachment gives, and the
printed attach restrictions of the whole pool."""

from __future__ import annotations

from uuid import uuid4

import msgspec
import pytest

from domain.game import Game
from domain.lcg.cards import CARDS
from domain.lcg.position import build
from domain.lcg.rules import attachments, table
from domain.lcg.ruleset import LCG
from domain.lcg.state import Card, LcgState
from projections.lcg import view


def _table(zones: dict[str, list[object]]) -> LcgState:
    position = build(
        {"players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]}, {"zones": zones, "at": "lcg.planning"}
    )
    game = Game.start_at(uuid4(), LCG, position.created, position.placed, list(position.frames))
    assert isinstance(game.state, LcgState)
    return game.state


def test_steward_of_gondor_gives_its_hero_the_gondor_trait() -> None:
    s = _table({"attachments": [{"card": "Steward of Gondor", "on": "Gimli"}]})
    gimli, legolas = table.heroes(s, "p1")[1:]
    assert table.has_trait(s, gimli, "Gondor") and table.has_trait(s, gimli, "Dwarf")
    assert not table.has_trait(s, legolas, "Gondor")
    assert view(s, "p1").players[0].heroes[1].traits == ("Dwarf", "Noble", "Warrior", "Gondor")


def test_a_trait_in_the_attach_restriction_narrows_the_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _table({"p1.hand": ["Citadel Plate"]})
    plate = s.zone("p1.hand")[0]
    assert attachments.targets(s, plate) == table.heroes(s, "p1")
    monkeypatch.setitem(CARDS, "core-040", msgspec.structs.replace(CARDS["core-040"], attach_to="Dwarf hero"))
    assert [table.name(s, u) for u in attachments.targets(s, plate)] == ["Gimli"]


def test_every_attachment_of_the_pool_has_a_known_restriction() -> None:
    s = _table({})
    pool = [c for c in CARDS.values() if c.type == "attachment" and c.sphere is not None]
    assert len(pool) == 13
    for card in pool:
        s.cards[999] = Card(uid=999, code=card.code, zone="p1.hand", owner="p1")
        attachments.targets(s, 999)  # raises for a restriction it does not know
