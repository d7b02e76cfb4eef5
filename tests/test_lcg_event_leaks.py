"""Event cards and secrecy: an event in hand stays hidden from the other seats until it is
played, even while its owner is asked whether to play it; a cancelled card's identity is
shown exactly where the table shows it (a revealed encounter card, a face-up shadow card).

Positions are laid out as fixtures are; each viewer's feed is the one the service sends.
"""

from __future__ import annotations

import json
from typing import Any, cast

import pytest

from domain.game import Game
from domain.kernel.events import DecisionRequested, Event
from domain.lcg import events as ev
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.feed import Feed, Projected
from projections.lcg import view
from tests.leak_support import mentioned
from tests.test_rpc_leaks import SECRETS
from tools.fixtures import Run

VIEWERS = ("p1", "spectator")


MIRKWOOD, ANDUIN, DOL_GULDUR = "passage-through-mirkwood", "journey-along-the-anduin", "escape-from-dol-guldur"


def _position(hand_event: str, zones: dict[str, Any], at: str, phase: str, scenario: str = MIRKWOOD) -> Run:
    return Run(
        {
            "game": {
                "players": 2,
                "scenario": scenario,
                "heroes": [["Aragorn", "Gimli", "Legolas"], ["Éowyn", "Dúnhere", "Glorfindel"]],
            },
            "position": {
                "at": at,
                "phase": phase,
                "zones": {
                    "p2.heroes": [{"card": "Éowyn", "resources": 2}, "Dúnhere", "Glorfindel"],
                    "p2.hand": [hand_event],
                    **zones,
                },
            },
        }
    )


def _state(game: Game) -> LcgState:
    return cast(LcgState, game.state)


def _answer(game: Game, choice: str) -> None:
    decision = game.state.pending
    assert decision is not None
    game.answer(decision.seat, decision.id, (choice,))


def _feed(game: Game, viewer: str) -> list[Projected]:
    return Feed(LCG, viewer, LCG.new_state()).project_many(game.pending_events)


def _mentions(projected: Projected, uid: int) -> bool:
    """Whether a projected event names card ``uid`` (in a card field of its body, a chosen
    option, or its cause), by the leak test's own reading of event bodies."""
    found = set(mentioned(projected.body, SECRETS))
    found |= {int(c) for c in projected.body.get("choice", []) if str(c).isdigit()}
    if projected.cause.get("card") is not None:
        found.add(projected.cause["card"])
    return uid in found


def _seq(game: Game, kind: type[Event]) -> int:
    return next(e.seq for e in game.pending_events if isinstance(e, kind))


TREACHERIES = [(MIRKWOOD, "The Necromancer's Reach"), (ANDUIN, "Massing at Night"), (DOL_GULDUR, "Under the Shadow")]
"""A treachery with a When Revealed effect from each Core scenario's own encounter sets."""


def _test_of_will_in_hand(scenario: str = MIRKWOOD, treachery: str = "The Necromancer's Reach") -> Run:
    """p2 holds A Test of Will as a treachery is revealed."""
    return _position(
        "A Test of Will",
        {
            "p1.heroes": [{"card": "Aragorn", "exhausted": True, "committed": True}, "Gimli", "Legolas"],
            "encounter.deck": [treachery],
        },
        "lcg.quest.staging",
        "quest",
        scenario,
    )


@pytest.mark.parametrize(("scenario", "treachery"), TREACHERIES)
def test_a_response_event_in_hand_is_hidden_until_played(scenario: str, treachery: str) -> None:
    run = _test_of_will_in_hand(scenario, treachery)
    game = run.game
    test_of_will, reach = run.uid("A Test of Will"), run.uid(treachery)
    assert game.state.pending is not None and game.state.pending.seat == "p2"
    assert game.state.pending.rule == "lcg.event.response"
    for viewer in VIEWERS:  # while p2 is asked: the table does not show the card
        table = json.dumps([p.hand for p in view(_state(game), viewer).players if p.seat == "p2"], default=str)
        assert "A Test of Will" not in table
    _answer(game, "yes")
    played = _seq(game, ev.EventPlayed)
    for viewer in VIEWERS:
        feed = _feed(game, viewer)
        before = [p for p in feed if p.seq < played]
        assert not any(_mentions(p, test_of_will) for p in before), viewer
        asked = next(p for p in before if p.type == "DecisionRequested" and p.body["decision"]["seat"] == "p2")
        assert set(asked.body["decision"]) == {"id", "seat", "rule", "kind"}
        assert asked.body["decision"]["rule"] == "lcg.event.response"
        assert "Test of Will" not in " ".join(p.text for p in before)
        shown = next(p for p in feed if p.type == "EventPlayed")
        assert shown.body["card"] == test_of_will and "A Test of Will" in shown.text
        cancelled = next(p for p in feed if p.type == "EffectCancelled")
        assert cancelled.body == {"card": reach, "effect": "when-revealed"}, viewer
        assert treachery in cancelled.text


