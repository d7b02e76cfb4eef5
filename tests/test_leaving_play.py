"""A card leaving play is cleared as the plain reset of its tokens and states clears it.

``domain.lcg.moving.leaves_play`` reads the card's fields at once (``msgspec.structs.astuple``)
rather than one generic attribute lookup each, and writes only those not already cleared.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from domain.lcg import moving
from domain.lcg.state import Card
from tests.read_counts import count_reads

_CLEARED = ("exhausted", "committed", "damage", "resources", "progress", "attached_to", "surge", "shown", "cancelled")


def _plain_leaves_play(card: Card) -> None:
    card.exhausted = card.committed = card.surge = card.shown = card.cancelled = False
    card.damage = card.resources = card.progress = 0
    card.attached_to = None


def _card(rng: random.Random) -> Card:
    def flag() -> bool:
        return rng.random() < 0.3

    def count() -> int:
        return rng.choice((0, 0, 1, 3))

    return Card(
        uid=rng.randint(1, 99),
        code="core-001",
        owner=rng.choice((None, "p1")),
        zone=rng.choice(("p1.heroes", "staging", "p2.hand")),
        exhausted=flag(),
        damage=count(),
        resources=count(),
        progress=count(),
        committed=flag(),
        attached_to=rng.choice((None, None, 7)),
        face=rng.choice("AB"),
        surge=flag(),
        shown=flag(),
        claimed=flag(),
        cancelled=flag(),
        known=flag(),
    )


def test_a_card_leaving_play_is_cleared_as_the_plain_reset() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        card = _card(rng)
        fast, plain = msgspec.structs.replace(card), msgspec.structs.replace(card)
        moving.leaves_play(fast)
        _plain_leaves_play(plain)
        assert fast == plain
        assert msgspec.json.encode(fast) == msgspec.json.encode(plain)


def test_a_card_leaving_play_is_read_by_no_attribute_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    # nine generic lookups from compiled code, ~1,500 instructions a card leaving play
    counts: Counter[str] = Counter()
    count_reads(monkeypatch, Card, _CLEARED, counts)
    rng = random.Random(6)
    for _ in range(50):
        moving.leaves_play(_card(rng))
    assert not counts
