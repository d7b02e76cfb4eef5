"""The Free Peoples' win rate against the Shadow bots, per scenario and difficulty.

``westmarch simulate wotr --bots shadow --scenario all --difficulty both`` plays the given
number of games of each scenario at each difficulty, the Free Peoples played by a client
bot (random or greedy), and prints one row per scenario and difficulty.
"""

from __future__ import annotations

import argparse
import copy
import json
from typing import Any

from projections.i18n import _, say
from tools.games import GameKind
from tools.simulate import Report, simulate

DIFFICULTIES = ("standard", "challenging")


class TableError(ValueError):
    """The table cannot be made as asked; the message says why."""


def win_rate(args: argparse.Namespace, report: Report) -> dict[str, Any]:
    """One row: the Free Peoples' wins in this scenario and difficulty."""
    wins = sum(n for (result, _), n in report.results.items() if result == "free")
    return {
        "scenario": args.scenario,
        "difficulty": args.difficulty or "standard",
        "bots": [seat.strip() for seat in str(args.bots).split(",") if seat.strip()],
        "games": report.games,
        "free_wins": wins,
        "free_win_rate": wins / report.games if report.games else 0.0,
    }


def table(args: argparse.Namespace, kind: GameKind, scenarios: list[str]) -> list[dict[str, Any]]:
    """Simulate each scenario (``all``: every one) at each difficulty (``both``)."""
    if not str(args.bots or "").strip():
        raise TableError(
            _("--scenario all and --difficulty both are for games against the Shadow bots: add --bots shadow")
        )
    if args.scenario == "all" and str(args.bots).strip() != "shadow":
        raise TableError(_("with --scenario all, give --bots shadow (each scenario's Shadow seats)"))
    rows = []
    for scenario in scenarios if args.scenario == "all" else [args.scenario]:
        for difficulty in DIFFICULTIES if args.difficulty == "both" else [args.difficulty or "standard"]:
            one = copy.copy(args)
            one.scenario, one.difficulty = scenario, difficulty
            created = [kind.created(one, args.seed + i) for i in range(args.games)]
            budget = None
            if args.bot == "search":
                from bots.search import Budget

                budget = Budget(cpu_seconds=args.budget)
            rows.append(win_rate(one, simulate(kind, created, args.bot, args.seed, budget=budget)))
    return rows


def show(rows: list[dict[str, Any]], as_json: bool, bot: str) -> str:
    if as_json:
        return json.dumps({"against_the_shadow": rows}, indent=2)
    lines = [say("Against the Shadow: the Free Peoples played by the %(bot)s bot, against the Shadow bots", bot=bot)]
    heads = (_("scenario"), _("difficulty"), _("games"), _("Free Peoples won"), _("win rate"))
    lines.append(f"{heads[0]:18} {heads[1]:12} {heads[2]:>6} {heads[3]:>17} {heads[4]:>9}")
    for row in rows:
        lines.append(
            f"{row['scenario']:18} {row['difficulty']:12} {row['games']:6} {row['free_wins']:17} "
            f"{row['free_win_rate']:9.1%}"
        )
    return "\n".join(lines)
