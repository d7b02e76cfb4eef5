"""Verify a game's log: the hash chain, then re-execution of its decisions from the seed.

The chain check finds an edited, removed or reordered event on its own. Re-execution
starts a new game from the first event (which carries the seed, the options and the rules
version the game was played under), answers every recorded decision in order with the
current rules, and compares the events it produces with the stored ones byte for byte.

The verdict tells three failures apart, because they mean different things to whoever
holds the record:

- the chain is broken (an event was edited, removed, reordered, or the record was cut short
  or damaged): the record is not what was played;
- the chain is intact but re-execution differs: either the rules changed since the game was
  recorded (its rules version is older than the current one: the verdict names the changes
  from the ruleset's changelog), or, under the same rules version, the record was rewritten
  with its hashes recomputed (or a rule changed without a version bump);
- the record's ruleset or rules version is not known to this engine: it cannot be
  re-executed here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from uuid import UUID

import msgspec

from domain.game import BrokenGame, Game
from domain.kernel.changelog import RulesChange
from domain.kernel.decisions import RuleError
from domain.kernel.events import NO_CAUSE, DecisionAnswered, Event, Frame
from domain.kernel.ruleset import Ruleset, recorded_rules_version
from domain.kernel.state import GENESIS

_NIL = UUID(int=0)


class Status(StrEnum):
    OK = "ok"
    CHAIN_BROKEN = "chain-broken"
    REEXECUTION_DIFFERS = "reexecution-differs"
    UNKNOWN_RULES = "unknown-rules"


EXIT_CODES: dict[Status, int] = {
    Status.OK: 0,
    Status.CHAIN_BROKEN: 1,
    Status.REEXECUTION_DIFFERS: 3,
    Status.UNKNOWN_RULES: 4,
}
"""The exit status of ``westmarch verify`` for each verdict (2 is a usage error)."""


@dataclass(frozen=True)
class Verdict:
    status: Status
    events: int
    first_bad: int | None = None
    reason: str = ""
    field: str = ""
    """With a re-execution difference: where the first differing event differs (``cause.rule``)."""
    ruleset: str = ""
    recorded_rules: int | None = None
    """The rules version the record was made under (0: before versions were recorded)."""
    current_rules: int | None = None
    changes: tuple[RulesChange, ...] = ()
    """The rules changes between the recorded version and the current one."""

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def __str__(self) -> str:
        versions = self._versions()
        if self.status is Status.OK:
            return f"ok: {self.events} events, hash chain intact, decisions re-executed identically{versions}"
        if self.status is Status.CHAIN_BROKEN and self.first_bad is None:
            return f"FAILED: the record is damaged: {self.reason}"
        if self.status is Status.CHAIN_BROKEN:
            return (
                f"FAILED at event {self.first_bad}: the hash chain is broken: {self.reason} "
                "(the record was edited, cut short or damaged after it was made)"
            )
        if self.status is Status.UNKNOWN_RULES:
            return f"FAILED: unknown rules: {self.reason}"
        where = f" ({self.field})" if self.field else ""
        text = (
            f"FAILED at event {self.first_bad}: the hash chain is intact but re-execution differs{where}: "
            f"{self.reason}{versions}"
        )
        if self.recorded_rules is not None and self.recorded_rules == self.current_rules:
            text += (
                "; under the same rules version, so either the record was rewritten with its hashes "
                "recomputed, or a rule changed without a version bump"
            )
        elif self.changes:
            text += "; rules changes since: " + "; ".join(str(c) for c in self.changes)
        return text

    def _versions(self) -> str:
        if self.recorded_rules is None or self.current_rules is None:
            return ""
        name = f"{self.ruleset} rules" if self.ruleset else "rules"
        recorded = f"v{self.recorded_rules}" if self.recorded_rules else "v0 (before rules versions were recorded)"
        if self.recorded_rules == self.current_rules:
            return f"; recorded under {name} v{self.recorded_rules} (the current version)"
        return f"; recorded under {name} {recorded}, this engine has v{self.current_rules}"


def canonical(rules: Ruleset[Any], event: Event) -> bytes:
    """The bytes an event's hash covers: the event without its hash."""
    return rules.codec.encode(msgspec.structs.replace(event, hash=""))


def chain_link(previous: str, content: bytes) -> str:
    """The hash of an event whose canonical bytes are ``content``, after ``previous``."""
    return hashlib.sha256(previous.encode() + content).hexdigest()


def check_chain(rules: Ruleset[Any], events: Sequence[Event]) -> Verdict:
    head = GENESIS
    for i, event in enumerate(events, start=1):
        if event.seq != i:
            return _broken(events, i, f"sequence number {event.seq} where {i} was expected")
        if chain_link(head, canonical(rules, event)) != event.hash:
            return _broken(events, i, "the hash does not match the event's content and the chain")
        head = event.hash
    return Verdict(Status.OK, len(events))


def _broken(events: Sequence[Event], at: int, reason: str) -> Verdict:
    return Verdict(Status.CHAIN_BROKEN, len(events), at, reason)


def verify(rules: Ruleset[Any], events: Sequence[Event]) -> Verdict:
    """Check the chain, the rules version, then re-execute (see the module's docstring)."""
    chain = check_chain(rules, events)
    return chain if not chain.ok else verify_decisions(rules, events)


