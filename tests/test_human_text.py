"""Every text a person reads in a whole game says it in words: no card uid (``#99``), no
rule key (``lcg.setup.mulligan``, any dotted key the rules register), no option id.

A seeded game of each scenario is played to its end by bots — the LCG's five scenarios (the
Dreadnaught and the Lonely Mountain at three players too), War of the Ring's four scenarios
and Against the Shadow with the Shadow bots — and these texts are read:

- the story (``westmarch log``), every line;
- every seat's and a spectator's feed (``Event.text`` over gRPC, the web timeline), every line;
- the terminal, as ``westmarch play`` shows it to every seat in turn: the events since the
  seat's last decision, the table, the decision with its notes and numbered options, and a
  card's whole text asked for with ``? 1``;
- ``explain`` (the command, ExplainEvent, the web page): every event's arithmetic, and whole
  explanations of a sample of events (the rule reference beside each line is its citation).

The rule keys are read from the rules' own registry of program steps
(:data:`domain.kernel.flow.NODES`) and the decisions and causes of the games played, so a
rule added later is scanned too.
"""

from __future__ import annotations

import io
import re
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

import pytest

from bots import make_bot
from domain.game import Game
from domain.kernel.decisions import Choice, Decision, Kind
from domain.kernel.events import DecisionAnswered, DecisionRequested, Event, LimitUsed, ModifierAdded, PositionEvent
from domain.kernel.flow import NODES
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from projections.arithmetic import working
from projections.explain import Because, explain
from projections.feed import SPECTATOR, Feed
from projections.story import collapse, story
from tools.games import KINDS
from tools.play import Seating, ordered, play, screen

UID = re.compile(r"#\d+")
RAW_ID = re.compile(r"[\d.:>,]|\w-\d")
"""An option id that is no word: it names a card or a place by number (``28``, ``34:1,35:1``,
``play.19.L154``, ``3>28``, ``forced-0``)."""

GAMES: list[tuple[str, str, Callable[[], Event]]] = [
    *(
        (f"lcg {key}", "lcg", partial(LCG.created, lcg_options(key, 2), seed))
        for key, seed in (
            ("passage-through-mirkwood", 5),
            ("journey-along-the-anduin", 5),
            ("escape-from-dol-guldur", 5),
            ("hunt-for-the-dreadnaught", 5),
            ("the-lonely-mountain", 5),
        )
    ),
    # three players reach Isle of Fortune's resources and the Dreadnaught's capped damage
    (
        "lcg hunt-for-the-dreadnaught, 3 players",
        "lcg",
        partial(LCG.created, lcg_options("hunt-for-the-dreadnaught", 3), 12),
    ),
    ("lcg the-lonely-mountain, 3 players", "lcg", partial(LCG.created, lcg_options("the-lonely-mountain", 3), 8)),
    ("wotr two-player-duel", "wotr", partial(WOTR.created, wotr_options("two-player-duel"), 5)),
    ("wotr three-player-duel", "wotr", partial(WOTR.created, wotr_options("three-player-duel"), 5)),
    ("wotr fellowship", "wotr", partial(WOTR.created, wotr_options("fellowship"), 5)),
    ("wotr trilogy", "wotr", partial(WOTR.created, wotr_options("trilogy"), 5)),
    (
        "wotr against the shadow, duel",
        "wotr",
        partial(WOTR.created, wotr_options("two-player-duel", None, ["shadow"], "standard"), 5),
    ),
    (
        "wotr against the shadow, trilogy",
        "wotr",
        partial(WOTR.created, wotr_options("trilogy", None, ["shadow"], "challenging"), 6),
    ),
]


@dataclass
class Played:
    """A whole game played at the terminal, and every text a person read of it."""

    rules: Ruleset[Any]
    events: list[Event]
    terminal: str
    story: list[tuple[Event, str]]
    feeds: dict[str, list[tuple[Event, str]]] = field(default_factory=dict)
    runs: dict[str, list[str]] = field(default_factory=dict)
    """Each viewer's lines that tell a run of events as one (``Event.run_text``)."""
    explained: list[str] = field(default_factory=list)
    """What ``explain`` says: every event's arithmetic, and whole explanations of a sample."""
    unexplained: list[str] = field(default_factory=list)
    """Numeric rule steps (:data:`NUMERIC`) whose explanation shows no arithmetic."""


class Player:
    """Types what a bot would answer, by option number, and asks for a card's text now and then."""

    def __init__(self, game: Game, bots: dict[str, Any]) -> None:
        self.game, self.bots = game, bots
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        decision = self.game.state.pending
        assert decision is not None
        self.asked += 1
        if self.asked % 7 == 0 and decision.kind is not Kind.NUMBER:
            return "? 1"
        view = partial(KINDS[self.game.rules.name].view, self.game.state, decision.seat)
        return typed(decision, self.bots[decision.seat].choose(decision, view))


