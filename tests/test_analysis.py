"""``westmarch analyze``: positions whose best answer is known (tests/fixtures/analysis/), the
figures again from the seed, nothing written to the store, and the game's decisive moments."""

from __future__ import annotations

import hashlib
import io
import json
import re
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

from bots.analysis import REFEREE, analyze
from bots.search import Budget
from domain.game import Game
from domain.kernel.decisions import Choice, Kind
from service.app import Westmarch, store_env
from tools.cli import main
from tools.fixtures import Run, load

POSITIONS = Path(__file__).parent / "fixtures" / "analysis"
LETHAL = POSITIONS / "lcg-lethal-attack-wins-now.toml"
QUEST = POSITIONS / "lcg-quest-wins-now.toml"
ROLLOUTS = 6


def position(path: Path) -> tuple[Run, Choice]:
    """The fixture's game at its first decision, and the answer its script gives (a known best)."""
    data = load(path)
    run = Run(data)
    decision = run.game.state.pending
    assert decision is not None
    return run, run.choice(decision, data["step"][0]["choose"])


def willpower_or_attack(run: Run, choice: Choice) -> int:
    """The sum the position turns on: the chosen heroes' attack (lethal) or willpower (quest)."""
    from domain.lcg.rules import table

    stat = "attack" if run.game.state.pending and "attack" in run.game.state.pending.rule else "willpower"
    total = 0
    for uid in choice:
        total += (
            table.attack(run.game.state, int(uid)) if stat == "attack" else table.willpower(run.game.state, int(uid))
        )
    return total


@pytest.mark.parametrize(("path", "wins_from"), [(LETHAL, 5), (QUEST, 3)], ids=["lethal-attack", "quest-wins-now"])
def test_the_answers_that_win_now_are_valued_best_and_certain(path: Path, wins_from: int) -> None:
    run, scripted = position(path)
    state = run.game.state
    before = state.version
    found = analyze(run.rules, state, knowledge="p1", budget=Budget(rollouts=ROLLOUTS), seed=1)
    assert state.version == before and not run.game.pending_events[before:], "analysis appended to the game"
    winning = [o for o in found.options if willpower_or_attack(run, o.choice) >= wins_from]
    others = [o for o in found.options if willpower_or_attack(run, o.choice) < wins_from]
    assert winning and others
    assert all(o.value == 1.0 for o in winning), [(o.label, o.value) for o in winning]
    assert all(o.value == 0.0 for o in others), [(o.label, o.value) for o in others]  # lost at 50 threat
    assert found.best in winning
    assert found.of(scripted) in winning  # the fixture's own answer (it wins: tests/test_fixtures.py)
    assert all(o.low <= o.value <= o.high for o in found.options)
    assert found.options == tuple(sorted(found.options, key=lambda o: (-o.value, -o.low)))


def test_the_same_seed_and_rollouts_give_the_same_figures() -> None:
    run, _ = position(LETHAL)
    state = run.game.state
    first = analyze(run.rules, state, knowledge="p1", budget=Budget(rollouts=3), seed=7)
    again = analyze(run.rules, state, knowledge="p1", budget=Budget(rollouts=3), seed=7)
    assert [(o.choice, o.value, o.low, o.high, o.rollouts) for o in first.options] == [
        (o.choice, o.value, o.low, o.high, o.rollouts) for o in again.options
    ]


def test_a_seats_analysis_does_not_depend_on_where_the_cards_hidden_from_it_lie() -> None:
    """The encounter deck's order and p1's deck are hidden from p1: the same cards in another
    order change nothing of p1's analysis, while the referee's, from the true order, sees
    the first card revealed change (a Forest Spider's 2 threat instead of the road's 1)."""
    data = load(QUEST)
    data["position"]["zones"]["encounter.deck"] = ["Old Forest Road", "Forest Spider"]
    data["position"]["zones"]["p1.deck"] = ["Guard of the Citadel", "Gandalf", "Snowbourn Scout"]
    run = Run(data)
    codec = run.rules.codec
    road_first = run.game.state
    spider_first: Any = codec.decode_state(codec.encode(road_first))
    for zone in ("encounter.deck", "p1.deck"):
        spider_first.zones[zone] = list(reversed(spider_first.zones[zone]))
    tables = (road_first, spider_first)
    seat = [analyze(run.rules, t, knowledge="p1", budget=Budget(rollouts=6), seed=3) for t in tables]
    assert [(o.choice, o.value) for o in seat[0].options] == [(o.choice, o.value) for o in seat[1].options]
    true = [analyze(run.rules, t, knowledge=REFEREE, budget=Budget(rollouts=6), seed=3) for t in tables]
    three = sorted(str(run.uid(h)) for h in ("Aragorn", "Legolas"))  # 3 willpower
    road, spider = (next(o.value for o in t.options if sorted(o.choice) == three) for t in true)
    assert road == 1.0 and spider < 1.0


