"""Flow is data: programs are trees of nodes; the cursor is a stack of frames.

A ruleset writes its round, its shared procedures and its cards' texts as programs
built from the nodes below, and registers each under a stable name. The runtime keeps
the cursor (``State.stack``) as :class:`~domain.kernel.events.Frame` values that name
nodes by key, so a game reloaded at any version resumes exactly where it stopped.

Rules of the road for leaf steps (:class:`Do`): a step reads the state, emits at most
one event, and records any chance it used in that event. Everything else a step does
(push programs, bind values) goes through the runtime, which writes it into the next
event's ``flow``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from domain.kernel.decisions import Kind, Option
from domain.kernel.events import Event, Frame

if TYPE_CHECKING:
    from domain.kernel.runtime import Runtime

Step = Callable[["Runtime"], None]
Test = Callable[["Runtime"], bool]
Items = Callable[["Runtime"], Iterable[Any]]
Bindings = Callable[["Runtime"], Mapping[str, Any]]

_FRAME: Final = Frame
"""``Frame``, for the steps: the compiled core reads a Final name from a C static, an
imported one from the module's dict each time."""

_ONE: Final = Kind.ONE

NODES: Final[dict[str, Node]] = {}
"""Every registered node, by key. Keys are stable: a program's name plus a path. Final, as
the compiled core then reads it from a C static rather than the module's dict (once per step)."""


class FlowError(Exception):
    """A program broke the rules of the road; always a bug in a ruleset."""


class Node:
    rule: str
    key: str

    def __init__(self, rule: str | None = None) -> None:
        self.rule = rule or ""
        self.key = ""

    def children(self) -> Iterable[Node]:
        return ()

    def step(self, rt: Runtime, frame: Frame) -> None:
        raise NotImplementedError


class Seq(Node):
    """Run children one after the other."""

    def __init__(self, *children: Node, rule: str | None = None) -> None:
        super().__init__(rule)
        self.body = children

    def children(self) -> Iterable[Node]:
        return self.body

    def step(self, rt: Runtime, frame: Frame) -> None:
        i = frame.i
        body = self.body
        if i >= len(body):
            rt.pop()
        elif i == len(body) - 1:
            rt.swap(body[i], frame.env)
        else:
            env = frame.env
            rt.advance(_FRAME(self.key, i + 1, env), body[i], env)


class Do(Node):
    """A leaf rule step: ``fn`` reads ``rt.state`` and ``rt.env`` and emits at most one event."""

    def __init__(self, fn: Step, rule: str | None = None) -> None:
        super().__init__(rule)
        self.fn = fn

    def step(self, rt: Runtime, frame: Frame) -> None:
        rt.leaf(self, frame.env)  # pops this frame first


class If(Node):
    def __init__(self, test: Test, then: Node, otherwise: Node | None = None, rule: str | None = None) -> None:
        super().__init__(rule)
        self.test, self.then, self.otherwise = test, then, otherwise

    def children(self) -> Iterable[Node]:
        return [n for n in (self.then, self.otherwise) if n is not None]

    def step(self, rt: Runtime, frame: Frame) -> None:
        rt.pop()
        env = frame.env
        branch = self.then if rt.evaluate(self.test, env, self.rule) else self.otherwise
        if branch is not None:
            rt.push(branch, env)


class ForEach(Node):
    """Run ``body`` once per item, the item bound to ``var``. Items are fixed on entry."""

    def __init__(self, items: Items, var: str, body: Node, rule: str | None = None) -> None:
        super().__init__(rule)
        self.items, self.var, self.body = items, var, body

    def children(self) -> Iterable[Node]:
        return (self.body,)

    def step(self, rt: Runtime, frame: Frame) -> None:
        items = frame.items
        outer = frame.env
        if items is None:
            items = list(rt.evaluate(self.items, outer, self.rule))
        i = frame.i
        if i >= len(items):
            rt.pop()
            return
        env = {**outer, self.var: items[i]}
        # The frame stays while the last item runs too: a Break or Restart in the body
        # must find this loop, not the one around it.
        rt.advance(_FRAME(self.key, i + 1, outer, items), self.body, env)


class Repeat(Node):
    """Run ``body`` again and again until ``until`` holds (checked first) or a :class:`Break`."""

    def __init__(self, body: Node, until: Test | None = None, rule: str | None = None) -> None:
        super().__init__(rule)
        self.body, self.until = body, until

    def children(self) -> Iterable[Node]:
        return (self.body,)

    def step(self, rt: Runtime, frame: Frame) -> None:
        env = frame.env
        if self.until is not None and rt.evaluate(self.until, env, self.rule):
            rt.pop()
        else:
            rt.advance(_FRAME(self.key, frame.i + 1, env), self.body, env)


class Break(Node):
    """Leave the innermost :class:`Repeat` or :class:`ForEach`."""

    def step(self, rt: Runtime, frame: Frame) -> None:
        rt.break_loop()


class Restart(Node):
    """Start the innermost loop again from its first item (its items are recomputed)."""

    def step(self, rt: Runtime, frame: Frame) -> None:
        rt.restart_loop()