def verify_decisions(rules: Ruleset[Any], events: Sequence[Event]) -> Verdict:
    """With the chain checked: the rules version the events were recorded under, then
    re-execution of their decisions, with both versions in the verdict."""
    if not events:
        return _broken(events, 1, "the log is empty")
    recorded = recorded_rules_version(events[0])
    if recorded > rules.rules_version:
        return Verdict(
            Status.UNKNOWN_RULES,
            len(events),
            reason=f"the game was recorded under {rules.name} rules v{recorded}; this engine knows "
            f"{rules.name} rules up to v{rules.rules_version} (verify it with a newer Westmarch)",
            ruleset=rules.name,
            recorded_rules=recorded,
            current_rules=rules.rules_version,
        )
    found = reexecute(rules, events)
    return Verdict(
        found.status,
        found.events,
        found.first_bad,
        found.reason,
        found.field,
        rules.name,
        recorded,
        rules.rules_version,
        rules.changes_since(recorded) if not found.ok else (),
    )


def reexecute(rules: Ruleset[Any], events: Sequence[Event]) -> Verdict:
    """Answer the recorded decisions from the seed with ``rules``; the first difference."""
    if not events:
        return _broken(events, 1, "the log is empty")
    created = _bare(events[0])
    game: Game | None = None
    try:
        placed = events[1] if len(events) > 1 else None
        if rules.position_event is not None and isinstance(placed, rules.position_event):
            frames: list[Frame] = []
            if placed.flow:
                placed.flow.onto(frames)  # the cursor as the fold has it (a pushed frame may extend the one below)
            game = Game.start_at(_NIL, rules, created, _bare(placed), frames)
        else:
            game = Game.start(_NIL, rules, created)
        for event in events:
            told = rules.told_rule(type(event)) is not None
            if not isinstance(event, DecisionAnswered) and not told:
                continue
            if game.version >= event.seq:
                break
            if game.version != event.seq - 1:
                return _compare(rules, events, game.pending_events)
            if not isinstance(event, DecisionAnswered):
                game.tell(_bare(event))
                continue
            try:
                game.answer(event.seat, event.decision, event.choice)
            except RuleError as error:
                return _earlier_difference(rules, events, game.pending_events) or _differs(
                    events, event.seq, "choice", f"the recorded answer {list(event.choice)} is refused: {error}"
                )
    except BrokenGame as error:
        replayed = game.pending_events if game is not None else ()
        at = len(replayed) + 1
        return _earlier_difference(rules, events, replayed) or _differs(
            events, at, "", f"re-execution fails at event {at}: {error}"
        )
    return _compare(rules, events, game.pending_events)


def _bare(event: Event) -> Event:
    """The event as a rule step first states it, before the runtime fills it in."""
    return msgspec.structs.replace(event, seq=0, cause=NO_CAUSE, flow=None, draws=0, hash="")


def _differs(events: Sequence[Event], at: int, field: str, reason: str) -> Verdict:
    return Verdict(Status.REEXECUTION_DIFFERS, len(events), at, reason, field)


def _earlier_difference(rules: Ruleset[Any], events: Sequence[Event], replayed: Sequence[Event]) -> Verdict | None:
    """The first difference between the recorded events and those re-executed so far."""
    encode = rules.codec.encode
    for i, (stored, again) in enumerate(zip(events, replayed, strict=False), start=1):
        if encode(stored) != encode(again):
            field = _differing_field(stored, again)
            if type(stored) is not type(again):
                what = f"re-execution gives {type(again).__name__} where the record has {type(stored).__name__}"
            else:
                what = f"re-execution gives a different {type(stored).__name__}"
            return _differs(events, i, field, what)
    return None


def _compare(rules: Ruleset[Any], events: Sequence[Event], replayed: Sequence[Event]) -> Verdict:
    found = _earlier_difference(rules, events, replayed)
    if found is not None:
        return found
    if len(replayed) != len(events):
        n = min(len(replayed), len(events)) + 1
        what = "more" if len(replayed) > len(events) else "fewer"
        return _differs(events, n, "", f"re-execution gives {what} events than the record ({len(replayed)})")
    return Verdict(Status.OK, len(events))


def _differing_field(stored: Event, again: Event) -> str:
    """The first field that differs, leaving out the hash (which differs whenever the rest does)."""
    ours: dict[str, Any] = msgspec.to_builtins(stored)
    theirs: dict[str, Any] = msgspec.to_builtins(again)
    hashes = ours.pop("hash", ""), theirs.pop("hash", "")
    return first_field(ours, theirs) or ("hash" if hashes[0] != hashes[1] else "type")


def first_field(stored: Any, again: Any, path: str = "") -> str:
    """The path of the first value that differs between two JSON-like values ("" if none).

    ``cause.rule``, ``cards[2]``, ``decision.options[0].label``: the deepest field whose
    values differ, so a reader sees what changed rather than that the event did.
    """
    if isinstance(stored, dict) and isinstance(again, dict):
        for key in (*stored, *(k for k in again if k not in stored)):
            here = f"{path}.{key}" if path else str(key)
            if key not in stored or key not in again:
                return here
            found = first_field(stored[key], again[key], here)
            if found:
                return found
        return ""
    if isinstance(stored, list) and isinstance(again, list):
        for i, (a, b) in enumerate(zip(stored, again, strict=False)):
            found = first_field(a, b, f"{path}[{i}]")
            if found:
                return found
        return path if len(stored) != len(again) else ""
    return path if stored != again or type(stored) is not type(again) else ""
