"""The Hunt for the Dreadnaught: setup by difficulty, invariants over random games, secrecy.

Setup runs before round 1, so fixtures (which start at a step of the round) cannot show
it; these tests start real games and fold their events up to the first round. Sources: the
scenario's rulebook ("Difficulty Modes", "Preparing Your Fleet", "The Corsair Deck") and
the three setup cards.
"""

from __future__ import annotations

import random
import tomllib
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from domain.game import Game
from domain.kernel.events import Event
from domain.kernel.runtime import fold
from domain.lcg import events as ev
from domain.lcg.decks.formats import read_deck
from domain.lcg.lineups import SetupError, lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.feed import Feed
from projections.lcg import view as lcg_view
from service.app import Westmarch, store_env
from service.rpc.convert import event_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer
from tests.invariant_support import Probed, check_rate, play_probed
from tests.leak_support import Oracle, play_and_check
from tests.rpc_support import stub_for, threaded_server
from tests.test_invariants import _check
from tests.test_rpc_leaks import SECRETS
from tools.fixtures import Run

SCENARIO = "hunt-for-the-dreadnaught"
FLEET = {f"thftd-{n:03}" for n in range(6, 12)}
CORSAIRS = {f"thftd-{n:03}" for n in range(20, 26)}
UNIQUE_ENEMIES = {f"thftd-{n:03}" for n in range(13, 20)}
SETUP_CARDS = {"easy": "thftd-001", "standard": "thftd-002", "hard": "thftd-003"}


def _new(seed: int, players: int, difficulty: str) -> Game:
    options = lcg_options(SCENARIO, players, None, difficulty)
    return Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))


def _setup(players: int, difficulty: str, seed: int) -> tuple[LcgState, list[Event]]:
    """The table at the end of setup: every player keeps their hand and takes the first ship
    offered (Pride of Lebennin, when taken, shuffles back the first five cards offered)."""
    game = _new(seed, players, difficulty)
    while (d := game.state.pending) is not None and game.state.round == 0:  # type: ignore[attr-defined]
        ids = [o.id for o in d.options]
        choice = ("keep",) if "keep" in ids else tuple(ids[: max(d.min, 1)])
        game.answer(d.seat, d.id, choice)
    events = [r.event for r in game.collect_events()]
    first_round = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundBegan))
    state = fold(LCG, events[:first_round])
    assert isinstance(state, LcgState)
    return state, events[:first_round]


def _codes(state: LcgState, zone: str) -> list[str]:
    return [state.cards[u].code for u in state.zone(zone)]


@pytest.mark.parametrize("difficulty", ["easy", "standard", "hard"])
@pytest.mark.parametrize("players", [1, 3])
def test_setup_prepares_the_fleet_and_the_corsair_deck(players: int, difficulty: str) -> None:
    state, events = _setup(players, difficulty, seed=7 + players)
    seats = state.order
    # Each player controls one unique ship-objective, Basic side up; the others are set aside.
    ships = [c for s in seats for c in _codes(state, f"{s}.allies")]
    assert len(ships) == players and set(ships) <= FLEET and len(set(ships)) == players
    assert all(state.cards[u].face == "A" for s in seats for u in state.zone(f"{s}.allies"))
    aside = _codes(state, "set-aside")
    assert sorted(c for c in aside if c in FLEET) == sorted(FLEET - set(ships))
    assert aside.count("thftd-012") == 4, "the four Gondorian Warships are set aside"
    assert set(aside) >= UNIQUE_ENEMIES, "the Dreadnaught and the six unique Corsairs are set aside"
    # The Corsair deck: the 13 non-ship, non-unique Corsair enemies, shuffled.
    corsair = _codes(state, "corsair.deck")
    assert len(corsair) == 13 and set(corsair) == CORSAIRS
    assert any(isinstance(e, ev.DeckShuffled) and e.zone == "corsair.deck" for e in events)
    assert not CORSAIRS & set(_codes(state, "encounter.deck"))
    # The setup card of the difficulty, side B up beside the quest; the other two removed.
    assert _codes(state, "setup") == [SETUP_CARDS[difficulty]]
    assert state.cards[state.zone("setup")[0]].face == "B"
    assert sorted(_codes(state, "removed")) == sorted(c for d, c in SETUP_CARDS.items() if d != difficulty)
    staging = _codes(state, "staging")
    locations = [u for u in state.zone("staging")]
    if difficulty == "easy":
        assert staging == ["thftd-035"], "Cobas Haven starts in the staging area"
        assert _codes(state, "set-aside").count("thftd-026") == 2 and "thftd-029" in aside
        assert all(state.cards[h].resources >= 1 for s in seats for h in state.zone(f"{s}.heroes"))
    elif difficulty == "standard":
        assert len(locations) == (3 if players >= 3 else 2)
        assert all(state.cards[u].code in {f"thftd-{n:03}" for n in range(34, 40)} for u in locations)
    else:
        expected = ["thftd-038"] * 3 + (["thftd-039"] * 2 if players >= 3 else [])
        assert sorted(staging) == sorted(expected)
    assert _codes(state, "quest") == ["thftd-004"] and state.cards[state.zone("quest")[0]].face == "B"


