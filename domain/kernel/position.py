"""Laying out an exact position (fixtures, rule disputes): the parts every game does alike.

A game's position module knows its zones and what state a card may be given. The rest is
the same in every game: what a laid-out position is, how a card entry is read, how cards
are labelled, and the cursor that sets a game at a step of a round.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from domain.kernel.events import Event, Frame
from domain.kernel.flow import FlowError, frames_to, program
from domain.kernel.ruleset import SetupError

C = TypeVar("C", bound=Event)
P = TypeVar("P", bound=Event)


@dataclass
class Position(Generic[C, P]):
    """A laid-out game: the event that creates it, the event that lays out the table, the
    cursor to resume from, and the label of each card."""

    created: C
    placed: P
    frames: list[Frame]
    labels: dict[str, int] = field(default_factory=dict)


def card_entry(zone: str, entry: str | Mapping[str, Any], fields: Set[str]) -> dict[str, Any]:
    """A card entry of ``zone`` as a table: a bare name or code stands for ``{ card = ... }``.

    Raises :class:`SetupError` for a field not in ``fields``.
    """
    spec = {"card": entry} if isinstance(entry, str) else dict(entry)
    unknown = set(spec) - fields
    if unknown:
        raise SetupError(f"zone {zone}: unknown card field(s) {sorted(unknown)}")
    return spec


def label(name: str, taken: Mapping[str, int]) -> str:
    """``name``, or the first of ``name 2``, ``name 3``, ... not yet taken."""
    if name not in taken:
        return name
    n = 2
    while f"{name} {n}" in taken:
        n += 1
    return f"{name} {n}"


def round_frames(game: str, round_program: str, at: str) -> list[Frame]:
    """The cursor of program ``game`` (setup, then ``round_program`` repeated) set at step ``at``
    of a round, setup done."""
    game_program = program(game)
    rounds = list(game_program.children())[1]
    try:
        return [Frame(game_program.key, 2), Frame(rounds.key, 1), *frames_to(round_program, at)]
    except FlowError as error:
        raise SetupError(f"cannot start at {at!r}: {error}") from None
