"""Analysing a decision for a viewer: who may ask what, and the work itself (``AnalyzeDecision``).

A seat may analyse its own decisions, from its own knowledge then (the cards hidden from it
are sampled); the referee any decision, from the deciding seat's knowledge or with the true
hidden cards; once the game is over, everyone any (everything is visible then). The
spectator has no decision of its own. The request is checked and the state read here, on
the server's thread pool; the search (:func:`run`) runs where the server sends it, a
process of its own, from a :class:`Job` that holds everything it needs.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from uuid import UUID

from bots.analysis import REFEREE, Analysis, analyze
from bots.search import Budget
from domain.kernel.decisions import Choice, RuleError
from domain.kernel.events import DecisionAnswered
from domain.rulesets import ruleset
from projections.feed import SPECTATOR
from projections.i18n import gettext, say
from service.commands import GameService
from service.errors import BadRequest, OutOfRange, PermissionDenied

DEFAULT_SECONDS = 2.0
"""CPU seconds of search when the request names no budget."""


class NoDecisionAt(RuleError):
    """The version asked for has no pending decision (FAILED_PRECONDITION)."""


@dataclass(frozen=True)
class Job:
    """One analysis, ready to run anywhere: the state as encoded bytes of its ruleset."""

    game: str
    state: bytes
    knowledge: str
    budget: Budget
    seed: int
    taken: Choice | None


@dataclass(frozen=True)
class Done:
    analysis: Analysis
    cpu_seconds: float
    """CPU the work took where it ran (what the viewer is charged)."""


def budget_of(seconds: float, rollouts: int, cap_seconds: float, cap_rollouts: int) -> Budget:
    """The search budget a request asks for, within the server's caps; BadRequest beyond them.
    Rollouts are bounded by the time cap too, so no request searches longer than it."""
    if math.isnan(seconds) or seconds < 0:
        raise BadRequest(gettext("budget_seconds cannot be negative (0: the default of 2 s)"))
    if seconds > cap_seconds:
        raise BadRequest(
            say(
                "budget_seconds %(seconds)s is above this server's cap of %(cap_seconds)s s",
                seconds=format(seconds, "g"),
                cap_seconds=format(cap_seconds, "g"),
            )
        )
    if rollouts < 0:
        raise BadRequest(gettext("rollouts cannot be negative (0: search by seconds)"))
    if rollouts > cap_rollouts:
        raise BadRequest(
            say(
                "rollouts %(rollouts)s is above this server's cap of %(cap_rollouts)s",
                rollouts=rollouts,
                cap_rollouts=cap_rollouts,
            )
        )
    if rollouts:
        return Budget(rollouts=rollouts, cpu_seconds=seconds or cap_seconds)
    return Budget(cpu_seconds=seconds or min(DEFAULT_SECONDS, cap_seconds))


def prepare(
    service: GameService, game_id: UUID, viewer: str, version: int, true_cards: bool, budget: Budget, seed: int
) -> Job:
    """The job ``viewer`` (a token already checked) asks for, or the error that refuses it."""
    if version < 0:
        raise BadRequest(gettext("version cannot be negative (0 means the decision pending now)"))
    latest = service.sound(game_id)
    version = version or latest
    if version > latest:
        raise OutOfRange(
            say(
                "version %(version)s is out of range: the game has versions 1 to %(latest)s",
                version=version,
                latest=latest,
            )
        )
    app = service.app
    over = service.state(game_id).over is not None
    state = app.state_at(game_id, version)
    decision = state.pending
    if decision is None:
        raise NoDecisionAt(say("no decision is pending at version %(version)s", version=version))
    if viewer == REFEREE or over:
        knowledge = REFEREE if true_cards else decision.seat
    elif viewer == SPECTATOR:
        raise PermissionDenied(
            gettext(
                "the spectator has no decision to analyse; a seat analyses its own, the referee any (and everyone "
                "once the game is over)"
            )
        )
    elif decision.seat != viewer:
        raise PermissionDenied(
            say(
                "the decision at version %(version)s is %(seat)s's: a seat may analyse its own decisions only (the "
                "referee any, and everyone once the game is over)",
                version=version,
                seat=decision.seat,
            )
        )
    elif true_cards:
        raise PermissionDenied(
            gettext(
                "a seat's analysis uses what that seat knows: the true hidden cards are the referee's (and everyone's "
                "once the game is over)"
            )
        )
    else:
        knowledge = viewer
    answered = app.history(game_id, gt=version, lte=version + 1) if version < latest else []
    taken = answered[0].choice if answered and isinstance(answered[0], DecisionAnswered) else None
    rules = app.rules_of(game_id)
    return Job(rules.name, rules.codec.encode(state), knowledge, budget, seed or 1, taken)


def run(job: Job) -> Done:
    """The search a job asks for (in whichever process runs it)."""
    rules = ruleset(job.game)
    started = time.process_time()
    found = analyze(
        rules,
        rules.codec.decode_state(job.state),
        knowledge=job.knowledge,
        budget=job.budget,
        seed=job.seed,
        taken=job.taken,
    )
    return Done(found, time.process_time() - started)
