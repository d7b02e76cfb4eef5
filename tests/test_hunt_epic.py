"""Epic Multiplayer of The Hunt for the Dreadnaught: groups sharing two global values.

Sources: the scenario's rulebook, "Global Values" (16 players in four groups of four: 128 and
240) and "Epic Multiplayer Mode". The organizer follows the groups' logs; each group learns
what the others contributed as an event of its own log, so each group's game verifies alone.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import cast
from uuid import UUID

import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.events import DecisionAnswered, Event, GameEnded
from domain.lcg import encounter_events as xev
from domain.lcg import epic as organizer
from domain.lcg import events as ev
from domain.lcg.rules import table
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.verify import verify
from service.app import Westmarch, store_env
from service.commands import GameService
from service.epic import EpicService
from tools.fixtures import Run


@pytest.fixture
def epics(tmp_path: Path) -> Iterator[EpicService]:
    yield EpicService(GameService(Westmarch(store_env(db=str(tmp_path / "epic.db")))))


def test_sixteen_players_in_four_groups_give_128_and_240(epics: EpicService) -> None:
    assert organizer.split(16, 4) == [4, 4, 4, 4]
    assert organizer.totals_for(16) == {"progress": 128, "damage": 240}
    access = epics.create([4, 4, 4, 4], "standard", seed=3)
    assert access.totals == {"progress": 128, "damage": 240}
    for group in access.groups:
        state = cast(LcgState, epics.app.state_at(group.game_id))
        assert state.options is not None and state.options.epic == str(access.epic_id)
        assert state.options.epic_players == 16
        stage = next(u for u, c in state.cards.items() if c.code == "thftd-004")
        assert table.stat(state, stage, "quest_points") == 128, "stage 1B needs the global 128 progress"
        dreadnaught = next(u for u, c in state.cards.items() if c.code == "thftd-013")
        assert table.hit_points(state, dreadnaught) == 240
        assert len(state.order) == 4


def test_players_split_into_groups_as_evenly_as_possible() -> None:
    assert organizer.split(7, 2) == [4, 3]
    assert organizer.split(5, 3) == [2, 2, 1]
    with pytest.raises(ValueError, match="cannot be split"):
        organizer.split(9, 2)


def _contributions(state: LcgState, events: list[Event]) -> dict[str, int]:
    out = {"progress": 0, "damage": 0}
    for e in events:
        if isinstance(e, ev.ProgressPlaced) and state.cards[e.card].code == "thftd-004":
            out["progress"] += e.amount
        if isinstance(e, ev.DamageDealt) and state.cards[e.card].code == "thftd-013":
            out["damage"] += e.amount
    return out


def _play(epics: EpicService, seed: int, groups: list[int], limit: int = 1500) -> UUID:
    access = epics.create(groups, "easy", seed=seed)
    rng = random.Random(seed)
    games = epics.games
    for n in range(limit):
        live = [a for a in access.groups if games.state(a.game_id).over is None]
        if not live:
            break
        group = rng.choice(live)
        decision = games.state(group.game_id).pending
        games.submit(group.game_id, group.seats[decision.seat], 0, decision.id, random_choice(decision, rng), f"c{n}")
    return access.epic_id


@pytest.mark.parametrize("seed", [5, 11])
def test_two_groups_share_values_each_counted_once_each_group_verifies(epics: EpicService, seed: int) -> None:
    epic_id = _play(epics, seed, [2, 1])
    epic = epics.follow(epic_id)
    app = epics.app
    counted: dict[str, int] = {"progress": 0, "damage": 0}
    for group in epic.state.groups:
        events = app.history(group.game_id)
        state = cast(LcgState, app.state_at(group.game_id))
        own = _contributions(state, events)
        # the organizer's count of this group is exactly the sum of the group's log
        assert epic.state.contributed[group.game_id] == own
        for key in counted:
            counted[key] += own[key]
        # what the group learned is a recorded event of its own log, with the organizer's version
        learned = [e for e in events if isinstance(e, ev.SharedValueLearned)]
        assert all(e.cause.rule == "lcg.epic.organizer-report" and e.organizer_version > 0 for e in learned)
        if state.over is None:
            assert state.shared.get("progress", 0) == epic.state.others(group.game_id, "progress")
        # each group's game verifies alone, told facts included
        assert verify(LCG, events).ok
    assert {k: epic.state.total(k) for k in counted} == counted
    assert counted["progress"] > 0, "no progress was placed: the test shows nothing shared"
    # each source event of each group was counted at most once
    stored = [app.mapper.to_domain_event(s) for s in app.recorder.select_events(epic_id)]
    sources = [(e.group, e.source) for e in stored if isinstance(e, organizer.ContributionCounted)]
    assert len(sources) == len(set(sources))


def test_a_group_reloaded_at_any_version_continues_as_it_played(epics: EpicService) -> None:
    epic_id = _play(epics, 5, [2, 1])
    epic = epics.load(epic_id)
    app = epics.app
    for group in epic.state.groups:
        events = app.history(group.game_id)
        told = [e for e in events if isinstance(e, ev.SharedValueLearned)]
        if not told:
            continue
        version = told[0].seq - 1
        again = Game(group.game_id, LCG, app.state_at(group.game_id, version))
        again.resume()
        for e in events[version:]:
            if e.seq <= again.version:
                continue
            if isinstance(e, ev.SharedValueLearned):
                again.tell(ev.SharedValueLearned(key=e.key, others=e.others, organizer_version=e.organizer_version))
            elif isinstance(e, DecisionAnswered):
                again.answer(e.seat, e.decision, e.choice)
        encode = LCG.codec.encode
        assert [encode(e) for e in again.pending_events] == [encode(e) for e in events[version:]]
        return
    raise AssertionError("no group was told anything: the test shows nothing")


def _position(zones: dict[str, object], at: str, phase: str) -> Run:
    return Run(
        {
            "game": {"scenario": "hunt-for-the-dreadnaught", "players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]]},
            "position": {"at": at, "phase": phase, "zones": zones},
        }
    )


def test_damage_from_other_groups_destroys_this_groups_dreadnaught() -> None:
    run = _position(
        {
            "quest": [{"card": "Destroy the Dreadnaught", "face": "B"}],
            "staging": [{"card": "Dreadnaught", "damage": 2}],
            "p1.allies": ["Eithiliant"],
        },
        "lcg.quest",
        "planning",
    )
    assert run.game.state.pending is not None
    run.game.tell(ev.SharedValueLearned(key="damage", others=13, organizer_version=4))
    events = run.game.pending_events
    assert any(isinstance(e, ev.EnemyDefeated) for e in events)
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert ended and ended[0].outcome.reason == "dreadnaught-destroyed"
    assert verify(LCG, list(events)).ok


def test_progress_from_other_groups_advances_this_group_at_the_end_of_its_quest_phase() -> None:
    run = _position(
        {"quest.deck": ["Destroy the Dreadnaught"], "set-aside": ["Dreadnaught"], "p1.allies": ["Eithiliant"]},
        "lcg.quest",
        "planning",
    )
    game = run.game
    game.tell(ev.SharedValueLearned(key="progress", others=8, organizer_version=2))
    state = cast(LcgState, game.state)
    assert table.stat(state, state.zone("quest")[0], "quest_points") == 0
    rng = random.Random(1)
    while not any(isinstance(e, ev.QuestStageDefeated) for e in game.pending_events):
        decision = game.state.pending
        assert decision is not None and state.phase == "quest", "the stage must fall as the quest phase ends"
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    defeated = next(e for e in game.pending_events if isinstance(e, ev.QuestStageDefeated))
    before = game.pending_events[defeated.seq - 2]
    assert isinstance(before, xev.PhaseEnded) and before.phase == "quest"  # before the travel phase begins
    assert verify(LCG, list(game.pending_events)).ok


EPIC_EVENTS = 50
"""Random epic events of 2 to 4 groups of 1 to 4 players, each played to its end (every
group's game over) with random decisions among its groups."""
EPIC_DECISIONS = 40_000
"""A bound only: no random event has come near it."""


def _epic_groups(seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, 4) for _ in range(2 + seed % 3)]


