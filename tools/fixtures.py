"""Fixtures: set up an exact position, script the decisions, check what happened.

The format (TOML) is described in ``tests/fixtures/README.md``. ``westmarch fixture run``
and the test suite both use :func:`run_fixture`; a failed expectation is reported as a
readable list of differences, with the events that did happen.

Expectations are read at a point of the game: at the end, when a named step is reached,
or at a scripted decision (``[[check]]``). The game's state at any point is the fold of
its events up to there, so the runner plays the script once and reads every point from
the log. A failure names the expectation, the first event where reality diverged from
it, and the table there; every event is told as the table read at its own version.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol
from uuid import uuid4

import msgspec

from domain.game import BrokenGame, Game
from domain.kernel.decisions import Choice, Decision, Kind, RuleError
from domain.kernel.events import DecisionRequested, Event, Frame
from domain.kernel.flow import NODES
from domain.kernel.ruleset import SetupError
from domain.kernel.runtime import apply, fold
from domain.kernel.state import State
from domain.rulesets import ruleset
from projections.feed import Projection
from projections.feed import projection as feed_projection
from projections.story import Namer, describe


class FixtureError(Exception):
    """The fixture file itself is wrong (not the rules under test)."""


class Placed(Protocol):
    """A laid-out position: the creation and position events, the cursor, the labels."""

    @property
    def created(self) -> Event: ...

    @property
    def placed(self) -> Event: ...

    @property
    def frames(self) -> list[Frame]: ...

    @property
    def labels(self) -> dict[str, int]: ...


class Adapter(Protocol):
    """What the runner needs to know about one game to read and check its fixtures."""

    def build(self, game: Mapping[str, Any], position: Mapping[str, Any]) -> Placed: ...

    def card_value(self, state: State, uid: int, name: str) -> Any: ...

    def player_value(self, state: State, seat: str, name: str) -> Any: ...

    def zone(self, state: State, name: str) -> list[int]: ...

    def where(self, state: State) -> str:
        """Where the game is, in a few words (round, phase or step, first player)."""
        ...


def _attribute(thing: object, name: str, things: str) -> Any:
    """The value ``name`` of a card or player as the state holds it."""
    if not hasattr(thing, name):
        raise FixtureError(f"{things} have no value {name!r}")
    return getattr(thing, name)


class LcgAdapter:
    def build(self, game: Mapping[str, Any], position: Mapping[str, Any]) -> Placed:
        from domain.lcg.position import build

        return build(game, position)

    def card_value(self, state: State, uid: int, name: str) -> Any:
        from domain.lcg.rules import table
        from domain.lcg.state import LcgState

        assert isinstance(state, LcgState)
        if name in table.STATS:
            return table.stat(state, uid, name)
        return _attribute(state.cards[uid], name, "cards")

    def player_value(self, state: State, seat: str, name: str) -> Any:
        from domain.lcg.state import LcgState

        assert isinstance(state, LcgState)
        if name == "hand":
            return len(state.zone(f"{seat}.hand"))
        if name == "first":
            return state.first == seat
        return _attribute(state.players[seat], name, "players")

    def zone(self, state: State, name: str) -> list[int]:
        from domain.lcg.state import LcgState

        assert isinstance(state, LcgState)
        return list(state.zone(name))

    def where(self, state: State) -> str:
        from domain.lcg.state import LcgState

        assert isinstance(state, LcgState)
        return f"round {state.round}, {state.phase or 'no'} phase, first player {state.first}"


class WotrAdapter:
    """War of the Ring fixtures (tests/fixtures/wotr/README.md): a card's values are its
    state (``zone``, ``wielder``, ``reserved``, tokens) or its current icons; a "player" is a
    seat (``hand``, ``deck``, ``cycle``, ``eliminated``, ``reserve`` counts, ``ring``,
    ``carryover``, ``starting``) or a team, ``free`` or ``shadow`` (``score``,
    ``final_score``, and ``corruption``)."""

    def build(self, game: Mapping[str, Any], position: Mapping[str, Any]) -> Placed:
        from domain.wotr.position import build

        return build(game, position)

    def card_value(self, state: State, uid: int, name: str) -> Any:
        from domain.wotr.cards import ICONS
        from domain.wotr.rules import table
        from domain.wotr.state import WotrState

        assert isinstance(state, WotrState)
        if name in ICONS:
            return table.icons(state, uid, name)
        return _attribute(state.cards[uid], name, "cards")

    def player_value(self, state: State, seat: str, name: str) -> Any:
        from domain.wotr.rules import table
        from domain.wotr.state import TEAMS, WotrState

        assert isinstance(state, WotrState)
        if seat in TEAMS:
            values = {
                "score": table.score(state, seat),
                "final_score": table.score(state, seat, final=True),
                "corruption": state.corruption,
            }
            if name not in values:
                raise FixtureError(f"teams have no value {name!r}; known: {', '.join(values)}")
            return values[name]
        if name in ("hand", "deck", "cycle", "eliminated", "reserve", "aside"):
            return len(state.zone(f"{seat}.{name}"))
        if name == "starting":
            return state.starting_seat() == seat
        if name == "carryover":
            return table.carryover(state, seat)
        return _attribute(state.players[seat], name, "players")

    def zone(self, state: State, name: str) -> list[int]:
        from domain.wotr.state import WotrState

        assert isinstance(state, WotrState)
        return list(state.zone(name))

    def where(self, state: State) -> str:
        from domain.wotr.state import WotrState

        assert isinstance(state, WotrState)
        return f"round {state.round}, {state.step or 'no'} step, starting player {state.starting_seat()}"


ADAPTERS: dict[str, Callable[[], Adapter]] = {"lcg": LcgAdapter, "wotr": WotrAdapter}


@dataclass
class Result:
    path: Path
    name: str
    failures: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    rules: set[str] = field(default_factory=set)
    """The rule references of the events the fixture produced (what it shows acting)."""
    cards: set[str] = field(default_factory=set)
    """The codes of the cards whose text caused an event in the fixture."""

    @property
    def passed(self) -> bool:
        return not self.failures


def load(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise FixtureError(f"{path}: not valid TOML: {error}") from None


ABSENT_WORDS = "false (absent, none or empty)"


def same(actual: Any, expected: Any) -> bool:
    """Whether a value is as expected. TOML has no null: ``false`` expected of a value that
    is not a yes/no one means absent (``None``), empty or nothing."""
    if expected is False and not isinstance(actual, bool):
        return actual is None or (isinstance(actual, str | tuple | list | dict) and not actual)
    return bool(actual == expected)


class Run:
    """One fixture being played: the game, the labels, and helpers to read them."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        game_spec = dict(data.get("game", {}))
        self.rules_name = str(game_spec.get("ruleset", "lcg"))
        self.rules = ruleset(self.rules_name)
        self.adapter = ADAPTERS[self.rules_name]()
        placed = self.adapter.build(game_spec, dict(data.get("position", {})))
        self.labels = placed.labels
        self.names = {uid: label for label, uid in placed.labels.items()}
        self.game = Game.start_at(uuid4(), self.rules, placed.created, placed.placed, list(placed.frames))
        self.steps: dict[int, int] = {}
        """The version at which each scripted step's decision was pending."""

    @property
    def log(self) -> list[Event]:
        return list(self.game.pending_events)

    def uid(self, label: str) -> int:
        try:
            return self.labels[label]
        except KeyError:
            raise FixtureError(f"no card labelled {label!r}; labels: {', '.join(self.labels)}") from None

    def label(self, uid: int | None) -> str:
        return "-" if uid is None else self.names.get(uid, f"#{uid}")

    def choice(self, decision: Decision, wanted: Sequence[Any]) -> Choice:
        """Option ids for what the script names: card labels, option ids or labels."""
        if decision.kind is Kind.NUMBER:
            return tuple(str(w) for w in wanted)
        ids = []
        for want in wanted:
            text = str(want)
            matches = [
                o.id
                for o in decision.options
                if o.id == text
                or o.label.casefold() == text.casefold()
                or (o.card is not None and o.card == self.labels.get(text))
            ]
            if not matches:
                options = "; ".join(f"{o.id}={o.label}" for o in decision.options)
                raise FixtureError(f"{text!r} is not an option of decision {decision.id} ({options})")
            ids.append(matches[0])
        return tuple(ids)

    # -- the log: the table at any version -------------------------------------------------

    def state_at(self, version: int) -> State:
        return fold(self.rules, self.log[:version])

    def states(self, first: int, last: int) -> Iterator[tuple[Event, State]]:
        """Each event from version ``first`` to ``last`` with the table just after it (one
        state, folded on: read it before asking for the next)."""
        log = self.log
        state = fold(self.rules, log[: first - 1])
        for event in log[first - 1 : last]:
            apply(self.rules, state, event)
            yield event, state

    def told(self, first: int = 1, last: int | None = None) -> Iterator[tuple[Event, str]]:
        """Each event with its line, told as the table read at its own version."""
        log = self.log
        state = self.rules.new_state()
        namer = Namer(self.rules, state, uids=True)  # a diagnosis points at one card of the log
        for event in log[: len(log) if last is None else last]:
            apply(self.rules, state, event)
            line = describe(event, namer)
            if event.seq >= first:
                yield event, f"{event.seq:5} {type(event).__name__}: {line}"

    def line(self, event: Event) -> str:
        return next(self.told(event.seq, event.seq))[1].strip()

    def reached(self, rule: str, nth: int, since: int) -> int | None:
        """The version at which step ``rule`` was reached for the ``nth`` time after version
        ``since``: the table just before the first event produced inside it (or the position,
        if the game was set there). A step that produced no event is not seen."""
        inside, count = False, 0
        for event, state in self.states(2, len(self.log)):
            now = event.cause.rule == rule or any(NODES[f.node].rule == rule for f in state.stack)
            if now and not inside and event.seq > since:
                count += 1
                if count == nth:
                    return max(event.seq - 1, 2)
            inside = now
        return None


