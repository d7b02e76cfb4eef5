"""Against the Shadow: the Shadow bots as part of the rules (seed 003).

The flowchart, First In Last Out, conceivably win, usefully, the forsake order, the
difficulties and the end without a victory check are shown in fixtures
(``tests/fixtures/wotr/bots``); the invariants over hundreds of games per scenario in
``tests/test_wotr_invariants.py``; the leak test over gRPC in ``tests/test_wotr_leaks.py``.
Here: setup, the substitute pool and the card file, the command line, explanations, forks
and what the Free Peoples' feed shows of the bots.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.events import DecisionAnswered, DecisionRequested, Event
from domain.kernel.ruleset import SetupError
from domain.kernel.runtime import fold
from domain.verify import verify
from domain.wotr import events as ev
from domain.wotr.bot.usefully import VERDICTS, action_is_useful, bot_actions, without_verdict
from domain.wotr.cards import CARDS
from domain.wotr.options import read_bot_cards, wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from projections.explain import explain, lines
from projections.feed import Feed
from tests.test_cli import run
from tools.fixtures import Result, run_fixture

ENCODE = WOTR.codec.encode


@pytest.fixture(autouse=True)
def _cards_of_files_forgotten() -> Iterator[None]:
    """A game made with a card file registers its cards by code; forget them after each
    test, so other tests see the engine's own cards only."""
    known = set(CARDS)
    yield
    for code in set(CARDS) - known:
        del CARDS[code]


def bot_game(scenario: str = "trilogy", seed: int = 1, bots: str = "witch-king,saruman", **kw: object) -> Game:
    options = wotr_options(scenario, None, bots.split(","), str(kw.get("difficulty", "standard")), kw.get("pool"))  # type: ignore[arg-type]
    return Game.start(uuid.uuid4(), WOTR, WOTR.created(options, seed))


def play_out(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while (decision := game.state.pending) is not None:
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    return game


def _state(game: Game) -> WotrState:
    assert isinstance(game.state, WotrState)
    return game.state


# -- setup -------------------------------------------------------------------------------


def test_setup_no_ring_tokens_hands_unseen_and_the_substitution_stated() -> None:
    game = bot_game("trilogy", 4)
    s = _state(game)
    rings = {seat: p.ring for seat, p in s.players.items()}
    events = list(play_out(game, 4).pending_events)
    assert rings == {
        "frodo": "ready",
        "aragorn": "ready",
        "witch-king": "",
        "saruman": "",
    }
    (seated,) = [e for e in events if isinstance(e, ev.BotsSeated)]
    assert seated.bots == ("witch-king", "saruman") and seated.difficulty == "standard"
    assert "base game's Shadow faction cards are played in their place" in seated.substitution
    for bot in ("witch-king", "saruman"):
        drawn = next(e for e in events if isinstance(e, ev.CardsDrawn) and e.player == bot)
        cycled = [e for e in events if isinstance(e, ev.CardsCycled) and e.cause.rule == "wotr.bot.setup.cycle-last"]
        assert any(c.cards == drawn.cards[-2:] for c in cycled), f"{bot} did not cycle the last 2 cards it drew"
        assert not [e for e in events if isinstance(e, DecisionRequested) and e.decision.seat == bot]
    codes = {card.code for card in s.cards.values()}
    assert {"ats-the-witch-king", "ats-the-messenger", "ats-saruman", "ats-white-hand-orcs"} <= codes
    assert {"witch-king-144", "witch-king-148", "saruman-107", "saruman-104"}.isdisjoint(codes)
    assert {"ats-minas-morgul", "ats-the-doors-of-durin"} <= codes
    assert {"minas-morgul", "the-doors-of-durin"}.isdisjoint(codes)
    assert "witch-king-149" in codes, "the base Shadow cards stand in for the unpublished bot cards"


def test_games_without_bots_are_unchanged() -> None:
    game = Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options("trilogy"), 4))
    codes = {card.code for card in _state(game).cards.values()}
    assert not [c for c in codes if c.startswith("ats-")]
    assert not [e for e in game.pending_events if isinstance(e, ev.BotsSeated)]


def test_shadow_names_every_shadow_seat() -> None:
    assert wotr_options("fellowship", None, ["shadow"]).bots == ("balrog",)
    assert wotr_options("three-player-duel", None, ["shadow"]).bots == ("witch-king", "saruman")


