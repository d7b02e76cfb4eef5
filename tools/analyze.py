"""``westmarch analyze``: each answer to a decision of a stored game, valued by search, and
the game's decisive moments (``--swings``). Reads the store, never writes to it."""

from __future__ import annotations

import argparse
import json
import threading
import time
from typing import Any
from uuid import UUID

from bots.analysis import REFEREE, Analysis, Swings, analyze, knowledge_of, swings
from bots.search import Budget
from domain.kernel.events import DecisionRequested
from domain.kernel.ruleset import Ruleset
from projections.i18n import N_, _, nsay, say
from projections.prompts import translate
from projections.story import join
from service.app import Westmarch
from tools.progress import Progress

DEFAULT_SECONDS = 2.0
"""CPU seconds one decision is searched by default."""
DEFAULT_TOTAL = 120.0
"""CPU seconds ``--swings`` spends on a whole game by default."""
BAR = 24


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game id or prefix")
    p.add_argument("--at", type=int, metavar="N", help="the decision pending at version N (westmarch log numbers them)")
    p.add_argument(
        "--as",
        dest="seat",
        metavar="SEAT",
        help="value the answers from what this seat knew then: the seat that decides (the default)",
    )
    p.add_argument(
        "--referee", action="store_true", help="value the answers with the true hidden cards (the referee's knowledge)"
    )
    p.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help=say("CPU seconds of search per decision (default: %(seconds)s)", seconds=f"{DEFAULT_SECONDS:g}"),
    )
    p.add_argument(
        "--rollouts",
        type=int,
        metavar="N",
        help="rollouts of each answer instead of seconds: the same seed and rollouts give the same figures",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the search (default: %(default)s)")
    p.add_argument(
        "--swings",
        action="store_true",
        help="the game's decisive moments: the decisions whose answer lowered the estimate most against the best",
    )
    p.add_argument("--top", type=int, default=5, help="with --swings: how many to show (default: %(default)s)")
    p.add_argument(
        "--total",
        type=float,
        metavar="SECONDS",
        help=say(
            "with --swings: CPU seconds for the whole game (default: %(seconds)s); the decisions it does not reach"
            " are named",
            seconds=f"{DEFAULT_TOTAL:g}",
        ),
    )
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")


class ArgumentError(ValueError):
    """A refused combination of arguments; said in one line."""


def budget_of(args: argparse.Namespace) -> Budget:
    if args.rollouts is not None and args.rollouts < 1:
        raise ArgumentError(_("--rollouts must be at least 1"))
    if args.budget is not None and not args.budget > 0:
        raise ArgumentError(_("--budget must be a number of seconds above 0"))
    if args.rollouts is not None:
        return Budget(rollouts=args.rollouts, cpu_seconds=args.budget)
    return Budget(cpu_seconds=args.budget if args.budget is not None else DEFAULT_SECONDS)


def run(app: Westmarch, game_id: UUID, args: argparse.Namespace) -> int:
    if args.swings == (args.at is not None):
        raise ArgumentError(
            _("name the decision with --at N (the version at which it is pending), or ask for --swings; not both")
        )
    if args.referee and args.seat not in (None, REFEREE):
        raise ArgumentError(
            say("--as %(seat)s and --referee: the referee's knowledge is the true table; give one", seat=args.seat)
        )
    if args.top < 1:
        raise ArgumentError(_("--top must be at least 1"))
    if args.total is not None and not args.total > 0:
        raise ArgumentError(_("--total must be a number of seconds above 0"))
    budget = budget_of(args)
    rules = app.rules_of(game_id)
    if args.swings:
        if args.seat is not None and args.seat != REFEREE:
            raise ArgumentError(_("--swings values each decision from its own seat's knowledge (or --referee's)"))
        return _swings(app, game_id, rules, budget, args)
    return _one(app, game_id, rules, budget, args)


def _one(app: Westmarch, game_id: UUID, rules: Ruleset[Any], budget: Budget, args: argparse.Namespace) -> int:
    at: int = args.at
    state = app.state_at(game_id, at)  # BadVersion past the game's last version
    if state.pending is None:
        raise ArgumentError(_no_decision(app, game_id, rules, at))
    knowledge = knowledge_of(rules, state, REFEREE if args.referee else (args.seat or state.pending.seat))
    answer = app.history(game_id, gt=at, lte=at + 1)
    taken = tuple(answer[0].choice) if answer and hasattr(answer[0], "choice") else None
    label = say("valuing %(n)s options of version %(at)s", n=len(state.pending.options), at=at)
    with _Ticking(budget, label, enabled=None if not args.json else False):
        found = analyze(rules, state, knowledge=knowledge, budget=budget, seed=args.seed, taken=taken)
    if args.json:
        print(json.dumps(as_dict(found, game_id), indent=2, ensure_ascii=False))
    else:
        print(text(found, game_id, rules, _side_name(state)))
    return 0


def _no_decision(app: Westmarch, game_id: UUID, rules: Ruleset[Any], at: int) -> str:
    """Why version ``at`` has nothing to analyse, and the nearest versions that have."""
    from projections.story import story

    events = app.history(game_id)
    line = next((text for event, text in story(rules, events[:at]) if event.seq == at), "")
    asked = [e.seq for e in events if isinstance(e, DecisionRequested)]
    before = [v for v in asked if v < at][-1:]
    after = [v for v in asked if v > at][:1]
    near = join([*(say("%(v)s (before)", v=v) for v in before), *(say("%(v)s (after)", v=v) for v in after)]) or _(
        "none: the game asked no decision"
    )
    over = _(" (the game is over)") if at == len(events) and not after else ""
    return say(
        "no decision is pending at version %(at)s%(over)s; event %(at)s: %(line)s; "
        "the nearest decisions: versions %(near)s",
        at=at,
        over=over,
        line=line,
        near=near,
    )


def _side_name(state: Any) -> str:
    pending = state.pending
    side = getattr(getattr(state, "players", {}).get(pending.seat), "team", None)
    sides = {"free": N_("the Free Peoples"), "shadow": N_("the Shadow"), None: N_("the players")}
    return _(sides[side]) if side in sides else say("the %(side)s side", side=side)


def text(found: Analysis, game_id: UUID, rules: Ruleset[Any], side: str) -> str:
    d = found.decision
    whose = (
        _("valued with the true hidden cards (the referee's knowledge)")
        if found.knowledge == REFEREE
        else say("valued from what %(seat)s knew then (the cards hidden from %(seat)s sampled)", seat=found.knowledge)
    )
    lines = [
        say(
            "game %(game)s, version %(version)s: %(seat)s decides: %(prompt)s (%(rule)s)",
            game=game_id,
            version=found.version,
            seat=d.seat,
            prompt=translate(d.prompt),
            rule=d.rule,
        ),
        whose,
        say(
            "chance of winning for %(side)s, 95%% interval; %(rollouts)s rollouts, %(cpu)s s of CPU, seed %(seed)s",
            side=side,
            rollouts=found.rollouts,
            cpu=f"{found.cpu_seconds:.1f}",
            seed=found.seed,
        ),
    ]
    labels = [translate(o.label) for o in found.options]
    width = max(len(label) for label in labels)
    for n, (option, label) in enumerate(zip(found.options, labels, strict=True), start=1):
        mark = "  " + _("<- the answer given") if found.taken is not None and found.of(found.taken) is option else ""
        lines.append(
            f"  {n:2}. {label:<{width}}  {option.value:5.0%}  [{option.low:4.0%} - {option.high:4.0%}]  "
            f"{_bar(option.value)}  " + nsay("%(n)d rollout", "%(n)d rollouts", option.rollouts) + mark
        )
    if found.taken is not None and found.of(found.taken) is None:
        lines.append(
            "  "
            + say(
                "the answer given (%(answer)s) is not among the answers searched",
                answer=translate(_label(found, found.taken)),
            )
        )
    command = (
        f"westmarch analyze {str(game_id)[:8]} --at {found.version}"
        f"{' --referee' if found.knowledge == REFEREE else f' --as {found.knowledge}'} --seed {found.seed} "
        f"--rollouts {found.most}"
    )
    lines.append(say("the same figures again: %(command)s", command=command))
    return "\n".join(lines)


def _label(found: Analysis, choice: tuple[str, ...]) -> str:
    from bots.analysis import label

    return label(found.decision, choice)


def _bar(value: float) -> str:
    filled = round(value * BAR)
    return "#" * filled + "." * (BAR - filled)


def as_dict(found: Analysis, game_id: UUID) -> dict[str, Any]:
    d = found.decision
    return {
        "game": str(game_id),
        "version": found.version,
        "decision": {"seat": d.seat, "prompt": d.prompt, "rule": d.rule, "kind": d.kind.value},
        "knowledge": found.knowledge,
        "seed": found.seed,
        "rollouts": found.rollouts,
        "cpu_seconds": round(found.cpu_seconds, 3),
        "options": [
            {
                "choice": list(o.choice),
                "label": o.label,
                "value": o.value,
                "low": o.low,
                "high": o.high,
                "rollouts": o.rollouts,
            }
            for o in found.options
        ],
        "taken": list(found.taken) if found.taken is not None else None,
    }


def _swings(app: Westmarch, game_id: UUID, rules: Ruleset[Any], budget: Budget, args: argparse.Namespace) -> int:
    events = app.history(game_id)
    total = args.total if args.total is not None else (None if args.rollouts is not None else DEFAULT_TOTAL)
    bar: Progress | None = None
    enabled = None if not args.json else False

    def progress(done: int, work: int, note: str) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(work, _("looking for the decisive moments"), enabled=enabled)
        bar.total = work
        bar.advance(done - bar.done, note)

    try:
        report = swings(
            rules,
            events,
            referee=args.referee,
            per_decision=budget,
            total_seconds=total,
            seed=args.seed,
            top=args.top,
            progress=progress,
        )
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if args.json:
        print(json.dumps(swings_dict(report, game_id), indent=2, ensure_ascii=False))
    else:
        print(swings_text(report, game_id, args.referee))
    return 0


def swings_text(report: Swings, game_id: UUID, referee: bool) -> str:
    whose = _("with the true hidden cards") if referee else _("each from its deciding seat's knowledge then")
    lines = [
        say(
            "game %(game)s: the decisions whose answer lowered the chance of winning most (%(whose)s); "
            "%(cpu)s s of CPU",
            game=game_id,
            whose=whose,
            cpu=f"{report.cpu_seconds:.1f}",
        ),
    ]
    if not report.swings:
        lines.append("  " + _("no answer given was found worse than another (within what was searched)"))
    for n, swing in enumerate(report.swings, start=1):
        found = swing.analysis
        d = found.decision
        lines.append(
            f"  {n}. "
            + say(
                "version %(version)s: %(seat)s: %(prompt)s",
                version=found.version,
                seat=d.seat,
                prompt=translate(d.prompt),
            )
        )
        taken, best = swing.taken, swing.best
        lines.append(
            "       "
            + say(
                "given: %(label)s  %(value)s [%(low)s - %(high)s]",
                label=translate(taken.label),
                value=f"{taken.value:.0%}",
                low=f"{taken.low:.0%}",
                high=f"{taken.high:.0%}",
            )
        )
        lines.append(
            "       "
            + say(
                "best:  %(label)s  %(value)s [%(low)s - %(high)s]   (-%(loss)s)",
                label=translate(best.label),
                value=f"{best.value:.0%}",
                low=f"{best.low:.0%}",
                high=f"{best.high:.0%}",
                loss=f"{swing.loss:.0%}",
            )
        )
    lines.append(
        say(
            "decisions asked: %(asked)s; screened: %(screened)s; valued again: %(refined)s",
            asked=report.asked,
            screened=report.screened,
            refined=report.refined,
        )
        + "".join(
            say("; skipped %(n)s: %(reason)s", n=n, reason=_(reason)) for reason, n in report.skipped.most_common()
        )
    )
    if report.unreached:
        shown = ", ".join(str(v) for v in report.unreached[:12]) + (" ..." if len(report.unreached) > 12 else "")
        lines.append(
            say(
                "not reached within the total budget: %(n)s decisions (versions %(shown)s); "
                "a larger --total reaches them",
                n=len(report.unreached),
                shown=shown,
            )
        )
    return "\n".join(lines)


def swings_dict(report: Swings, game_id: UUID) -> dict[str, Any]:
    return {
        "game": str(game_id),
        "asked": report.asked,
        "screened": report.screened,
        "refined": report.refined,
        "skipped": dict(report.skipped),
        "unreached": report.unreached,
        "cpu_seconds": round(report.cpu_seconds, 3),
        "swings": [
            {
                **as_dict(s.analysis, game_id),
                "loss": s.loss,
                "given": {"choice": list(s.taken.choice), "label": s.taken.label, "value": s.taken.value},
                "best": {"choice": list(s.best.choice), "label": s.best.label, "value": s.best.value},
            }
            for s in report.swings
        ],
    }


class _Ticking:
    """A progress bar that follows the CPU time spent against a budget in seconds, drawn from
    a thread while the search runs in this one (quiet without a terminal)."""

    def __init__(self, budget: Budget, label: str, enabled: bool | None) -> None:
        self.seconds = budget.cpu_seconds
        self.bar = Progress(int(10 * self.seconds) if self.seconds else 0, label, enabled=enabled)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> _Ticking:
        if self.bar.enabled and self.seconds:
            self._started = time.process_time()
            self._thread.start()
        return self

    def _tick(self) -> None:
        while not self._done.wait(0.2):
            done = min(self.bar.total, int(10 * (time.process_time() - self._started)))
            if done > self.bar.done:
                self.bar.advance(done - self.bar.done)

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()
            self.bar.__exit__(None, None, None)
