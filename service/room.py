"""The room around a game: who sits in each seat, table talk, the take-backs asked.

A room is one record kept in versions beside its game, in the same store
(:class:`~service.records.RoomOpened` first, saved with the game's first events, then
:class:`~service.records.SeatTaken`, :class:`~service.records.AutoPassSet`,
:class:`~service.records.MessageSaid`, ...), never in the game's own log: what is said or
set at the table changes no event of the game, its hash chain or its verdict. An epic
event's talk between its groups is a record of its own (``uuid5(epic id, "talk")``).

Each next version is saved with optimistic concurrency on the record's version (two things
said at once: one is saved, the other is numbered again and saved after it). A process
keeps each room it read in memory with its version, and reads only the versions after it
once one indexed read of the record's last version says it moved.

Who reads what (the channels of table talk):

- ``table``: the seats of the game (in an epic event: of its group) and the referee;
- ``epic``: the seats and referees of every group of an epic event;
- ``watchers``: the spectator and the referee.

A seat is never sent ``watchers``, and the spectator never ``table`` or ``epic``: what a
player types about their hand reaches no one who may not see it.
"""

from __future__ import annotations

import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.kernel.ruleset import Ruleset
from domain.kernel.state import State
from projections.i18n import gettext, say
from service.app import Westmarch
from service.errors import BadRequest, PermissionDenied
from service.records import (
    AutoPassSet,
    MessageSaid,
    PlayMoved,
    Record,
    RoomOpened,
    RoomRecord,
    SeatPlanned,
    SeatTaken,
    TakeBackNoted,
    epic_talk_id,
    room_id,
)

REFEREE = "referee"
SPECTATOR = "spectator"
TABLE, EPIC, WATCHERS = "table", "epic", "watchers"
CHANNELS = (TABLE, EPIC, WATCHERS)
SHADOW_BOT = "shadow"
"""How a room names a seat the rules play (Against the Shadow's Shadow bots)."""
SWEEP_SECONDS = 5.0
"""Seconds between two sweeps of a server process for games waiting for a bot that no
process is playing (``service/autoplay.py``): longer than a bot's decision takes (the
search bot's is 2 s), so a game another process is playing moves between two sweeps and
is left to it. Here, not in ``service/autoplay.py``, so the command line's help can say
it without loading the bots."""
MAX_NAME = 40
MAX_TEXT = 500
MAX_MESSAGES = 200
"""Messages sent in one answer at most (the latest); a client asks again for older ones."""
SAVE_TRIES = 8
"""A next version lost to another saved at the same moment is numbered again, this often."""
_CACHE = 4096


@dataclass(frozen=True)
class SeatPlan:
    """Who a game's creator puts in a seat (``SeatPlan`` of the proto)."""

    seat: str
    name: str = ""
    bot: str = ""
    open: bool = False


@dataclass
class RoomState:
    """A room folded from its record's versions."""

    game_id: UUID
    version: int = 0
    seats: dict[str, SeatPlanned] = field(default_factory=dict)
    auto_pass: set[str] = field(default_factory=set)
    bot_seed: int = 0
    epic: UUID | None = None
    messages: list[MessageSaid] = field(default_factory=list)
    asks: list[TakeBackNoted] = field(default_factory=list)
    moved: PlayMoved | None = None

    @property
    def bots(self) -> dict[str, str]:
        return {seat: plan.bot for seat, plan in self.seats.items() if plan.bot}

    def apply(self, event: RoomRecord) -> None:
        self.version = event.originator_version
        match event:
            case RoomOpened():
                self.seats = dict(event.seats)
                self.auto_pass = set(event.auto_pass)
                self.bot_seed, self.epic = event.bot_seed, event.epic
            case SeatTaken():
                self.seats[event.seat] = SeatPlanned(name=event.name)
            case AutoPassSet():
                (self.auto_pass.add if event.on else self.auto_pass.discard)(event.seat)
            case MessageSaid():
                self.messages.append(event)
            case TakeBackNoted():
                self.asks.append(event)
            case PlayMoved():
                self.moved = event


def clean_name(name: str) -> str:
    """A player's name as shown: one line, its spaces collapsed; BadRequest if empty or long."""
    shown = " ".join("".join(c for c in name if unicodedata.category(c)[0] != "C").split())
    if not shown or len(shown) > MAX_NAME:
        raise BadRequest(
            say("a name is 1 to %(max_name)s characters (not counting spaces at either end)", max_name=MAX_NAME)
        )
    return shown