@pytest.mark.parametrize(
    ("scenario", "bots", "message"),
    [
        ("trilogy", "witch-king", "must name every Shadow seat"),
        ("trilogy", "witch-king,frodo", "must name every Shadow seat"),
        ("two-player-duel", "witch-king,saruman", "must name every Shadow seat"),
    ],
)
def test_bad_bot_seats_are_refused(scenario: str, bots: str, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        wotr_options(scenario, None, bots.split(","))
    with pytest.raises(SetupError, match="difficulty must be one of"):
        wotr_options("trilogy", None, ["witch-king", "saruman"], "nightmare")
    with pytest.raises(SetupError, match="for games against Shadow bots"):
        wotr_options("trilogy", None, [], "challenging")


# -- the card file -----------------------------------------------------------------------

CARD_FILE = """
[[card]]
code = "bot-isengard-raiders"
name = "Isengard Raiders"
deck = "saruman"
side = "shadow"
faction = "isengard"
type = "army"
quantity = 3
bg_attack = 2
bg_defense = 1
text = "No game text."

[[card]]
code = "bot-ringwraith"
name = "A Ringwraith"
deck = "witch-king"
side = "shadow"
faction = "mordor"
type = "character"
paths = [3, 4]
path = 2
keywords = ["Nazgul"]
text = "Nazgûl."
"""


def test_a_card_file_replaces_the_substitute_pool() -> None:
    pool = read_bot_cards("my-bots.toml", CARD_FILE)
    game = bot_game("trilogy", 7, pool=pool)
    s = _state(game)
    assert s.options is not None and s.options.bot_pool == "my-bots.toml"
    decks = {d.seat: d.cards for d in s.options.decks}
    assert decks["saruman"].count("bot-isengard-raiders") == 3
    assert "bot-ringwraith" in decks["witch-king"] and "ats-the-witch-king" in decks["witch-king"]
    assert not [c for c in decks["witch-king"] + decks["saruman"] if c[0].isalpha() and c.split("-")[-1].isdigit()]
    (seated,) = [e for e in game.pending_events if isinstance(e, ev.BotsSeated)]
    assert "card file my-bots.toml" in seated.substitution
    play_out(game, 7)
    events = list(game.pending_events)
    assert verify(WOTR, events).ok
    # The definitions travel with the game: a process that never read the file folds it.
    for code in ("bot-isengard-raiders", "bot-ringwraith"):
        del CARDS[code]
    assert ENCODE(fold(WOTR, events)) == ENCODE(game.state)
    assert CARDS["bot-ringwraith"].name == "A Ringwraith"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[card]\n", "not valid TOML"),
        ("x = 1\n", "card"),
        ('[[card]]\ncode = "a"\nname = "A"\n', "missing required field `deck`"),
        (CARD_FILE.replace('side = "shadow"', 'side = "free"', 1), "side must be 'shadow'"),
        (CARD_FILE.replace('faction = "isengard"', 'faction = "elf"'), "faction must be one of"),
        (CARD_FILE.replace('type = "army"', 'type = "ally"'), "type must be one of"),
        (CARD_FILE.replace("quantity = 3", "quantity = 0"), "quantity must be at least 1"),
        (CARD_FILE.replace("bg_attack = 2", 'bg_attack = "two"'), "Expected `int`"),
        (CARD_FILE.replace("bot-ringwraith", "bot-isengard-raiders"), "the code is used twice"),
        (CARD_FILE.replace("bot-ringwraith", "witch-king-144"), "already a different card"),
        (CARD_FILE.replace("paths = [3, 4]", "paths = [3, 12]"), "numbered 1 to 9"),
        (CARD_FILE + "\nsurprise = 1\n", "unknown field"),
    ],
)
def test_a_malformed_card_file_is_refused(text: str, message: str) -> None:
    with pytest.raises(SetupError, match=message) as refused:
        read_bot_cards("bad.toml", text)
    assert "bad.toml" in str(refused.value)


# -- replay, fork, explain, feed ---------------------------------------------------------


