"""What a game brings to the kernel: its events, state, fold, programs and triggers.

The kernel never names a game. A ruleset subclasses :class:`Ruleset`, lists its event
types, registers an apply function per event type with :meth:`Appliers.on`, and names
the program a new game starts with.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from domain.kernel import zones
from domain.kernel.changelog import RulesChange, read_changelog
from domain.kernel.events import (
    KERNEL_EVENTS,
    CardsRedrawn,
    Created,
    DecisionAnswered,
    DecisionRequested,
    DelayedEffectScheduled,
    Event,
    GameEnded,
    LimitUsed,
    ModifierAdded,
    PositionEvent,
    Reseeded,
    ScopeEnded,
)
from domain.kernel.state import Limit, State

S = TypeVar("S", bound=State)


def bracketed(joined: bytes) -> bytes:
    """JSON items already joined by commas, as one JSON array. Joined, not concatenated:
    ``b"[" + big + b"]"`` copies a game's log twice more and costs far more than the copy on
    a log of some 100 kB (page faults)."""
    return b"".join((b"[", joined, b"]"))


def _array(items: list[bytes]) -> bytes:
    """JSON items as one JSON array (:func:`bracketed`)."""
    return bracketed(b",".join(items))


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
E = TypeVar("E", bound=Event)
Applier = Callable[[Any, Any], None]


class SetupError(ValueError):
    """A new game of any ruleset cannot be set up as asked; the message says why."""


class Appliers:
    """The fold's dispatch table: one apply function per event type."""

    def __init__(self) -> None:
        self.table: dict[type[Event], Applier] = dict(KERNEL_APPLIERS)

    def on(self, event_type: type[E]) -> Callable[[Callable[[Any, E], None]], Callable[[Any, E], None]]:
        def register(fn: Callable[[Any, E], None]) -> Callable[[Any, E], None]:
            if event_type in self.table and event_type not in KERNEL_APPLIERS:
                raise ValueError(f"{event_type.__name__} has two apply functions")
            self.table[event_type] = fn
            return fn

        return register


def _requested(state: State, event: DecisionRequested) -> None:
    state.pending = event.decision


def _answered(state: State, event: DecisionAnswered) -> None:
    state.pending = None


def _modifier(state: State, event: ModifierAdded) -> None:
    state.modifiers.append(event.modifier)


def _delayed(state: State, event: DelayedEffectScheduled) -> None:
    state.delayed.append(event.delayed)


def _limit(state: State, event: LimitUsed) -> None:
    state.limits.append(Limit(event.key, event.until))


def _scope(state: State, event: ScopeEnded) -> None:
    scope = event.scope
    state.modifiers = [m for m in state.modifiers if m.until != scope]
    state.limits = [x for x in state.limits if x.until != scope]
    state.delayed = [d for d in state.delayed if d.at != scope]


def set_lasting(state: State, event: PositionEvent) -> None:
    """The kernel's part of laying out a position: lasting effects and used limits."""
    state.modifiers = list(event.modifiers)
    state.limits = list(event.limits)
    state.delayed = list(event.delayed)
    if event.rng:
        state.rng = event.rng


def _ended(state: State, event: GameEnded) -> None:
    state.over = event.outcome
    state.pending = None


def _reseeded(state: State, event: Reseeded) -> None:
    state.seed = event.seed
    state.pending = None  # asked again once what the take-back redraws is drawn


def _redrawn(state: Any, event: CardsRedrawn) -> None:
    """A game whose cards lie in ``cards`` and ``zones`` (see :mod:`domain.kernel.zones`);
    a game with more to a place than its zone and position registers its own."""
    zones.redrawn(state, event.places, event.cards)


KERNEL_APPLIERS: dict[type[Event], Applier] = {
    DecisionRequested: _requested,
    DecisionAnswered: _answered,
    ModifierAdded: _modifier,
    DelayedEffectScheduled: _delayed,
    LimitUsed: _limit,
    ScopeEnded: _scope,
    GameEnded: _ended,
    Reseeded: _reseeded,
    CardsRedrawn: _redrawn,
}


