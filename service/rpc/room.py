"""The gRPC face of the room and the lobby (``westmarch.v1.RoomService``,
proto/westmarch/v1/room.proto): thin calls onto :class:`service.lobby.Lobby`, served beside
``GameService`` with the same logging, error statuses and limits (the calls without a token
are limited as CreateGame is; WatchRoom streams count as Watch streams)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import grpc
from google.protobuf.message import Message
from grpc import aio

from projections.i18n import gettext
from service.commands import parse_game_id
from service.errors import BadRequest, PermissionDenied
from service.lobby import ORGANIZER, Lobby, MyGame, RoomShown, SeatShown
from service.records import MessageSaid, epic_talk_id, room_id
from service.rpc.gen.westmarch.v1 import room_pb2 as rpb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.limits import LimitExceeded
from service.rpc.server import (
    CallLog,
    Malformed,
    Servicer,
    _abort_malformed,
    _log_call,
    _log_failure,
    _parser,
    status_of,
)

ROOM_SERVICE_NAME = "westmarch.v1.RoomService"
ROOM_FALLBACK_SECONDS = 15.0
"""A watched room is looked at again after this long even if nothing woke it: changes made
through other server processes wake it through the store's notification poll first."""


def seat_pb(s: SeatShown) -> rpb.RoomSeat:
    return rpb.RoomSeat(seat=s.seat, name=s.name, bot=s.bot, open=s.open, auto_pass=s.auto_pass)


def message_pb(m: MessageSaid) -> rpb.TalkMessage:
    return rpb.TalkMessage(
        seq=m.originator_version, channel=m.channel, by=m.by, name=m.name, text=m.text, at=m.at, game_id=str(m.game_id)
    )


def room_pb(r: RoomShown) -> rpb.Room:
    return rpb.Room(
        game_id=str(r.game_id),
        game=r.game,
        scenario=r.scenario,
        viewer=r.viewer,
        seats=[seat_pb(s) for s in r.seats],
        messages=[message_pb(m) for m in r.messages],
        take_backs=[rpb.TakeBackAsk(seat=a.seat, at=a.at, agreed=a.agreed, waiting_for=a.waiting_for) for a in r.asks],
        moved_to=str(r.moved_to) if r.moved_to else "",
        came_from=str(r.came_from) if r.came_from else "",
        came_at=r.came_at,
        came_why=r.came_why,
        came_seat=r.came_seat,
        epic_id=str(r.epic) if r.epic else "",
        reads=list(r.reads),
        says=list(r.says),
        version=r.version,
        heard=r.heard,
    )


def my_game_pb(g: MyGame) -> rpb.MyGame:
    out = rpb.MyGame(
        game_id=str(g.game_id) if g.game_id else "",
        game=g.game,
        scenario=g.scenario,
        viewer=g.viewer,
        name=g.name,
        version=g.version,
        waiting_for=g.waiting_for,
        over=g.over,
        error=g.error,
        epic_id=str(g.epic) if g.epic else "",
    )
    if g.outcome is not None:
        out.outcome.CopyFrom(
            pb.Outcome(result=g.outcome.result, reason=g.outcome.reason, winner=g.outcome.winner or "")
        )
    return out


