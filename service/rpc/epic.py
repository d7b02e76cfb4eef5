"""The gRPC face of Epic Multiplayer (``westmarch.v1.EpicService``, proto/westmarch/v1/epic.proto):
thin calls onto :class:`service.epic.EpicService`, served beside ``GameService`` with the same
logging and error statuses."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import grpc
from grpc import aio

from projections.i18n import gettext, say
from service.epic import EpicService, GroupSetup
from service.errors import BadRequest, Unauthenticated
from service.games import PlayerSetup
from service.room import SeatPlan
from service.rpc import convert
from service.rpc.auth import game_of_token
from service.rpc.gen.westmarch.v1 import epic_pb2 as epb
from service.rpc.limits import LimitExceeded
from service.rpc.server import CallLog, Servicer, _log_call, _parser, status_of

EPIC_SERVICE_NAME = "westmarch.v1.EpicService"
WATCH_POLL = 0.2
"""Seconds between two looks at the organizer's sheet while watching it."""


class EpicServicer:
    """CreateEpic is a call without a token, under CreateGame's limits (a rate and a share
    of the worker threads per connection and per address, service/rpc/limits.py) and a cap
    on the groups of one event; WatchEpic streams count against Watch's limits per token
    and per connection, and every watcher of one event shares one look at the sheet per
    :data:`WATCH_POLL` (400 watchers cost what one does)."""

    def __init__(self, epics: EpicService, calls: Servicer) -> None:
        self.epics = epics
        self.calls = calls
        self._looks: dict[UUID, tuple[float, asyncio.Future[epb.GetEpicResponse]]] = {}
        """Each watched event's latest look at the sheet (when it began, its answer)."""
        self._watchers: dict[UUID, int] = {}

    def create_epic(self, request: epb.CreateEpicRequest, entry: CallLog) -> epb.CreateEpicResponse:
        most = self.calls.gate.limits.groups_per_epic
        setups = [
            GroupSetup(
                tuple(PlayerSetup(tuple(p.heroes), tuple(p.deck), p.deck_format, p.contract) for p in s.players),
                tuple(SeatPlan(x.seat, x.name, x.bot, x.open) for x in s.seating),
            )
            for s in request.setups
        ]
        groups = list(request.groups) or [len(s.players) or 1 for s in setups]
        if len(groups) > most or len(setups) > most:
            # The rules allow any number of groups (rulebook, Epic Multiplayer Mode); a
            # server bounds the games one call may open.
            raise BadRequest(
                say(
                    "%(max)s groups were asked for; this server opens at most %(most)s groups in one epic event "
                    "(serve --epic-groups)",
                    max=max(len(groups), len(setups)),
                    most=most,
                )
            )
        modes = list(request.difficulties) or [request.difficulty or "standard"] * len(groups)
        for mode in modes:
            if mode not in ("easy", "standard", "hard"):
                raise BadRequest(say("unknown difficulty %(mode)s; choose from easy, standard, hard", mode=repr(mode)))
        seed = request.seed if request.HasField("seed") else None
        access = self.epics.create(groups, modes, seed, setups, request.unlisted)
        entry.game = str(access.epic_id)
        return epb.CreateEpicResponse(
            epic_id=str(access.epic_id),
            organizer_token=access.organizer,
            groups=[convert.access_pb(a) for a in access.groups],
            totals=access.totals,
        )

    def get_epic(self, request: epb.GetEpicRequest | epb.WatchEpicRequest, entry: CallLog) -> epb.GetEpicResponse:
        epic_id = game_of_token(request.organizer_token)
        if epic_id is None:
            raise Unauthenticated(gettext("an organizer token is needed"))
        entry.game = str(epic_id)
        self.epics.check(epic_id, request.organizer_token)
        self.epics.follow(epic_id)
        return self._sheet(epic_id)

    async def watch_epic(
        self, request: epb.WatchEpicRequest, context: aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[epb.WatchEpicResponse]:
        """The sheet, then each sheet that differs from the last sent (new counts, a group's
        round, stage or result; polled: the groups may be played through other server
        processes), until every group's game is over."""
        started = time.perf_counter()
        entry = CallLog("WatchEpic")
        peer = context.peer()
        try:
            opened = self.calls.gate.open_stream(request.organizer_token, peer)
        except LimitExceeded as error:
            await self.calls._refusal_turn(context)
            _log_call(entry, "RESOURCE_EXHAUSTED", started)
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
            return
        try:
            try:
                async with self.calls.gate.turn(peer):
                    sheet = await self.calls._run(self.get_epic, request, entry)
            except Exception as error:
                code, message = status_of(error)
                _log_call(entry, code.name, started)
                await context.abort(code, message)
                return
            epic_id = UUID(sheet.epic_id)
            self._watchers[epic_id] = self._watchers.get(epic_id, 0) + 1
            try:
                while True:
                    # GetEpic's fields under the same numbers (proto/westmarch/v1/epic.proto)
                    yield epb.WatchEpicResponse.FromString(sheet.SerializeToString())
                    if all(g.result for g in sheet.groups):
                        break
                    sent = sheet
                    while sheet == sent and not all(g.result for g in sheet.groups):
                        await asyncio.sleep(WATCH_POLL)
                        sheet = await self._look(epic_id, peer)
            finally:
                left = self._watchers.pop(epic_id, 1) - 1
                if left > 0:
                    self._watchers[epic_id] = left
                else:
                    self._looks.pop(epic_id, None)
            _log_call(entry, "OK", started)
        finally:
            self.calls.gate.close_stream(opened)

    async def _look(self, epic_id: UUID, peer: str) -> epb.GetEpicResponse:
        """The event's sheet, looked at by at most one watcher per :data:`WATCH_POLL` (the
        others are given that look), on the worker threads in ``peer``'s turn."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        held = self._looks.get(epic_id)
        if held is None or (held[1].done() and now - held[0] >= WATCH_POLL):

            async def look() -> epb.GetEpicResponse:
                async with self.calls.gate.turn(peer):
                    sheet: epb.GetEpicResponse = await self.calls._run(self._followed_sheet, epic_id)
                    return sheet

            held = (now, asyncio.ensure_future(look()))
            self._looks[epic_id] = held
        return await asyncio.shield(held[1])

    def _followed_sheet(self, epic_id: UUID) -> epb.GetEpicResponse:
        self.epics.follow(epic_id)
        return self._sheet(epic_id)

    def _sheet(self, epic_id: UUID) -> epb.GetEpicResponse:
        report = self.epics.report(epic_id)
        return epb.GetEpicResponse(
            epic_id=str(report.epic_id),
            version=report.version,
            players=report.players,
            totals=report.totals,
            counted=report.counted,
            reached=report.reached,
            groups=[
                epb.EpicGroup(
                    game_id=str(g.game_id),
                    players=g.players,
                    difficulty=g.difficulty,
                    contributed=g.contributed,
                    learned=g.learned,
                    round=g.round,
                    stage=g.stage,
                    result=g.result,
                )
                for g in report.groups
            ],
        )

    def handlers(self) -> grpc.GenericRpcHandler:
        return grpc.method_handlers_generic_handler(EPIC_SERVICE_NAME, self.methods())

    def methods(self) -> dict[str, grpc.RpcMethodHandler[Any, Any]]:
        """Each method's handler by name: registered with gRPC, and served to the web page too."""

        def unary(name: str, request: Any, response: Any, fn: Any) -> grpc.RpcMethodHandler[Any, Any]:
            return grpc.unary_unary_rpc_method_handler(
                self.calls.unary(name, fn),
                request_deserializer=_parser(request),
                response_serializer=response.SerializeToString,
            )

        methods = {
            "CreateEpic": unary("CreateEpic", epb.CreateEpicRequest, epb.CreateEpicResponse, self.create_epic),
            "GetEpic": unary("GetEpic", epb.GetEpicRequest, epb.GetEpicResponse, self.get_epic),
            "WatchEpic": grpc.unary_stream_rpc_method_handler(
                self.watch_epic,
                request_deserializer=_parser(epb.WatchEpicRequest),
                response_serializer=epb.WatchEpicResponse.SerializeToString,
            ),
        }
        return methods
