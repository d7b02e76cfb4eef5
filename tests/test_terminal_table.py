"""The terminal table, driven through a real pseudo-terminal as a player would use it."""

from __future__ import annotations

import re
from pathlib import Path
from uuid import UUID

import pytest

from service.app import Westmarch, store_env
from tests.terminal_support import Terminal, closing_answer
from tools.cli import main
from tools.table import lineage


def new_game(db: str, *extra: str) -> str:
    app = Westmarch(store_env(db=db))
    before = {g.id for g in app.games()} if Path(db).exists() else set()
    assert main(["new", "lcg", "--seed", "3", "--db", db, *extra]) == 0
    after = [g.id for g in Westmarch(store_env(db=db)).games() if g.id not in before]
    return str(after[0])


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "table.db")


def test_a_whole_game_at_the_terminal(db: str) -> None:
    game = new_game(db)
    term = Terminal(["play", game, "--db", db])
    try:
        first = term.read()
        assert "Keep this hand" in first or "mulligan" in first.lower()
        # a card's whole text, by name and by option
        shown = term.type("?Aragorn")
        assert "Aragorn - leadership hero" in shown
        assert "Text: Response: after Aragorn commits to a quest, spend 1 resource" in shown
        assert "5 of 5 hit points left" in shown
        assert "Traits: Dúnedain. Noble. Ranger." in shown
        assert "no card named 'Boromir' is in sight, and none in this game's cards" in term.type("?Boromir")
        printed = term.type("?king spider")
        assert "no King Spider is in sight; as printed:\nKing Spider - enemy" in printed
        assert "Text: When Revealed: each player chooses and exhausts 1 character he controls." in printed
        assert "Now:" not in printed
        # a wrong key is told how to answer, in the table's words
        count = len(re.findall(r"^\s+\d+\. ", first, re.MULTILINE))
        assert f"type a number from 1 to {count}" in term.type("x")
        assert f"there is no option 9: type a number from 1 to {count}" in term.type("9")
        assert "auto-pass is on" in term.type("a")
        assert "auto-pass is off" in term.type("a")
        screens = [first]
        for _ in range(600):
            screen = term.type(closing_answer(term.seen[-20000:]))
            screens.append(screen)
            if term.ended:
                break
        else:
            pytest.fail("the game did not end in 600 answers")
        everything = term.seen
    finally:
        term.close()
    assert term.status == 0
    assert "Traceback" not in everything
    # decision aids: willpower against threat while committing, hit points beside targets
    assert re.search(r"Willpower committed so far: \d+; threat in the staging area: \d+", everything)
    assert re.search(r"\d+/\d+ HP left", everything)
    # a decision caused by a card shows that card's text
    defend = r"attacks \(attack \d+\): declare a defender \(choose one\)\n  [^:\n]+: .+\n    \(ATK \d"
    assert re.search(defend, everything)
    # names, never ids, in the feed
    answers = re.findall(r"^\s+\d+  p1 chooses.*$", everything, re.MULTILINE)
    assert len(answers) > 20
    assert not [a for a in answers if re.search(r"chooses:? \d|\w\.\d", a)]
    assert not re.search(r"#\d+", everything), "a uid or a number with # on the terminal"
    # the end: the last events, the result, the score
    assert "Last events:" in everything
    assert re.search(r"GAME OVER: the players (win|lose) \([a-z][^)_]+\)\n+Score: -?\d+ \(threat \d+", everything)