def test_hard_mode_only_where_a_scenario_has_it() -> None:
    assert lcg_options(SCENARIO, 1, None, "hard").difficulty == "hard"
    with pytest.raises(SetupError, match="unknown difficulty 'hard'"):
        lcg_options("passage-through-mirkwood", 1, None, "hard")


# -- invariants over random-bot games ------------------------------------------------------------

GAMES = 500
"""Random-bot games from setup: 1 to 4 players, the three difficulties, and in one game of
five the first player brings a 100-card deck and A Perilous Voyage."""
CHUNKS = 10
RELOADED, LEAK_CHECKED = 7, 11
"""Every 7th game is stored, reloaded at a random version and continued, and re-executed from
the store (its seed and decisions); every 11th game's events and views are checked for hidden
cards. Both moduli are prime to the 4 player counts and 3 difficulties, so each sample meets
every setup. Every game is folded and compared with its live state, and probed with illegal
answers."""


def _random_setup(seed: int) -> tuple[int, str, bool]:
    return 1 + seed % 4, ("standard", "easy", "hard")[seed % 3], seed % 5 == 2


def _random_new(seed: int) -> Game:
    players, difficulty, voyage = _random_setup(seed)
    if not voyage:
        return _new(seed, players, difficulty)
    deck = read_deck("\n".join(_hundred_card_deck()))
    options = lcg_options(SCENARIO, players, None, difficulty, [deck], ["A Perilous Voyage"])
    return Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))


