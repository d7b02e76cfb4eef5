"""The runtime: runs programs forward from the cursor, one event per rule step.

``Runtime.run`` steps the frame on top of the cursor until a decision is pending or
the game is over. Leaf steps emit events; :meth:`Runtime.emit` fills in each event's
cause, records how the cursor moved since the previous event (``flow``), applies the
event, lets the ruleset queue what it triggers, and chains the event's hash.

A rollout (a search's or an analysis's throwaway game, played to its end in a copy and only
its result read) runs a runtime without a sink, ``Runtime(rules, state, None)``: its events
are applied and trigger as any game's, but are neither hashed nor kept, and no flow is
recorded on them (nothing will fold them). The state it plays on is marked
(:data:`~domain.kernel.state.UNCHAINED` in ``head``) the moment that runtime is made, and
a chaining runtime, :class:`~domain.game.Game` and the fold refuse a marked state
(:class:`UnchainedState`): nothing played that way can become part of a stored game.

:func:`apply` is the fold: the same function builds the state during play and when a
game is loaded from its events, so the two cannot drift apart.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from msgspec.structs import force_setattr

from domain.kernel import rng
from domain.kernel.decisions import (
    Choice,
    Decision,
    Kind,
    NoDecisionPending,
    NotYourDecision,
    UnknownDecision,
    check_choice,
)
from domain.kernel.events import (
    Cause,
    DecisionAnswered,
    DecisionRequested,
    Env,
    Event,
    Flow,
    Frame,
    Reseeded,
)
from domain.kernel.flow import NODES, Ask, Asks, FlowError, ForEach, Hold, Node, Played, Repeat, program
from domain.kernel.state import UNCHAINED, State

if TYPE_CHECKING:
    from domain.kernel.ruleset import Ruleset

T = TypeVar("T")
R = TypeVar("R")


class _FromFrame:
    """The default of :meth:`Runtime.emit`'s ``card`` and ``by``: the running frame's own.

    A class of its own rather than ``object()`` typed as ``int | None``: the compiled
    core checks each argument's declared type, and None is a value a caller may pass."""


_FROM_FRAME = _FromFrame()

_SHA256: Final = hashlib.sha256()
"""An empty sha256, copied for each event's hash: a copy costs far less than making one
(which looks the algorithm up by name each time)."""

# Final aliases of the interpreted names used on every event or step: the compiled core
# reads a Final name from a C static, any other global from the module's dict each time.
_FRAME: Final = Frame
_CAUSE: Final = Cause
_FLOW: Final = Flow
_SET: Final = force_setattr
_UNCHAINED: Final = UNCHAINED
_LISTED: Final = (Kind.MANY, Kind.ORDER)
"""The kinds of decision answered by a list of option ids (the others by one id)."""


def apply(rules: Ruleset[Any], state: State, event: Event) -> None:
    """Fold one event into ``state``. No rule logic runs here. A rollout's state is
    refused (:class:`UnchainedState`): an event would give it a head it has no chain to."""
    if state.head == _UNCHAINED:
        raise UnchainedState(state.version)
    rules.appliers[type(event)](state, event)
    flow = event.flow
    if flow is not None:
        flow.onto(state.stack)
    state.version = event.seq
    state.rng += event.draws
    state.head = event.hash


def flow_since(low: int, height: int, after: list[Frame]) -> Flow | None:
    """The flow (:class:`~domain.kernel.events.Flow`) from a cursor of ``height`` frames,
    untouched below ``low``, to ``after``; None if the cursor did not move."""
    if low == height == len(after):
        return None
    push: list[Frame] = []
    extends: list[int] = []
    below: Env | None = after[low - 1].env if 0 < low <= len(after) else None
    for j in range(low, len(after)):
        frame = after[j]
        env = frame.env
        if below and (env is below or _extends(env, below)):
            added = {} if env is below else {k: v for k, v in env.items() if k not in below or below[k] != v}
            push.append(_FRAME(frame.node, frame.i, added, frame.items))
            extends.append(j - low)
        else:
            push.append(frame)
        below = env  # the bindings of the frame as it stands on the cursor, not as pushed
    return _FLOW(low, tuple(push), tuple(extends))


