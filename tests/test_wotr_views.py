"""What each viewer may see of a War of the Ring table (default-deny)."""

from __future__ import annotations

from uuid import uuid4

from domain.game import Game
from domain.kernel.events import DecisionRequested
from domain.wotr.position import build
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from projections.wotr import REFEREE, SPECTATOR, TableView, view


def table(zones: dict[str, list[object]], **position: object) -> WotrState:
    placed = build({"scenario": "trilogy"}, {"at": "wotr.action", "zones": zones, **position})
    game = Game.start_at(uuid4(), WOTR, placed.created, placed.placed, placed.frames)
    assert isinstance(game.state, WotrState)
    return game.state


def seat(t: TableView, name: str) -> object:
    return next(p for p in t.players if p.seat == name)


def test_hands_decks_and_piles_are_private() -> None:
    s = table(
        {
            "frodo.hand": ["Gimli"],
            "aragorn.hand": ["Legolas"],
            "witch-king.hand": ["Mordor Orcs"],
            "frodo.deck": ["Sting"],
            "frodo.cycle": ["Glamdring"],
            "aragorn.cycle": ["Elrond"],
            "frodo.reserve": ["Sam Gamgee"],
        }
    )
    mine = view(s, "frodo")
    frodo, aragorn, witch_king = (
        next(p for p in mine.players if p.seat == n) for n in ("frodo", "aragorn", "witch-king")
    )
    assert [c.name for c in frodo.hand or []] == ["Gimli"]
    assert [c.name for c in frodo.cycle or []] == ["Glamdring"]
    assert frodo.deck is None and frodo.deck_size == 1
    # A teammate sees only what the table shows.
    assert aragorn.hand is None and aragorn.hand_size == 1 and aragorn.cycle is None and aragorn.cycle_size == 1
    assert witch_king.hand is None
    assert [c.name for c in frodo.reserve] == ["Sam Gamgee"]
    assert mine.seed is None
    spectator = view(s, SPECTATOR)
    assert all(p.hand is None and p.cycle is None for p in spectator.players)
    referee = view(s, REFEREE)
    assert all(p.hand is not None and p.deck is not None for p in referee.players)


def test_the_pending_decision_goes_only_to_its_seat() -> None:
    s = table({"frodo.hand": ["Gimli", "Sting", "Glamdring"]})
    assert s.pending is not None and s.pending.seat == "frodo"
    assert view(s, "frodo").decision is not None
    assert view(s, "aragorn").decision is None and view(s, "aragorn").waiting_for == "frodo"


def test_mirror_of_galadriel_shows_its_owner_the_top_of_the_deck() -> None:
    zones: dict[str, list[object]] = {
        "aragorn.reserve": ["Galadriel", {"card": "Mirror of Galadriel", "on": "Galadriel"}],
        "aragorn.deck": ["Legolas", "Elrond"],
        "frodo.deck": ["Gimli"],
        "frodo.hand": ["Sting", "Glamdring", "Mithril Coat"],
    }
    s = table(zones)
    aragorn = next(p for p in view(s, "aragorn").players if p.seat == "aragorn")
    assert aragorn.top_of_deck is not None and aragorn.top_of_deck.name == "Legolas"
    frodo = next(p for p in view(s, "frodo").players if p.seat == "frodo")
    assert frodo.top_of_deck is None
    other = next(p for p in view(s, "frodo").players if p.seat == "aragorn")
    assert other.top_of_deck is None
    without = table({k: v for k, v in zones.items() if k != "aragorn.reserve"})
    assert next(p for p in view(without, "aragorn").players if p.seat == "aragorn").top_of_deck is None


def test_the_shadow_paths_lie_face_down() -> None:
    s = table({"shadow.score": ["Weathertop", "Moria"], "frodo.hand": ["Gimli", "Sting", "Glamdring"]}, corruption=2)
    shadow = view(s, "frodo").teams[1]
    assert shadow.face_down_paths == 1 and [loc.name for loc in shadow.scored] == ["Moria"]
    assert shadow.score == 1 + 2
    assert [loc.name for loc in view(s, REFEREE).teams[1].scored] == ["Weathertop", "Moria"]


def test_the_event_feed_keeps_each_seats_secrets() -> None:
    """A seat's feed never names another seat's hand, any deck order, or another's options."""
    import random

    from bots import random_choice
    from domain.wotr.options import wotr_options
    from projections.feed import Feed

    game = Game.start(uuid4(), WOTR, WOTR.created(wotr_options("trilogy"), 4))
    rng = random.Random(4)
    for _ in range(150):
        d = game.state.pending
        assert d is not None
        game.answer(d.seat, d.id, random_choice(d, rng))
    events = list(game.pending_events)
    feed = Feed(WOTR, "aragorn", WOTR.new_state())
    projected_events = feed.project_many(events)
    for event, projected in zip(events, projected_events, strict=True):
        body = projected.body
        if projected.type == "DeckShuffled":
            assert "order" not in body
        if projected.type == "CardsDrawn" and body["player"] != "aragorn":
            assert not body.get("cards")
        if isinstance(event, DecisionRequested) and event.decision.seat != "aragorn":
            assert "options" not in body["decision"]
    own = [p for p in projected_events if p.type == "CardsDrawn" and p.body["player"] == "aragorn"]
    assert own and all(p.body["cards"] for p in own)
