"""The event organizer of Epic Multiplayer, as a service: it opens an epic event (its groups'
games and its own aggregate), follows the groups' logs and tells each group what the others
contributed (see :mod:`domain.lcg.epic` for the rules and the aggregate).

The organizer is a process application (:class:`service.organizer.Organizer`, which says
why each group event is counted exactly once); after each command of a group it processes
the group's new events. What a group learns is then told to it as an event of its own log,
saved like a command's events; a group told nothing new is left alone.
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
from domain.kernel.decisions import RuleError
from domain.lcg import epic as organizer
from domain.lcg.lineups import SetupError, lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from projections.i18n import say
from service.app import ConcurrentUpdate, Westmarch
from service.commands import Access, GameService
from service.errors import BadRequest, PermissionDenied
from service.games import GameRequest, PlayerSetup, created_event
from service.organizer import Organizer, Saved, leader_of
from service.records import OrganizerKey
from service.room import SeatPlan, plan_room
from service.rpc.auth import new_token, token_hash

SCENARIO = "hunt-for-the-dreadnaught"
ROUNDS = 4
"""Rounds of following and telling in one follow (a told group may have more to count)."""


@dataclass(frozen=True)
class GroupSetup:
    """One group's players and who sits in each seat, as CreateGame takes a game's."""

    players: Sequence[PlayerSetup] = ()
    seating: Sequence[SeatPlan] = ()


def _group_options(players: int, mode: str, setup: GroupSetup) -> Any:
    """A group's options: its players' decks, heroes and contracts, or the default lineups."""
    if not setup.players:
        return lcg_options(SCENARIO, players, None, mode)
    request = GameRequest("lcg", SCENARIO, {"difficulty": mode}, tuple(setup.players))
    created = created_event(request, 0)
    return created.options  # type: ignore[attr-defined]


def organizer_key_id(epic_id: UUID) -> UUID:
    return uuid5(epic_id, "organizer")


def is_epic(app: Westmarch, epic_id: UUID) -> bool:
    """Whether ``epic_id`` names an epic event (it has an organizer token)."""
    return isinstance(app.record(organizer_key_id(epic_id)), OrganizerKey)


def check_organizer(app: Westmarch, epic_id: UUID, token: str) -> None:
    """``token`` is the organizer token of epic event ``epic_id``, or PermissionDenied."""
    found = app.record(organizer_key_id(epic_id))
    if not isinstance(found, OrganizerKey) or not secrets.compare_digest(found.hash, token_hash(token)):
        raise PermissionDenied(say("not the organizer token of epic event %(epic_id)s", epic_id=epic_id))


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


class EpicService:
    """Opens epic events and keeps their organizers' counts, for one application."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.app: Westmarch = games.app
        self.organizer = Organizer(games.app, lambda game_id: cast(LcgState, games.state(game_id)))
        games.followers.append(self._after_command)
        games.branching.append(self)

    # -- opening -------------------------------------------------------------------------

    def create(
        self,
        groups: Sequence[int],
        difficulty: str | Sequence[str] = "standard",
        seed: int | None = None,
        setups: Sequence[GroupSetup] = (),
        unlisted: bool = False,
    ) -> EpicAccess:
        """Open an epic event: one game per group (``groups``: players in each), sharing the
        global values fixed from the total number of players. ``difficulty`` is every group's,
        or one per group (rulebook: "each group may choose its own difficulty mode").
        ``setups``: each group's players (decks, heroes, contracts) and seating, as a game's
        are; every group is checked before any is saved, so a refused part creates nothing."""
        if setups:
            sizes = [len(s.players) or 1 for s in setups]
            if groups and list(groups) != sizes:
                raise BadRequest(
                    say(
                        "the groups' sizes %(groups)s and their setups' players %(sizes)s differ",
                        groups=list(groups),
                        sizes=sizes,
                    )
                )
            groups = sizes
        if not groups or any(not 1 <= n <= organizer.MAX_GROUP for n in groups):
            raise BadRequest(
                say(
                    "an epic event needs one or more groups of 1 to %(most)s players",
                    most=organizer.MAX_GROUP,
                )
            )
        modes = [difficulty] * len(groups) if isinstance(difficulty, str) else list(difficulty)
        if len(modes) != len(groups):
            raise BadRequest(say("%(n)s difficulties were given for %(n2)s groups", n=len(modes), n2=len(groups)))
        epic_id = uuid4()
        total = sum(groups)
        numbered = {"epic": str(epic_id), "epic_players": total, "epic_groups": len(groups)}
        rng_seed = secrets.randbelow(2**63) if seed is None else seed
        made = []
        for i, (players, mode) in enumerate(zip(groups, modes, strict=True)):
            setup = setups[i] if setups else GroupSetup()
            try:
                options = _group_options(players, mode, setup)
            except SetupError as error:
                raise SetupError(say("group %(n)s: %(error)s", n=i + 1, error=error)) from None
            options = msgspec.structs.replace(options, epic_group=i + 1, **numbered)
            created = LCG.created(options, (rng_seed + i) % 2**63)
            trial = Game.start(uuid4(), LCG, LCG.created(options, 0))  # its seats, to check the seating
            try:
                plan_room(LCG, trial.state, trial.id, setup.seating, epic_id)
            except BadRequest as error:
                raise BadRequest(say("group %(n)s: %(error)s", n=i + 1, error=error)) from None
            made.append((players, mode, created, setup))
        accesses = []
        entries = []
        for players, mode, created, setup in made:
            access = self.games.start("lcg", created, unlisted=unlisted, seating=setup.seating, epic=epic_id)
            accesses.append(access)
            entries.append(organizer.Group(access.game_id, players, mode))
        epic = organizer.Epic.open(epic_id, entries)
        token = new_token(epic_id)
        key = OrganizerKey(originator_id=organizer_key_id(epic_id), epic_id=epic_id, hash=token_hash(token))
        self.organizer.save(Saved(epic, list(epic.collect_events())), _Record(key))
        return EpicAccess(epic_id, token, accesses, dict(epic.state.totals))

    # -- following the groups --------------------------------------------------------------

    def load(self, epic_id: UUID) -> organizer.Epic:
        return self.organizer.epic(epic_id)

    def follow(self, epic_id: UUID, groups: Sequence[UUID] = ()) -> organizer.Epic:
        """Process the new events of ``groups`` (default: every group), then tell each
        group what it must learn; what a group is told may itself contribute or send an
        effect on (a relayed effect resolving there), so the groups told are followed again."""
        sheet = self.load(epic_id).state
        todo = [g for g in groups if g not in sheet.moved] if groups else [g.game_id for g in sheet.groups]
        for _ in range(ROUNDS):
            for group in todo:
                self.organizer.pull_and_process(leader_of(group))
            epic = self.load(epic_id)
            todo = self._tell(epic)
            if not todo:
                break
        return epic

    def _tell(self, epic: organizer.Epic) -> list[UUID]:
        """Tell each group the effects relayed to it and what it must learn; the groups told."""
        told = []
        for group in epic.state.groups:

            def facts(game: Game, gid: UUID = group.game_id) -> list[Any]:
                state = cast(LcgState, game.state)
                return [*epic.arrivals(gid, state), *epic.reports(gid, state)]

            try:
                if self.games.tell(group.game_id, facts):
                    told.append(group.game_id)
            except ConcurrentUpdate:
                continue  # the group moved on meanwhile; the next follow tells it
        return told

    def _after_command(self, game: Game) -> None:
        options = getattr(game.state, "options", None)
        epic = getattr(options, "epic", "")
        if epic:
            # Other processes may keep counting meanwhile: the next follow counts what is left.
            with contextlib.suppress(ConcurrentUpdate):
                self.follow(UUID(epic), [game.id])

    # -- a take-back in a group ------------------------------------------------------------

    def _epic_of(self, game_id: UUID) -> UUID | None:
        options = getattr(self.games.state(game_id), "options", None)
        epic = getattr(options, "epic", "")
        return UUID(epic) if epic else None

    def before_branch(self, game_id: UUID, at: int) -> None:
        """A group may go on from version ``at`` in another game only if the organizer has
        counted nothing it did after that (the other groups were told what was counted)."""
        epic = self._epic_of(game_id)
        if epic is None:
            return
        self.follow(epic, [game_id])  # what it did up to now is counted first, so nothing is missed
        why = self.load(epic).state.unmovable(game_id, at)
        if why:
            raise RuleError(why)

    def after_branch(self, game_id: UUID, branch: UUID, at: int) -> None:
        """The organizer follows the group's new game from now on (GroupMoved), which is
        told what it must learn."""
        epic_id = self._epic_of(game_id)
        if epic_id is None:
            return
        for _ in range(ROUNDS * 2):
            epic = self.load(epic_id)
            try:
                epic.move(game_id, branch, at)
            except ValueError as error:
                raise RuleError(str(error)) from None
            try:
                self.organizer.save(Saved(epic, list(epic.collect_events())))
            except IntegrityError:
                continue  # another process counted something first: look again
            break
        with contextlib.suppress(ConcurrentUpdate):
            self.follow(epic_id, [branch])

    # -- the organizer's view ------------------------------------------------------------------

    def check(self, epic_id: UUID, token: str) -> None:
        check_organizer(self.app, epic_id, token)

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
