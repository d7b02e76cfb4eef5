"""Game records in and out of a store: export a stored game, import a record as a game.

The record format is described in ``domain/record.py``. An export copies the store's own
bytes of each event, so a record imported into another store (SQLite or PostgreSQL) holds
the same bytes, the same hashes and the same times as the original.

An import checks the whole record first (header, hash chain, canonical bytes, a ruleset and
rules version this engine knows) and writes nothing unless it passes; then it saves every
event in one transaction. The game keeps its id, so importing the same record again adds
nothing; a later record of the same game (the game went on) adds the events the store does
not have yet; a record whose history differs from the stored game of the same id is refused.
Every game imported is re-executed first, from its seed, with the stored game it goes on if
any (as ``westmarch verify FILE`` does), and refused if the rules would not have produced
it: a record forged with its hashes recomputed is never stored, so never served.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from uuid import UUID

import msgspec

from domain.engine import engine
from domain.record import Checked, Rulesets, check_record, header_line
from domain.rulesets import ruleset
from domain.verify import Verdict
from projections.i18n import say
from projections.verdicts import told
from service.app import ConcurrentUpdate, ForgedRecord, Westmarch

PAGE = 2000
"""Events read from the store per chunk of an export."""
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class DamagedStore(Exception):
    """A stored event cannot be exported as it is (``westmarch verify GAME`` names it)."""


class ImportRefused(Exception):
    """The record was not imported; nothing was written. ``verdict`` says why, if it is the record's fault."""

    def __init__(self, message: str, verdict: Verdict | None = None) -> None:
        super().__init__(message)
        self.verdict = verdict


@dataclass(frozen=True)
class Imported:
    game_id: UUID
    ruleset: str
    events: int
    """Events in the record."""
    added: int
    """Events written to the store (0 when it had them all already)."""


def export(app: Westmarch, game_id: UUID, page: int = PAGE) -> Iterator[bytes]:
    """The record of a stored game, in chunks of whole lines: the header, then the events.

    The game's version is read first; events saved while the export runs are left out, so
    the header and the events always agree.
    """
    rules = app.rules_of(game_id)
    latest = app.version(game_id)
    try:
        _, first = rules.codec.decode_stored(app.stored(game_id, lte=1)[0])
        _, last = rules.codec.decode_stored(app.stored(game_id, gt=latest - 1, lte=latest)[0])
    except msgspec.DecodeError:
        raise DamagedStore(
            say("game %(game)s: a stored event cannot be read; see: westmarch verify %(game)s", game=game_id)
        ) from None
    yield header_line(game_id, rules, first, last, engine())
    for gt in range(0, latest, page):
        states = app.stored(game_id, gt, min(gt + page, latest))
        for offset, state in enumerate(states, start=gt + 1):
            if b"\n" in state:
                raise DamagedStore(
                    say("game %(game)s: stored event %(n)s spans lines (see: westmarch verify)", game=game_id, n=offset)
                )
        yield b"\n".join(states) + b"\n"


def import_record(app: Westmarch, lines: Iterable[bytes], rulesets: Rulesets = ruleset) -> Imported:
    """Check a record and save it as a game (see the module's docstring); :class:`ImportRefused` otherwise."""
    checked = check_record(lines, rulesets)
    if not checked.verdict.ok or checked.header is None or checked.rules is None:
        raise ImportRefused(say("not imported: %(verdict)s", verdict=told(checked.verdict)), checked.verdict)
    rules, events = checked.rules, checked.events
    game_id = UUID(checked.header.game_id)
    start = _stored_part(app, game_id, checked)
    if start >= len(events):
        return Imported(game_id, rules.name, len(events), 0)
    stamps = [_EPOCH + timedelta(microseconds=m) for m in checked.stamps[start:]]
    try:
        app.adopt(game_id, rules, events[start:], stamps)
    except ConcurrentUpdate:
        raise ImportRefused(
            say("not imported: game %(game)s was changed while importing; try again", game=game_id)
        ) from None
    except ForgedRecord as error:  # what it adds to a stored game does not re-execute
        raise ImportRefused(say("not imported: %(verdict)s", verdict=told(error.verdict)), error.verdict) from None
    return Imported(game_id, rules.name, len(events), len(events) - start)


def _stored_part(app: Westmarch, game_id: UUID, checked: Checked) -> int:
    """How many of the record's events the store has already (0 if it has no such game)."""
    from service.store import latest_version

    have = latest_version(app.recorder, game_id)
    if not have:
        return 0
    assert checked.rules is not None
    events = checked.events
    common = min(have, len(events))
    ours = app.history(game_id, gt=common - 1, lte=common) if app.rules_of(game_id) is checked.rules else []
    if not ours or ours[0].hash != events[common - 1].hash:
        raise ImportRefused(
            say(
                "not imported: this store already has a game %(game)s whose history differs from the record's "
                "(at event %(at)s); nothing was written",
                game=game_id,
                at=common,
            )
        )
    return have
