"""Westmarch beside peer engines: random games per CPU second, in turns, in one run.

The peers are other people's code and stay out of this repository: ``--peers DIR`` names a
directory holding their snapshots and the scripts that drive them headless (one JSON line
each), which this tool only runs:

- ``DIR/drivers/lotrlcg_random.mjs`` (node): chhuang76/LotRLCG, a TypeScript Core Set engine
  whose zustand store runs without React; random choices in every phase, one player (its
  only mode), Passage through Mirkwood, ``Math.random`` seeded;
- ``DIR/drivers/wotr_random.py`` (``--peer-python``, 3.12 or later): kaashif/wotr-card-game,
  a Python draft whose own entry point plays four random agents.

Each side reports its CPU seconds from inside (``process.cpuUsage``, ``time.process_time``)
after one warm-up game, so start-up and imports are left out on both sides. The peer, the
compiled build and the pure-Python build take turns (the order rotates every turn) so a slow
spell of the shared machine falls on all; each figure is the best of its turns. Writes the
``peers`` section of BENCHMARKS.md (``westmarch bench-peers``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from uuid import uuid4

from domain import build

ROOT = Path(__file__).resolve().parent.parent
LCG_DRIVER = "drivers/lotrlcg_random.mjs"
WOTR_DRIVER = "drivers/wotr_random.py"


def _lcg_game(seed: int) -> tuple[int, int]:
    """One random-bot game of Passage through Mirkwood, one player: (events, rounds)."""
    from bots import random_choice
    from domain.game import Game
    from domain.lcg.lineups import lcg_options
    from domain.lcg.ruleset import LCG
    from domain.lcg.state import LcgState

    game = Game.start(uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 1, None, "standard"), seed))
    rng = random.Random(seed)
    while (d := game.state.pending) is not None:
        game.answer(d.seat, d.id, random_choice(d, rng))
    state = game.state
    assert isinstance(state, LcgState)
    return game.version, state.round


def _wotr_game(seed: int) -> tuple[int, int]:
    """One random-bot game of War of the Ring, Trilogy: (events, rounds)."""
    from bots import random_choice
    from domain.game import Game
    from domain.wotr.options import wotr_options
    from domain.wotr.ruleset import WOTR
    from domain.wotr.state import WotrState

    game = Game.start(uuid4(), WOTR, WOTR.created(wotr_options("trilogy"), seed))
    rng = random.Random(seed)
    while (d := game.state.pending) is not None:
        game.answer(d.seat, d.id, random_choice(d, rng))
    state = game.state
    assert isinstance(state, WotrState)
    return game.version, state.round


def child(game: str, size: int) -> None:
    """Play ``size`` games in this process after a warm-up; print one JSON line."""
    play = _lcg_game if game == "lcg" else _wotr_game
    play(100_000)
    started = time.process_time()
    played = [play(seed) for seed in range(1, size + 1)]
    cpu = time.process_time() - started
    out = {
        "games": size,
        "finished": size,
        "events": sum(e for e, _ in played),
        "rounds": sum(r for _, r in played),
        "cpu_s": cpu,
        "mode": build.mode(),
    }
    print(json.dumps(out))


def _run(argv: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> dict[str, Any]:
    out = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def ours(game: str, size: int, pure: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != build.PURE_ENV}
    if pure:
        env[build.PURE_ENV] = "1"
    env["PYTHONPATH"] = str(ROOT)
    result = _run([sys.executable, "-m", "tools.bench_peers", "--child", game, "--size", str(size)], env)
    expected = "pure" if pure else "compiled"
    if result["mode"] != expected:
        raise SystemExit(f"bench-peers: the {expected} build did not run ({result['mode']})")
    return result


def peer(game: str, size: int, peers: Path, python: str) -> dict[str, Any]:
    if game == "lcg":
        node = shutil.which("node") or "node"
        return _run([node, str(peers / LCG_DRIVER), str(size), "1"], cwd=peers / "drivers")
    return _run([python, str(peers / WOTR_DRIVER), str(size), "1"], cwd=peers / "drivers")


def _per_cpu(result: dict[str, Any], key: str) -> float:
    return float(result[key]) / float(result["cpu_s"])


def compare(
    game: str, sizes: tuple[int, int], repeats: int, peers: Path, python: str, builds: list[bool]
) -> dict[str, Any]:
    """Best of ``repeats`` turns for the peer and each of our ``builds`` (True: pure)."""
    sides: list[str] = ["peer", *("pure" if p else "compiled" for p in builds)]
    best: dict[str, dict[str, Any]] = {}
    for turn in range(repeats):
        order = sides[turn % len(sides) :] + sides[: turn % len(sides)]
        for side in order:
            result = peer(game, sizes[1], peers, python) if side == "peer" else ours(game, sizes[0], side == "pure")
            if side not in best or _per_cpu(result, "games") > _per_cpu(best[side], "games"):
                best[side] = result
    return best


def _describe(result: dict[str, Any]) -> str:
    games, rounds = int(result["games"]), int(result["rounds"])
    return (
        f"{_per_cpu(result, 'games'):,.1f} games/s, {_per_cpu(result, 'rounds'):,.0f} rounds/s "
        f"({games} games, {rounds / games:.1f} rounds a game, {int(result['finished'])} finished)"
    )


def main(args: argparse.Namespace) -> int:
    from tools.bench import bench_reference, publish

    if args.child:
        child(args.child, args.size)
        return 0
    if not args.peers:
        print("bench-peers: --peers DIR is required (the directory of the peers' snapshots and drivers)")
        return 2
    peers = Path(args.peers)
    missing = [p for p in (LCG_DRIVER, WOTR_DRIVER) if not (peers / p).exists()]
    if missing:
        print(f"bench-peers: {peers} has no {', '.join(missing)} (the peers' drivers stay outside the repository)")
        return 2
    builds = [True] if build.mode() != "compiled" else [False, True]
    quick, repeats = bool(args.quick), 1 if args.quick else int(args.repeats)
    rows = bench_reference(1 if quick else 3)
    lcg = compare("lcg", (4, 20) if quick else (40, 200), repeats, peers, args.peer_python, builds)
    theirs = _per_cpu(lcg["peer"], "games")
    ratios = ", ".join(
        f"{side} {_per_cpu(lcg[side], 'games') / theirs:.2f}x" for side in ("compiled", "pure") if side in lcg
    )
    rows.append(
        (
            "Passage through Mirkwood, one player (the peer's only mode), random choices: games per CPU second, "
            f"Westmarch against chhuang76/LotRLCG (best of {repeats} turns each)",
            "; ".join(f"{side}: {_describe(lcg[side])}" for side in ("compiled", "pure", "peer") if side in lcg)
            + f"; Westmarch / peer: {ratios}",
            "goal >= 1.5x",
        )
    )
    print(rows[-1][1], flush=True)
    wotr = compare("wotr", (2, 20) if quick else (20, 200), repeats, peers, args.peer_python, builds)
    ends = ", ".join(f"{n} {end}" for end, n in wotr["peer"].get("ends", {}).items())
    theirs = _per_cpu(wotr["peer"], "rounds")
    ratios = ", ".join(
        f"{side} {_per_cpu(wotr[side], 'rounds') / theirs:.2f}x" for side in ("compiled", "pure") if side in wotr
    )
    rows.append(
        (
            "War of the Ring, Trilogy, random choices: games and rounds per CPU second, Westmarch against "
            f"kaashif/wotr-card-game (best of {repeats} turns each). The peer cannot finish a game, so only "
            "rounds compare: its rounds are far simpler than ours (one battleground and one path card exist)",
            "; ".join(f"{side}: {_describe(wotr[side])}" for side in ("compiled", "pure", "peer") if side in wotr)
            + f" (the peer's games end: {ends}); rounds per CPU second, Westmarch / peer: {ratios}",
            "goal >= 4x (in games: not measurable)",
        )
    )
    print(rows[-1][1], flush=True)
    command = "westmarch bench-peers --peers DIR" + (" --quick" if quick else f" --repeats {repeats}")
    title = "Peers: random games per CPU second beside other engines"
    publish(args.output, "peers", title, command, rows, echo=False)
    return 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--peers",
        default="",
        help="directory of the peers' snapshots and their drivers (kept outside the repository; required)",
    )
    p.add_argument(
        "--peer-python",
        default="python3.12",
        help="Python 3.12 or later for the War of the Ring peer (default: %(default)s)",
    )
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="one small turn each (for a smoke test)")
    p.add_argument("--repeats", type=int, default=3, help="turns of each side per game (default: %(default)s)")
    p.add_argument("--child", default="", help=argparse.SUPPRESS)
    p.add_argument("--size", type=int, default=0, help=argparse.SUPPRESS)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench-peers", description="Westmarch beside peer engines")
    add_arguments(p)
    return p


if __name__ == "__main__":
    sys.exit(main(parser().parse_args()))
