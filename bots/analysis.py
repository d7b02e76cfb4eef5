"""Analysis: what each answer to a decision was worth, and which decisions of a game mattered.

The desk's "what if", on the search the bots play with (:mod:`bots.search`): every candidate
answer to the decision pending at a version, valued by the chance that the deciding seat's
side wins, from what a seat knew then (the cards hidden from it sampled) or from the true
table (the referee's). An analysis reads a game's events and never appends to them; with a
rollout budget the same seed gives the same figures.

A game asks hundreds of decisions, most of them with one legal answer. :func:`swings`
skips those, screens the others with a small budget each, then spends the rest of the
total on the decisions whose screening showed the widest gap between the answer given and
the best one, and says what it skipped and why.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.search import Budget, OptionValue, evaluate
from domain.kernel.decisions import Choice, Decision, Kind
from domain.kernel.events import DecisionAnswered, DecisionRequested, Event
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.kernel.state import State
from projections.i18n import N_, say

REFEREE = "referee"


class CannotAnalyse(ValueError):
    """The analysis asked for cannot be made (no decision at that version, a viewer that
    may not...); the message says why in one line."""


@dataclass(frozen=True)
class Valued:
    """One answer and its estimated value for the deciding seat's side."""

    choice: Choice
    label: str
    """The answer in the table's words (its options' labels)."""
    value: float
    low: float
    high: float
    """95 % interval of ``value``."""
    rollouts: int


@dataclass(frozen=True)
class Analysis:
    version: int
    """The version at which the decision was pending (the event that asked it)."""
    decision: Decision
    knowledge: str
    """The seat from whose knowledge the options were valued, or ``referee`` (the true table)."""
    seed: int
    options: tuple[Valued, ...]
    """Best first."""
    cpu_seconds: float
    taken: Choice | None = None
    """The answer the game went on with, if the decision was answered."""

    @property
    def rollouts(self) -> int:
        """Rollouts of all the answers together."""
        return sum(o.rollouts for o in self.options)

    @property
    def most(self) -> int:
        """Rollouts of the answer searched most: the ``Budget.rollouts`` that gives the same figures."""
        return max((o.rollouts for o in self.options), default=0)

    @property
    def best(self) -> Valued:
        return self.options[0]

    def of(self, choice: Choice) -> Valued | None:
        """The valued answer ``choice`` is (a set of options in any order for a choice of several)."""
        key = _key(self.decision, choice)
        return next((o for o in self.options if _key(self.decision, o.choice) == key), None)


def label(decision: Decision, choice: Choice) -> str:
    """An answer in the table's words: an option's label, several joined, an order with "then"."""
    if decision.kind is Kind.NUMBER:
        return choice[0] if choice else ""
    labels = [o.label if (o := decision.option(c)) is not None else c for c in choice]
    if decision.kind is Kind.ORDER:
        return ", then ".join(labels)
    if decision.kind is Kind.MANY:
        return " + ".join(labels) if labels else "none"
    return labels[0] if labels else ""


def _key(decision: Decision, choice: Choice) -> Choice:
    return tuple(sorted(choice)) if decision.kind is Kind.MANY else tuple(choice)


def knowledge_of(rules: Ruleset[Any], state: State, asked: str) -> str:
    """Whose knowledge an analysis of the decision pending at ``state`` may use when ``asked``
    (a seat, or ``referee``) is given: the deciding seat's own, or the referee's (the true
    table). CannotAnalyse says why another is refused."""
    decision = state.pending
    assert decision is not None
    if asked in (REFEREE, decision.seat):
        return asked
    seats = rules.seats(state)
    if asked not in seats:
        raise CannotAnalyse(
            say(
                "%(asked)s is not a seat of this game; its seats are %(seats)s (or referee)",
                asked=asked,
                seats=", ".join(seats),
            )
        )
    raise CannotAnalyse(
        say(
            "the decision is %(seat)s's: its answers are valued from what %(seat)s knew then "
            "(--as %(seat)s) or from the true cards (--referee), not from %(asked)s's knowledge",
            seat=decision.seat,
            asked=asked,
        )
    )


def side_of(state: State, seat: str) -> str:
    """The side a seat plays for (War of the Ring's teams; every LCG seat plays with the others)."""
    player = getattr(state, "players", {}).get(seat)
    return str(getattr(player, "team", "") or "players")


def analyze(
    rules: Ruleset[Any],
    state: State,
    *,
    knowledge: str,
    budget: Budget,
    seed: int,
    taken: Choice | None = None,
) -> Analysis:
    """Every candidate answer to the decision pending at ``state``, best first, valued from
    ``knowledge`` (the deciding seat, or ``referee`` for the true table). ``state`` is not changed."""
    decision = state.pending
    if decision is None:
        raise CannotAnalyse(say("no decision is pending at version %(version)s", version=state.version))
    copy = rules.codec.decode_state(rules.codec.encode(state))
    seat = decision.seat if knowledge == REFEREE else knowledge
    started = time.thread_time()
    # the answer given is searched whatever else is (the search always searches its blueprint's)
    ranked = evaluate(rules, copy, seat, budget, seed, referee=knowledge == REFEREE, blueprint=taken)
    spent = time.thread_time() - started
    return Analysis(
        version=state.version,
        decision=decision,
        knowledge=knowledge,
        seed=seed,
        options=tuple(_valued(decision, v) for v in ranked),
        cpu_seconds=spent,
        taken=taken,
    )