class Codec:
    """Canonical bytes for one ruleset's events and state (JSON, via msgspec)."""

    def __init__(self, events: tuple[type[Event], ...], state_type: type[State]) -> None:
        union: Any = events[0] if len(events) == 1 else Any
        if len(events) > 1:
            from typing import Union

            union = Union[events]  # noqa: UP007  (built at run time from a tuple)
        self.event_type = union
        self._encoder = msgspec.json.Encoder()
        self.encode = self._encoder.encode
        self._one = msgspec.json.Decoder(union)
        self._many = msgspec.json.Decoder(list[union])
        self._stored = msgspec.json.Decoder(tuple[int, union])
        self._stored_many = msgspec.json.Decoder(list[tuple[int, union]])
        self._state = msgspec.json.Decoder(state_type)

    def decode(self, data: bytes) -> Event:
        event: Event = self._one.decode(data)
        return event

    def decode_many(self, items: list[bytes]) -> list[Event]:
        """Decode many events in one pass (one JSON array); faster than one by one."""
        events: list[Event] = self._many.decode(_array(items))
        return events

    def encode_stored(self, at: datetime, event: Event) -> bytes:
        """The stored form of an event: ``[microseconds since 1970 UTC, event]``.

        An integer timestamp decodes several times faster than an ISO date string.
        """
        micros = (at - _EPOCH) // _MICROSECOND
        return self._encoder.encode((micros, event))

    @staticmethod
    def micros(at: datetime) -> int:
        """The stored form's timestamp of ``at``: microseconds since 1970 UTC."""
        micros: int = (at - _EPOCH) // _MICROSECOND
        return micros

    def encode_at(self, micros: int, event: Event) -> bytes:
        """:meth:`encode_stored` with the timestamp already in microseconds (:meth:`micros`):
        the same bytes, for many events saved at one moment (a timedelta's division, some
        2 k instructions, once rather than per event)."""
        return self._encoder.encode((micros, event))

    def decode_stored(self, data: bytes) -> tuple[datetime, Event]:
        micros, event = self._stored.decode(data)
        return _EPOCH + micros * _MICROSECOND, event

    def decode_stored_many(self, items: list[bytes]) -> list[Event]:
        """The events of many stored records, decoded in one pass (timestamps dropped)."""
        stored: list[tuple[int, Event]] = self._stored_many.decode(_array(items))
        return [event for _, event in stored]

    def decode_stamped_many(self, items: list[bytes]) -> list[tuple[int, Event]]:
        """The ``[microseconds, event]`` pairs of many stored records, in one pass."""
        stored: list[tuple[int, Event]] = self._stored_many.decode(_array(items))
        return stored

    def decode_state(self, data: bytes) -> State:
        state: State = self._state.decode(data)
        return state


class Ruleset(Generic[S]):
    """Base class of a game's rules. One instance per process is enough; it holds no game."""

    name: ClassVar[str]
    state_type: type[S]
    events: tuple[type[Event], ...]
    appliers: dict[type[Event], Applier]
    root: str
    """The program every new game of this ruleset starts with."""
    position_event: type[Event] | None = None
    """The event that lays out an exact position (a game set up by a fixture)."""
    told: ClassVar[dict[type[Event], str]] = {}
    """Events a game is told from outside its rules, with the rule reference of their cause
    (Epic Multiplayer: what the event organizer reports). Re-execution re-applies them where
    the record has them, as it re-answers decisions."""
    redraw: ClassVar[str] = ""
    """The program a take-back runs after :class:`~domain.kernel.events.Reseeded`: it draws
    afresh what chance had decided and no seat has seen (:class:`~domain.kernel.events.CardsRedrawn`).
    Empty: the game hides nothing chance decided ahead."""
    rules_version: ClassVar[int] = 0
    """The version of these rules, recorded in the first event of every new game. A change
    that alters what re-executing a recorded game produces bumps it, with a line in
    ``changelog`` (see ``domain/kernel/changelog.py``)."""
    changelog: ClassVar[Path | None] = None

    def __init__(self) -> None:
        all_events = KERNEL_EVENTS + tuple(e for e in self.events if e not in KERNEL_EVENTS)
        missing = [e.__name__ for e in all_events if e not in self.appliers]
        if missing:
            raise TypeError(f"{self.name}: no apply function for {', '.join(missing)}")
        self.codec = Codec(all_events, self.state_type)

    def changes(self) -> tuple[RulesChange, ...]:
        """What changed in each version of these rules, oldest first."""
        return read_changelog(self.changelog) if self.changelog is not None else ()

    def changes_since(self, version: int) -> tuple[RulesChange, ...]:
        return tuple(c for c in self.changes() if c.version > version)

    def new_state(self) -> S:
        return self.state_type()

    def told_rule(self, kind: type[Event]) -> str | None:
        """The rule reference of a fact of type ``kind`` a game is told from outside its rules
        (:attr:`told`, and a take-back's fresh seed in every game); None if it is not one."""
        if kind is Reseeded:
            return f"{self.name}.take-back.reseed"
        return self.told.get(kind)

    def after(self, rt: Any, event: Event) -> None:
        """Queue what ``event`` triggers (Forced effects, Responses). Default: nothing."""

    def played_by_rules(self, rt: Any, ask: Any) -> Any:
        """A decision about to be asked of ``ask.seat``: when the rules themselves play that
        seat (a bot that is part of the game), return a :class:`~domain.kernel.flow.Played`
        (the answer and the event recording why) or another :class:`~domain.kernel.flow.Ask`
        (the rules hand the choice to another seat). Default: None, people decide."""
        return None

    def seats(self, state: S) -> list[str]:
        raise NotImplementedError

    def played_by_people(self, state: S) -> list[str]:
        """The seats people (or client bots) play: each gets a token. Default: every seat."""
        return self.seats(state)

    def card_name(self, state: S, uid: int) -> str:
        """The printed name of card ``uid`` (for logs and views)."""
        return f"card {uid}"


def recorded_rules_version(first: Event) -> int:
    """The rules version a game was recorded under, from its first event (0: none recorded)."""
    return first.rules_version if isinstance(first, Created) else 0
