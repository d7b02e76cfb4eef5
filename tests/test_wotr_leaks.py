"""Leak test for War of the Ring: over random games of every scenario played over gRPC, no view,
stream or history shows a seat a card it may not see.

What a viewer may not see is this test's own rule, from the rules' section on information and the
zones of the referee's folded history: every draw deck, the path and battleground decks (face
down), and another seat's hand, cycle pile, eliminated pile and the cards it draws aside to choose
from — a teammate's included (hands are secret between teammates too); the paths in the Shadow's
scoring area lie face down. Against the Shadow: a Shadow bot's eliminated pile may be inspected
by anyone (seed 003). While a seat's Mirror of Galadriel is in play, the top card of its own
draw deck is not hidden from it (aragorn-060: "While in play, you may look at the top card of
your draw deck at any time"). A card a seat looked at is shown to that seat, and a card taken by
name from a deck is shown to all. The oracle and the game played over gRPC are in
``tests/leak_support.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import msgspec
import pytest

from bots import is_action_window
from domain.game import Game
from domain.kernel.decisions import Decision, Kind
from domain.kernel.events import DecisionAnswered, Event
from domain.wotr import events as wotr_events
from domain.wotr.cards import CARDS, LOCATIONS
from domain.wotr.options import wotr_options
from domain.wotr.rules.table import mirror_in_play
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from projections.wotr import view as wotr_view
from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer
from tests.leak_support import Oracle, Secrets, play_and_check
from tests.rpc_support import stub_for, threaded_server, tokens

GAMES = [  # (scenario, seed, decisions at most)
    ("trilogy", 201, 400),
    ("trilogy", 202, 400),
    ("two-player-duel", 203, 400),
    ("three-player-duel", 204, 400),
    ("fellowship", 205, 200),
]

MIRROR = "Mirror of Galadriel"

_PRIVATE = {"hand", "cycle", "eliminated", "aside"}
"""A seat's own zones: face down to every other viewer."""


def _mirror_shows(state: WotrState, viewer: str) -> set[int]:
    """The top card of ``viewer``'s draw deck while its own Mirror of Galadriel is in play (in
    a reserve, or on an active location wielded by Galadriel): aragorn-060's text lets it look
    at that card at any time."""
    deck = state.zones.get(f"{viewer}.deck", [])
    active = [state.cards[u].code for zone in ("path", "battlegrounds") for u in state.zones.get(zone, [])]
    in_play = [u for zone, uids in state.zones.items() if zone.endswith(".reserve") for u in uids]
    in_play += [u for code in active for u in state.zones.get(f"at.{code}", [])]
    mirror = any(CARDS[state.cards[u].code].name == MIRROR and state.cards[u].owner == viewer for u in in_play)
    return {deck[0]} if mirror and deck else set()


def hidden_from(state: WotrState, viewer: str) -> set[int]:
    """The cards ``viewer`` may not see in ``state`` (the test's own rule, from zones)."""
    if state.over is not None:
        return set()
    hidden: set[int] = set()
    for zone, uids in state.zones.items():
        owner, _, rest = zone.partition(".")
        if owner in state.players:
            if rest == "eliminated" and state.is_bot(owner):
                continue  # Against the Shadow: anyone may inspect a Shadow bot's eliminated pile
            if rest == "deck" or (rest in _PRIVATE and owner != viewer):
                hidden.update(uids)
        elif owner == "paths" or zone in ("bg.free", "bg.shadow"):
            hidden.update(uids)
        elif zone == "shadow.score":
            hidden.update(u for u in uids if LOCATIONS[state.cards[u].code].kind == "path")
    return hidden - _mirror_shows(state, viewer)


def _shown(event: Event, viewer: str) -> set[int]:
    if isinstance(event, wotr_events.CardsLookedAt) and event.player == viewer:
        return set(event.cards)
    if isinstance(event, wotr_events.CardTaken):
        return {event.card}
    if isinstance(event, wotr_events.BotChose) and event.shown:
        return set(event.cards)  # a bot's card chosen to be played face up right after
    return set()


