"""The gRPC server: ``westmarch.v1.GameService``, health checking and reflection.

The servicer is thin: it parses requests, asks :class:`~service.commands.GameService`
(run on a small thread pool, since the event store is blocking), and maps errors to
status codes with a message saying what was wrong. Requests are parsed here, not by
gRPC, so that bytes that are not a valid message get INVALID_ARGUMENT (gRPC itself would
answer INTERNAL).

Watchers wait on an in-process hub: a command committed by this process wakes the
game's watchers at once; commands committed by other processes on the same database are
found by polling the store's notification log (one query every ~150 ms for all games).

Each call is logged as one JSON line on stderr: rpc, game, seat, version, outcome, ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import re
import signal
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Container, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast
from uuid import UUID

import grpc
import msgspec
from google.protobuf.message import DecodeError, Message
from grpc import aio
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from domain.kernel.decisions import IllegalChoice, NoDecisionPending, NotYourDecision, RuleError, UnknownDecision
from domain.kernel.events import Event
from domain.lcg.lineups import SetupError
from domain.rulesets import names
from domain.verify import Status
from projections.i18n import LANGUAGES, choose, gettext, language, say, speaking
from projections.prompts import error_text
from projections.verdicts import told
from service.app import BadVersion, ConcurrentUpdate, DamagedGame, DamagedRecord, StaleVersion, UnknownGame, Westmarch
from service.archive import DamagedStore
from service.autoplay import Autoplay
from service.catalog import catalog
from service.commands import Cursor, GameService, StaleDecision, parse_game_id
from service.errors import AlreadyExists, BadRequest, OutOfRange, PermissionDenied, Unauthenticated
from service.faults import FULL, READ_ONLY, UNAVAILABLE, StorageFault, drop_dead_connections, fault_of, writable
from service.games import GameRequest, PlayerSetup, warm
from service.lobby import Lobby
from service.records import ROOM_TOPICS
from service.room import SWEEP_SECONDS, SeatPlan
from service.rpc import convert
from service.rpc.analysis import Analyses
from service.rpc.gen.westmarch.v1 import epic_pb2, room_pb2
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.limits import Gate, LimitExceeded, Limits
from service.rpc.live import LiveGames
from service.store import CREATED_TOPIC, EVENT_TOPIC
from service.takeback import take_back
from service.web.http import WebOptions, WebServer, tls_context

SERVICE_NAME = "westmarch.v1.GameService"
POLL_SECONDS = 0.15
WORKERS = 12
"""Threads for store and rules work (the event loop only moves messages). Most of a
command's time in a worker is spent waiting for its transaction, so more workers than
cores let more commands share one (group commit): on PostgreSQL with two processes and 50
clients, 12 workers served 1.2x the commands of 4 (and as many as 16), SQLite about 1.05x;
12, with the poller and the write probe, stays within the PostgreSQL pool's 15 connections."""
OPEN_CALLS = frozenset(
    {"CreateGame", "CreateEpic", "ListGames", "GetCatalog", "ListOpenGames", "JoinGame", "CheckDeck"}
)
"""Calls that need no token: limited per connection (see ``service/rpc/limits.py``)."""
PROBE_SECONDS = 0.5
"""How often a read-only store is probed for writes again."""
WATCH_FALLBACK_SECONDS = 3.0

log = logging.getLogger("westmarch.rpc")
M = TypeVar("M", bound=Message)


# -- errors ------------------------------------------------------------------------------


MAX_QUOTED = 48
"""Characters of a value quoted in an error message, at most (the rest is cut)."""
MAX_MESSAGE = 400
"""Characters of a status message, at most: far below gRPC's metadata limit."""
_QUOTED = re.compile(f"(?<!\\w)('[^']{{{MAX_QUOTED + 1},}}'|\"[^\"]{{{MAX_QUOTED + 1},}}\")(?!\\w)")


def bounded(message: str) -> str:
    """``message`` with every quoted value cut to a short prefix, and capped as a whole:
    an error never echoes unbounded input back to the client."""
    message = _QUOTED.sub(lambda m: f"{m.group(0)[: MAX_QUOTED + 1]}…{m.group(0)[0]}", message)
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def status_of(error: BaseException) -> tuple[grpc.StatusCode, str]:
    """The status code and message for an error raised while serving a call."""
    code, message = _status_of(error)
    return code, bounded(error_text(message))


def _status_of(error: BaseException) -> tuple[grpc.StatusCode, str]:
    match error:
        case DamagedGame() | DamagedRecord():
            return grpc.StatusCode.DATA_LOSS, str(error)
        case LimitExceeded():
            return grpc.StatusCode.RESOURCE_EXHAUSTED, str(error)
        case BadRequest() | SetupError() | IllegalChoice() | UnknownDecision():
            return grpc.StatusCode.INVALID_ARGUMENT, str(error)
        case StaleVersion() | ConcurrentUpdate() | StaleDecision():
            return grpc.StatusCode.ABORTED, str(error)
        case NotYourDecision() | NoDecisionPending():
            return grpc.StatusCode.FAILED_PRECONDITION, str(error)
        case AlreadyExists():
            return grpc.StatusCode.ALREADY_EXISTS, str(error)
        case Unauthenticated():
            return grpc.StatusCode.UNAUTHENTICATED, str(error)
        case PermissionDenied():
            return grpc.StatusCode.PERMISSION_DENIED, str(error)
        case UnknownGame():
            return grpc.StatusCode.NOT_FOUND, str(error)
        case OutOfRange() | BadVersion():
            return grpc.StatusCode.OUT_OF_RANGE, str(error)
        case RuleError():
            return grpc.StatusCode.FAILED_PRECONDITION, str(error)
        case DamagedStore():
            return grpc.StatusCode.DATA_LOSS, str(error)
    fault = fault_of(error)
    if fault is not None:
        return FAULT_STATUS[fault.kind], fault.message
    return grpc.StatusCode.INTERNAL, "internal error; it was logged on the server"


