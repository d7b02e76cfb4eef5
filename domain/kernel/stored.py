"""The fold straight from stored rows: each event decoded into a lean twin of its type.

Loading a game (``Westmarch.state_at``) folds its stored events. Decoding each of them into
its full event type builds what the fold never reads: every event's :class:`Cause`, the
fields its apply function does not look at, each asked decision but the last. Here each
event type has a *twin*: a Struct with the same tag and only the fields the type's apply
function reads (found in its source: ``e.card``, ``e.to``, ...), plus what the fold itself
needs (``seq``, ``flow``, ``draws``; the hash only of the last event, the state's head, read
from its row alone). An apply function that hands its event on whole, or reads anything but
its fields, keeps the full type as its twin; one that changes nothing (its body a ``pass``)
is not called.

Two kernel events are folded apart: a :class:`DecisionAnswered` reads nothing (its twin
has no field), and a :class:`DecisionRequested` keeps its decision undecoded
(``msgspec.Raw``); only the decision still pending after the last event is decoded. They
are a third of a log's events, and the loop over the twins (``apply_all``, in the compiled
core) applies them without calling an apply function.

**What this does not check.** A field a twin skips is not decoded, so its type is not
checked: a stored row damaged only in a field the fold does not read (a cause, a card's
name in a decision answered long ago, the hash of any event but the last) folds here
without complaint. The rows must still
be JSON, each field read must have its type, and every event must be the one after the
last (:class:`~domain.kernel.runtime.BrokenLog` otherwise). Everything else that reads a
log decodes it whole: commands (``Westmarch.game``), ``verify``, ``history``, the chain's
check (``Westmarch.verified``), so a damaged row is still refused by every command.

The test (tests/test_stored_fold.py) folds seeded games of every scenario both ways and
compares the states and their hashes at every version.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Union

import msgspec

from domain.kernel.decisions import Decision, Kind
from domain.kernel.events import KERNEL_EVENTS, DecisionAnswered, DecisionRequested, Event, FlowKeep, Frame
from domain.kernel.ruleset import KERNEL_APPLIERS, bracketed
from domain.kernel.runtime import apply_all, check_chained
from domain.kernel.state import State

Applier = Callable[[Any, Any], None]

_FOLD_FIELDS = ("seq", "flow", "draws")
"""The fields of every event the fold itself reads (besides what its apply function reads).
Not ``hash``: only the last event's is kept (the state's head), read from the last row alone
(:class:`_Head`), so no other event's 64 characters are made into a string."""


class _Head(msgspec.Struct, frozen=True, gc=False):
    """What the fold reads of the last stored event besides its twin: its number and hash
    (any other field, the tag with them, is skipped)."""

    seq: int
    hash: str


def _nothing(state: State, event: Any) -> None:
    """Stands for an apply function that changes nothing (:func:`does_nothing`): the stored
    fold's loop does not call it."""


NO_FLOW = msgspec.Raw(b"null")
"""A twin's ``flow`` when its row has none (the field is left out when it is None)."""

_LATER = Decision(id=0, seat="", kind=Kind.ONE, prompt="", rule="")
"""Stands for the pending decision while folding: the one the last :class:`DecisionRequested`
asked, decoded once the fold is done (unless an event withdrew it meanwhile)."""


def _ask_later(state: State, event: Any) -> None:
    """A :class:`DecisionRequested` folded from its row: its decision is decoded at the end,
    if it is still the pending one then."""
    state.pending = _LATER