@pytest.mark.parametrize(("scenario", "treachery"), TREACHERIES)
def test_a_declined_response_event_never_shows(scenario: str, treachery: str) -> None:
    run = _test_of_will_in_hand(scenario, treachery)
    game = run.game
    test_of_will = run.uid("A Test of Will")
    _answer(game, "no")
    assert _state(game).cards[test_of_will].zone == "p2.hand"
    for viewer in VIEWERS:
        feed = _feed(game, viewer)
        assert not any(_mentions(p, test_of_will) for p in feed), viewer
        answered = next(p for p in feed if p.type == "DecisionAnswered" and p.body.get("seat") == "p2")
        assert answered.body["choice"] == [] and answered.body["choice_hidden"] == 1
    mine = _feed(game, "p2")
    assert any(_mentions(p, test_of_will) for p in mine if p.type == "DecisionRequested")


def test_an_action_event_is_offered_to_its_owner_only() -> None:
    run = _position(
        "A Light in the Dark",
        {"p2.engaged": ["Forest Spider"], "encounter.deck": ["East Bight Patrol"]},
        "lcg.combat",
        "combat",
    )
    game = run.game
    light = run.uid("A Light in the Dark")
    decision = game.state.pending
    assert decision is not None and decision.seat == "p2"
    assert any(o.card == light for o in decision.options)
    asked = next(e for e in reversed(game.pending_events) if isinstance(e, DecisionRequested))
    for viewer in VIEWERS:
        feed = {p.seq: p for p in _feed(game, viewer)}
        assert not _mentions(feed[asked.seq], light)
        assert view(_state(game), viewer).decision is None


SHADOWS = [
    (MIRKWOOD, "Dol Guldur Orcs", "East Bight Patrol"),
    (ANDUIN, "Dol Guldur Orcs", "Misty Mountain Goblins"),
    (DOL_GULDUR, "Dungeon Jailor", "Under the Shadow"),
]
"""(scenario, attacking enemy, its shadow card): a shadow effect from each Core scenario."""


@pytest.mark.parametrize(("scenario", "enemy", "shadow"), SHADOWS)
def test_a_cancelled_shadow_card_shows_as_the_face_up_card_it_is(scenario: str, enemy: str, shadow: str) -> None:
    run = _position(
        "Hasty Stroke",
        {
            "p2.engaged": [enemy],
            "shadows": [{"card": shadow, "on": enemy}],
        },
        "lcg.combat.enemy-attacks",
        "combat",
        scenario,
    )
    game = run.game
    patrol = run.uid(shadow)
    _answer(game, str(run.uid("Glorfindel")))
    _answer(game, "yes")
    turned = _seq(game, ev.ShadowCardRevealed)
    for viewer in VIEWERS:
        feed = _feed(game, viewer)
        assert not any(_mentions(p, patrol) for p in feed if p.seq < turned and p.type != "PositionSet"), viewer
        cancelled = next(p for p in feed if p.type == "EffectCancelled")
        assert cancelled.body == {"card": patrol, "effect": "shadow"}
        assert shadow in cancelled.text


def test_beorn_shuffled_into_the_deck_hides_the_deck_order() -> None:
    """Beorn leaving play into his deck names him (he was on the table) but never the order
    of the deck he joins, for any viewer, his owner included."""
    run = Run(
        {
            "game": {"players": 1, "heroes": [["Denethor", "Gimli", "Legolas"]], "seed": 1},
            "position": {
                "at": "lcg.combat.window.enemy-attacks",
                "phase": "combat",
                "zones": {
                    "p1.heroes": [
                        {"card": "Denethor", "exhausted": True},
                        {"card": "Gimli", "exhausted": True},
                        {"card": "Legolas", "exhausted": True},
                    ],
                    "p1.allies": ["Beorn"],
                    "p1.engaged": ["Forest Spider"],
                    "p1.deck": ["Guard of the Citadel", "Faramir", "Son of Arnor"],
                    "encounter.deck": ["Forest Gate"],
                },
            },
        }
    )
    game = run.game
    beorn = run.uid("Beorn")
    _answer(game, run.choice(game.state.pending, ["Beorn"])[0])  # type: ignore[arg-type]
    _answer(game, str(beorn))
    assert any(isinstance(e, ev.ShuffledIntoDeck) for e in game.pending_events)
    for viewer in ("p1", "spectator"):
        shuffled = next(p for p in _feed(game, viewer) if p.type == "ShuffledIntoDeck")
        assert "order" not in shuffled.body and shuffled.body["count"] == 4
        assert shuffled.body["card"] == beorn and "Beorn" in shuffled.text
