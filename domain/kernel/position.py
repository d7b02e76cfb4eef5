"""Laying out an exact position (fixtures, rule disputes): the parts every game does alike.

A game's position module knows its zones and what state a card may be given. The rest is
the same in every game: what a laid-out position is, how a card entry is read, how cards
are labelled, the lasting effects and used limits already running, and the cursor that
sets a game at a step of its setup or of a round.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, TypeVar

from domain.kernel.events import Delayed, Event, Frame, Limit, Modifier
from domain.kernel.flow import NODES, FlowError, frames_to, program
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


def setup_frames(game: str, setup_program: str, at: str) -> list[Frame]:
    """The cursor of program ``game`` (setup, then rounds) set at step ``at`` of its setup."""
    try:
        return [Frame(program(game).key, 1), *frames_to(setup_program, at)]
    except FlowError as error:
        raise SetupError(f"cannot start at {at!r}: {error}") from None


MODIFIER_FIELDS = frozenset({"card", "stat", "amount", "until", "source"})
LIMIT_FIELDS = frozenset({"card", "player", "key", "until"})
DELAYED_FIELDS = frozenset({"card", "program", "at", "player"})
_LABEL_IN_KEY = re.compile(r"\{([^{}]+)\}")


@dataclass(frozen=True)
class Lasting:
    """What a position says is already running: modifiers, used limits, delayed effects."""

    modifiers: tuple[Modifier, ...] = ()
    limits: tuple[Limit, ...] = ()
    delayed: tuple[Delayed, ...] = ()


def lasting(position: Mapping[str, Any], labels: Mapping[str, int], scopes: Sequence[str]) -> Lasting:
    """The modifiers, used limits and delayed effects a position says are already running.

    ``modifiers = [{ card = "Gimli", stat = "attack", amount = 1, until = "round" }]``:
    a lasting change to a card's stat (``source``: the label of the card it comes from).
    ``limits = [{ card = "Glorfindel", until = "round" }]``: the card's limited ability
    was used (its key is the card, or ``card:player`` with ``player``); ``key`` gives
    the key outright, a card written as ``{label}`` (``"palantir.{Palantir of Orthanc}"``).
    ``until`` is one of ``scopes`` (``game``: it never lapses).
    ``delayed = [{ card = "Beorn", program = "core-031.shuffle-back", at = "phase" }]``: a
    card's text waiting for the end of ``at`` to run ``program`` (the card's, with the card as
    its own and ``player``, if given, as its controller).
    """

    def uid(where: str, name: object) -> int:
        if str(name) not in labels:
            raise SetupError(f"{where}: no card labelled {name!r} on the table")
        return labels[str(name)]

    def scope(where: str, spec: Mapping[str, Any], key: str = "until") -> str:
        until = str(spec.get(key, ""))
        if until not in scopes:
            raise SetupError(f"{where}: {key} {until!r} is not a scope; scopes are {', '.join(scopes)}")
        return until

    modifiers = []
    for spec in position.get("modifiers", []):
        where = f"modifier {dict(spec)}"
        _known_fields(where, spec, MODIFIER_FIELDS, ("card", "stat", "amount"))
        source = uid(where, spec["source"]) if "source" in spec else None
        until = scope(where, spec)
        modifiers.append(Modifier(uid(where, spec["card"]), str(spec["stat"]), int(spec["amount"]), until, source))
    limits = []
    for spec in position.get("limits", []):
        where = f"limit {dict(spec)}"
        _known_fields(where, spec, LIMIT_FIELDS, ())
        if "key" in spec:
            key = _LABEL_IN_KEY.sub(partial(_uid_text, uid, where), str(spec["key"]))
        elif "card" in spec:
            key = str(uid(where, spec["card"])) + (f":{spec['player']}" if "player" in spec else "")
        else:
            raise SetupError(f"{where}: give the card whose limit is used, or its key")
        limits.append(Limit(key, scope(where, spec)))
    delayed = []
    for spec in position.get("delayed", []):
        where = f"delayed effect {dict(spec)}"
        _known_fields(where, spec, DELAYED_FIELDS, ("card", "program", "at"))
        node = str(spec["program"])
        if node not in NODES:
            raise SetupError(f"{where}: no program {node!r}")
        card = uid(where, spec["card"])
        env: dict[str, Any] = {"self": card, "_card": card}
        if "player" in spec:
            env["player"] = str(spec["player"])
        delayed.append(Delayed(scope(where, spec, "at"), node, env))
    return Lasting(tuple(modifiers), tuple(limits), tuple(delayed))


def _uid_text(uid: Callable[[str, object], int], where: str, match: re.Match[str]) -> str:
    return str(uid(where, match.group(1)))


def _known_fields(where: str, spec: Mapping[str, Any], known: Set[str], required: Sequence[str]) -> None:
    unknown = set(spec) - known
    if unknown:
        raise SetupError(f"{where}: unknown field(s) {sorted(unknown)}; known: {', '.join(sorted(known))}")
    missing = [f for f in required if f not in spec]
    if missing:
        raise SetupError(f"{where}: missing {', '.join(missing)}")
