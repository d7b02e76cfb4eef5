"""``fixture capture GAME --at N`` reproduces version N exactly (an invariant over random games).

Random seeded games of every scenario of both games (War of the Ring also against the Shadow
bots) are played with random answers; at random versions (at a decision, or part way through
a rule step) the table is captured as a fixture file, the file is loaded as ``fixture run``
loads it, and the table it lays out must equal the game's table at that version field for
field (every field of the state but the log's own bookkeeping: version, hash, the decision's
number). Then the game's own next answers are given to the loaded fixture: the table after
each must again be the game's, so the position resumes the same procedures with the same
chance. A version after the game ended, or a table the format cannot state, is refused with
the reason.
"""

from __future__ import annotations

import random
import tomllib
import uuid
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.events import DecisionAnswered, Event
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.kernel.state import State
from domain.lcg import events as ev
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.verify import verify
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from tools.capture import CaptureError, capture, differences, table_of
from tools.cli import main
from tools.fixtures import Run, run_fixture

LCG_SCENARIOS = (
    ("passage-through-mirkwood", 1),
    ("passage-through-mirkwood", 3),
    ("journey-along-the-anduin", 2),
    ("escape-from-dol-guldur", 1),
    ("hunt-for-the-dreadnaught", 2),
    ("the-lonely-mountain", 2),
)
WOTR_SCENARIOS = ("trilogy", "two-player-duel", "three-player-duel", "fellowship")
CAPTURES = 3
"""Captures per game, at random versions (two with a decision pending, one part way
through a rule step)."""
FOLLOW = 4
"""How many of the game's own answers are replayed on the loaded position."""
TOLD = (ev.SharedValueLearned, ev.EffectArrived)
"""What an epic event's organizer tells a group: no answer of the group's, so not replayed."""


def _play(rules: Ruleset[Any], created: Any, seed: int, decisions: int) -> Game:
    game = Game.start(uuid.uuid4(), rules, created)
    rng = random.Random(seed * 7919)
    for _ in range(decisions):
        decision = game.state.pending
        if decision is None:
            break
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    return game


def _games() -> list[tuple[str, int, bool]]:
    return [
        (f"lcg:{s}:{p}", seed, False) for (s, p), seed in zip(LCG_SCENARIOS, (3, 5, 7, 11, 13, 17), strict=True)
    ] + [
        (f"wotr:{s}", seed, bots)
        for s, seed in zip(WOTR_SCENARIOS, (2, 4, 6, 8), strict=True)
        for bots in (False, True)
    ]


def _start(key: str, seed: int, bots: bool) -> tuple[Ruleset[Any], Game]:
    parts = key.split(":")
    if parts[0] == "lcg":
        return LCG, _play(LCG, LCG.created(lcg_options(parts[1], int(parts[2])), seed), seed, 400)
    options = wotr_options(parts[1])
    if bots:
        shadow = [d.seat for d in options.decks if d.team == "shadow"]
        options = wotr_options(parts[1], None, shadow, "standard" if seed % 2 else "challenging")
    return WOTR, _play(WOTR, WOTR.created(options, seed), seed, 400)


def _continued(game: dict[str, Any], laid: dict[str, Any], offset: int) -> list[str]:
    """The differences between the game's table and the loaded fixture's after the same
    answers, but for the event numbers the procedures keep (``_ans``: the answer a step
    follows from; ``_by``: what triggered it), which count the fixture's own log: event
    ``n`` of the fixture after the position is event ``n + offset`` of the game."""
    out = []
    for line in differences(game, laid):
        path, _, values = line.partition(": ")
        if path.endswith(("._ans", "._by")):
            ours, _, theirs = values.partition(" in the game, ")
            if int(ours) == int(theirs.removesuffix(" laid out")) + offset:
                continue
        out.append(line)
    return out


def _states(rules: Ruleset[Any], game: Game) -> list[State]:
    """The table at every version (index: version), each a copy."""
    state = rules.new_state()
    kind = type(state)
    out = [msgspec.json.decode(msgspec.json.encode(state), type=kind)]
    for event in game.pending_events:
        apply(rules, state, event)
        out.append(msgspec.json.decode(msgspec.json.encode(state), type=kind))
    return out


