"""The Westmarch application: games in an event store, commands in, events out.

The store is chosen by the ``eventsourcing`` environment variables
(``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``, ``POSTGRES_*``, ...); with none set, games
go to the SQLite file ``westmarch.db`` in the working directory. Every command loads
the game, lets the domain decide, and saves all new events in one transaction with
optimistic concurrency on the game's version.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, ClassVar, cast
from uuid import UUID, uuid4

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import InfrastructureFactory, IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteConnectionPool
from eventsourcing.utils import Environment, get_topic, strtobool

from domain.game import Game, GameSnapshot, Recorded, project_game
from domain.kernel.decisions import Choice, RuleError
from domain.kernel.events import DecisionRequested, Event, GameEnded
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import BrokenLog, check_follows, fold
from domain.kernel.state import GENESIS, State
from domain.kernel.stored import stored_fold
from domain.rulesets import names, ruleset
from domain.verify import Verdict, canonical, chain_link, verify
from service.group_commit import GroupCommit
from service.records import LENGTH_TOPIC, DamageFound, LogLength, Record, damage_id, length_id, seats_id
from service.store import (
    CREATED_TOPIC,
    SNAPSHOT_TOPIC,
    Append,
    EventMapper,
    LogMismatch,
    WriteWatch,
    delete_row,
    ensure_firsts_index,
    insert_stored,
    keep_connections,
    keep_statements,
    latest_version,
    look_since,
    ruleset_of,
    select_firsts,
    select_fold,
    select_states,
    stored_span,
)

log = logging.getLogger("westmarch.store")
DEFAULT_DB = "westmarch.db"
SNAPSHOT_EVERY = 200
"""A snapshot is taken whenever a command carries a game past a multiple of this."""


class UnknownGame(LookupError):
    def __init__(self, game_id: UUID | str) -> None:
        self.game_id = game_id
        super().__init__(f"no game {game_id}")


class StaleVersion(RuleError):
    """The client's view is out of date: reload the game and try again."""

    def __init__(self, expected: int, actual: int) -> None:
        self.expected, self.actual = expected, actual
        super().__init__(f"expected game version {expected}, but the game is at version {actual}")