FAULT_STATUS = {
    UNAVAILABLE: grpc.StatusCode.UNAVAILABLE,
    FULL: grpc.StatusCode.RESOURCE_EXHAUSTED,
    READ_ONLY: grpc.StatusCode.FAILED_PRECONDITION,
}


VERIFY_STATUS: dict[Status, pb.VerifyStatus.ValueType] = {
    Status.OK: pb.VERIFY_STATUS_OK,
    Status.CHAIN_BROKEN: pb.VERIFY_STATUS_CHAIN_BROKEN,
    Status.REEXECUTION_DIFFERS: pb.VERIFY_STATUS_REEXECUTION_DIFFERS,
    Status.UNKNOWN_RULES: pb.VERIFY_STATUS_UNKNOWN_RULES,
}


@dataclass(frozen=True)
class Malformed:
    """A request whose bytes are not a valid message of its type."""

    type: str
    reason: str


def _parser(kind: type[M]) -> Callable[[bytes], M | Malformed]:
    def parse(data: bytes) -> M | Malformed:
        try:
            return kind.FromString(data)
        except (DecodeError, ValueError, TypeError) as error:
            return Malformed(kind.__name__, str(error) or "cannot be decoded")

    return parse


# -- waking watchers ---------------------------------------------------------------------


class Hub:
    """Wakes the watchers of a game when it changes. Lives on the server's event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.events: dict[UUID, asyncio.Event] = {}
        self.watchers = 0
        self.closing = asyncio.Event()
        self.on_wake: Callable[[UUID, int | None], None] | None = None
        """Told of every change first (the live games mark their buffer stale)."""
        self.followed: Container[UUID] = ()
        """The games whose changes :attr:`on_wake` cares for (those the live games buffer)."""

    def event(self, game_id: UUID) -> asyncio.Event:
        found = self.events.get(game_id)
        if found is None:
            found = self.events[game_id] = asyncio.Event()
        return found

    def wake(self, game_id: UUID, version: int | None = None) -> None:
        """Wake the game's watchers: it changed (up to ``version``, if known)."""
        if self.on_wake is not None:
            self.on_wake(game_id, version)
        found = self.events.pop(game_id, None)
        if found is not None:
            found.set()

    def wake_from_thread(self, game_id: UUID, version: int) -> None:
        """:meth:`wake`, on the loop, from a thread that saved a change of the game; not
        handed to the loop while no one waits on the game nor follows it (the wake would
        do nothing there). Anyone who starts to after this look reads the store after the
        change: a waiter reads after it takes its :meth:`event`, and the live games' buffer
        of a game starts stale. Both are looked at here after the change was saved."""
        if game_id not in self.events and game_id not in self.followed:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
            self.loop.call_soon_threadsafe(self.wake, game_id, version)

    def close(self) -> None:
        self.closing.set()
        for found in self.events.values():
            found.set()
        self.events.clear()


# -- the worker threads ------------------------------------------------------------------


class Settling:
    """Runs calls on the worker threads and hands their outcomes back to the event loop,
    waking it once for all the outcomes that came in since it last looked. (asyncio's
    ``run_in_executor`` wakes it once per outcome, each a write to its self-pipe: a system
    call that lets another thread take the interpreter, and a callback more on the loop; and
    it chains a future of the pool to one of the loop's through three callbacks more.)"""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._lock = threading.Lock()
        self._outcomes: list[tuple[asyncio.Future[Any], bool, Any]] = []
        self._woken = False

    def run(self, executor: ThreadPoolExecutor, fn: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """``fn(*args)`` on ``executor``, in a copy of the caller's context (the language being
        spoken, a web call's, goes along); the future of its outcome, on the loop. A call
        whose future is cancelled before a thread takes it up is not run."""
        future: asyncio.Future[Any] = self.loop.create_future()
        executor.submit(self._work, future, contextvars.copy_context(), fn, args)
        return future

    def _work(
        self, future: asyncio.Future[Any], context: contextvars.Context, fn: Callable[..., Any], args: tuple[Any, ...]
    ) -> None:
        if future.cancelled():
            return
        try:
            outcome: tuple[asyncio.Future[Any], bool, Any] = (future, True, context.run(fn, *args))
        except BaseException as error:
            if isinstance(error, StopIteration):  # a future cannot hold one (as run_in_executor's could not)
                wrapped = RuntimeError(repr(error))
                wrapped.__cause__ = error
                error = wrapped
            outcome = (future, False, error)
        with self._lock:
            self._outcomes.append(outcome)
            if self._woken:
                return  # the loop was woken and has not looked yet: it finds this one too
            self._woken = True
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
            self.loop.call_soon_threadsafe(self._settle)

    def _settle(self) -> None:
        with self._lock:
            outcomes, self._outcomes = self._outcomes, []
            self._woken = False
        for future, ok, value in outcomes:
            if future.done():  # cancelled meanwhile
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)


# -- the servicer ------------------------------------------------------------------------