def clean_text(text: str) -> str:
    """A message as kept: control characters but line breaks removed; BadRequest if empty or long."""
    kept = "".join(c for c in text if c == "\n" or unicodedata.category(c)[0] != "C").strip()
    if not kept or len(kept) > MAX_TEXT:
        raise BadRequest(say("a message is 1 to %(max_text)s characters", max_text=MAX_TEXT))
    return kept


def reads(viewer: str, epic: bool) -> tuple[str, ...]:
    """The channels ``viewer`` is sent."""
    if viewer == REFEREE:
        return (TABLE, EPIC, WATCHERS) if epic else (TABLE, WATCHERS)
    if viewer == SPECTATOR:
        return (WATCHERS,)
    return (TABLE, EPIC) if epic else (TABLE,)


def plan_room(
    rules: Ruleset[Any], state: State, game_id: UUID, seating: Sequence[SeatPlan], epic: UUID | None = None
) -> RoomOpened:
    """The room a new game opens with (BadRequest, nothing saved, for a seat the game has
    not, one named twice, a bot that is not offered, a bot in a seat the rules play)."""
    from bots import BOTS

    people = rules.played_by_people(state)
    every = rules.seats(state)
    planned: dict[str, SeatPlanned] = {seat: SeatPlanned() for seat in people}
    given: set[str] = set()
    for plan in seating:
        if plan.seat not in every:
            raise BadRequest(
                say(
                    "seating: the game has no seat %(seat)s; its seats are %(every)s",
                    seat=repr(plan.seat[:24]),
                    every=", ".join(every),
                )
            )
        if plan.seat in given:
            raise BadRequest(say("seating: seat %(seat)s is given twice", seat=plan.seat))
        given.add(plan.seat)
        if plan.seat not in people:
            raise BadRequest(
                say("seating: the rules play seat %(seat)s (a Shadow bot): it takes no person or bot", seat=plan.seat)
            )
        if plan.bot and plan.bot not in BOTS:
            raise BadRequest(
                say(
                    "seating: unknown bot %(bot)s for %(seat)s; offered: %(bots)s",
                    bot=repr(plan.bot[:24]),
                    seat=plan.seat,
                    bots=", ".join(BOTS),
                )
            )
        if plan.bot and (plan.name or plan.open):
            raise BadRequest(say("seating: seat %(seat)s is a bot's; it takes no name and is not open", seat=plan.seat))
        if plan.name and plan.open:
            raise BadRequest(
                say(
                    "seating: seat %(seat)s is %(name)s's; it cannot be open to anyone too",
                    seat=plan.seat,
                    name=repr(plan.name[:24]),
                )
            )
        name = clean_name(plan.name) if plan.name else ""
        planned[plan.seat] = SeatPlanned(name=name, bot=plan.bot, open=plan.open)
    return RoomOpened(
        originator_id=room_id(game_id),
        game_id=game_id,
        seats=planned,
        bot_seed=secrets.randbelow(2**31),
        epic=epic,
    )


