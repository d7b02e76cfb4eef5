"""A take-back cannot show what chance hid: what no seat had seen at the question taken back
is drawn afresh (the chance still to come from a fresh seed, the decks and face-down cards
already dealt redrawn), what a seat has seen stays where it is, and the new game keeps every
invariant: it folds, reloads at any version and goes on as played, and re-executes from its
log. Both games; the service's take-backs over gRPC are in ``test_rpc_take_back.py``."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.decisions import RuleError
from domain.kernel.events import NO_CAUSE, CardsRedrawn, DecisionAnswered, DecisionRequested, Event, Reseeded
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import fold
from domain.lcg import events as lcg_ev
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState, face_down_pile
from domain.verify import verify
from domain.wotr import events as wotr_ev
from domain.wotr.moving import unseen_pile
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from projections.feed import REFEREE, Feed, projection
from service.app import Westmarch
from tools.fixtures import Run, load

FIXTURES = Path(__file__).parent / "fixtures" / "lcg" / "cards"


def _played(rules: Ruleset[Any], created: Event, seed: int) -> list[Event]:
    game = Game.start(uuid.uuid4(), rules, created)
    rng = random.Random(seed * 7919)
    while (decision := game.state.pending) is not None:
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    return list(game.pending_events)


def _taken_back(rules: Ruleset[Any], events: Sequence[Event], at: int, seed: int) -> Game:
    """The game taken back to the question asked at ``at``, with the fresh seed ``seed``."""
    game = Game.forked(uuid.uuid4(), rules, events[:at])
    game.reseed(seed)
    return game


def _retried(branch: Game, original: Sequence[Event], at: int) -> int:
    """Give the branch the answers the original gave from the question at ``at`` on, as long
    as each still fits the question asked (the seat tries again the same way); how many."""
    given = 0
    for event in original[at:]:
        decision = branch.state.pending
        if not isinstance(event, DecisionAnswered) or decision is None:
            continue
        if decision.seat != event.seat:
            break
        try:
            branch.answer(decision.seat, decision.id, event.choice)
        except RuleError:
            break
        given += 1
    return given


def _shown(events: Sequence[Event], after: int) -> list[int]:
    """The cards chance brought into sight after version ``after``, in order: encounter cards
    revealed, shadow cards turned, cards drawn (LCG); cards drawn, a bot's cards played (WotR)."""
    out: list[int] = []
    for event in events[after:]:
        if isinstance(event, lcg_ev.EncounterCardRevealed | lcg_ev.ShadowCardRevealed):
            out.append(event.card)
        elif isinstance(event, lcg_ev.CardsDrawn | wotr_ev.CardsDrawn) or (
            isinstance(event, wotr_ev.BotChose) and event.shown
        ):
            out += event.cards
    return out


def _view(rules: Ruleset[Any], state: Any, viewer: str) -> dict[str, Any]:
    """The table as ``viewer`` sees it, without the log's bookkeeping (version, the question's number)."""
    table: dict[str, Any] = msgspec.to_builtins(projection(rules.name).view(state, viewer))
    table.pop("version", None)
    if isinstance(table.get("decision"), dict):
        table["decision"].pop("id", None)
    return table


def _places_of_seen(state: Any, unseen: Any) -> dict[int, tuple[str, int]]:
    """Where every card lies that is not in a face-down pile unseen: it must not move."""
    return {
        uid: (card.zone, state.zones[card.zone].index(uid))
        for uid, card in state.cards.items()
        if not unseen(state, card)
    }


def _lcg_unseen(s: LcgState, card: Any) -> bool:
    return face_down_pile(s.players, card.zone) and not (card.known or card.shown)


def _wotr_unseen(s: WotrState, card: Any) -> bool:
    return unseen_pile(s, card.zone) and not card.known


