"""The seats the server plays itself: a game's bot seats, and the action windows of seats
on auto-pass.

Who they are is in the game's room (``service/room.py``), saved with the game, so every
server process knows them, and knows them again after a restart. After each command this
process saves on a game (and when a page opens its room), the game is looked at: while its
pending decision is a bot seat's, or an action window of a seat on auto-pass, it is answered.

A sweep finds the games no one is answering: at start every room's game (a game left
waiting for a bot when its server stopped, or when a process of ``serve --processes`` died
and was restarted), then every ``SWEEP_SECONDS`` the games that waited for the server a
whole interval without moving (the process playing them died, the others live on). It reads
the store's notification log since the last sweeps and, for a game that did not move, its
last event: a store of many finished games costs one empty range read a sweep, since a game
found over is not watched again, nor one found waiting for a person until it moves.

An answer is a command like a person's, through the same path
(:meth:`~service.commands.GameService.submit_as`): checked against the pending decision,
saved with optimistic concurrency and a :class:`~service.records.CommandApplied` record,
watched, followed by the epic organizer. A bot decides from its seat's view of the table,
the one a person's page is sent (never the whole state). The command id is the decision's
(``bot/<decision id>``, ``auto-pass/<decision id>``): two processes answering the same
decision at once save one answer, and the other finds it by its id, as any retried command
does.

The answers are made on threads of their own, a game at most ``STEPS`` decisions in a turn
before the next game waiting gets its turn, so games played by bots alone neither hold the
request threads nor keep other games' bots waiting. The search bot's seconds of pure-Python
search run in a process of their own (as ``AnalyzeDecision``'s do), started on its first
decision: run on a thread, they would hold the interpreter every game is served from.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import zlib
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any
from uuid import UUID

import msgspec

from bots import DEFAULT_SEARCH_SECONDS, Bot, is_action_window, make_bot
from domain.kernel.decisions import Choice, Decision, NotYourDecision, RuleError
from domain.kernel.events import DecisionRequested, GameEnded
from domain.rulesets import names
from service.app import DamagedGame, UnknownGame
from service.commands import GameService
from service.records import ROOM_TOPIC, TOPICS, AutoPassSet, PlayMoved, RoomOpened, room_id
from service.room import SWEEP_SECONDS
from service.store import CREATED_TOPIC, EVENT_TOPIC, EventMapper, select_firsts, select_moves

log = logging.getLogger("westmarch.autoplay")
STEPS = 25
"""Decisions one game is given in a turn before the next game waiting gets its turn."""
THREADS = 2
SEARCH = "search"
"""The bot that searches (``bots/search.py``): its choices are made in a process of their own."""
_BOTS = 1024


def _table(table: bytes, game: str) -> Any:
    """The seat's view of the table, as its page is sent it, read back into the game's view."""
    if game == "lcg":
        from projections.lcg import TableView

        return msgspec.json.decode(table, type=TableView)
    from projections.wotr import TableView as WotrTable

    return msgspec.json.decode(table, type=WotrTable)


class Autoplay:
    """Plays the bot seats and auto-pass windows of one service's games."""

    def __init__(self, service: GameService, threads: int = THREADS, every: float = SWEEP_SECONDS) -> None:
        self.service = service
        self.every = every
        """Seconds between two sweeps (0: only the sweep at start)."""
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="westmarch-autoplay")
        self._lock = threading.Lock()
        self._queued: set[UUID] = set()
        self._again: set[UUID] = set()
        self._bots: OrderedDict[tuple[UUID, str, int], Bot] = OrderedDict()
        self._closed = False
        self._searches: ProcessPoolExecutor | None = None
        self.search_seconds = DEFAULT_SEARCH_SECONDS
        """CPU seconds the search bot spends on one decision."""
        self.answered = 0
        """Decisions answered by this process (bots and auto-pass); one another process
        answered first is not counted."""
        self.sweeps = 0
        """Sweeps done (the one at start, then the periodic ones)."""
        self.looks = 0
        """Games' last events read by the sweeps."""
        self._stop = threading.Event()
        self._sweeper: threading.Thread | None = None
        self._watched: dict[UUID, _Watched] = {}
        """Games with a room, not known to be over: only the sweep thread touches it."""
        self._rooms: dict[UUID, UUID] = {}
        """The room record of each watched game, to its game."""
        self._marks = [0, 0]
        """The notification log's last id read by the tick before last and by the last."""
        self._topics = [t.format(ruleset=n) for n in names() for t in (EVENT_TOPIC, CREATED_TOPIC)] + [
            TOPICS[kind] for kind in (RoomOpened, AutoPassSet, PlayMoved)
        ]

    def notify(self, game_id: UUID, version: int = 0) -> None:
        """The game changed (or may wait for a bot): look at it soon."""
        with self._lock:
            if self._closed:
                return
            if game_id in self._queued:
                self._again.add(game_id)
                return
            self._queued.add(game_id)
        self._executor.submit(self._turn, game_id)

    def committed(self, game_id: UUID, version: int = 0) -> None:
        """This process saved a command on the game (the service's ``on_commit``): as
        :meth:`notify`, but no turn is handed to the autoplay threads when the game's room,
        read here after the save, leaves the server nothing to play (no room, no bot seat
        nor seat on auto-pass, or play moved elsewhere), which is what the turn would have
        found: most commands are people's, on games without bots. A room changed after
        this read is acted on by whoever changed it (its process looks at the game then,
        and sees this save), as it would be after the turn's own read."""
        with self._lock:
            if self._closed:
                return
            busy = game_id in self._queued
        if not busy and self._nothing_to_play(game_id):
            return
        self.notify(game_id, version)

    def _nothing_to_play(self, game_id: UUID) -> bool:
        """Whether the game's room leaves the server nothing to play (see :meth:`committed`);
        False if it cannot be read (the turn reads it again, and logs what went wrong)."""
        try:
            room = self.service.rooms.room(game_id)
        except Exception:
            return False
        return room is None or room.moved is not None or not (room.bots or room.auto_pass)

    def sweep(self) -> None:
        """Start sweeping, on a thread of its own: at once every game with a room (a game
        left waiting for a bot when a server stopped goes on, and a restarted process of
        ``serve --processes`` takes up what its predecessor left), then every
        :attr:`every` seconds the games that stopped moving while the server is to answer
        them (another process playing them died)."""
        if self._sweeper is not None:
            return
        self._sweeper = threading.Thread(
            target=self._sweeping, args=(self.every,), name="westmarch-bot-sweep", daemon=True
        )
        self._sweeper.start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._stop.set()
        if self._sweeper is not None:
            self._sweeper.join(30)
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self._searches is not None:
            self._searches.shutdown(wait=True, cancel_futures=True)

    # -- turns -------------------------------------------------------------------------

    def _turn(self, game_id: UUID) -> None:
        more = False
        try:
            more = self._play(game_id, STEPS)
        except Exception:
            log.exception("playing the bot seats of game %s failed", game_id)
        with self._lock:
            again = game_id in self._again
            self._again.discard(game_id)
            if (more or again) and not self._closed:
                self._executor.submit(self._turn, game_id)  # behind the games waiting now
            else:
                self._queued.discard(game_id)

    def _play(self, game_id: UUID, steps: int) -> bool:
        """Answer up to ``steps`` decisions of the game that are the server's to answer;
        whether there may be more."""
        service = self.service
        for _ in range(steps):
            room = service.rooms.room(game_id)
            if room is None or room.moved is not None:  # play went on elsewhere (a take-back)
                return False
            bots = room.bots
            if not bots and not room.auto_pass:
                return False
            try:
                seat = service.state(game_id).pending
            except (UnknownGame, DamagedGame):
                return False
            if seat is None:
                return False
            decision = seat
            if decision.seat in bots:
                view = service.view_as(game_id, decision.seat)
                if view.decision is None or view.decision.id != decision.id:
                    continue  # moved on meanwhile: look again
                others = frozenset(seat for seat in bots if seat != decision.seat)
                if bots[decision.seat] == SEARCH:
                    seed = room.bot_seed ^ zlib.crc32(decision.seat.encode()) ^ decision.id
                    choice = self._search(game_id, view.game, view.decision, view.table, seed, others)
                else:
                    bot = self._bot(game_id, decision.seat, bots[decision.seat], room.bot_seed, view.game, others)
                    choice = bot.choose(view.decision, partial(_table, view.table, view.game))
                command = f"bot/{decision.id}"
            elif decision.seat in room.auto_pass and is_action_window(decision):
                choice, command = ("pass",), f"auto-pass/{decision.id}"
            else:
                return False
            try:
                result = service.submit_as(game_id, decision.seat, 0, decision.id, choice, command)
            except NotYourDecision:
                continue
            except RuleError as error:  # another process answered first (a stale version): look again
                log.debug("game %s: %s", game_id, error)
                continue
            if not result.replayed:  # else another process answered it first: its answer stands
                self.answered += 1
        return True

    def _bot(self, game_id: UUID, seat: str, kind: str, seed: int, game: str, consent: frozenset[str]) -> Bot:
        """The seat's bot, kept between its decisions (a bot may remember what it saw). It
        may spend the cards of the other bot seats (their players consented by seating
        bots), never a person's unless the rules leave no other answer."""
        key = (game_id, seat, seed)
        with self._lock:
            found = self._bots.get(key)
            if found is not None:
                self._bots.move_to_end(key)
                return found
        bot = make_bot(kind, seed ^ zlib.crc32(seat.encode()), game, consent=consent)
        with self._lock:
            self._bots[key] = bot
            while len(self._bots) > _BOTS:
                self._bots.popitem(last=False)
        return bot

    def _search(
        self, game_id: UUID, game: str, decision: Decision, table: bytes, seed: int, consent: frozenset[str]
    ) -> Choice:
        """The search bot's answer, from a process of its own: the game's state goes there
        encoded (the search reads only what its seat may see of it)."""
        rules = self.service.app.rules_of(game_id)
        state = rules.codec.encode(self.service.state(game_id))
        with self._lock:
            if self._searches is None:
                self._searches = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            searches = self._searches
        job = searches.submit(search_choice, game, state, decision, table, seed, consent, self.search_seconds)
        return job.result()

    # -- sweeps -----------------------------------------------------------------------

    def _sweeping(self, every: float) -> None:
        """The sweep thread: the sweep at start, then one every ``every`` seconds."""
        try:
            self.first_sweep()
        except Exception:
            log.exception("looking for games waiting for a bot failed")
        while every > 0 and not self._stop.wait(every):
            try:
                self.tick()
            except Exception:
                log.exception("looking for games waiting for a bot failed")

    def first_sweep(self) -> None:
        """Every room once (one indexed read per 500, :func:`~service.store.select_firsts`)
        and its game's last event: a game left waiting for a bot is played at once, a game
        over is forgotten, the others are watched."""
        app = self.service.app
        mapper = app.mapper
        assert isinstance(mapper, EventMapper)
        recorder: Any = app.recorder
        mark = recorder.max_notification_id() or 0  # first: a change made during the scan is seen by the next tick
        self._marks = [mark, mark]
        after = 0
        while True:
            page = select_firsts(recorder, after, 500, [ROOM_TOPIC])
            for _, _, _, state in page:
                game_id = msgspec.json.decode(mapper.open_state(state), type=_Opened).game_id
                self._watch(game_id)
                try:
                    self._look(game_id, "start")
                except Exception:
                    log.exception("looking at game %s for a bot's decision failed", game_id)
            if len(page) < 500:
                break
            after = page[-1][0]
        self.sweeps += 1

    def tick(self) -> None:
        """One periodic sweep: the store's notification log since the tick before last
        (an indexed range of the rows saved since, usually none) says which watched games
        moved; a watched game that did not move for a whole interval and was not found
        waiting for a person since it last moved is looked at (its last event: one indexed
        read), and played if it waits for the server. A game another process is playing
        moves every interval and is left to it; one whose process died stops moving and
        is taken over here. Both answering at once saves one answer (the decision's command
        id), and the other gives way (:meth:`_play`)."""
        recorder: Any = self.service.app.recorder
        mapper = self.service.app.mapper
        assert isinstance(mapper, EventMapper)
        start = self._marks[0]  # two ticks back: PostgreSQL may commit a lower id after a higher one was read
        moved: set[UUID] = set()
        while True:
            page = select_moves(recorder, start, 500, self._topics, ROOM_TOPIC)
            for _, found, version, _, state in page:
                if state is not None:  # a room opened
                    game_id = msgspec.json.decode(mapper.open_state(state), type=_Opened).game_id
                    if game_id not in self._watched:
                        self._watch(game_id)
                        moved.add(game_id)
                    continue
                game_id = self._rooms.get(found, found)
                watched = self._watched.get(game_id)
                if watched is None:
                    continue
                if found == game_id and version > watched.version:
                    watched.version = version
                    moved.add(game_id)
                elif found != game_id and version > watched.room_version:
                    watched.room_version = version
                    moved.add(game_id)
            if page:
                start = page[-1][0]
            if len(page) < 500:
                break
        self._marks = [self._marks[1], max(start, self._marks[1])]
        for game_id in moved:
            if game_id in self._watched:
                self._watched[game_id].waits_for_person = False
        with self._lock:
            busy = set(self._queued)
        for game_id, watched in list(self._watched.items()):
            if game_id in moved or game_id in busy or watched.waits_for_person:
                continue
            try:
                self._look(game_id)
            except Exception:  # one game's trouble (the store's is seen by all) keeps the others looked at
                log.exception("looking at game %s for a bot's decision failed", game_id)
        self.sweeps += 1

    def _watch(self, game_id: UUID) -> None:
        self._watched[game_id] = _Watched()
        self._rooms[room_id(game_id)] = game_id

    def _forget_game(self, game_id: UUID) -> None:
        self._watched.pop(game_id, None)
        self._rooms.pop(room_id(game_id), None)

    def _look(self, game_id: UUID, at: str = "sweep") -> None:
        """Whether a watched game waits for the server: its last event, then its room (a
        game over needs no room read). Played if so (and logged: which process took up
        which game, ``at`` start or in a periodic sweep); forgotten if over or moved elsewhere."""
        watched = self._watched.get(game_id)
        if watched is None:
            return
        try:
            last = self.service.app.last_event(game_id)
        except (UnknownGame, DamagedGame):
            self._forget_game(game_id)  # nothing to play on (a damaged log is refused to every command)
            return
        self.looks += 1
        if last is None:
            return  # saved meanwhile by a transaction not seen yet: looked at next tick
        watched.version = max(watched.version, last.seq)
        if isinstance(last, GameEnded):
            self._forget_game(game_id)
            return
        room = self.service.rooms.room(game_id)
        if room is None or room.moved is not None:  # play went on elsewhere (a take-back)
            self._forget_game(game_id)
            return
        watched.room_version = max(watched.room_version, room.version)
        if not isinstance(last, DecisionRequested):
            return
        decision = last.decision
        if decision.seat in room.bots or (decision.seat in room.auto_pass and is_action_window(decision)):
            with self._lock:
                busy = game_id in self._queued
            if not busy and watched.taken_up != last.seq:  # said once a version (a game that cannot be played)
                watched.taken_up = last.seq
                fields = {"game": str(game_id), "version": last.seq, "seat": decision.seat, "at": at}
                log.info("taking up a game waiting for the server", extra={"fields": fields})
            self.notify(game_id)
        else:
            watched.waits_for_person = True

    @property
    def watched(self) -> int:
        """Games with a room this process watches (not over, not moved elsewhere)."""
        return len(self._watched)


@dataclass
class _Watched:
    """What the sweep knows of a game with a room."""

    version: int = 0
    """The game's last version seen."""
    room_version: int = 0
    waits_for_person: bool = False
    """Found waiting for a person since it last moved: not looked at until it moves."""
    taken_up: int = 0
    """The version at which this process last took the game up (a damaged game, which
    :meth:`Autoplay._play` leaves, is tried again each sweep but logged once)."""


class _Opened(msgspec.Struct):
    game_id: UUID


def search_choice(
    game: str, state: bytes, decision: Decision, table: bytes, seed: int, consent: frozenset[str], seconds: float
) -> Choice:
    """The search bot's answer to ``decision`` in the game whose state is ``state`` (its
    ruleset's encoding), run in the search process."""
    from bots.search import Budget
    from domain.rulesets import ruleset

    held = ruleset(game).codec.decode_state(state)
    bot = make_bot(SEARCH, seed, game, consent=consent, state=lambda: held, budget=Budget(cpu_seconds=seconds))
    return bot.choose(decision, partial(_table, table, game))