def typed(decision: Decision, choice: Choice) -> str:
    if decision.kind is Kind.NUMBER:
        return choice[0]
    numbers = {o.id: n for n, o in enumerate(ordered(decision), start=1)}
    return ",".join(str(numbers[c]) for c in choice)


@cache
def played(name: str) -> Played:
    _, game_name, created = next(g for g in GAMES if g[0] == name)
    rules: Ruleset[Any] = LCG if game_name == "lcg" else WOTR
    game = Game.start(uuid.uuid4(), rules, created())
    kind = KINDS[game_name]
    seats = rules.seats(game.state)
    bots = {seat: make_bot("greedy", 11 + i, game_name) for i, seat in enumerate(seats)}
    feeds: dict[str, Feed] = {}
    read_to: dict[str, int] = {}

    def recent(seat: str) -> list[str]:
        """What happened since the seat last decided, as it may see it (as ``westmarch play`` shows it)."""
        feed = feeds.setdefault(seat, Feed(rules, seat, rules.new_state()))
        events = game.pending_events
        shown = feed.project_many(events[read_to.get(seat, 0) :])
        read_to[seat] = len(events)
        return [f"{p.seq:6}  {p.text}" for p in shown if p.type != "DecisionRequested"]

    def submit(decision: Decision, choice: Choice) -> None:
        game.answer(decision.seat, decision.id, choice)

    def caused_by(decision: Decision) -> int | None:
        return game.pending_events[decision.id - 1].cause.card

    out = io.StringIO()
    over = play(
        lambda: game.state,
        submit,
        lambda viewer: kind.view(game.state, viewer),
        screen(game_name),
        Seating(shared=True),
        read=Player(game, bots),
        out=out,
        recent=recent,
        caused_by=caused_by,
    )
    assert over is not None, f"{name}: the game did not end"
    events = list(game.pending_events)
    result = Played(rules, events, out.getvalue(), list(story(rules, events)))
    result.explained, result.unexplained = explained(rules, events)
    for viewer in [*seats, SPECTATOR]:
        feed = Feed(rules, viewer, rules.new_state())
        projected = feed.project_many(events)
        result.feeds[viewer] = [(e, p.text) for e, p in zip(events, projected, strict=True)]
        result.runs[viewer] = [p.run_text for p in projected if p.run_text]
    return result


EXPLAINED = 6
"""Events of each game explained whole (their text, card and arithmetic, and those of the
events they follow from)."""


NUMERIC = frozenset(
    {"DamageDealt", "ProgressPlaced", "ThreatRaised", "ThreatSet", "QuestResolved", "EnemyEngaged"}
    | {"CombatBegan", "LossTaken", "CombatEnded"}
)
"""The numeric rule steps of both games: combat damage, archery, shadow effects, hit points,
progress, threat, quests, engagements, War of the Ring combats."""


def explained(rules: Ruleset[Any], events: list[Event]) -> tuple[list[str], list[str]]:
    """What ``westmarch explain`` (and ExplainEvent, and the web page) says a person reads:
    each event's arithmetic, from the states just before and after it, and the whole tree of
    a sample of events (the rule reference beside each is the citation, kept as it is); and
    the numeric steps it showed no arithmetic for."""
    out: list[str] = []
    missing: list[str] = []
    state = rules.new_state()
    for event in events:
        before = rules.codec.decode_state(rules.codec.encode(state))
        apply(rules, state, event)
        shown = working(rules, event, before, state)
        out += shown
        if not shown and type(event).__name__ in NUMERIC:
            missing.append(f"{event.seq} {type(event).__name__} ({event.cause.rule})")

    def tree(b: Because) -> None:
        out.append(b.text)
        out.extend(b.working)
        out.append(b.card or "")
        for led in b.led_by:
            tree(led)

    for seq in range(len(events), 1, -max(1, len(events) // EXPLAINED)):
        tree(explain(rules, events, seq, depth=2))
    return out, missing


@cache
def rule_keys() -> frozenset[str]:
    """Every dotted rule key: each registered step's and program's, and those the games played used."""
    # LCG and WOTR, imported above, have registered every program of both games
    keys = {node.rule for node in NODES.values()} | {name for name in NODES if "/" not in name}
    for name, _, _ in GAMES:
        for event in played(name).events:
            keys.add(event.cause.rule)
            if isinstance(event, DecisionRequested):
                keys.add(event.decision.rule)
    return frozenset(k for k in keys if "." in k)


@cache
def rule_key_pattern() -> re.Pattern[str]:
    keys = sorted(rule_keys(), key=len, reverse=True)
    return re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, keys)) + r")(?![\w-])")