# -- points of the game at which expectations are read ------------------------------------

POINT_KEYS = frozenset({"at", "nth", "after_step", "before_step"})


@dataclass(frozen=True)
class Point:
    version: int
    title: str


def _point(run: Run, spec: Mapping[str, Any], default_since: int) -> Point | str:
    """The version a point names, or why it names none."""
    if "before_step" in spec:
        n = int(spec["before_step"])
        if n not in run.steps:
            return f"step {n} was never reached"
        return Point(run.steps[n], f"before step {n}")
    if "at" not in spec:
        raise FixtureError("a point needs at = <step> or before_step = <n>")
    rule, nth = str(spec["at"]), int(spec.get("nth", 1))
    since = run.steps[int(spec["after_step"])] if "after_step" in spec else default_since
    version = run.reached(rule, nth, since)
    title = f"at {rule}" + (f" (time {nth})" if nth != 1 else "")
    if version is None:
        return f"step {rule} was not reached{f' {nth} times' if nth != 1 else ''}"
    return Point(version, title)


# -- expectations --------------------------------------------------------------------------


@dataclass
class Miss:
    """One expectation not met: what was expected, what happened, where it diverged."""

    what: str
    event: Event | None = None
    note: str = ""
    value: Callable[[State], Any] | None = None
    """For a value: how to read it from the table, and what it should have been."""
    expected: Any = None


