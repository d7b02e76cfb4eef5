"""The compiled core and the pure-Python build play the same games, byte for byte.

``pip install -e .`` compiles the modules domain/build.py lists with mypyc when a C compiler
is present. Here the games of every scenario are played with random bots from fixed seeds in
this process (the compiled build, when it is built) and in a child process that runs pure
Python (``WESTMARCH_PURE=1``); their event streams, hashes, record lines and final states
must be the same bytes. So must the LCG greedy player's games of every scenario and a
search bot's seeded searches (a rollout-count budget, never a CPU one): the greedy player
and the view it reads are compiled too, as the search's blueprint. Another test makes sure
the compiled build is really the one imported, so that a silent fallback to pure Python is
caught; and the guard that keeps an edited source from hiding behind its stale extension
module is tried on a copy of the tree.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from bots import make_bot, random_choice
from bots.search import Budget, SearchBot, evaluate
from bots.worlds import searchable
from domain import build
from domain.game import Game
from domain.kernel.events import Event
from domain.kernel.ruleset import Ruleset
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import SCENARIOS as LCG_SCENARIOS
from domain.record import header_line
from domain.wotr.options import scenario_keys, wotr_options
from domain.wotr.ruleset import WOTR

ROOT = Path(__file__).resolve().parent.parent
GAME_ID = UUID(int=27)
AT = datetime(2026, 1, 1, tzinfo=UTC)
SEEDS = (1, 2)


def _played(rules: Ruleset[Any], created: Event, seed: int) -> list[bytes]:
    """The record of one random-bot game: its header, each event as stored, the final state."""
    game = Game.start(GAME_ID, rules, created)
    rng = random.Random(seed)
    while game.state.pending is not None:
        decision = game.state.pending
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    events = list(game.pending_events)
    lines = [header_line(GAME_ID, rules, events[0], events[-1], "westmarch", AT)]
    lines += [rules.codec.encode_stored(AT, event) + b"\n" for event in events]
    lines.append(rules.codec.encode(game.state) + b"\n")
    return lines


def transcript() -> bytes:
    """Seeded random-bot games of every scenario of both games, as record lines."""
    out: list[bytes] = []
    for scenario in sorted(LCG_SCENARIOS):
        for seed in SEEDS:
            created = LCG.created(lcg_options(scenario, 2), seed)
            out += [f"lcg {scenario} {seed}\n".encode(), *_played(LCG, created, seed)]
    for scenario in sorted(scenario_keys()):
        for seed in SEEDS:
            out += [
                f"wotr {scenario} {seed}\n".encode(),
                *_played(WOTR, WOTR.created(wotr_options(scenario), seed), seed),
            ]
    return b"".join(out)


def _greedy_game(scenario: str, seed: int) -> list[bytes]:
    """The record of a two-player game of ``scenario`` played by the greedy player in both
    seats, each consenting to the other (as ``bench-bots`` seats them)."""
    game = Game.start(GAME_ID, LCG, LCG.created(lcg_options(scenario, 2), seed))
    view = searchable(LCG.name).view
    seats = frozenset(LCG.seats(game.state))
    bots = {s: make_bot("greedy", seed, LCG.name, consent=seats - {s}) for s in seats}
    while (decision := game.state.pending) is not None:
        choice = bots[decision.seat].choose(decision, partial(view, game.state, decision.seat))
        game.answer(decision.seat, decision.id, choice)
    events = list(game.pending_events)
    return [LCG.codec.encode_stored(AT, event) + b"\n" for event in events] + [LCG.codec.encode(game.state) + b"\n"]


SEARCH_DECISIONS = 60
"""Decisions of the searched game: enough for a dozen searches, each a few dozen rollouts."""


def _searches(seed: int) -> list[bytes]:
    """A two-player Passage through Mirkwood game's first decisions answered by the search bot
    with a budget of rollouts (each a greedy rollout cut at the search's horizon): each answer
    with the bot's counts, and every candidate's estimates where it searched."""
    game = Game.start(GAME_ID, LCG, LCG.created(lcg_options("passage-through-mirkwood", 2), seed))
    view = searchable(LCG.name).view
    seats = frozenset(LCG.seats(game.state))
    bots = {s: SearchBot(LCG, lambda: game.state, Budget(rollouts=3), seed, seats - {s}) for s in seats}
    lines: list[bytes] = []
    for _ in range(SEARCH_DECISIONS):
        decision = game.state.pending
        if decision is None:
            break
        bot = bots[decision.seat]
        searched = bot.searched
        choice = bot.choose(decision, partial(view, game.state, decision.seat))
        lines.append(f"{decision.id} {decision.rule} {choice} {bot.searched} {bot.rollouts} {bot.deviated}\n".encode())
        if bot.searched > searched:
            values = evaluate(LCG, game.state, decision.seat, Budget(rollouts=2), seed, horizon=bot.horizon)
            lines += [f"  {v!r}\n".encode() for v in values]
        game.answer(decision.seat, decision.id, choice)
    return lines


def bot_transcript() -> bytes:
    """The greedy player's games of every LCG scenario and a search bot's seeded searches."""
    out: list[bytes] = []
    for scenario in sorted(LCG_SCENARIOS):
        out += [f"greedy {scenario}\n".encode(), *_greedy_game(scenario, 1)]
    out += [b"search\n", *_searches(4)]
    return b"".join(out)


def _pure_env() -> dict[str, str]:
    return {**os.environ, build.PURE_ENV: "1", "PYTHONPATH": str(ROOT)}


def _compiler_present() -> bool:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(str(cc).split()[0]) is not None


def _pure(function: str) -> bytes:
    """What ``tests.test_compiled.<function>()`` writes when run in a pure-Python child."""
    code = f"import sys; from tests.test_compiled import {function}; sys.stdout.buffer.write({function}())"
    child = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_pure_env(), capture_output=True, check=True, timeout=600
    )
    return child.stdout


def _same(here: bytes, pure: bytes, titles: tuple[bytes, ...], what: str) -> None:
    """Fail at the first line where this build's transcript and the pure child's differ,
    naming the game (the last line starting with one of ``titles`` before it)."""
    if here == pure:
        return
    ours, theirs = here.splitlines(), pure.splitlines()
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs)))
    title = next(line for line in reversed(ours[: at + 1]) if line.startswith(titles))
    pytest.fail(f"{build.mode()} and pure {what} differ in {title.decode()}, line {at}:\n{ours[at]!r}\n{theirs[at]!r}")


def test_compiled_and_pure_python_play_the_same_bytes() -> None:
    pure = _pure("transcript")
    here = transcript()
    assert pure.count(b"\n") > 10_000
    _same(here, pure, (b"lcg ", b"wotr "), "games")
    assert hashlib.sha256(here).hexdigest() == hashlib.sha256(pure).hexdigest()


def test_compiled_and_pure_python_bots_choose_the_same() -> None:
    pure = _pure("bot_transcript")
    here = bot_transcript()
    assert here.count(b"\n  OptionValue(") >= 10, "the searched game searched too few decisions"
    _same(here, pure, (b"greedy ", b"search"), "bots")


def test_the_pure_python_child_really_runs_pure_python() -> None:
    # a compiled bot module imported first: its package decides the build before it loads
    code = (
        "import bots.lcg_greedy, domain.build as b, domain.lcg.ruleset, domain.wotr.ruleset; "
        "print(b.mode(), any(b.loaded().values()), len(b.loaded()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_pure_env(), capture_output=True, text=True, check=True
    )
    mode, any_compiled, imported = out.stdout.split()
    assert (mode, any_compiled) == ("pure", "False")
    assert int(imported) > 10


@pytest.mark.skipif(os.environ.get(build.PURE_ENV, "") not in ("", "0"), reason="WESTMARCH_PURE is set")
def test_the_compiled_core_is_the_one_imported() -> None:
    """Where a C compiler is present the install is the compiled build: every module of the
    list runs from its extension module (a silent fallback to pure Python fails here)."""
    if not _compiler_present():
        pytest.skip("no C compiler: the pure-Python build is the install")
    for name in build.COMPILED:
        __import__(name)
    assert build.mode() == "compiled", f"the pure-Python build runs: {build.reason()} (rebuild: pip install -e .)"
    assert build.loaded() == dict.fromkeys(build.COMPILED, True)


def _copy_of_the_build(tmp_path: Path) -> Path:
    """The compiled packages with their extension modules, and the compiled core's shared library."""
    for package in build.PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    for library in ROOT.glob("westmarch_core__mypyc.*"):
        shutil.copy2(library, tmp_path / library.name)
    return tmp_path


def _import_in(tree: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != build.PURE_ENV}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=tree,
        env={**environ, "PYTHONPATH": str(tree), **env},
        capture_output=True,
        text=True,
        check=True,
    )


