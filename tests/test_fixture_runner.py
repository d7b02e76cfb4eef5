"""The fixture runner itself: every position field and expectation kind, passing and failing.

Each feature of the format is shown twice: by a fixture under ``tests/fixtures/`` that
passes (and uses the feature), and by a fixture under ``tests/fixtures_failing/`` that must
fail with a message a reader can act on: the expectation, the first event where the game
went otherwise, and the table there.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain.kernel.flow import NODES
from domain.kernel.ruleset import SetupError
from domain.kernel.runtime import fold
from domain.lcg.cards import CARDS, CardDef
from domain.lcg.position import card_code
from domain.verify import verify
from projections.feed import Feed
from tools.capture import capture
from tools.fixtures import Run, load, run_file, run_files, run_fixture

TESTS = Path(__file__).parent
FIXTURES = TESTS / "fixtures"
FAILING = TESTS / "fixtures_failing"

PASSING = {
    "position eliminated": ("lcg/rules/first-player-token-passes-over-an-eliminated-player.toml", "eliminated"),
    "position first (any seat)": ("lcg/rules/first-player-token-passes-from-the-last-seat-to-the-first.toml", "first"),
    "position modifiers": (
        "lcg/cards/passage-through-mirkwood/forest-spider-bonus-already-running-lapses-at-end-of-round.toml",
        "modifiers",
    ),
    "position modifiers (cannot attack)": (
        "lcg/cards/events/feint-played-earlier-this-phase-enemy-still-cannot-attack.toml",
        "cannot-attack:p1",
    ),
    "position limits (lasting flag)": (
        "lcg/cards/events/stand-together-played-earlier-this-phase.toml",
        "many-defenders",
    ),
    "position limits (card)": ("lcg/cards/heroes/glorfindel-limit-used-earlier-this-round.toml", "limits"),
    "position limits (card, player)": ("lcg/cards/heroes/eowyn-limit-used-by-one-player-not-the-other.toml", "player"),
    "position limits (key)": ("wotr/cards/palantir-of-orthanc-used-earlier-this-round.toml", "key"),
    "position delayed": ("lcg/cards/allies/beorn-action-already-used-this-phase.toml", "delayed"),
    "position delayed (bind)": ("lcg/cards/events/sneak-attack-played-earlier-this-phase-ally-returns.toml", "bind"),
    "position wotr.setup": ("wotr/rules/setup-draw-seven-cycle-two.toml", "wotr.setup"),
    "position wotr.setup.hand": ("wotr/rules/duel-setup-draws-from-the-top-of-the-decks-given.toml", "wotr.setup.hand"),
    "position any card of the pool": ("wotr/rules/any-card-of-the-pool-in-any-scenario.toml", "Soldiers of Gondor"),
    "check before_step": (
        "lcg/cards/passage-through-mirkwood/forest-spider-bonus-already-running-lapses-at-end-of-round.toml",
        "before_step",
    ),
    "check at": (
        "lcg/cards/passage-through-mirkwood/forest-spider-bonus-already-running-lapses-at-end-of-round.toml",
        'at = "lcg.combat.player-attacks"',
    ),
    "check at, after_step": ("lcg/rules/first-player-token-passes-over-an-eliminated-player.toml", "after_step"),
    "stop": ("lcg/rules/quest-staging-reveals-before-resolution.toml", "stop"),
    "counts (times)": ("lcg/rules/first-player-token-passes-over-an-eliminated-player.toml", "times"),
    "absence (event field)": ("lcg/rules/undefended-attack-all-damage-to-one-hero.toml", "defender = false"),
    "absence (outcome)": ("lcg/scenario/loss-by-threat-50.toml", "winner = false"),
    "absence (decision)": ("lcg/rules/quest-staging-reveals-before-resolution.toml", "decision = false"),
    "view (lcg)": ("lcg/rules/hands-and-decks-are-hidden-from-other-seats.toml", "[expect.view.p2]"),
    "view (wotr)": ("wotr/rules/hands-hidden-even-from-teammates.toml", "[expect.view.aragorn]"),
    "position shared (another group's part of an epic event)": (
        "lcg/hunt-for-the-dreadnaught/cards/searching-the-high-seas-in-an-epic-event-counts-what-the-other-groups-placed-one-player.toml",
        "shared = { progress = 10 }",
    ),
    "position engage (from the encounter deck)": (
        "lcg/hunt-for-the-dreadnaught/rules/boarding-not-when-a-ship-engages-from-the-encounter-deck.toml",
        "engage = ",
    ),
    "position engage (from the discard pile)": (
        "lcg/hunt-for-the-dreadnaught/rules/boarding-not-when-a-ship-engages-from-the-discard-pile-three-players.toml",
        "engage = ",
    ),
}


@pytest.mark.parametrize("feature", sorted(PASSING))
def test_a_fixture_using_the_feature_passes(feature: str) -> None:
    name, marker = PASSING[feature]
    path = FIXTURES / name
    assert marker in path.read_text(encoding="utf-8"), f"{name} no longer uses {feature}"
    result = run_file(path)
    assert result.passed, "\n".join(result.failures)


FAILS = {  # {n}: an event's number (it moves as the rules before it grow)
    "eliminated-unknown-seat": ["fixture error: eliminated: no seat 'p4'; the seats are p1, p2"],
    "first-player-eliminated": ["first: p2 is eliminated; the first-player token would have passed on"],
    "eliminated-player-expected-to-draw": [
        "expected event CardsDrawn(player='p2') (in this order) did not happen",
        "diverged at {n} CardsDrawn: p1 draws Guard of the Citadel#{n}",
        "the first CardsDrawn differs: player is 'p1', expected 'p2'",
        "the table there: round 1, resource phase, first player p1",
    ],
    "modifier-unknown-scope": ["until 'turn' is not a scope; scopes are attack, phase, round, game"],
    "modifier-unknown-card": ["no card labelled 'Forest Spider' on the table"],
    "modifier-ignored-by-the-expectation": [
        "check 1 (before step 1): card Forest Spider: attack is 3, expected 2",
        "it was 3 from the position on and never changed",
    ],
    "delayed-unknown-program": ["no program 'core-031.shuffle-back-twice'"],
    "delayed-forgotten-by-the-expectation": [
        "card Beorn: zone is 'p1.hand', expected 'p1.allies'",
        "diverged at {n} ShuffledIntoDeck: Beorn#1 leaves play and is shuffled into p1's deck",
        "the value over time: 'p1.allies' at the position, 'p1.deck' after #{n}, 'p1.hand' after #{n}",
    ],
    "limit-player-no-such-seat": ["no seat 'p2'; the seats are p1"],
    "limit-without-card-or-key": ["give the card whose limit is used, or its key"],
    "limit-key-names-no-card": ["no card labelled 'Palantir' on the table"],
    "limit-used-but-expected-offered": ["step 1: decision lacks option(s) ['Glorfindel']"],
    "wotr-setup-unknown-step": ["cannot start at 'wotr.setup.mulligan'"],
    "wotr-setup-hand-read-after-the-cycle": [
        "player gandalf: hand is 6, expected 7",
        "diverged at {n} CardsCycled: Gimli#31 and Legolas#32 go to gandalf's cycle pile",
        "the value over time: 0 at the position, 7 after #{n}, 5 after #{n}, 6 after #{n}",
    ],
    "unknown-card": ["unknown card 'Gandalf the Grey'"],
    "shared-without-an-epic-event": [
        "fixture error: shared and relays are a group's part of an epic event: give [game.epic] too"
    ],
    "engage-an-enemy-not-on-the-table": ["fixture error: engage 1: 'Black Sails' is not on the table"],
    "position-unknown-key": ["fixture error: position: unknown key(s) ['zone']"],
    "check-at-a-step-never-reached": ["check 1: step lcg.travel was not reached"],
    "check-before-a-step-never-reached": ["check 1: step 5 was never reached"],
    "check-value-changed-later": ["check 1 (before step 1): card Legolas: damage is 0, expected 2"],
    "stop-at-a-step-never-reached": ["stop: step lcg.travel was not reached"],
    "check-at-the-nth-time-never-reached": ["check 1: step lcg.refresh was not reached 2 times"],
    "value-diverged-later": [
        "card Gimli: exhausted is False, expected True",
        "diverged at {n} CardsReadied: Gimli is readied",
        "the table there: round 1, refresh phase, first player p1",
        "the value over time: False at the position, True after #{n}, False after #{n}",
    ],
    "event-count-wrong": [
        "event EncounterCardRevealed() expected 2 time(s), happened 1",
        "diverged at {n} EncounterCardRevealed: Old Forest Road#1 is revealed",
    ],
    "event-count-too-many": [
        "event CardsDrawn(player='p1') expected 1 time(s), happened 2",
        "diverged at {n} CardsDrawn: p1 draws Faramir#{n}",
        "the first one too many; all of them: #{n}, #{n}",
    ],
    "absent-defender-but-defended": [
        "expected event DefenderDeclared(enemy='King Spider', defender=False) (in this order) did not happen",
        "the first DefenderDeclared differs: defender is 'Legolas', expected False",
    ],
    "absent-outcome-but-game-over": [
        "game result: 'lost', expected false (absent, none or empty)",
        "diverged at {n} GameEnded",
    ],
    "view-hidden-card-shown": [
        "view of p2: Forest Spider is shown, expected hidden",
        "view of p2: Faramir is not shown, expected visible",
        "view of p2: players.p1.hand_size is 2, expected 3",
    ],
    "view-unknown-value": ["a view has no value 'hands'; it has viewer, version"],
    "lonely-mountain-no-stage-to-advance-to": [
        "fixture error: the position cannot be played on: the players must advance to stage 2, and no quest card "
        "of stage 2 is in the game",
        "a position that can advance to it lists it in quest.deck",
    ],
}


MET = {"absent-outcome-but-game-over": ["game winner"]}
"""Expectations of the failing fixtures that are met (``winner = false``: nobody won)."""


def test_every_failing_fixture_is_checked() -> None:
    assert sorted(p.stem for p in FAILING.glob("*.toml")) == sorted(FAILS)


@pytest.mark.parametrize("name", sorted(FAILS))
def test_a_wrong_fixture_fails_with_a_readable_message(name: str) -> None:
    result = run_file(FAILING / f"{name}.toml")
    assert not result.passed
    report = "\n".join(result.failures)
    for text in FAILS[name]:
        pattern = re.escape(text).replace(re.escape("{n}"), r"\d+")
        assert re.search(pattern, report), f"{text!r} not in:\n{report}"
    for text in MET.get(name, []):
        assert text not in report, f"{text!r} is met, yet reported:\n{report}"
    assert result.name == load(FAILING / f"{name}.toml")["name"]


def test_verbose_tells_each_event_as_the_table_read_then(capsys: pytest.CaptureFixture[str]) -> None:
    """Two refresh phases: each threat rise is told with the threat it reached then, not the
    final one; the check and the stop are marked where they read the table."""
    code = run_files([FAILING / "event-count-too-many.toml"], verbose=True)
    out = capsys.readouterr().out
    assert code == 1
    assert "ThreatRaised: p1 raises their threat by 1 (now 33)" in out
    assert "ThreatRaised: p1 raises their threat by 1 (now 34)" in out
    code = run_files([FIXTURES / "lcg/rules/quest-staging-reveals-before-resolution.toml"], verbose=True)
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    stop = next(i for i, line in enumerate(lines) if "the run stops here" in line)
    assert "CardMoved: Old Forest Road#4 is added to the staging area" in lines[stop - 1]
    assert "QuestResolved" in lines[stop + 1]


def test_a_name_several_cards_share_needs_the_scenario_or_the_code() -> None:
    """Names are looked up in the whole pool; a shared name stands for the scenario's card,
    else the code must be given."""
    pool = {
        "core-001": CardDef(code="core-001", name="Aragorn", type="hero", sphere="leadership"),
        "xx-100": CardDef(code="xx-100", name="Aragorn", type="hero", sphere="lore"),
        "xx-200": CardDef(code="xx-200", name="Hummerhorns", type="enemy", encounter_set="Journey Along the Anduin"),
    }
    assert card_code("Hummerhorns", pool=pool) == "xx-200"
    assert card_code("xx-100", pool=pool) == "xx-100"
    assert card_code("Aragorn", prefer={"core-001"}, pool=pool) == "core-001"
    with pytest.raises(SetupError, match=r"'Aragorn' names several cards: core-001 \(hero, leadership\), xx-100"):
        card_code("Aragorn", pool=pool)
    assert card_code("King Spider") in CARDS


LAID_OUT: dict[str, Callable[[Any], bool]] = {
    "lcg/cards/passage-through-mirkwood/forest-spider-bonus-already-running-lapses-at-end-of-round.toml": lambda s: (
        [(m.stat, m.amount, m.until) for m in s.modifiers] == [("attack", 1, "round")]
    ),
    "lcg/rules/first-player-token-passes-over-an-eliminated-player.toml": lambda s: s.players["p2"].eliminated,
    "wotr/cards/palantir-of-orthanc-used-earlier-this-round.toml": lambda s: [x.until for x in s.limits] == ["round"],
    "lcg/cards/allies/beorn-action-already-used-this-phase.toml": lambda s: (
        [(d.at, d.node) for d in s.delayed] == [("phase", "core-031.shuffle-back")]
    ),
    "wotr/rules/setup-draw-seven-cycle-two.toml": lambda s: NODES[s.stack[-1].node].rule == "wotr.setup.shuffle",
}


@pytest.mark.parametrize("name", sorted(LAID_OUT))
def test_a_position_folds_and_verifies(name: str) -> None:
    """What a position says is running is in its event: the fold of the log is the state, and
    re-executing the decisions from the position reproduces the log."""
    data = load(FIXTURES / name)
    run = Run(data)
    for step in data.get("step", []):
        decision = run.game.state.pending
        assert decision is not None
        run.game.answer(decision.seat, decision.id, run.choice(decision, step.get("choose", [])))
    log = run.log
    codec = run.rules.codec
    assert codec.encode(fold(run.rules, log)) == codec.encode(run.game.state)
    assert verify(run.rules, log).ok
    assert LAID_OUT[name](fold(run.rules, log[:2]))


def test_a_positions_lasting_effects_name_no_card_a_seat_may_not_see() -> None:
    """A modifier, a used limit and a delayed effect on a card in p1's hand: p2's feed of the
    position keeps that they exist, never which card (its uid would tell it)."""
    data = {
        "game": {"players": 2},
        "position": {
            "at": "lcg.planning",
            "modifiers": [
                {"card": "Beorn", "stat": "attack", "amount": 5, "until": "phase", "source": "Beorn"},
                {"card": "Aragorn", "stat": "attack", "amount": 1, "until": "round"},
            ],
            "limits": [{"card": "Beorn", "until": "round"}, {"card": "Aragorn", "until": "round"}],
            "delayed": [{"card": "Beorn", "program": "core-031.shuffle-back", "at": "phase"}],
            "zones": {"p1.hand": ["Beorn"]},
        },
    }
    run = Run(data)
    beorn, aragorn = run.uid("Beorn"), run.uid("Aragorn")
    seen: dict[str, dict[str, Any]] = {}
    for viewer in ("p1", "p2", "spectator"):
        feed = Feed(run.rules, viewer, run.rules.new_state())
        seen[viewer] = next(p.body for p in feed.project_many(run.log) if p.type == "PositionSet")
    mine = seen["p1"]
    assert [m["target"] for m in mine["modifiers"]] == [beorn, aragorn]
    assert [x["key"] for x in mine["limits"]] == [str(beorn), str(aragorn)]
    for viewer in ("p2", "spectator"):
        body = seen[viewer]
        assert [m.get("target") for m in body["modifiers"]] == [None, aragorn]
        assert "source" not in body["modifiers"][0]
        assert [x["key"] for x in body["limits"]] == [str(aragorn)] and body["limits_hidden"] == 1
        assert list(body["delayed"]) == [{"at": "phase", "node": "core-031.shuffle-back"}]


def _running(state: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """A state's lasting effects with each card read as its code (uids differ between games)."""

    def code(uid: Any) -> Any:
        return state.cards[uid].code if isinstance(uid, int) and uid in state.cards else uid

    def key(text: str) -> str:
        return re.sub(r"(?<![\w])\d+(?![\w])", lambda m: str(code(int(m.group()))), text)

    return (
        [(code(m.target), m.stat, m.amount, m.until, code(m.source)) for m in state.modifiers],
        [(key(x.key), x.until) for x in state.limits],
        [(d.node, d.at, sorted((k, code(v)) for k, v in d.env.items())) for d in state.delayed],
    )


@pytest.mark.parametrize(
    "name",
    [
        "lcg/cards/allies/beorn-action-already-used-this-phase.toml",
        "lcg/cards/events/feint-played-earlier-this-phase-enemy-still-cannot-attack.toml",
        "lcg/cards/events/stand-together-played-earlier-this-phase.toml",
        "lcg/rules/first-player-token-passes-over-an-eliminated-player.toml",
        "wotr/cards/palantir-of-orthanc-used-earlier-this-round.toml",
    ],
)
def test_a_captured_position_keeps_what_is_running(name: str) -> None:
    """``fixture capture`` writes the eliminated players and the lasting effects, used limits
    and delayed effects of a table; the captured file lays out the same ones and passes."""
    run = Run(load(FIXTURES / name))
    state = run.game.state
    data = tomllib.loads(capture(run.rules, state, "captured"))
    result = run_fixture(data)
    assert result.passed, result.failures
    again = Run(data).game.state
    assert _running(again) == _running(state)
    assert _out(again) == _out(state)
    assert _running(state) != ([], [], []) or _out(state)


def _out(state: Any) -> list[str]:
    return [seat for seat, p in state.players.items() if getattr(p, "eliminated", False)]
