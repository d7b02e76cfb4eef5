"""Search on the same rules: the value of each answer to a decision, by determinized rollouts.

For the pending decision of one seat, :func:`evaluate` draws *worlds* the seat cannot tell
from the real game (:mod:`bots.worlds`: the cards hidden from it dealt again, a new seed for
the chance to come), answers the decision with each candidate in each world, and plays the
game on to its end in memory with the cheap blueprint player (the greedy bot) in every
seat. A candidate's value is the share of its rollouts that were won. This is determinized
Monte Carlo over a heuristic blueprint, the "perfect information Monte Carlo" of Cowling,
Powley & Whitehouse (2012) at the root, with SPARTA's single-seat search over a blueprint
(Lerer et al. 2020), and expert-knowledge playouts as Godlewski & Sawicki (2021) found best
for this game.

Each world is shared by every candidate (common random numbers: the comparison between two
answers is not drowned by the luck of the draw), and the blueprint's own random choices in
world k are seeded the same for every candidate. Candidates that fall clearly behind the
best on the worlds played so far stop getting rollouts (a paired test), so the budget goes
to the close calls.

Candidates: every option of a one-option decision; for the others (choose several, order,
a number) the blueprint's answer and sensible variants of it (each option added or taken
away, the least and the most, every subset when there are few). An option naming a card of
another seat that has not consented (a partner's character to take damage, a partner's ally
to attack) is no candidate unless no answer avoids it.

The search bot (:class:`SearchBot`) searches only the decisions the game says matter, cuts
its rollouts after a horizon of rounds and values the position reached
(:attr:`bots.worlds.Searchable.value`), and leaves the blueprint's answer only for one that beat
it in the same worlds by at least ``DEVIATE_Z`` standard errors, more when it is the best of
many (SPARTA's "deviate only when confident"). :func:`evaluate` alone (``westmarch analyze``)
plays every rollout to the end.

Nothing is appended to the game and ``state`` is not changed: every rollout plays in a copy.
The same seed gives the same answer when the budget is a number of rollouts; a budget of CPU
time stops wherever the time runs out.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from bots import Bot, View
from bots.worlds import Searchable, copy_state, referee_world, searchable, world
from domain.kernel.decisions import Choice, Decision, Kind
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import Runtime
from domain.kernel.state import State

DEFAULT_ROLLOUTS = 32
"""Rollouts per candidate when a budget gives neither a count nor a time."""
PROGRESS_WEIGHT = 0.25
"""How much a lost rollout's progress counts beside a win when candidates are compared
(score = (win + w * progress) / (1 + w)): where every answer loses almost always, the one
that gets further is the better one."""
ROLLOUT_LIMIT = 20_000
"""Decisions after which a rollout is stopped and scored as it stands (a game that does not end)."""
MAX_CANDIDATES = 24
BATCH = 4
"""Worlds played for every live candidate between two looks at the figures."""
FIRST_LOOK = 8
"""Worlds before a candidate may be dropped, or the search stop early."""
DROP_Z = 2.5
"""How many standard errors behind the best (on the worlds both played) drops a candidate."""
Z95 = 1.959964


@dataclass(frozen=True)
class Budget:
    """How much a search may spend on one decision: at most ``rollouts`` rollouts per
    candidate answer, and at most ``cpu_seconds`` of CPU time for the whole evaluation;
    whichever ends first (every candidate gets at least one rollout). Neither: 32 rollouts
    per candidate. CPU time is the searching thread's (``time.thread_time``: the same as
    ``time.process_time`` in a process searching alone, and not charged for other threads'
    work in a server)."""

    rollouts: int | None = None
    cpu_seconds: float | None = None


@dataclass(frozen=True)
class OptionValue:
    choice: Choice
    """An answer to the pending decision."""
    value: float
    """Estimated win probability: the share of its rollouts won."""
    low: float
    """95 % interval of the win probability (Wilson)."""
    high: float
    rollouts: int
    score: float = 0.0
    """Mean normalised score, what the search bot maximises: a win counts 1, a loss how far
    the game got (``PROGRESS_WEIGHT``); equal to the win rate where every rollout is won or
    every rollout gets nowhere."""
    edge: float = 0.0
    """How sure the search is that this answer beats the blueprint's: the mean difference of
    their scores on the worlds both played, in standard errors (0 for the blueprint's own)."""


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return low, high


# -- candidates ---------------------------------------------------------------------------


def _consented(game: Searchable, state: Any, decision: Decision, consent: frozenset[str]) -> Callable[[str], bool]:
    cards = {o.id: o.card for o in decision.options}

    def allowed(option_id: str) -> bool:
        card = cards.get(option_id)
        if card is None:
            return True
        other = game.partner_of(state, card, decision.seat)
        return other is None or other in consent

    return allowed


def candidates(
    decision: Decision, blueprint: Choice, allowed: Callable[[str], bool] | None = None, limit: int = MAX_CANDIDATES
) -> list[Choice]:
    """The answers worth comparing: every option of a one-option decision; the blueprint's
    answer and variants of it otherwise. ``allowed`` filters options the seat may not use
    (a partner's card without consent), unless nothing is left."""
    ids = [o.id for o in decision.options]
    ok = [i for i in ids if allowed is None or allowed(i)]
    out: list[Choice] = [tuple(blueprint)]

    def add(choice: Choice) -> None:
        if choice not in out and len(out) < limit:
            out.append(choice)

    if decision.kind is Kind.ONE:
        for i in ok or ids:
            add((i,))
    elif decision.kind is Kind.MANY:
        usable = ok if len(ok) >= decision.min else ids
        low, high = decision.min, min(decision.max, len(usable))
        subsets = sum(math.comb(len(usable), k) for k in range(low, high + 1))
        if subsets <= limit:
            for k in range(low, high + 1):
                for combo in itertools.combinations(usable, k):
                    add(combo)
        else:
            chosen = [c for c in blueprint if c in usable]
            for i in usable:
                if i in chosen and len(chosen) > low:
                    add(tuple(c for c in chosen if c != i))
                elif i not in chosen and len(chosen) < high:
                    add((*chosen, i))
            add(tuple(usable[:low]))
            add(tuple(usable[:high]))
    elif decision.kind is Kind.ORDER:
        add(tuple(reversed(blueprint)))
        for k in range(len(blueprint) - 1):
            swapped = list(blueprint)
            swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
            add(tuple(swapped))
    else:
        value = int(blueprint[0])
        for n in (decision.min, decision.max, value - 1, value + 1, (decision.min + decision.max) // 2):
            if decision.min <= n <= decision.max:
                add((str(n),))
    return out


# -- rollouts -----------------------------------------------------------------------------


def _players(game: Searchable, seats: list[str], seed: int, consent: frozenset[str]) -> dict[str, Bot]:
    return {seat: game.blueprint(seed * 16 + n, consent) for n, seat in enumerate(seats)}


def rollout(
    rules: Ruleset[Any],
    game: Searchable,
    state: Any,
    seat: str,
    choice: Choice,
    players: dict[str, Bot],
    horizon: int | None = None,
) -> tuple[float, float]:
    """Answer the pending decision with ``choice`` in ``state`` (a world, changed in place)
    and let ``players`` play on to the end: (won, progress) for ``seat``. With a
    ``horizon`` (and a game that can value a position), the rollout stops once the game's
    round has moved on that far, and both figures are the position's value.

    The rollout's runtime has no sink (:class:`~domain.kernel.runtime.Runtime`): its events
    are neither hashed nor kept, and ``state`` is marked as a rollout's, which no game, fold
    or chaining runtime takes afterwards. One runtime answers every decision of the rollout."""
    decision = state.pending
    cut = game.value is not None and horizon is not None
    stop = game.clock(state) + (horizon or 0)
    rt = Runtime(rules, state, None)
    rt.answer(decision.seat, decision.id, choice)
    answered = 0
    view = game.rollout_view or game.view  # the world is the search's own sample
    while state.pending is not None and answered < ROLLOUT_LIMIT:
        if cut and game.clock(state) >= stop:
            break
        decision = state.pending
        picked = players[decision.seat].choose(decision, partial(view, state, decision.seat))
        rt.answer(decision.seat, decision.id, picked)
        answered += 1
    if state.over is None:
        if cut and game.value is not None:
            estimate = game.value(state, seat)
            return estimate, estimate
        return 0.0, game.progress(state, seat)
    return game.result(state, seat)


@dataclass
class _Tally:
    choice: Choice
    wins: list[float]
    scores: list[float]
    live: bool = True


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _behind(best: _Tally, other: _Tally) -> bool:
    """Is ``other`` clearly worse than ``best`` on the worlds both have played?"""
    n = min(len(best.scores), len(other.scores))
    if n < FIRST_LOOK:
        return False
    diffs = [a - b for a, b in zip(best.scores[:n], other.scores[:n], strict=True)]
    mean = _mean(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0.0:
        return mean > 0
    return mean > DROP_Z * math.sqrt(var / n)


def _edge(tally: _Tally, blueprint: _Tally | None) -> float:
    """``tally``'s paired advantage over the blueprint's answer, in standard errors."""
    if blueprint is None or tally is blueprint:
        return 0.0
    n = min(len(tally.scores), len(blueprint.scores))
    if n < 2:
        return 0.0
    diffs = [a - b for a, b in zip(tally.scores[:n], blueprint.scores[:n], strict=True)]
    mean = _mean(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0.0:
        return math.copysign(SURE, mean) if mean else 0.0
    return mean / math.sqrt(var / n)


SURE = 10.0
"""The edge of an answer that did better than the blueprint's in every world both played."""


def _score(win: float, progress: float) -> float:
    return (win + PROGRESS_WEIGHT * progress) / (1 + PROGRESS_WEIGHT)


def evaluate(
    rules: Ruleset[Any],
    state: State,
    seat: str,
    budget: Budget,
    seed: int,
    *,
    referee: bool = False,
    consent: frozenset[str] = frozenset(),
    blueprint: Choice | None = None,
    among: list[Choice] | None = None,
    horizon: int | None = None,
) -> list[OptionValue]:
    """The value of each candidate answer to the pending decision (which ``seat`` must be
    deciding), estimated from what ``seat`` may see at ``state`` (hidden cards sampled), or
    from the true state when ``referee``. Appends nothing; the same seed gives the same
    answer. Best first.

    ``consent``: the other seats whose cards the seat may choose (and which the rollouts'
    blueprint may use for it); ``blueprint``: the cheap player's answer, if already known;
    ``among``: the answers to compare, when not every candidate; ``horizon``: rounds each
    rollout plays before it is cut and the position valued (None: to the end; a cut
    rollout's "win" is the position's value, an estimate).
    """
    decision = state.pending
    if decision is None:
        raise ValueError("no decision is pending")
    if decision.seat != seat:
        raise ValueError(f"the pending decision is {decision.seat}'s, not {seat}'s")
    game = searchable(rules.name)
    seats = rules.seats(state)
    allowed_seats = consent | {seat}
    if blueprint is None:
        mine = game.blueprint(seed, allowed_seats)
        blueprint = mine.choose(decision, partial(game.view, state, seat))
    if among is None:
        among = candidates(decision, blueprint, _consented(game, state, decision, allowed_seats))
    tallies = [_Tally(c, [], []) for c in among]
    per_candidate = (
        budget.rollouts
        if budget.rollouts is not None
        else (None if budget.cpu_seconds is not None else DEFAULT_ROLLOUTS)
    )
    deadline = time.thread_time() + budget.cpu_seconds if budget.cpu_seconds is not None else math.inf
    rng = random.Random(seed)
    k = 0
    while len(tallies) > 1 or k == 0:
        live = [t for t in tallies if t.live]
        if per_candidate is not None and k >= per_candidate:
            break
        if time.thread_time() >= deadline and k > 0:
            break
        base = referee_world(rules, state, rng) if referee else world(rules, game, state, seat, rng)
        players_seed = rng.getrandbits(31)
        for tally in live:
            players = _players(game, seats, players_seed, allowed_seats)
            won, progress = rollout(rules, game, copy_state(rules, base), seat, tally.choice, players, horizon)
            tally.wins.append(won)
            tally.scores.append(_score(won, progress))
        k += 1
        if k % BATCH == 0 and len(live) > 1:
            best = max(live, key=lambda t: _mean(t.scores))
            for tally in live:
                if tally is not best and _behind(best, tally):
                    tally.live = False
            if sum(t.live for t in tallies) == 1:
                break
        if len(tallies) == 1:
            break
    out = []
    planned = next((t for t in tallies if t.choice == tuple(blueprint)), None)
    for tally in tallies:
        n = len(tally.wins)
        low, high = wilson(sum(tally.wins), n)
        edge = _edge(tally, planned)
        out.append(OptionValue(tally.choice, _mean(tally.wins), low, high, n, _mean(tally.scores), edge))
    out.sort(key=lambda v: (-v.score, -v.rollouts))
    return out


class SearchBot:
    """Decides by :func:`evaluate`: the answer with the best score, from what its seat may see.

    ``state`` gives the game's current state (the bot reads of it only what :mod:`bots.worlds`
    lets it: what its seat may see). Only decisions that matter are searched: the game says
    which answers are worth comparing (:attr:`bots.worlds.Searchable.narrow`: in an LCG action
    window, the blueprint's play against passing); a decision with one such answer is answered
    by the blueprint at once. ``consent``: the other seats whose cards it may choose.

    ``budget.cpu_seconds`` is what it may spend *per decision on average*: every decision
    puts that much CPU time in the bank, and a searched decision may spend what the bank holds,
    up to ``SPEND_AT_MOST`` times the average, so the whole game never costs more than the
    budget times its decisions. ``budget.rollouts`` caps the rollouts of each answer searched.
    """

    SPEND_AT_MOST = 8.0
    CANDIDATES = 8
    """At most this many answers searched to a decision choosing several options, a number or
    an order (the blueprint's and its nearest variants): more would share the rollouts too
    thinly. A decision choosing one option compares them all (up to ``MAX_CANDIDATES``)."""
    DEVIATE_Z = 1.0
    """It leaves the blueprint's answer only for one whose edge over it (in standard errors
    of the paired difference) is at least this, or sqrt(2 ln m) when it is the best of m
    alternatives (SPARTA's rule: deviate when confident)."""

    def __init__(
        self,
        rules: Ruleset[Any],
        state: Callable[[], State],
        budget: Budget,
        seed: int,
        consent: frozenset[str] = frozenset(),
        horizon: int | None = -1,
    ) -> None:
        self.rules = rules
        self.state = state
        self.budget = budget
        self.seed = seed
        self.consent = consent
        self.game = searchable(rules.name)
        self.horizon = self.game.horizon if horizon == -1 else horizon
        """Rounds its rollouts play before the position is valued (the game's own by default)."""
        self.searched = 0
        """Decisions this bot searched (the others were answered by the blueprint)."""
        self.decisions = 0
        self.spent = 0.0
        """CPU seconds spent searching."""
        self.bank = 0.0
        self.rollouts = 0
        """Rollouts played by its searches."""
        self.searching = 0.0
        """CPU seconds spent in its searches (:func:`evaluate`)."""
        self.deviated = 0
        """Searched decisions answered otherwise than the blueprint would have."""
        self._blueprints: dict[str, Bot] = {}

    def choose(self, decision: Decision, view: View) -> Choice:
        started = time.thread_time()
        self.decisions += 1
        average = self.budget.cpu_seconds
        if average is not None:
            self.bank = min(self.bank + average, self.SPEND_AT_MOST * average)
        state = self.state()
        seat = decision.seat
        allowed = self.consent | {seat}
        if seat not in self._blueprints:
            self._blueprints[seat] = self.game.blueprint(self.seed, allowed)
        blueprint = self._blueprints[seat].choose(decision, view)
        options = (
            self.game.narrow(decision, blueprint)
            or self.game.shortlist(self._blueprints[seat], decision)
            or candidates(
                decision,
                blueprint,
                _consented(self.game, state, decision, allowed),
                MAX_CANDIDATES if decision.kind is Kind.ONE else self.CANDIDATES,
            )
        )
        if len(options) <= 1 or (average is not None and self.bank <= 0):
            self._spend(started)
            return blueprint
        self.searched += 1
        budget = Budget(self.budget.rollouts, self.bank if average is not None else None)
        searching = time.thread_time()
        values = evaluate(
            self.rules,
            state,
            seat,
            budget,
            self.seed * 7919 + decision.id,
            consent=self.consent,
            blueprint=blueprint,
            among=options,
            horizon=self.horizon,
        )
        self.searching += time.thread_time() - searching
        self.rollouts += sum(v.rollouts for v in values)
        self._spend(started)
        best = values[0]
        if best.choice != tuple(blueprint) and not self._confident(best, len(values) - 1):
            return blueprint
        self.deviated += best.choice != tuple(blueprint)
        return best.choice

    def _confident(self, best: OptionValue, alternatives: int) -> bool:
        """Is ``best`` surely better than the blueprint's answer? Its edge must reach
        ``DEVIATE_Z``, and more when it is the best of many alternatives (the largest of m
        noisy edges is about sqrt(2 ln m) by chance alone), on at least ``FIRST_LOOK`` worlds."""
        if best.rollouts < FIRST_LOOK:
            return False
        chance = math.sqrt(2 * math.log(alternatives)) if alternatives > 1 else 0.0
        return best.edge >= max(self.DEVIATE_Z, chance)

    def _spend(self, started: float) -> None:
        used = time.thread_time() - started
        self.spent += used
        if self.budget.cpu_seconds is not None:
            self.bank -= used
