"""The lobby and the room, as the service offers them: games with an open seat, joining one,
a viewer's room (seats, the talk it may read, take-backs asked), naming a seat and
auto-pass, saying something, reading a deck before a game is created, and where a
browser's games stand.

Who may read and say what is decided here and in ``service/room.py``; the transport
(``service/rpc/room.py``) only translates.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel.events import Outcome
from projections.i18n import gettext, say
from service.catalog import catalog
from service.commands import GameService, parse_game_id
from service.epic import check_organizer, is_epic
from service.errors import AlreadyExists, BadRequest, PermissionDenied, Unauthenticated
from service.games import PlayerSetup, player_deck
from service.records import (
    ROOM_TOPIC,
    AutoPassSet,
    MessageSaid,
    Record,
    RoomOpened,
    SeatTaken,
    TokenRotated,
    room_id,
    seats_id,
)
from service.room import (
    CHANNELS,
    EPIC,
    MAX_MESSAGES,
    REFEREE,
    SHADOW_BOT,
    SPECTATOR,
    TABLE,
    WATCHERS,
    RoomState,
    clean_name,
    reads,
)
from service.rpc.auth import game_of_token, new_token, token_hash
from service.store import EventMapper, select_firsts

ORGANIZER = "organizer"
"""The viewer an epic event's organizer token is in its room: the channel between the groups."""
MAX_MY_GAMES = 100
MAX_OPEN = 50
_MOVES = 32
"""Take-backs followed at most from a token's game to where play goes on now."""


@dataclass(frozen=True)
class SeatShown:
    seat: str
    name: str = ""
    bot: str = ""
    open: bool = False
    auto_pass: bool = False


@dataclass(frozen=True)
class Ask:
    seat: str
    at: int
    agreed: list[str]
    waiting_for: list[str]


@dataclass(frozen=True)
class RoomShown:
    """A room as one viewer may see it."""

    game_id: UUID
    game: str
    scenario: str
    viewer: str
    seats: list[SeatShown]
    messages: list[MessageSaid]
    asks: list[Ask]
    moved_to: UUID | None
    came_from: UUID | None
    came_at: int
    came_why: str
    came_seat: str
    epic: UUID | None
    reads: tuple[str, ...]
    says: tuple[str, ...]
    version: int
    heard: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class OpenGame:
    game_id: UUID
    game: str
    scenario: str
    title: str
    seats: list[SeatShown]
    version: int
    difficulty: str
    epic: UUID | None


@dataclass(frozen=True)
class MyGame:
    game_id: UUID | None
    game: str = ""
    scenario: str = ""
    viewer: str = ""
    name: str = ""
    version: int = 0
    waiting_for: str = ""
    over: bool = False
    outcome: Outcome | None = None
    error: str = ""
    epic: UUID | None = None


@dataclass(frozen=True)
class DeckRead:
    deck_format: str
    name: str
    heroes: list[str]
    cards: int
    lines: list[str]
    problems: list[str]


def says(viewer: str, epic: bool) -> tuple[str, ...]:
    """The channels ``viewer`` may say something on."""
    if viewer == REFEREE:
        return (TABLE, WATCHERS, EPIC) if epic else (TABLE, WATCHERS)
    if viewer == SPECTATOR:
        return (WATCHERS,)
    return (TABLE, EPIC) if epic else (TABLE,)