def fields_read(applier: Applier, kind: type[Event]) -> tuple[str, ...] | None:
    """The fields of ``kind`` that ``applier`` reads from its event (the second parameter),
    found in its source; None if it uses the event in any other way (passes it on, reads an
    attribute that is not a field) or its source cannot be read: then nothing is skipped."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(applier)))
    except (OSError, TypeError, SyntaxError):
        return None
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or len(function.args.args) != 2:
        return None
    name = function.args.args[1].arg
    fields = set(kind.__struct_fields__)
    read: set[str] = set()
    attributes = {
        id(node.value): node.attr
        for node in ast.walk(function)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name
    }
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Param):
            attr = attributes.get(id(node))
            if attr is None or attr not in fields:
                return None  # the event itself is used, or something that is not a field
            read.add(attr)
    return tuple(sorted(read))


def does_nothing(applier: Applier) -> bool:
    """Whether ``applier``'s body, found in its source, is only ``pass``, ``...`` or a
    docstring (an event that changes nothing in the state: a phase's end); False if its
    source cannot be read."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(applier)))
    except (OSError, TypeError, SyntaxError):
        return False
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    return all(
        isinstance(node, ast.Pass) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        for node in function.body
    )


def twin(kind: type[Event], read: Sequence[str] | None, raw: Sequence[str] = ()) -> type[msgspec.Struct]:
    """A Struct decoding ``kind``'s stored form into only the fields ``read`` (and the fold's
    own), those of ``raw`` left undecoded (``msgspec.Raw``); ``kind`` itself when nothing is
    to be skipped."""
    if read is None:
        return kind
    config = kind.__struct_config__
    keep = set(read) | set(_FOLD_FIELDS)
    info = {f.name: f for f in msgspec.structs.fields(kind)}
    if any(f.encode_name != f.name for f in info.values()):
        return kind
    fields: list[tuple[str, Any, Any]] = []
    for name in kind.__struct_fields__:
        if name not in keep:
            continue
        f = info[name]
        kind_of: Any = f.type
        if name in raw:
            kind_of = msgspec.Raw
        elif name == "flow":
            fields.append((name, msgspec.Raw, NO_FLOW))  # decoded only if it shapes the final cursor
            continue
        if f.default is not msgspec.NODEFAULT:
            fields.append((name, kind_of, f.default))
        elif f.default_factory is not msgspec.NODEFAULT:
            fields.append((name, kind_of, msgspec.field(default_factory=f.default_factory)))
        else:
            fields.append((name, kind_of, msgspec.NODEFAULT))
    made: type[msgspec.Struct] = msgspec.defstruct(
        f"{kind.__name__}Twin",
        [(n, t) if d is msgspec.NODEFAULT else (n, t, d) for n, t, d in fields],
        module=__name__,
        kw_only=True,
        frozen=True,
        gc=False,
        tag=config.tag,
        tag_field=config.tag_field,
    )
    return made


class StoredFold:
    """One ruleset's fold from stored rows (``[microseconds, event]`` each, as the store keeps
    them): the same state :func:`~domain.kernel.runtime.fold` gives from the decoded events."""

    def __init__(self, appliers: dict[type[Event], Applier], events: Sequence[type[Event]]) -> None:
        self.appliers: dict[type[msgspec.Struct], Applier] = {}
        kinds: list[type[msgspec.Struct]] = []
        self.requested: type[msgspec.Struct] | None = None
        self.answered: type[msgspec.Struct] | None = None
        for kind in events:
            applier = appliers[kind]
            asks = kind is DecisionRequested and applier is KERNEL_APPLIERS[DecisionRequested]
            made = twin(kind, ("decision",), raw=("decision",)) if asks else twin(kind, fields_read(applier, kind))
            if asks:
                self.requested = made
            if kind is DecisionAnswered and applier is KERNEL_APPLIERS[DecisionAnswered]:
                self.answered = made
            kinds.append(made)
            self.appliers[made] = _ask_later if asks else _nothing if does_nothing(applier) else applier
        union: Any = kinds[0] if len(kinds) == 1 else Union[tuple(kinds)]  # noqa: UP007  (built at run time)
        self.twins = tuple(kinds)
        # the timestamp, never read, as a float: one from the free list where an int of 16
        # digits is allocated and freed (callgrind, the stored fold: about 90 instructions an event)
        self._rows = msgspec.json.Decoder(list[tuple[float, union]])
        self._decision = msgspec.json.Decoder(Decision)
        self._frame = msgspec.json.Decoder(Frame)
        self._flow = msgspec.json.Decoder(FlowKeep | None)
        self._head = msgspec.json.Decoder(tuple[int, _Head])

    def decode(self, joined: bytes) -> list[Any]:
        """The twins of stored rows joined by commas, decoded in one pass (timestamps dropped)."""
        stored: list[tuple[float, Any]] = self._rows.decode(bracketed(joined))
        return [event for _, event in stored]

    def fold(self, rows: list[bytes], state: State) -> State:
        """``state`` with the events of ``rows`` folded onto it, in order (see :meth:`fold_joined`)."""
        return self.fold_joined(b",".join(rows), rows[-1] if rows else None, state)

    def fold_joined(self, joined: bytes, last: bytes | None, state: State) -> State:
        """``state`` with the events of stored rows joined by commas folded onto it, in order;
        ``last``: the last of those rows alone (None if there are none), whose hash becomes
        the state's head. Each event must be the one after the last:
        :class:`~domain.kernel.runtime.BrokenLog` names the first that is not (the events
        before it are applied by then: the caller drops the state). A row that does not
        decode raises msgspec's error."""
        check_chained(state)
        # the decoded rows themselves, (timestamp, twin) each: apply_all takes them apart in
        # compiled code (a list of the twins alone, made here, cost about 100 instructions an event)
        rows: list[tuple[float, Any]] = self._rows.decode(bracketed(joined)) if joined else []
        head: _Head | None = None
        if rows:
            if last is None:
                raise ValueError("rows to fold without the last of them")
            head = self._head.decode(last)[1]
            end = rows[-1][1].seq
            if head.seq != end:  # the same row read twice, in one statement: never
                raise ValueError(f"the last row given is event {head.seq}, the rows end at {end}")
        draws = apply_all(self.appliers, state, rows, self.requested, _LATER, self.answered, state.version, _nothing)
        state.stack = self._frames(self._cursor(rows, state.stack))
        if state.pending is _LATER:  # asked by the last DecisionRequested, not withdrawn since
            requested = self.requested
            asked: Any = next(e for _, e in reversed(rows) if type(e) is requested)
            state.pending = self._decision.decode(asked.decision)
        state.rng += draws
        if head is not None:
            state.version = head.seq
            state.head = head.hash
        return state

    def _cursor(self, rows: list[tuple[float, Any]], below: list[Frame]) -> list[Any]:
        """The cursor after the events of ``rows`` (each pushed frame as :meth:`_frames` takes
        it), found from the last event back: each event's flow keeps the frames below ``keep``
        and puts its own above, so the positions no later event replaced are set by the latest one
        that pushed there. The walk stops once every position is set (the cursor is emptied
        at a game's end and rebuilt from the bottom often), so most events' flows are never
        decoded. ``below``, the cursor before the events, fills what no event set.

        As the forward fold did, it trusts the flows: each ``keep`` is at most the height of
        the cursor before its event (as the runtime writes them; no check notices a stored
        row damaged there)."""
        decode = self._flow.decode
        slots: list[Any] = []
        need = -1  # the positions below this one are still to be set
        for _, event in reversed(rows):
            flow = event.flow
            if flow is NO_FLOW:
                continue
            if type(flow) is msgspec.Raw:
                flow = decode(flow)
            if flow is None:
                continue
            keep, push, extends = flow.keep, flow.push, flow.extends
            top = keep + len(push)
            if need < 0:
                need, slots = top, [None] * top
            for p in range(keep, min(top, need)):
                j = p - keep
                slots[p] = (push[j], j in extends) if extends else push[j]
            if keep < need:
                need = keep
            if need == 0:
                return slots
        if need < 0:
            return list(below)
        slots[:need] = below[:need]
        return slots

    def _frames(self, stack: list[Any]) -> list[Frame]:
        """The cursor the fold left: each frame still undecoded is decoded, bottom up; one
        pushed as extending the frame below gets its bindings back (as :meth:`Flow.onto`)."""
        frames: list[Frame] = []
        decode = self._frame.decode
        for entry in stack:
            kind = type(entry)
            if kind is msgspec.Raw:  # pushed undecoded (a twin's FlowKeep)
                frames.append(decode(entry))
            elif kind is tuple:
                pushed, extends = entry
                frame = pushed if type(pushed) is Frame else decode(pushed)
                if extends:
                    frame = Frame(frame.node, frame.i, {**frames[-1].env, **frame.env}, frame.items)
                frames.append(frame)
            else:
                frames.append(entry)  # on the cursor before, or pushed by a full event's Flow
        return frames


@cache
def stored_fold(rules: Any) -> StoredFold:
    """The stored fold of a ruleset (made once per process)."""
    all_events = KERNEL_EVENTS + tuple(e for e in rules.events if e not in KERNEL_EVENTS)
    return StoredFold(rules.appliers, all_events)