# -- the command line -----------------------------------------------------------------------


def stored(tmp_path: Path, game: Game) -> str:
    db = str(tmp_path / "games.db")
    app = Westmarch(store_env(db=db))
    app.store(game)
    app.close()
    return db


def store_digest(db: str) -> str:
    """Every row of every table of the SQLite file (WAL included, by reading through SQLite)."""
    digest = hashlib.sha256()
    with sqlite3.connect(db) as conn:
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
                digest.update(repr(row).encode())
    return digest.hexdigest()


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_names_the_best_answer_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run, _ = position(LETHAL)
    db = stored(tmp_path, run.game)
    game = str(run.game.id)
    at = str(run.game.state.version)
    before = store_digest(db)
    code, out, err = cli(capsys, "analyze", game[:8], "--at", at, "--rollouts", "4", "--json", "--db", db)
    assert code == 0, err
    found = json.loads(out)
    assert found["knowledge"] == "p1" and found["taken"] is None
    assert {o["rollouts"] for o in found["options"]} == {4} and found["rollouts"] == 4 * len(found["options"])
    assert found["options"][0]["value"] == 1.0 and " + " in found["options"][0]["label"]
    assert {o["label"] for o in found["options"]} >= {"none", "Aragorn (p1)", "Gimli (p1) + Legolas (p1)"}
    code, text, _ = cli(capsys, "analyze", game, "--at", at, "--rollouts", "4", "--db", db)
    assert code == 0
    assert "from what p1 knew then" in text and "chance of winning for the players" in text
    assert f"--at {at} --as p1 --seed 1 --rollouts 4" in text
    code, referee, _ = cli(capsys, "analyze", game, "--at", at, "--referee", "--rollouts", "4", "--db", db)
    assert code == 0 and "with the true hidden cards (the referee's knowledge)" in referee
    assert store_digest(db) == before


def test_analyze_gives_the_same_figures_again_from_its_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run, _ = position(QUEST)
    db = stored(tmp_path, run.game)
    argv = ["analyze", str(run.game.id), "--at", str(run.game.state.version), "--seed", "5", "--rollouts", "3"]
    first = cli(capsys, *argv, "--json", "--db", db)
    again = cli(capsys, *argv, "--json", "--db", db)

    def figures(out: str) -> Any:
        found = json.loads(out)
        return [(o["choice"], o["value"], o["low"], o["high"], o["rollouts"]) for o in found["options"]]

    assert first[0] == again[0] == 0
    assert figures(first[1]) == figures(again[1])


def played_out_wrongly() -> Game:
    """The lethal position answered with one hero (no damage gets through): the refresh phase
    takes p1 to 50 threat and the game is lost."""
    run = Run(load(LETHAL))
    decision = run.game.state.pending
    assert decision is not None
    run.game.answer("p1", decision.id, run.choice(decision, ["Aragorn"]))
    from bots import make_bot
    from projections.lcg import view

    bot = make_bot("greedy", 1, "lcg")
    state: Any = run.game.state
    while state.pending is not None:
        d = state.pending
        run.game.answer(d.seat, d.id, bot.choose(d, partial(view, state, d.seat)))
    assert state.over is not None and state.over.result == "lost"
    return run.game