PROBE = "import domain.kernel.rng as r, domain.build as b; print(b.mode(), r.__file__, r.SOURCE_EDITED)"


def test_an_edited_source_runs_instead_of_its_stale_extension_module(tmp_path: Path) -> None:
    if build.mode() != "compiled":
        pytest.skip("needs the compiled build")
    tree = _copy_of_the_build(tmp_path)
    rng = tree / "domain" / "kernel" / "rng.py"
    rng.write_text(rng.read_text() + "\nSOURCE_EDITED = True\n")
    out = _import_in(tree, PROBE)
    mode, file, edited = out.stdout.split()
    assert (mode, file, edited) == ("pure", str(rng), "True")
    assert "THE COMPILED CORE IS OUT OF DATE" in out.stderr and "domain/kernel/rng.py" in out.stderr
    flow = _import_in(tree, "import domain.kernel.flow as f; print(f.__file__)")
    assert flow.stdout.strip().endswith("flow.py"), "one stale module sends every compiled module to its source"


def test_the_copy_of_the_build_runs_compiled_until_edited(tmp_path: Path) -> None:
    if build.mode() != "compiled":
        pytest.skip("needs the compiled build")
    tree = _copy_of_the_build(tmp_path)
    out = _import_in(tree, "import domain.kernel.rng as r, domain.build as b; print(b.mode(), r.__file__)")
    mode, file = out.stdout.split()
    assert mode == "compiled" and file.endswith(".so") and out.stderr == ""
    pure = _import_in(
        tree, "import domain.kernel.rng as r, domain.build as b; print(b.mode(), r.__file__)", WESTMARCH_PURE="1"
    )
    assert pure.stdout.split() == ["pure", str(tree / "domain" / "kernel" / "rng.py")] and pure.stderr == ""


def test_extension_modules_without_a_manifest_are_not_used(tmp_path: Path) -> None:
    if build.mode() != "compiled":
        pytest.skip("needs the compiled build")
    tree = _copy_of_the_build(tmp_path)
    (tree / "domain" / "compiled_sources.json").unlink()
    out = _import_in(tree, "import domain.kernel.rng as r, domain.build as b; print(b.mode(), r.__file__)")
    assert out.stdout.split() == ["pure", str(tree / "domain" / "kernel" / "rng.py")]
    assert "without a build manifest" in out.stderr