def _chunk(k: int) -> range:
    size = -(-GAMES // CHUNKS)
    return range(k * size + 1, min(GAMES, (k + 1) * size) + 1)


def _no_leaks(game: Game, seed: int) -> None:
    """Each seat's and the spectator's event feed, and their views at 20 random versions,
    against the LCG leak test's oracle (tests/test_rpc_leaks.py)."""
    events = list(game.pending_events)
    state = game.state
    assert isinstance(state, LcgState)
    viewers = [*state.order, "spectator"]
    versions = set(random.Random(seed).sample(range(len(events) + 1), min(20, len(events) + 1)))
    oracle = Oracle(SECRETS, events, viewers, versions)
    for viewer in viewers:
        where = f"seed {seed}, {viewer}"
        for version in versions:
            oracle.check_view(viewer, version, oracle.states_views[viewer][version], where)
        for projected in Feed(LCG, viewer, LCG.new_state()).project_many(events):
            oracle.check_event(viewer, event_pb(projected), where)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Westmarch:
    """One SQLite store for the reloaded games of a test process."""
    return Westmarch(store_env(db=str(tmp_path_factory.mktemp("hunt-invariants") / "games.db")))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_the_invariants(chunk: int, store: Westmarch) -> None:
    encode = LCG.codec.encode
    probed: list[Probed] = []
    setups, checked, endings = set(), Counter[str](), Counter[str]()
    for seed in _chunk(chunk):
        played = play_probed(_random_new(seed), seed, encode)
        played.check(f"seed {seed}")
        probed.append(played)
        game = played.game
        events = list(game.pending_events)
        assert encode(fold(LCG, events)) == encode(game.state), f"seed {seed}: fold differs"
        over = game.state.over
        assert over is not None
        endings[over.reason] += 1
        setups.add(_random_setup(seed))
        if seed % RELOADED == 0:
            _check(store, seed, game)
            checked["reloaded"] += 1
        if seed % LEAK_CHECKED == 0:
            _no_leaks(game, seed)
            checked["leaks"] += 1
        if any(isinstance(e, ev.CardFlipped) and e.cause.rule == "thftd-047.forced" for e in events):
            checked["voyage flipped"] += 1
    check_rate(probed)
    assert {p for p, _, _ in setups} == {1, 2, 3, 4} and {d for _, d, _ in setups} == {"easy", "standard", "hard"}
    assert any(v for _, _, v in setups), "a game with A Perilous Voyage"
    assert checked["reloaded"] >= 7 and checked["leaks"] >= 4 and checked["voyage flipped"] > 0, checked
    assert sum(endings.values()) == len(_chunk(chunk))


# -- secrecy: the Corsair deck, the encounter deck and hands ---------------------------------------
# The oracle is the LCG leak test's own (tests/test_rpc_leaks.py): the Corsair deck is face down
# like the encounter deck, the Corsair discard pile face up.


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    folder: Path = tmp_path_factory.mktemp("hunt-leaks")
    with threaded_server(store_env(db=str(folder / "games.db"))) as running:
        yield running


@pytest.mark.parametrize(("players", "seed", "difficulty", "limit"), [(2, 41, "standard", 220), (3, 42, "hard", 160)])
def test_corsair_deck_and_hands_do_not_leak(
    server: ThreadedServer, players: int, seed: int, difficulty: str, limit: int
) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        request = pb.CreateGameRequest(
            game="lcg",
            scenario=SCENARIO,
            players=[pb.PlayerSetup() for _ in range(players)],
            options={"difficulty": difficulty},
            seed=seed,
        )
        access = stub.CreateGame(request).access
    play_and_check(server, access, SECRETS, seed, limit)


def test_the_corsair_deck_is_counted_not_shown() -> None:
    state, _ = _setup(2, "standard", seed=5)
    table = lcg_view(state, "p1")
    assert table.corsair_deck_size == 13
    assert table.setup and table.setup[0].code == "thftd-002"
    assert not any(c.code in CORSAIRS for c in table.staging + table.corsair_discard)


# -- the ships' Setup texts (they run as the fleet is prepared, before any fixture can start) --------


def _fleet_game(ship: str, seed: int = 3) -> tuple[LcgState, list[Event]]:
    """A one-player game where the player takes ``ship`` and answers every other setup
    question with its first option."""
    game = _new(seed, 1, "standard")
    while (d := game.state.pending) is not None and game.state.round == 0:  # type: ignore[attr-defined]
        by_label = {o.label: o.id for o in d.options}
        ids = [o.id for o in d.options]
        if d.rule == "thftd.setup.fleet":
            choice: tuple[str, ...] = (by_label[ship],)
        else:
            choice = ("keep",) if "keep" in ids else tuple(ids[: max(d.min, 1)])
        game.answer(d.seat, d.id, choice)
    events = [r.event for r in game.collect_events()]
    first_round = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundBegan))
    state = fold(LCG, events[:first_round])
    assert isinstance(state, LcgState)
    return state, events[:first_round]


def _by(state: LcgState, event: Event) -> str | None:
    """The code of the card whose text caused ``event``."""
    return state.cards[event.cause.card].code if event.cause.card is not None else None


def _rules(events: list[Event]) -> list[str]:
    return [e.cause.rule for e in events]


def test_golden_wing_setup_lowers_threat_and_gives_a_hero_ranged() -> None:
    from domain.lcg.rules import table

    state, events = _fleet_game("Golden Wing")
    reduced = [e for e in events if isinstance(e, ev.ThreatReduced)]
    assert [e.amount for e in reduced] == [3] and reduced[0].cause.rule == "thftd-007.setup"
    heroes = state.zone("p1.heroes")
    assert [table.has_keyword(state, h, "Ranged") for h in heroes].count(True) >= 1
    assert all(table.hit_points(state, h) == table.defn(state, h).hit_points + 1 for h in heroes)


def test_pride_of_lebennin_setup_draws_five_and_shuffles_five_back() -> None:
    state, events = _fleet_game("Pride of Lebennin")
    drawn = [e for e in events if isinstance(e, ev.CardsDrawn) and _by(state, e) == "thftd-008"]
    assert [len(e.cards) for e in drawn] == [5]
    assert len(state.zone("p1.hand")) == 6
    assert any(isinstance(e, ev.DeckShuffled) and e.cause.rule == "thftd-008.setup" for e in events)


def test_silent_mist_setup_hand_of_eight() -> None:
    state, events = _fleet_game("Silent Mist")
    assert len(state.zone("p1.hand")) == 8
    assert [len(e.cards) for e in events if isinstance(e, ev.CardsDrawn) and _by(state, e) == "thftd-009"] == [2]


def test_swan_ship_setup_gives_each_hero_a_resource() -> None:
    state, events = _fleet_game("Swan Ship of Dol Amroth")
    assert all(state.cards[h].resources == 1 for h in state.zone("p1.heroes"))
    assert "thftd-010.setup" in _rules(events)