def _versions(states: list[State], rng: random.Random, playing: list[int]) -> list[int]:
    """Random versions among ``playing``: at a decision, and part way through a rule step."""
    asked = [v for v in playing if states[v].pending is not None]
    between = [v for v in playing if states[v].pending is None]
    return sorted(rng.sample(asked, min(CAPTURES - 1, len(asked))) + rng.sample(between, min(1, len(between))))


def _captured_and_continued(
    rules: Ruleset[Any], log: list[Event], states: list[State], version: int, where: str
) -> None:
    """Capture the table at ``version``, load it, compare it field for field, then give it the
    game's own next answers (up to what another group tells this one, in an epic event:
    that is the organizer's to tell) and compare again after each."""
    state = states[version]
    data = tomllib.loads(capture(rules, state, where))
    run = Run(data)
    # the table after loading: the position event's, or the decision it asks again
    laid = run.game.state if state.pending is not None else run.state_at(2)
    assert differences(table_of(state), table_of(laid)) == [], where
    if state.pending is not None:
        assert run.game.state.pending is not None
        assert run.game.state.pending.prompt == state.pending.prompt, where
    result = run_fixture(data)
    assert result.passed, f"{where}: {result.failures}"
    # Played on with the game's own answers, the position gives the game's tables: the
    # same procedures resume, with the same chance. Fixture event 3 is the decision asked
    # again (game event N) or the first event after the position (game event N + 1).
    offset = version - 3 if state.pending is not None else version - 2
    first = next(v for v in range(version, len(states)) if states[v].pending or states[v].over)
    diff = _continued(table_of(states[first]), table_of(run.game.state), offset)
    assert diff == [], f"{where}: {diff}"
    told = next((e.seq for e in log[version:] if isinstance(e, TOLD)), len(log) + 1)
    answers = [e for e in log[version:] if isinstance(e, DecisionAnswered) and e.seq < told][:FOLLOW]
    for answer in answers:
        asked_now = run.game.state.pending
        assert asked_now is not None, where
        run.game.answer(answer.seat, asked_now.id, answer.choice)
        later = next(s for s in states[answer.seq :] if s.pending is not None or s.over is not None)
        diff = _continued(table_of(later), table_of(run.game.state), offset)
        assert diff == [], f"{where}, after #{answer.seq}: {diff}"
    # the fixture's log re-executes to itself (the position event with its cursor and draws)
    assert verify(rules, run.log).ok, where


@pytest.mark.parametrize(("key", "seed", "bots"), _games())
def test_a_capture_lays_out_the_table_at_its_version(key: str, seed: int, bots: bool) -> None:
    rules, game = _start(key, seed, bots)
    log = list(game.pending_events)
    states = _states(rules, game)
    playing = [v for v in range(2, len(states)) if states[v].over is None]
    chosen = _versions(states, random.Random(seed), playing)
    assert len(chosen) == CAPTURES, f"{key}: too short a game"
    for version in chosen:
        _captured_and_continued(rules, log, states, version, f"{key} seed {seed} (bots {bots}) at version {version}")


def test_a_group_of_an_epic_event_is_captured_with_what_the_other_groups_contributed(tmp_path: Path) -> None:
    """A group's table in an epic event holds what the other groups contributed to the global
    values (and how many of their effects arrived): the capture writes it in ``[position]``
    (``shared``, ``relays``) and the loaded table equals the group's field for field."""
    from service.app import Westmarch, store_env
    from service.commands import GameService
    from service.epic import EpicService
    from tests.test_hunt_epic import _play as play_epic

    epics = EpicService(GameService(Westmarch(store_env(db=str(tmp_path / "epic.db")))))
    epic = epics.follow(play_epic(epics, 5, [2, 1]))
    captured = arrived = 0
    for group in epic.state.groups:
        log = epics.app.history(group.game_id)
        states: list[State] = [LCG.new_state()]
        for event in log:
            state = msgspec.json.decode(msgspec.json.encode(states[-1]), type=LcgState)
            apply(LCG, state, event)
            states.append(state)
        playing = [v for v in range(2, len(states)) if states[v].over is None and cast(LcgState, states[v]).shared]
        relayed = [v for v in playing if cast(LcgState, states[v]).relays][-1:]  # an effect of another group arrived
        for version in sorted({*_versions(states, random.Random(len(log)), playing), *relayed}):
            _captured_and_continued(LCG, log, states, version, f"epic group {group.game_id} at version {version}")
            position = tomllib.loads(capture(LCG, states[version], "epic"))["position"]
            state = cast(LcgState, states[version])
            assert position["shared"] == state.shared and position.get("relays", 0) == state.relays
            captured += 1
            arrived += bool(state.relays)
    assert captured >= CAPTURES, "no group had learned what the others contributed"
    assert arrived, "no effect of another group had arrived at a captured table"