def _valued(decision: Decision, v: OptionValue) -> Valued:
    return Valued(v.choice, label(decision, v.choice), v.value, v.low, v.high, v.rollouts)


def decisions(rules: Ruleset[Any], events: Sequence[Event]) -> list[Asked]:
    """Every decision a game asked, with its version, the state then and the answer given."""
    answers = {e.decision: e.choice for e in events if isinstance(e, DecisionAnswered)}
    state = rules.new_state()
    out: list[Asked] = []
    for event in events:
        apply(rules, state, event)
        if isinstance(event, DecisionRequested):
            out.append(Asked(event.seq, event.decision, answers.get(event.seq), rules.codec.encode(state)))
    return out


@dataclass(frozen=True)
class Asked:
    version: int
    decision: Decision
    taken: Choice | None
    state: bytes
    """The state at ``version`` (encoded: a game holds hundreds of them)."""


def trivial(decision: Decision) -> str | None:
    """Why a decision has nothing to analyse (one legal answer), or None."""
    n = len(decision.options)
    if decision.kind is Kind.NUMBER:
        return N_("one legal answer") if decision.min == decision.max else None
    if decision.kind is Kind.ONE and n <= 1:
        return N_("one legal answer")
    if decision.kind is Kind.ORDER and n <= 1:
        return N_("one legal answer")
    if decision.kind is Kind.MANY and (decision.max == 0 or decision.min >= n):
        return N_("one legal answer")
    return None


@dataclass(frozen=True)
class Swing:
    analysis: Analysis
    taken: Valued
    best: Valued

    @property
    def loss(self) -> float:
        """How much the answer given lowered the estimate against the best answer."""
        return self.best.value - self.taken.value


@dataclass
class Swings:
    swings: list[Swing]
    """Largest loss first."""
    asked: int
    """Decisions the game asked."""
    screened: int
    """Decisions screened (each with the answer given among the answers searched)."""
    refined: int
    skipped: Counter[str] = field(default_factory=Counter)
    """Decisions not analysed, by reason."""
    unreached: list[int] = field(default_factory=list)
    """Versions of decisions the total budget did not reach."""
    cpu_seconds: float = 0.0


Progress = Callable[[int, int, str], None]
"""Told ``(done, total, note)`` as the work goes on."""


def swings(
    rules: Ruleset[Any],
    events: Sequence[Event],
    *,
    referee: bool,
    per_decision: Budget,
    total_seconds: float | None,
    seed: int,
    top: int = 5,
    progress: Progress | None = None,
) -> Swings:
    """The decisions of a game whose answer lowered the estimate most against the best one.

    Each non-trivial decision is screened with a quarter of ``per_decision``; the ``2 * top``
    with the widest gaps are then valued again with the whole of it. Screening stops at half
    of ``total_seconds`` (of this thread's CPU) and refining at all of it: what is left is
    reported as not reached. Each decision is valued from its deciding seat's knowledge, or
    the true table's with ``referee``."""
    asked = decisions(rules, events)
    report = Swings([], len(asked), 0, 0)
    todo: list[Asked] = []
    for item in asked:
        reason = trivial(item.decision) or (None if item.taken is not None else N_("not answered yet"))
        if reason is None:
            todo.append(item)
        else:
            report.skipped[reason] += 1
    screen = Budget(
        rollouts=max(1, per_decision.rollouts // 4) if per_decision.rollouts is not None else None,
        cpu_seconds=per_decision.cpu_seconds / 4 if per_decision.cpu_seconds is not None else None,
    )
    started = time.thread_time()

    def spent() -> float:
        return time.thread_time() - started

    work = len(todo) + 2 * top
    screened: list[tuple[float, Asked]] = []
    for n, item in enumerate(todo):
        if total_seconds is not None and spent() >= total_seconds / 2:
            report.unreached = [i.version for i in todo[n:]]
            break
        swing = _swing(_analyse(rules, item, referee, screen, seed))
        if progress is not None:
            progress(n + 1, work, say("screening version %(version)s", version=item.version))
        if swing is None:
            report.skipped[N_("the answer given is not among the answers searched")] += 1
            continue
        report.screened += 1
        screened.append((swing.loss, item))
    chosen = [item for loss, item in sorted(screened, key=lambda s: -s[0])[: 2 * top] if loss > 0]
    refined: list[Swing] = []
    for n, item in enumerate(chosen):
        if total_seconds is not None and spent() >= total_seconds:
            report.unreached += [i.version for i in chosen[n:]]
            break
        swing = _swing(_analyse(rules, item, referee, per_decision, seed))
        report.refined += 1
        if progress is not None:
            progress(len(todo) + n + 1, work, say("valuing version %(version)s again", version=item.version))
        if swing is not None and swing.loss > 0:
            refined.append(swing)
    report.swings = sorted(refined, key=lambda s: -s.loss)[:top]
    report.cpu_seconds = spent()
    return report


def _analyse(rules: Ruleset[Any], item: Asked, referee: bool, budget: Budget, seed: int) -> Analysis:
    state = rules.codec.decode_state(item.state)
    knowledge = REFEREE if referee else item.decision.seat
    return analyze(rules, state, knowledge=knowledge, budget=budget, seed=seed + item.version, taken=item.taken)


def _swing(found: Analysis) -> Swing | None:
    """The answer given against the answer of the highest chance (the search may rank by more)."""
    taken = found.of(found.taken) if found.taken is not None else None
    best = max(found.options, key=lambda o: (o.value, o.low))
    return Swing(found, taken, best) if taken is not None else None