class Let(Node):
    """Bind computed values for ``body`` ("X is the number of ...")."""

    def __init__(self, bindings: Bindings, body: Node, rule: str | None = None) -> None:
        super().__init__(rule)
        self.bindings, self.body = bindings, body

    def children(self) -> Iterable[Node]:
        return (self.body,)

    def step(self, rt: Runtime, frame: Frame) -> None:
        rt.pop()
        env = frame.env
        values = rt.evaluate(self.bindings, env, self.rule)
        rt.push(self.body, {**env, **values})


class Case(Node):
    """Branch on the value bound to ``var`` (typically the id of the option chosen)."""

    def __init__(
        self,
        var: str,
        cases: Mapping[str, Node],
        default: Node | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(rule)
        self.var, self.cases, self.default = var, dict(cases), default

    def children(self) -> Iterable[Node]:
        return [*self.cases.values(), *([self.default] if self.default else [])]

    def step(self, rt: Runtime, frame: Frame) -> None:
        env = frame.env
        branch = self.cases.get(str(env.get(self.var)), self.default)
        if branch is not None:
            rt.swap(branch, env)
        else:
            rt.pop()


class Call(Node):
    """Run a registered program by name with fresh bindings.

    The callee sees only ``args`` plus the caller's cause context (``_card``, ``_by``,
    ``_ans``), so procedures cannot depend on a caller's private names.
    """

    def __init__(
        self,
        program: str | Callable[[Runtime], str | None],
        args: Bindings | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(rule)
        self.program, self.args = program, args

    def step(self, rt: Runtime, frame: Frame) -> None:
        rt.pop()
        env = frame.env
        program = self.program
        name = program if isinstance(program, str) else rt.evaluate(program, env, self.rule)
        if name is None:
            return
        args = dict(rt.evaluate(self.args, env, self.rule)) if self.args else {}
        rt.call(name, args, env)


class Ask:
    """What a :class:`Decide` node asks: built fresh from the state each time."""

    __slots__ = ("about", "kind", "max", "min", "options", "prompt", "seat")

    def __init__(
        self,
        seat: str,
        prompt: str,
        options: Iterable[Option] = (),
        kind: Kind = Kind.ONE,
        min: int = 1,
        max: int = 1,
        about: int | None = None,
    ) -> None:
        self.seat, self.prompt, self.kind = seat, prompt, kind
        self.options = tuple(options)
        self.min, self.max = min, max
        self.about = about


class Played:
    """A decision the rules answered for a seat they play themselves: the answer, and the
    event (emitted under ``rule``) that records the choice and its reason. Any chance used
    is recorded in that event."""

    __slots__ = ("choice", "event", "rule")

    def __init__(self, choice: tuple[str, ...], event: Event, rule: str) -> None:
        self.choice, self.event, self.rule = choice, event, rule


class Asks(Node):
    """A node that may wait for a seat's answer; the runtime resumes it with the answer."""

    def resume(self, rt: Runtime, frame: Frame, value: Any, answer_seq: int) -> None:
        raise NotImplementedError


class Decide(Asks):
    """Ask a seat to choose, then run ``then`` with the answer bound to ``bind``.

    ``ask`` returns ``None`` when there is nothing to decide (the step is skipped, or
    ``otherwise`` runs). With ``auto_single`` a forced choice among one option is taken
    without asking.
    """

    def __init__(
        self,
        ask: Callable[[Runtime], Ask | None],
        bind: str,
        then: Node | None = None,
        otherwise: Node | None = None,
        auto_single: bool = False,
        rule: str | None = None,
    ) -> None:
        super().__init__(rule)
        self.ask, self.bind, self.then = ask, bind, then
        self.otherwise, self.auto_single = otherwise, auto_single

    def children(self) -> Iterable[Node]:
        return [n for n in (self.then, self.otherwise) if n is not None]

    def step(self, rt: Runtime, frame: Frame) -> None:
        env = frame.env
        ask = rt.evaluate(self.ask, env, self.rule)
        if ask is None:
            if self.otherwise is not None:
                rt.swap(self.otherwise, env)
            else:
                rt.pop()
            return
        if self.auto_single and ask.kind is _ONE and len(ask.options) == 1:
            if self.then is not None:
                rt.swap(self.then, {**env, self.bind: ask.options[0].id})
            else:
                rt.pop()
            return
        rt.request(ask, self, frame)

    def resume(self, rt: Runtime, frame: Frame, value: Any, answer_seq: int) -> None:
        if self.then is not None:
            rt.swap(self.then, {**frame.env, self.bind: value, "_ans": answer_seq})
        else:
            rt.pop()


class InChosenOrder(Asks):
    """Resolve several things that fell due at the same moment, one at a time, in the
    order a seat chooses.

    ``items`` (JSON-native values) are fixed on entry, or given by the caller
    (:meth:`Runtime.call` with ``items``). Before each, ``due`` says which of
    those left can resolve now: a condition is checked when an item's turn comes, not
    when it fell due, so resolving one can enable or disable another. A single due item
    resolves without a question; between several, ``ask`` builds the question, whose
    option ids are the items' ``ident``; any other answer (a "none" option) resolves no
    more. ``run`` gives the program an item runs and its bindings; ``by`` is the seat
    that chose it, or ``None`` when it resolved without a question.
    """

    def __init__(
        self,
        items: Items | None,
        due: Callable[[Runtime, Any], bool],
        ask: Callable[[Runtime, list[Any]], Ask],
        ident: Callable[[Any], str],
        run: Callable[[Runtime, Any, str | None], tuple[str, Mapping[str, Any]]],
        rule: str | None = None,
    ) -> None:
        super().__init__(rule)
        self.items, self.due, self.ask, self.ident, self.run = items, due, ask, ident, run

    def step(self, rt: Runtime, frame: Frame) -> None:
        items = frame.items
        env = frame.env
        if items is None:
            items = list(rt.evaluate(self.items, env, self.rule)) if self.items else []
        rt.env, rt.rule = env, self.rule
        due = [x for x in items if self.due(rt, x)]
        if not due:
            rt.pop()
        elif len(due) == 1:
            self._start(rt, frame, items, due[0], None, None)
        else:
            ask = rt.evaluate(lambda r: self.ask(r, due), env, self.rule)
            held = _FRAME(self.key, frame.i, env, items)
            rt.replace(held)
            rt.request(ask, self, held)

    def resume(self, rt: Runtime, frame: Frame, value: Any, answer_seq: int) -> None:
        items = frame.items or []
        chosen = next((x for x in items if self.ident(x) == value), None)
        if chosen is None:
            rt.pop()
            return
        pending = rt.state.pending  # the decision being answered, until its answer is recorded
        self._start(rt, frame, items, chosen, pending.seat if pending else None, answer_seq)

    def _start(self, rt: Runtime, frame: Frame, items: list[Any], item: Any, by: str | None, ans: int | None) -> None:
        key = self.ident(item)
        env = frame.env
        rt.replace(_FRAME(self.key, frame.i, env, [x for x in items if self.ident(x) != key]))
        name, args = rt.evaluate(lambda r: self.run(r, item, by), env, self.rule)
        rt.call(name, {**args, "_ans": ans} if ans is not None else dict(args), env)


class Hold(Node):
    """Run ``body`` as one step of the rules: programs deferred while it runs
    (:meth:`Runtime.defer`) start only once it is done, in the order they were deferred.

    The frame's ``i`` counts: 0 before the body starts, then 1 plus the number of
    programs deferred so far (they wait just below this frame).
    """

    def __init__(self, body: Node, rule: str | None = None) -> None:
        super().__init__(rule)
        self.body = body

    def children(self) -> Iterable[Node]:
        return (self.body,)

    def step(self, rt: Runtime, frame: Frame) -> None:
        if frame.i:
            rt.pop()
        else:
            env = frame.env
            rt.advance(_FRAME(self.key, 1, env), self.body, env)


def register(name: str, root: Node, rule: str | None = None) -> Node:
    """Register a program under ``name``; its nodes get stable keys ``name/i/j``."""
    if name in NODES:
        raise FlowError(f"program {name!r} is registered twice")

    def visit(node: Node, key: str, inherited: str) -> None:
        if node.key:
            raise FlowError(f"node {node.key} is used twice (again under {key})")
        node.key = key
        node.rule = node.rule or inherited
        if not node.rule:
            raise FlowError(f"node {key} has no rule reference")
        NODES[key] = node
        for i, child in enumerate(node.children()):
            visit(child, f"{key}/{i}", node.rule)

    visit(root, name, rule or "")
    return root


def program(name: str) -> Node:
    try:
        return NODES[name]
    except KeyError:
        raise FlowError(f"no program named {name!r}") from None


def frames_to(name: str, rule: str) -> list[Frame]:
    """The cursor that starts program ``name`` at its first step whose rule is ``rule``.

    Used to set a game at an exact step (fixtures, disputes). The step must be reachable
    through sequences and repeats only: a loop's items cannot be invented.
    """
    root = program(name)

    def find(node: Node, path: list[tuple[Node, int]]) -> list[tuple[Node, int]] | None:
        for i, child in enumerate(node.children()):
            if child.rule == rule and node.rule != rule:
                return [*path, (node, i)]
            found = find(child, [*path, (node, i)])
            if found is not None:
                return found
        return None

    if root.rule == rule:
        return [Frame(root.key)]
    path = find(root, [])
    if path is None:
        raise FlowError(f"program {name!r} has no step {rule!r}")
    frames = []
    for parent, index in path:
        if isinstance(parent, Seq):
            frames.append(Frame(parent.key, index + 1))
        elif not isinstance(parent, Repeat):
            raise FlowError(f"cannot start at {rule!r}: it is inside {type(parent).__name__} {parent.key}")
    target = path[-1][0]
    children = list(target.children())
    frames.append(Frame(children[path[-1][1]].key))
    return frames


def steps(name: str) -> list[str]:
    """The rule references of the steps a game can be set at, in program order."""
    out: list[str] = []

    def walk(node: Node) -> None:
        if node.rule not in out:
            out.append(node.rule)
        if isinstance(node, Seq | Repeat):
            for child in node.children():
                walk(child)

    walk(program(name))
    return out