def _extends(env: Env, below: Env) -> bool:
    """Whether ``env`` starts with the keys of ``below``, in the same order."""
    if len(env) < len(below):
        return False
    # One iterator over ``env`` walked beside ``below``: no list of either's keys is built,
    # nor a zip (which the compiled core makes through the generic call, keyword and all)
    mine = iter(env)
    return all(next(mine) == theirs for theirs in below)


class BrokenLog(Exception):
    """The events given to the fold do not follow each other: a version is missing,
    repeated or out of place (a damaged store). Nothing can be folded past it."""

    def __init__(self, version: int, found: int) -> None:
        self.version, self.found = version, found
        what = "missing" if found > version else "repeated or out of place"
        super().__init__(f"event {version} is {what} (the event stored there is number {found})")


def check_follows(version: int, events: Sequence[Any]) -> None:
    """Raise :class:`BrokenLog` at the first of ``events`` that is not the one after the
    last, counting from ``version``. Any, not :class:`Event`: the stored fold passes the
    twins it decodes rows into, which the compiled core would refuse as Events."""
    expected = version + 1
    for event in events:
        if event.seq != expected:
            raise BrokenLog(expected, event.seq)
        expected += 1


class UnchainedState(Exception):
    """A state a rollout's runtime played on (its ``head`` is :data:`~domain.kernel.state.UNCHAINED`)
    was given to something that chains or keeps events: a game, the fold, a chaining runtime."""

    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__(
            f"this state (version {version}) was played by a rollout, whose events were neither chained "
            "nor kept: it has no hash chain and belongs to no game"
        )


def check_chained(state: State) -> None:
    """Raise :class:`UnchainedState` if a rollout's runtime has played on ``state``."""
    if state.head == _UNCHAINED:
        raise UnchainedState(state.version)


def fold(rules: Ruleset[Any], events: Sequence[Event], state: State | None = None) -> State:
    """The state after ``events``, folded onto ``state`` (a new game's if None).

    Each event must be the one after the last: :class:`BrokenLog` names the first that is
    not, before anything is applied, so a damaged log never yields a state. A rollout's
    state is refused (:class:`UnchainedState`).
    """
    state = rules.new_state() if state is None else state
    check_chained(state)
    check_follows(state.version, events)
    appliers = rules.appliers
    stack = state.stack
    draws = 0
    for event in events:
        appliers[type(event)](state, event)
        flow = event.flow
        if flow is not None:
            if flow.extends:
                flow.onto(stack)
            else:
                del stack[flow.keep :]
                stack.extend(flow.push)
        draws += event.draws
    state.rng += draws
    if events:
        last = events[-1]
        state.version = last.seq
        state.head = last.hash
    return state


def apply_all(
    appliers: dict[Any, Any],
    state: Any,
    rows: list[tuple[Any, Any]],
    asked: Any,
    later: object,
    answered: Any,
    version: int,
    nothing: object,
) -> int:
    """Apply the events of ``rows`` (the stored fold's decoded rows, ``(timestamp, twin)``
    each, the twins Any as :func:`check_follows` takes them) to ``state`` in order, each by
    its type's apply function in ``appliers``; the draws they made. The two kernel events a
    third of a log is made of are applied here, without a call: one of type ``asked`` (a
    :class:`DecisionRequested` whose decision is decoded later) makes ``later`` the pending
    decision, one of type ``answered`` (a :class:`DecisionAnswered` applied as the kernel
    applies it) clears it. An event whose
    apply function is ``nothing`` (one that changes nothing: a phase's end) is not called.

    Each event must be the one after the last, counting from ``version`` (as
    :func:`check_follows` checks them, in the same walk): :class:`BrokenLog` names the first
    that is not, before it is applied, but after the ones before it were (the caller drops
    the state)."""
    draws = 0
    expected = version + 1
    for _, event in rows:
        seq = event.seq
        if seq != expected:
            raise BrokenLog(expected, seq)
        expected += 1
        kind = type(event)
        if kind is asked:
            state.pending = later
        elif kind is answered:
            state.pending = None
        else:
            applier = appliers[kind]
            if applier is not nothing:
                applier(state, event)
        draws += event.draws
    return draws