class Checker:
    """Checks one block of expectations against the game up to one version."""

    def __init__(self, run: Run, version: int) -> None:
        self.run, self.version = run, version
        self.state = run.state_at(version)
        self.events = run.log[2:version]
        self.misses: list[Miss] = []

    def check(self, expect: Mapping[str, Any]) -> list[Miss]:
        unknown = set(expect) - EXPECT_KEYS
        if unknown:
            raise FixtureError(f"unknown expectation(s) {sorted(unknown)}; known: {', '.join(sorted(EXPECT_KEYS))}")
        run = self.run
        ordered = [w for w in expect.get("events", []) if "times" not in w]
        self._in_order(ordered)
        for want in expect.get("events", []):
            if "times" in want:
                self._count(want)
        for want in expect.get("absent", []):
            hits = [e for e in self.events if _matches(run, e, want)]
            if hits:
                self.misses.append(Miss(f"event {_show(want)} should not happen, but did: #{hits[0].seq}", hits[0]))
        for label, values in expect.get("cards", {}).items():
            uid = run.uid(label)
            for name, expected in values.items():
                self._value(f"card {label}: {name}", _card_value(run, uid, name), expected, card=True)
        for seat, values in expect.get("players", {}).items():
            for name, expected in values.items():
                self._value(f"player {seat}: {name}", _player_value(run, seat, name), expected)
        for zone, expected in expect.get("zones", {}).items():
            self._value(f"zone {zone}:", _zone_value(run, zone), list(expected), listing=True)
        for key in ("result", "reason", "winner"):
            if key in expect:
                self._value(f"game {key}:", _outcome_value(key), expect[key], listing=True)
        if "decision" in expect:
            self._decision(expect["decision"])
        for viewer, values in expect.get("view", {}).items():
            self._view(str(viewer), values)
        return self.misses

    def _value(
        self, what: str, read: Callable[[State], Any], expected: Any, card: bool = False, listing: bool = False
    ) -> None:
        actual = read(self.state)
        shown: Any = actual
        wanted = ABSENT_WORDS if expected is False and not isinstance(actual, bool) else repr(expected)
        if card and isinstance(expected, str) and isinstance(actual, int) and not isinstance(actual, bool):
            expected = self.run.uid(expected)  # a card named by its label (attached_to, wielder)
            shown = self.run.label(actual)
        if same(actual, expected):
            return
        text = f"{what} {shown!r}, expected {wanted}" if listing else f"{what} is {shown!r}, expected {wanted}"
        self.misses.append(Miss(text, value=read, expected=expected))

    def _in_order(self, wanted: Sequence[Mapping[str, Any]]) -> None:
        position = 0
        for want in wanted:
            for i in range(position, len(self.events)):
                if _matches(self.run, self.events[i], want):
                    position = i + 1
                    break
            else:
                self.misses.append(
                    self._nearest(f"expected event {_show(want)} (in this order) did not happen", want, position)
                )

    def _nearest(self, what: str, want: Mapping[str, Any], position: int) -> Miss:
        """The first event of the expected type after ``position``, and how it differs."""
        kind = want.get("type")
        after = f" after #{self.events[position - 1].seq} (the expected event before it)" if position else ""
        for event in self.events[position:]:
            if type(event).__name__ == kind:
                return Miss(what, event, f"the first {kind}{after} differs: {_differences(self.run, event, want)}")
        return Miss(what, None, f"no {kind} happened{after}")

    def _count(self, want: Mapping[str, Any]) -> None:
        pattern = {k: v for k, v in want.items() if k != "times"}
        times = int(want["times"])
        hits = [e for e in self.events if _matches(self.run, e, pattern)]
        if len(hits) == times:
            return
        what = f"event {_show(pattern)} expected {times} time(s), happened {len(hits)}"
        if len(hits) > times:
            every = ", ".join(f"#{e.seq}" for e in hits)
            self.misses.append(Miss(what, hits[times], f"the first one too many; all of them: {every}"))
        else:
            seen = f"the last of them: #{hits[-1].seq}" if hits else ""
            self.misses.append(Miss(what, hits[-1] if hits else None, seen))

    def _decision(self, want: Any) -> None:
        pending = self.state.pending
        asked = next((e for e in reversed(self.events) if isinstance(e, DecisionRequested)), None)
        where = asked if pending is not None else self._last()
        if want is False:
            if pending is not None:
                self.misses.append(
                    Miss(f"decision: expected none, but {pending.seat} must decide {pending.rule}", where)
                )
            return
        for text in _check_decision(self.run, pending, want, "decision"):
            self.misses.append(Miss(text, where))

    def _last(self) -> Event | None:
        return self.events[-1] if self.events else None

    def _view(self, viewer: str, values: Mapping[str, Any]) -> None:
        """What ``viewer`` is shown: the game's real per-seat projection of the table."""
        run = self.run
        projection = feed_projection(run.rules_name)

        def shows(uid: int, state: State) -> bool:
            return uid in _shown_cards(msgspec.to_builtins(projection.view(state, viewer)))

        for key, expected in values.items():
            if key in ("visible", "hidden"):
                for label in expected:
                    read = partial(shows, run.uid(label))
                    if read(self.state) != (key == "visible"):
                        state = "shown" if key == "hidden" else "not shown"
                        miss = Miss(
                            f"view of {viewer}: {label} is {state}, expected {key}",
                            value=read,
                            expected=key == "visible",
                        )
                        self.misses.append(miss)
            elif isinstance(expected, dict) and isinstance(
                _field(projection.view(self.state, viewer), key, "a view"), list
            ):
                for item, fields in expected.items():
                    for name, want in fields.items():
                        read = partial(_view_value, projection, viewer, run, (key, str(item), name))
                        self._value(f"view of {viewer}: {key}.{item}.{name}", read, want)
            elif isinstance(expected, dict):
                for name, want in expected.items():
                    read = partial(_view_value, projection, viewer, run, (key, name))
                    self._value(f"view of {viewer}: {key}.{name}", read, want)
            else:
                read = partial(_view_value, projection, viewer, run, (key,))
                self._value(f"view of {viewer}: {key}", read, expected)