PLAIN_STATS = frozenset({"attack", "defense", "willpower", "threat", "hit points"})
"""Modifier stats that are words of the cards already."""


@cache
def internal_words() -> re.Pattern[str]:
    """The rules' own words for what they keep, as the games played used them: lasting
    counts (``progress-this-round``, ``fortune``, ``keyword:Surge``) and limit keys
    (``stage.ally-played``, ``12:p1``)."""
    found: set[str] = set()
    for name, _, _ in GAMES:
        for event in played(name).events:
            if isinstance(event, ModifierAdded):
                found.add(event.modifier.stat)
            elif isinstance(event, LimitUsed):
                found.add(event.key)
            elif isinstance(event, PositionEvent):
                found.update(m.stat for m in event.modifiers)
                found.update(x.key for x in event.limits)
    from domain.lcg.cards import corsairs, hobbit_treasures, the_lonely_mountain
    from domain.lcg.rules import caps, constant, ship_keywords, travel
    from domain.lcg.rules import table as lcg_table

    found |= {caps.RECEIVED_PROGRESS, caps.RECEIVED_DAMAGE, corsairs.FORTUNE, corsairs.CREW, hobbit_treasures.DISCOUNT}
    found |= {constant.ALLY_LIMIT, travel.TRAVEL_REFUSED, lcg_table.NO_THREAT, corsairs.OVERWORKED_FLAG}
    found |= {the_lonely_mountain.AGAIN_KEY, the_lonely_mountain.DESOLATION_KEY}
    found |= {ship_keywords.CORSAIR_DECK, ship_keywords.CORSAIR_DISCARD}  # zone keys
    words = sorted((w for w in found if w not in PLAIN_STATS and not w.isdigit()), key=len, reverse=True)
    return re.compile(r"(?<![\w.:-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])")


def faults(text: str) -> Iterator[str]:
    """What a person should not read in ``text``: a uid, a rule key, the rules' own words."""
    for line in text.splitlines():
        if UID.search(line):
            yield f"a card uid: {line.strip()}"
        found = rule_key_pattern().search(line)
        if found:
            yield f"the rule key {found.group(1)}: {line.strip()}"
        found = internal_words().search(line)
        if found:
            yield f"the rules' word {found.group(1)!r}: {line.strip()}"


def raw_answers(lines: list[tuple[Event, str]], events: list[Event]) -> Iterator[str]:
    """Answers told by an option id rather than by its label or in words."""
    for event, line in lines:
        if not isinstance(event, DecisionAnswered):
            continue
        asked = events[event.decision - 1]
        assert isinstance(asked, DecisionRequested)
        decision = asked.decision
        if decision.kind is Kind.NUMBER:
            continue
        told = line.split(" chooses", 1)[-1].split(" puts them in order", 1)[-1].lstrip(": ")
        items = {item.strip().casefold() for item in re.split(r",|;| and ", told)}
        for choice in event.choice:
            option = decision.option(choice)
            label = option.label if option is not None else ""
            if choice.casefold() == label.casefold():
                continue  # an id that is its label ("p2", "Pass" and "pass")
            bare = choice.casefold() in items  # the answer reads the bare id: "p2 chooses keep"
            raw = bool(RAW_ID.search(choice)) and not choice.isdigit() and choice not in label and choice in told
            if bare or raw:  # or an id that is no word anywhere in it: "p2 chooses 34:1,35:1"
                yield f"option id {choice!r} ({label}): {line}"


def raw_ids(terminal: str, events: list[Event]) -> Iterator[str]:
    """Option ids that are no words (``34:1,35:1``, ``play.19.L154``) anywhere on the terminal."""
    ids = {
        o.id
        for e in events
        if isinstance(e, DecisionRequested) and e.decision.kind is not Kind.NUMBER
        for o in e.decision.options
        if RAW_ID.search(o.id) and not o.id.isdigit() and o.id not in o.label
    }
    if not ids:
        return
    pattern = re.compile(
        r"(?<![\w.:>,-])(" + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r")(?![\w.:>,-])"
    )
    for line in terminal.splitlines():
        found = pattern.search(line)
        if found:
            yield f"option id {found.group(1)!r}: {line.strip()}"


NAMES = [g[0] for g in GAMES]


@pytest.mark.parametrize("name", NAMES)
def test_the_story_says_everything_in_words(name: str) -> None:
    game = played(name)
    bad = [f for _, line in game.story for f in faults(line)]
    bad += list(raw_answers(game.story, game.events))
    assert not bad, f"{name}: {len(bad)} lines, e.g. {bad[:8]}"


