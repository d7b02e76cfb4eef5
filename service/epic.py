"""The event organizer of Epic Multiplayer, as a service: it opens an epic event (its groups'
games and its own aggregate), follows the groups' logs and tells each group what the others
contributed (see :mod:`domain.lcg.epic` for the rules and the aggregate).

The organizer's events are stored beside the games, in the same event store, under topics
``westmarch.epic.*``. Following is one optimistic append to the organizer's aggregate: two
processes following the same group at once cannot both count its events (the second append
fails, reloads, and finds them counted). What a group learns is then told to it as an event
of its own log, saved like a command's events; a group told nothing new is left alone.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID, uuid4, uuid5

import msgspec
from eventsourcing.persistence import IntegrityError

from domain.game import Game
from domain.lcg import epic as organizer
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from service.app import ConcurrentUpdate, UnknownGame, Westmarch
from service.commands import Access, GameService
from service.errors import BadRequest, PermissionDenied
from service.records import OrganizerKey
from service.rpc.auth import new_token, token_hash

SCENARIO = "hunt-for-the-dreadnaught"


class UnknownEpic(UnknownGame):
    def __init__(self, epic_id: UUID | str) -> None:
        super().__init__(epic_id)
        self.args = (f"no epic event {epic_id}",)

    def __str__(self) -> str:
        return str(self.args[0])


def organizer_key_id(epic_id: UUID) -> UUID:
    return uuid5(epic_id, "organizer")


@dataclass(frozen=True)
class EpicAccess:
    epic_id: UUID
    organizer: str
    """The organizer's token (shown once)."""
    groups: list[Access]
    totals: dict[str, int]


@dataclass(frozen=True)
class GroupReport:
    game_id: UUID
    players: int
    difficulty: str
    contributed: dict[str, int]
    learned: dict[str, int]
    round: int
    stage: int
    result: str


@dataclass(frozen=True)
class EpicReport:
    epic_id: UUID
    version: int
    players: int
    totals: dict[str, int]
    counted: dict[str, int]
    reached: list[str]
    groups: list[GroupReport]


class _Saved:
    """The organizer aggregate as ``Application.save`` wants it."""

    def __init__(self, epic: organizer.Epic, events: list[organizer.EpicEvent]) -> None:
        self.id, self.version, self._events = epic.id, epic.version, events

    def collect_events(self) -> list[organizer.EpicEvent]:
        return self._events


class EpicService:
    """Opens epic events and keeps their organizers' counts, for one application."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.app: Westmarch = games.app
        games.followers.append(self._after_command)

    # -- opening -------------------------------------------------------------------------

    def create(
        self, groups: Sequence[int], difficulty: str | Sequence[str] = "standard", seed: int | None = None
    ) -> EpicAccess:
        """Open an epic event: one game per group (``groups``: players in each), sharing the
        global values fixed from the total number of players. ``difficulty`` is every group's,
        or one per group (rulebook: "each group may choose its own difficulty mode")."""
        if not groups or any(not 1 <= n <= organizer.MAX_GROUP for n in groups):
            raise BadRequest(f"an epic event needs one or more groups of 1 to {organizer.MAX_GROUP} players")
        modes = [difficulty] * len(groups) if isinstance(difficulty, str) else list(difficulty)
        if len(modes) != len(groups):
            raise BadRequest(f"{len(modes)} difficulties were given for {len(groups)} groups")
        epic_id = uuid4()
        total = sum(groups)
        rng_seed = secrets.randbelow(2**63) if seed is None else seed
        accesses = []
        entries = []
        for i, (players, mode) in enumerate(zip(groups, modes, strict=True)):
            options = lcg_options(SCENARIO, players, None, mode)
            options = msgspec.structs.replace(options, epic=str(epic_id), epic_players=total)
            created = LCG.created(options, (rng_seed + i) % 2**63)
            access = self.games.start("lcg", created)
            accesses.append(access)
            entries.append(organizer.Group(access.game_id, players, mode))
        epic = organizer.Epic.open(epic_id, entries)
        token = new_token(epic_id)
        key = OrganizerKey(originator_id=organizer_key_id(epic_id), epic_id=epic_id, hash=token_hash(token))
        self.app.save(_Saved(epic, epic.collect_events()), _Record(key))
        return EpicAccess(epic_id, token, accesses, dict(epic.state.totals))

    # -- following the groups --------------------------------------------------------------

    def load(self, epic_id: UUID) -> organizer.Epic:
        stored = self.app.recorder.select_events(epic_id)
        if not stored:
            raise UnknownEpic(epic_id)
        events = [cast(organizer.EpicEvent, self.app.mapper.to_domain_event(s)) for s in stored]
        return organizer.Epic(organizer.fold_epic(events))

    def follow(self, epic_id: UUID, groups: Sequence[UUID] = (), attempts: int = 8) -> organizer.Epic:
        """Count the new contributions of ``groups`` (default: every group), then tell each
        group what it must learn."""
        for _ in range(attempts):
            epic = self.load(epic_id)
            for group in groups or [g.game_id for g in epic.state.groups]:
                fresh = self.app.history(group, gt=epic.state.followed[group])
                if fresh:
                    epic.follow(group, self.games.state(group), fresh)
            new = epic.collect_events()
            if new:
                try:
                    self.app.save(_Saved(epic, new))
                except IntegrityError:
                    continue  # another process counted first: reload and count what is left
            self._tell(epic)
            return epic
        raise ConcurrentUpdate(epic_id)

    def _tell(self, epic: organizer.Epic) -> None:
        for group in epic.state.groups:

            def facts(game: Game, gid: UUID = group.game_id) -> list[Any]:
                return list(epic.reports(gid, cast(LcgState, game.state)))

            try:
                self.games.tell(group.game_id, facts)
            except ConcurrentUpdate:
                continue  # the group moved on meanwhile; the next follow tells it

    def _after_command(self, game: Game) -> None:
        options = getattr(game.state, "options", None)
        epic = getattr(options, "epic", "")
        if epic:
            # Other processes may keep counting meanwhile: the next follow counts what is left.
            with contextlib.suppress(ConcurrentUpdate):
                self.follow(UUID(epic), [game.id])

    # -- the organizer's view ------------------------------------------------------------------

    def check(self, epic_id: UUID, token: str) -> None:
        found = self.app.record(organizer_key_id(epic_id))
        if not isinstance(found, OrganizerKey) or not secrets.compare_digest(found.hash, token_hash(token)):
            raise PermissionDenied(f"not the organizer token of epic event {epic_id}")

    def report(self, epic_id: UUID) -> EpicReport:
        epic = self.load(epic_id)
        s = epic.state
        groups = []
        for g in s.groups:
            state = self.games.state(g.game_id)
            stage = state.zone("quest")
            number = 0 if not stage else int(state.cards[stage[0]].code.rsplit("-", 1)[1]) - 3
            groups.append(
                GroupReport(
                    g.game_id,
                    g.players,
                    g.difficulty,
                    dict(s.contributed[g.game_id]),
                    dict(state.shared),
                    state.round,
                    number,
                    state.over.result if state.over is not None else "",
                )
            )
        counted = {key: s.total(key) for key in s.totals}
        return EpicReport(epic_id, s.version, s.players, dict(s.totals), counted, sorted(s.reached), groups)


class _Record:
    def __init__(self, event: OrganizerKey) -> None:
        self.id, self.version, self._events = event.originator_id, 1, [event]

    def collect_events(self) -> list[OrganizerKey]:
        return self._events