EXPECT_KEYS = frozenset(
    {"events", "absent", "cards", "players", "zones", "result", "reason", "winner", "decision", "view"}
)


def _card_value(run: Run, uid: int, name: str) -> Callable[[State], Any]:
    return lambda state: run.adapter.card_value(state, uid, name)


def _player_value(run: Run, seat: str, name: str) -> Callable[[State], Any]:
    return lambda state: run.adapter.player_value(state, seat, name)


def _zone_value(run: Run, zone: str) -> Callable[[State], Any]:
    return lambda state: [run.label(u) for u in run.adapter.zone(state, zone)]


def _outcome_value(key: str) -> Callable[[State], Any]:
    return lambda state: getattr(state.over, key) if state.over else None


def _shown_cards(view: Any) -> set[int]:
    """Every card a projected view shows: card views (``uid``) and the cards its decision's
    options are about."""
    found: set[int] = set()
    if isinstance(view, dict):
        for key, value in view.items():
            if key in ("uid", "card", "about") and isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
            else:
                found |= _shown_cards(value)
    elif isinstance(view, list):
        for item in view:
            found |= _shown_cards(item)
    return found


def _view_value(projection: Projection, viewer: str, run: Run, path: tuple[str, ...], state: State) -> Any:
    """A value of a viewer's projection: ``(field,)``, ``(field, its field)``, or ``(list field,
    item, field)`` where the list's items are named by their seat, team or card label. A card
    reads as its label, a list of cards as a list of labels."""
    value: Any = projection.view(state, viewer)
    value = _field(value, path[0], "a view")
    if len(path) == 2:
        if value is None:
            return None
        value = _field(value, path[1], f"the view's {path[0]}")
    elif len(path) == 3:
        items = {_item_name(run, i): i for i in value or ()}
        if path[1] not in items:
            raise FixtureError(f"the view's {path[0]} has no {path[1]!r}; it has {', '.join(items)}")
        value = _field(items[path[1]], path[2], f"the view's {path[0]}")
    if isinstance(value, msgspec.Struct) and hasattr(value, "uid"):
        return run.label(value.uid)
    if isinstance(value, list) and value and all(hasattr(v, "uid") for v in value):
        return [run.label(v.uid) for v in value]
    return msgspec.to_builtins(value)