class Rooms:
    """Reads and extends the rooms of one application's games (thread-safe)."""

    def __init__(self, app: Westmarch, people: Callable[[UUID], Sequence[str]]) -> None:
        self.app = app
        self.people = people
        """A game's seats played by people (a room opened later starts with them, unnamed)."""
        self._lock = threading.Lock()
        self._cache: OrderedDict[UUID, RoomState] = OrderedDict()
        self.on_change: list[Callable[[UUID], None]] = []
        """Told of every room (or epic talk) this process changed, by its record's id."""

    # -- reading -----------------------------------------------------------------------

    def room(self, game_id: UUID) -> RoomState | None:
        """The game's room as stored now; None for a game that has none yet (one created
        without seating, or by ``westmarch new``: its seats are its people's, unnamed)."""
        return self._read(room_id(game_id), game_id)

    def epic_talk(self, epic_id: UUID) -> RoomState:
        """What the groups of an epic event said to one another."""
        return self._read(epic_talk_id(epic_id), epic_id) or RoomState(epic_id)

    def _read(self, record: UUID, owner: UUID) -> RoomState | None:
        latest = self.app.record_version(record)
        if not latest:
            return None
        with self._lock:
            known = self._cache.get(record)
            if known is not None and known.version == latest:
                self._cache.move_to_end(record)
                return known
        state = RoomState(owner) if known is None else _copy(known)
        for stored in self.app.recorder.select_events(record, gt=state.version or None):
            event: RoomRecord = self.app.mapper.to_domain_event(stored)  # type: ignore[assignment]
            state.apply(event)
        with self._lock:
            found = self._cache.get(record)
            if found is None or found.version < state.version:
                self._cache[record] = state
                self._cache.move_to_end(record)
                while len(self._cache) > _CACHE:
                    self._cache.popitem(last=False)
        return state

    # -- extending ---------------------------------------------------------------------

    def append(
        self,
        game_id: UUID,
        make: Callable[[int], RoomRecord],
        also: Callable[[], Sequence[Any]] = tuple,
    ) -> RoomRecord:
        """Save ``make(version)`` as the room's next version (with ``also()``, the records that
        go in the same transaction), numbering it again if another was saved first. A game
        without a room yet gets one first, in the same transaction."""
        record = room_id(game_id)

        def with_opening() -> Sequence[Any]:
            if self.app.record_version(record):
                return also()
            seats = {seat: SeatPlanned() for seat in self.people(game_id)}
            opening = RoomOpened(originator_id=record, game_id=game_id, seats=seats, bot_seed=secrets.randbelow(2**31))
            return [Record(opening), *also()]

        def make_after_opening(version: int) -> RoomRecord:
            return make(version if version > 1 else 2)

        return self._append(record, game_id, make_after_opening, with_opening)

    def say_epic(self, epic_id: UUID, make: Callable[[int], MessageSaid]) -> MessageSaid:
        said = self._append(epic_talk_id(epic_id), epic_id, make, tuple)
        assert isinstance(said, MessageSaid)
        return said

    def _append(
        self, record: UUID, owner: UUID, make: Callable[[int], RoomRecord], also: Callable[[], Sequence[Any]]
    ) -> RoomRecord:
        for _ in range(SAVE_TRIES):
            version = self.app.record_version(record) + 1
            event = make(version)
            try:
                with self.app.writing:
                    self.app.save(Record(event), *also())
            except IntegrityError:
                continue
            self._told(record)
            return event
        raise PermissionDenied(
            gettext("the room is too busy just now (others said something at the same moment); try again")
        )

    def _told(self, record: UUID) -> None:
        for listener in self.on_change:
            listener(record)

    def opened(self, room: RoomOpened) -> None:
        """A room saved with its game (by the caller, in the game's transaction)."""
        self._told(room.originator_id)

    def said(self, game_id: UUID, channel: str, by: str, name: str, text: str, epic: UUID | None) -> MessageSaid:
        """``text`` said by ``by`` on ``channel``, saved in the room (or the epic event's talk)."""
        text = clean_text(text)
        at = int(time.time() * 1000)

        def message(record: UUID) -> Callable[[int], MessageSaid]:
            def make(version: int) -> MessageSaid:
                return MessageSaid(
                    originator_id=record,
                    originator_version=version,
                    game_id=game_id,
                    channel=channel,
                    by=by,
                    name=name,
                    text=text,
                    at=at,
                )

            return make

        if channel == EPIC:
            if epic is None:
                raise BadRequest(gettext("this game is not a group of an epic event: it has no epic channel"))
            return self.say_epic(epic, message(epic_talk_id(epic)))
        said = self.append(game_id, message(room_id(game_id)))
        assert isinstance(said, MessageSaid)
        return said


def carried(room: RoomState | None, new_id: UUID, keep_names: bool) -> RoomOpened | None:
    """The room of a game made from another (a take-back keeps everyone in their seats; a
    fork keeps its bots, and its people's seats are free: new tokens go with them)."""
    if room is None:
        return None
    seats = {seat: plan if keep_names or plan.bot else SeatPlanned() for seat, plan in room.seats.items()}
    return RoomOpened(
        originator_id=room_id(new_id),
        game_id=new_id,
        seats=seats,
        auto_pass=tuple(sorted(room.auto_pass)) if keep_names else (),
        bot_seed=room.bot_seed,
        epic=room.epic,
    )


def _copy(state: RoomState) -> RoomState:
    return replace(
        state,
        seats=dict(state.seats),
        auto_pass=set(state.auto_pass),
        messages=list(state.messages),
        asks=list(state.asks),
    )
