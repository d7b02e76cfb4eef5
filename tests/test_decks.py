"""Decks: reading RingsDB, OCTGN and plain-text decks, the deck-building rules and their
refusals, the ready-made decks, and games played with decks (in process, at the command
line and over gRPC on a loopback server).

Sources: Core Set rulebook ("Deck Construction", "Heroes", "Draw Setup Hand"); the deck
formats as RingsDB exports them (its API's decklist JSON and its .o8d and text downloads).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter
from pathlib import Path
from typing import cast
from uuid import UUID

import grpc
import pytest
from grpc import aio

from bots import make_bot
from domain.game import Game
from domain.kernel.events import DecisionAnswered
from domain.lcg import events as ev
from domain.lcg.cards import CARDS, PLAYER_CARD_IDS
from domain.lcg.decks import Deck, fold, in_core_set, lookup, playable, problems
from domain.lcg.decks.formats import detect, read_deck
from domain.lcg.decks.ready_made import default_deck, playable_part, ready_made, waiting
from domain.lcg.lineups import DEFAULT_HEROES, SetupError, lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.verify import verify
from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tests.rpc_support import stub_for, threaded_server
from tools.cli import main
from tools.games import kind
from tools.rpc_client import BotReport, play_seat
from tools.simulate import simulate

DECKS = Path(__file__).parent / "decks"
RINGSDB = DECKS / "aragorn-gimli-legolas.json"
OCTGN = DECKS / "theodred-gloin-thalin.o8d"
TEXT = DECKS / "dwarves.txt"


def names(deck: Deck) -> tuple[list[str], dict[str, int]]:
    return [CARDS[h].name for h in deck.heroes], {CARDS[c].name: n for c, n in deck.cards}


# -- reading each format ---------------------------------------------------------------------


def test_a_ringsdb_export_gives_heroes_and_slots_by_ringsdb_code() -> None:
    deck = read_deck(RINGSDB.read_text(encoding="utf-8"))
    heroes, cards = names(deck)
    assert deck.name == "Fellowship of three"
    assert heroes == ["Aragorn", "Gimli", "Legolas"]
    # the heroes listed again in `slots` are not cards of the deck; `sideslots` is not the deck
    assert cards == {
        "Guard of the Citadel": 3,
        "Faramir": 1,
        "Silverlode Archer": 2,
        "Veteran Axehand": 3,
        "Gondorian Spearman": 3,
        "Horseback Archer": 2,
        "Beorn": 1,
    }
    assert deck.size == 15 and len(deck.codes()) == 15 and not problems(deck)


def test_an_octgn_deck_gives_cards_by_octgn_id_or_name_without_its_sideboard() -> None:
    deck = read_deck(OCTGN.read_text(encoding="utf-8"))
    heroes, cards = names(deck)
    assert heroes == ["Théodred", "Glóin", "Thalin"]
    assert cards == {
        "Snowbourn Scout": 3,
        "Son of Arnor": 2,
        "Longbeard Orc Slayer": 2,
        "Brok Ironfist": 1,
        "Guard of the Citadel": 3,  # no id: found by its name
        "Faramir": 1,
    }
    assert not problems(deck)


def test_a_plain_list_reads_quantities_either_side_names_without_accents_and_aliases() -> None:
    deck = read_deck(TEXT.read_text(encoding="utf-8"))
    heroes, cards = names(deck)
    assert deck.name == "Dwarves of the Iron Hills"  # the first line, as RingsDB's text export has it
    assert heroes == ["Gimli", "Glóin", "Dúnhere"]  # "Gloin" without its accent, "Dunhere" an alias
    assert cards == {
        "Veteran Axehand": 3,  # 3x Name (Core Set)
        "Gondorian Spearman": 3,  # Name x3
        "Guard of the Citadel": 3,  # 3 name, any case
        "Longbeard Orc Slayer": 2,  # 2X NAME
        "Brok Ironfist": 1,  # a bare name: one copy
        "Beorn": 1,  # with its RingsDB code in brackets
    }  # the Sideboard's Horseback Archers are not the deck
    assert not problems(deck)


@pytest.mark.parametrize(
    ("line", "name", "copies"),
    [
        ("3x Guard of the Citadel", "Guard of the Citadel", 3),
        ("Guard of the Citadel x3", "Guard of the Citadel", 3),
        ("Guard of the Citadel ×2", "Guard of the Citadel", 2),
        ("2 Celebrians Stone", "Celebrían's Stone", 2),
        ("1x celebrían’s stone", "Celebrían's Stone", 1),
        ("2x Galadhrim's Greeting", "The Galadhrim's Greeting", 2),
        ("For Gondor x2", "For Gondor!", 2),
        ("Lorien Guide", "Lórien Guide", 1),
        ("3x core-013", "Guard of the Citadel", 3),
        ("3x 01013", "Guard of the Citadel", 3),
        ("Gleowine x2", "Gléowine", 2),
    ],
)
def test_a_list_line_names_a_card_however_it_is_written(line: str, name: str, copies: int) -> None:
    deck = read_deck(f"Heroes: Aragorn\n{line}\n", "text")
    assert not deck.unreadable, deck.unreadable
    [(code, n)] = deck.cards
    assert (PLAYER_CARD_IDS[code].name, n) == (name, copies)


def test_the_format_is_detected_from_the_text() -> None:
    assert detect(RINGSDB.read_text(encoding="utf-8")) == "ringsdb"
    assert detect("\ufeff" + OCTGN.read_text(encoding="utf-8")) == "o8d"
    assert detect(TEXT.read_text(encoding="utf-8")) == "text"
    same = read_deck("Heroes: Éowyn\n3x Guard of the Citadel", "text")
    assert read_deck("Heroes: Éowyn\n3x Guard of the Citadel") == same


def test_every_core_set_player_card_has_its_ids_and_one_name() -> None:
    """The deck formats' ids of the whole Core Set pool are in the project's own card data."""
    assert len(PLAYER_CARD_IDS) == 73
    for code, ids in PLAYER_CARD_IDS.items():
        assert lookup(ids.ringsdb) == lookup(ids.octgn) == lookup(ids.name) == code
        assert ids.ringsdb == f"01{int(code[5:]):03}"
        card = CARDS.get(code)
        if card is not None:  # defined: the definition agrees and carries the ids
            assert (card.name, card.type, card.quantity) == (ids.name, ids.type, ids.quantity)
            assert (card.ringsdb_code, card.octgn_id) == (ids.ringsdb, ids.octgn)
    folded = Counter(fold(i.name) for i in PLAYER_CARD_IDS.values())
    assert not [n for n, k in folded.items() if k > 1]


# -- refusals: every problem named, one line each ---------------------------------------------


REFUSALS = [
    ("an unknown card", "Heroes: Aragorn\n2x Gaurd of the Citadel", "line 2: unknown card 'Gaurd of the Citadel'"),
    ("four copies", "Heroes: Aragorn\n4x Guard of the Citadel", "4 copies of Guard of the Citadel; a deck holds"),
    ("copies over lines", "Aragorn\n2x Faramir\nFaramir x2", "4 copies of Faramir; a deck holds at most 3 of a title"),
    ("no hero", "3x Guard of the Citadel", "the deck has no hero; a deck has 1 to 3 heroes"),
    ("four heroes", "Heroes: Aragorn, Gimli, Legolas, Thalin", "the deck has 4 heroes; a deck has 1 to 3 heroes"),
    ("a unique hero twice", "Heroes: Aragorn, Aragorn", "Aragorn is among the heroes twice; a hero is unique"),
    ("two copies of a hero", "2x Gimli\n3x Veteran Axehand", "Gimli is among the heroes twice; a hero is unique"),
    ("an encounter card", "Heroes: Aragorn\n2x Forest Spider", "Forest Spider is an enemy card, not a player card"),
    ("zero copies", "Heroes: Aragorn\n0x Faramir", "line 2: 0 copies; a card is listed once or more"),
    ("an unknown format", "", "unknown deck format 'mtg'; use ringsdb, o8d, text"),
    ("not JSON", "{heroes: 1", "not valid JSON"),
    ("not a RingsDB deck", '{"heroes": {"01001": 1}}', "not a RingsDB deck export"),
    (
        "a RingsDB code outside the pool",
        '{"heroes": {"01001": 1}, "slots": {"01001": 1, "02116": 1}}',
        "card 02116: no card has this RingsDB code in the card pool",
    ),
    (
        "a RingsDB hero that is not a hero",
        '{"heroes": {"01013": 1}, "slots": {"01013": 1}}',
        "Guard of the Citadel is an ally card, not a hero",
    ),
    ("another game's OCTGN deck", '<deck game="0000"><section name="Hero"/></deck>', "an OCTGN deck of another game"),
    ("an XML entity", '<!DOCTYPE deck [<!ENTITY x "y">]><deck/>', "declares no DOCTYPE or entities"),
    (
        "an unknown OCTGN card",
        '<deck><section name="Ally"><card qty="1" id="1234">Boromir</card></section></deck>',
        "Boromir (Ally): not a card of the card pool (OCTGN id 1234)",
    ),
]


@pytest.mark.parametrize(("case", "text", "says"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_broken_rule_is_named(case: str, text: str, says: str) -> None:
    deck = read_deck(text, "mtg" if case == "an unknown format" else "")
    found = problems(deck)
    assert any(says in p for p in found), found
    assert all("\n" not in p for p in found)


def test_every_core_set_player_card_is_playable() -> None:
    assert [c for c in PLAYER_CARD_IDS if not playable(c)] == []


def test_a_card_outside_the_pool_in_play_is_refused_by_name() -> None:
    """A pool that leaves a card out (as the engine's own did before its text was written)."""
    code = "core-030"
    deck = Deck("d", ("core-001",), ((code, 1),))
    name = PLAYER_CARD_IDS[code].name
    assert problems(deck, lambda c: c != code) == [
        f"{name} (Core Set #30) is not playable yet: its text is not implemented"
    ]
    assert problems(deck) == []


def test_all_problems_are_named_at_once() -> None:
    deck = read_deck("Heroes: Aragorn, Aragorn, Gimli, Legolas\n4x Guard of the Citadel\nSting\n", "text")
    assert problems(deck) == [
        "line 3: unknown card 'Sting'",
        "the deck has 4 heroes; a deck has 1 to 3 heroes",
        "Aragorn is among the heroes twice; a hero is unique",
        "4 copies of Guard of the Citadel; a deck holds at most 3 of a title",
    ]


# -- ready-made decks ------------------------------------------------------------------------


HOBBIT_BOXES = ("ohauh-", "otd-")
"""The Hobbit: Over Hill and Under Hill and On the Doorstep (their player cards' code prefixes)."""


def test_ready_made_decks_are_legal_with_the_whole_core_set() -> None:
    decks = ready_made()
    assert {frozenset(d.heroes) for d in decks.values()} >= {frozenset(h) for h in DEFAULT_HEROES}
    by_sphere: dict[str, list[str]] = {}
    for code, card in CARDS.items():
        if card.type == "hero" and code.startswith("core-"):  # not the Hobbit saga's Bilbo Baggins
            by_sphere.setdefault(card.sphere or "", []).append(code)
    assert {frozenset(d.heroes) for d in decks.values()} >= {frozenset(h) for h in by_sphere.values()}
    for key, deck in decks.items():
        # one Core Set, and for the Lonely Mountain deck the two Hobbit saga boxes (each card's
        # box is its code's prefix); no deck needs more than one copy of a box
        assert problems(deck, lambda c: in_core_set(c) or c.startswith(HOBBIT_BOXES)) == [], key
        # what is played of it today is legal as it stands
        assert problems(playable_part(deck)) == [], key
        for code, n in deck.cards:
            box = PLAYER_CARD_IDS[code].quantity if in_core_set(code) else CARDS[code].quantity
            assert n <= box, (key, code)
    saga = [key for key, deck in decks.items() if any(c.startswith(HOBBIT_BOXES) for c in deck.codes())]
    assert sorted(saga) == ["thorin-nori-ori", "thorin-nori-ori-allies", "thorin-nori-ori-will"]


def test_the_default_decks_together_fit_in_one_core_set() -> None:
    used: Counter[str] = Counter()
    for lineup in DEFAULT_HEROES:
        deck = next(d for d in ready_made().values() if set(d.heroes) == set(lineup))
        for code, n in deck.cards:
            used[code] += n
        # each deck holds only cards its heroes can pay for (their spheres, or neutral)
        spheres = {CARDS[h].sphere for h in lineup} | {"neutral"}
        assert all(PLAYER_CARD_IDS[c].code in CARDS and CARDS[c].sphere in spheres for c, _ in deck.cards if c in CARDS)
    over = {c: n for c, n in used.items() if n > PLAYER_CARD_IDS[c].quantity}
    assert not over


def test_a_default_seat_plays_the_ready_made_deck_of_its_heroes() -> None:
    options = lcg_options("passage-through-mirkwood", 4)
    for setup, lineup in zip(options.players, DEFAULT_HEROES, strict=True):
        shipped = next(d for d in ready_made().values() if set(d.heroes) == set(lineup))
        assert Counter(setup.deck) == Counter(playable_part(shipped).codes())
        assert set(setup.deck) <= {c for c, _ in shipped.cards}


def test_thorin_nori_and_ori_bring_the_allies_deck_to_the_lonely_mountain() -> None:
    """A player of The Lonely Mountain who names Thorin Oakenshield, Nori and Ori and brings no
    deck plays the first of their ready-made decks by file name, ``thorin-nori-ori-allies``
    (the bench row's deck, tools/bench_bots.py ``SCENARIO_DECKS``): its Gléowines, Henamarth
    Riversong, Silverlode Archers, Longbeard Orc Slayer and Snowbourn Scouts are in the game's
    deck, the Lórien Guides, The Favor of the Lady and Sneak Attacks of the willpower deck are
    not."""
    options = lcg_options("the-lonely-mountain", 1, [["Thorin Oakenshield", "Nori", "Ori"]])
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, 20001))
    cards = cast(LcgState, game.state).cards.values()
    titles = Counter(CARDS[c.code].name for c in cards if c.owner == "p1" and CARDS[c.code].type != "hero")
    assert default_deck(options.players[0].heroes).name == "Thorin Oakenshield, Nori and Ori (allies)"
    assert (titles["Gléowine"], titles["Henamarth Riversong"], titles["Silverlode Archer"]) == (2, 1, 2)
    assert (titles["Longbeard Orc Slayer"], titles["Snowbourn Scout"]) == (1, 2)
    assert titles["Lórien Guide"] == titles["The Favor of the Lady"] == titles["Sneak Attack"] == 0
    assert sum(titles.values()) == 44


