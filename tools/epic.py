"""Epic Multiplayer on the command line: open an epic event, show its organizer's sheet, and
play epic events with bots (``westmarch new lcg --epic 4x4``, ``westmarch epic ID``,
``westmarch simulate lcg --epic 4x4``)."""

from __future__ import annotations

import json
import random
import tempfile
import time
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any, cast
from uuid import UUID

from bots import make_bot
from domain.lcg import epic as organizer
from domain.lcg.state import LcgState
from domain.verify import verify
from projections.i18n import N_, _, language, say
from projections.lcg import view as lcg_view
from projections.verdicts import REASONS
from service.app import Westmarch, store_env
from service.commands import GameService
from service.epic import EpicAccess, EpicReport, EpicService
from tools.progress import Progress


def parse_epic(text: str) -> list[int]:
    """``GROUPSxPLAYERS`` (``4x4``: four groups of four), or a list of group sizes (``4,3,3``)."""
    try:
        if "x" in text:
            groups, players = (int(n) for n in text.lower().split("x", 1))
            sizes = [players] * groups
        else:
            sizes = [int(n) for n in text.split(",")]
    except ValueError:
        raise ValueError(
            say("--epic %(text)s: give GROUPSxPLAYERS (4x4) or group sizes (4,3,3)", text=repr(text))
        ) from None
    if not sizes or any(not 1 <= n <= 4 for n in sizes):
        raise ValueError(say("--epic %(text)s: one or more groups of 1 to 4 players", text=repr(text)))
    return sizes


def access_text(access: EpicAccess) -> str:
    lines = [
        say("epic event %(epic)s", epic=access.epic_id),
        say(
            "global values: stage 1B %(progress)s progress, Dreadnaught %(damage)s hit points",
            progress=access.totals["progress"],
            damage=access.totals["damage"],
        ),
        say("organizer token: %(token)s", token=access.organizer),
    ]
    for i, group in enumerate(access.groups, start=1):
        lines.append(say("group %(n)s: game %(game)s", n=i, game=group.game_id))
        lines += [f"  {seat}: {token}" for seat, token in group.seats.items()]
        lines.append(f"  spectator: {group.spectator}")  # the viewer's name, as a token names it
    return "\n".join(lines)


def report_dict(report: EpicReport) -> dict[str, Any]:
    out = asdict(report)
    out["epic_id"] = str(report.epic_id)
    for g in out["groups"]:
        g["game_id"] = str(g["game_id"])
    return out


def report_text(report: EpicReport) -> str:
    lines = [
        say(
            "epic event %(epic)s (%(players)s players, organizer version %(version)s)",
            epic=report.epic_id,
            players=report.players,
            version=report.version,
        )
    ]
    for key, total in report.totals.items():
        reached = _(" (reached)") if key in report.reached else ""
        lines.append(
            "  "
            + say(
                "%(key)s: %(n)s of %(total)s%(reached)s",
                key=_value(key),
                n=report.counted[key],
                total=total,
                reached=reached,
            )
        )
    for i, g in enumerate(report.groups, start=1):
        shares = ", ".join(f"{_value(k)} {v}" for k, v in g.contributed.items())
        state = (
            _outcome(g.result) if g.result else say("round %(round)s, stage %(stage)s", round=g.round, stage=g.stage)
        )
        lines.append(
            "  "
            + say(
                "group %(n)s (%(players)s players, %(difficulty)s): %(shares)s; %(state)s",
                n=i,
                players=g.players,
                difficulty=g.difficulty,
                shares=shares,
                state=state,
            )
        )
    return "\n".join(lines)


VALUES = {"progress": N_("progress"), "damage": N_("damage")}
"""The epic event's global values by their keys (the organizer's totals)."""


def _value(key: str) -> str:
    """A global value's name as the sheet says it: its key in English, its words in another language."""
    return _(VALUES[key]) if key in VALUES and language() != "en" else key


def _outcome(result: str) -> str:
    """A group's result (``won``, ``lost``) in the language spoken."""
    from tools.cli import outcome_word

    return outcome_word(result, "result")