class RoomServicer:
    def __init__(self, lobby: Lobby, calls: Servicer, nudge: Any = None) -> None:
        self.lobby = lobby
        self.calls = calls
        self.nudge = nudge
        """Told of a game whose room a page opened (it may wait for the server to play a seat)."""

    # -- unary calls (on the thread pool) ---------------------------------------------

    def list_open_games(self, request: rpb.ListOpenGamesRequest, entry: CallLog) -> rpb.ListOpenGamesResponse:
        if self.calls.private:
            raise PermissionDenied(
                gettext(
                    "this server does not list its games (serve --private): a game is reached with one of its tokens"
                )
            )
        games = self.lobby.open_games(request.limit)
        return rpb.ListOpenGamesResponse(
            games=[
                rpb.OpenGame(
                    game_id=str(g.game_id),
                    game=g.game,
                    scenario=g.scenario,
                    title=g.title,
                    seats=[seat_pb(s) for s in g.seats],
                    version=g.version,
                    difficulty=g.difficulty,
                    epic_id=str(g.epic) if g.epic else "",
                )
                for g in games
            ]
        )

    def join_game(self, request: rpb.JoinGameRequest, entry: CallLog) -> rpb.JoinGameResponse:
        if not request.game_id:
            raise BadRequest(gettext("game_id is required: the game whose open seat to take"))
        game_id = parse_game_id(request.game_id)
        entry.game, entry.seat = str(game_id), request.seat[:24]
        token = self.lobby.join(game_id, request.seat, request.name)
        return rpb.JoinGameResponse(game_id=str(game_id), seat=request.seat, token=token)

    def get_room(self, request: rpb.GetRoomRequest, entry: CallLog) -> rpb.GetRoomResponse:
        game_id = self._game(request, entry)
        return rpb.GetRoomResponse(room=room_pb(self.lobby.room_as(game_id, entry.seat, dict(request.heard))))

    def set_seat(self, request: rpb.SetSeatRequest, entry: CallLog) -> rpb.SetSeatResponse:
        game_id = self._game(request, entry)
        if entry.seat == ORGANIZER:
            raise BadRequest(gettext("the organizer of an epic event holds no seat: a seat's token names it"))
        auto_pass = request.auto_pass if request.HasField("auto_pass") else None
        return rpb.SetSeatResponse(seat=seat_pb(self.lobby.set_seat(game_id, request.token, request.name, auto_pass)))

    def say(self, request: rpb.SayRequest, entry: CallLog) -> rpb.SayResponse:
        game_id = self._game(request, entry)
        said = self.lobby.say(game_id, request.token, request.channel, request.text)
        entry.extra["channel"] = said.channel
        return rpb.SayResponse(message=message_pb(said))

    def check_deck(self, request: rpb.CheckDeckRequest, entry: CallLog) -> rpb.CheckDeckResponse:
        read = self.lobby.check_deck(list(request.deck), request.deck_format)
        return rpb.CheckDeckResponse(
            deck_format=read.deck_format,
            name=read.name,
            heroes=read.heroes,
            cards=read.cards,
            lines=read.lines,
            problems=read.problems,
        )

    def get_my_games(self, request: rpb.GetMyGamesRequest, entry: CallLog) -> rpb.GetMyGamesResponse:
        found = self.lobby.my_games([(g.game_id, g.token) for g in request.games])
        entry.extra["games"] = len(found)
        return rpb.GetMyGamesResponse(games=[my_game_pb(g) for g in found])

    def _game(self, request: Any, entry: CallLog) -> UUID:
        game_id = parse_game_id(request.game_id, request.token)
        game_id, entry.seat = self.lobby.viewer_of(game_id, request.token)  # an organizer's: the epic event
        entry.game = str(game_id)
        return game_id

    # -- the stream ------------------------------------------------------------------------

    async def watch_room(
        self, request: rpb.WatchRoomRequest | Malformed, context: aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[rpb.WatchRoomResponse]:
        """The room, then again after each change: woken by this process's changes at once,
        by other processes' through the store's notification poll (or after a few seconds)."""
        started = time.perf_counter()
        entry = CallLog("WatchRoom")
        if isinstance(request, Malformed):
            await _abort_malformed(request, entry, started, context)
            return
        calls, peer = self.calls, context.peer()
        try:
            opened = calls.gate.open_stream(request.token, peer)
        except LimitExceeded as error:
            await calls._refusal_turn(context)
            _log_call(entry, "RESOURCE_EXHAUSTED", started)
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
            return
        heard = dict(request.heard)
        outcome = "OK"
        failure: tuple[grpc.StatusCode, str] | None = None
        try:
            sent = -1
            while not calls.hub.closing.is_set():
                try:
                    async with calls.gate.turn(peer):
                        if sent < 0:
                            game_id = await calls._run(self._game, request, entry)
                            if self.nudge is not None:
                                self.nudge(game_id)
                        keys = [room_id(game_id)]
                        woken = [calls.hub.event(k) for k in keys]
                        shown: RoomShown = await calls._run(self.lobby.room_as, game_id, entry.seat, heard)
                        if shown.epic is not None:
                            woken.append(calls.hub.event(epic_talk_id(shown.epic)))
                except Exception as error:
                    failure = status_of(error)
                    _log_failure("WatchRoom", entry, failure, error)
                    outcome = failure[0].name
                    break
                if shown.version != sent or shown.messages:
                    heard = dict(shown.heard)
                    sent = shown.version
                    yield rpb.WatchRoomResponse(room=room_pb(shown))
                waits = [asyncio.ensure_future(e.wait()) for e in woken]
                try:
                    await asyncio.wait(waits, timeout=ROOM_FALLBACK_SECONDS, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for wait in waits:
                        wait.cancel()
        except asyncio.CancelledError:
            outcome = "CANCELLED"
            raise
        finally:
            calls.gate.close_stream(opened)
            _log_call(entry, outcome, started)
        if failure is not None:
            await context.abort(failure[0], failure[1])

    # -- registration ------------------------------------------------------------------

    def methods(self) -> dict[str, grpc.RpcMethodHandler[Any, Any]]:
        def unary(
            name: str, request: type[Message], response: type[Message], fn: Any
        ) -> grpc.RpcMethodHandler[Any, Any]:
            return grpc.unary_unary_rpc_method_handler(
                self.calls.unary(name, fn),
                request_deserializer=_parser(request),
                response_serializer=response.SerializeToString,
            )

        return {
            "ListOpenGames": unary(
                "ListOpenGames", rpb.ListOpenGamesRequest, rpb.ListOpenGamesResponse, self.list_open_games
            ),
            "JoinGame": unary("JoinGame", rpb.JoinGameRequest, rpb.JoinGameResponse, self.join_game),
            "GetRoom": unary("GetRoom", rpb.GetRoomRequest, rpb.GetRoomResponse, self.get_room),
            "SetSeat": unary("SetSeat", rpb.SetSeatRequest, rpb.SetSeatResponse, self.set_seat),
            "Say": unary("Say", rpb.SayRequest, rpb.SayResponse, self.say),
            "CheckDeck": unary("CheckDeck", rpb.CheckDeckRequest, rpb.CheckDeckResponse, self.check_deck),
            "GetMyGames": unary("GetMyGames", rpb.GetMyGamesRequest, rpb.GetMyGamesResponse, self.get_my_games),
            "WatchRoom": grpc.unary_stream_rpc_method_handler(
                self.watch_room,
                request_deserializer=_parser(rpb.WatchRoomRequest),
                response_serializer=rpb.WatchRoomResponse.SerializeToString,
            ),
        }

    def handlers(self) -> grpc.GenericRpcHandler:
        return grpc.method_handlers_generic_handler(ROOM_SERVICE_NAME, self.methods())