@pytest.mark.parametrize("name", NAMES)
def test_every_feed_says_everything_in_words(name: str) -> None:
    game = played(name)
    bad: list[str] = []
    for viewer, lines in game.feeds.items():
        bad += [f"{viewer}: {f}" for _, line in lines for f in faults(line)]
        bad += [f"{viewer}: {f}" for f in raw_answers(lines, game.events)]
        bad += [f"{viewer}: {f}" for line in game.runs[viewer] for f in faults(line)]
    assert not bad, f"{name}: {len(bad)} lines, e.g. {bad[:8]}"
    others = [line for viewer, lines in game.feeds.items() for _, line in lines if " must decide " in line]
    assert others, "another seat's decision is in every game's feeds"


@pytest.mark.parametrize("name", NAMES)
def test_explain_says_everything_in_words(name: str) -> None:
    game = played(name)
    bad = [f for line in game.explained for f in faults(line)]
    assert not bad, f"{name}: {len(bad)} lines, e.g. {bad[:8]}"
    assert sum(1 for line in game.explained if " = " in line) > 20, "the games' arithmetic was read"


@pytest.mark.parametrize("name", NAMES)
def test_every_numeric_step_of_every_scenario_shows_its_arithmetic(name: str) -> None:
    """Combat damage, archery, shadow effects, hit points, threat raised, progress, quests,
    engagements and War of the Ring combats: each such step of a whole game has its working."""
    game = played(name)
    assert not game.unexplained, f"{name}: {len(game.unexplained)} steps, e.g. {game.unexplained[:8]}"


@pytest.mark.parametrize("name", NAMES)
def test_the_terminal_says_everything_in_words(name: str) -> None:
    game = played(name)
    bad = list(faults(game.terminal)) + list(raw_ids(game.terminal, game.events))
    assert not bad, f"{name}: {len(bad)} lines, e.g. {bad[:8]}"
    assert "Since your last decision:" in game.terminal and "GAME OVER" in game.terminal
    assert " - " in game.terminal and "Text:" in game.terminal  # a card's whole text was asked for


def test_the_scan_reads_every_rule_key_and_would_catch_each() -> None:
    keys = rule_keys()
    assert {"lcg.setup.mulligan", "lcg.quest.commit", "wotr.action.turn", "core-001.response"} <= keys
    assert len(keys) > 400
    for key in ("lcg.setup.mulligan", "thftd.setup.fleet", "wotr.combat.order"):
        assert list(faults(f"p2 must decide ({key})")), key
    assert list(faults("Forest Spider#99 engages p1"))
    assert list(faults("Searching the High Seas gets +7 progress-this-round until the end of the round"))
    assert list(faults("Isle of Fortune gets +2 fortune until the end of the game"))
    assert list(faults("the limit stage.ally-played is used for this round"))
    assert not list(faults("the quest: willpower 2 against threat 6; Narya, Ring of Fire is played"))


def test_another_seats_decision_under_any_rule_key_reads_in_words() -> None:
    """What the feed tells of a decision another seat makes, for every key the rules register."""
    from projections.phrases_lcg import asks as lcg_asks
    from projections.phrases_wotr import asks as wotr_asks

    for key in rule_keys():
        told = (wotr_asks if key.startswith("wotr.") else lcg_asks)(key)
        assert told and not list(faults(f"p2 must decide {told}")) and not re.search(r"\w\.\w", told), (key, told)
    assert lcg_asks("lcg.setup.mulligan") == "whether to keep their opening hand"
    assert lcg_asks("core-001.response") == "on Aragorn's response"
    assert lcg_asks("lcg.combat.window.shadows") == "whether to take an action in the combat phase"
    assert wotr_asks("wotr.minas-tirith.activation") == "on Minas Tirith's activation"


def test_repeated_lines_are_told_once() -> None:
    assert collapse(["Aragorn is destroyed", "Gimli is destroyed", "p1 draws a card"]) == [
        "Aragorn and Gimli are destroyed",
        "p1 draws a card",
    ]
    moved = [f"{n:>5}  Black Sails is put at the bottom of the Corsair deck" for n in range(30, 43)]
    assert collapse(moved) == ["   30  13 cards are put at the bottom of the Corsair deck"]
    assert collapse(["Forest Spider is revealed", "the quest: willpower 2 against threat 6"]) == [
        "Forest Spider is revealed",
        "the quest: willpower 2 against threat 6",
    ]
    # at the table: the Dreadnaught's Corsair deck is built in one line, not thirteen
    game = played("lcg hunt-for-the-dreadnaught")
    assert re.search(r"\d+ cards are put at the bottom of the Corsair deck", game.terminal)
    assert not re.search(r"(is put at the bottom of the Corsair deck\n.*){2}", game.terminal)
    # and in every feed (Event.run_text, the web timeline's line for the run)
    for viewer, told in game.runs.items():
        assert "13 cards are put at the bottom of the Corsair deck" in told, viewer