@dataclass
class CallLog:
    rpc: str
    game: str = ""
    seat: str = ""
    version: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Servicer:
    def __init__(
        self,
        service: GameService,
        executor: ThreadPoolExecutor,
        hub: Hub,
        on_fault: Callable[[StorageFault], None] | None = None,
        limits: Limits | None = None,
        private: bool = False,
    ) -> None:
        self.service = service
        self.private = private
        """No public listing: ListGames is refused (``serve --private``)."""
        self.executor = executor
        self.hub = hub
        self.live = LiveGames(self._run, service.fetch, WATCH_FALLBACK_SECONDS)
        hub.on_wake, hub.followed = self.live.wake, self.live.games
        self.gate = Gate(limits or Limits())
        self.on_fault = on_fault
        """Told of every storage fault (the server turns health NOT_SERVING while read-only)."""
        self.analyses = Analyses(service, self.gate, self._run)
        self._settling: Settling | None = None

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the thread pool: store and rules work never blocks the event
        loop, so one client's heavy calls cannot stall another's."""
        loop = asyncio.get_running_loop()
        settling = self._settling
        if settling is None or settling.loop is not loop:
            settling = self._settling = Settling(loop)
        return await settling.run(self.executor, fn, args)

    async def _run_retrying(self, name: str, fn: Callable[..., Any], request: Any, entry: CallLog) -> Any:
        """``fn(request, entry)``; a lost store connection is retried once on a fresh one.

        A create without a request id is not retried: had the first attempt been saved
        after all, a retry would make a second game. Commands are safe to retry: their
        command id is applied once."""
        try:
            return await self._run(fn, request, entry)
        except Exception as error:
            fault = fault_of(error)
            if fault is None:
                raise
            if self.on_fault is not None:
                self.on_fault(fault)
            if fault.kind != UNAVAILABLE or (name == "CreateGame" and not request.request_id):
                raise
            entry.extra["retried"] = fault.detail[:120]
            await self._run(drop_dead_connections, self.service.app)
            return await self._run(fn, request, entry)

    def unary(
        self, name: str, fn: Callable[[Any, CallLog], Message]
    ) -> Callable[[Any, aio.ServicerContext[Any, Any]], Awaitable[Message]]:
        served_itself = asyncio.iscoroutinefunction(fn)  # it takes its turns on the threads itself

        async def handler(request: Any, context: aio.ServicerContext[Any, Any]) -> Message:
            started = time.perf_counter()
            entry = CallLog(name)
            failure: tuple[grpc.StatusCode, str] | None = None
            response: Message | None = None
            if isinstance(request, Malformed):
                failure = (grpc.StatusCode.INVALID_ARGUMENT, bounded(f"malformed {request.type}: {request.reason}"))
            else:
                # A refusal is said in the language asked for: a limit's, raised on the way in,
                # as well as the call's own (the worker threads speak the request's language themselves).
                with speaking(_asked(request)):
                    try:
                        if name in OPEN_CALLS:
                            response = await self._open_call(name, fn, request, entry, context.peer())
                        elif served_itself:
                            served = cast(Callable[[Any, CallLog, str], Awaitable[Message]], fn)
                            response = await served(request, entry, context.peer())
                        else:
                            async with self.gate.turn(context.peer()):
                                response = await self._run_retrying(name, fn, request, entry)
                    except LimitExceeded as error:
                        failure = (grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
                        _log_failure(name, entry, failure, error)
                        await self._refusal_turn(context)
                    except Exception as error:
                        failure = status_of(error)
                        _log_failure(name, entry, failure, error)
            _log_call(entry, failure[0].name if failure else "OK", started)
            if failure is not None:
                await context.abort(failure[0], failure[1])
            assert response is not None
            return response

        return handler

    async def _open_call(
        self, name: str, fn: Callable[[Any, CallLog], Message], request: Any, entry: CallLog, peer: str
    ) -> Message:
        """A call that needs no token, within its connection's rate of calls and share of the
        worker threads' time (LimitExceeded past either); charged with the thread time it took."""
        self.gate.open_call(name, peer)
        spent: list[float] = []

        def timed(request: Any, entry: CallLog) -> Message:
            started = time.thread_time()
            try:
                return fn(request, entry)
            finally:
                spent.append(time.thread_time() - started)

        try:
            async with self.gate.turn(peer):
                response: Message = await self._run_retrying(name, timed, request, entry)
                return response
        finally:
            self.gate.charge(peer, sum(spent))

    async def _refusal_turn(self, context: aio.ServicerContext[Any, Any]) -> None:
        """A refusal (RESOURCE_EXHAUSTED of a limit) waits for its connection's turn to be
        refused (``Gate.refusal_wait``): a client calling past its limits without pause is
        answered at the pace of its refusals, and its calls cost nothing while they wait."""
        wait = self.gate.refusal_wait(context.peer())
        if wait > 0:
            await asyncio.sleep(wait)

    # -- unary calls (run on the thread pool) -----------------------------------------

    def create_game(self, request: pb.CreateGameRequest, entry: CallLog) -> pb.CreateGameResponse:
        game_request = GameRequest(
            game=request.game or "lcg",
            scenario=request.scenario,
            options=dict(request.options),
            players=[PlayerSetup(tuple(p.heroes), tuple(p.deck), p.deck_format, p.contract) for p in request.players],
            unlisted=request.unlisted,
            seating=tuple(SeatPlan(s.seat, s.name, s.bot, s.open) for s in request.seating),
        )
        access = self.service.create(
            game_request, request.seed if request.HasField("seed") else None, request.request_id
        )
        entry.game, entry.version = str(access.game_id), access.version
        return pb.CreateGameResponse(access=convert.access_pb(access))

    def list_games(self, request: pb.ListGamesRequest, entry: CallLog) -> pb.ListGamesResponse:
        if self.private:
            raise PermissionDenied(
                gettext(
                    "this server does not list its games (serve --private): a game is reached with one of its tokens"
                )
            )
        infos = self.service.games(request.offset, request.limit)
        return pb.ListGamesResponse(
            games=[
                pb.GameSummary(
                    game_id=str(i.id),
                    game=i.ruleset,
                    version=i.version,
                    over=i.over,
                    seats=list(getattr(i.created, "seats", ())),
                    damaged=i.damaged,
                )
                for i in infos
            ]
        )

    def get_view(self, request: pb.GetViewRequest, entry: CallLog) -> pb.GetViewResponse:
        with speaking(_language(request.language)):
            game_id, viewer = self._viewer(request, entry)
            view = self.service.view_as(game_id, viewer, request.version)
            entry.seat, entry.version = view.viewer, view.version
            return pb.GetViewResponse(view=convert.view_pb(view))

    def submit_decision(self, request: pb.SubmitDecisionRequest, entry: CallLog) -> pb.SubmitDecisionResponse:
        with speaking(_language(request.language)):  # the events' text and the next question's
            game_id, seat = self._viewer(request, entry)
            result = self.service.submit_as(
                game_id,
                seat,
                request.expected_version,
                request.decision_id,
                list(request.choice),
                request.command_id,
                request.include_view,
            )
            entry.seat, entry.version = result.seat, result.version
            if result.replayed:
                entry.extra["replayed"] = True
            return convert.submit_pb(result)

    def get_history(self, request: pb.GetHistoryRequest, entry: CallLog) -> pb.GetHistoryResponse:
        with speaking(_language(request.language)):
            game_id = self._game(request, entry)
            events, latest = self.service.history(game_id, request.token, request.after_version, request.to_version)
            entry.version = latest
            return pb.GetHistoryResponse(events=[convert.event_pb(p) for p in events], latest_version=latest)

    def explain_event(self, request: pb.ExplainEventRequest, entry: CallLog) -> pb.ExplainEventResponse:
        with speaking(_language(request.language)):
            game_id = self._game(request, entry)
            tree = self.service.explain(game_id, request.token, request.seq)
            entry.version = request.seq
            return pb.ExplainEventResponse(because=convert.because_pb(tree))

    def fork_game(self, request: pb.ForkGameRequest, entry: CallLog) -> pb.ForkGameResponse:
        game_id = self._game(request, entry)
        access = self.service.fork(game_id, request.token, request.at)
        entry.version = request.at
        entry.extra["fork"] = str(access.game_id)
        return pb.ForkGameResponse(access=convert.access_pb(access), forked_from=str(game_id))

    def rotate_token(self, request: pb.RotateTokenRequest, entry: CallLog) -> pb.RotateTokenResponse:
        game_id = self._game(request, entry)
        token = self.service.rotate_token(game_id, request.viewer, request.token)
        entry.seat = request.viewer
        return pb.RotateTokenResponse(viewer=request.viewer, token=token)

    def take_back(self, request: pb.TakeBackRequest, entry: CallLog) -> pb.TakeBackResponse:
        game_id = self._game(request, entry)
        result = take_back(self.service, game_id, request.token, request.seat)
        entry.seat, entry.version = result.seat, result.at
        if result.branch is not None:
            entry.extra["branch"] = str(result.branch)
        return pb.TakeBackResponse(
            seat=result.seat,
            at=result.at,
            game_id=str(result.branch) if result.branch is not None else "",
            waiting_for=result.waiting_for,
        )

    def verify_game(self, request: pb.VerifyGameRequest, entry: CallLog) -> pb.VerifyGameResponse:
        game_id = self._game(request, entry)
        verdict = self.service.verify(game_id, request.token)
        entry.version = verdict.events
        return pb.VerifyGameResponse(
            ok=verdict.ok,
            events=verdict.events,
            first_bad=verdict.first_bad or 0,
            reason=verdict.reason,
            status=VERIFY_STATUS[verdict.status],
            field=verdict.field,
            recorded_rules_version=verdict.recorded_rules or 0,
            current_rules_version=verdict.current_rules or 0,
            text=told(verdict),
        )

    def get_catalog(self, request: pb.GetCatalogRequest, entry: CallLog) -> pb.GetCatalogResponse:
        return pb.GetCatalogResponse(
            games=[
                pb.CatalogGame(
                    game=g.game,
                    title=g.title,
                    default_scenario=g.default_scenario,
                    scenarios=[pb.CatalogScenario(**msgspec.structs.asdict(s)) for s in g.scenarios],
                    options=[pb.CatalogOption(**msgspec.structs.asdict(o)) for o in g.options],
                    decks=[pb.CatalogDeck(**msgspec.structs.asdict(d)) for d in g.decks],
                    contracts=[pb.CatalogContract(**msgspec.structs.asdict(c)) for c in g.contracts],
                    bots=g.bots,
                )
                for g in catalog()
            ]
        )

    def _game(self, request: Any, entry: CallLog) -> UUID:
        """The game a request names; notes it and the caller's viewer for the log."""
        return self._viewer(request, entry)[0]

    def _viewer(self, request: Any, entry: CallLog) -> tuple[UUID, str]:
        """The game a request names and the viewer its token stands for (the call's one
        token check); notes both for the log."""
        game_id = parse_game_id(request.game_id, request.token)
        entry.game = str(game_id)
        entry.seat = self.service.viewer(game_id, request.token)
        return game_id, entry.seat

    # -- the stream ------------------------------------------------------------------

    async def watch(
        self, request: pb.WatchRequest | Malformed, context: aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[pb.WatchResponse]:
        started = time.perf_counter()
        entry = CallLog("Watch")
        if isinstance(request, Malformed):
            await _abort_malformed(request, entry, started, context)
            return
        try:
            opened = self.gate.open_stream(request.token, context.peer())
        except LimitExceeded as error:
            await self._refusal_turn(context)
            _log_call(entry, "RESOURCE_EXHAUSTED", started)
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
            return
        try:
            async for update in self._watch(request, entry, started, context):
                yield update
        finally:
            self.gate.close_stream(opened)

    async def _watch(
        self, request: pb.WatchRequest, entry: CallLog, started: float, context: aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[pb.WatchResponse]:
        def open_cursor() -> tuple[UUID, Cursor]:
            _language(request.language)  # a language not spoken is refused before the stream starts
            game_id = self._game(request, entry)
            found = self.service.watch(game_id, request.token, request.from_version, not request.omit_tables)
            return game_id, found

        try:
            async with self.gate.turn(context.peer()):
                game_id, cursor = await self._run(open_cursor)
        except Exception as error:
            with speaking(_asked(request)):
                code, message = status_of(error)
            _log_failure("Watch", entry, (code, message), error)
            _log_call(entry, code.name, started)
            await context.abort(code, message)
            return
        entry.seat = cursor.viewer
        hub, live = self.hub, self.live
        game, me = live.join(game_id, cursor.last)
        hub.watchers += 1
        outcome = "OK"
        failure: tuple[grpc.StatusCode, str] | None = None
        try:
            while not hub.closing.is_set():
                woken = hub.event(game_id)
                try:
                    events = await live.since(game, me, cursor.last)
                    async with self.gate.turn(context.peer()):
                        update = await self._run(self._advance, cursor, events, request.token, request.language)
                except Exception as error:
                    failure = status_of(error)
                    _log_failure("Watch", entry, failure, error)
                    outcome = failure[0].name
                    break
                live.seen(game, me, cursor.last)
                if update is not None:
                    yield update
                    if update.view.over:
                        break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), WATCH_FALLBACK_SECONDS)
        except asyncio.CancelledError:
            outcome = "CANCELLED"
            raise
        finally:
            live.leave(game, me)
            hub.watchers -= 1
            entry.version = cursor.last
            _log_call(entry, outcome, started)
        if failure is not None:
            await context.abort(failure[0], failure[1])

    async def export_game(
        self, request: pb.ExportGameRequest | Malformed, context: aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[pb.ExportGameResponse]:
        """The record in chunks; each chunk is read from the store on the thread pool."""
        started = time.perf_counter()
        entry = CallLog("ExportGame")
        if isinstance(request, Malformed):
            await _abort_malformed(request, entry, started, context)
            return
        outcome = "OK"
        lines = 0
        try:
            game_id = self._game(request, entry)
            chunks = await self._run(self.service.export, game_id, request.token)
            while (chunk := await self._run(next, chunks, None)) is not None:
                lines += chunk.count(b"\n")
                yield pb.ExportGameResponse(lines=chunk)
        except asyncio.CancelledError:
            outcome = "CANCELLED"
            raise
        except Exception as error:
            code, message = status_of(error)
            if code is grpc.StatusCode.INTERNAL:
                log.exception("internal error in ExportGame")
            outcome = code.name
            await context.abort(code, message)
        finally:
            entry.version = max(lines - 1, 0)
            _log_call(entry, outcome, started)

    def _advance(self, cursor: Cursor, events: list[Event], token: str, language: str = "") -> pb.WatchResponse | None:
        self.service.viewer(cursor.game_id, token)  # a token rotated meanwhile ends the stream
        with speaking(_language(language)):  # on the pool's thread: the language is set here
            projected, view = self.service.advance(cursor, events)
            if view is None:
                return None
            return pb.WatchResponse(events=[convert.event_pb(p) for p in projected], view=convert.view_pb(view))

    # -- registration ----------------------------------------------------------------

    def handlers(self) -> grpc.GenericRpcHandler:
        return grpc.method_handlers_generic_handler(SERVICE_NAME, self.methods())

    def methods(self) -> dict[str, grpc.RpcMethodHandler[Any, Any]]:
        """Each method's handler by name: registered with gRPC, and served by the web page's
        handler (``service/web``) too, so both follow the same rules."""

        def unary(
            name: str, request: type[Message], response: type[Message], fn: Any
        ) -> grpc.RpcMethodHandler[Any, Any]:
            return grpc.unary_unary_rpc_method_handler(
                self.unary(name, fn),
                request_deserializer=_parser(request),
                response_serializer=response.SerializeToString,
            )

        methods = {
            "CreateGame": unary("CreateGame", pb.CreateGameRequest, pb.CreateGameResponse, self.create_game),
            "ListGames": unary("ListGames", pb.ListGamesRequest, pb.ListGamesResponse, self.list_games),
            "GetView": unary("GetView", pb.GetViewRequest, pb.GetViewResponse, self.get_view),
            "SubmitDecision": unary(
                "SubmitDecision", pb.SubmitDecisionRequest, pb.SubmitDecisionResponse, self.submit_decision
            ),
            "GetHistory": unary("GetHistory", pb.GetHistoryRequest, pb.GetHistoryResponse, self.get_history),
            "ExplainEvent": unary("ExplainEvent", pb.ExplainEventRequest, pb.ExplainEventResponse, self.explain_event),
            "ForkGame": unary("ForkGame", pb.ForkGameRequest, pb.ForkGameResponse, self.fork_game),
            "RotateToken": unary("RotateToken", pb.RotateTokenRequest, pb.RotateTokenResponse, self.rotate_token),
            "TakeBack": unary("TakeBack", pb.TakeBackRequest, pb.TakeBackResponse, self.take_back),
            "VerifyGame": unary("VerifyGame", pb.VerifyGameRequest, pb.VerifyGameResponse, self.verify_game),
            "GetCatalog": unary("GetCatalog", pb.GetCatalogRequest, pb.GetCatalogResponse, self.get_catalog),
            "AnalyzeDecision": unary(
                "AnalyzeDecision", pb.AnalyzeDecisionRequest, pb.AnalyzeDecisionResponse, self.analyses.call
            ),
            "ExportGame": grpc.unary_stream_rpc_method_handler(
                self.export_game,
                request_deserializer=_parser(pb.ExportGameRequest),
                response_serializer=pb.ExportGameResponse.SerializeToString,
            ),
            "Watch": grpc.unary_stream_rpc_method_handler(
                self.watch,
                request_deserializer=_parser(pb.WatchRequest),
                response_serializer=pb.WatchResponse.SerializeToString,
            ),
        }
        return methods


def _log_failure(name: str, entry: CallLog, failure: tuple[grpc.StatusCode, str], error: BaseException) -> None:
    """The server's account of a failed call: the game and the cause, with a traceback
    only for what no rule explains (INTERNAL)."""
    if failure[0] is grpc.StatusCode.INTERNAL:
        log.exception("internal error in %s", name)
    elif failure[0] in (grpc.StatusCode.DATA_LOSS, grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED):
        entry.extra["cause"] = bounded(str(error) or type(error).__name__)


def epic_servicer(service: GameService, servicer: Servicer) -> Any:
    """Epic Multiplayer's calls (proto/westmarch/v1/epic.proto), served with the same logging."""
    from service.epic import EpicService
    from service.rpc.epic import EpicServicer

    return EpicServicer(EpicService(service), servicer)


def _both(first: Callable[[UUID, int], None], then: Callable[[UUID, int], None]) -> Callable[[UUID, int], None]:
    def told(game_id: UUID, version: int) -> None:
        first(game_id, version)
        then(game_id, version)

    return told


async def _abort_malformed(
    request: Malformed, entry: CallLog, started: float, context: aio.ServicerContext[Any, Any]
) -> None:
    """End a streaming call whose request could not be parsed (INVALID_ARGUMENT)."""
    _log_call(entry, "INVALID_ARGUMENT", started)
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, bounded(f"malformed {request.type}: {request.reason}"))


