"""The gRPC face of Epic Multiplayer (``westmarch.v1.EpicService``, proto/westmarch/v1/epic.proto):
thin calls onto :class:`service.epic.EpicService`, served beside ``GameService`` with the same
logging and error statuses."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import grpc
from grpc import aio

from service.epic import EpicService
from service.errors import BadRequest, Unauthenticated
from service.rpc import convert
from service.rpc.auth import game_of_token
from service.rpc.gen.westmarch.v1 import epic_pb2 as epb
from service.rpc.server import CallLog, Servicer, _parser, status_of

EPIC_SERVICE_NAME = "westmarch.v1.EpicService"
WATCH_POLL = 0.2
"""Seconds between two looks at the organizer's sheet while watching it."""


class EpicServicer:
    def __init__(self, epics: EpicService, calls: Servicer) -> None:
        self.epics = epics
        self.calls = calls

    def create_epic(self, request: epb.CreateEpicRequest, entry: CallLog) -> epb.CreateEpicResponse:
        modes = list(request.difficulties) or [request.difficulty or "standard"] * len(request.groups)
        for mode in modes:
            if mode not in ("easy", "standard", "hard"):
                raise BadRequest(f"unknown difficulty {mode!r}; choose from easy, standard, hard")
        seed = request.seed if request.HasField("seed") else None
        access = self.epics.create(list(request.groups), modes, seed)
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
            raise Unauthenticated("an organizer token is needed")
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
        entry = CallLog("WatchEpic")
        try:
            sheet = await self.calls._run(self.get_epic, request, entry)
        except Exception as error:
            code, message = status_of(error)
            await context.abort(code, message)
            return
        epic_id = UUID(sheet.epic_id)
        while True:
            # GetEpic's fields under the same numbers (proto/westmarch/v1/epic.proto)
            yield epb.WatchEpicResponse.FromString(sheet.SerializeToString())
            if all(g.result for g in sheet.groups):
                return
            sent = sheet
            while sheet == sent and not all(g.result for g in sheet.groups):
                await asyncio.sleep(WATCH_POLL)
                sheet = await self.calls._run(self._followed_sheet, epic_id)

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
        return grpc.method_handlers_generic_handler(EPIC_SERVICE_NAME, methods)