def test_take_back_and_resume_keep_the_log_whole(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    game = new_game(db, "--players", "2")
    term = Terminal(["play", game, "--db", db, "--bot", "p2=greedy"])
    try:
        term.read()
        term.type("1")  # p1 keeps the hand; the bot answers for p2
        screen = term.type("u")
        assert "p1's last decision is taken back: this table now plays game" in screen
        assert f"game {game} stays as it was" in screen
        term.type("q")
    finally:
        term.close()
    assert term.status == 0
    capsys.readouterr()
    assert main(["games", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert "p1 took back the decision asked at version" in listing
    assert f"p1 took back a decision of {game}: this game is its first" in listing
    app = Westmarch(store_env(db=db))
    forks = [(info.id, lineage(app, info.id)) for info in app.games()]
    [(taken_id, record)] = [(g, f) for g, f in forks if f is not None]
    assert record is not None and record.why == "take-back" and record.seat == "p1" and str(record.source) == game
    new_id, at = str(taken_id), record.at
    source, taken = app.history(UUID(game)), app.history(taken_id)
    assert taken[:at] == source[:at]
    assert len(source) > at  # the answer that was taken back is kept in the source game
    again = app.game(UUID(new_id)).state.pending
    assert again is not None and again.seat == "p1" and again.id == len(taken)  # asked again after the redraw
    assert main(["verify", game, "--db", db]) == 0
    assert main(["verify", new_id, "--db", db]) == 0

    # resuming the new game remembers that p2 is a bot, also when auto-pass is asked for
    term = Terminal(["play", new_id[:8], "--db", db, "--auto-pass"])
    try:
        screen = term.read()
        assert "resuming with the seating saved for this game: p2 greedy" in screen
        term.type("q")
    finally:
        term.close()


def test_auto_pass_and_two_seats_at_one_terminal(db: str) -> None:
    game = new_game(db, "--players", "2")
    term = Terminal(["play", game, "--db", db, "--auto-pass"])
    try:
        term.read()
        for _ in range(40):
            term.type(closing_answer(term.seen[-20000:]))
            if term.ended:
                break
        term.type("q")
    finally:
        term.close()
    seen = term.seen
    assert re.search(r"^p1 passes: .+ phase: use an Action, or pass \(auto-pass; type a to turn it off\)$", seen, re.M)
    assert re.search(r"^p2 passes: .+\(auto-pass; type a to turn it off\)$", seen, re.M)
    # no action window is asked of a person while auto-pass is on
    assert not re.search(r"^p\d: .+ phase: use an Action, or pass \(choose one\)$", seen, re.M)
    # the hand shown changes seat only with a warning, and the first screen says whose it is
    assert "*** p1 decides: the table below shows p1's hand ***" in seen
    assert "*** p2 decides now: the table below shows p2's hand, not p1's ***" in seen
    assert "*** p1 decides now: the table below shows p1's hand, not p2's ***" in seen


def test_wrong_keys_are_told_how_to_answer() -> None:
    from domain.kernel.decisions import Decision, Kind, Option
    from tools.play import parse_answer

    options = tuple(Option(str(i), f"Card {i}", i) for i in range(1, 5))
    one = Decision(1, "p1", Kind.ONE, "pick", "r", options)
    two = Decision(1, "p1", Kind.MANY, "pick", "r", options, 2, 2)
    order = Decision(1, "p1", Kind.ORDER, "order", "r", options[:3], 3, 3)
    number = Decision(1, "p1", Kind.NUMBER, "how many", "r", (), 0, 3)
    cases = [
        (one, "x", "'x' is not an option: type a number from 1 to 4 (h for help)"),
        (one, "7", "there is no option 7: type a number from 1 to 4"),
        (one, "", "type a number from 1 to 4"),
        (one, "1,2", "choose one option: type a number from 1 to 4"),
        (two, "3", "choose 2 options, separated by commas (you gave 1)"),
        (two, "3,3", "an option is given twice"),
        (order, "2,1", "put all 3 options in order, separated by commas (you gave 2)"),
        (number, "9", "type a number from 0 to 3"),
        (number, "lots", "type a number from 0 to 3"),
    ]
    for decision, typed, message in cases:
        with pytest.raises(ValueError) as error:
            parse_answer(decision, typed)
        assert str(error.value) == message
    assert parse_answer(two, "4, 1") == ("4", "1") and parse_answer(number, "2") == ("2",)


def test_a_ship_is_shown_at_the_fleet_choice_and_counts_its_willpower_when_committed() -> None:
    """The Hunt for the Dreadnaught: ``? N`` gives a ship-objective's text while it is still set
    aside (the fleet is chosen at setup), and the commit list shows a ship's willpower."""
    import uuid

    from domain.game import Game
    from domain.lcg.lineups import lcg_options
    from domain.lcg.ruleset import LCG
    from tools.games import KINDS
    from tools.play import find_card, ordered, screen

    game = Game.start(uuid.uuid4(), LCG, LCG.created(lcg_options("hunt-for-the-dreadnaught", 1), 3))
    shown, view = screen("lcg"), KINDS["lcg"].view
    notes: dict[str, str] = {}
    while (decision := game.state.pending) is not None and decision.rule != "lcg.quest.commit":
        if decision.rule == "thftd.setup.fleet":
            options = ordered(decision)
            n = next(i for i, o in enumerate(options, start=1) if o.label == "Golden Wing")
            text = find_card(view(game.state, "p1"), shown, str(n), options)
            assert text.startswith(
                "Golden Wing, as printed:\nGolden Wing - ship-objective\n  WP 2, ATK 5, DEF 3, HP 15"
            )
            game.answer(decision.seat, decision.id, (options[n - 1].id,))
            continue
        game.answer(decision.seat, decision.id, (decision.options[0].id,))
    assert decision is not None
    table = view(game.state, "p1")
    for option in decision.options:
        notes[option.label] = shown.option_note(table, decision, option)
    assert notes["Golden Wing"] == "WP 2" and notes["Aragorn (p1)"] == "WP 2"


def test_under_auto_pass_every_event_is_shown_and_the_table_only_as_it_changed(db: str) -> None:
    """A whole game with auto-pass on: before each decision the seat is told every event
    since its last one (none left out, however long the round), and the table under them
    shows what changed, so the recap stays on the screen; ``t`` shows the whole table."""
    from projections.feed import Feed
    from projections.story import _SAME

    game = new_game(db)
    term = Terminal(["play", game, "--db", db, "--auto-pass"])
    try:
        first = term.read()
        assert "Staging area" in first  # the first table is whole
        second = term.type(closing_answer(first))
        assert "The table, what changed since your last decision (t: the whole table):" in second
        assert "t                  the whole table" in term.type("h")
        whole = term.type("t")
        assert "Staging area" in whole and "Encounter deck" in whole
        for _ in range(600):
            term.type(closing_answer(term.seen[-20000:]))
            if term.ended:
                break
        else:
            pytest.fail("the game did not end in 600 answers")
        seen = term.seen
    finally:
        term.close()
    assert term.status == 0
    head = "The table, what changed since your last decision (t: the whole table):\n"
    blocks = [b.split("\n\n")[0] for b in seen.split(head)[1:]]
    sizes = [len(b.splitlines()) for b in blocks]
    assert len(blocks) > 20
    assert sum(sizes) / len(sizes) < len(whole.splitlines()) / 2, "the table is reprinted (nearly) whole"
    versions = [int(v) for v in re.findall(r"version (\d+) - viewing as p1", seen)]
    app = Westmarch(store_env(db=db))
    rules = app.rules_of(UUID(game))
    feed = Feed(rules, "p1", rules.new_state())
    told = {int(n) for n in re.findall(r"^\s+(\d+)  ", seen, re.MULTILINE)}
    collapsible = [one for one, _ in _SAME]
    missing = [
        (p.seq, p.text)
        for p in feed.project_many(app.history(UUID(game)))
        if versions[0] < p.seq <= versions[-1]
        and p.type != "DecisionRequested"
        and p.seq not in told
        and not any(one in p.text for one in collapsible)  # told in a line of several cards
    ]
    assert not missing, f"{len(missing)} events were never shown, e.g. {missing[:3]}"