def test_a_fork_at_any_event_makes_the_same_bot_moves() -> None:
    game = play_out(bot_game("three-player-duel", 11, difficulty="challenging"), 11)
    events = list(game.pending_events)
    for version in range(1, len(events), max(1, len(events) // 40)):
        fork = Game.forked(uuid.uuid4(), WOTR, events[:version])
        fork.resume()
        for event in events[version:]:
            if isinstance(event, DecisionAnswered) and event.seq > fork.version:
                fork.answer(event.seat, event.decision, event.choice)
        assert [ENCODE(e) for e in fork.pending_events] == [ENCODE(e) for e in events], f"fork at {version}"


def test_explain_says_why_the_bot_moved() -> None:
    game = play_out(bot_game("trilogy", 2), 2)
    events = list(game.pending_events)
    chose = next(e for e in events if isinstance(e, ev.BotChose) and e.step == "flowchart.4-play")
    played = next(e for e in events if isinstance(e, ev.CardPlayed) and e.cause.answer == chose.seq)
    text = "\n".join(lines(explain(WOTR, events, played.seq)))
    assert "wotr.bot.flowchart.4-play" in text and "a random card from its hand" in text


def _bot_cards_hidden(events: list[Event], viewer: str) -> int:
    """Check the viewer's feed never names a card in a bot's hand or deck; return how many
    bot choices of hidden cards it saw (with the card removed)."""
    feed = Feed(WOTR, viewer, WOTR.new_state())
    hidden_choices = 0
    for event in events:
        before = feed.state
        assert isinstance(before, WotrState)
        secret = {
            u for seat in ("witch-king", "saruman") for zone in ("hand", "deck") for u in before.zone(f"{seat}.{zone}")
        }
        projected = feed.project(event)
        after = feed.state
        assert isinstance(after, WotrState)
        secret &= {
            u
            for seat in ("witch-king", "saruman")
            for z in ("hand", "deck", "cycle")
            for u in after.zone(f"{seat}.{z}")
        }
        if after.over is not None:
            break
        if isinstance(event, ev.CardTaken):
            continue  # a card taken by name is shown to everyone (rules §3)
        if isinstance(event, ev.BotChose) and event.shown:
            _played_next(events, event)  # shown as it is played face up
            continue
        named = set(projected.body.get("cards", ())) | {projected.body.get("card")}
        assert not named & secret, f"#{event.seq} {projected.type} shows {viewer} a bot's hidden card"
        if isinstance(event, ev.BotChose) and event.cards and set(event.cards) <= secret:
            assert projected.body.get("cards") == [] and projected.body.get("cards_hidden") == len(event.cards)
            hidden_choices += 1
        if isinstance(event, ev.DeckShuffled) and event.zone.split(".")[0] in ("witch-king", "saruman"):
            assert "order" not in projected.body
    return hidden_choices


def test_a_bots_eliminated_pile_is_open_its_hand_is_not() -> None:
    from projections.wotr import view

    game = bot_game("trilogy", 5)
    rng = random.Random(5)
    s = _state(game)
    while not s.zone("witch-king.eliminated") or not s.zone("witch-king.hand"):
        decision = s.pending
        assert decision is not None, "the game ended before the check"
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    seen = {p.seat: p for p in view(s, "frodo").players}
    assert [c.uid for c in seen["witch-king"].eliminated or []] == s.zone("witch-king.eliminated")
    assert seen["witch-king"].hand is None and seen["witch-king"].hand_size == len(s.zone("witch-king.hand"))
    assert seen["aragorn"].eliminated is None, "a person's eliminated pile stays theirs"


def _played_next(events: list[Event], chose: ev.BotChose) -> None:
    """A bot's choice shown to all is a card played face up at once: the next card played."""
    later = events[chose.seq :]
    played = next(e for e in later if isinstance(e, ev.CardPlayed))
    assert played.card in chose.cards and played.player == chose.player, f"#{chose.seq} was shown but not played"
    assert played.seq == chose.seq + 1, f"#{chose.seq} was shown, and the card played only at #{played.seq}"


def test_the_free_peoples_feed_never_names_a_bots_hidden_card() -> None:
    seen = 0
    for seed in range(1, 6):
        events = list(play_out(bot_game("trilogy", seed), seed).pending_events)
        seen += _bot_cards_hidden(events, "frodo")
    assert seen > 0, "no bot choice of a hidden card happened to check"


# -- the command line --------------------------------------------------------------------


def test_new_play_simulate_and_tokens_against_bots(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    code, out, _ = run(
        capsys,
        "new",
        "wotr",
        "--scenario",
        "trilogy",
        "--bots",
        "witch-king,saruman",
        "--difficulty",
        "challenging",
        "--seed",
        "3",
        "--db",
        db,
    )
    assert code == 0
    game = out.strip()
    code, out, _ = run(capsys, "tokens", game, "--db", db)
    assert code == 0 and "frodo" in out and "aragorn" in out and "witch-king" not in out and "saruman" not in out
    code, out, _ = run(capsys, "play", game, "--bot", "frodo=greedy", "--bot", "aragorn=random", "--db", db)
    assert code == 0 and "GAME OVER" in out
    code, out, _ = run(capsys, "log", game, "--db", db)
    assert "witch-king (bot) follows flowchart step" in out and "because: wotr.bot.flowchart" in out
    assert "Shadow bots played by the rules, challenging difficulty" in out
    code, out, _ = run(capsys, "verify", game, "--db", db)
    assert code == 0 and "ok" in out

    for difficulty in ("standard", "challenging"):
        code, out, _ = run(
            capsys,
            "simulate",
            "wotr",
            "--scenario",
            "two-player-duel",
            "--bots",
            "witch-king",
            "--difficulty",
            difficulty,
            "--games",
            "3",
            "--bot",
            "greedy",
            "--json",
        )
        assert code == 0
        report = json.loads(out)["against_the_shadow"]
        assert report["scenario"] == "two-player-duel" and report["difficulty"] == difficulty
        assert 0.0 <= report["free_win_rate"] <= 1.0
    code, out, _ = run(capsys, "simulate", "wotr", "--scenario", "fellowship", "--bots", "balrog", "--games", "2")
    assert code == 0 and "Free Peoples (greedy bot) won" in out and "win rate" in out


def test_simulate_a_table_of_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "wotr", "--bots", "shadow", "--scenario", "all", "--difficulty", "both", "--games", "2"]
    code, out, _ = run(capsys, *args, "--json")
    assert code == 0
    rows = json.loads(out)["against_the_shadow"]
    assert {(r["scenario"], r["difficulty"]) for r in rows} == {
        (s, d)
        for s in ("trilogy", "two-player-duel", "three-player-duel", "fellowship")
        for d in ("standard", "challenging")
    }
    assert all(r["games"] == 2 and 0 <= r["free_wins"] <= 2 for r in rows)
    code, _, err = run(capsys, "simulate", "wotr", "--scenario", "all", "--games", "2")
    assert code == 2 and "--bots shadow" in err
    code, _, err = run(capsys, "simulate", "wotr", "--scenario", "all", "--bots", "witch-king,saruman", "--games", "2")
    assert code == 2 and "--bots shadow" in err


def test_the_command_line_refuses_a_bad_card_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bots.toml"
    bad.write_text('[[card]]\ncode = "x"\nname = "X"\n', encoding="utf-8")
    args = ["new", "wotr", "--bots", "witch-king,saruman", "--db", str(tmp_path / "g.db")]
    code, _, err = run(capsys, *args, "--bot-cards", str(bad))
    assert code == 2 and "bot card file bots.toml" in err and "deck" in err
    code, _, err = run(capsys, *args, "--bot-cards", str(tmp_path / "missing.toml"))
    assert code == 2 and "cannot read bot card file" in err
    good = tmp_path / "good.toml"
    good.write_text(CARD_FILE, encoding="utf-8")
    code, out, _ = run(capsys, *args, "--bot-cards", str(good))
    assert code == 0 and out.strip()


# -- every action a bot may use has its usefulness test ---------------------------------


def test_every_action_a_shadow_bot_may_use_has_its_usefulness_test() -> None:
    """Seed 003, "Usefully": a bot never voluntarily uses text that is not useful. Every "use
    an action" text of a Shadow card (base and Against the Shadow, from the card registry) has
    a verdict registered; none is stale; and one taken away is caught at once."""
    actions = bot_actions()
    assert ("ats-flocks-of-crebain", 0) in actions and ("saruman-116", 0) in actions
    assert len(actions) >= 30
    assert without_verdict() == []
    assert set(VERDICTS) <= set(actions), "a verdict for an action no Shadow card has"
    # the check can fail: without its verdict an action is listed, and a bot refuses to judge it
    game = bot_game("trilogy", 3)
    s = _state(game)
    crebain = next(u for u, c in s.cards.items() if c.code == "ats-flocks-of-crebain")
    taken = VERDICTS.pop(("ats-flocks-of-crebain", 0))
    try:
        assert without_verdict() == [("ats-flocks-of-crebain", 0)]
        with pytest.raises(LookupError, match="ats-flocks-of-crebain has no usefulness test"):
            action_is_useful(s, "saruman", crebain, 0)
    finally:
        VERDICTS[("ats-flocks-of-crebain", 0)] = taken


def _crebain_on_dimrill_dale(*with_it: str) -> Result:
    return run_fixture(
        {
            "name": "Flocks of Crebain on Dimrill Dale",
            "game": {"ruleset": "wotr", "scenario": "trilogy", "bots": ["witch-king", "saruman"], "seed": 3},
            "position": {
                "at": "wotr.action.turn",
                "round": 5,
                "path_number": 5,
                "turn": "saruman",
                "zones": {
                    "path": ["Dimrill Dale"],
                    "at.dimrill-dale": [*with_it, "Flocks of Crebain"],
                    "paths.5": ["Egladil", "Lothlórien"],
                },
            },
            "expect": {
                "events": [{"type": "BotChose", "player": "saruman"}],
            },
        }
    )


def test_flocks_of_crebain_activates_no_path_while_the_shadow_would_not_win_the_current_one() -> None:
    """Seed 003, Usefully: "It is not useful ... to activate a path if the Shadow would not win
    the resulting combat on the current path." Frodo's path icon cancels the Crebain's: the bot
    card keeps still (the base game's Flocks of Crebain already did); alone, it flies (example 3)."""
    held = _crebain_on_dimrill_dale("Frodo Baggins")
    assert held.passed, held.failures
    told = "\n".join(held.lines)
    assert "AbilityUsed" not in told and "random path" not in told, told
    alone = _crebain_on_dimrill_dale()
    assert alone.passed, alone.failures
    assert any("AbilityUsed" in line and "Flocks of Crebain" in line for line in alone.lines), alone.lines