class ConcurrentUpdate(RuleError):
    """Another command was saved first; nothing of this one was. Reload and retry."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"game {game_id} was changed by another command; reload and retry")


class DamagedGame(Exception):
    """A stored game that cannot be folded: a version is missing or repeated, or an
    event does not decode. It is refused for every use and never appended to."""

    def __init__(self, game_id: UUID, version: int, reason: str) -> None:
        self.game_id, self.version, self.reason = game_id, version, reason
        super().__init__(f"game {game_id} is damaged at version {version}: {reason}; it is not served or changed")


class DamagedRecord(Exception):
    """A service record kept beside a game (its seats' token hashes, a command applied)
    that cannot be decoded. Whatever needs it is refused; nothing is changed."""

    def __init__(self, record_id: UUID, topic: str, game_id: UUID | None = None, what: str = "") -> None:
        self.record_id, self.topic, self.game_id = record_id, topic, game_id
        self.what = what or f"record {record_id} ({topic})"
        where = f"game {game_id}: " if game_id is not None else ""
        super().__init__(f"{where}its stored {self.what} cannot be decoded; it is not served or changed")

    def of(self, game_id: UUID, what: str) -> DamagedRecord:
        """The same damage, naming the game and what the record is."""
        return DamagedRecord(self.record_id, self.topic, game_id, what)


class ForgedRecord(Exception):
    """Events to be added to a stored game that its rules would not have produced: a
    re-execution of the game with them differs (``verdict`` says where). Nothing was saved."""

    def __init__(self, game_id: UUID, verdict: Verdict) -> None:
        self.game_id, self.verdict = game_id, verdict
        super().__init__(f"game {game_id}: the events to be added do not re-execute: {verdict}")


@dataclass(frozen=True)
class Verified:
    """How far a game's stored log was found sound: its rows 1 to ``version`` decode, are
    numbered in their places, each hash chains on the one before up to ``head``, and the
    last asks a decision or ends the game. ``hasher`` holds the SHA-256 of their stored
    bytes in order, so a later look tells whether any of them changed by hashing them in
    the store, without reading or decoding them again; it is carried on over rows added
    later (never changed in place: :meth:`extended` copies it)."""

    version: int
    head: str
    hasher: Any = field(compare=False)
    generation: int | None = field(default=None, compare=False)
    """The store's :class:`~service.store.WriteWatch` generation when it was found sound
    (None: no watch): while it holds, the rows need not be hashed again."""

    @property
    def digest(self) -> bytes:
        digest: bytes = self.hasher.digest()
        return digest

    def extended(self, states: Sequence[bytes], version: int, head: str) -> Verified:
        """The rows after ``self.version`` up to ``version``, whose stored bytes are ``states``
        and whose last hash is ``head``, found (or made) sound too."""
        hasher = self.hasher.copy()
        hasher.update(b"".join(states))  # one call: the same digest as one update per row
        return Verified(version, head, hasher, self.generation)


LOG_CUT_SHORT = (
    "the log ends at event {n}, which neither asks for a decision nor ends the game: its last events are missing"
)
"""The rules run until a decision is asked or the game ends, and a command saves all it
produced: a log that stops elsewhere lost its last rows (a finished game ends with GameEnded)."""


def _missing(latest: int, recorded: int) -> str:
    return (
        f"its last commit recorded {recorded} events and the store holds {latest}: "
        f"events {latest + 1} to {recorded} are missing"
    )


def _unrecorded(latest: int, recorded: int) -> str:
    return (
        f"the store holds {latest} events, but its last commit recorded {recorded}: "
        f"events {recorded + 1} to {latest} were not saved by a commit of the game"
    )


_UNDECODABLE = (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, ValueError, KeyError)
"""What decoding a damaged stored event raises (an unknown topic is a KeyError)."""


class BadVersion(RuleError):
    def __init__(self, version: int, latest: int) -> None:
        super().__init__(f"version {version} is out of range: the game has versions 1 to {latest}")


class _Adopted(Game):
    """A game whose new events were made elsewhere: they keep the times they were first saved."""

    def __init__(
        self, id: UUID, rules: Ruleset[Any], state: State, events: Sequence[Event], stamps: Sequence[datetime]
    ) -> None:
        super().__init__(id, rules, state)
        self._new = list(events)
        self._stamps = list(stamps)

    def collect_events(self) -> list[Recorded]:
        name = self.rules.name
        recorded = [Recorded(self.id, e.seq, name, e, at) for e, at in zip(self._new, self._stamps, strict=True)]
        self._new, self._stamps = [], []
        return recorded


@dataclass(frozen=True)
class GameInfo:
    id: UUID
    ruleset: str
    version: int
    over: bool
    created: Event | None
    damaged: str = ""
    """Why the game cannot be read ("" when it can): listing never fails on one bad game."""


def _unique_violation(error: BaseException) -> bool:
    """Whether ``error`` is the store refusing a (game, version) saved before."""
    if isinstance(error, IntegrityError | sqlite3.IntegrityError):
        return True
    return type(error).__name__ == "UniqueViolation" and type(error).__module__.startswith("psycopg")


def _conflict(error: BaseException) -> bool:
    """Whether ``error`` says the store moved on without this command (nothing of it saved)."""
    return isinstance(error, LogMismatch) or _unique_violation(error)


def store_env(db: str | None = None, postgres: str | None = None) -> dict[str, str]:
    """Environment for the application: ``--db PATH`` or ``--postgres DSN`` on top of os.environ."""
    env: dict[str, str] = {}
    if postgres:
        env.update(_postgres_env(postgres))
    elif db:
        env["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
        env["SQLITE_DBNAME"] = db
    return env


def _postgres_env(dsn: str) -> dict[str, str]:
    from urllib.parse import unquote, urlparse

    url = urlparse(dsn)
    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres"}
    if url.hostname:
        env["POSTGRES_HOST"] = url.hostname
    env["POSTGRES_PORT"] = str(url.port or 5432)
    env["POSTGRES_DBNAME"] = url.path.lstrip("/") or "postgres"
    env["POSTGRES_USER"] = unquote(url.username or os.environ.get("USER", "postgres"))
    env["POSTGRES_PASSWORD"] = unquote(url.password or "")
    return env


class Westmarch(Application[UUID]):
    name = "Westmarch"
    env: ClassVar[dict[str, str]] = {
        "MAPPER_TOPIC": get_topic(EventMapper),
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": DEFAULT_DB,
        "IS_SNAPSHOTTING_ENABLED": "y",
        "AGGREGATE_CACHE_MAXSIZE": "256",
    }

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(dict(env) if env else None)
        if strtobool(self.env.get("CREATE_TABLE") or "yes"):
            try:
                ensure_firsts_index(self.recorder)
            except Exception as error:  # listing still works without it, only slower
                log.warning("cannot create the index of games: %s", error)
        self.snapshot_every = int(self.env.get("WESTMARCH_SNAPSHOT_EVERY", str(SNAPSHOT_EVERY)))
        sqlite = "sqlite" in self.env.get("PERSISTENCE_MODULE", "sqlite")
        self.writing: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if sqlite else contextlib.nullcontext()
        )
        """SQLite has one writer at a time: writers of this process queue here rather than
        in SQLite's busy handler (which sleeps in steps of up to 100 ms)."""
        self.group: GroupCommit[Append] = GroupCommit(self._insert, _unique_violation)
        """Commands saved at the same moment share one transaction (see service/group_commit.py)."""
        self._rules_of: dict[UUID, str] = {}
        """A game's ruleset never changes: remembered after the first look (bounded)."""
        self._lengths: dict[UUID, tuple[int, bytes, str]] = {}
        """Per game, the length record this process's last commit of it saved: its version,
        stored bytes and head (bounded). Those bytes read back decode to that record, so
        :meth:`_check_recorded` need not decode them again."""
        self.watch: WriteWatch | None = None
        """What tells, on SQLite, that nothing but this process's commits wrote the store since
        a game was last found sound (:meth:`verified` then skips hashing its rows again); it
        connects to the database as the pool does. A private database in memory (``:memory:``
        without ``cache=shared``) is another database for each connection: the watch's own
        would see none of the pool's commits, so it is given no name and never proves anything."""
        if isinstance(self.recorder, SQLiteAggregateRecorder):
            pool = self.recorder.datastore.pool
            shared = not pool.is_sqlite_memory_mode or "cache=shared" in pool.db_name
            self.watch = WriteWatch(pool.db_name if shared else None)
        self.length_guard = True
        """Each commit saves the log's length with its events (:class:`~service.records.LogLength`).
        Off only to measure what it costs (``python -m tools.bench_integrity``)."""

    def close(self) -> None:
        """Close the store, and the write watch's own connection to it."""
        if self.watch is not None:
            self.watch.close()
        super().close()

    def _connection_opened(self, conn: sqlite3.Connection) -> None:
        """A connection the pool just opened, told to the write watch (none yet while the
        application starts)."""
        watch: WriteWatch | None = getattr(self, "watch", None)
        if watch is not None:
            watch.opened(conn)

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        """The library's factory for the store, except PostgreSQL's, whose tables are
        created under an advisory lock (service/postgres.py): two servers starting at once
        on a fresh database must not both create them. SQLite's connections keep more
        than one prepared statement (:func:`~service.store.keep_statements`), and the pool
        keeps the connections it opens (:func:`~service.store.keep_connections`)."""
        if env.get(InfrastructureFactory.PERSISTENCE_MODULE, "") == "eventsourcing.postgres":
            from service.postgres import PostgresFactory

            return cast(InfrastructureFactory, PostgresFactory(env))
        factory = super().construct_factory(env)
        pool = getattr(getattr(factory, "datastore", None), "pool", None)
        if isinstance(pool, SQLiteConnectionPool):
            keep_statements(pool, opened=self._connection_opened)
            keep_connections(pool)
        return factory

    # -- commands --------------------------------------------------------------------

    def create(self, rules_name: str, created: Event, game_id: UUID | None = None) -> Game:
        """Start a game of ``rules_name`` from its creation event, run to the first decision."""
        game = Game.start(game_id or uuid4(), ruleset(rules_name), created)
        self._save(game, 0)
        return game

    def submit(
        self,
        game_id: UUID,
        seat: str,
        decision_id: int,
        choice: Choice,
        expected_version: int | None = None,
    ) -> list[Event]:
        """Answer a decision. Raises a :class:`RuleError` (appending nothing) if refused."""
        game = self.game(game_id)
        if expected_version is not None and expected_version != game.version:
            raise StaleVersion(expected_version, game.version)
        before = game.version
        events = game.answer(seat, decision_id, choice)
        self._save(game, before)
        return events

    def fork(
        self, game_id: UUID, at: int, new_id: UUID | None = None, also: Sequence[Any] = (), reseed: int | None = None
    ) -> Game:
        """A new game whose history is the first ``at`` events of another, then played on.
        With ``reseed`` (a take-back, at a question), the new game is told that fresh seed
        (:meth:`~domain.game.Game.reseed`): what no seat has seen is drawn afresh, in the
        same transaction as the copied events."""
        source = self.history(game_id, lte=at)
        if not source or at < 1 or len(source) < at:
            raise BadVersion(at, self.version(game_id))
        game = Game.forked(new_id or uuid4(), self.rules_of(game_id), source)
        game.resume()
        if reseed is not None and game.state.pending is not None:
            game.reseed(reseed)
        self._save(game, 0, *also)
        return game

    def store(self, game: Game) -> None:
        """Save a game played elsewhere (in memory, by a simulation) with its snapshots."""
        self._save(game, game.version - len(game.pending_events))

    def commit(self, game: Game, before: int, *also: Any, since: int | None = None) -> list[bytes]:
        """Save a game's new events (it was at version ``before``) and ``also`` other
        aggregates in one transaction; :class:`ConcurrentUpdate` if any was saved first.
        Returns the stored bytes of the game's new events. ``since``: the write watch's
        generation of the look that found the game's rows 1 to ``before`` sound
        (:attr:`~service.store.Append.since`), if known."""
        return self._save(game, before, *also, since=since)

    def adopt(self, game_id: UUID, rules: Ruleset[Any], events: Sequence[Event], stamps: Sequence[datetime]) -> None:
        """Save events made elsewhere (an imported record) as they are, with the times they
        were first saved, after the game's stored events; :class:`ConcurrentUpdate` (nothing
        saved) if another command saved any of their versions first."""
        if not events:
            return
        before = events[0].seq - 1
        # the whole game re-executed from its seed, as `verify FILE` does, whether it goes on
        # a stored game or starts a new one: a record whose chain was recomputed over an
        # edited event holds as a chain, and only the rules tell it from a game played
        verdict = verify(rules, [*(self.history(game_id, lte=before) if before else ()), *events])
        if not verdict.ok:
            raise ForgedRecord(game_id, verdict)
        state = fold(rules, list(events), self.state_at(game_id, before) if before else None)
        self._save(_Adopted(game_id, rules, state, events, stamps), before)

    def record(self, record_id: UUID, game_id: UUID | None = None, what: str = "") -> Any | None:
        """The first stored event of a one-event aggregate (a service record), or None;
        :class:`DamagedRecord` (naming ``game_id`` and ``what``, if given) if it does not decode."""
        found = self.recorder.select_events(record_id, limit=1)
        if not found:
            return None
        try:
            return self.mapper.to_domain_event(found[0])
        except _UNDECODABLE:
            raise DamagedRecord(record_id, found[0].topic, game_id, what) from None

    def records(self, record_id: UUID, game_id: UUID | None = None, what: str = "") -> list[Any]:
        """Every stored event of a service record kept in versions (a game's seats record
        and its token rotations), oldest first; :class:`DamagedRecord` if one does not decode."""
        found = self.recorder.select_events(record_id)
        try:
            return [self.mapper.to_domain_event(s) for s in found]
        except _UNDECODABLE:
            raise DamagedRecord(record_id, found[0].topic, game_id, what) from None

    def note_damage(self, game_id: UUID, what: str, record: UUID | None = None) -> None:
        """Save that the game was found damaged (:class:`~service.records.DamageFound`: ``what``
        as listings say it, ``record`` the record beside the game that cannot be decoded, None
        for the game's own log; ``what`` empty: found sound again), unless the last finding
        says the same. A store that cannot take it (read-only, or another process noting it
        at the same moment) is only logged: the damage is refused all the same, and noted at
        the next finding."""
        try:
            last = self.recorder.select_events(damage_id(game_id), desc=True, limit=1)
            if last:
                with contextlib.suppress(*_UNDECODABLE):
                    found = self.mapper.to_domain_event(last[0])
                    if isinstance(found, DamageFound) and (found.what, found.record) == (what, record):
                        return
            noted = DamageFound(
                originator_id=damage_id(game_id),
                originator_version=(last[0].originator_version if last else 0) + 1,
                game_id=game_id,
                what=what,
                record=record,
            )
            with self.writing:
                self.save(Record(noted))
        except Exception as error:
            log.warning("game %s: cannot note that it is damaged (%s): %s", game_id, what, error)

    def damage_found(self, game_id: UUID) -> str:
        """What the last finding of damage to the game says, if it still holds ("" if there
        is none, or if what it found is sound again): the record it names is read again, a
        damaged log is checked again, so a repaired game is not marked for ever."""
        last = self.recorder.select_events(damage_id(game_id), desc=True, limit=1)
        if not last:
            return ""
        try:
            found = self.mapper.to_domain_event(last[0])
        except _UNDECODABLE:
            return "its record of damage found cannot be decoded"
        if not isinstance(found, DamageFound) or not found.what:
            return ""
        try:
            if found.record is not None:
                self.record(found.record, game_id)
            else:
                self.verified(game_id)
        except DamagedRecord:
            return found.what
        except DamagedGame as error:
            return f"damaged at version {error.version}: {error.reason}"
        self.note_damage(game_id, "")  # sound again: later listings need not look again
        return ""

    def record_version(self, record_id: UUID) -> int:
        """The last version of a service record (0 if there is none): one indexed read."""
        return latest_version(self.recorder, record_id) or 0

    def _insert(self, appends: Sequence[Append]) -> list[LogMismatch | None]:
        with self.writing:
            return insert_stored(self.recorder, appends, self.watch)

    def _save(self, game: Game, before: int, *also: Any, since: int | None = None) -> list[bytes]:
        """Save the game's new events and ``also`` other aggregates in one transaction
        (the library's own ``save`` does the same with more machinery per call), on the
        condition that the store holds exactly the game's versions 1 to ``before``
        (:class:`ConcurrentUpdate` otherwise: see :class:`~service.store.Append`)."""
        mapper = self.mapper
        assert isinstance(mapper, EventMapper)
        events = game.collect_events()
        stored = mapper.game_events(events)
        states = [s.state for s in stored]
        stored += [mapper.to_row(e) for a in also for e in a.collect_events()]
        length_row = None
        if events and self.length_guard:
            length = LogLength(
                originator_id=length_id(game.id), originator_version=game.version, game_id=game.id, head=game.state.head
            )
            length_row = mapper.to_row(length)
            stored.append(length_row)
        guard = (game.id, before) if before and events else None
        try:
            self.group.save([Append(stored, guard, since)])
        except Exception as error:
            if _conflict(error):
                raise ConcurrentUpdate(game.id) from None
            raise
        if length_row is not None:
            lengths = self._lengths
            if len(lengths) >= 16_384:
                lengths.clear()
            lengths[game.id] = (game.version, length_row.state, game.state.head)
        self._snapshot(game.id, game.rules, before, game.version, game.state)
        return states

    def _snapshot(self, game_id: UUID, rules: Ruleset[Any], before: int, after: int, state: State | None) -> None:
        """A snapshot for each multiple of ``snapshot_every`` passed from ``before``
        (excluded) to ``after``; ``state`` is the state at ``after``, if at hand.

        The last multiple a save passes is snapshotted at ``after`` itself, from the state
        at hand, rather than folded again to the multiple: a command's few events past the
        multiple leave loading constant-time all the same."""
        if self.snapshots is None:
            return
        every = self.snapshot_every
        for multiple in range((before // every + 1) * every, after + 1, every):
            version = multiple
            if state is not None and multiple + every > after:
                version, at = after, state
            else:
                at = self.state_at(game_id, multiple)
            snapshot = GameSnapshot(game_id, version, rules.name, msgspec.Raw(rules.codec.encode(at)))
            with self.writing:
                if self.watch is None:
                    self.snapshots.put([snapshot])
                else:  # a commit the write watch accounts to this process (it only adds a row)
                    stored = self.snapshots.mapper.to_stored_event(snapshot)
                    insert_stored(self.snapshots.recorder, [Append([stored])], self.watch)

    # -- queries ---------------------------------------------------------------------

    def game(self, game_id: UUID) -> Game:
        """The game as stored, checked: :class:`DamagedGame` if its log cannot be folded."""
        try:
            game: Game = self.repository.get(game_id, projector_func=project_game)
        except AggregateNotFoundError:
            raise UnknownGame(game_id) from None
        except BrokenLog as error:
            raise DamagedGame(game_id, error.version, str(error)) from None
        except _UNDECODABLE:
            if self.drop_bad_snapshots(game_id):
                return self.game(game_id)
            raise self._unreadable(game_id) from None
        if not self.check_span(game_id, game.version):
            return self.game(game_id)  # another process saved events meanwhile
        state = game.state
        if state.pending is None and state.over is None:
            raise DamagedGame(game_id, game.version + 1, LOG_CUT_SHORT.format(n=game.version))
        return game

    def verified(self, game_id: UUID, known: Verified | None = None) -> Verified:
        """Check the game's whole stored log (see :class:`Verified`); :class:`DamagedGame`
        naming the first bad version otherwise. With ``known`` (an earlier result), one
        read hashes the rows it covers in the store and compares (a row edited, deleted,
        added or renumbered among them changes the count, the highest version or the hash)
        and returns only the rows after them, which are decoded and chained on from its
        head; without it, or if any of those rows changed, every row is read and checked.
        Either read also gives the length the game's last commit recorded, which the log
        must have (a last command deleted whole leaves a shorter log that chains).

        On SQLite, the rows ``known`` covers are not even hashed when the store's
        :class:`~service.store.WriteWatch` proves that nothing but this process's own
        commits (which only append) wrote the database since the look that found them
        sound (``known.generation``): see there for what that proves and what it does not.
        Any doubt (a commit the watch did not account, through another process or the
        library, or the files changed otherwise) is a new generation, and the rows are
        hashed as above; the commits of this process's threads through any of its pooled
        connections keep it. PostgreSQL has no such proof: its rows are always hashed."""
        watch = self.watch
        if known is not None:
            look = look_since(self.recorder, game_id, known.version, watch, known.generation)
            if look.quiet or (
                look.count == known.version and look.highest == known.version and look.prefix == known.digest
            ):
                if known.generation != look.generation:
                    known = replace(known, generation=look.generation)
                if look.rows:
                    return self._chained(game_id, look.rows, known, look.recorded)
                self._check_recorded(game_id, known.version, known.head, look.recorded)
                return known
        look = look_since(self.recorder, game_id, 0, watch)
        if not look.rows:
            raise UnknownGame(game_id)
        start = Verified(0, GENESIS, hashlib.sha256(), look.generation)
        return self._chained(game_id, look.rows, start, look.recorded)

    def _chained(
        self, game_id: UUID, fresh: list[tuple[int, bytes]], known: Verified, recorded: tuple[int, bytes] | None
    ) -> Verified:
        """The rows after ``known`` checked on from its chain's head (see :meth:`verified`)."""
        rules = self.rules_of(game_id)
        start, head = known.version, known.head
        for place, (version, _) in enumerate(fresh, start=start + 1):
            if version != place:
                count, latest = start + len(fresh), fresh[-1][0]
                raise DamagedGame(game_id, place, f"the store holds {count} events numbered up to {latest}")
        try:
            events = self._decode(rules, [state for _, state in fresh])
        except _UNDECODABLE:
            raise self._unreadable(game_id) from None
        for place, event in enumerate(events, start=start + 1):
            if event.seq != place:
                raise DamagedGame(game_id, place, str(BrokenLog(place, event.seq)))
            if chain_link(head, canonical(rules, event)) != event.hash:
                raise DamagedGame(game_id, place, "its hash does not match its content and the chain before it")
            head = event.hash
        latest = start + len(fresh)
        if not isinstance(events[-1], DecisionRequested | GameEnded):
            raise DamagedGame(game_id, latest + 1, LOG_CUT_SHORT.format(n=latest))
        self._check_recorded(game_id, latest, head, recorded)
        return known.extended([state for _, state in fresh], latest, head)

    def _check_recorded(self, game_id: UUID, latest: int, head: str, recorded: tuple[int, bytes] | None) -> None:
        """:class:`DamagedGame` unless the log's length and last hash are the ones its last
        commit recorded (a game saved before lengths were recorded has none to compare)."""
        if recorded is None:
            return
        version, state = recorded
        if version > latest:
            raise DamagedGame(game_id, latest + 1, _missing(latest, version))
        if version < latest:
            raise DamagedGame(game_id, version + 1, _unrecorded(latest, version))
        saved = self._lengths.get(game_id)
        if saved is not None and saved[0] == version and saved[1] == state:
            # the very bytes this process saved: they decode to the record it saved
            if saved[2] != head:
                raise DamagedGame(game_id, latest, "its last event is not the one the game's last commit recorded")
            return
        try:
            length = self.mapper.to_domain_event(StoredEvent(length_id(game_id), version, LENGTH_TOPIC, state))
        except _UNDECODABLE:
            raise DamagedRecord(length_id(game_id), LENGTH_TOPIC, game_id, "record of the log's length") from None
        if not isinstance(length, LogLength) or length.head != head:
            raise DamagedGame(game_id, latest, "its last event is not the one the game's last commit recorded")

    def drop_bad_snapshots(self, game_id: UUID) -> bool:
        """Drop the game's snapshots that cannot be decoded and take them again from the
        events (a snapshot is a cache), with a warning; whether any was dropped."""
        if self.snapshots is None:
            return False
        mapper = self.mapper
        assert isinstance(mapper, EventMapper)
        recorder = self.snapshots.recorder
        dropped = []
        for stored in recorder.select_events(game_id):
            try:
                snapshot: GameSnapshot = mapper.to_domain_event(stored)
                ruleset(snapshot.ruleset).codec.decode_state(bytes(snapshot.state))
            except _UNDECODABLE:
                log.warning(
                    "game %s: the snapshot at version %d cannot be decoded; it is dropped and taken again "
                    "from the events",
                    game_id,
                    stored.originator_version,
                )
                with self.writing:
                    delete_row(recorder, game_id, stored.originator_version)
                dropped.append(stored.originator_version)
        rules = self.rules_of(game_id) if dropped else None
        for version in dropped:
            assert rules is not None
            state = self.state_at(game_id, version)
            with self.writing:
                self.snapshots.put([GameSnapshot(game_id, version, rules.name, msgspec.Raw(rules.codec.encode(state)))])
        return bool(dropped)

    def check_span(self, game_id: UUID, version: int) -> bool:
        """Whether the store holds exactly events 1 to ``version`` of the game (True), or
        more, saved by another process (False: reload it); :class:`DamagedGame` if a
        version is missing or repeated, or the log is not as long as its last commit
        recorded. A game held in memory checks this before it appends."""
        count, latest, recorded = stored_span(self.recorder, game_id)
        if count == latest == version:
            if recorded is not None and recorded != version:
                raise DamagedGame(
                    game_id,
                    min(recorded, version) + 1,
                    _missing(version, recorded) if recorded > version else _unrecorded(version, recorded),
                )
            return True
        if latest is None:
            raise UnknownGame(game_id)
        if count == latest and latest > version:
            try:
                self.history(game_id, gt=version)
            except DamagedGame:
                pass  # named below, from the whole log
            else:
                return False
        try:
            fold(self.rules_of(game_id), self.history(game_id, gt=0))
        except BrokenLog as error:
            raise DamagedGame(game_id, error.version, str(error)) from None
        raise DamagedGame(game_id, min(version, latest) + 1, f"the store holds {count} events numbered up to {latest}")

    def _unreadable(self, game_id: UUID) -> DamagedGame:
        first = self.first_unreadable(game_id)
        return DamagedGame(game_id, first or 1, "a stored event cannot be decoded")

    def rules_of(self, game_id: UUID) -> Ruleset[Any]:
        known = self._rules_of.get(game_id)
        if known is not None:
            return ruleset(known)
        first = self.recorder.select_events(game_id, limit=1)
        if not first:
            raise UnknownGame(game_id)
        name = ruleset_of(first[0].topic)
        if len(self._rules_of) >= 16_384:
            self._rules_of.clear()
        self._rules_of[game_id] = name
        return ruleset(name)

    def version(self, game_id: UUID) -> int:
        latest = latest_version(self.recorder, game_id)
        if latest is None:
            raise UnknownGame(game_id)
        return latest

    def last_event(self, game_id: UUID) -> Event | None:
        """The game's last stored event, decoded (None if it has none): one indexed read
        of one row. A sound log ends with the pending decision (:class:`DecisionRequested`)
        or the end (:class:`GameEnded`), so this says who the game waits for without
        loading it; :class:`DamagedGame` if the row does not decode. The row's topic names
        the ruleset (no read of the first event, as :meth:`rules_of` makes for a game it has
        not met)."""
        last = self.recorder.select_events(game_id, desc=True, limit=1)
        if not last:
            return None
        try:
            rules = ruleset(ruleset_of(last[0].topic))
            event: Event = self._decode(rules, [last[0].state])[0]
        except _UNDECODABLE:
            raise self._unreadable(game_id) from None
        return event

    def history(self, game_id: UUID, gt: int | None = None, lte: int | None = None) -> list[Event]:
        """The game's events (all, or those after ``gt`` up to ``lte``), decoded in one pass
        and checked to follow each other (:class:`DamagedGame` otherwise). The whole log
        (neither bound given) must also be as long as its last commit recorded: the length
        is read first, so a commit saved between the two reads only lengthens the log."""
        rules = self.rules_of(game_id)
        whole = gt is None and lte is None
        recorded = latest_version(self.recorder, length_id(game_id)) if whole else None
        try:
            events = self._decode(rules, select_states(self.recorder, game_id, gt, lte))
        except _UNDECODABLE:
            raise self._unreadable(game_id) from None
        try:
            check_follows(gt or 0, events)
        except BrokenLog as error:
            raise DamagedGame(game_id, error.version, str(error)) from None
        if recorded is not None and recorded > len(events):
            raise DamagedGame(game_id, len(events) + 1, _missing(len(events), recorded))
        return events

    def _decode(self, rules: Ruleset[Any], states: list[bytes]) -> list[Event]:
        return rules.codec.decode_stored_many(self._opened(states)) if states else []

    def _opened(self, states: list[bytes]) -> list[bytes]:
        mapper = self.mapper
        assert isinstance(mapper, EventMapper)
        if mapper.cipher or mapper.compressor:
            states = [mapper.open_state(s) for s in states]
        return states

    def stored(self, game_id: UUID, gt: int | None = None, lte: int | None = None) -> list[bytes]:
        """The stored bytes of the game's events (``[microseconds, event]``), in order."""
        return self._opened(select_states(self.recorder, game_id, gt, lte))

    def first_unreadable(self, game_id: UUID) -> int | None:
        """The version of the first stored event that does not decode (after a bad edit)."""
        rules = self.rules_of(game_id)
        for version, state in enumerate(select_states(self.recorder, game_id), start=1):
            try:
                self._decode(rules, [state])
            except _UNDECODABLE:
                return version
        return None

    def state_at(self, game_id: UUID, version: int | None = None) -> State:
        """The state after event ``version`` (the latest if None): snapshot, then fold from the
        stored rows, decoding only what the fold reads (see :meth:`_fold_stored`: a row damaged
        only in a field the fold skips is not noticed here, as every command notices it)."""
        rules = self.rules_of(game_id)  # UnknownGame if there is no such game
        if version is not None and version < 1:
            raise BadVersion(version, self.version(game_id))
        state: State | None = None
        gt = None
        if self.snapshots is not None:
            snaps = self.snapshots.recorder.select_events(game_id, desc=True, limit=1, lte=version)
            if snaps:
                mapper = self.mapper
                assert isinstance(mapper, EventMapper)
                try:
                    snapshot: GameSnapshot = mapper.to_domain_event(snaps[0])
                    state = ruleset(snapshot.ruleset).codec.decode_state(bytes(snapshot.state))
                except _UNDECODABLE:
                    if self.drop_bad_snapshots(game_id):
                        return self.state_at(game_id, version)
                    raise
                gt = snapshot.originator_version
        try:
            state = self._fold_stored(game_id, rules, gt, version, state)
        except BrokenLog as error:
            raise DamagedGame(game_id, error.version, str(error)) from None
        if version is not None and state.version != version:
            raise BadVersion(version, state.version)
        return state

    def _fold_stored(
        self, game_id: UUID, rules: Ruleset[Any], gt: int | None, lte: int | None, state: State | None
    ) -> State:
        """``state`` (a new game's if None) with the stored events after ``gt`` up to ``lte``
        folded onto it straight from their rows (domain/kernel/stored.py: the fold decodes
        only the fields it reads, so a row damaged in another field is not noticed here; every
        command and ``verify`` decode the whole log). Checked as :meth:`history` checks them:
        :class:`DamagedGame` if a row does not decode or the whole log is shorter than its
        last commit recorded, :class:`BrokenLog` if an event is not the one after the last."""
        whole = gt is None and lte is None
        mapper = self.mapper
        assert isinstance(mapper, EventMapper)
        if mapper.cipher or mapper.compressor:
            recorded = latest_version(self.recorder, length_id(game_id)) if whole else None
            rows = self._opened(select_states(self.recorder, game_id, gt, lte))
            joined, last = b",".join(rows), rows[-1] if rows else None
        else:
            joined, last, recorded = select_fold(self.recorder, game_id, gt, lte, length_id(game_id) if whole else None)
        state = rules.new_state() if state is None else state
        try:
            state = stored_fold(rules).fold_joined(joined, last, state)
        except _UNDECODABLE:
            raise self._unreadable(game_id) from None
        if recorded is not None and recorded > state.version:
            raise DamagedGame(game_id, state.version + 1, _missing(state.version, recorded))
        return state

    def summary(self, game_id: UUID, topic: str, first: bytes) -> GameInfo:
        """One game's summary; a game whose first or last event cannot be read is marked."""
        name = ruleset_of(topic)
        try:
            last = self.recorder.select_events(game_id, desc=True, limit=1)
            count, latest, recorded = stored_span(self.recorder, game_id)
        except Exception as error:  # one unreadable game must not hide the others
            from service.faults import fault_of

            if fault_of(error) is not None:
                raise  # the store, not the game: the caller retries or says UNAVAILABLE
            return GameInfo(game_id, name, 0, False, None, f"cannot be read: {type(error).__name__}")
        version = latest or 0
        try:
            rules = ruleset(name)
            created, final = self._decode(rules, [first, last[0].state])
        except _UNDECODABLE:
            return GameInfo(game_id, name, version, False, None, "a stored event cannot be decoded")
        damaged = "" if count == latest else f"the store holds {count} events numbered up to {latest}"
        if not damaged and final.seq != version:
            damaged = f"event {version} is stored as number {final.seq}"
        if not damaged and not isinstance(final, DecisionRequested | GameEnded):
            damaged = LOG_CUT_SHORT.format(n=version)
        if not damaged and recorded is not None and recorded != version:
            damaged = _missing(version, recorded) if recorded > version else _unrecorded(version, recorded)
        if not damaged:
            try:
                self.record(seats_id(game_id))
            except DamagedRecord:
                damaged = "its seats record (the tokens' hashes) cannot be decoded"
        if not damaged:
            damaged = self.damage_found(game_id)  # found by a server process: inside the log, beside it
        return GameInfo(game_id, rules.name, version, isinstance(final, GameEnded), created, damaged)

    def created(self) -> Iterator[tuple[UUID, str, bytes]]:
        """Every game's id, creation topic and stored creation event, oldest first: one
        indexed read per 500 games (see :data:`~service.store.FIRSTS_INDEX`)."""
        topics = [CREATED_TOPIC.format(ruleset=n) for n in names()]
        after = 0
        while True:
            page = select_firsts(self.recorder, after, 500, topics)
            for _, game_id, topic, state in page:
                yield game_id, topic, state
            if len(page) < 500:
                return
            after = page[-1][0]

    def games(self) -> Iterator[GameInfo]:
        """Every game in the store, oldest first, with its summary."""
        for game_id, topic, state in self.created():
            yield self.summary(game_id, topic, state)


__all__ = [
    "SNAPSHOT_TOPIC",
    "BadVersion",
    "ConcurrentUpdate",
    "DamagedGame",
    "DamagedRecord",
    "ForgedRecord",
    "GameInfo",
    "StaleVersion",
    "UnknownGame",
    "Verified",
    "Westmarch",
    "store_env",
]