def test_the_random_epic_events_meet_every_shape() -> None:
    shapes = [_epic_groups(seed) for seed in range(EPIC_EVENTS)]
    assert {len(groups) for groups in shapes} == {2, 3, 4}
    assert {size for groups in shapes for size in groups} == {1, 2, 3, 4}
    assert max(sum(groups) for groups in shapes) >= 13, "a large event (13 to 16 players)"


@pytest.mark.parametrize("seed", range(EPIC_EVENTS))
def test_random_epic_events_count_every_contribution_once_and_every_group_verifies(
    epics: EpicService, seed: int
) -> None:
    groups = _epic_groups(seed)
    epic_id = _play(epics, 100 + seed, groups, limit=EPIC_DECISIONS)
    epic = epics.follow(epic_id)
    app = epics.app
    assert epic.state.players == sum(groups)
    assert sorted(g.players for g in epic.state.groups) == sorted(groups)
    assert epic.state.totals == organizer.totals_for(sum(groups))
    for group in epic.state.groups:
        events = app.history(group.game_id)
        state = cast(LcgState, app.state_at(group.game_id))
        assert state.over is not None, "every group plays to its end"
        assert len(state.order) == group.players
        assert epic.state.contributed[group.game_id] == _contributions(state, events)
        assert verify(LCG, events).ok
    for key, total in epic.state.totals.items():
        assert (key in epic.state.reached) == (epic.state.total(key) >= total)


