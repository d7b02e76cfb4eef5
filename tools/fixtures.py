"""Fixtures: set up an exact position, script the decisions, check what happened.

The format (TOML) is described in ``tests/fixtures/README.md``. ``westmarch fixture run``
and the test suite both use :func:`run_fixture`; a failed expectation is reported as a
readable list of differences, with the events that did happen.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from uuid import uuid4

from domain.game import Game
from domain.kernel.decisions import Choice, Decision, Kind, RuleError
from domain.kernel.events import Event, Frame
from domain.kernel.state import State
from domain.rulesets import ruleset
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

    def event_line(self, event: Event) -> str:
        return f"{event.seq:5} {type(event).__name__}: {describe(event, Namer(self.rules, self.game.state))}"


def _matches(run: Run, event: Event, want: Mapping[str, Any]) -> bool:
    if type(event).__name__ != want.get("type"):
        return False
    for key, expected in want.items():
        if key == "type":
            continue
        if not hasattr(event, key):
            return False
        actual = getattr(event, key)
        if isinstance(expected, str) and isinstance(actual, int) and not isinstance(actual, bool):
            expected = run.uid(expected)
        elif isinstance(expected, list) and isinstance(actual, tuple):
            expected = tuple(run.uid(x) if isinstance(x, str) and x in run.labels else x for x in expected)
        if actual != expected:
            return False
    return True


def _find_in_order(run: Run, events: Sequence[Event], wanted: Iterable[Mapping[str, Any]]) -> list[str]:
    failures = []
    position = 0
    for want in wanted:
        for i in range(position, len(events)):
            if _matches(run, events[i], want):
                position = i + 1
                break
        else:
            failures.append(f"expected event {_show(want)} (in this order) did not happen")
    return failures


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


def run_fixture(data: Mapping[str, Any], path: Path = Path("<fixture>")) -> Result:
    result = Result(path, str(data.get("name", path.stem)))
    run = Run(data)
    game = run.game
    for n, step in enumerate(data.get("step", []), start=1):
        decision = game.state.pending
        where = f"step {n}"
        if decision is None:
            over = game.state.over
            result.failures.append(
                f"{where}: no decision is pending"
                + (f" (the game ended: {over.result}, {over.reason})" if over else "")
            )
            break
        if "expect" in step:
            result.failures += _check_decision(run, decision, step["expect"], where)
        choice = run.choice(decision, list(step.get("choose", [])))
        if step.get("refused"):
            version = game.version
            try:
                game.answer(decision.seat, decision.id, choice)
            except RuleError:
                if game.version != version:
                    result.failures.append(f"{where}: a refused answer appended events")
                continue
            result.failures.append(f"{where}: the answer {list(choice)} was accepted but should be refused")
            break
        try:
            game.answer(str(step.get("seat", decision.seat)), decision.id, choice)
        except RuleError as error:
            result.failures.append(f"{where}: the answer was refused: {error}")
            break
    events = list(game.pending_events)[2:]
    expect = dict(data.get("expect", {}))
    result.failures += _find_in_order(run, events, expect.get("events", []))
    for want in expect.get("absent", []):
        hits = [e for e in events if _matches(run, e, want)]
        if hits:
            result.failures.append(f"event {_show(want)} should not happen, but did: #{hits[0].seq}")
    state = game.state
    for label, values in expect.get("cards", {}).items():
        uid = run.uid(label)
        for name, expected in values.items():
            actual = run.adapter.card_value(state, uid, name)
            if isinstance(expected, str) and isinstance(actual, int) and not isinstance(actual, bool):
                expected = run.uid(expected)  # a card named by its label (attached_to, wielder)
            if actual != expected:
                result.failures.append(f"card {label}: {name} is {actual!r}, expected {expected!r}")
    for seat, values in expect.get("players", {}).items():
        for name, expected in values.items():
            actual = run.adapter.player_value(state, seat, name)
            if actual != expected:
                result.failures.append(f"player {seat}: {name} is {actual!r}, expected {expected!r}")
    for zone, expected in expect.get("zones", {}).items():
        actual = [run.label(u) for u in run.adapter.zone(state, zone)]
        if actual != list(expected):
            result.failures.append(f"zone {zone}: {actual}, expected {list(expected)}")
    over = state.over
    for key in ("result", "reason"):
        if key in expect:
            actual = getattr(over, key) if over else None
            if actual != expect[key]:
                result.failures.append(f"game {key}: {actual!r}, expected {expect[key]!r}")
    if "decision" in expect:
        result.failures += _check_decision(run, state.pending, expect["decision"], "at the end")
    cards = getattr(state, "cards", {})
    for event in events:
        result.lines.append(run.event_line(event))
        result.rules.add(event.cause.rule)
        if event.cause.card in cards:
            result.cards.add(cards[event.cause.card].code)
    return result


def run_file(path: Path) -> Result:
    try:
        return run_fixture(load(path), path)
    except FixtureError as error:
        return Result(path, path.stem, [f"fixture error: {error}"])


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
            print("     events:")
            for line in result.lines:
                print(f"     {line}")
    print(f"{len(files) - failed} passed, {failed} failed", file=sys.stderr)
    return 1 if failed else 0