def _log_call(entry: CallLog, outcome: str, started: float) -> None:
    if not log.isEnabledFor(logging.INFO):
        return
    record: dict[str, Any] = {"rpc": entry.rpc, "game": entry.game, "seat": entry.seat}
    if entry.version is not None:
        record["version"] = entry.version
    record["outcome"] = outcome
    record["ms"] = round((time.perf_counter() - started) * 1000, 2)
    record.update(entry.extra)
    log.info("call", extra={"fields": record})


class JsonLogFormatter(logging.Formatter):
    """One JSON object per line: time, level, message and the call's fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "pid": record.process,
            "level": record.levelname.lower(),
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes each record to the standard error of the moment: a server started in a process
    whose ``sys.stderr`` was replaced (and the old one closed) logs to the new one."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def configure_logging(level: str = "info", stream: Any = None) -> None:
    handler = logging.StreamHandler(stream) if stream is not None else StderrHandler()
    handler.setFormatter(JsonLogFormatter())
    root = logging.getLogger("westmarch")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False


# -- the server --------------------------------------------------------------------------


@dataclass
class ServerOptions:
    env: Mapping[str, str] = field(default_factory=dict)
    host: str = "127.0.0.1"
    port: int = 0
    workers: int | None = None
    """Threads for store and rules work (None: :data:`WORKERS`). None of it runs on the
    event loop, so a flood of one client's calls cannot stall the loop for the others."""
    tls_cert: str | None = None
    tls_key: str | None = None
    grace: float = 5.0
    poll: float = POLL_SECONDS
    reuse_port: bool = False
    """Share the port with other server processes (SO_REUSEPORT; ``serve --processes``)."""
    limits: Limits = field(default_factory=Limits)
    """Open streams per token and connection, and the rate of calls that need no token."""
    private: bool = False
    """List no game to anyone (ListGames refused with PERMISSION_DENIED): ``serve --private``."""
    web_port: int | None = None
    """Also serve the web page and the Connect protocol on this port (0: any free port)."""
    bot_sweep: float = SWEEP_SECONDS
    """Seconds between two sweeps for games waiting for a bot that no process is playing
    (one whose process died: ``serve --processes``); 0: only the sweep at start."""
    sqlite_synchronous: str = "NORMAL"
    """SQLite's ``PRAGMA synchronous`` for the server's connections. In WAL mode NORMAL
    keeps every committed command through a crash of the server process (the log is
    written before the commit returns) and saves an fsync per command; only a crash of
    the machine itself may lose the last commits. FULL also survives that."""


