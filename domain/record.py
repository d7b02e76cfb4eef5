"""Game records: one game in a self-contained file that anyone can check without a store.

The format (``westmarch_record`` 1) is JSON Lines, UTF-8, one ``\\n`` after every line:

- **Line 1, the header**, a JSON object: ``westmarch_record`` (the format version, 1),
  ``game_id``, ``ruleset`` (``lcg``, ``wotr``), ``scenario``, ``options`` (the game's options
  as in its first event), ``rules_version`` (the version of the ruleset's rules the game was
  played under, as its first event records it), ``played_engine`` (the Westmarch the game
  was started with, as its first event records it; empty for older games), ``engine`` (the
  Westmarch that wrote the file) and ``engine_rules_version`` (its version of those rules), ``events`` (how many
  follow), ``first_hash`` and ``last_hash`` (of the first and last event), ``over`` and
  ``outcome`` (how the game ended, or null), ``exported_at`` (ISO 8601, UTC).
- **One line per event**, in order: ``[microseconds since 1970 UTC, event]``, the exact
  bytes the event store keeps. The event is a JSON object: ``type``, ``seq`` (its number,
  from 1), ``cause`` (``rule``, and ``card``, ``by``, ``answer`` when they apply), ``flow``
  (how the rules' cursor moved), ``draws`` (random draws it used), ``hash``, then the
  fields of its type. Fields at their default value are left out.

The hash chain: an event's ``hash`` is the hex SHA-256 of the previous event's hash (64
zeros before the first) followed by the event's bytes without its ``hash`` field. The chain
covers every event and its order; the header and the timestamps are not covered, so the
header is checked against the events it describes. The file is written and read one line
at a time, so it can be streamed.

:func:`check_record` checks a record without knowing its rules first (the chain can be
recomputed from the JSON alone), then decodes its events with their ruleset;
:func:`verify_record` also re-executes them (``domain/verify.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel.events import Event, GameEnded
from domain.kernel.ruleset import Ruleset, recorded_rules_version
from domain.kernel.state import GENESIS
from domain.verify import Status, Verdict, chain_link, verify_decisions

FORMAT = 1
"""The version of the record format this engine writes and reads."""


class Header(msgspec.Struct, frozen=True, kw_only=True):
    westmarch_record: int
    game_id: str
    ruleset: str
    scenario: str
    options: Any
    rules_version: int
    played_engine: str = ""
    engine: str
    engine_rules_version: int
    events: int
    first_hash: str
    last_hash: str
    over: bool
    outcome: Any = None
    exported_at: str = ""


_encode = msgspec.json.Encoder().encode
_header = msgspec.json.Decoder(Header)
_line = msgspec.json.Decoder(tuple[int, dict[str, Any]])

Rulesets = Callable[[str], Ruleset[Any]]
"""Finds a ruleset by name (``domain.rulesets.ruleset``); raises KeyError if it knows none."""


def header_line(
    game_id: UUID, rules: Ruleset[Any], first: Event, last: Event, engine: str, at: datetime | None = None
) -> bytes:
    """The header of a record of a game whose first and last events are given."""
    options = getattr(first, "options", None)
    outcome = last.outcome if isinstance(last, GameEnded) else None
    header = Header(
        westmarch_record=FORMAT,
        game_id=str(game_id),
        ruleset=rules.name,
        scenario=str(getattr(options, "scenario", "")),
        options=msgspec.to_builtins(options),
        rules_version=recorded_rules_version(first),
        played_engine=str(getattr(first, "engine", "")),
        engine=engine,
        engine_rules_version=rules.rules_version,
        events=last.seq,
        first_hash=first.hash,
        last_hash=last.hash,
        over=outcome is not None,
        outcome=msgspec.to_builtins(outcome),
        exported_at=(at or datetime.now(UTC)).isoformat(timespec="seconds"),
    )
    return _encode(header) + b"\n"


@dataclass
class Checked:
    """A record read and checked: its verdict so far, and what could be read of it."""

    verdict: Verdict
    header: Header | None = None
    rules: Ruleset[Any] | None = None
    events: list[Event] = field(default_factory=list)
    stamps: list[int] = field(default_factory=list)
    """When each event was saved (microseconds since 1970 UTC), as the record says."""


def check_record(lines: Iterable[bytes], rulesets: Rulesets) -> Checked:
    """The header, then the hash chain from the JSON alone, then the events decoded.

    ``lines`` are the file's lines with their ``\\n`` (as iterating over a binary file gives
    them). The verdict is OK when the chain is intact, the header agrees with the events and
    every event is in its ruleset's canonical bytes; re-execution is not run here.
    """
    rows = iter(lines)
    first = next(rows, b"")
    try:
        header = _header.decode(first)
    except (msgspec.DecodeError, msgspec.ValidationError):
        what = "the file is empty" if not first else "its first line is not a Westmarch record header"
        return Checked(_damaged(0, f"not a Westmarch game record: {what}"))
    if header.westmarch_record != FORMAT:
        reason = f"record format {header.westmarch_record}; this engine reads format {FORMAT}"
        return Checked(Verdict(Status.UNKNOWN_RULES, header.events, reason=reason), header)
    raw: list[bytes] = []
    head = GENESIS
    first_version: Any = 0
    first_engine: Any = ""
    first_hash = ""
    for i, line in enumerate(rows, start=1):
        if not line.endswith(b"\n"):
            return Checked(_damaged(i, f"the file is cut short in event {i} (the header says {header.events})"), header)
        try:
            _, event = _line.decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            return Checked(_damaged(i, f"event {i} cannot be read: {error}"), header)
        if event.get("seq") != i:
            return Checked(_damaged(i, f"sequence number {event.get('seq')} where {i} was expected"), header)
        digest = event.pop("hash", "")
        if chain_link(head, _encode(event)) != digest:
            return Checked(_damaged(i, "the hash does not match the event's content and the chain"), header)
        if i == 1:
            first_version, first_hash = event.get("rules_version", 0), digest
            first_engine = event.get("engine", "")
            if type(first_version) is not int:
                return Checked(_damaged(1, f"the rules version {first_version!r} is not a number"), header)
        head = digest
        raw.append(line[:-1])
    count = len(raw)
    problem = _disagreement(header, count, (first_hash, head), first_version)
    if problem is None and header.played_engine != first_engine:
        problem = _damaged(
            1,
            f"the header says the game was started with {header.played_engine!r}, the first event "
            f"with {first_engine!r}",
        )
    if problem is not None:
        return Checked(problem, header)
    try:
        rules = rulesets(header.ruleset)
    except KeyError as error:
        reason = f"{error.args[0] if error.args else error}; the hash chain of its {count} events is intact"
        return Checked(Verdict(Status.UNKNOWN_RULES, count, reason=reason), header)
    if first_version > rules.rules_version:
        reason = (
            f"the game was recorded under {rules.name} rules v{first_version}; this engine knows {rules.name} "
            f"rules up to v{rules.rules_version} (the hash chain of its {count} events is intact; verify it "
            "with a newer Westmarch)"
        )
        return Checked(
            Verdict(
                Status.UNKNOWN_RULES,
                count,
                reason=reason,
                ruleset=rules.name,
                recorded_rules=first_version,
                current_rules=rules.rules_version,
            ),
            header,
            rules,
        )
    return _decoded(header, rules, raw)


def _disagreement(header: Header, count: int, hashes: tuple[str, str], version: int) -> Verdict | None:
    """Whether the header says something the events do not."""
    if count < header.events:
        return _damaged(count + 1, f"the record ends after event {count}; its header says {header.events} (cut short)")
    if count > header.events:
        return _damaged(header.events + 1, f"the record has {count} events; its header says {header.events}")
    if count == 0:
        return _damaged(1, "the record has no events")
    if hashes[1] != header.last_hash:
        return _damaged(count, "the header's last hash is not the last event's")
    if hashes[0] != header.first_hash:
        return _damaged(1, "the header's first hash is not the first event's")
    if version != header.rules_version:
        return _damaged(1, f"the header says rules v{header.rules_version}, the first event v{version}")
    return None


def _decoded(header: Header, rules: Ruleset[Any], raw: list[bytes]) -> Checked:
    codec = rules.codec
    try:
        stamped = codec.decode_stamped_many(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        stamped = []
        for i, line in enumerate(raw, start=1):
            try:
                stamped += codec.decode_stamped_many([line])
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                return Checked(_damaged(i, f"event {i} is not a {rules.name} event: {error}"), header, rules)
    encode = codec.encode
    for i, (pair, line) in enumerate(zip(stamped, raw, strict=True), start=1):
        if encode(pair) != line:
            return Checked(
                _damaged(i, f"event {i} is not in its canonical bytes (a field added, moved or respaced)"),
                header,
                rules,
            )
    return Checked(
        Verdict(Status.OK, len(raw)),
        header,
        rules,
        [event for _, event in stamped],
        [micros for micros, _ in stamped],
    )


def _damaged(at: int, reason: str) -> Verdict:
    return Verdict(Status.CHAIN_BROKEN, 0, at or None, reason)


def verify_record(lines: Iterable[bytes], rulesets: Rulesets) -> Checked:
    """:func:`check_record`, then the rules version and re-execution of the decisions."""
    checked = check_record(lines, rulesets)
    if checked.verdict.ok and checked.rules is not None:
        checked.verdict = verify_decisions(checked.rules, checked.events)
    return checked