def _field(struct: Any, name: str, what: str) -> Any:
    names = [f.name for f in msgspec.structs.fields(struct)]
    if name not in names:
        raise FixtureError(f"{what} has no value {name!r}; it has {', '.join(names)}")
    return getattr(struct, name)


def _item_name(run: Run, item: Any) -> str:
    for key in ("seat", "team"):
        if hasattr(item, key):
            return str(getattr(item, key))
    return run.label(getattr(item, "uid", None))


def _matches(run: Run, event: Event, want: Mapping[str, Any]) -> bool:
    if type(event).__name__ != want.get("type"):
        return False
    for key, expected in want.items():
        if key == "type":
            continue
        if not hasattr(event, key) or not same(getattr(event, key), _want_value(run, event, key, expected)):
            return False
    return True


def _want_value(run: Run, event: Event, key: str, expected: Any) -> Any:
    """An expected event field with card labels turned into uids."""
    actual = getattr(event, key)
    if isinstance(expected, str) and isinstance(actual, int) and not isinstance(actual, bool):
        return run.uid(expected)
    if isinstance(expected, str) and actual is None and expected in run.labels:
        return run.labels[expected]
    if isinstance(expected, list) and isinstance(actual, tuple):
        return tuple(run.uid(x) if isinstance(x, str) and x in run.labels else x for x in expected)
    return expected