def new_epic(app: Westmarch, sizes: list[int], difficulty: str, seed: int) -> EpicAccess:
    return EpicService(GameService(app)).create(sizes, difficulty, seed)


def show_epic(app: Westmarch, epic_id: UUID) -> EpicReport:
    service = EpicService(GameService(app))
    service.follow(epic_id)
    return service.report(epic_id)


def play_epic(service: EpicService, sizes: list[int], difficulty: str, seed: int, bot: str, limit: int) -> EpicReport:
    """One epic event played by bots: a random group moves at each step, as groups do."""
    access = service.create(sizes, difficulty, seed)
    games = service.games
    rng = random.Random(seed)
    bots = {(a.game_id, seat): make_bot(bot, seed + i) for i, a in enumerate(access.groups) for seat in a.seats}
    for n in range(limit):
        live = [a for a in access.groups if games.state(a.game_id).over is None]
        if not live:
            break
        group = rng.choice(live)
        state = games.state(group.game_id)
        decision = state.pending
        choice = bots[(group.game_id, decision.seat)].choose(decision, partial(lcg_view, state, decision.seat))
        games.submit(group.game_id, group.seats[decision.seat], 0, decision.id, choice, f"bot-{n}")
    service.follow(access.epic_id)
    return service.report(access.epic_id)


def audit_epic(app: Westmarch, report: EpicReport) -> list[str]:
    """What is wrong with a finished epic event, as sentences (none: it holds): every group's
    game verifies from its own log (hash chain, then its decisions re-executed from the seed),
    and the organizer's count of each group equals what the group's log placed."""
    problems = []
    for i, g in enumerate(report.groups, start=1):
        events = app.history(g.game_id)
        verdict = verify(app.rules_of(g.game_id), events)
        if not verdict.ok:
            problems.append(
                say(
                    "group %(n)s (%(game)s) does not verify: %(reason)s",
                    n=i,
                    game=g.game_id,
                    reason=_(verdict.reason) if verdict.reason in REASONS else verdict.reason,
                )
            )
        own = organizer.contributions(cast(LcgState, app.state_at(g.game_id)), events)
        if own != g.contributed:
            problems.append(
                say(
                    "group %(n)s: the organizer counted %(counted)s, its log placed %(own)s",
                    n=i,
                    counted=g.contributed,
                    own=own,
                )
            )
    if report.counted != {k: sum(g.contributed[k] for g in report.groups) for k in report.totals}:
        problems.append(say("the totals %(counted)s are not the sum of the groups' counts", counted=report.counted))
    return problems


def simulate_epics(
    sizes: list[int],
    difficulty: str,
    events: int,
    seed: int,
    bot: str,
    db: str | None,
    as_json: bool,
    postgres: str | None = None,
) -> tuple[str, bool]:
    """Play ``events`` epic events with bots, audit each (:func:`audit_epic`), and report each
    one's totals, groups' results and audit; the flag says whether every audit held."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        env = store_env(postgres=postgres) if postgres else store_env(db=db or str(Path(folder) / "epic.db"))
        app = Westmarch(env)
        service = EpicService(GameService(app))
        audited = []
        with Progress(events, _("epic events")) as progress:
            for i in range(events):
                report = play_epic(service, sizes, difficulty, seed + i, bot, 40_000)
                audited.append((report, audit_epic(app, report)))
                progress.advance()
    seconds = time.perf_counter() - started
    sound = all(not problems for _, problems in audited)
    if as_json:
        rows = [{**report_dict(r), "audit": problems} for r, problems in audited]
        return json.dumps({"events": rows, "seconds": round(seconds, 2)}, indent=2), sound
    lines = []
    for r, problems in audited:
        lines.append(report_text(r))
        lines += ["  " + say("audit: %(problem)s", problem=p) for p in problems] or [
            "  " + _("audit: every group verifies; its count equals its log")
        ]
    return "\n".join([*lines, say("time: %(seconds)s s", seconds=f"{seconds:.1f}")]), sound