class Lobby:
    def __init__(self, service: GameService, played: Callable[[UUID], None] = lambda game_id: None) -> None:
        self.service = service
        self.app = service.app
        self.rooms = service.rooms
        self.played = played
        """Told when a game may now wait for the server to play a seat (auto-pass turned on)."""
        self._lock = threading.Lock()
        self._open: OrderedDict[UUID, None] = OrderedDict()
        """Games whose room opened with a seat open to anyone, oldest first, as far as read."""
        self._scanned = 0

    # -- the room ----------------------------------------------------------------------

    def organizer_of(self, token: str) -> UUID | None:
        """The epic event whose organizer token ``token`` is (checked); None for a token that
        names no epic event. The organizer's room is the event's channel between the groups
        (``epic``): it reads and says there what the groups' seats and referees do."""
        epic_id = game_of_token(token)
        if epic_id is None or not is_epic(self.app, epic_id):
            return None
        check_organizer(self.app, epic_id, token)
        return epic_id

    def viewer_of(self, game_id: UUID, token: str) -> tuple[UUID, str]:
        """The game and the viewer ``token`` stands for in its room: a seat, the spectator or
        the referee of ``game_id``, or the organizer of the epic event the token names."""
        try:
            return game_id, self.service.viewer(game_id, token)
        except Unauthenticated:
            epic_id = self.organizer_of(token)
            if epic_id is None:
                raise
            return epic_id, ORGANIZER

    def room(self, game_id: UUID, token: str, heard: dict[str, int] | None = None) -> RoomShown:
        game_id, viewer = self.viewer_of(game_id, token)
        return self.room_as(game_id, viewer, heard or {})

    def _organizer_room(self, epic_id: UUID, heard: dict[str, int]) -> RoomShown:
        talk = self.rooms.epic_talk(epic_id)
        fresh = [m for m in talk.messages if m.originator_version > heard.get(EPIC, 0)][-MAX_MESSAGES:]
        latest = dict(heard)
        for m in fresh:
            latest[EPIC] = max(latest.get(EPIC, 0), m.originator_version)
        return RoomShown(
            game_id=epic_id,
            game="lcg",
            scenario="",
            viewer=ORGANIZER,
            seats=[],
            messages=fresh,
            asks=[],
            moved_to=None,
            came_from=None,
            came_at=0,
            came_why="",
            came_seat="",
            epic=epic_id,
            reads=(EPIC,),
            says=(EPIC,),
            version=talk.version,
            heard=latest,
        )

    def room_as(self, game_id: UUID, viewer: str, heard: dict[str, int]) -> RoomShown:
        if viewer == ORGANIZER:
            return self._organizer_room(game_id, heard)
        service = self.service
        state = service.state(game_id)
        rules = service.app.rules_of(game_id)
        room = self.rooms.room(game_id) or RoomState(game_id)
        people = set(rules.played_by_people(state))
        seats = []
        for seat in rules.seats(state):
            plan = room.seats.get(seat)
            if seat not in people:
                seats.append(SeatShown(seat, bot=SHADOW_BOT))
            elif plan is None:
                seats.append(SeatShown(seat, auto_pass=seat in room.auto_pass))
            else:
                seats.append(SeatShown(seat, plan.name, plan.bot, plan.open, seat in room.auto_pass))
        epic = room.epic or _epic_of(state)
        channels = reads(viewer, epic is not None)
        messages = [m for m in room.messages if m.channel in channels]
        if epic is not None and EPIC in channels:
            messages += self.rooms.epic_talk(epic).messages
        fresh = [m for m in messages if m.originator_version > heard.get(m.channel, 0)][-MAX_MESSAGES:]
        latest = dict(heard)
        for m in fresh:
            latest[m.channel] = max(latest.get(m.channel, 0), m.originator_version)
        forked = _lineage(service, game_id)
        options = getattr(state, "options", None)
        return RoomShown(
            game_id=game_id,
            game=rules.name,
            scenario=str(getattr(options, "scenario", "")),
            viewer=viewer,
            seats=seats,
            messages=fresh,
            asks=self._asks(room, [s.seat for s in seats if not s.bot]),
            moved_to=room.moved.branch if room.moved is not None else None,
            came_from=forked.source if forked is not None else None,
            came_at=forked.at if forked is not None else 0,
            came_why=forked.why if forked is not None else "",
            came_seat=forked.seat if forked is not None else "",
            epic=epic,
            reads=channels,
            says=says(viewer, epic is not None),
            version=room.version + (self.rooms.epic_talk(epic).version if epic is not None else 0),
            heard=latest,
        )

    @staticmethod
    def _asks(room: RoomState, people: list[str]) -> list[Ask]:
        """The take-backs asked and not done: each seat's latest, with who agreed so far."""
        if room.moved is not None:
            return []
        latest: dict[str, int] = {}
        for note in room.asks:
            latest[note.seat] = max(latest.get(note.seat, 0), note.at)
        asks = []
        for seat, at in latest.items():
            agreed = sorted({n.by for n in room.asks if n.seat == seat and n.at == at})
            asks.append(Ask(seat, at, agreed, [s for s in people if s not in agreed]))
        return asks

    def set_seat(self, game_id: UUID, token: str, name: str, auto_pass: bool | None) -> SeatShown:
        seat = self.service.viewer(game_id, token)
        if seat in (SPECTATOR, REFEREE):
            raise PermissionDenied(say("the %(seat)s has no seat to name or pass for", seat=seat))
        shown = clean_name(name) if name else ""
        room = self.rooms.room(game_id)
        plan = room.seats.get(seat) if room is not None else None
        if shown and (plan is None or plan.name != shown or plan.open):
            self.rooms.append(
                game_id,
                lambda version: SeatTaken(
                    originator_id=room_id(game_id), originator_version=version, game_id=game_id, seat=seat, name=shown
                ),
            )
        on = room is not None and seat in room.auto_pass
        if auto_pass is not None and auto_pass != on:
            self.rooms.append(
                game_id,
                lambda version: AutoPassSet(
                    originator_id=room_id(game_id), originator_version=version, game_id=game_id, seat=seat, on=auto_pass
                ),
            )
            if auto_pass:
                self.played(game_id)
        after = self.rooms.room(game_id) or RoomState(game_id)
        now = after.seats.get(seat)
        return SeatShown(seat, now.name if now else "", "", bool(now and now.open), seat in after.auto_pass)

    def say(self, game_id: UUID, token: str, channel: str, text: str) -> MessageSaid:
        game_id, viewer = self.viewer_of(game_id, token)
        if viewer == ORGANIZER:  # the organizer talks with every group of the event
            if channel not in ("", EPIC):
                raise PermissionDenied(
                    say(
                        "the organizer cannot say anything on %(channel)s; it may on %(epic)s",
                        channel=channel[:24],
                        epic=EPIC,
                    )
                )
            return self.rooms.said(game_id, EPIC, ORGANIZER, "organizer", text, game_id)
        room = self.rooms.room(game_id)
        epic = room.epic if room is not None and room.epic is not None else _epic_of(self.service.state(game_id))
        allowed = says(viewer, epic is not None)
        channel = channel or allowed[0]
        if channel not in CHANNELS:
            raise BadRequest(
                say(
                    "unknown channel %(channel)s; the channels are %(channels)s",
                    channel=repr(channel[:24]),
                    channels=", ".join(CHANNELS),
                )
            )
        if channel not in allowed:
            raise PermissionDenied(
                say(
                    "the %(who)s cannot say anything on %(channel)s; it may on %(allowed)s",
                    who=_who(viewer),
                    channel=channel,
                    allowed=", ".join(allowed),
                )
            )
        plan = room.seats.get(viewer) if room is not None else None
        name = plan.name if plan is not None and plan.name else viewer
        return self.rooms.said(game_id, channel, viewer, name, text, epic)

    # -- the lobby ---------------------------------------------------------------------

    def join(self, game_id: UUID, seat: str, name: str) -> str:
        """Take an open seat of a listed game under ``name``; the seat's new token."""
        shown = clean_name(name)
        service = self.service
        if not service.tokens.listed(game_id):
            raise PermissionDenied(gettext("this game is not listed: its seats are taken by their links only"))
        if service.state(game_id).over is not None:
            raise PermissionDenied(gettext("the game is over: it has no seat to take"))
        fresh = new_token(game_id)

        def taken(version: int) -> SeatTaken:
            room = self.rooms.room(game_id)
            plan = room.seats.get(seat) if room is not None else None
            if plan is None or not plan.open:
                open_seats = [s for s, p in (room.seats.items() if room else ()) if p.open]
                raise AlreadyExists(
                    f"seat {seat[:24]!r} is not open to anyone"
                    + (f"; open seats: {', '.join(open_seats)}" if open_seats else "; no seat of this game is open")
                )
            return SeatTaken(
                originator_id=room_id(game_id),
                originator_version=version,
                game_id=game_id,
                seat=seat,
                name=shown,
                joined=True,
            )

        def rotated() -> list[Any]:
            version, _ = service.tokens.current(game_id)
            replaced = TokenRotated(
                originator_id=seats_id(game_id),
                originator_version=version + 1,
                game_id=game_id,
                viewer=seat,
                hash=token_hash(fresh),
            )
            return [Record(replaced)]

        self.rooms.append(game_id, taken, rotated)
        service.tokens.forget(game_id)
        return fresh

    def open_games(self, limit: int = 0) -> list[OpenGame]:
        """Listed games in progress with a seat open to anyone, newest first."""
        limit = min(limit or MAX_OPEN, MAX_OPEN)
        if limit < 0:
            raise BadRequest(gettext("limit cannot be negative"))
        self._scan()
        with self._lock:
            candidates = list(reversed(self._open))
        found: list[OpenGame] = []
        for game_id in candidates:
            if len(found) >= limit:
                break
            shown = self._still_open(game_id)
            if shown is None:
                with self._lock:
                    self._open.pop(game_id, None)  # a seat once taken is never open again
            else:
                found.append(shown)
        return found

    def _scan(self) -> None:
        """Read the rooms opened since the last look (one indexed read per 500)."""
        mapper = self.app.mapper
        assert isinstance(mapper, EventMapper)
        while True:
            with self._lock:
                after = self._scanned
            page = select_firsts(self.app.recorder, after, 500, [ROOM_TOPIC])
            with self._lock:
                for _, _, _, state in page:
                    opened = msgspec.json.decode(mapper.open_state(state), type=RoomOpened)
                    if any(p.open for p in opened.seats.values()):
                        self._open[opened.game_id] = None
                if page:
                    self._scanned = max(self._scanned, page[-1][0])
            if len(page) < 500:
                return

    def _still_open(self, game_id: UUID) -> OpenGame | None:
        service = self.service
        room = self.rooms.room(game_id)
        if room is None or room.moved is not None or not any(p.open for p in room.seats.values()):
            return None
        if not service.tokens.listed(game_id):
            return None
        try:
            state = service.state(game_id)
        except Exception:  # a damaged game is not offered to play
            return None
        if state.over is not None:
            return None
        rules = service.app.rules_of(game_id)
        options = getattr(state, "options", None)
        scenario = str(getattr(options, "scenario", ""))
        shown = self.room_as(game_id, SPECTATOR, {"watchers": 2**62})
        return OpenGame(
            game_id,
            rules.name,
            scenario,
            _title(rules.name, scenario),
            shown.seats,
            state.version,
            str(getattr(options, "difficulty", "")),
            shown.epic,
        )

    def my_games(self, refs: Sequence[tuple[str, str]]) -> list[MyGame]:
        """Where the game of each (game id, token) stands now, each on its own."""
        if len(refs) > MAX_MY_GAMES:
            raise BadRequest(say("at most %(max_my_games)s games in one call", max_my_games=MAX_MY_GAMES))
        return [self._my_game(game, token) for game, token in refs]

    def _my_game(self, game: str, token: str) -> MyGame:
        service = self.service
        try:
            game_id = parse_game_id(game, token)
            viewer = service.viewer(game_id, token)
            for _ in range(_MOVES):
                room = self.rooms.room(game_id)
                if room is None or room.moved is None:
                    break
                game_id = room.moved.branch
            state = service.state(game_id)
        except Exception as error:  # this token's game only: the others are still told
            return MyGame(None, error=str(error)[:300] or type(error).__name__)
        rules = service.app.rules_of(game_id)
        room = self.rooms.room(game_id)
        plan = room.seats.get(viewer) if room is not None else None
        options = getattr(state, "options", None)
        pending = state.pending
        return MyGame(
            game_id,
            rules.name,
            str(getattr(options, "scenario", "")),
            viewer,
            plan.name if plan is not None else "",
            state.version,
            pending.seat if pending is not None else "",
            state.over is not None,
            state.over,
            "",
            (room.epic if room is not None else None) or _epic_of(state),
        )

    # -- decks -------------------------------------------------------------------------

    @staticmethod
    def check_deck(deck: Sequence[str], deck_format: str) -> DeckRead:
        """The deck as CreateGame reads it (the same importer), with every problem it has."""
        from domain.lcg.cards import CARDS
        from domain.lcg.decks import problems
        from domain.lcg.decks.formats import detect
        from domain.lcg.decks.ready_made import ready_made

        read = player_deck(PlayerSetup(deck=tuple(deck), deck_format=deck_format))
        if read is None:
            raise BadRequest(gettext("no deck was sent"))
        ready = len(deck) == 1 and not deck_format and deck[0].strip() in ready_made()
        return DeckRead(
            "ready-made" if ready else deck_format or detect("\n".join(deck)),
            read.name,
            [CARDS[h].name if h in CARDS else h for h in read.heroes],
            read.size,
            [f"{n}x {CARDS[code].name}" for code, n in read.cards if code in CARDS],
            problems(read),
        )


def _epic_of(state: Any) -> UUID | None:
    epic = str(getattr(getattr(state, "options", None), "epic", "") or "")
    return UUID(epic) if epic else None


def _lineage(service: GameService, game_id: UUID) -> Any:
    from service.lineage import lineage

    return lineage(service.app, game_id)


def _title(game: str, scenario: str) -> str:
    for kind in catalog():
        if kind.game == game:
            for found in kind.scenarios:
                if found.key == scenario:
                    return found.title
    return scenario


def _who(viewer: str) -> str:
    return viewer if viewer in (SPECTATOR, REFEREE) else f"seat {viewer}"