def test_swings_name_the_decisive_moment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_out_wrongly()
    db = stored(tmp_path, game)
    before = store_digest(db)
    code, out, err = cli(capsys, "analyze", str(game.id), "--swings", "--rollouts", "4", "--json", "--db", db)
    assert code == 0, err
    report = json.loads(out)
    top = report["swings"][0]
    assert top["version"] == 3 and top["decision"]["seat"] == "p1"
    assert top["given"]["label"] == "Aragorn (p1)" and top["given"]["value"] == 0.0
    assert top["best"]["value"] == 1.0 and top["loss"] == 1.0
    assert report["asked"] == report["screened"] + sum(report["skipped"].values())
    code, text, _ = cli(capsys, "analyze", str(game.id), "--swings", "--rollouts", "4", "--db", db)
    assert code == 0
    assert "1. version 3: p1: Attack Nazgûl of Dol Guldur" in text and "given: Aragorn (p1)  0%" in text
    assert f"decisions asked: {report['asked']};" in text
    assert store_digest(db) == before


def test_swings_say_what_the_total_budget_did_not_reach(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_out_wrongly()
    db = stored(tmp_path, game)
    code, out, _ = cli(
        capsys, "analyze", str(game.id), "--swings", "--budget", "0.01", "--total", "0.000001", "--db", db
    )
    assert code == 0
    assert "not reached within the total budget" in out and "a larger --total reaches them" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--at", "4"], "no decision is pending at version 4; event 4: p1 chooses: Aragorn (p1); the nearest"),
        (["--at", "999"], "version 999 is out of range"),
        (["--at", "3", "--as", "p9"], "p9 is not a seat of this game; its seats are p1 (or referee)"),
        (["--at", "3", "--as", "p1", "--referee"], "--as p1 and --referee"),
        (["--at", "3", "--swings"], "name the decision with --at N"),
        ([], "name the decision with --at N"),
        (["--at", "3", "--rollouts", "0"], "--rollouts must be at least 1"),
        (["--at", "3", "--budget", "0"], "--budget must be a number of seconds above 0"),
        (["--swings", "--as", "p1"], "--swings values each decision from its own seat's knowledge"),
    ],
)
def test_analyze_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    game = played_out_wrongly()
    db = stored(tmp_path, game)
    code, out, err = cli(capsys, "analyze", str(game.id), *extra, "--db", db)
    assert code == 2 and not out
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_referee_value_of_a_decision_reads_the_true_cards() -> None:
    run, _ = position(LETHAL)
    found = analyze(run.rules, run.game.state, knowledge=REFEREE, budget=Budget(rollouts=2), seed=1)
    assert found.knowledge == REFEREE and found.best.value == 1.0


def test_the_terminal_v_key_shows_each_answers_value_as_it_is_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run, _ = position(LETHAL)
    db = stored(tmp_path, run.game)
    monkeypatch.setattr("sys.stdin", io.StringIO("v ten\nv 0\nv 0.5\n2,3\n"))
    code, out, err = cli(capsys, "play", str(run.game.id), "--db", db)
    assert code == 0, err
    assert "v ten: type v, or v and the seconds of search (v 10)" in out
    assert "v 0: give from 1 to 60 seconds of search" in out
    assert "chance of winning after each answer, from what p1 knows (the cards hidden from p1 sampled)" in out
    # Aragorn, Gimli and Legolas are options 1, 2 and 3 on screen: the answers read as typed
    lines = out.split("chance of winning after each answer")[1].splitlines()
    assert any(re.match(r"\s+type 2,3\s+Gimli \(p1\) \+ Legolas \(p1\)\s+100%", line) for line in lines), lines
    assert any(re.match(r"\s+type 1\s+Aragorn \(p1\)\s+0%", line) for line in lines), lines
    assert "won (out-of-the-dungeons)" in out


def test_a_war_of_the_ring_decision_is_valued_for_its_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from domain.wotr.options import wotr_options
    from domain.wotr.ruleset import WOTR

    game = Game.start(uuid4(), WOTR, WOTR.created(wotr_options("two-player-duel"), 4))
    decision = game.state.pending
    assert decision is not None
    db = stored(tmp_path, game)
    code, out, err = cli(capsys, "analyze", str(game.id), "--at", str(decision.id), "--rollouts", "1", "--db", db)
    assert code == 0, err
    side = "the Free Peoples" if decision.seat == "gandalf" else "the Shadow"
    assert f"{decision.seat} decides: {decision.prompt}" in out and f"chance of winning for {side}" in out
    answers = [line for line in out.splitlines() if re.match(r"\s+\d+\. ", line)]
    assert decision.kind is Kind.ONE and len(answers) == len(decision.options)
    assert {o.label for o in decision.options} == {re.split(r"\s{2,}", a.split(". ", 1)[1])[0] for a in answers}
