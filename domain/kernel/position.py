"""Laying out an exact position (fixtures, rule disputes): the parts every game does alike.

A game's position module knows its zones and what state a card may be given. The rest is
the same in every game: what a laid-out position is, how a card entry is read, how cards
are labelled, the lasting effects and used limits already running, and the cursor that
sets a game at a step of its setup or of a round.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
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


def zone_seat(zone: str, seats: Sequence[str], seat_zones: Sequence[str], whose: str = "a seat's") -> str | None:
    """The seat whose zone ``zone`` is (``p1.hand``: ``p1``), or None for a zone of no seat.

    Raises :class:`SetupError` for a zone of a seat that is not one of ``seat_zones``.
    """
    seat, _, rest = zone.partition(".")
    if seat not in seats:
        return None
    if rest not in seat_zones:
        raise SetupError(f"unknown zone {zone!r}; {whose} zones are {', '.join(seat_zones)}")
    return seat


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


FRAME_FIELDS = frozenset({"node", "i", "env", "none", "items"})


def stack_frames(position: Mapping[str, Any], game: str) -> list[Frame]:
    """The cursor a position states outright (``stack``, a captured game's): each frame's
    ``node`` (a registered program node's key), ``i`` (how far it has run), ``env`` (its
    bindings; ``none`` lists those bound to nothing, TOML having no null) and ``items``
    (the items a loop works through), bottom of the stack first."""
    if "at" in position:
        raise SetupError("give the step to start at (at) or the whole stack (stack), not both")
    frames = []
    for n, spec in enumerate(position["stack"], start=1):
        where = f"stack frame {n}"
        _known_fields(where, spec, FRAME_FIELDS, ("node",))
        node = str(spec["node"])
        if node not in NODES:
            raise SetupError(f"{where}: no program node {node!r}")
        env = dict(spec.get("env", {})) | {str(k): None for k in spec.get("none", [])}
        items = spec.get("items")
        frames.append(Frame(node, int(spec.get("i", 0)), env, None if items is None else list(items)))
    if not frames or not frames[0].node.startswith(game):
        raise SetupError(f"stack: the bottom frame must be of the program {game!r}")
    return frames


MODIFIER_FIELDS = frozenset({"card", "stat", "amount", "until", "source"})
LIMIT_FIELDS = frozenset({"card", "player", "key", "until"})
DELAYED_FIELDS = frozenset({"card", "program", "at", "player", "bind"})
_LABEL_IN_KEY = re.compile(r"\{([^{}]+)\}")


@dataclass(frozen=True)
class Lasting:
    """What a position says is already running: modifiers, used limits, delayed effects."""

    modifiers: tuple[Modifier, ...] = ()
    limits: tuple[Limit, ...] = ()
    delayed: tuple[Delayed, ...] = ()


def lasting(
    position: Mapping[str, Any], labels: Mapping[str, int], scopes: Sequence[str], seats: Sequence[str]
) -> Lasting:
    """The modifiers, used limits and delayed effects a position says are already running.

    ``modifiers = [{ card = "Gimli", stat = "attack", amount = 1, until = "round" }]``:
    a lasting change to a card's stat (``source``: the label of the card it comes from).
    ``limits = [{ card = "Glorfindel", until = "round" }]``: the card's limited ability
    was used (its key is the card, or ``card:player`` with ``player``); ``key`` gives
    the key outright, a card written as ``{label}`` (``"palantir.{Palantir of Orthanc}"``).
    ``until`` is one of ``scopes`` (``game``: it never lapses).
    ``delayed = [{ card = "Beorn", program = "core-031.shuffle-back", at = "phase" }]``: a
    card's text waiting for the end of ``at`` to run ``program`` (the card's, with the card as
    its own and ``player``, if given, as its controller; ``bind`` gives the program's other
    bindings, a card by its label: ``bind = { ally = "Gandalf" }``).
    """
    read = _Reader(labels, scopes, seats)
    return Lasting(
        tuple(read.modifier(spec) for spec in position.get("modifiers", [])),
        tuple(read.limit(spec) for spec in position.get("limits", [])),
        tuple(read.delayed(spec) for spec in position.get("delayed", [])),
    )


@dataclass(frozen=True)
class _Reader:
    """Reads the entries of a position's lasting effects, naming the entry in each error."""

    labels: Mapping[str, int]
    scopes: Sequence[str]
    seats: Sequence[str]

    def modifier(self, spec: Mapping[str, Any]) -> Modifier:
        where = f"modifier {dict(spec)}"
        _known_fields(where, spec, MODIFIER_FIELDS, ("card", "stat", "amount"))
        source = self.uid(where, spec["source"]) if "source" in spec else None
        target = self.uid(where, spec["card"])
        return Modifier(target, str(spec["stat"]), int(spec["amount"]), self.scope(where, spec), source)

    def limit(self, spec: Mapping[str, Any]) -> Limit:
        where = f"limit {dict(spec)}"
        _known_fields(where, spec, LIMIT_FIELDS, ())
        if "key" in spec:
            key = _LABEL_IN_KEY.sub(lambda m: str(self.uid(where, m.group(1))), str(spec["key"]))
        elif "card" in spec:
            key = str(self.uid(where, spec["card"]))
            if "player" in spec:
                key += f":{self.seat(where, spec['player'])}"
        else:
            raise SetupError(f"{where}: give the card whose limit is used, or its key")
        return Limit(key, self.scope(where, spec))

    def delayed(self, spec: Mapping[str, Any]) -> Delayed:
        where = f"delayed effect {dict(spec)}"
        _known_fields(where, spec, DELAYED_FIELDS, ("card", "program", "at"))
        node = str(spec["program"])
        if node not in NODES:
            raise SetupError(f"{where}: no program {node!r}")
        card = self.uid(where, spec["card"])
        env: dict[str, Any] = {"self": card, "_card": card}
        if "player" in spec:
            env["player"] = self.seat(where, spec["player"])
        for name, value in dict(spec.get("bind", {})).items():
            env[str(name)] = self.labels.get(value, value) if isinstance(value, str) else value
        return Delayed(self.scope(where, spec, "at"), node, env)

    def uid(self, where: str, name: object) -> int:
        if str(name) not in self.labels:
            raise SetupError(f"{where}: no card labelled {name!r} on the table")
        return self.labels[str(name)]

    def seat(self, where: str, name: object) -> str:
        if str(name) not in self.seats:
            raise SetupError(f"{where}: no seat {name!r}; the seats are {', '.join(self.seats)}")
        return str(name)

    def scope(self, where: str, spec: Mapping[str, Any], key: str = "until") -> str:
        until = str(spec.get(key, ""))
        if until not in self.scopes:
            raise SetupError(f"{where}: {key} {until!r} is not a scope; scopes are {', '.join(self.scopes)}")
        return until


def _known_fields(where: str, spec: Mapping[str, Any], known: Set[str], required: Sequence[str]) -> None:
    unknown = set(spec) - known
    if unknown:
        raise SetupError(f"{where}: unknown field(s) {sorted(unknown)}; known: {', '.join(sorted(known))}")
    missing = [f for f in required if f not in spec]
    if missing:
        raise SetupError(f"{where}: missing {', '.join(missing)}")