SECRETS = Secrets(
    rules=WOTR,
    hidden_from=hidden_from,
    view=wotr_view,
    card_keys=frozenset({"uid", "card", "location", "wielder", "about", "target", "source"}),
    list_keys=frozenset({"cards", "order", "played", "losses", "attackers"}),
    nested_keys=frozenset({"supports"}),
    shown=_shown,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    folder: Path = tmp_path_factory.mktemp("wotr-leaks")
    with threaded_server(store_env(db=str(folder / "games.db"))) as running:
        yield running


@pytest.mark.parametrize(("scenario", "seed", "limit"), GAMES)
def test_nothing_leaks(server: ThreadedServer, scenario: str, seed: int, limit: int) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = stub.CreateGame(pb.CreateGameRequest(game="wotr", scenario=scenario, seed=seed)).access
        assert len(tokens(access)) == len(access.seats) + 2
    play_and_check(server, access, SECRETS, seed, limit)


BOT_GAMES = [  # (scenario, bots, seed, decisions at most)
    ("trilogy", "witch-king,saruman", 211, 300),
    ("two-player-duel", "witch-king", 212, 300),
    ("fellowship", "balrog", 213, 200),
]


@pytest.mark.parametrize(("scenario", "bots", "seed", "limit"), BOT_GAMES)
def test_nothing_of_the_bots_leaks(server: ThreadedServer, scenario: str, bots: str, seed: int, limit: int) -> None:
    """Against the Shadow: the Free Peoples never see a bot's hand, its deck or the order of
    its deck (the bots' seats get no token: the rules play them)."""
    channel, stub = stub_for(server.address)
    with channel:
        request = pb.CreateGameRequest(game="wotr", scenario=scenario, seed=seed, options={"bots": bots})
        access = stub.CreateGame(request).access
        assert {s.seat for s in access.seats}.isdisjoint(bots.split(","))
        assert len(tokens(access)) == len(access.seats) + 2
    play_and_check(server, access, SECRETS, seed, limit)


def test_the_oracle_sees_a_leak() -> None:
    """The oracle is not blind: another seat's hand in a view, or a draw told in full, is caught."""
    from uuid import uuid4

    import msgspec

    from domain.game import Game
    from domain.wotr.options import wotr_options
    from projections.feed import Feed
    from service.rpc.convert import event_pb
    from tests.leak_support import Oracle

    game = Game.start(uuid4(), WOTR, WOTR.created(wotr_options("trilogy"), 1))
    events = list(game.pending_events)
    oracle = Oracle(SECRETS, events, ["frodo", "aragorn"])
    state = game.state
    assert isinstance(state, WotrState)
    mine = msgspec.json.encode(wotr_view(state, "frodo"))
    oracle.check_view("frodo", state.version, mine, "frodo's own view")
    with pytest.raises(AssertionError, match="hidden cards"):
        oracle.check_view("aragorn", state.version, mine, "frodo's view sent to aragorn")
    told = {
        p.seq: event_pb(p)
        for p in Feed(WOTR, "frodo", WOTR.new_state()).project_many(events)
        if p.type == "CardsDrawn" and p.body["player"] == "frodo"
    }
    assert told
    for event in told.values():
        event.hash = ""
        oracle.check_event("frodo", event, "frodo's own draw")
        with pytest.raises(AssertionError, match="hidden cards"):
            oracle.check_event("aragorn", event, "frodo's draw sent to aragorn")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bots": "witch-king"}, "must name every Shadow seat"),
        ({"bots": "witch-king,saruman", "difficulty": "hard"}, "difficulty must be one of"),
        ({"bots": "witch-king,saruman", "bot_cards": "[[card]]\ncode = 1\n"}, "bot card file"),
    ],
)
def test_bad_bot_options_are_refused(server: ThreadedServer, options: dict[str, str], message: str) -> None:
    import grpc

    channel, stub = stub_for(server.address)
    with channel, pytest.raises(grpc.RpcError) as refused:
        stub.CreateGame(pb.CreateGameRequest(game="wotr", scenario="trilogy", options=options))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in str(refused.value.details())


# -- Mirror of Galadriel: the top of its owner's deck is the owner's to see ----------------------


def _first(decision: Decision) -> tuple[str, ...]:
    """What the lobby's browser test clicks: an action window passed (auto-pass), else the
    first option, the fewest choices, every card in the order offered, the least number."""
    if is_action_window(decision):
        return ("pass",)
    if decision.kind is Kind.NUMBER:
        return (str(decision.min),)
    if decision.kind is Kind.ORDER:
        return tuple(o.id for o in decision.options)
    if decision.kind is Kind.MANY:
        return tuple(o.id for o in decision.options[: decision.min])
    return (decision.options[0].id,)


