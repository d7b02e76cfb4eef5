"""Small records the service keeps beside each game, in the same event store.

- :class:`SeatsAssigned`: the SHA-256 hashes of a game's access tokens, one per seat plus
  the spectator and the referee (never the tokens themselves). Its id is
  ``uuid5(game id, "seats")``; it is saved in the same transaction as the game's first
  events, so every server process on the same database can check tokens.
- :class:`CommandApplied`: that a seat's command (by its client-chosen command id) was
  applied, and which versions it produced. Its id is ``uuid5(game id,
  "command/<seat>/<command id>")``; it is saved in the same transaction as the events the
  command produced, so a command id is applied at most once, across processes and crashes:
  a second insert of the same id fails like any concurrent update.
- :class:`LogLength`: how long a game's log is after each commit, and its last hash. Its id
  is ``uuid5(game id, "length")``, its version the game's version after the commit; one is
  saved in the same transaction as every commit's events, so a log whose last commit was
  deleted whole (every row of it: the rest still chains and ends at a question) is told
  from a log that was never longer.
- The room around a game (:class:`RoomOpened` and its later versions, ``service/room.py``):
  who sits in each seat, table talk, take-backs asked; beside the game, never in its log.

Each record is a one-event aggregate (:class:`Record`), so the ``eventsourcing``
application saves it with the game in one ``save`` call.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from functools import lru_cache
from typing import Any
from uuid import UUID, uuid5

import msgspec

from domain.lcg.epic import ContributionCounted, EffectRelayed, EpicOpened, GroupFollowed, GroupMoved, TotalReached

SEATS_TOPIC = "westmarch.service.seats"
COMMAND_TOPIC = "westmarch.service.command"
FORKED_TOPIC = "westmarch.service.forked"
TABLE_TOPIC = "westmarch.service.table"
TAKE_BACK_ASKED_TOPIC = "westmarch.service.take-back-asked"
TAKE_BACK_DONE_TOPIC = "westmarch.service.take-back-done"
TOKEN_ROTATED_TOPIC = "westmarch.service.token-rotated"
LENGTH_TOPIC = "westmarch.service.length"
DAMAGE_TOPIC = "westmarch.service.damage"
ROOM_TOPIC = "westmarch.service.room"
"""The first version of a game's room (:class:`RoomOpened`): rooms are listed by it."""