class Watcher(Protocol):
    """Sees each event as it is applied: the state just before, then just after.

    A viewer's feed watches a command's events this way, so projecting them needs no copy
    of the state from before the command."""

    def before(self, event: Event) -> None: ...

    def after(self, event: Event) -> None: ...


class Runtime:
    """Runs a game forward. Owns nothing: the state and the sink belong to the caller.

    ``sink``: the list each event is appended to, hashed and chained to the state's
    ``head``; None for a rollout's runtime, which keeps no events and chains none, and marks
    ``state`` as a rollout's (:data:`~domain.kernel.state.UNCHAINED`) at once, for good.
    A runtime with a sink refuses a state so marked (:class:`UnchainedState`)."""

    def __init__(
        self, rules: Ruleset[Any], state: State, sink: list[Event] | None, watcher: Watcher | None = None
    ) -> None:
        if sink is None:
            state.head = _UNCHAINED
        else:
            check_chained(state)
        self.rules = rules
        self.state = state
        self.sink = sink
        self.watcher = watcher
        self.env: Env = {}
        self.rule = ""
        stack = state.stack
        self._stack = stack
        """The cursor, held natively: read on every step, and the list is only ever changed in
        place during play (the stored fold alone puts a new list in the state)."""
        self._height = self._low = len(stack)
        """How far down the cursor has been touched since the last event: the frames
        below are the ones the last event left, the frames above are what moved."""
        self._emitted = False
        self._going = False
        """Whether :meth:`run` steps on: no decision pending and the game not over, as of
        the last event (only an event's applier changes them), so that each step need not
        read the two from the state."""
        self._draws = 0
        self._version = state.version
        self._head = state.head
        """The state's ``version`` and ``head``, held natively: only :meth:`emit` moves them
        while the runtime plays (each read of a Struct's field from compiled code is a generic
        attribute lookup, two an event)."""
        self._encode = rules.codec.encode
        self._appliers = rules.appliers
        self._after = rules.after

    # -- running ---------------------------------------------------------------------

    def run(self) -> None:
        state = self.state
        stack = self._stack
        self._going = state.pending is None and state.over is None
        while self._going:
            if not stack:
                raise FlowError("the programs ran out without a decision or an outcome")
            frame = stack[-1]
            NODES[frame.node].step(self, frame)

    def begin(self, rule: str) -> None:
        """Start a rule step outside any program (creating a game, laying out a position)."""
        self.env, self.rule, self._emitted = {}, rule, False

    def leaf(self, node: Node, env: Env) -> None:
        """Pop the frame of the leaf step ``node`` (the top of the cursor), then run it with ``env``."""
        stack = self._stack
        stack.pop()
        if len(stack) < self._low:
            self._low = len(stack)
        self.env, self.rule = env, node.rule
        self._emitted = False
        node.fn(self)  # type: ignore[attr-defined]
        if self._draws:
            raise FlowError(f"{node.key} drew at random but emitted no event to record it")

    def evaluate(self, fn: Callable[[Runtime], R], env: Env, rule: str) -> R:
        self.env, self.rule = env, rule
        return fn(self)

    # -- the cursor ------------------------------------------------------------------

    def push(self, node: Node, env: Env) -> None:
        self._stack.append(_FRAME(node.key, 0, env))

    def pop(self) -> None:
        stack = self._stack
        stack.pop()
        if len(stack) < self._low:
            self._low = len(stack)

    def replace(self, frame: Frame) -> None:
        stack = self._stack
        stack[-1] = frame
        if len(stack) - 1 < self._low:
            self._low = len(stack) - 1

    def swap(self, node: Node, env: Env) -> None:
        """:meth:`pop`, then :meth:`push` ``node`` with ``env``, in one call."""
        stack = self._stack
        stack[-1] = _FRAME(node.key, 0, env)
        top = len(stack) - 1
        if top < self._low:
            self._low = top

    def advance(self, frame: Frame, node: Node, env: Env) -> None:
        """:meth:`replace` the top frame by ``frame``, then :meth:`push` ``node`` with ``env``."""
        stack = self._stack
        top = len(stack) - 1
        stack[-1] = frame
        if top < self._low:
            self._low = top
        stack.append(_FRAME(node.key, 0, env))

    def call(self, name: str, args: Env, caller: Env | None = None, items: list[Any] | None = None) -> None:
        """Push program ``name`` with ``args``, keeping the caller's cause context; ``items``
        are the items of a program that works through them (:class:`~domain.kernel.flow.InChosenOrder`)."""
        self._stack.append(self._frame(name, args, caller, items))

    def defer(self, name: str, args: Env, caller: Env | None = None, items: list[Any] | None = None) -> None:
        """Like :meth:`call`, but inside a :class:`~domain.kernel.flow.Hold` the program
        waits until the hold's body is done (after the programs deferred before it)."""
        stack = self._stack
        for at in range(len(stack) - 1, -1, -1):
            frame = stack[at]
            if frame.i and isinstance(NODES[frame.node], Hold):
                index = at - (frame.i - 1)
                stack[at] = _FRAME(frame.node, frame.i + 1, frame.env, frame.items)
                stack.insert(index, self._frame(name, args, caller, items))
                self._low = min(self._low, index)
                return
        self.call(name, args, caller, items)

    def _frame(self, name: str, args: Env, caller: Env | None, items: list[Any] | None) -> Frame:
        env = {k: v for k, v in (self.env if caller is None else caller).items() if k[0] == "_"}
        env.update(args)
        return _FRAME(program(name).key, 0, env, items)

    def break_loop(self) -> None:
        stack = self._stack
        while stack:
            frame = stack.pop()
            self._low = min(self._low, len(stack))
            if isinstance(NODES[frame.node], Repeat | ForEach):
                return
        raise FlowError(f"{self.rule}: break outside a loop")

    def restart_loop(self) -> None:
        stack = self._stack
        while stack:
            frame = stack[-1]
            if isinstance(NODES[frame.node], Repeat | ForEach):
                self.replace(_FRAME(frame.node, 0, frame.env))
                return
            self.pop()
        raise FlowError(f"{self.rule}: restart outside a loop")

    # -- chance ----------------------------------------------------------------------

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items``; the emitted event must carry the order."""
        n = self.state.rng + self._draws
        self._draws += 1
        return rng.shuffled(self.state.seed, n, items)

    def pick(self, items: Sequence[T], count: int = 1) -> list[T]:
        n = self.state.rng + self._draws
        self._draws += 1
        return rng.pick(self.state.seed, n, items, count)

    # -- events ----------------------------------------------------------------------

    def cause(self) -> Cause:
        env = self.env
        return _CAUSE(self.rule, env.get("_card"), env.get("_by"), env.get("_ans"))

    def emit(
        self, event: Event, *, card: int | _FromFrame | None = _FROM_FRAME, by: int | _FromFrame | None = _FROM_FRAME
    ) -> Event:
        if self._emitted:
            raise FlowError(f"{self.rule}: a rule step emits at most one event")
        self._emitted = True
        state = self.state
        env = self.env
        seq = self._version + 1
        # Any, not the parameters' types: a binding of another type must reach the check
        # below in the compiled core too (not a type error of the assignment)
        cause_card: Any = env.get("_card") if isinstance(card, _FromFrame) else card
        if cause_card is not None and type(cause_card) is not int:
            raise FlowError(f"{self.rule}: the cause card must be a uid, not {cause_card!r}")
        cause_by: Any = env.get("_by") if isinstance(by, _FromFrame) else by
        _SET(event, "seq", seq)
        _SET(event, "cause", _CAUSE(self.rule, cause_card, cause_by, env.get("_ans")))
        draws = self._draws
        if draws:
            _SET(event, "draws", draws)
            state.rng += draws
            self._draws = 0
        watcher = self.watcher
        if watcher is None:
            self._appliers[type(event)](state, event)
        else:
            watcher.before(event)
            self._appliers[type(event)](state, event)
            watcher.after(event)
        self._after(self, event)
        self._going = state.pending is None and state.over is None
        stack = self._stack
        height = len(stack)
        sink = self.sink
        if sink is not None:  # a rollout's events (no sink) are never folded, exported or verified
            low = self._low
            if low != height or self._height != height:
                _SET(event, "flow", flow_since(low, self._height, stack))
            chain = _SHA256.copy()
            chain.update(self._head.encode())
            chain.update(self._encode(event))
            digest = chain.hexdigest()
            _SET(event, "hash", digest)
            state.head = self._head = digest
            sink.append(event)
        state.version = self._version = seq
        self._height = self._low = height
        return event

    # -- decisions -------------------------------------------------------------------

    def request(self, ask: Ask, node: Asks, frame: Frame) -> None:
        self.env, self.rule = frame.env, node.rule
        self._emitted = False
        by_rules = self.rules.played_by_rules(self, ask)
        if isinstance(by_rules, Played):
            self._play(by_rules, ask, node, frame)
            return
        if isinstance(by_rules, Ask):
            ask = by_rules
        rule = node.rule
        decision = Decision(
            self._version + 1, ask.seat, ask.kind, ask.prompt, rule, ask.options, ask.min, ask.max, ask.about
        )
        # played_by_rules may have evaluated with bindings of its own: the request is the node's
        self.env, self.rule = frame.env, rule
        self._emitted = False
        self.emit(DecisionRequested(decision=decision))

    def _play(self, played: Played, ask: Ask, node: Asks, frame: Frame) -> None:
        """The rules answered for the seat: resume as an answer would, the recording event
        standing where the answer would be (later events name it as their answer)."""
        seq = self._version + 1
        value: Any = list(played.choice) if ask.kind in _LISTED else played.choice[0]
        node.resume(self, frame, value, seq)
        self.env = {**frame.env, "_ans": None}
        self.rule = played.rule
        self._emitted = False
        self.emit(played.event)

    def answer(self, seat: str, decision_id: int, choice: Choice) -> None:
        """Check ``choice`` against the pending decision, record it and run on.

        Raises a :class:`~domain.kernel.decisions.RuleError` (and changes nothing)
        unless the seat may answer and the choice is legal.
        """
        state = self.state
        decision = state.pending
        if decision is None:
            raise NoDecisionPending(game_over=state.over is not None)
        pending = decision.id
        if decision_id != pending:
            raise UnknownDecision(decision_id, pending)
        if seat != decision.seat:
            raise NotYourDecision(decision, seat)
        check_choice(decision, choice)
        frame = self._stack[-1]
        node = NODES[frame.node]
        if not isinstance(node, Asks):
            raise FlowError(f"pending decision {decision.id} is not at a decision node")
        seq = self._version + 1
        value: Any = list(choice) if decision.kind in _LISTED else choice[0]
        node.resume(self, frame, value, seq)
        self.env = {**frame.env, "_ans": None}
        self.rule = node.rule
        self._emitted = False
        self.emit(DecisionAnswered(decision=pending, seat=seat, choice=tuple(choice)), by=pending)
        self.run()

    def tell(self, event: Event, rule: str) -> None:
        """Record a fact the game is told from outside its rules (see :meth:`Game.tell`),
        then run on: its applier withdraws the pending decision, what it triggers runs, and
        the decision is asked again (or the next one is)."""
        self.begin(rule)
        if isinstance(event, Reseeded) and self.rules.redraw:
            self.call(self.rules.redraw, {})  # after the fresh seed is recorded, before the decision is asked again
        self.emit(event)
        self.run()

    # -- helpers for rule steps ------------------------------------------------------

    def var(self, name: str) -> Any:
        return self.env[name]

    def uid(self, name: str) -> int:
        """A card uid bound under ``name`` (option ids of cards are decimal uids)."""
        return int(self.env[name])

    def uids(self, name: str) -> list[int]:
        return [int(v) for v in self.env[name]]
