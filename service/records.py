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

Each record is a one-event aggregate (:class:`Record`), so the ``eventsourcing``
application saves it with the game in one ``save`` call.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID, uuid5

import msgspec

SEATS_TOPIC = "westmarch.service.seats"
COMMAND_TOPIC = "westmarch.service.command"


class SeatsAssigned(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int = 1
    game_id: UUID
    hashes: dict[str, str]
    """Viewer (``p1``..., ``spectator``, ``referee``) to the hex SHA-256 of its token."""
    request: str = ""
    """For a game created with a request id: the SHA-256 of the request (a retry must match)."""
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


ServiceRecord = SeatsAssigned | CommandApplied

TOPICS: dict[type[Any], str] = {SeatsAssigned: SEATS_TOPIC, CommandApplied: COMMAND_TOPIC}
DECODERS: dict[str, msgspec.json.Decoder[Any]] = {
    SEATS_TOPIC: msgspec.json.Decoder(SeatsAssigned),
    COMMAND_TOPIC: msgspec.json.Decoder(CommandApplied),
}


def seats_id(game_id: UUID) -> UUID:
    return uuid5(game_id, "seats")


def command_id(game_id: UUID, seat: str, command: str) -> UUID:
    return uuid5(game_id, f"command/{seat}/{command}")


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