def test_aragorn_theodred_and_gloin_still_bring_the_leadership_deck() -> None:
    """A player of The Hunt for the Dreadnaught who names Aragorn, Théodred and Glóin and
    brings no deck plays ``leadership``, the first of their ready-made decks by file name, not
    ``ships-leadership`` (the bench row's deck, tools/bench_bots.py ``SCENARIO_DECKS``), whose
    two Common Causes are two more Gandalfs: one Gandalf, two Common Causes in the game's deck."""
    options = lcg_options("hunt-for-the-dreadnaught", 1, [["Aragorn", "Théodred", "Glóin"]])
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, 33001))
    cards = cast(LcgState, game.state).cards.values()
    titles = Counter(CARDS[c.code].name for c in cards if c.owner == "p1" and CARDS[c.code].type != "hero")
    assert "ships-leadership" in ready_made()
    assert default_deck(options.players[0].heroes).name == "Leadership"
    assert (titles["Gandalf"], titles["Common Cause"]) == (1, 2)
    ships = {CARDS[c].name: n for c, n in ready_made()["ships-leadership"].cards}
    assert (ships["Gandalf"], ships.get("Common Cause", 0)) == (3, 0)


def test_every_default_seat_can_play_cards() -> None:
    """Each default lineup has cards in its deck that its own heroes can pay for."""
    options = lcg_options("passage-through-mirkwood", 4)
    waiting_seats = []
    for i, setup in enumerate(options.players):
        spheres = {CARDS[h].sphere for h in setup.heroes} | {"neutral"}
        if not any(CARDS[c].sphere in spheres for c in setup.deck):
            shipped = next(d for d in ready_made().values() if set(d.heroes) == set(setup.heroes))
            waiting_seats.append(f"p{i + 1} (waits for {', '.join(waiting(shipped))})")
    assert not waiting_seats


