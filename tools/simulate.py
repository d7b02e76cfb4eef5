"""Play many games with bots, in memory, and report how they went."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from uuid import uuid4

from bots import Bot, make_bot
from domain.game import Game
from domain.kernel.events import Event
from domain.rulesets import ruleset
from projections.i18n import N_, _, say
from tools.deck_summary import DeckTally, tally
from tools.games import GameKind


@dataclass
class Report:
    games: int = 0
    results: Counter[tuple[str, str]] = field(default_factory=Counter)
    rounds: list[int] = field(default_factory=list)
    events: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    seconds: float = 0.0
    decks: dict[str, DeckTally] = field(default_factory=dict)
    """LCG: each seat's deck, how its games went and where they were lost."""

    def as_dict(self) -> dict[str, Any]:
        by_result: dict[str, dict[str, int]] = {}
        for (result, reason), n in sorted(self.results.items()):
            by_result.setdefault(result, {})[reason] = n
        return {
            "games": self.games,
            "results": {r: {"total": sum(v.values()), "by_reason": v} for r, v in by_result.items()},
            "rounds": _stats(self.rounds),
            "events_per_game": _stats(self.events),
            "decisions_per_game": _stats(self.decisions),
            "seconds": round(self.seconds, 3),
            "events_per_second": round(sum(self.events) / self.seconds) if self.seconds else 0,
            **({"decks": [deck.as_dict() for deck in self.decks.values()]} if self.decks else {}),
        }

    def text(self) -> str:
        """The report as ``simulate`` prints it, in the language spoken (``as_dict`` is the
        same in every language: it is read by programs)."""
        from tools.cli import outcome_word

        d = self.as_dict()
        lines = [say("games: %(n)s", n=self.games)]
        for result, info in d["results"].items():
            reasons = ", ".join(f"{outcome_word(k, 'reason')} {v}" for k, v in info["by_reason"].items())
            lines.append(
                say(
                    "%(result)s: %(total)s  (%(reasons)s)",
                    result=f"{outcome_word(result, 'result'):>5}",
                    total=f"{info['total']:5}",
                    reasons=reasons,
                )
            )
        for key, label in STATS.items():
            s = d[key]
            lines.append(
                say(
                    "%(what)s: mean %(mean)s, min %(min)s, max %(max)s",
                    what=_(label),
                    mean=s["mean"],
                    min=s["min"],
                    max=s["max"],
                )
            )
        lines.append(
            say("time: %(seconds)s s, %(rate)s events/s", seconds=d["seconds"], rate=f"{d['events_per_second']:,}")
        )
        lines.extend(deck.text() for deck in self.decks.values())
        return "\n".join(lines)


STATS = {
    "rounds": N_("rounds"),
    "events_per_game": N_("events per game"),
    "decisions_per_game": N_("decisions per game"),
}
"""The counts a report gives the mean, least and most of, by their key in ``as_dict``."""


def _stats(values: list[int]) -> dict[str, float]:
    if not values:
        return {"mean": 0, "min": 0, "max": 0}
    return {"mean": round(statistics.fmean(values), 1), "min": min(values), "max": max(values)}


def play_out(game: Game, bots: dict[str, Bot], kind: GameKind, limit: int = 100_000) -> int:
    """Let bots answer every decision until the game ends; returns the number answered."""
    answered = 0
    state = game.state
    while state.pending is not None:
        decision = state.pending
        seat = decision.seat
        choice = bots[seat].choose(decision, partial(kind.view, state, seat))
        game.answer(decision.seat, decision.id, choice)
        answered += 1
        if answered >= limit:
            raise RuntimeError(f"game {game.id} did not end after {limit} decisions")
    return answered


def _state_of(game: Game) -> Callable[[], Any]:
    return lambda: game.state


def simulate(
    kind: GameKind,
    created: list[Event],
    bot: str,
    seed: int,
    on_game: Any = None,
    report: Report | None = None,
    budget: Any = None,
) -> Report:
    """Play each game to its end; ``report`` (a fresh one if None) counts each finished game
    as it ends, so a caller stopped part way still holds the games finished. Every seat is
    played by a bot of kind ``bot`` with the other seats' consent to use their cards;
    ``budget``: the search bot's (:class:`bots.search.Budget`; default 2 s of CPU a decision)."""
    rules = ruleset(kind.name)
    report = Report() if report is None else report
    started = time.perf_counter()
    for i, first in enumerate(created):
        game = Game.start(uuid4(), rules, first)
        seats = rules.seats(game.state)
        bots = {
            s: make_bot(
                bot,
                seed * 1000 + i * 10 + n,
                kind.name,
                consent=frozenset(seats) - {s},
                state=_state_of(game),
                budget=budget,
            )
            for n, s in enumerate(seats)
        }
        decisions = play_out(game, bots, kind)
        over = game.state.over
        report.games += 1
        report.results[(over.result, over.reason) if over else ("unfinished", "")] += 1
        report.rounds.append(kind.rounds(game.state))
        report.events.append(game.version)
        report.decisions.append(decisions)
        if kind.name == "lcg":
            tally(report.decks, game)
        if on_game is not None:
            on_game(game)
        report.seconds = time.perf_counter() - started
    return report