def _differences(run: Run, event: Event, want: Mapping[str, Any]) -> str:
    out = []
    for key, expected in want.items():
        if key == "type":
            continue
        if not hasattr(event, key):
            out.append(f"it has no field {key}")
            continue
        actual = getattr(event, key)
        if not same(actual, _want_value(run, event, key, expected)):
            out.append(f"{key} is {_label_value(run, actual)}, expected {expected!r}")
    return "; ".join(out)


def _label_value(run: Run, value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value in run.names:
        return repr(run.label(value))
    if isinstance(value, tuple):
        return repr([run.label(v) if isinstance(v, int) and v in run.names else v for v in value])
    return repr(value)


def _show(want: Mapping[str, Any]) -> str:
    fields = ", ".join(f"{k}={v!r}" for k, v in want.items() if k != "type")
    return f"{want.get('type')}({fields})"


def _check_decision(run: Run, decision: Decision | None, want: Mapping[str, Any], where: str) -> list[str]:
    if decision is None:
        return [f"{where}: expected a pending decision, but there is none"]
    failures = []
    for key in ("seat", "rule", "kind"):
        if key in want:
            actual = getattr(decision, key)
            actual = actual.value if hasattr(actual, "value") else actual
            if actual != want[key]:
                failures.append(f"{where}: decision {key} is {actual!r}, expected {want[key]!r}")
    have = {run.label(o.card) if o.card is not None else o.id for o in decision.options}
    have |= {o.label for o in decision.options}
    if "options" in want:
        missing = [o for o in want["options"] if o not in have]
        if missing:
            failures.append(f"{where}: decision lacks option(s) {missing}; it has {sorted(have)}")
    if "not_options" in want:
        present = [o for o in want["not_options"] if o in have]
        if present:
            failures.append(f"{where}: decision should not offer {present}")
    return failures


# -- running a fixture ---------------------------------------------------------------------


def _play(run: Run, steps: Sequence[Mapping[str, Any]], failures: list[str]) -> None:
    game = run.game
    for n, step in enumerate(steps, start=1):
        decision = game.state.pending
        where = f"step {n}"
        if decision is None:
            over = game.state.over
            failures.append(
                f"{where}: no decision is pending"
                + (f" (the game ended: {over.result}, {over.reason})" if over else "")
            )
            break
        run.steps[n] = game.version
        if "expect" in step:
            table = f"the table there: {_table(run, game.state)}"
            failures += [f"{text}\n         {table}" for text in _check_decision(run, decision, step["expect"], where)]
        try:
            choice = run.choice(decision, list(step.get("choose", [])))
        except FixtureError as error:
            failures.append(f"{where}: {error}")
            break
        if step.get("refused"):
            version = game.version
            try:
                game.answer(decision.seat, decision.id, choice)
            except RuleError:
                if game.version != version:
                    failures.append(f"{where}: a refused answer appended events")
                continue
            failures.append(f"{where}: the answer {list(choice)} was accepted but should be refused")
            break
        try:
            game.answer(str(step.get("seat", decision.seat)), decision.id, choice)
        except RuleError as error:
            failures.append(f"{where}: the answer was refused: {error}")
            break


def _report(run: Run, miss: Miss, version: int, title: str) -> str:
    """A failed expectation, the first event where reality diverged from it, the table there."""
    lines = [f"{title}{miss.what}"]
    event = miss.event
    history: list[tuple[Event, Any]] = []
    if miss.value is not None:
        history = _history(run, miss.value, version)
        right = [i for i, (_, value) in enumerate(history) if same(value, miss.expected)]
        # The first change away from the expected value after it last held; if it never
        # held, the position itself.
        if history:
            event = history[right[-1] + 1][0] if right else history[0][0]
    if event is not None:
        lines.append(f"  diverged at {run.line(event)}")
        if miss.note:
            lines.append(f"  ({miss.note})")
        lines.append(f"  the table there: {_table(run, run.state_at(event.seq))}")
    else:
        if miss.note:
            lines.append(f"  ({miss.note})")
        lines.append(f"  the table then: {_table(run, run.state_at(version))}")
    if len(history) > 1 or (history and history[0][0].seq > 2):
        steps = [f"{value!r} {'at the position' if e.seq <= 2 else f'after #{e.seq}'}" for e, value in history[-6:]]
        lines.append(f"  the value over time: {', '.join(steps)}")
    elif history:
        lines.append(f"  it was {history[0][1]!r} from the position on and never changed")
    return "\n       ".join(lines)


def _history(run: Run, read: Callable[[State], Any], version: int) -> list[tuple[Event, Any]]:
    """Each event that changed the value, with the value after it (from the position on)."""
    out: list[tuple[Event, Any]] = []
    for event, state in run.states(2, version):
        try:
            value = read(state)
        except (FixtureError, KeyError, IndexError, AttributeError):
            continue
        if not out or out[-1][1] != value:
            out.append((event, value))
    return out


def _table(run: Run, state: State) -> str:
    pending = state.pending
    said = run.adapter.where(state)
    if state.over is not None:
        return f"{said}; the game is over ({state.over.result}, {state.over.reason})"
    if pending is not None:
        return f"{said}; {pending.seat} to decide {pending.rule}: {pending.prompt}"
    return said


def run_fixture(data: Mapping[str, Any], path: Path = Path("<fixture>")) -> Result:
    result = Result(path, str(data.get("name", path.stem)))
    unknown = set(data) - FIXTURE_KEYS
    if unknown:
        raise FixtureError(f"unknown key(s) {sorted(unknown)}; known: {', '.join(sorted(FIXTURE_KEYS))}")
    run = Run(data)
    _play(run, data.get("step", []), result.failures)
    end, stopped = Point(run.game.version, ""), ""
    if "stop" in data:
        spec = {"at": data["stop"]} if isinstance(data["stop"], str) else dict(data["stop"])
        since = run.steps[max(run.steps)] if run.steps else 1
        stop = _point(run, spec, since)
        if isinstance(stop, str):
            result.failures.append(f"stop: {stop}")
        else:
            stopped = stop.title
            end = Point(stop.version, f"at the stop ({stopped}): ")
    marks: dict[int, list[str]] = {}
    if end.title:
        marks.setdefault(end.version, []).append(f"the run stops here: [expect] reads the table {stopped}")
    for i, spec in enumerate(data.get("check", []), start=1):
        point = _point(run, spec, 1)
        if isinstance(point, str):
            result.failures.append(f"check {i}: {point}")
            continue
        marks.setdefault(point.version, []).append(f"check {i} ({point.title}) reads the table here")
        block = {k: v for k, v in spec.items() if k not in POINT_KEYS}
        for miss in Checker(run, point.version).check(block):
            result.failures.append(_report(run, miss, point.version, f"check {i} ({point.title}): "))
    for miss in Checker(run, end.version).check(dict(data.get("expect", {}))):
        result.failures.append(_report(run, miss, end.version, end.title))
    state = run.game.state
    cards = getattr(state, "cards", {})
    result.lines += [f"      ^ {mark}" for mark in marks.get(2, [])]
    for event, line in run.told(3):
        result.lines.append(line)
        result.lines += [f"      ^ {mark}" for mark in marks.get(event.seq, [])]
        result.rules.add(event.cause.rule)
        if event.cause.card in cards:
            result.cards.add(cards[event.cause.card].code)
    return result


FIXTURE_KEYS = frozenset({"name", "source", "game", "position", "step", "check", "stop", "expect"})


def run_file(path: Path) -> Result:
    name = path.stem
    try:
        data = load(path)
        name = str(data.get("name", name))
        return run_fixture(data, path)
    except (FixtureError, SetupError) as error:
        return Result(path, name, [f"fixture error: {error}"])
    except BrokenGame as error:  # a rule step could not go on from the position as given
        return Result(path, name, [f"fixture error: the position cannot be played on: {error.__cause__ or error}"])


def fixture_files(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.rglob("*.toml")) if p.is_dir() else [p]
    return out


def run_files(paths: Iterable[str | Path], verbose: bool = False) -> int:
    files = fixture_files(paths)
    failed = 0
    for path in files:
        result = run_file(path)
        status = "ok  " if result.passed else "FAIL"
        print(f"{status} {path}: {result.name}")
        if not result.passed:
            failed += 1
            for failure in result.failures:
                print(f"     - {failure}")
        if verbose or not result.passed:
            print("     events (each as the table read at that moment):")
            for line in result.lines:
                print(f"     {line}")
    print(f"{len(files) - failed} passed, {failed} failed", file=sys.stderr)
    return 1 if failed else 0
