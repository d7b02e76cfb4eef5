"""The event organizer of Epic Multiplayer as an ``eventsourcing`` process application.

:class:`Organizer` is a :class:`~eventsourcing.system.ProcessApplication`: its policy
processes the events of the groups' games and collects the organizer aggregate's new events
(:mod:`domain.lcg.epic`), which the library records in one transaction with a
:class:`~eventsourcing.persistence.Tracking` record, in a process recorder over the same
database as the games (the SQLite file, or PostgreSQL: it borrows the games' application's
infrastructure, so the organizer's events sit beside the games' under ``westmarch.epic.*``).

Why each group event is counted exactly once:

- **Each group's log is its own leader.** The organizer does not read the games' global
  notification log: the games are saved without the library's table lock (see
  ``service/store.py``), so on PostgreSQL two processes' notification ids can commit out
  of order and a reader by id could step over an event that commits later. A group's own
  log has no such gap: its versions are 1, 2, 3... with no hole (the store's unique key and
  :meth:`~service.app.Westmarch.history` check it). So the leader is named after the group
  (:func:`leader_of`) and a notification id is a group event's version.
- **The tracking record moves with the counts.** The library's tracking table keeps, per
  leader, the last version processed; it is written in the transaction that records the
  counts, and refuses to move back or stay put (``IntegrityError``). A process that dies
  before that commit leaves nothing; after it, the version is known to every process.
- **The aggregate refuses what was counted.** Processing reads the tracking position, then
  the group's events after it, as one batch (one transaction per command, not per event).
  Two organizers may read the same position and race: the first to commit wins; the
  second either collides on the aggregate's version (both counted something: the library's
  optimistic concurrency refuses the second, which reloads and starts again from the new
  position) or on the tracking record, or counts nothing. Should a batch start before a
  position that another organizer has since committed, the aggregate itself passes over the
  group events at or before the last one it counted of that group (contributions are
  counted in log order), so nothing is counted twice there either.

What a group learns from the organizer is told to it afterwards (``service/epic.py``) as an
event of its own log with its cause, so each group's game replays, forks and verifies alone.
Telling is idempotent (a group is told only what differs from what it last learned), so it
needs no tracking of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

from eventsourcing.application import ProcessingEvent
from eventsourcing.persistence import InfrastructureFactory, IntegrityError, Tracking
from eventsourcing.system import ProcessApplication
from eventsourcing.utils import Environment

from domain.kernel.events import Event
from domain.lcg import epic as organizer
from domain.lcg.state import LcgState
from service.app import ConcurrentUpdate, UnknownGame, Westmarch

LEADER_PREFIX = "westmarch.group."
ATTEMPTS = 8
"""Races lost in a row (another organizer counted first) before giving up."""


def leader_of(game_id: UUID) -> str:
    """The leader name of a group's log in the tracking table."""
    return f"{LEADER_PREFIX}{game_id}"


class UnknownEpic(UnknownGame):
    def __init__(self, epic_id: UUID | str) -> None:
        super().__init__(epic_id)
        self.args = (f"no epic event {epic_id}",)

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class GroupEvents:
    """What the policy processes: a group's events after the tracked position, in order,
    with a state of the group at or after the last of them (it names every card)."""

    epic_id: UUID
    group: UUID
    state: LcgState
    events: Sequence[Event]

    @property
    def originator_id(self) -> UUID:
        return self.group

    @property
    def originator_version(self) -> int:
        """The group's version after these events: the notification id tracked."""
        return self.events[-1].seq


class Saved:
    """An organizer aggregate's new events, as the library collects them."""

    def __init__(self, epic: organizer.Epic, events: list[Any]) -> None:
        self.id, self.version, self._events = epic.id, epic.version, events

    def collect_events(self) -> list[Any]:
        return self._events


class Organizer(ProcessApplication[UUID]):
    """Follows the groups' logs (each its own leader) and keeps the organizers' counts."""

    name = "Organizer"

    def __init__(self, games: Westmarch, state_of: Callable[[UUID], LcgState]) -> None:
        self.games = games
        self.state_of = state_of
        super().__init__({"AGGREGATE_CACHE_MAXSIZE": ""})

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        """The games' infrastructure: the same database, connections and tables."""
        return self.games.factory

    def close(self) -> None:
        self.closing.set()  # the store is the games' application's to close

    def _record(self, processing_event: ProcessingEvent[UUID]) -> Any:
        with self.games.writing:  # SQLite: one writer of this process at a time
            return super()._record(processing_event)

    # -- reading the organizer's aggregate ------------------------------------------------------

    def epic(self, epic_id: UUID) -> organizer.Epic:
        stored = self.recorder.select_events(epic_id)
        if not stored:
            raise UnknownEpic(epic_id)
        events = [cast(organizer.EpicEvent, self.mapper.to_domain_event(s)) for s in stored]
        return organizer.Epic(organizer.fold_epic(events))

    def followed(self, group: UUID) -> int:
        """The last version of group ``group``'s log the organizer has processed."""
        return self.recorder.max_tracking_id(leader_of(group)) or 0

    # -- processing ----------------------------------------------------------------------------

    def pull_and_process(self, leader_name: str, start: int | None = None, stop: int | None = None) -> None:
        """Process the group's events after the tracked position (``start``: from after that
        version instead, to deliver events again), up to ``stop``; a race lost to another
        organizer is retried from the position it left."""
        group = UUID(leader_name.removeprefix(LEADER_PREFIX))
        for _ in range(ATTEMPTS):
            tracked = self.followed(group) if start is None else start
            events = self.games.history(group, gt=tracked, lte=stop)
            if not events:
                return
            state = self.state_of(group)
            epic = state.options.epic if state.options is not None else ""
            if not epic:
                raise KeyError(f"game {group} is not a group of an epic event")
            try:
                batch = GroupEvents(UUID(epic), group, state, events)
                self.process_event(batch, Tracking(leader_name, batch.originator_version))
            except IntegrityError:
                if start is not None:
                    raise
                continue  # another organizer processed some of them first: go on from there
            return
        raise ConcurrentUpdate(group)

    def policy(self, domain_event: Any, processing_event: ProcessingEvent[UUID]) -> None:
        batch = cast(GroupEvents, domain_event)
        epic = self.epic(batch.epic_id)
        epic.count(batch.group, batch.state, batch.events)
        new = epic.collect_events()
        if new:
            processing_event.collect_events(Saved(epic, list(new)))