def test_eithiliant_setup_records_the_borrowed_traits_and_adds_willpower() -> None:
    from domain.lcg.rules import table

    state, events = _fleet_game("Eithiliant")
    flag = next(limit.key for limit in state.limits if limit.key.startswith("traits:"))
    gainer, giver = (int(u) for u in flag.split(":")[1:])
    assert set(table.defn(state, giver).traits) <= set(table.traits(state, gainer))
    assert "thftd-006.setup" in _rules(events)
    heroes = state.zone("p1.heroes")
    assert all(table.willpower(state, h) == table.defn(state, h).willpower + 1 for h in heroes)


# -- the contract ------------------------------------------------------------------------------------


def test_a_perilous_voyage_needs_a_deck_of_100_cards() -> None:
    """Rulebook, Contracts: a contract's deck restrictions must be met to choose it."""
    with pytest.raises(SetupError, match="needs at least 100"):
        lcg_options(SCENARIO, 1, None, "standard", (), ["A Perilous Voyage"])
    with pytest.raises(SetupError, match="unknown contract"):
        lcg_options(SCENARIO, 1, None, "standard", (), ["No Such Contract"])


def test_a_perilous_voyage_starts_in_play_beside_the_heroes() -> None:
    import msgspec

    from domain.lcg.state import HeroSetup

    options = lcg_options(SCENARIO, 1, None, "standard")
    hundred = tuple(options.players[0].deck * 5)[:100]
    setup = HeroSetup(options.players[0].heroes, hundred, "thftd-047")
    options = msgspec.structs.replace(options, players=(setup,))
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, 3))
    state = game.state
    assert isinstance(state, LcgState)
    assert [state.cards[u].code for u in state.zone("p1.contract")] == ["thftd-047"]
    assert len(state.zone("p1.deck")) + len(state.zone("p1.hand")) == 100


def _voyage_game(ship: str, seed: int = 3) -> tuple[LcgState, list[Event]]:
    """A one-player game with A Perilous Voyage (a 100-card deck) where the player takes
    ``ship``, to the first round."""
    import msgspec

    from domain.lcg.state import HeroSetup

    options = lcg_options(SCENARIO, 1, None, "standard")
    hundred = tuple(options.players[0].deck * 5)[:100]
    options = msgspec.structs.replace(options, players=(HeroSetup(options.players[0].heroes, hundred, "thftd-047"),))
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))
    while (d := game.state.pending) is not None and game.state.round == 0:  # type: ignore[attr-defined]
        by_label = {o.label: o.id for o in d.options}
        ids = [o.id for o in d.options]
        choice = (by_label[ship],) if d.rule == "thftd.setup.fleet" else ("keep",) if "keep" in ids else (ids[0],)
        game.answer(d.seat, d.id, choice)
    events = [r.event for r in game.collect_events()]
    state = game.state
    assert isinstance(state, LcgState)
    return state, events


def test_a_perilous_voyage_side_a_lets_encounter_cards_reduce_threat() -> None:
    """Side A forbids only player card effects: Golden Wing (a ship-objective, an encounter
    card) still lowers the threat by 3 as the fleet is prepared."""
    state, events = _voyage_game("Golden Wing")
    reduced = [e for e in events if isinstance(e, ev.ThreatReduced)]
    assert [(e.amount, e.cause.rule) for e in reduced] == [(3, "thftd-007.setup")]
    from domain.lcg.rules import table

    printed = sum(table.defn(state, h).threat_cost for h in state.zone("p1.heroes"))
    assert state.players["p1"].threat == printed - 3