class Server:
    """One running server on an event loop: start, learn its port, stop gracefully."""

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self.port = 0
        self.app: Westmarch | None = None
        self._server: aio.Server | None = None
        self._hub: Hub | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._health: Any = None
        self._poller: asyncio.Task[None] | None = None
        self.servicer: Servicer | None = None
        self._probing: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self.web: WebServer | None = None
        self.autoplay: Autoplay | None = None

    async def start(self) -> int:
        options = self.options
        loop = asyncio.get_running_loop()
        warm()  # the caches of a first game, filled once before any call (not once per worker thread)
        self.app = app = Westmarch(dict(options.env))
        sqlite_synchronous(app, options.sqlite_synchronous)
        self._hub = hub = Hub(loop)
        workers = options.workers or WORKERS
        limits = options.limits
        if limits.busy_per_connection >= workers:  # one connection must never hold every thread
            limits = replace(limits, busy_per_connection=max(1, workers - 1))
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="westmarch")
        service = GameService(app, on_commit=hub.wake_from_thread)
        servicer = Servicer(
            service, self._executor, hub, on_fault=self._on_fault, limits=limits, private=options.private
        )
        self.servicer = servicer
        from service.rpc.epic import EPIC_SERVICE_NAME
        from service.rpc.room import ROOM_SERVICE_NAME, RoomServicer

        self.autoplay = autoplay = Autoplay(service, every=options.bot_sweep)
        service.on_commit = _both(hub.wake_from_thread, autoplay.committed)
        service.rooms.on_change.append(lambda record: hub.wake_from_thread(record, 0))
        rooms = RoomServicer(Lobby(service, autoplay.notify), servicer, autoplay.notify)
        epics = epic_servicer(service, servicer)
        server = aio.server(
            options=[
                ("grpc.so_reuseport", 1 if options.reuse_port else 0),
                # calls open at once per connection, bounded by gRPC's core before any Python runs
                ("grpc.max_concurrent_streams", limits.calls_per_connection),
            ]
        )
        server.add_generic_rpc_handlers((servicer.handlers(), epics.handlers(), rooms.handlers()))
        self._health = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self._health, server)
        # every service of the proto is served (GameService, EpicService, RoomService), then health and reflection
        files = (pb.DESCRIPTOR, epic_pb2.DESCRIPTOR, room_pb2.DESCRIPTOR)
        served = [s.full_name for f in files for s in f.services_by_name.values()]
        served += [health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME]
        reflection.enable_server_reflection(served, server)
        address = f"{options.host}:{options.port}"
        if options.tls_cert or options.tls_key:
            if not (options.tls_cert and options.tls_key):
                raise ValueError(gettext("TLS needs both --tls-cert and --tls-key"))
            with open(options.tls_key, "rb") as k, open(options.tls_cert, "rb") as c:
                credentials = grpc.ssl_server_credentials([(k.read(), c.read())])
            self.port = server.add_secure_port(address, credentials)
        else:
            self.port = server.add_insecure_port(address)
        if not self.port:
            raise OSError(f"cannot listen on {address}")
        await server.start()
        self._server = server
        await self._health.set("", health_pb2.HealthCheckResponse.SERVING)
        await self._health.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
        self._poller = asyncio.create_task(self._poll_store())
        if options.web_port is not None:
            tls = tls_context(options.tls_cert, options.tls_key)
            web = WebOptions(options.host, options.web_port, tls, reuse_port=options.reuse_port)
            called = {SERVICE_NAME: servicer.methods(), EPIC_SERVICE_NAME: epics.methods()}
            called[ROOM_SERVICE_NAME] = rooms.methods()
            methods = {
                f"{name}/{method}": handler for name, found in called.items() for method, handler in found.items()
            }
            self.web = WebServer(methods, web)
            await self.web.start()
        autoplay.sweep()  # at once (a game left waiting for a bot goes on), then every bot_sweep seconds
        log.info("serving", extra={"fields": {"port": self.port, "store": app.env.get("PERSISTENCE_MODULE", "")}})
        return self.port

    def _on_fault(self, fault: StorageFault) -> None:
        """A read-only store turns health NOT_SERVING until a probe finds it writable."""
        if fault.kind != READ_ONLY or self._probing is not None:
            return
        self._probing = asyncio.get_running_loop().create_task(self._probe_writable())

    async def _probe_writable(self) -> None:
        app, health_servicer = self.app, self._health
        assert app is not None and health_servicer is not None
        not_serving = health_pb2.HealthCheckResponse.NOT_SERVING
        await health_servicer.set("", not_serving)
        await health_servicer.set(SERVICE_NAME, not_serving)
        log.warning("store is read-only", extra={"fields": {"health": "NOT_SERVING"}})
        loop = asyncio.get_running_loop()
        try:
            while self._hub is not None and not self._hub.closing.is_set():
                if await loop.run_in_executor(self._executor, writable, app):
                    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
                    await health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
                    log.warning("store is writable again", extra={"fields": {"health": "SERVING"}})
                    return
                await asyncio.sleep(PROBE_SECONDS)
        finally:
            self._probing = None

    async def _poll_store(self) -> None:
        """Wake watchers of games changed by other processes (the notification log)."""
        app, hub = self.app, self._hub
        assert app is not None and hub is not None
        topics = [t.format(ruleset=n) for n in names() for t in (EVENT_TOPIC, CREATED_TOPIC)] + ROOM_TOPICS
        recorder: Any = app.recorder
        last: int | None = None
        loop = asyncio.get_running_loop()

        def changed(start: int) -> tuple[int, dict[UUID, int]]:
            games: dict[UUID, int] = {}
            while True:
                page = recorder.select_notifications(start + 1, 500, topics=topics)
                for note in page:
                    found = note.originator_id if isinstance(note.originator_id, UUID) else UUID(note.originator_id)
                    games[found] = max(games.get(found, 0), note.originator_version)
                if page:
                    start = page[-1].id
                if len(page) < 500:
                    return start, games

        while not hub.closing.is_set():
            try:
                await asyncio.wait_for(hub.closing.wait(), self.options.poll)
                break
            except TimeoutError:
                pass
            if not hub.events:
                last = None
                continue
            try:
                if last is None:
                    last = await loop.run_in_executor(self._executor, lambda: recorder.max_notification_id() or 0)
                    continue
                last, games = await loop.run_in_executor(self._executor, changed, last)
                for game_id, version in games.items():
                    hub.wake(game_id, version)
            except Exception:
                log.exception("polling the store failed")

    async def stop(self, grace: float | None = None) -> None:
        """Stop taking calls, let calls in flight finish (up to ``grace`` s), close the store."""
        if self._server is None:
            return
        if self._health is not None:
            await self._health.enter_graceful_shutdown()
        if self._hub is not None:
            self._hub.close()
        if self.web is not None:
            await self.web.stop(self.options.grace if grace is None else grace)
        await self._server.stop(self.options.grace if grace is None else grace)
        if self._poller is not None:
            await self._poller
        if self._probing is not None:
            self._probing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probing
        if self.autoplay is not None:
            self.autoplay.close()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
        if self.servicer is not None:
            self.servicer.analyses.close()
        if self.app is not None:
            self.app.close()
        self._server = None
        log.info("stopped", extra={"fields": {"port": self.port}})
        self._stopped.set()

    async def wait(self) -> None:
        await self._stopped.wait()