def test_a_finished_game_is_refused_with_the_reason() -> None:
    rules, game = _start("lcg:passage-through-mirkwood:1", 3, False)
    while game.state.over is None:
        decision = game.state.pending
        assert decision is not None
        game.answer(decision.seat, decision.id, random_choice(decision, random.Random(decision.id)))
    with pytest.raises(CaptureError, match="the game is over at version"):
        capture(rules, game.state, "over")


def test_a_declare_defender_decision_keeps_the_shadow_cards_dealt() -> None:
    """The first failure of issue 21: captured at a declare-defender decision, the file
    restarted the combat phase and dealt shadow cards the game never had."""
    rules, game = _start("lcg:passage-through-mirkwood:2", 3, False)
    states = [s for s in _states(rules, game) if isinstance(s, LcgState)]
    state = next(s for s in states if s.pending is not None and s.pending.rule == "lcg.combat.declare-defender")
    assert state.zone("shadows") and state.attack is not None
    laid = Run(tomllib.loads(capture(rules, state, "defend"))).game.state
    assert isinstance(laid, LcgState)
    assert laid.zone("shadows") == state.zone("shadows")
    assert laid.attack == state.attack
    assert laid.pending is not None and laid.pending.rule == "lcg.combat.declare-defender"


def test_a_decision_inside_a_card_play_in_round_two_stays_in_round_two() -> None:
    """The second failure of issue 21: a War of the Ring capture while a card's cost was being
    paid in round 2's action step replayed from round 3's start."""
    rules, game = _start("wotr:two-player-duel", 1, False)
    states = [s for s in _states(rules, game) if isinstance(s, WotrState)]
    state = next(s for s in states if s.pending is not None and s.round == 2 and s.pending.rule == "wotr.play.cost")
    laid = Run(tomllib.loads(capture(rules, state, "cost"))).game.state
    assert isinstance(laid, WotrState)
    assert (laid.round, laid.step) == (2, "action")
    assert laid.pending is not None and laid.pending.rule == "wotr.play.cost"
    assert laid.zone("resolving") == state.zone("resolving")


def test_the_command_line_refuses_a_finished_game_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``westmarch fixture capture`` says why, on one line, exits non-zero and writes no file."""
    db, out = str(tmp_path / "g.db"), tmp_path / "dispute.toml"
    assert main(["new", "lcg", "--seed", "4", "--db", db]) == 0
    game = capsys.readouterr().out.strip()
    assert main(["play", game, "--bot", "p1=greedy", "--db", db]) == 0
    capsys.readouterr()
    assert main(["fixture", "capture", game, "-o", str(out), "--db", db]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("westmarch: the game is over at version ") and "\n" not in err, err
    assert not out.exists()
    # part way through a rule step (version 60 of this game is no decision): captured, and it runs
    assert main(["fixture", "capture", game, "--at", "60", "-o", str(out), "--db", db]) == 0
    assert "part way through a rule step at version 60" in out.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["fixture", "run", str(out)]) == 0


def test_a_contract_chosen_at_setup_is_captured_in_the_game_section() -> None:
    """A Perilous Voyage chosen at setup is part of the game's options: the capture writes it
    as ``contracts`` in ``[game]`` and the loaded table equals the game's field for field."""
    options = lcg_options("hunt-for-the-dreadnaught", 1)
    [player] = options.players
    deck = (player.deck * 4)[:100]  # the contract asks for at least 100 cards
    options = msgspec.structs.replace(
        options, players=(msgspec.structs.replace(player, deck=deck, contract="thftd-047"),)
    )
    game = _play(LCG, LCG.created(options, 9), 9, 60)
    states = _states(LCG, game)
    version = max(v for v in range(2, len(states)) if states[v].pending is not None and states[v].over is None)
    state = states[version]
    text = capture(LCG, state, "a game with a contract")
    data = tomllib.loads(text)
    assert data["game"]["contracts"] == ["A Perilous Voyage"]
    run = Run(data)
    assert differences(table_of(state), table_of(run.game.state)) == []
    assert run_fixture(data).passed
