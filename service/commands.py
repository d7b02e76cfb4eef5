"""The game service without its transport: commands (idempotent) and per-viewer queries.

The gRPC servicer (``service/rpc/server.py``) only translates messages and errors; every
decision about who may do and see what is made here and in ``projections/``.

Commands
    ``create`` and ``fork`` save the new game's events and its token hashes in one
    transaction. ``submit`` answers the pending decision as a seat: the events it produces
    and a :class:`~service.records.CommandApplied` record keyed by (game, seat, command id)
    are saved in one transaction with optimistic concurrency on the game's version, so a
    command id is applied at most once even across processes and crashes, and a command
    that lost a race appends nothing (``ConcurrentUpdate``). A command id seen before gets
    the first result again, whatever the game's version is now. A game this process holds
    in memory is trusted without a read, the save itself checking that the stored log is
    still the one held (see :meth:`GameService.submit_as`); the seat's events are projected
    as the rules run, on the game's own state.

Queries
    Views, histories and explanations are projected for the viewer the token stands for
    (``projections/feed.py``). A seat may look at any version up to the current one, as
    that seat saw it then; the referee sees everything; once the game is over, everyone
    does. Forking a game in progress is for the referee only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any
from uuid import UUID, uuid4, uuid5

import msgspec
from eventsourcing.persistence import IntegrityError

from domain.game import Game
from domain.kernel.decisions import Decision, RuleError, UnknownDecision
from domain.kernel.events import Event, GameEnded, Outcome
from domain.kernel.ruleset import Ruleset
from domain.kernel.state import State
from domain.verify import Status, Verdict, verify
from projections.explain import Because, explain
from projections.feed import REFEREE, SPECTATOR, Feed, Projected, projection
from projections.i18n import gettext, say
from projections.story import Namer
from service.app import (
    BadVersion,
    ConcurrentUpdate,
    DamagedGame,
    DamagedRecord,
    GameInfo,
    StaleVersion,
    Verified,
    Westmarch,
)
from service.archive import export
from service.errors import AlreadyExists, BadRequest, OutOfRange, PermissionDenied
from service.games import GameRequest, created_event
from service.lineage import Branching, fork_recorded
from service.records import CommandApplied, Record, SeatsAssigned, TokenRotated, command_id, seats_id
from service.room import Rooms, SeatPlan, carried, plan_room
from service.rpc.auth import Tokens, derived_token, game_of_token, issue, new_token, token_hash
from service.store import stored_span

SEATS_RECORD = "seats record (the tokens' hashes)"
MAX_COMMAND_ID = 128
MIN_REQUEST_ID, MAX_REQUEST_ID = 16, 128
_CREATE_REQUESTS = UUID("6b1f3c52-5d0e-4c8e-9a59-0f5d2c1e7a41")
"""Namespace of the game ids made from create request ids."""
MAX_CHOICES = 1000
MAX_CHOICE = 64
MAX_HISTORY = 5000
"""Events returned by one history call at most; page on with ``after``."""
_STRIPES = 256
HOT_GAMES = 2048
"""Games in play kept in memory between commands (least recently used ones are dropped)."""
HOT_FINISHED = 64
"""Finished games kept in memory (for views of their end); dropped before any game in play."""


class StaleDecision(RuleError):
    """The answer names a decision that was already answered: reload and retry."""

    def __init__(self, given: int, pending: int) -> None:
        super().__init__(f"decision {given} was already answered; the pending decision is {pending}: reload and retry")


@dataclass(frozen=True)
class Access:
    """A new game and its tokens (shown once; the server keeps only their hashes)."""

    game_id: UUID
    game: str
    seats: dict[str, str]
    spectator: str
    referee: str
    version: int


@dataclass(frozen=True)
class ViewResult:
    game_id: UUID
    game: str
    viewer: str
    version: int
    latest: int
    table: bytes
    decision: Decision | None
    waiting_for: str
    over: bool
    outcome: Outcome | None


@dataclass(frozen=True)
class SubmitResult:
    version: int
    events: list[Projected]
    replayed: bool
    decision: Decision | None
    waiting_for: str
    over: bool
    seat: str
    view: ViewResult | None = None


@dataclass
class Cursor:
    """A viewer's place in a game's event stream (``watch``)."""

    game_id: UUID
    viewer: str
    rules: Ruleset[Any]
    feed: Feed
    last: int
    started: bool = False
    tables: bool = True


def _fingerprint(request: GameRequest, seed: int | None) -> str:
    """The SHA-256 of a create request (and its seed, if the client gave one)."""
    data = msgspec.json.encode({"request": msgspec.to_builtins(request), "seed": seed}, order="sorted")
    return hashlib.sha256(data).hexdigest()


def parse_game_id(text: str, token: str = "") -> UUID:
    """The game a request names: its ``game_id``, or if that is empty, its token's game."""
    if not text:
        found = game_of_token(token)
        if found is None:
            raise BadRequest(gettext("game_id is required (or a token that names its game)"))
        return found
    try:
        return UUID(text)
    except (ValueError, TypeError):
        raise BadRequest(say("game id %(text)s is not a UUID", text=repr(text[:64]))) from None