def _questions(events: Sequence[Event], seat: str, before: Sequence[int]) -> list[int]:
    """For each version in ``before``, the last question asked of ``seat`` before it."""
    asked = [e.seq for e in events if isinstance(e, DecisionRequested) and e.decision.seat == seat]
    return [max(v for v in asked if v < point) for point in before if any(v < point for v in asked)]


def _continue(
    app: Westmarch, game_id: uuid.UUID, rules: Ruleset[Any], events: list[Event], version: int
) -> list[Event]:
    """Reload the stored game at ``version`` and give it the rest of its log's answers and facts."""
    again = Game(game_id, rules, app.state_at(game_id, version))
    again.resume()
    for event in events[version:]:
        if event.seq <= again.version:
            continue
        if isinstance(event, DecisionAnswered):
            again.answer(event.seat, event.decision, event.choice)
        elif rules.told_rule(type(event)) is not None:
            again.tell(msgspec.structs.replace(event, seq=0, cause=NO_CAUSE, flow=None, draws=0, hash=""))
    return [*events[:version], *again.pending_events]


def _check_taken_back(
    app: Westmarch, rules: Ruleset[Any], original: list[Event], at: int, seed: int, seat: str, unseen: Any
) -> tuple[list[int], list[int]]:
    """Take back the question at ``at`` and check the branch; the cards shown after it in the
    original and in the branch retried the same way."""
    before = fold(rules, original[:at])
    branch = _taken_back(rules, original, at, seed)
    added = list(branch.pending_events)[at:]
    assert isinstance(added[0], Reseeded) and isinstance(added[-1], DecisionRequested)
    redraws = [e for e in added if isinstance(e, CardsRedrawn)]
    assert redraws, "something face down was drawn afresh"
    after = branch.state
    # the question is asked again as it was, and every seat people play (and the spectator)
    # sees the table it saw; a Shadow bot's own hand is what was redrawn
    asked = original[at - 1]
    assert isinstance(asked, DecisionRequested) and after.pending is not None
    assert msgspec.structs.replace(after.pending, id=asked.decision.id) == asked.decision
    viewers = [*rules.played_by_people(after), "spectator"]
    for viewer in viewers:
        assert _view(rules, after, viewer) == _view(rules, before, viewer), viewer
    # nothing a seat has seen moved; every pool's unseen cards only traded places
    assert _places_of_seen(after, unseen) == _places_of_seen(before, unseen)
    for redraw in redraws:
        assert sorted(redraw.cards) == sorted(redraw.places) and redraw.cards != redraw.places
        assert all(unseen(before, before.cards[u]) for u in redraw.places)
    # the seats' feeds tell that it happened, never what: no seed, no card
    for viewer in viewers:
        feed = Feed(rules, viewer, fold(rules, original[:at]))
        for told in feed.project_many(added[:-1]):
            assert "seed" not in told.body and "cards" not in told.body and "places" not in told.body, told
            assert not told.hash
    referee = Feed(rules, REFEREE, fold(rules, original[:at])).project_many(added[:1])
    assert referee[0].body["seed"] == seed
    # retried the same way, and played on to the end: it folds, verifies and reloads anywhere
    _retried(branch, original, at)
    rng = random.Random(seed)
    while (decision := branch.state.pending) is not None:
        branch.answer(decision.seat, decision.id, random_choice(decision, rng))
    events = list(branch.pending_events)
    assert verify(rules, events).ok
    assert rules.codec.encode(fold(rules, events)) == rules.codec.encode(branch.state)
    app.store(branch)
    for version in sorted(
        {at, at + 1, at + len(added) - 1, at + len(added), random.Random(seed).randint(at, len(events))}
    ):
        replayed = _continue(app, branch.id, rules, events, version)
        assert [rules.codec.encode(e) for e in replayed] == [rules.codec.encode(e) for e in events], version
    return _shown(original, at), _shown(events, at)


