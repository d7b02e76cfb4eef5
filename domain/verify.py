"""Verify a game's log: the hash chain, then re-execution of its decisions from the seed.

The chain check finds an edited, removed or reordered event on its own. Re-execution
starts a new game from the first event (which carries the seed and options), answers
every recorded decision in order with the current rules, and compares the events it
produces with the stored ones byte for byte; the first difference is reported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgspec

from domain.game import BrokenGame, Game
from domain.kernel.decisions import RuleError
from domain.kernel.events import NO_CAUSE, DecisionAnswered, Event
from domain.kernel.ruleset import Ruleset
from domain.kernel.state import GENESIS

_NIL = UUID(int=0)


@dataclass(frozen=True)
class Verdict:
    ok: bool
    events: int
    first_bad: int | None = None
    reason: str = ""

    def __str__(self) -> str:
        if self.ok:
            return f"ok: {self.events} events, hash chain intact, decisions re-executed identically"
        return f"FAILED at event {self.first_bad}: {self.reason}"


def canonical(rules: Ruleset[Any], event: Event) -> bytes:
    """The bytes an event's hash covers: the event without its hash."""
    return rules.codec.encode(msgspec.structs.replace(event, hash=""))


def check_chain(rules: Ruleset[Any], events: Sequence[Event]) -> Verdict:
    head = GENESIS
    for i, event in enumerate(events, start=1):
        if event.seq != i:
            return Verdict(False, len(events), i, f"sequence number {event.seq} where {i} was expected")
        digest = hashlib.sha256(head.encode() + canonical(rules, event)).hexdigest()
        if digest != event.hash:
            return Verdict(False, len(events), i, "hash does not match the event's content and the chain")
        head = event.hash
    return Verdict(True, len(events))


def reexecute(rules: Ruleset[Any], events: Sequence[Event]) -> Verdict:
    if not events:
        return Verdict(False, 0, 1, "the log is empty")
    created = _bare(events[0])
    try:
        placed = events[1] if len(events) > 1 else None
        if rules.position_event is not None and isinstance(placed, rules.position_event):
            frames = placed.flow.push if placed.flow else ()
            game = Game.start_at(_NIL, rules, created, _bare(placed), frames)
        else:
            game = Game.start(_NIL, rules, created)
        for event in events:
            if isinstance(event, DecisionAnswered):
                if game.version >= event.seq:
                    break
                if game.version != event.seq - 1:
                    return _first_difference(rules, events, game)
                try:
                    game.answer(event.seat, event.decision, event.choice)
                except RuleError as error:
                    return Verdict(False, len(events), event.seq, f"the recorded answer is refused: {error}")
    except BrokenGame as error:
        return Verdict(False, len(events), None, f"re-execution failed: {error}")
    return _first_difference(rules, events, game)


def _bare(event: Event) -> Event:
    """The event as a rule step first states it, before the runtime fills it in."""
    return msgspec.structs.replace(event, seq=0, cause=NO_CAUSE, flow=None, draws=0, hash="")


def _first_difference(rules: Ruleset[Any], events: Sequence[Event], game: Game) -> Verdict:
    replayed = game.pending_events
    encode = rules.codec.encode
    for i, (stored, again) in enumerate(zip(events, replayed, strict=False), start=1):
        if encode(stored) != encode(again):
            return Verdict(
                False,
                len(events),
                i,
                f"re-execution gives {type(again).__name__} where the log has {type(stored).__name__}",
            )
    if len(replayed) != len(events):
        n = min(len(replayed), len(events)) + 1
        what = "more" if len(replayed) > len(events) else "fewer"
        return Verdict(False, len(events), n, f"re-execution gives {what} events than the log")
    return Verdict(True, len(events))


def verify(rules: Ruleset[Any], events: Sequence[Event]) -> Verdict:
    chain = check_chain(rules, events)
    return chain if not chain.ok else reexecute(rules, events)