# -- the command line ---------------------------------------------------------------------------------


def test_epic_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import json

    from tools.cli import main

    db = str(tmp_path / "cli.db")
    new = ["new", "lcg", "--scenario", "hunt-for-the-dreadnaught", "--db", db]
    assert main([*new, "--epic", "2x1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "stage 1B 16 progress, Dreadnaught 30 hit points" in out and "organizer token:" in out
    epic_id = out.splitlines()[0].split()[-1]
    assert main(["epic", epic_id, "--db", db, "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["totals"] == {"progress": 16, "damage": 30} and len(sheet["groups"]) == 2
    assert main([*new, "--epic", "2x5"]) == 2
    assert "groups of 1 to 4 players" in capsys.readouterr().err
    args = ["simulate", "lcg", "--scenario", "hunt-for-the-dreadnaught", "--epic", "1,2", "--games", "1"]
    assert main([*args, "--bot", "random", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (event,) = report["events"]
    assert event["players"] == 3 and all(g["result"] for g in event["groups"])
    assert event["audit"] == [], "every group verifies and the organizer's counts equal the groups' logs"


def test_the_audit_of_an_epic_event_finds_a_count_that_differs_from_a_groups_log(tmp_path: Path) -> None:
    from dataclasses import replace

    from tools.epic import audit_epic, play_epic

    app = Westmarch(store_env(db=str(tmp_path / "audit.db")))
    report = play_epic(EpicService(GameService(app)), [1, 1], "easy", 3, "random", 40_000)
    assert audit_epic(app, report) == []
    first = report.groups[0]
    wrong = replace(first, contributed={**first.contributed, "progress": first.contributed["progress"] + 1})
    problems = audit_epic(app, replace(report, groups=[wrong, *report.groups[1:]]))
    assert any("group 1: the organizer counted" in p for p in problems), problems


def test_a_sixteen_player_epic_event_of_bots_runs_end_to_end_on_postgresql(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command the README gives, on PostgreSQL: four groups of four play to the end, every
    group verifies and the organizer's totals equal the sum of the groups' logs."""
    import json

    from tests.conftest import POSTGRES_DSN
    from tests.rpc_support import postgres_schema
    from tools.cli import main

    with postgres_schema() as schema:
        monkeypatch.setenv("POSTGRES_SCHEMA", schema)
        args = ["simulate", "lcg", "--scenario", "hunt-for-the-dreadnaught", "--epic", "4x4", "--games", "1"]
        code = main([*args, "--difficulty", "easy", "--store", "--postgres", POSTGRES_DSN, "--json"])
        (event,) = json.loads(capsys.readouterr().out)["events"]
    assert code == 0 and event["audit"] == []
    assert event["players"] == 16 and event["totals"] == {"progress": 128, "damage": 240}
    assert all(g["result"] for g in event["groups"]), "every group played to its end"