def test_a_lineup_without_a_ready_made_deck_plays_its_spheres_cards() -> None:
    deck = default_deck(("core-001", "core-007", "core-012"))  # Aragorn, Éowyn, Beravor
    spheres = {CARDS[c].sphere for c, _ in deck.cards}
    assert spheres <= {"leadership", "spirit", "lore", "neutral"} and "leadership" in spheres
    assert problems(deck) == []


# -- games with decks ------------------------------------------------------------------------


def test_a_deck_gives_the_lineup_and_the_deck_recorded_in_the_first_event() -> None:
    deck = read_deck(RINGSDB.read_text(encoding="utf-8"))
    options = lcg_options("passage-through-mirkwood", 2, None, "standard", [None, deck])
    assert options.players[1].heroes == ("core-001", "core-004", "core-005")
    assert Counter(options.players[1].deck) == Counter(deck.codes())
    # the first player took the next default lineup free of the deck's heroes
    assert options.players[0].heroes == DEFAULT_HEROES[1]
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, 5))
    first = game.collect_events()[0].event
    assert isinstance(first, ev.GameCreated) and first.options == options


def test_a_refused_deck_names_the_player_and_every_problem() -> None:
    bad = read_deck("Heroes: Gimli\n4x Veteran Axehand\n2x Forest Spider")
    with pytest.raises(SetupError) as refused:
        lcg_options("passage-through-mirkwood", 2, None, "standard", [None, bad])
    assert str(refused.value).splitlines() == [
        "player 2's deck is refused:",
        "  Forest Spider is an enemy card, not a player card",
        "  4 copies of Veteran Axehand; a deck holds at most 3 of a title",
    ]
    with pytest.raises(SetupError, match="deck names its heroes; do not name heroes for player 1 too"):
        lcg_options("passage-through-mirkwood", 1, [["Aragorn"]], "standard", [read_deck("Gimli")])


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_new_with_a_deck_per_player(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    code, out, _ = _run(capsys, "new", "lcg", "--deck", str(RINGSDB), "--deck", str(OCTGN), "--db", db, "--seed", "2")
    assert code == 0
    code, out, _ = _run(capsys, "log", out.strip(), "--brief", "--to", "1", "--db", db)
    assert "p1 with Aragorn, Gimli and Legolas; p2 with Théodred, Glóin and Thalin" in out
    code, out, _ = _run(capsys, "new", "lcg", "--deck", "spirit", "--db", db)
    assert code == 0


def test_cli_refuses_a_bad_deck_and_creates_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    bad = tmp_path / "bad.txt"
    bad.write_text("Heroes: Aragorn, Aragorn\n4x Guard of the Citadel\n", encoding="utf-8")
    code, out, err = _run(capsys, "new", "lcg", "--deck", str(bad), "--db", db)
    assert code == 2 and not out
    assert err.splitlines() == [
        "westmarch: player 1's deck 'bad.txt' is refused:",
        "  Aragorn is among the heroes twice; a hero is unique",
        "  4 copies of Guard of the Citadel; a deck holds at most 3 of a title",
    ]
    assert not Path(db).exists()  # a refused setup opens no store


def test_cli_deck_show_and_decks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "deck", "show", str(TEXT))
    assert code == 0 and "3x Gondorian Spearman" in out and out.rstrip().endswith("legal: 3 heroes, 13 cards")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"heroes": {}, "slots": {"01013": 4}}), encoding="utf-8")
    code, out, _ = _run(capsys, "deck", "show", str(bad))
    assert code == 1
    assert "NOT LEGAL (2 problems), 4 cards:" in out
    assert "  the deck has no hero; a deck has 1 to 3 heroes" in out.splitlines()
    code, out, _ = _run(capsys, "decks")
    assert code == 0
    for key in ready_made():
        assert key in out
    assert "default for p1" in out and "default for p4" in out


