"""Leak test for The Lord of the Rings: over many random games played over gRPC, no view, stream
or history shows a seat a card it may not see.

What a viewer may not see is this test's own rule, from the zones of the referee's folded history:
every card in a deck, the encounter deck, the quest deck or unused quest cards, set-aside, another
seat's hand (every hand, for a spectator), face-down shadow cards, the player cards face down under
Orc Guards (and what is attached to hidden cards). The oracle and the game played over gRPC are in
``tests/leak_support.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest

from domain.kernel.events import Event
from domain.kernel.runtime import apply
from domain.lcg.cards import CARDS
from domain.lcg.encounter_events import OrcGuardMade
from domain.lcg.events import AttachmentPlayed, CardLookedAt, EventPlayed
from domain.lcg.hobbit_events import BurgleCardTurnedUp, BurgleSucceeded
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.lcg import view as lcg_view
from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer
from tests.leak_support import Secrets, play_and_check
from tests.rpc_support import create, stub_for, threaded_server

MIRKWOOD, ANDUIN, DOL_GULDUR = "passage-through-mirkwood", "journey-along-the-anduin", "escape-from-dol-guldur"
GAMES = [  # (players, seed, difficulty, decisions at most, scenario)
    (1, 101, "standard", 400, MIRKWOOD),
    (2, 102, "standard", 160, ANDUIN),
    (3, 103, "easy", 140, DOL_GULDUR),
    (4, 104, "standard", 120, MIRKWOOD),
    (2, 113, "easy", 400, DOL_GULDUR),  # Tower Gate makes Orc Guards of face-down player cards
    (3, 106, "standard", 110, ANDUIN),
    (2, 107, "standard", 90, MIRKWOOD),
    (4, 108, "easy", 100, DOL_GULDUR),
    (2, 166, "easy", 300, "the-lonely-mountain"),  # a burgle attempt: a deck card turned up, hand cards discarded
]

ORC_GUARDS_SEED = 113
BURGLE_SEED = 166

_HIDDEN_SHARED = {"encounter.deck", "corsair.deck", "quest.deck", "quest.unused", "set-aside", "treasures"}


def hidden_from(state: LcgState, viewer: str) -> set[int]:
    """The cards ``viewer`` may not see in ``state`` (the test's own rule, from zones)."""
    if state.over is not None:
        return set()
    hidden: set[int] = set()
    for zone, uids in state.zones.items():
        owner, _, rest = zone.partition(".")
        if zone in _HIDDEN_SHARED or rest in ("deck", "under") or (rest == "hand" and owner != viewer):
            hidden.update(uids)
        elif zone == "shadows":
            hidden.update(u for u in uids if not state.cards[u].shown)
    for zone in ("attachments",):
        for uid in state.zones.get(zone, []):
            host = state.cards[uid].attached_to
            if host in hidden:
                hidden.add(uid)
    return hidden


def _looked_at(event: Event, viewer: str) -> set[int]:
    return {event.card} if isinstance(event, CardLookedAt) and event.player == viewer else set()


SECRETS = Secrets(
    rules=LCG,
    hidden_from=hidden_from,
    view=lcg_view,
    card_keys=frozenset({"uid", "card", "enemy", "defender", "to", "target", "source", "about", "burgle", "revealed"}),
    list_keys=frozenset({"cards", "attackers", "discarded"}),
    shown=_looked_at,
    absent_from_events=("seed", "flow", "order"),
    absent_from_views=("seed", "encounter_deck"),
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    folder: Path = tmp_path_factory.mktemp("leaks")
    with threaded_server(store_env(db=str(folder / "games.db"))) as running:
        yield running


@pytest.mark.parametrize(("players", "seed", "difficulty", "limit", "scenario"), GAMES)
def test_nothing_leaks(
    server: ThreadedServer, players: int, seed: int, difficulty: str, limit: int, scenario: str
) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=players, seed=seed, difficulty=difficulty, scenario=scenario)
    play_and_check(server, access, SECRETS, seed, limit)
    if seed == ORC_GUARDS_SEED:  # the game this list counts on to show Orc Guards still does
        history = server.app.history(UUID(access.game_id))
        assert any(isinstance(e, OrcGuardMade) for e in history)
    if seed == BURGLE_SEED:  # a burgle attempt: a deck card turned up, cards of a hand discarded
        history = server.app.history(UUID(access.game_id))
        assert any(isinstance(e, BurgleCardTurnedUp) for e in history)
        assert any(isinstance(e, BurgleSucceeded) and e.discarded for e in history)


POOL_GAMES = [  # (heroes per player, seed, decisions at most, scenario)
    ((("Denethor", "Glorfindel", "Beravor"), ("Éowyn", "Eleanor", "Dúnhere")), 111, 220, MIRKWOOD),
    (
        (("Aragorn", "Gimli", "Legolas"), ("Théodred", "Glóin", "Thalin"), ("Éowyn", "Eleanor", "Dúnhere")),
        112,
        160,
        MIRKWOOD,
    ),
    ((("Aragorn", "Gimli", "Legolas"), ("Denethor", "Glorfindel", "Beravor")), 114, 220, ANDUIN),
    ((("Théodred", "Glóin", "Thalin"), ("Éowyn", "Eleanor", "Dúnhere")), 115, 220, DOL_GULDUR),
]
ATTACHMENTS = [c for c in CARDS.values() if c.type == "attachment" and c.sphere is not None]


@pytest.mark.parametrize(("heroes", "seed", "limit", "scenario"), POOL_GAMES)
def test_attachments_in_hand_stay_hidden(
    server: ThreadedServer, heroes: tuple[tuple[str, ...], ...], seed: int, limit: int, scenario: str
) -> None:
    """Decks of attachments (and allies to play them on), in each Core scenario: no other seat
    sees them in hand."""
    deck = [c.name for c in ATTACHMENTS for _ in range(c.quantity)] + ["Gléowine", "Gandalf", "Northern Tracker"]
    channel, stub = stub_for(server.address)
    with channel:
        access = stub.CreateGame(
            pb.CreateGameRequest(
                game="lcg",
                scenario=scenario,
                players=[pb.PlayerSetup(heroes=list(h), deck=deck) for h in heroes],
                seed=seed,
            )
        ).access
    play_and_check(server, access, SECRETS, seed, limit)
    history = server.app.history(UUID(access.game_id))
    state = LCG.new_state()
    in_hand = played = 0
    for event in history:
        apply(LCG, state, event)
        assert isinstance(state, LcgState)
        hands = [u for seat in state.order for u in state.zone(f"{seat}.hand")]
        in_hand += sum(1 for u in hands if CARDS[state.cards[u].code].type == "attachment")
        played += isinstance(event, AttachmentPlayed)
    assert in_hand and played, "no attachment was held in hand and played"


EVENT_GAMES = [(2, 111, 260, MIRKWOOD), (3, 112, 220, ANDUIN), (4, 113, 200, DOL_GULDUR)]
"""(players, seed, decisions at most, scenario): games whose decks hold every Core Set event
beside the allies: events sit in hands, are offered as Responses, played and cancel encounter
cards' effects."""


def _deck_with_events() -> list[str]:
    return [c.code for c in CARDS.values() if c.type in ("ally", "event") for _ in range(min(c.quantity, 3))]


@pytest.mark.parametrize(("players", "seed", "limit", "scenario"), EVENT_GAMES)
def test_nothing_leaks_with_events_in_hand(
    server: ThreadedServer, players: int, seed: int, limit: int, scenario: str
) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        request = pb.CreateGameRequest(
            game="lcg",
            scenario=scenario,
            players=[pb.PlayerSetup(deck=_deck_with_events()) for _ in range(players)],
            seed=seed,
        )
        access = stub.CreateGame(request).access
    play_and_check(server, access, SECRETS, seed, limit)
    played = [e for e in server.app.history(UUID(access.game_id)) if isinstance(e, EventPlayed)]
    assert played, "no event was played: the game shows nothing of events"