class SeatsAssigned(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int = 1
    game_id: UUID
    hashes: dict[str, str]
    """Viewer (``p1``..., ``spectator``, ``referee``) to the hex SHA-256 of its token."""
    request: str = ""
    """For a game created with a request id: the SHA-256 of the request (a retry must match)."""
    unlisted: bool = False
    """Kept out of the public listing (ListGames): the game is reached by its tokens only."""
    timestamp: datetime | None = None


class TokenRotated(msgspec.Struct, frozen=True, kw_only=True):
    """A viewer's token replaced (``westmarch tokens --rotate``, ``RotateToken``): the old
    token is refused from then on, in every server process. The next version of the game's
    seats record (the same id as its :class:`SeatsAssigned`), so two rotations at once
    cannot both be saved, and every process sees the rotation in the record's last version."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    viewer: str
    hash: str
    """The hex SHA-256 of the new token."""
    timestamp: datetime | None = None


class CommandApplied(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int = 1
    game_id: UUID
    seat: str
    command_id: str
    decision: int
    choice: tuple[str, ...]
    before: int
    """The game's version before the command."""
    after: int
    """The game's version after it: the command produced events ``before + 1 .. after``."""
    timestamp: datetime | None = None


class LogLength(msgspec.Struct, frozen=True, kw_only=True):
    """A game's log after a commit: ``originator_version`` is its length (the game's last
    version), ``head`` the hash of its last event. One row per commit (the events table is
    only appended to), written in the commit's transaction (see ``Westmarch._save``)."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    head: str
    timestamp: datetime | None = None


class DamageFound(msgspec.Struct, frozen=True, kw_only=True):
    """A server process found something stored of a game damaged: ``what`` says what (as
    listings show it), ``record`` names the record beside the game that cannot be decoded
    (None: the game's own log). Its id is ``uuid5(game id, "damage")``, a new version for
    each finding that differs from the last, so every process's listing marks the game, not
    only the listing of the process that found it (see ``Westmarch.damage_found``)."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    what: str
    record: UUID | None = None
    timestamp: datetime | None = None


class OrganizerKey(msgspec.Struct, frozen=True, kw_only=True):
    """The SHA-256 of an epic event organizer's token (never the token); its id is
    ``uuid5(epic id, "organizer")``."""

    originator_id: UUID
    originator_version: int = 1
    epic_id: UUID
    hash: str
    timestamp: datetime | None = None


class GameForked(msgspec.Struct, frozen=True, kw_only=True):
    """Where a game came from: the first ``at`` events of ``source``. ``why`` is ``fork``
    (a "what if") or ``take-back`` (a seat took back its decision; the source game, with
    the decision taken back, stays as it was). Its id is ``uuid5(game id, "forked")``,
    saved with the new game's first events."""

    originator_id: UUID
    originator_version: int = 1
    game_id: UUID
    source: UUID
    at: int
    why: str = "fork"
    seat: str = ""
    """With a take-back: the seat whose decision was taken back."""
    timestamp: datetime | None = None


class TableSeated(msgspec.Struct, frozen=True, kw_only=True):
    """Who plays a game at the terminal table: which seats are bots (and what kind), which
    are played by the people at it, and whether action windows are passed for them.
    ``westmarch play`` saves one whenever the seating changes and resumes with the latest.
    Its id is ``uuid5(game id, "table")``; each change is a new version."""

    originator_id: UUID
    originator_version: int = 1
    game_id: UUID
    bots: dict[str, str]
    """Seat to bot kind (``greedy``, ``random``)."""
    seats: tuple[str, ...] = ()
    """Seats played here; empty: every seat that is not a bot."""
    auto_pass: bool = False
    seed: int = 1
    timestamp: datetime | None = None


class TakeBackAsked(msgspec.Struct, frozen=True, kw_only=True):
    """A viewer of a game on the service asked (or consented) that ``seat`` take back the
    decision asked at version ``at``. Id: ``uuid5(game id, "take-back/<seat>/<at>/<by>")``."""

    originator_id: UUID
    originator_version: int = 1
    game_id: UUID
    seat: str
    at: int
    by: str
    timestamp: datetime | None = None


class TakeBackDone(msgspec.Struct, frozen=True, kw_only=True):
    """The take-back of ``seat``'s decision asked at ``at`` happened: play goes on in
    ``branch``. Id: ``uuid5(game id, "take-back/<seat>/<at>")``, saved with the branch's
    first events, so a take-back happens once however many ask at the same time."""

    originator_id: UUID
    originator_version: int = 1
    game_id: UUID
    seat: str
    at: int
    branch: UUID
    timestamp: datetime | None = None


# -- the room around a game (service/room.py): one record kept in versions, beside the game --


class SeatPlanned(msgspec.Struct, frozen=True, kw_only=True):
    """Who plays one seat: a person (named, or free while ``name`` is empty) or a bot."""

    name: str = ""
    bot: str = ""
    """A bot kind (``bots.make_bot``) the server plays the seat with; empty: a person."""
    open: bool = False
    """A person's seat anyone may take from the lobby (while the game is listed); a seat
    that is not open is reached only by its link."""


class RoomOpened(msgspec.Struct, frozen=True, kw_only=True):
    """A game's room: who sits in each seat, saved with the game's first events (so bot seats
    are known to every server process, and after a restart). Id: ``uuid5(game id, "room")``;
    everything said or set at the table later is a next version of the same record."""

    originator_id: UUID
    originator_version: int = 1
    game_id: UUID
    seats: dict[str, SeatPlanned]
    auto_pass: tuple[str, ...] = ()
    """Seats whose action windows the server passes."""
    bot_seed: int = 0
    """The seed the room's bots are made with (each seat's from it and the seat's name)."""
    epic: UUID | None = None
    """The epic event the game is a group of."""
    timestamp: datetime | None = None


class SeatTaken(msgspec.Struct, frozen=True, kw_only=True):
    """A person took a seat under ``name``, or renamed themselves; ``joined``: through the
    lobby (the seat's token was replaced in the same transaction)."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    seat: str
    name: str
    joined: bool = False
    timestamp: datetime | None = None


class AutoPassSet(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int
    game_id: UUID
    seat: str
    on: bool
    timestamp: datetime | None = None


class MessageSaid(msgspec.Struct, frozen=True, kw_only=True):
    """Table talk: ``text`` said by ``by`` (a seat, ``spectator`` or ``referee``) on ``channel``.
    In a room (``table``, ``watchers``), or in an epic event's talk (``epic``: its id is
    ``uuid5(epic id, "talk")``, and ``game_id`` is the group of the one who said it)."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    channel: str
    by: str
    name: str
    text: str
    at: int
    """Milliseconds since 1970."""
    timestamp: datetime | None = None


class TakeBackNoted(msgspec.Struct, frozen=True, kw_only=True):
    """``by`` asked (or agreed) that ``seat`` take back the decision asked at ``at`` (the
    ask itself is :class:`TakeBackAsked`; this tells the room, so every page shows it)."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    seat: str
    at: int
    by: str
    timestamp: datetime | None = None


class PlayMoved(msgspec.Struct, frozen=True, kw_only=True):
    """Play went on in ``branch`` (``seat``'s decision asked at ``at`` was taken back)."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    seat: str
    at: int
    branch: UUID
    timestamp: datetime | None = None


RoomRecord = RoomOpened | SeatTaken | AutoPassSet | MessageSaid | TakeBackNoted | PlayMoved

ServiceRecord = (
    SeatsAssigned
    | TokenRotated
    | CommandApplied
    | GameForked
    | TableSeated
    | TakeBackAsked
    | TakeBackDone
    | LogLength
    | DamageFound
    | RoomRecord
)

TOPICS: dict[type[Any], str] = {
    SeatsAssigned: SEATS_TOPIC,
    TokenRotated: TOKEN_ROTATED_TOPIC,
    CommandApplied: COMMAND_TOPIC,
    GameForked: FORKED_TOPIC,
    TableSeated: TABLE_TOPIC,
    TakeBackAsked: TAKE_BACK_ASKED_TOPIC,
    TakeBackDone: TAKE_BACK_DONE_TOPIC,
    LogLength: LENGTH_TOPIC,
    DamageFound: DAMAGE_TOPIC,
    RoomOpened: ROOM_TOPIC,
    SeatTaken: "westmarch.service.room.seat-taken",
    AutoPassSet: "westmarch.service.room.auto-pass",
    MessageSaid: "westmarch.service.room.said",
    TakeBackNoted: "westmarch.service.room.take-back",
    PlayMoved: "westmarch.service.room.moved",
    # Epic Multiplayer: the event organizer's aggregate and its token (service/epic.py)
    EpicOpened: "westmarch.epic.opened",
    ContributionCounted: "westmarch.epic.counted",
    EffectRelayed: "westmarch.epic.relayed",
    TotalReached: "westmarch.epic.reached",
    GroupFollowed: "westmarch.epic.followed",  # written before tracking records; read only
    GroupMoved: "westmarch.epic.moved",
    OrganizerKey: "westmarch.epic.organizer",
}
ROOM_TOPICS = [TOPICS[kind] for kind in (RoomOpened, SeatTaken, AutoPassSet, MessageSaid, TakeBackNoted, PlayMoved)]
"""What changes a room (or an epic event's talk): a server process polls for them to wake its pages."""
DECODERS: dict[str, msgspec.json.Decoder[Any]] = {topic: msgspec.json.Decoder(kind) for kind, topic in TOPICS.items()}


@lru_cache(maxsize=16_384)
def seats_id(game_id: UUID) -> UUID:
    """The id of a game's seats record (cached: every call with a token names it, to check
    the token against the record's last version)."""
    return uuid5(game_id, "seats")


def command_id(game_id: UUID, seat: str, command: str) -> UUID:
    # uuid5 as uuid.uuid5 computes it (RFC 4122, 4.3: SHA-1 of the namespace's bytes and
    # the name's UTF-8), written out: the library's imports hashlib at every call, once a
    # command (7 k instructions of the floor's 2.21 M, callgrind)
    digest = hashlib.sha1(game_id.bytes + bytes(f"command/{seat}/{command}", "utf-8")).digest()
    return UUID(bytes=digest[:16], version=5)


@lru_cache(maxsize=16_384)
def length_id(game_id: UUID) -> UUID:
    """The id of the record of a game's log length (a UUID v5, cached: every command names
    it three times, checking the log, saving, and reading it back)."""
    return uuid5(game_id, "length")


def damage_id(game_id: UUID) -> UUID:
    return uuid5(game_id, "damage")


def forked_id(game_id: UUID) -> UUID:
    return uuid5(game_id, "forked")


def table_id(game_id: UUID) -> UUID:
    return uuid5(game_id, "table")


def take_back_asked_id(game_id: UUID, seat: str, at: int, by: str) -> UUID:
    return uuid5(game_id, f"take-back/{seat}/{at}/{by}")


def take_back_done_id(game_id: UUID, seat: str, at: int) -> UUID:
    return uuid5(game_id, f"take-back/{seat}/{at}")


@lru_cache(maxsize=16_384)
def room_id(game_id: UUID) -> UUID:
    """The id of a game's room record (cached: every command a server saves names it, to
    read whether the room leaves the server a bot to play)."""
    return uuid5(game_id, "room")


def epic_talk_id(epic_id: UUID) -> UUID:
    return uuid5(epic_id, "talk")


class Record:
    """A one-event aggregate around a service record, for ``Application.save``."""

    def __init__(self, event: ServiceRecord) -> None:
        self.id = event.originator_id
        self.version = event.originator_version
        self._event = event
        self._pending: list[ServiceRecord] = [event]

    @property
    def pending_event(self) -> ServiceRecord:
        return self._event

    def collect_events(self) -> list[ServiceRecord]:
        pending, self._pending = self._pending, []
        return pending