def test_cli_simulate_with_decks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "simulate", "lcg", "--deck", str(RINGSDB), "--deck", str(TEXT.parent / "dwarves.txt"), "--games", "2"
    )
    # the two decks both field Gimli: refused before any game is played
    assert code == 2
    code, out, _ = _run(
        capsys, "simulate", "lcg", "--scenario", "passage-through-mirkwood", "--deck", str(RINGSDB), "--deck",
        str(OCTGN), "--games", "2", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["games"] == 2


# -- over gRPC -------------------------------------------------------------------------------


def test_a_game_with_decks_plays_to_the_end_over_grpc(tmp_path: Path) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel:
            request = pb.CreateGameRequest(
                game="lcg",
                seed=9,
                players=[
                    pb.PlayerSetup(deck=[RINGSDB.read_text(encoding="utf-8")]),
                    pb.PlayerSetup(deck=OCTGN.read_text(encoding="utf-8").splitlines(), deck_format="o8d"),
                ],
            )
            access = stub.CreateGame(request).access
        game_id = UUID(access.game_id)
        created = server.app.history(game_id)[0]
        assert isinstance(created, ev.GameCreated)
        assert [p.heroes for p in created.options.players] == [
            ("core-001", "core-004", "core-005"),
            ("core-002", "core-003", "core-006"),
        ]

        async def play() -> list[pb.View | None]:
            async with aio.insecure_channel(server.address) as achannel:
                astub: pb_grpc.GameServiceAsyncStub = pb_grpc.GameServiceStub(achannel)
                report = BotReport()
                seats = [
                    play_seat(astub, access.game_id, s.token, make_bot("greedy", i), access.version, report)
                    for i, s in enumerate(access.seats)
                ]
                return list(await asyncio.gather(*seats))

        views = asyncio.run(play())
        assert any(v is not None and v.over for v in views)
        history = server.app.history(game_id)
        answered = [e for e in history if isinstance(e, DecisionAnswered)]
        assert len(answered) > 20
        assert verify(LCG, history).ok


REFUSED_OVER_GRPC = [
    ("too many copies", ["Heroes: Aragorn", "4x Guard of the Citadel"], "", "4 copies of Guard of the Citadel"),
    (
        "four heroes",
        ['{"heroes": {"01001": 1, "01002": 1, "01003": 1, "01004": 1}, "slots": {"01013": 3}}'],
        "ringsdb",
        "the deck has 4 heroes",
    ),
    ("unknown card", ["Heroes: Gimli", "3x Anduril"], "text", "line 2: unknown card 'Anduril'"),
    ("bad format", ["Heroes: Gimli"], "dec", "unknown deck format 'dec'"),
]


@pytest.mark.parametrize(("case", "deck", "fmt", "says"), REFUSED_OVER_GRPC, ids=[r[0] for r in REFUSED_OVER_GRPC])
def test_a_refused_deck_over_grpc_creates_nothing(
    tmp_path: Path, case: str, deck: list[str], fmt: str, says: str
) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as server:
        channel, stub = stub_for(server.address)
        with channel, pytest.raises(grpc.RpcError) as refused:
            stub.CreateGame(pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup(deck=deck, deck_format=fmt)]))
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        details = refused.value.details() or ""
        assert details.startswith("player 1's deck") and says in details, details
        assert list(server.app.games()) == []