LCG_GAMES = [
    ("passage-through-mirkwood", 1, 3),
    ("passage-through-mirkwood", 2, 4),
    ("journey-along-the-anduin", 1, 5),
    ("escape-from-dol-guldur", 1, 6),
    ("hunt-for-the-dreadnaught", 2, 7),
    ("the-lonely-mountain", 1, 8),
]


@pytest.mark.parametrize(("scenario", "players", "seed"), LCG_GAMES)
def test_an_lcg_take_back_cannot_reveal_an_unseen_card(
    scenario: str, players: int, seed: int, sqlite_app: Westmarch
) -> None:
    original = _played(LCG, LCG.created(lcg_options(scenario, players), seed), seed)
    revealed = [e.seq for e in original if isinstance(e, lcg_ev.EncounterCardRevealed)]
    # questions of p1 just before encounter cards are revealed, early and half way through
    points = _questions(original, "p1", [revealed[2], revealed[len(revealed) // 2]])
    assert points
    for n, at in enumerate(points):
        was, now = _check_taken_back(sqlite_app, LCG, original, at, seed * 100 + n, "p1", _lcg_unseen)
        assert len(was) >= 3 and len(now) >= 3
        assert now[:3] != was[:3], f"{scenario} seed {seed}: the cards shown after the take-back are the same"


@pytest.mark.parametrize("seed", [3, 4])
def test_a_war_of_the_ring_take_back_cannot_reveal_an_unseen_card(seed: int, sqlite_app: Westmarch) -> None:
    """Against the Shadow: the bots' hands, decks and cycle piles and every draw deck."""
    options = wotr_options("trilogy", None, ["witch-king", "saruman"], "standard")
    original = _played(WOTR, WOTR.created(options, seed), seed)
    drawn = [e.seq for e in original if isinstance(e, wotr_ev.CardsDrawn) and e.player == "frodo"]
    points = _questions(original, "frodo", [drawn[len(drawn) // 3], drawn[len(drawn) // 2]])
    assert points
    for n, at in enumerate(points):
        was, now = _check_taken_back(sqlite_app, WOTR, original, at, seed * 100 + n, "frodo", _wotr_unseen)
        assert len(was) >= 3 and len(now) >= 3
        assert now[:3] != was[:3], f"seed {seed}: the cards shown after the take-back are the same"


# -- what a seat has seen stays where it is ---------------------------------------------------


def _fixture(name: str, choose: list[str] | None = None, **zones: list[Any]) -> Run:
    """The fixture ``name`` with more cards in ``zones``, played as its steps say (or with
    ``choose`` as the one step's answer)."""
    data = load(next(FIXTURES.rglob(f"{name}.toml")))
    data["position"]["zones"].update(zones)
    run = Run(data)
    for step in data.get("step", []):
        decision = run.game.state.pending
        assert decision is not None
        run.game.answer(decision.seat, decision.id, run.choice(decision, choose or step.get("choose", [])))
    return run


def _redrawn(run: Run, seeds: range) -> list[LcgState]:
    """The state after taking back the question now pending, with each fresh seed."""
    events = run.log
    at = run.game.version
    assert run.game.state.pending is not None
    out = []
    for seed in seeds:
        state = _taken_back(LCG, events, at, seed).state
        assert isinstance(state, LcgState)
        out.append(state)
    return out


MORE = ["Black Forest Bats", "Hummerhorns", "Dol Guldur Orcs", "Great Forest Web", "Necromancer's Pass"]


def test_a_card_looked_at_on_top_of_the_encounter_deck_stays_on_top() -> None:
    """Henamarth Riversong looked at the top card: only it is known, it stays; the rest is redrawn."""
    run = _fixture("henamarth-riversong-looks-at-top-encounter-card", **{"encounter.deck": ["King Spider", *MORE]})
    top = run.uid("King Spider")
    assert run.game.state.cards[top].known
    orders = [s.zone("encounter.deck") for s in _redrawn(run, range(6))]
    assert all(order[0] == top for order in orders)
    assert len({tuple(order[1:]) for order in orders}) > 1, "the cards no one has seen are drawn afresh"


def test_a_shadow_card_looked_at_stays_with_its_enemy_and_the_unseen_one_is_redrawn() -> None:
    """Dark Knowledge: p1 looked at the shadow card dealt to King Spider; Forest Spider's shadow
    card, which no one has seen, could be any card of the encounter deck no one has seen."""
    run = _fixture(
        "dark-knowledge-minus-willpower-and-look-at-shadow",
        **{"encounter.deck": ["Dol Guldur Orcs", "Forest Gate", *MORE]},
    )
    seen, unseen = run.uid("Dol Guldur Orcs"), run.uid("Forest Gate")
    spider, king = run.uid("Forest Spider"), run.uid("King Spider")
    states = _redrawn(run, range(6))
    for s in states:
        assert s.cards[seen].zone == "shadows" and s.cards[seen].attached_to == king
        dealt = [u for u in s.zone("shadows") if s.cards[u].attached_to == spider]
        assert len(dealt) == 1 and s.cards[dealt[0]].zone == "shadows"
        assert s.cards[unseen].attached_to is None or s.cards[unseen].attached_to == spider
    assert {next(u for u in s.zone("shadows") if s.cards[u].attached_to == spider) for s in states} != {unseen}


def test_a_card_a_burgle_attempt_turned_up_stays_on_top_of_the_deck() -> None:
    """The card turned up goes back on top of the deck face down, seen by everyone: it stays."""
    run = _fixture(
        "burgle-sphere-and-type-match-croaking-crows",
        ["fail"],  # the deck is shuffled before the card is turned up: whichever it is
        **{"p1.deck": ["Guard of the Citadel", "Gondorian Spearman", "Veteran Axehand", "Snowbourn Scout", "Gléowine"]},
    )
    state = run.game.state
    assert isinstance(state, LcgState) and run.game.state.pending is not None
    top = state.zone("p1.deck")[0]
    assert state.cards[top].known, "the card the attempt turned up is known where it lies"
    orders = [s.zone("p1.deck") for s in _redrawn(run, range(6))]
    assert all(order[0] == top for order in orders)
    assert len({tuple(order[1:]) for order in orders}) > 1


def test_the_top_card_a_mirror_of_galadriel_shows_stays_on_top_of_its_deck() -> None:
    """War of the Ring: "While in play, you may look at the top card of your draw deck at any
    time" (Mirror of Galadriel): the top card is known to its owner; the rest is redrawn."""
    deck = ["Strider", "Andúril", "Lembas", "Nenya, Ring of Adamant", "Gimli", "Legolas"]
    data = {
        "game": {"ruleset": "wotr"},
        "position": {
            "at": "wotr.action",
            "start": "aragorn",
            "round": 2,
            "path_number": 2,
            "rings": {"frodo": "used", "witch-king": "used", "aragorn": "used", "saruman": "used"},
            "zones": {
                "aragorn.reserve": [
                    {"card": "Galadriel", "reserved": True},
                    {"card": "Mirror of Galadriel", "on": "Galadriel"},
                ],
                "aragorn.hand": ["Elrond", "Arwen"],
                "aragorn.deck": deck,
            },
        },
    }
    shown = Run(data)
    assert shown.game.state.pending is not None
    without = dict(data, position={**data["position"], "zones": {**data["position"]["zones"], "aragorn.reserve": []}})
    for run, kept in ((shown, True), (Run(without), False)):
        at, top = run.game.version, run.uid("Strider")
        assert run.game.state.zone("aragorn.deck")[0] == top
        orders = [_taken_back(WOTR, run.log, at, seed).state.zone("aragorn.deck") for seed in range(8)]
        assert all(order[0] == top for order in orders) is kept
        assert len({tuple(order) for order in orders}) > 1