def sqlite_synchronous(app: Westmarch, mode: str) -> None:
    """Set ``PRAGMA synchronous`` on every SQLite connection of ``app`` (none if not SQLite)."""
    from eventsourcing.sqlite import SQLiteConnectionPool

    if mode.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(say("unknown SQLite synchronous mode %(mode)s", mode=repr(mode)))
    pool = getattr(getattr(app.recorder, "datastore", None), "pool", None)
    if not isinstance(pool, SQLiteConnectionPool):
        return
    create = pool._create_connection

    def create_with_pragma() -> Any:
        connection = create()
        connection._sqlite_conn.execute(f"PRAGMA synchronous={mode.upper()}")
        return connection

    setattr(pool, "_create_connection", create_with_pragma)  # noqa: B010
    for connection in list(pool._pool):
        connection._sqlite_conn.execute(f"PRAGMA synchronous={mode.upper()}")


SWITCH_INTERVAL = 0.0005
"""Seconds a worker thread may hold the interpreter before another may run (Python's
default is 5 ms): a short call is not kept waiting behind another client's long one."""


async def serve(
    options: ServerOptions,
    ready: Callable[[int], None] | None = None,
    web_ready: Callable[[int], None] | None = None,
) -> None:
    """Serve until SIGTERM or SIGINT, then shut down gracefully. ``ready`` is told the gRPC
    port, ``web_ready`` the web page's (with ``options.web_port``)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    server = Server(options)
    port = await server.start()
    if ready is not None:
        ready(port)
    if web_ready is not None and server.web is not None:
        web_ready(server.web.port)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("shutting down", extra={"fields": {"port": port}})
    await server.stop()


class ThreadedServer:
    """A server on its own event loop in a background thread (tests, benchmarks)."""

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: Server | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name=f"westmarch-server-{uuid.uuid4().hex[:6]}", daemon=True)

    def start(self) -> ThreadedServer:
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        return self

    def _main(self) -> None:
        async def run() -> None:
            self._loop = asyncio.get_running_loop()
            self._server = Server(self.options)
            try:
                self.port = await self._server.start()
            except BaseException as error:
                self._error = error
                self._ready.set()
                return
            self._ready.set()
            await self._server.wait()

        asyncio.run(run())

    @property
    def address(self) -> str:
        return f"{self.options.host}:{self.port}"

    @property
    def web(self) -> WebServer:
        assert self._server is not None and self._server.web is not None
        return self._server.web

    @property
    def app(self) -> Westmarch:
        assert self._server is not None and self._server.app is not None
        return self._server.app

    @property
    def servicer(self) -> Servicer:
        assert self._server is not None and self._server.servicer is not None
        return self._server.servicer

    @property
    def autoplay(self) -> Autoplay:
        assert self._server is not None and self._server.autoplay is not None
        return self._server.autoplay

    def stop(self, grace: float = 1.0) -> None:
        if self._loop is not None and self._server is not None and self._thread.is_alive():
            future = asyncio.run_coroutine_threadsafe(self._server.stop(grace), self._loop)
            future.result(30)
        self._thread.join(30)

    def __enter__(self) -> ThreadedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _asked(request: object) -> str:
    """The language a request asks for (its ``language`` field, where it has one), for its
    refusal's message; the one being spoken when it asks for none, or for one not spoken."""
    return choose(str(getattr(request, "language", "") or "")) or language()


def _language(tag: str) -> str:
    """The language a request asks for its texts in; "" keeps the one being spoken (English
    over plain gRPC; the page's language when the web page's handler serves the call).
    BadRequest for a language not spoken."""
    if not tag:
        return language()
    chosen = choose(tag)
    if chosen is None:
        raise BadRequest(
            say(
                "language %(tag)s is not spoken here: choose from %(languages)s (or '' for en)",
                tag=repr(tag),
                languages=", ".join(LANGUAGES),
            )
        )
    return chosen
