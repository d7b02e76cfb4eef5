"""Attachment rules the fixtures cannot show by events: traits an attachment gives, and the
printed attach restrictions of the whole pool."""

from __future__ import annotations

from uuid import uuid4

import msgspec

from domain.game import Game
from domain.lcg.cards import CARDS, register_cards
from domain.lcg.events import AttachmentAttached, CardsDiscarded
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


def _shown_as_the_rules_count(s: LcgState) -> None:
    """Every hero's view shows the stats and traits the rules count now."""
    for hero, shown in zip(table.heroes(s, "p1"), view(s, "p1").players[0].heroes, strict=True):
        counted = [table.stat(s, hero, which) for which in ("willpower", "attack", "defense", "hit_points")]
        assert [shown.willpower, shown.attack, shown.defense, shown.hit_points] == counted, table.name(s, hero)
        assert shown.traits == table.traits(s, hero)
        assert [a.uid for a in shown.attachments] == table.attachments_on(s, hero)


def test_a_view_shows_the_attachments_where_they_are_now() -> None:
    """A view reads the attachments zone once for all its cards (``table.stats_on``): after an
    attachment moves to another hero, and another is discarded, the same state's next view
    shows each hero's stats and traits from the attachments it has then."""
    s = _table(
        {
            "attachments": [
                {"card": "Citadel Plate", "on": "Gimli"},
                {"card": "Steward of Gondor", "on": "Gimli"},
                {"card": "Dwarven Axe", "on": "Gimli"},
            ]
        }
    )
    aragorn, _, legolas = table.heroes(s, "p1")
    plate, steward, axe = s.zone("attachments")
    _shown_as_the_rules_count(s)
    heroes = view(s, "p1").players[0].heroes
    assert (heroes[1].hit_points, heroes[1].attack, heroes[2].hit_points) == (9, 4, 4)
    assert "Gondor" in heroes[1].traits
    LCG.appliers[AttachmentAttached](s, AttachmentAttached(card=plate, to=legolas))
    LCG.appliers[CardsDiscarded](s, CardsDiscarded(cards=(steward,)))
    LCG.appliers[AttachmentAttached](s, AttachmentAttached(card=axe, to=aragorn))
    _shown_as_the_rules_count(s)
    heroes = view(s, "p1").players[0].heroes
    assert (heroes[0].attack, heroes[1].hit_points, heroes[1].attack, heroes[2].hit_points) == (3 + 1, 5, 2, 8)
    assert "Gondor" not in heroes[1].traits and [a.uid for a in heroes[2].attachments] == [plate]


def test_a_trait_in_the_attach_restriction_narrows_the_targets() -> None:
    s = _table({"p1.hand": ["Citadel Plate"]})
    plate = s.zone("p1.hand")[0]
    assert attachments.targets(s, plate) == table.heroes(s, "p1")
    printed = CARDS["core-040"]
    register_cards(msgspec.structs.replace(printed, attach_to="Dwarf hero"))
    try:
        assert [table.name(s, u) for u in attachments.targets(s, plate)] == ["Gimli"]
    finally:
        register_cards(printed)


def test_every_attachment_of_the_pool_has_a_known_restriction() -> None:
    s = _table({})
    pool = [c for c in CARDS.values() if c.type == "attachment" and c.sphere is not None]
    assert len(pool) == 13
    for card in pool:
        s.cards[999] = Card(uid=999, code=card.code, zone="p1.hand", owner="p1")
        attachments.targets(s, 999)  # raises for a restriction it does not know
