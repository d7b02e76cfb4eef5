"""The kernel on its own, with a toy game written only for these tests.

The toy ("tally") has one seat that, each round, orders three tokens, names a number,
and may stop; a shuffle and a pick are drawn from the seed; reaching 10 points triggers a
bonus. It exercises what neither real game needs: ordering and number decisions,
Break and Restart, lasting modifiers and delayed effects, and the runtime's own rules
for rule steps.
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec
import pytest

from domain.game import BrokenGame, Game
from domain.kernel import rng
from domain.kernel.decisions import Decision, IllegalChoice, Kind, Option, check_choice
from domain.kernel.events import (
    Delayed,
    DelayedEffectScheduled,
    Event,
    Frame,
    GameEnded,
    Modifier,
    ModifierAdded,
    Outcome,
    ScopeEnded,
)
from domain.kernel.flow import (
    Ask,
    Break,
    Decide,
    Do,
    FlowError,
    ForEach,
    Hold,
    If,
    InChosenOrder,
    Repeat,
    Restart,
    Seq,
    frames_to,
    register,
)
from domain.kernel.ruleset import Appliers, Ruleset
from domain.kernel.runtime import Runtime, fold
from domain.kernel.state import State
from domain.verify import verify

# -- the toy game ------------------------------------------------------------------------

APPLIERS = Appliers()


class Tally(State, kw_only=True):
    points: int = 0
    order: list[str] = msgspec.field(default_factory=list)
    rounds: int = 0
    bonus: int = 0


class Started(Event, frozen=True, kw_only=True):
    seed: int


class Ordered(Event, frozen=True, kw_only=True):
    order: tuple[str, ...]


class Scored(Event, frozen=True, kw_only=True):
    points: int


class Shuffled(Event, frozen=True, kw_only=True):
    order: tuple[str, ...]


class RoundEnded(Event, frozen=True, kw_only=True):
    pass


class BonusPaid(Event, frozen=True, kw_only=True):
    amount: int


@APPLIERS.on(Started)
def _started(s: Tally, e: Started) -> None:
    s.seed = e.seed


@APPLIERS.on(Ordered)
def _ordered(s: Tally, e: Ordered) -> None:
    s.order = list(e.order)


@APPLIERS.on(Scored)
def _scored(s: Tally, e: Scored) -> None:
    s.points += e.points


@APPLIERS.on(Shuffled)
def _shuffled(s: Tally, e: Shuffled) -> None:
    s.order = list(e.order)


@APPLIERS.on(RoundEnded)
def _round(s: Tally, e: RoundEnded) -> None:
    s.rounds += 1


@APPLIERS.on(BonusPaid)
def _bonus(s: Tally, e: BonusPaid) -> None:
    s.bonus += e.amount


def _tally(rt: Runtime) -> Tally:
    assert isinstance(rt.state, Tally)
    return rt.state


def _ask_order(rt: Runtime) -> Ask:
    return Ask("solo", "Order the tokens", [Option(t, t.title()) for t in ("red", "green", "blue")], Kind.ORDER)


def _ask_number(rt: Runtime) -> Ask:
    return Ask("solo", "How many points?", kind=Kind.NUMBER, min=0, max=4)


def _ask_go_on(rt: Runtime) -> Ask | None:
    if _tally(rt).rounds >= 8:
        return None
    return Ask("solo", "Another round?", [Option("yes", "Yes"), Option("no", "No"), Option("again", "Start over")])


register(
    "tally.game",
    Seq(
        Repeat(
            Seq(
                Decide(_ask_order, "order", Do(lambda rt: rt.emit(Ordered(order=tuple(rt.env["order"]))))),
                Do(lambda rt: rt.emit(Shuffled(order=tuple(rt.shuffle(_tally(rt).order)))), rule="tally.shuffle"),
                Decide(_ask_number, "n", Do(lambda rt: rt.emit(Scored(points=int(rt.env["n"]))))),
                ForEach(
                    lambda rt: ["a", "b"],
                    "mark",
                    If(
                        lambda rt: _tally(rt).points >= 10 and rt.env["mark"] == "a",
                        Do(lambda rt: rt.emit(ModifierAdded(modifier=Modifier(0, "points", 1, "round")))),
                    ),
                ),
                Do(lambda rt: rt.emit(RoundEnded()), rule="tally.round-end"),
                Do(lambda rt: rt.emit(ScopeEnded(scope="round")) if rt.state.modifiers else None),
                Decide(
                    _ask_go_on,
                    "go",
                    If(lambda rt: rt.env["go"] == "no", Break(), If(lambda rt: rt.env["go"] == "again", Restart())),
                    otherwise=Break(),
                ),
            ),
        ),
        Do(lambda rt: rt.emit(GameEnded(outcome=Outcome(result="done", reason=f"{_tally(rt).points} points")))),
    ),
    rule="tally.round",
)
register("tally.bonus", Do(lambda rt: rt.emit(BonusPaid(amount=5))), rule="tally.bonus")


class TallyRules(Ruleset[Tally]):
    name = "tally"
    state_type = Tally
    events = (Started, Ordered, Scored, Shuffled, RoundEnded, BonusPaid)
    appliers = APPLIERS.table
    root = "tally.game"

    def seats(self, state: Tally) -> list[str]:
        return ["solo"]

    def after(self, rt: Any, event: Event) -> None:
        """A trigger: crossing 10 points pays a bonus, right after the scoring event."""
        if isinstance(event, Scored) and rt.state.points >= 10 > rt.state.points - event.points:
            rt.call("tally.bonus", {"_by": event.seq}, caller={})


TALLY = TallyRules()


def start(seed: int = 7) -> Game:
    return Game.start(uuid.uuid4(), TALLY, Started(seed=seed))


def answer(game: Game, *choice: str) -> None:
    decision = game.state.pending
    assert decision is not None
    game.answer(decision.seat, decision.id, choice)


# -- decisions ---------------------------------------------------------------------------


def _decision(kind: Kind, n: int = 3, lo: int = 1, hi: int = 1) -> Decision:
    options = tuple(Option(str(i), f"option {i}") for i in range(n))
    return Decision(id=9, seat="p1", kind=kind, prompt="?", rule="test.rule", options=options, min=lo, max=hi)


@pytest.mark.parametrize(
    ("kind", "lo", "hi", "good", "bad"),
    [
        (Kind.ONE, 1, 1, [("0",), ("2",)], [(), ("0", "1"), ("3",), ("x",)]),
        (Kind.MANY, 0, 2, [(), ("1",), ("0", "2")], [("0", "0"), ("0", "1", "2"), ("9",)]),
        (Kind.MANY, 2, 2, [("0", "1")], [("0",), ()]),
        (Kind.ORDER, 1, 1, [("2", "0", "1"), ("0", "1", "2")], [("0", "1"), ("0", "0", "1"), ("0", "1", "2", "3")]),
        (Kind.NUMBER, 0, 4, [("0",), ("4",)], [("5",), ("-1",), ("two",), ("1", "2"), ("01",)]),
    ],
)
def test_check_choice(kind: Kind, lo: int, hi: int, good: list[tuple[str, ...]], bad: list[tuple[str, ...]]) -> None:
    decision = _decision(kind, lo=lo, hi=hi)
    for choice in good:
        check_choice(decision, choice)
    for choice in bad:
        with pytest.raises(IllegalChoice) as error:
            check_choice(decision, choice)
        assert "decision 9 (test.rule" in str(error.value) and repr(list(choice)) in str(error.value)


# -- chance ------------------------------------------------------------------------------


def test_chance_depends_on_seed_and_draw_only() -> None:
    items = list(range(20))
    assert rng.shuffled(1, 0, items) == rng.shuffled(1, 0, items)
    assert rng.shuffled(1, 0, items) != rng.shuffled(1, 1, items)
    assert rng.shuffled(1, 0, items) != rng.shuffled(2, 0, items)
    assert sorted(rng.shuffled(5, 3, items)) == items
    firsts = [rng.shuffled(9, n, [0, 1, 2])[0] for n in range(3000)]
    assert all(800 < firsts.count(k) < 1200 for k in range(3)), "first places are not uniform"


# -- the runtime and the fold ------------------------------------------------------------


def test_a_game_plays_with_order_and_number_decisions_and_its_fold_matches() -> None:
    game = start()
    assert game.state.pending is not None and game.state.pending.kind is Kind.ORDER
    answer(game, "blue", "red", "green")
    assert game.state.pending is not None and game.state.pending.kind is Kind.NUMBER
    with pytest.raises(IllegalChoice):
        answer(game, "7")
    answer(game, "4")
    for _ in range(2):
        answer(game, "yes")
        answer(game, "green", "blue", "red")
        answer(game, "4")
    state = game.state
    assert isinstance(state, Tally)
    assert state.points == 12 and state.bonus == 5 and state.rounds == 3
    events = list(game.pending_events)
    bonus = next(e for e in events if isinstance(e, BonusPaid))
    scored = events[bonus.cause.by - 1] if bonus.cause.by else None
    assert isinstance(scored, Scored), "the bonus names the event that triggered it"
    assert TALLY.codec.encode(fold(TALLY, events)) == TALLY.codec.encode(state)
    shuffles = [e for e in events if isinstance(e, Shuffled)]
    assert all(e.draws == 1 for e in shuffles) and state.rng == len(shuffles)
    assert verify(TALLY, events).ok


def test_break_and_restart_and_lasting_modifiers() -> None:
    game = start()
    answer(game, "red", "green", "blue")
    answer(game, "4")
    answer(game, "again")  # Restart: the round loop starts over
    answer(game, "red", "green", "blue")
    answer(game, "4")
    answer(game, "yes")
    answer(game, "red", "green", "blue")
    answer(game, "4")
    events = game.pending_events
    added = [e for e in events if isinstance(e, ModifierAdded)]
    ended = [e for e in events if isinstance(e, ScopeEnded)]
    assert len(added) == 1 and len(ended) == 1 and not game.state.modifiers
    answer(game, "no")  # Break: out of the round loop, and the game ends
    assert game.state.pending is None and game.state.over is not None
    assert game.state.over.reason == "12 points"


def test_reload_at_every_version_continues_identically() -> None:
    game = start(3)
    script = [("red", "green", "blue"), ("3",), ("yes",), ("blue", "green", "red"), ("4",), ("yes",)]
    for choice in script:
        answer(game, *choice)
    assert_reloads_at_every_version(TALLY, game)


def assert_reloads_at_every_version(rules: TallyRules, game: Game) -> None:
    """Folding the events up to any version and answering the rest gives the same events."""
    events = list(game.pending_events)
    encode = rules.codec.encode
    for version in range(1, len(events) + 1):
        again = Game(game.id, rules, fold(rules, events[:version]))
        again.resume()
        for event in events[version:]:
            if type(event).__name__ == "DecisionAnswered" and event.seq > again.version:
                again.answer("solo", event.decision, event.choice)  # type: ignore[attr-defined]
        assert [encode(e) for e in [*events[:version], *again.pending_events]] == [encode(e) for e in events]


def test_flows_record_only_what_moved() -> None:
    game = start()
    answer(game, "red", "green", "blue")
    flows = [e.flow for e in game.pending_events if e.flow is not None]
    assert flows and all(f.keep >= 0 for f in flows)
    stack: list[Frame] = []
    for event in game.pending_events:
        if event.flow is not None:
            event.flow.onto(stack)
    assert stack == game.state.stack


def test_frames_to_starts_a_program_at_a_named_step() -> None:
    frames = frames_to("tally.game", "tally.round-end")
    assert frames[-1].node.endswith("/0/4") and all(isinstance(f, Frame) for f in frames)
    with pytest.raises(FlowError):
        frames_to("tally.game", "tally.no-such-step")


def test_a_step_emits_at_most_one_event_and_records_its_chance() -> None:
    class Noise(Event, frozen=True, kw_only=True):
        pass

    register("tally.test.two", Do(lambda rt: (rt.emit(Scored(points=1)), rt.emit(Scored(points=1)))), rule="t.two")
    register("tally.test.chance", Do(lambda rt: rt.shuffle([1, 2, 3])), rule="t.chance")
    for program in ("tally.test.two", "tally.test.chance"):
        state = Tally()
        rt = Runtime(TALLY, state, [])
        rt.call(program, {}, caller={})
        with pytest.raises(FlowError):
            rt.run()


def test_a_failing_rule_step_breaks_the_game_not_the_store() -> None:
    game = start()
    events_before = len(game.pending_events)
    register("tally.test.boom", Do(lambda rt: 1 / 0), rule="t.boom")  # type: ignore[func-returns-value, return-value]
    game.state.stack.append(Frame("tally.test.boom"))
    game.state.pending = None
    with pytest.raises(BrokenGame):
        game.resume()
    assert len(game.pending_events) == events_before
    with pytest.raises(BrokenGame):
        game.answer("solo", 1, ("red", "green", "blue"))


def test_delayed_effects_are_scheduled_as_events() -> None:
    delayed = Delayed(at="round", node="tally.bonus", env={"x": 1})
    event = DelayedEffectScheduled(delayed=delayed)
    state = Tally()
    TALLY.appliers[DelayedEffectScheduled](state, event)
    assert state.delayed == [delayed]
    TALLY.appliers[ScopeEnded](state, ScopeEnded(scope="round"))
    assert state.delayed == []


# -- several things due at once, and steps held as one ---------------------------------

TIMING_SCORES = {"a": 1, "b": 2, "c": 5}


def _timing_ask(rt: Runtime, due: list[Any]) -> Ask:
    return Ask("solo", "Which scores next?", [*(Option(x, x.upper()) for x in due), Option("none", "No more")])


def _pay(amount: int) -> Do:
    return Do(lambda rt: rt.defer("tally.pay", {"amount": amount}))


register("tally.pay", Do(lambda rt: rt.emit(BonusPaid(amount=int(rt.env["amount"])))), rule="tally.pay")
register(
    "tally.score",
    Do(lambda rt: rt.emit(Scored(points=int(rt.env["n"])))),
    rule="tally.score",
)
register(
    "tally.timing",
    Seq(
        InChosenOrder(
            lambda rt: ["a", "b", "c"],
            lambda rt, x: x != "c" or _tally(rt).points >= 3,  # "c" is due once 3 points are scored
            _timing_ask,
            str,
            lambda rt, x, by: ("tally.score", {"n": TIMING_SCORES[x], "chosen_by": by}),
        ),
        _pay(100),  # outside a hold: runs at once
        Hold(Seq(_pay(10), Do(lambda rt: rt.emit(RoundEnded())), _pay(20), Do(lambda rt: rt.emit(RoundEnded())))),
        Do(lambda rt: rt.emit(GameEnded(outcome=Outcome(result="done", reason=f"{_tally(rt).points} points")))),
    ),
    rule="tally.timing",
)


class TimingRules(TallyRules):
    root = "tally.timing"


TIMING = TimingRules()


def _story(game: Game) -> list[str]:
    return [f"{type(e).__name__}{getattr(e, 'points', '')}{getattr(e, 'amount', '')}" for e in game.pending_events]


def test_things_due_at_once_resolve_in_the_chosen_order_each_checked_when_its_turn_comes() -> None:
    game = Game.start(uuid.uuid4(), TIMING, Started(seed=1))
    decision = game.state.pending
    assert decision is not None and [o.id for o in decision.options] == ["a", "b", "none"], "c is not due yet"
    answer(game, "b")
    # "a" was then the only one due: it resolved without a question, and so "c" fell due.
    assert game.state.over is not None and isinstance(game.state, Tally) and game.state.points == 8
    story = _story(game)
    assert story[story.index("DecisionAnswered") :][:4] == ["DecisionAnswered", "Scored2", "Scored1", "Scored5"]
    scored_b = next(e for e in game.pending_events if isinstance(e, Scored))
    assert scored_b.cause.answer == decision.id + 1, "what the seat chose follows from its answer"


def test_none_resolves_no_more() -> None:
    game = Game.start(uuid.uuid4(), TIMING, Started(seed=1))
    answer(game, "none")
    assert isinstance(game.state, Tally) and game.state.points == 0 and game.state.over is not None


def test_programs_deferred_in_a_hold_start_when_it_is_done_in_their_order() -> None:
    game = Game.start(uuid.uuid4(), TIMING, Started(seed=1))
    answer(game, "a")
    story = _story(game)
    tail = story[story.index("BonusPaid100") :]
    assert tail == ["BonusPaid100", "RoundEnded", "RoundEnded", "BonusPaid10", "BonusPaid20", "GameEnded"]


def test_a_game_with_held_and_ordered_steps_reloads_at_every_version() -> None:
    game = Game.start(uuid.uuid4(), TIMING, Started(seed=1))
    answer(game, "b")
    encode = TIMING.codec.encode
    assert encode(fold(TIMING, list(game.pending_events))) == encode(game.state)
    assert_reloads_at_every_version(TIMING, game)
