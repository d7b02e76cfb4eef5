"""The rules read a card's definition through a native copy (``table.Definition``).

A field of a :class:`~domain.lcg.cards.CardDef` (a msgspec Struct) read by the compiled rules
is a generic attribute lookup; ``table.definition`` keeps, per code, a native class holding
the fields the rules read most. These tests pin each copy to the card it was made from,
along random games of every scenario, through a card registered again, and check that the
rules' reads of the Struct's fields stay few.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from uuid import uuid4

import msgspec
import pytest

from bots import random_choice
from domain.game import Game
from domain.lcg.cards import CARDS, CardDef, register_cards
from domain.lcg.lineups import lcg_options
from domain.lcg.rules import table
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import SCENARIOS as LCG_SCENARIOS
from domain.lcg.state import LcgState
from tests.read_counts import count_reads

_FIELDS = ("code", "name", "type", "sphere", "unique", "cost", "keywords", "traits")


def _same_as(found: table.Definition, card: CardDef) -> None:
    for field in _FIELDS:
        assert getattr(found, field) == getattr(card, field), (card.code, field)
    for which, value in found.numbers.items():
        assert value == getattr(card, which), (card.code, which)


def test_a_definition_holds_the_fields_of_its_card() -> None:
    for code, card in CARDS.items():
        _same_as(table.definition(code), card)
        assert table.definition(code) is table.definition(code)  # made once per code


def _positions() -> Iterator[LcgState]:
    """Positions along random games of every LCG scenario, one to three players."""
    for scenario in sorted(LCG_SCENARIOS):
        for seed in range(1, 4):
            game = Game.start(uuid4(), LCG, LCG.created(lcg_options(scenario, seed), seed))
            rng = random.Random(seed)
            while (d := game.state.pending) is not None and game.version < 1200:
                if game.version % 23 == 0:
                    assert isinstance(game.state, LcgState)
                    yield game.state
                game.answer(d.seat, d.id, random_choice(d, rng))


def _plain_printed(s: LcgState, uid: int, which: str) -> int:
    card = s.cards[uid]
    if card.face == "B":
        side = table.SIDE_B_STATS.get(card.code)
        if side is not None and which in side:
            return side[which]
    value: int = getattr(CARDS[card.code], which)
    return value


def test_the_rules_read_each_card_as_its_definition_says() -> None:
    asked = 0
    for s in _positions():
        for uid, card in s.cards.items():
            d = table.defn(s, uid)
            found = table.definition_of(s, uid)
            assert found is table.definition(card.code)
            assert table.definition_in(s.cards, uid) is found
            _same_as(found, d)
            assert table.name(s, uid) == d.name
            for keyword in ("Ranged", "Sentinel", "Surge", "Restricted", "Guarded"):
                assert table.has_keyword(s, uid, keyword) == (
                    keyword in d.keywords or any(aura(s, uid, keyword) for aura in table.KEYWORD_AURAS)
                )
            for which in (*table.STATS, "quest_points", "victory_points"):
                assert table.printed(s, uid, which) == _plain_printed(s, uid, which), (uid, which)
            asked += 1
    assert asked > 5000


def test_a_card_registered_again_is_read_anew() -> None:
    game = Game.start(uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 1), 3))
    s = game.state
    assert isinstance(s, LcgState)
    uid = table.heroes(s, "p1")[0]
    code = s.cards[uid].code
    card = CARDS[code]
    assert table.definition_of(s, uid).cost == card.cost  # kept by uid and by code
    changed = msgspec.structs.replace(card, cost=card.cost + 5, keywords=("Sentinel",), willpower=9)
    try:
        register_cards(changed)
        assert table.definition(code).cost == card.cost + 5
        assert table.definition_of(s, uid).cost == card.cost + 5
        assert table.has_keyword(s, uid, "Sentinel")
        assert table.printed(s, uid, "willpower") == 9
    finally:
        register_cards(card)
    assert table.definition_of(s, uid).cost == card.cost
    assert table.printed(s, uid, "willpower") == card.willpower


def test_the_rules_read_few_fields_of_card_definitions(monkeypatch: pytest.MonkeyPatch) -> None:
    # Passage through Mirkwood random games (seeds 1-60 less 1-10, two players): ~5.8 reads
    # of a CardDef's fields an event before the native copies, ~1.5 with them
    for seed in (1, 2):  # every card's copy made, every text imported
        Game.start(uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 2), seed))
    counts: Counter[str] = Counter()
    count_reads(monkeypatch, CardDef, CardDef.__struct_fields__, counts)
    events = 0
    for seed in range(11, 16):
        game = Game.start(uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 2), seed))
        rng = random.Random(seed)
        while (d := game.state.pending) is not None:
            game.answer(d.seat, d.id, random_choice(d, rng))
        events += game.version
    assert sum(counts.values()) < 2.5 * events, counts.most_common(8)