def test_the_top_card_a_mirror_of_galadriel_shows_its_owner_is_no_leak() -> None:
    """Regression: this test's rule once hid every draw deck whole, so aragorn's own view with
    his Mirror of Galadriel in play (which shows him the top of his deck: aragorn-060) was
    taken for a leak. Seen once in the lobby's browser test ("aragorn's SubmitDecision view at
    version 78 showed hidden card 78", the seed not reported) and found again by playing its
    game over the service with many seeds: the Trilogy against both Shadow bots, decisions
    clicked as the browser test clicks them, aragorn's decision taken back after 8 clicks.
    This is seed 12 with the fresh seed its take-back drew; aragorn's Mirror comes into play
    at version 547. The card stays hidden from frodo, and the rest of the deck from aragorn."""
    options = wotr_options("trilogy", None, ["witch-king", "saruman"], "standard")
    game = Game.start(uuid4(), WOTR, WOTR.created(options, 12))
    clicks = 0
    while (decision := game.state.pending) is not None and (clicks < 8 or decision.seat == "aragorn"):
        clicks += not is_action_window(decision)
        game.answer(decision.seat, decision.id, _first(decision))
    played = list(game.pending_events)
    at = next(e.decision for e in reversed(played) if isinstance(e, DecisionAnswered) and e.seat == "aragorn")
    branch = Game.forked(uuid4(), WOTR, played[:at])  # the take-back, as service/lineage.py makes it
    branch.resume()
    branch.reseed(5919060873945257216)
    shown_at: list[int] = []
    while (decision := branch.state.pending) is not None and len(shown_at) < 20:
        state = branch.state
        assert isinstance(state, WotrState)
        if mirror_in_play(state, "aragorn") and state.zone("aragorn.deck"):
            shown_at.append(state.version)
        branch.answer(decision.seat, decision.id, _first(decision))
    assert shown_at and shown_at[0] == 547
    viewers = ["frodo", "aragorn", "spectator"]
    oracle = Oracle(SECRETS, list(branch.pending_events), viewers, views_at=set(shown_at))
    for version in shown_at:
        for viewer in viewers:
            oracle.check_view(viewer, version, oracle.states_views[viewer][version], f"{viewer}'s view")
        aragorn = msgspec.json.decode(oracle.states_views["aragorn"][version])["players"]
        top = next(p for p in aragorn if p["seat"] == "aragorn")["top_of_deck"]["uid"]
        assert top not in oracle.hidden[version]["aragorn"] and top in oracle.hidden[version]["frodo"]
        assert len(oracle.hidden[version]["aragorn"] & oracle.hidden[version]["frodo"]) > 1  # the rest of the deck


def test_the_oracle_hides_the_top_of_a_deck_without_its_owners_mirror() -> None:
    """The Mirror shows its owner only the top card, and only while it is in play: in hand it
    shows nothing, and a teammate's Mirror shows nothing of one's own deck."""
    from domain.wotr.position import build

    def state_of(zones: dict[str, list[object]]) -> WotrState:
        placed = build({"scenario": "trilogy"}, {"at": "wotr.action", "zones": zones})
        state = Game.start_at(uuid4(), WOTR, placed.created, placed.placed, placed.frames).state
        assert isinstance(state, WotrState)
        return state

    decks: dict[str, list[object]] = {"aragorn.deck": ["Legolas", "Elrond"], "frodo.deck": ["Gimli", "Sting"]}
    mirror: list[object] = ["Galadriel", {"card": "Mirror of Galadriel", "on": "Galadriel"}]
    in_play = state_of({**decks, "aragorn.reserve": mirror})
    top, second = in_play.zone("aragorn.deck")
    assert top not in hidden_from(in_play, "aragorn") and second in hidden_from(in_play, "aragorn")
    assert {top, second} <= hidden_from(in_play, "frodo") and set(in_play.zone("frodo.deck")) <= hidden_from(
        in_play, "frodo"
    )
    in_hand = state_of({**decks, "aragorn.hand": ["Mirror of Galadriel"]})
    assert set(in_hand.zone("aragorn.deck")) <= hidden_from(in_hand, "aragorn")