def _visible_decision(state: State, viewer: str) -> Decision | None:
    pending = state.pending
    if pending is not None and (viewer == REFEREE or pending.seat == viewer):
        return pending
    return None


class GameService:
    def __init__(self, app: Westmarch, on_commit: Callable[[UUID, int], None] | None = None) -> None:
        self.app = app
        self.tokens = Tokens(app)
        self.rooms = Rooms(app, self.people)
        self.on_commit = on_commit
        self.followers: list[Callable[[Game], None]] = []
        """Called with each game a command changed, once saved (the epic event organizer)."""
        self.branching: list[Branching] = []
        """Asked before, and told after, a take-back moves a game's play (the epic organizer)."""
        self._locks = [threading.Lock() for _ in range(_STRIPES)]
        self._hot: OrderedDict[UUID, Game] = OrderedDict()
        self._done: OrderedDict[UUID, Game] = OrderedDict()
        self._hot_lock = threading.Lock()
        self._checked: dict[UUID, Verified] = {}
        """Games whose stored log this process has found sound, and up to where."""
        self._damaged: dict[UUID, str] = {}
        """Games this process found damaged, and why (marked when games are listed)."""
        self._bad_records: dict[UUID, str] = {}
        """Games with a record beside them (a command applied) found undecodable, and which."""
        self.thorough_views = True
        """A view of a game held in memory checks the stored log as a command does (every row
        hashed in the store, new rows decoded). Off only to measure what that costs
        (``python -m tools.bench_integrity``): a view then compares the rows' count and last version."""

    def _lock(self, game_id: UUID) -> threading.Lock:
        return self._locks[game_id.int % _STRIPES]

    def _committed(self, game_id: UUID, version: int) -> None:
        if self.on_commit is not None:
            self.on_commit(game_id, version)

    # -- commands --------------------------------------------------------------------

    def create(self, request: GameRequest, seed: int | None = None, request_id: str = "") -> Access:
        """Start a game. With a ``request_id``, a retry of the same request returns the
        same game and tokens instead of a second game (see the proto's ``request_id``)."""
        if seed is not None and not 0 <= seed < 2**63:
            raise BadRequest(say("seed %(seed)s is out of range (0 to 2^63 - 1)", seed=seed))
        fingerprint = ""
        game_id = uuid4()
        if request_id:
            if not MIN_REQUEST_ID <= len(request_id) <= MAX_REQUEST_ID or not request_id.isprintable():
                raise BadRequest(
                    say(
                        "request_id must be %(min_request_id)s to %(max_request_id)s printable characters",
                        min_request_id=MIN_REQUEST_ID,
                        max_request_id=MAX_REQUEST_ID,
                    )
                )
            fingerprint = _fingerprint(request, seed)
            game_id = uuid5(_CREATE_REQUESTS, request_id)
            existing = self._created_before(game_id, request_id, fingerprint)
            if existing is not None:
                return existing
        created = created_event(request, secrets.randbelow(2**63) if seed is None else seed)
        return self.start(request.game, created, game_id, request_id, fingerprint, request.unlisted, request.seating)

    def start(
        self,
        kind: str,
        created: Event,
        game_id: UUID | None = None,
        request_id: str = "",
        fingerprint: str = "",
        unlisted: bool = False,
        seating: Sequence[SeatPlan] = (),
        epic: UUID | None = None,
    ) -> Access:
        """Start a game from its creation event (a group of an epic event is made so) and
        issue its tokens; with ``seating`` (or in an epic event), its room is saved with it
        (``service/room.py``), and its bot seats get no token."""
        from domain.rulesets import ruleset

        rules = ruleset(kind)
        game_id = game_id or uuid4()
        game = Game.start(game_id, rules, created)
        room = plan_room(rules, game.state, game_id, seating, epic) if seating or epic else None
        people = [s for s in rules.played_by_people(game.state) if room is None or not room.seats[s].bot]
        tokens, record = issue(game_id, people, request_id, fingerprint, unlisted)
        try:
            self.app.commit(game, 0, record, *([Record(room)] if room is not None else []))
        except ConcurrentUpdate:
            existing = self._created_before(game_id, request_id, fingerprint) if request_id else None
            if existing is None:
                raise
            return existing  # the same request, retried while the first was being saved
        self.tokens.remember(game_id, record)
        if room is not None:
            self.rooms.opened(room)
        self._committed(game_id, game.version)
        return self._access(game_id, rules.name, tokens, game.version)

    def _created_before(self, game_id: UUID, request_id: str, fingerprint: str) -> Access | None:
        """The access of the game an earlier call with this request id created, or None."""
        found = self.app.record(seats_id(game_id), game_id, SEATS_RECORD)
        if not isinstance(found, SeatsAssigned):
            return None
        if not hmac.compare_digest(found.request, fingerprint):
            raise AlreadyExists(gettext("request_id was already used to create a game from a different request"))
        tokens = {viewer: derived_token(game_id, viewer, request_id) for viewer in found.hashes}
        now = self.tokens.hashes(game_id)
        tokens = {v: t if token_hash(t) == now.get(v) else "" for v, t in tokens.items()}  # a rotated one: not given
        rules = self.app.rules_of(game_id)
        return self._access(game_id, rules.name, tokens, self.sound(game_id))

    @staticmethod
    def _access(game_id: UUID, game: str, tokens: dict[str, str], version: int) -> Access:
        seats = {k: v for k, v in tokens.items() if k not in (SPECTATOR, REFEREE)}
        return Access(game_id, game, seats, tokens[SPECTATOR], tokens[REFEREE], version)

    def submit(
        self,
        game_id: UUID,
        token: str,
        expected_version: int,
        decision_id: int,
        choice: Sequence[str],
        command: str,
        include_view: bool = False,
    ) -> SubmitResult:
        seat = self.viewer(game_id, token)
        return self.submit_as(game_id, seat, expected_version, decision_id, choice, command, include_view)

    def submit_as(
        self,
        game_id: UUID,
        seat: str,
        expected_version: int,
        decision_id: int,
        choice: Sequence[str],
        command: str,
        include_view: bool = False,
    ) -> SubmitResult:
        """:meth:`submit` for the viewer a token was already checked to stand for.

        The game's whole stored log is checked first (:meth:`sound`: every row hashed,
        unless provably untouched since it was, new rows decoded and chained), so a damaged
        log is refused (:class:`DamagedGame`) before anything is appended to it; a game this
        process holds in memory is used if it is the stored one. The save appends only if
        the store still holds exactly the game's versions 1 to the one answered
        (:class:`~service.store.Append`). If it does not, or if the answer does not fit
        (another process moved the game on), the store is looked at again: a game moved on
        is reloaded and the command answered on it, once.
        """
        if seat in (SPECTATOR, REFEREE):
            raise PermissionDenied(say("the %(seat)s token cannot answer decisions; use a seat's token", seat=seat))
        if not 0 < len(command) <= MAX_COMMAND_ID:
            raise BadRequest(
                say("command_id must be 1 to %(max_command_id)s characters", max_command_id=MAX_COMMAND_ID)
            )
        if expected_version < 0 or decision_id < 0:
            raise BadRequest(gettext("expected_version and decision_id cannot be negative"))
        if len(choice) > MAX_CHOICES or any(len(c) > MAX_CHOICE for c in choice):
            raise BadRequest(
                say(
                    "malformed choice: at most %(max_choices)s option ids of at most %(max_choice)s characters",
                    max_choices=MAX_CHOICES,
                    max_choice=MAX_CHOICE,
                )
            )
        chosen = tuple(choice)
        record_id = command_id(game_id, seat, command)
        with self._lock(game_id):
            game = self._hot_game(game_id, thorough=True)  # every stored row checked: never extend a damaged log
            retried = False
            while True:
                before = game.version
                try:
                    feed = self._answer(game, seat, expected_version, decision_id, chosen, command, record_id)
                except RuleError:
                    if game.version != before:
                        self._forget(game_id)  # answered in memory but not saved: reload next time
                    if not retried and self.sound(game_id) != before:
                        retried = True  # another process moved the game on meanwhile: answer on it, once
                        game = self.app.game(game_id)
                        continue
                    replayed = self._replayed(game_id, seat, record_id, command, include_view)
                    if replayed is not None:
                        return replayed
                    raise
                except BaseException:
                    self._forget(game_id)
                    raise
                break
            self._keep(game_id, game)
            result = self._result(game_id, game.rules, seat, game.state, feed.collected(), False, include_view)
        self._committed(game_id, game.version)
        for follower in self.followers:
            follower(game)
        return result

    def _answer(
        self,
        game: Game,
        seat: str,
        expected_version: int,
        decision_id: int,
        chosen: tuple[str, ...],
        command: str,
        record_id: UUID,
    ) -> Feed:
        """Answer and save; the seat's feed of the new events, projected as the rules ran."""
        before = game.version
        if expected_version and expected_version != before:
            raise StaleVersion(expected_version, before)
        feed = Feed(game.rules, seat, game.state)
        try:
            game.answer(seat, decision_id, chosen, feed)
        except UnknownDecision as error:
            if not expected_version and error.given < error.pending:
                raise StaleDecision(error.given, error.pending) from None
            raise
        record = CommandApplied(
            originator_id=record_id,
            game_id=game.id,
            seat=seat,
            command_id=command,
            decision=decision_id,
            choice=chosen,
            before=before,
            after=game.version,
        )
        known = self._checked.get(game.id)
        since = known.generation if known is not None and known.version == before else None
        self._saved(game, before, self.app.commit(game, before, Record(record), since=since))
        return feed

    def tell(self, game_id: UUID, facts: Callable[[Game], Sequence[Event]]) -> int:
        """Tell a game facts from outside its rules (``facts`` reads them off the game as
        loaded), saved like a command's events; returns how many events it appended.
        :class:`~service.app.ConcurrentUpdate` if a command was saved first (nothing saved)."""
        with self._lock(game_id):
            game = self._hot_game(game_id, thorough=True)
            before = game.version
            try:
                for fact in facts(game):
                    if game.state.over is not None:
                        break
                    game.tell(fact)
                if game.version != before:
                    self._saved(game, before, self.app.commit(game, before))
            except BaseException:
                self._forget(game_id)
                raise
            self._keep(game_id, game)
        if game.version != before:
            self._committed(game_id, game.version)
        return game.version - before

    def state(self, game_id: UUID) -> Any:
        """The latest state of a game (from memory when this process saved it last)."""
        with self._lock(game_id):
            return self._hot_game(game_id).state

    # -- games kept in memory between commands ----------------------------------------

    def _hot_game(self, game_id: UUID, thorough: bool = False) -> Game:
        """The game as this process last saved it, if the store holds exactly that.

        The check of the stored log (:meth:`sound`) replaces loading, fast-forwarding and
        copying the game; another process that moved the game on is seen here, and a
        race with it after this read is caught by the optimistic concurrency of the save.
        """
        verified = self._sound(game_id, thorough)
        game = self._hot_get(game_id)
        if game is None or game.version != verified.version or game.state.head != verified.head:
            return self.app.game(game_id)
        return game

    def sound(self, game_id: UUID, thorough: bool = False) -> int:
        """The game's latest version, once its stored log is known sound: versions 1 to N,
        each event decodable, numbered in its place and chained by its hash on the one
        before, the last asking a decision or ending the game (a log cut short is damaged,
        not finished). Every query and every command on a game asks this first, so a
        damaged game is refused (:class:`DamagedGame`) whatever is asked of it.

        The first look decodes and chains the whole log. A ``thorough`` look, which every
        command takes before it appends, a watched game before its new events are sent,
        every view and every call that sends a game's events (history, explain, export,
        fork, take-back), hashes every row in the store against the rows found sound before
        (an edit, a deletion or a renumbering anywhere changes the hash), decodes only rows
        not seen before and compares the log's length with the one its last commit recorded
        (:meth:`~service.app.Westmarch.verified`), so a damaged log is never served or
        extended. On SQLite the rows found sound are not hashed again while the store's
        :class:`~service.store.WriteWatch` proves that only this process's commits wrote it
        since they were. Any other look compares three integers (how many rows, the last version,
        the recorded length) and, if those moved, looks thoroughly.
        """
        return self._sound(game_id, thorough).version

    def _sound(self, game_id: UUID, thorough: bool = False) -> Verified:
        known = self._checked.get(game_id)
        try:
            if known is not None and not thorough:
                span = stored_span(self.app.recorder, game_id)
                if span.rows == span.latest == known.version and span.recorded in (None, known.version):
                    return known
            verified = self.app.verified(game_id, known)
        except DamagedGame as error:
            self._checked.pop(game_id, None)
            self._forget(game_id)
            what = f"damaged at version {error.version}: {error.reason}"
            if self._damaged.get(game_id) != what:
                self.app.note_damage(game_id, what)  # so every process's listing marks it
            self._damaged[game_id] = what
            raise
        self._damaged.pop(game_id, None)
        if verified is not known:
            self._mark_sound(game_id, verified)
        return verified

    def _saved(self, game: Game, before: int, states: list[bytes]) -> None:
        """The rows this process just appended to a game found sound (the rules made them),
        so the next look at the game hashes them in the store with the rest, not decoding them."""
        known = self._checked.get(game.id)
        if known is not None and known.version == before:
            self._mark_sound(game.id, known.extended(states, game.version, game.state.head))

    def _mark_sound(self, game_id: UUID, verified: Verified) -> None:
        checked = self._checked
        if len(checked) >= 16_384:
            checked.clear()
        checked[game_id] = verified

    def _keep(self, game_id: UUID, game: Game) -> None:
        """Keep a game in memory: games in play up to :data:`HOT_GAMES` (least recently used
        out first), finished games, which rarely change again, up to :data:`HOT_FINISHED`."""
        with self._hot_lock:
            hot, done = self._hot, self._done
            if game.state.over is None:
                done.pop(game_id, None)
            else:
                hot.pop(game_id, None)
                hot, done = done, hot
            hot[game_id] = game
            hot.move_to_end(game_id)
            limit = HOT_GAMES if hot is self._hot else HOT_FINISHED
            while len(hot) > limit:
                hot.popitem(last=False)

    def _hot_get(self, game_id: UUID) -> Game | None:
        with self._hot_lock:
            return self._hot.get(game_id) or self._done.get(game_id)

    def _forget(self, game_id: UUID) -> None:
        with self._hot_lock:
            self._hot.pop(game_id, None)
            self._done.pop(game_id, None)

    def _result(
        self,
        game_id: UUID,
        rules: Ruleset[Any],
        seat: str,
        state: State,
        projected: list[Projected],
        replayed: bool,
        include_view: bool,
    ) -> SubmitResult:
        view = self._view_of(game_id, rules, seat, state, state.version, False) if include_view else None
        return SubmitResult(
            state.version,
            projected,
            replayed,
            _visible_decision(state, seat),
            state.pending.seat if state.pending else "",
            state.over is not None,
            seat,
            view,
        )

    def _replayed(
        self, game_id: UUID, seat: str, record_id: UUID, command: str, include_view: bool = False
    ) -> SubmitResult | None:
        """The first result of a command applied before, or None if it was not."""
        try:
            found = self.app.record(record_id, game_id, f"record of command {command!r} of {seat}")
        except DamagedRecord as error:
            self._note_bad_record(game_id, error)
            raise
        if not isinstance(found, CommandApplied):
            return None
        rules = self.app.rules_of(game_id)
        events = self.app.history(game_id, gt=found.before, lte=found.after)
        feed = Feed(rules, seat, self.app.state_at(game_id, found.before))
        projected = feed.project_many(events)
        return self._result(game_id, rules, seat, feed.state, projected, True, include_view)

    def fork(self, game_id: UUID, token: str, at: int) -> Access:
        viewer = self.viewer(game_id, token)
        latest = self.sound(game_id, thorough=True)
        if viewer != REFEREE and not self._over(game_id, latest):
            raise PermissionDenied(gettext("only the referee may fork a game in progress (anyone may once it is over)"))
        if not 1 <= at <= latest:
            raise OutOfRange(
                say("cannot fork at event %(at)s: the game has events 1 to %(latest)s", at=at, latest=latest)
            )
        seats = [v for v in self.tokens.hashes(game_id) if v not in (SPECTATOR, REFEREE)]
        new_id = uuid4()
        tokens, record = issue(new_id, seats, unlisted=not self.tokens.listed(game_id))
        room = carried(self.rooms.room(game_id), new_id, keep_names=False)  # its bots play on
        try:
            game = fork_recorded(self.app, game_id, at, new_id=new_id, also=[record, *([Record(room)] if room else [])])
        except BadVersion as error:
            raise OutOfRange(str(error)) from None
        self.tokens.remember(new_id, record)
        self._committed(new_id, game.version)
        return self._access(new_id, game.rules.name, tokens, game.version)

    def issue_tokens(self, game_id: UUID) -> Access:
        """Tokens for a game started without the service (``westmarch new``), once.

        Whoever can run this can read the store anyway; tokens, once issued, are never
        issued again (the server keeps only their hashes, so they cannot be shown twice).
        """
        rules = self.app.rules_of(game_id)
        if self.app.record(seats_id(game_id), game_id, SEATS_RECORD) is not None:
            raise PermissionDenied(
                say("game %(game_id)s already has tokens; they are shown only when issued", game_id=game_id)
            )
        state = self.app.state_at(game_id)
        tokens, record = issue(game_id, rules.played_by_people(state))
        try:
            with self.app.writing:
                self.app.save(record)
        except IntegrityError:
            raise PermissionDenied(
                say("game %(game_id)s already has tokens; they are shown only when issued", game_id=game_id)
            ) from None
        self.tokens.remember(game_id, record)
        return self._access(game_id, rules.name, tokens, state.version)

    def rotate_token(self, game_id: UUID, viewer: str, token: str | None = None) -> str:
        """Replace ``viewer``'s token (a seat, ``spectator`` or ``referee``) with a new one,
        returned once; the old one is refused from then on by every server process. Over
        gRPC ``token`` must be the referee's; ``None`` is the operator at the command line
        (who can read the store anyway)."""
        if token is not None and self.viewer(game_id, token) != REFEREE:
            raise PermissionDenied(gettext("only the referee may rotate a token"))
        version, hashes = self.tokens.current(game_id)
        if viewer not in hashes:
            known = ", ".join(hashes)
            raise BadRequest(
                say(
                    "game %(game_id)s has no viewer %(viewer)s to rotate; its viewers: %(known)s",
                    game_id=game_id,
                    viewer=repr(viewer),
                    known=known,
                )
            )
        fresh = new_token(game_id)
        rotated = TokenRotated(
            originator_id=seats_id(game_id),
            originator_version=version + 1,
            game_id=game_id,
            viewer=viewer,
            hash=token_hash(fresh),
        )
        try:
            with self.app.writing:
                self.app.save(Record(rotated))
        except IntegrityError:
            raise AlreadyExists(
                say("another token of game %(game_id)s was rotated at the same moment; try again", game_id=game_id)
            ) from None
        self.tokens.forget(game_id)
        return fresh

    # -- queries ---------------------------------------------------------------------

    def people(self, game_id: UUID) -> list[str]:
        """The seats of a game that people play (each has a token; a bot seat has none)."""
        return [v for v in self.tokens.hashes(game_id) if v not in (SPECTATOR, REFEREE)]

    def viewer(self, game_id: UUID, token: str) -> str:
        """The viewer ``token`` stands for; :class:`DamagedRecord` naming the game if its
        seats record (the tokens' hashes) cannot be decoded."""
        try:
            return self.tokens.viewer(game_id, token)
        except DamagedRecord as error:
            named = error.of(game_id, SEATS_RECORD)
            self._note_bad_record(game_id, named)
            raise named from None

    def _note_bad_record(self, game_id: UUID, error: DamagedRecord) -> None:
        bad = self._bad_records
        if len(bad) >= 4096:
            bad.clear()
        what = f"its stored {error.what} cannot be decoded"
        if bad.get(game_id) != what:
            self.app.note_damage(game_id, what, error.record_id)  # so every process's listing marks it
        bad[game_id] = what

    def _over(self, game_id: UUID, latest: int) -> bool:
        last = self.app.history(game_id, gt=latest - 1, lte=latest)
        return bool(last) and isinstance(last[-1], GameEnded)

    def view(self, game_id: UUID, token: str, version: int = 0) -> ViewResult:
        return self.view_as(game_id, self.viewer(game_id, token), version)

    def view_as(self, game_id: UUID, viewer: str, version: int = 0) -> ViewResult:
        """:meth:`view` for the viewer a token was already checked to stand for."""
        if version < 0:
            raise BadRequest(gettext("version cannot be negative (0 means the current version)"))
        with self._lock(game_id):  # the kept game is changed in place by submissions
            game = self._hot_game(game_id, thorough=self.thorough_views)
            self._keep(game_id, game)
            latest, over = game.version, game.state.over is not None
            if not version:
                return self._view_of(game_id, game.rules, viewer, game.state, latest, over)
        if version > latest:
            raise OutOfRange(
                say(
                    "version %(version)s is out of range: the game has versions 1 to %(latest)s",
                    version=version,
                    latest=latest,
                )
            )
        return self._view_of(game_id, game.rules, viewer, self.app.state_at(game_id, version), latest, over)

    def _view_of(
        self,
        game_id: UUID,
        rules: Ruleset[Any],
        viewer: str,
        state: State,
        latest: int,
        reveal: bool,
        table: bool = True,
    ) -> ViewResult:
        seeing = REFEREE if reveal or state.over is not None else viewer
        pending = state.pending
        return ViewResult(
            game_id=game_id,
            game=rules.name,
            viewer=viewer,
            version=state.version,
            latest=latest,
            table=msgspec.json.encode(projection(rules.name).view(state, seeing)) if table else b"",
            decision=_visible_decision(state, seeing),
            waiting_for=pending.seat if pending is not None else "",
            over=state.over is not None,
            outcome=state.over,
        )

    def history(self, game_id: UUID, token: str, after: int = 0, to: int = 0) -> tuple[list[Projected], int]:
        viewer = self.viewer(game_id, token)
        latest = self.sound(game_id, thorough=True)
        if after < 0 or to < 0:
            raise BadRequest(gettext("after_version and to_version cannot be negative"))
        if 0 < to <= latest and after > to:
            raise OutOfRange(say("to_version %(to)s is before after_version %(after)s", to=to, after=after))
        to = to or latest
        if to > latest or after > to:
            raise OutOfRange(
                say(
                    "events %(n)s to %(to)s are out of range: the game has events 1 to %(latest)s",
                    n=after + 1,
                    to=to,
                    latest=latest,
                )
            )
        to = min(to, after + MAX_HISTORY)
        rules = self.app.rules_of(game_id)
        state = self.app.state_at(game_id, after) if after else rules.new_state()
        feed = Feed(rules, viewer, state, reveal_all=self._over(game_id, latest))
        return feed.project_many(self.app.history(game_id, gt=after, lte=to)), latest

    def explain(self, game_id: UUID, token: str, seq: int) -> Because:
        viewer = self.viewer(game_id, token)
        latest = self.sound(game_id, thorough=True)
        if not 1 <= seq <= latest:
            raise OutOfRange(
                say("event %(seq)s is out of range: the game has events 1 to %(latest)s", seq=seq, latest=latest)
            )
        rules = self.app.rules_of(game_id)
        events = self.app.history(game_id, lte=seq)
        if viewer == REFEREE or self._over(game_id, latest):
            return explain(rules, events, seq)
        feed = Feed(rules, viewer, rules.new_state())
        projected = feed.project_many(events)
        return _explain_projected(rules, feed.state, projected, seq)

    def verify(self, game_id: UUID, token: str) -> Verdict:
        self.viewer(game_id, token)
        try:
            events = self.app.history(game_id)
        except DamagedGame as error:
            count = stored_span(self.app.recorder, game_id).rows
            return Verdict(Status.CHAIN_BROKEN, count, error.version, error.reason)
        return verify(self.app.rules_of(game_id), events)

    def export(self, game_id: UUID, token: str) -> Iterator[bytes]:
        """The game's record (``service/archive.py``), in chunks of whole lines.

        The record holds every hidden card and the seed, and a redacted record could not be
        verified: the referee may export a game at any time, everyone else once it is over.
        """
        viewer = self.viewer(game_id, token)
        latest = self.sound(game_id, thorough=True)  # DamagedGame (DATA_LOSS) for a damaged log
        if viewer != REFEREE and not self._over(game_id, latest):
            raise PermissionDenied(
                say(
                    "the %(viewer)s cannot export a game in progress: its record holds every hidden card and the seed "
                    "(a redacted record could not be verified); the referee can, and everyone can once it is over",
                    viewer=viewer,
                )
            )
        return export(self.app, game_id)

    def games(self, offset: int = 0, limit: int = 100) -> list[GameInfo]:
        if offset < 0 or limit < 0:
            raise BadRequest(gettext("offset and limit cannot be negative"))
        listed = ((g, t, s) for g, t, s in self.app.created() if self._listed(g))
        window = islice(listed, offset, offset + (limit or 100))  # only these are summed up
        found = [self.app.summary(game_id, topic, state) for game_id, topic, state in window]
        damaged = {**self._bad_records, **self._damaged}
        return [replace(i, damaged=damaged[i.id]) if i.id in damaged and not i.damaged else i for i in found]

    def _listed(self, game_id: UUID) -> bool:
        """Whether the public listing shows the game; one whose seats record cannot be read
        is shown, marked damaged (its tokens cannot say it was unlisted)."""
        try:
            return self.tokens.listed(game_id)
        except DamagedRecord as error:
            self._note_bad_record(game_id, error.of(game_id, SEATS_RECORD))
            return True

    # -- watching --------------------------------------------------------------------

    def watch(self, game_id: UUID, token: str, from_version: int, tables: bool = True) -> Cursor:
        viewer = self.viewer(game_id, token)
        latest = self.sound(game_id, thorough=True)
        if not 0 <= from_version <= latest:
            raise OutOfRange(
                say(
                    "version %(from_version)s is out of range: the game has versions 0 to %(latest)s",
                    from_version=from_version,
                    latest=latest,
                )
            )
        rules = self.app.rules_of(game_id)
        state = self.app.state_at(game_id, from_version) if from_version else rules.new_state()
        feed = Feed(rules, viewer, state, reveal_all=self._over(game_id, latest))
        return Cursor(game_id, viewer, rules, feed, from_version, tables=tables)

    def fetch(self, game_id: UUID, after: int, upto: int | None = None) -> list[Event]:
        """The game's events after version ``after`` (up to ``upto``), once its log is
        known sound: one store read, shared by every watcher of the game."""
        self.sound(game_id, thorough=True)
        return self.app.history(game_id, gt=after, lte=upto)

    def advance(self, cursor: Cursor, events: Sequence[Event]) -> tuple[list[Projected], ViewResult | None]:
        """Project ``events`` (the ones right after the cursor) for the cursor's viewer;
        a fresh view if there were any (or if this is the first look)."""
        projected = cursor.feed.project_many(events)
        if events:
            cursor.last = events[-1].seq
        if not events and cursor.started:
            return [], None
        cursor.started = True
        state = cursor.feed.state
        reveal = cursor.feed.reveal_all or state.over is not None
        view = self._view_of(cursor.game_id, cursor.rules, cursor.viewer, state, cursor.last, reveal, cursor.tables)
        return projected, view


def _explain_projected(
    rules: Ruleset[Any], state: State, events: list[Projected], seq: int, depth: int = 12
) -> Because:
    """The cause tree of event ``seq`` from events projected for one viewer."""
    seen: set[int] = set()

    def node(n: int, left: int) -> Because:
        event = events[n - 1]
        cause = event.cause
        card = cause.get("card")
        here = Because(n, event.text, cause["rule"], Namer(rules, state).name(card) if card else None)
        seen.add(n)
        if left > 0:
            for link in (cause.get("answer"), cause.get("by")):
                if link is not None and link not in seen and 1 <= link < n:
                    here.led_by.append(node(link, left - 1))
        return here

    return node(seq, depth)