def test_a_perilous_voyage_threat_rules_differ_by_side() -> None:
    """Side A: "Player card effects cannot reduce your threat" (a contract is a player card:
    rulebook, Contracts). Side B: "Only contract effects can reduce your threat": an
    encounter card's effect (Golden Wing's) no longer may, the contract's own still does."""
    from domain.lcg.rules import caps
    from tools.fixtures import Run

    for face, encounter_allowed in (("A", True), ("B", False)):
        run = Run(
            {
                "game": {"scenario": SCENARIO, "players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
                "position": {
                    "at": "lcg.planning",
                    "phase": "resource",
                    "zones": {
                        "p1.contract": [{"card": "A Perilous Voyage", "face": face}],
                        "p1.allies": ["Golden Wing"],
                        "p1.hand": ["The Galadhrim's Greeting"],
                    },
                },
            }
        )
        state = run.game.state
        assert isinstance(state, LcgState)
        unlimited = caps.threat_reduction_allowed(state, "p1")
        assert caps.threat_reduction_allowed(state, "p1", run.uid("The Galadhrim's Greeting")) == 0
        by_ship = caps.threat_reduction_allowed(state, "p1", run.uid("Golden Wing"))
        assert (by_ship == unlimited) is encounter_allowed, face
        assert caps.threat_reduction_allowed(state, "p1", run.uid("A Perilous Voyage")) == (
            unlimited if face == "B" else 0
        )


# -- choosing the contract over gRPC -----------------------------------------------------------------


def _hundred_card_deck() -> list[str]:
    """A legal deck of 102 cards: 3 copies each of 34 playable titles, as deck text."""
    from domain.lcg.cards import CARDS
    from domain.lcg.decks import playable

    titles = sorted({c.name for c in CARDS.values() if c.type in ("ally", "attachment", "event") and playable(c.code)})
    return ["Heroes: Aragorn, Gimli, Legolas", *(f"3x {t}" for t in titles[:34])]


def test_the_contract_is_listed_in_the_catalog(server: ThreadedServer) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        games = stub.GetCatalog(pb.GetCatalogRequest()).games
    lcg = next(g for g in games if g.game == "lcg")
    (voyage,) = [c for c in lcg.contracts if c.key == "thftd-047"]
    assert voyage.title == "A Perilous Voyage" and voyage.min_deck_size == 100
    assert "threat" in voyage.side_a and "non-contract player card effects" in voyage.side_b
    assert not next(g for g in games if g.game == "wotr").contracts


@pytest.mark.parametrize(
    ("contract", "says"),
    [
        ("A Perilous Voyage", "player 2's deck has 30 cards; A Perilous Voyage needs at least 100"),
        ("No Such Contract", "unknown contract 'No Such Contract'; known: A Perilous Voyage"),
    ],
)
def test_a_contract_the_deck_cannot_take_is_refused_over_grpc(server: ThreadedServer, contract: str, says: str) -> None:
    channel, stub = stub_for(server.address)
    before = len(list(server.app.games()))
    with channel, pytest.raises(grpc.RpcError) as refused:
        players = [pb.PlayerSetup(deck=_hundred_card_deck()), pb.PlayerSetup(contract=contract)]
        stub.CreateGame(pb.CreateGameRequest(game="lcg", scenario=SCENARIO, players=players, seed=1))
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert (refused.value.details() or "") == says
    assert len(list(server.app.games())) == before, "a refused game appended nothing"


def test_a_contract_chosen_over_grpc_is_in_play_beside_the_heroes(server: ThreadedServer) -> None:
    import json

    channel, stub = stub_for(server.address)
    with channel:
        players = [pb.PlayerSetup(), pb.PlayerSetup(deck=_hundred_card_deck(), contract="a perilous voyage")]
        access = stub.CreateGame(pb.CreateGameRequest(game="lcg", scenario=SCENARIO, players=players, seed=2)).access
        created = server.app.history(uuid.UUID(access.game_id))[0]
        assert isinstance(created, ev.GameCreated)
        assert [p.contract for p in created.options.players] == ["", "thftd-047"]
        assert len(created.options.players[1].deck) == 102
        token = next(s.token for s in access.seats if s.seat == "p2")
        table = json.loads(stub.GetView(pb.GetViewRequest(game_id=access.game_id, token=token)).view.table)
    contracts = {p["seat"]: [c["name"] for c in p.get("contract", [])] for p in table["players"]}
    assert contracts == {"p1": [], "p2": ["A Perilous Voyage"]}


def test_a_cancelled_dreadnaught_attack_is_no_longer_the_attack_in_progress() -> None:
    """Destroy the Dreadnaught's Response cancels the Dreadnaught's attack after it was
    declared: the attack is over (AttackResolved, cancelled), so the state's attack in
    progress is gone and the player's attack on it that follows stands alone, not inside the
    cancelled attack (it stood for the rest of the game)."""
    fixture = (
        Path(__file__).parent
        / "fixtures/lcg/hunt-for-the-dreadnaught/cards/destroy-the-dreadnaught-response-cancels-its-attack.toml"
    )
    run = Run(tomllib.loads(fixture.read_text(encoding="utf-8")))
    game = run.game
    pending = game.state.pending
    assert pending is not None and pending.rule == "thftd-005.response"
    played = game.answer(pending.seat, pending.id, ("yes",))
    state = game.state
    assert isinstance(state, LcgState)
    assert state.attack is None
    cancelled = [e for e in played if isinstance(e, ev.AttackResolved)]
    assert [(e.by_enemy, e.cancelled) for e in cancelled] == [(True, True)]