def test_the_greedy_bot_lasts_longer_with_a_good_deck_than_with_a_bad_one() -> None:
    """The ready-made deck against one whose cards only Aragorn can pay for (a bad deck for
    Aragorn, Gimli and Legolas): the greedy bot wins more games and survives more rounds with
    the good one. Rounds alone no longer tell them apart by a round: a game won ends early
    (10 of these 30 with the good deck, none with the bad)."""
    bad = read_deck(
        "Heroes: Aragorn, Gimli, Legolas\n3x Guard of the Citadel\n2x Faramir\n2x Son of Arnor\n"
        "3x Snowbourn Scout\n2x Silverlode Archer\n2x Longbeard Orc Slayer\n1x Brok Ironfist\n"
    )
    rounds, wins = {}, {}
    for name, deck in (("good", None), ("bad", bad)):
        options = lcg_options("passage-through-mirkwood", 1, None, "standard", [deck] if deck else [])
        report = simulate(kind("lcg"), [LCG.created(options, seed) for seed in range(1, 31)], "greedy", 1)
        rounds[name] = sum(report.rounds) / len(report.rounds)
        wins[name] = sum(n for (outcome, _), n in report.results.items() if outcome == "won")
    assert wins["good"] >= wins["bad"] + 5, wins
    assert rounds["good"] > rounds["bad"], rounds
