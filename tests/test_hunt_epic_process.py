"""The epic event organizer as a process application: each group event counted exactly once.

The organizer follows each group's log as a leader of its own (notification id: the group
event's version) and records its counts atomically with the library's tracking records,
in the games' database. These stories stop it, restart it, deliver a group's events twice
and race two organizers, and check every time that the organizer's count of each group is
the sum of the group's log, with no group event counted twice.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import cast
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from bots import random_choice
from domain.lcg import epic as organizer
from domain.lcg import events as ev
from domain.lcg.state import LcgState
from service.app import Westmarch, store_env
from service.commands import GameService
from service.epic import EpicAccess, EpicService
from service.organizer import Organizer, leader_of
from tests.rpc_support import pg_env, postgres_schema


def _organizer(app: Westmarch) -> Organizer:
    return Organizer(app, lambda game_id: cast(LcgState, app.state_at(game_id)))


def _play(games: GameService, access: EpicAccess, seed: int, commands: int) -> None:
    """Random decisions in random groups, through a service with no organizer attached."""
    rng = random.Random(seed)
    for n in range(commands):
        live = [a for a in access.groups if games.state(a.game_id).over is None]
        if not live:
            return
        group = rng.choice(live)
        decision = games.state(group.game_id).pending
        choice = random_choice(decision, rng)
        games.submit(group.game_id, group.seats[decision.seat], 0, decision.id, choice, f"s{seed}-{n}")


def _own(app: Westmarch, game_id: UUID, through: int | None = None) -> dict[str, int]:
    state = cast(LcgState, app.state_at(game_id))
    out = {"progress": 0, "damage": 0}
    for e in app.history(game_id, lte=through):
        if isinstance(e, ev.ProgressPlaced) and state.cards[e.card].code == "thftd-004":
            out["progress"] += e.amount
        if isinstance(e, ev.DamageDealt) and state.cards[e.card].code == "thftd-013":
            out["damage"] += e.amount
    return out


def _counted_once(app: Westmarch, epic_id: UUID) -> organizer.EpicState:
    """The organizer's stored count of each group is its log up to the tracked version,
    and no group event was counted twice."""
    stored = [app.mapper.to_domain_event(s) for s in app.recorder.select_events(epic_id)]
    sources = [(e.group, e.source) for e in stored if isinstance(e, organizer.ContributionCounted)]
    assert len(sources) == len(set(sources)), "a group event was counted twice"
    state = organizer.fold_epic(stored)
    tracking = _organizer(app)
    for group in state.groups:
        assert state.contributed[group.game_id] == _own(app, group.game_id, tracking.followed(group.game_id))
    return state


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "epic.db")


@pytest.fixture
def played(db: str) -> Iterator[tuple[EpicAccess, Westmarch]]:
    """An epic event of two groups, played while no organizer was running."""
    app = Westmarch(store_env(db=db))
    access = EpicService(GameService(app)).create([2, 1], "easy", seed=5)
    _play(GameService(app), access, 5, 700)
    yield access, app


def test_a_restarted_organizer_counts_what_it_missed_once(played: tuple[EpicAccess, Westmarch], db: str) -> None:
    access, app = played
    groups = [g.game_id for g in access.groups]
    first = _organizer(app)
    assert all(first.followed(g) == 0 for g in groups), "nothing was processed while the organizer was down"
    half = app.version(groups[0]) // 2
    first.pull_and_process(leader_of(groups[0]), stop=half)  # then the process dies
    assert first.followed(groups[0]) == half
    # a new process: a new application on the same file
    again = EpicService(GameService(Westmarch(store_env(db=db))))
    epic = again.follow(access.epic_id)
    for g in groups:
        assert again.organizer.followed(g) == app.version(g), "the tracking record names the group's last event"
        assert epic.state.contributed[g] == _own(app, g)
    assert epic.state.total("progress") > 0, "no progress was placed: the test shows nothing counted"
    # and once more, with nothing new: nothing is appended
    version = epic.version
    assert EpicService(GameService(Westmarch(store_env(db=db)))).follow(access.epic_id).version == version
    _counted_once(app, access.epic_id)


def test_the_same_group_events_delivered_twice_are_counted_once(played: tuple[EpicAccess, Westmarch], db: str) -> None:
    access, app = played
    group = max((g.game_id for g in access.groups), key=lambda g: _own(app, g)["progress"])
    assert _own(app, group)["progress"] > 0
    one, two = _organizer(app), _organizer(Westmarch(store_env(db=db)))
    latest = app.version(group)
    one.pull_and_process(leader_of(group), stop=latest - 5)
    counted = one.epic(access.epic_id).state.contributed[group]
    # a second organizer is handed the same events again (as if it read the position before
    # the first committed): the tracking record refuses them and nothing is appended
    with pytest.raises(IntegrityError):
        two.pull_and_process(leader_of(group), start=0, stop=latest - 5)
    assert two.epic(access.epic_id).state.contributed[group] == counted
    # handed them again with the five events after them: only the five are counted
    two.pull_and_process(leader_of(group), start=0)
    assert two.followed(group) == latest
    assert two.epic(access.epic_id).state.contributed[group] == _own(app, group)
    _counted_once(app, access.epic_id)


def test_two_organizers_racing_count_each_group_event_once(played: tuple[EpicAccess, Westmarch], db: str) -> None:
    access, app = played
    _race([Westmarch(store_env(db=db)), Westmarch(store_env(db=db))], access)
    state = _counted_once(app, access.epic_id)
    assert all(state.contributed[g.game_id] == _own(app, g.game_id) for g in access.groups)


def _race(apps: list[Westmarch], access: EpicAccess, steps: int = 12) -> None:
    """Each organizer processes every group in small steps at the same time as the others."""
    errors: list[BaseException] = []
    start = threading.Barrier(len(apps))

    def run(org: Organizer) -> None:
        app = org.games
        try:
            start.wait(timeout=120)
            for step in range(1, steps + 1):
                for g in access.groups:
                    org.pull_and_process(leader_of(g.game_id), stop=app.version(g.game_id) * step // steps)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(_organizer(a),)) for a in apps]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_two_processes_on_postgresql_count_each_group_event_once() -> None:
    with postgres_schema() as schema:
        app = Westmarch(pg_env(schema))
        access = EpicService(GameService(app)).create([1, 1, 2], "easy", seed=7)
        _play(GameService(app), access, 7, 700)
        _race([Westmarch(pg_env(schema)), Westmarch(pg_env(schema))], access)
        state = _counted_once(app, access.epic_id)
        for g in access.groups:
            assert _organizer(app).followed(g.game_id) == app.version(g.game_id)
            assert state.contributed[g.game_id] == _own(app, g.game_id)
        assert state.total("progress") > 0


def test_an_organizer_stored_before_tracking_records_loads_and_counts_nothing_twice(
    played: tuple[EpicAccess, Westmarch], db: str
) -> None:
    """Organizers once recorded how far they had followed a group as ``GroupFollowed``
    events in their own log, with no tracking record: such a log still loads, and following
    it again passes over what it had counted."""
    access, app = played
    group = max((g.game_id for g in access.groups), key=lambda g: _own(app, g)["progress"])
    state = cast(LcgState, app.state_at(group))
    through = app.version(group) // 2
    assert _own(app, group, through)["progress"] > 0, "the first half placed no progress: nothing to pass over"
    version = app.version(access.epic_id)
    old: list[object] = []
    for e in app.history(group, lte=through):
        if isinstance(e, ev.ProgressPlaced) and state.cards[e.card].code == "thftd-004":
            version += 1
            old.append(
                organizer.ContributionCounted(
                    originator_id=access.epic_id,
                    originator_version=version,
                    group=group,
                    key="progress",
                    amount=e.amount,
                    source=e.seq,
                )
            )
    version += 1
    old.append(
        organizer.GroupFollowed(originator_id=access.epic_id, originator_version=version, group=group, through=through)
    )
    app.recorder.insert_events([app.mapper.to_stored_event(e) for e in old])  # type: ignore[arg-type]
    epic = EpicService(GameService(Westmarch(store_env(db=db)))).follow(access.epic_id)
    assert epic.state.contributed[group] == _own(app, group)
    _counted_once(app, access.epic_id)
