"""The compiled core against pure Python: the same measures, in turns, in one run.

Each measure runs in a child process, once on the compiled build and once with
``WESTMARCH_PURE=1`` (pure Python), the two taking turns (which goes first alternates) so
that a slow spell of the shared machine falls on both; each figure is the best of its
turns, in CPU seconds of the child (``time.process_time``), and the ratio compares the two
from this run. Writes the ``compiled`` section of BENCHMARKS.md (``westmarch
bench-compiled``, or ``python -m tools.bench_compiled``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from domain import build
from projections.i18n import N_, _, say
from tools.phrase import Phrase, phrase, told

ROOT = Path(__file__).resolve().parent.parent


def lcg_simulation(size: int) -> tuple[float, Phrase]:
    """Random-bot games of Passage through Mirkwood, two players: events per CPU second
    (tools/anchor_measures.py's ``lcg``, the same measure an older tree runs)."""
    from tools.anchor_measures import lcg

    value, _, values = lcg(size)
    return value, phrase("%(games)s games, %(events)s events", **values)


def wotr_simulation(size: int) -> tuple[float, Phrase]:
    """Random-bot games of War of the Ring, Trilogy: events per CPU second (tools/anchor_measures.py's ``wotr``)."""
    from tools.anchor_measures import wotr

    value, _, values = wotr(size)
    return value, phrase("%(games)s games, %(events)s events", **values)


def floor(size: int) -> tuple[float, Phrase]:
    """CPU milliseconds per command of the game service alone (tools/bench_load.py; through
    tools/anchor_measures.py's ``floor``)."""
    from tools.anchor_measures import floor as measure

    value, _, values = measure(size)
    return value, phrase("%(commands)s commands", **values)


def sqlite_fold(size: int) -> tuple[float, Phrase]:
    """Games saved to SQLite, each then loaded (read, decoded, folded): events per CPU second
    (tools/anchor_measures.py's ``fold``, the same measure an older tree runs)."""
    from tools.anchor_measures import fold

    value, _, values = fold(size)
    return value, phrase("%(games)s games, %(events)s events", **values)


def unchained_rollout(history: list[Any], k: int) -> int:
    """Fork the LCG game of ``history`` (a fold) and play it to its end with random choices
    seeded ``k``, through a rollout's runtime (no sink: its events neither hashed nor kept);
    the events played."""
    from bots import random_choice
    from domain.kernel.runtime import Runtime, fold
    from domain.lcg.ruleset import LCG

    state = fold(LCG, history)
    rt = Runtime(LCG, state, None)
    rt.run()
    rng = random.Random(k)
    while (decision := state.pending) is not None:
        rt.answer(decision.seat, decision.id, random_choice(decision, rng))
    return state.version - len(history)


def rollouts(size: int) -> tuple[float, Phrase]:
    """Fork a Passage through Mirkwood game at its middle and play random bots to the end:
    rollouts per CPU second (the analysis unit: a fork plus a simulated game). The fork is
    the fold of the first half's events; the rollout is played as a search plays its own,
    by a rollout's runtime (no sink: its events neither hashed nor kept)."""
    from tools.bench import random_game

    whole = random_game(7, 2)
    history = list(whole.pending_events)[: whole.version // 2]
    events = 0
    started = time.process_time()
    for k in range(size):
        events += unchained_rollout(history, k)
    seconds = time.process_time() - started
    return size / seconds, phrase(
        "%(n)s rollouts from event %(at)s of %(of)s, %(events)s events played",
        n=size,
        at=format(len(history), ","),
        of=format(whole.version, ","),
        events=format(events, ","),
    )


def grpc_over_floor(size: int) -> tuple[float, Phrase]:
    """Server CPU per SubmitDecision through gRPC (a real ``serve`` process on SQLite, 50
    clients), divided by the floor measured in this same process: what gRPC, threads and the
    server's own way add to the rules (tools/bench_load.py). The server inherits this
    process's environment, so it runs the same build."""
    from tools.bench_load import cpu_per_call, in_process_cpu
    from tools.bench_service import serve

    seconds = size / 10
    with tempfile.TemporaryDirectory() as tmp:
        server = serve(["--db", str(Path(tmp) / "grpc.db")])
        try:
            ours, count = cpu_per_call(server, 50, seconds, echo=False)
        finally:
            server.stop()
    floor_ms, floor_n = in_process_cpu(seconds / 2)
    return ours / floor_ms, phrase(
        "server %(ms)s ms per SubmitDecision (%(n)s commands), floor %(floor)s ms (%(n2)s commands)",
        ms=format(ours, ".2f"),
        n=format(count, ","),
        floor=format(floor_ms, ".2f"),
        n2=format(floor_n, ","),
    )


def postgres_over_library(size: int) -> tuple[float, Phrase]:
    """Commands per second of ``serve --processes 2`` on PostgreSQL (50 clients), divided by
    the eventsourcing library's own application (one event per command, 50 writers) measured
    just before in this process (tools/bench_load.py)."""
    from tools.bench_load import library_baseline, pg_rate
    from tools.bench_service import POSTGRES_DSN
    from tools.pgschema import scratch_schema

    seconds = size / 10
    with scratch_schema(POSTGRES_DSN, "lib") as schema:
        library = library_baseline(schema, 50, seconds)
    ours = pg_rate(2, 50, seconds)
    return ours.rate / library, phrase(
        "ours %(rate)s commands/s (CPU per command: server %(server)s ms, clients %(clients)s ms, PostgreSQL "
        "%(postgres)s ms), the library's %(library)s commands/s",
        rate=format(ours.rate, ",.0f"),
        server=format(ours.server_ms, ".2f"),
        clients=format(ours.clients_ms, ".2f"),
        postgres=format(ours.postgres_ms, ".2f"),
        library=format(library, ",.0f"),
    )


MEASURES: dict[str, tuple[Callable[[int], tuple[float, Phrase]], str, bool, int, int]] = {
    # name: (function, unit, higher is better, size, quick size)
    "lcg": (lcg_simulation, phrase("events/s"), True, 40, 4),
    "wotr": (wotr_simulation, phrase("events/s"), True, 20, 2),
    "rollout": (rollouts, phrase("rollouts/s"), True, 40, 4),
    "fold": (sqlite_fold, phrase("events/s"), True, 40, 4),
    "floor": (floor, phrase("ms per command"), False, 40, 10),
    "grpc": (grpc_over_floor, phrase("x the floor"), False, 80, 20),
    "postgres": (postgres_over_library, phrase("x the library's application"), True, 80, 20),
}

TITLES = {
    "lcg": phrase(
        "random-bot simulation, %(scenario)s (two players), events per CPU second", scenario="Passage through Mirkwood"
    ),
    "wotr": phrase("random-bot simulation, %(scenario)s, events per CPU second", scenario="War of the Ring Trilogy"),
    "rollout": phrase("fork at mid-game and play a random rollout to the end (LCG), rollouts per CPU second"),
    "fold": phrase("fold from SQLite (read, decode, fold each game), events per CPU second"),
    "floor": phrase("the floor: CPU per command of the game service alone (rules, views, SQLite, protobuf)"),
    "grpc": phrase(
        "server CPU per SubmitDecision through gRPC (SQLite, 50 clients) divided by the floor in the same child"
    ),
    "postgres": phrase(
        "PostgreSQL, serve --processes 2, 50 clients: commands per second divided by the eventsourcing "
        "library's own application (one event per command, 50 writers) in the same child"
    ),
}

GOALS = {
    "lcg": "goal >= 3x (150 k events/s at the machine reference of about 110 ms)",
    "wotr": "",
    "rollout": "goal >= 3x",
    "fold": "goal >= 1 M events/s at the machine reference of about 110 ms",
    "floor": "goal <= 0.30 ms at the machine reference of about 120 ms (2.2x)",
    "grpc": "goal <= 1.5x the floor",
    "postgres": "goal >= 1x",
}


ANCHOR_GOALS = {
    "lcg": "goal >= 3x (50 k -> 150 k events/s)",
    "wotr": "",
    "rollout": "goal >= 3x",
    "fold": "goal >= 2.33x (430 k -> 1 M events/s)",
    "floor": "goal >= 2.2x (0.66 -> 0.30 ms per command)",
}
"""The goals as ratios to the tree they were set against (``--anchor`` with no REV): each
goal's "now" was measured on that tree."""

DEFAULT_MEASURES = "lcg,wotr,rollout,fold,floor"
"""The measures of the ``compiled`` section; the service's (``grpc``, ``postgres``) take
minutes and a PostgreSQL server, so they are asked for by name and get a section of their own."""


def child(name: str, size: int) -> None:
    """Run one measure in this process and print it as JSON (the parent reads it)."""
    value, what = MEASURES[name][0](size)
    values = {key: str(v) for key, v in what.values.items()}
    print(json.dumps({"value": value, "what": what.message, "values": values, "mode": build.mode()}))


def measured(name: str, size: int, pure: bool) -> tuple[float, Phrase]:
    env = {k: v for k, v in os.environ.items() if k != build.PURE_ENV}
    if pure:
        env[build.PURE_ENV] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "tools.bench_compiled", "--child", name, "--size", str(size)],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    expected = "pure" if pure else "compiled"
    if result["mode"] != expected:
        error = out.stderr.strip()
        raise SystemExit(
            "bench-compiled: "
            + (
                say("the pure-Python build did not run: %(error)s", error=error)
                if pure
                else say("the compiled build did not run: %(error)s", error=error)
            )
        )
    return float(result["value"]), Phrase(str(result["what"]), **result.get("values", {}))


ANCHOR: Final = "9d5adfa"
"""The tree the compiled core's goals were set against (the last commit before the compiled
build, 2026-12-03): the "now" column of their table, which ``--anchor`` measures by default."""
ANCHORED: Final = ("lcg", "wotr", "rollout", "fold", "floor")
"""The measures an older tree can be asked for (tools/anchor_measures.py)."""


def anchor_tree(rev: str, folder: Path) -> Path:
    """The project's files at commit ``rev``, extracted under ``folder`` (``git archive``)."""
    tar = folder / "anchor.tar"
    made = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(tar), rev], capture_output=True, text=True
    )
    if made.returncode != 0:
        raise SystemExit(
            "bench-compiled: "
            + say("no tree of %(rev)s to measure against: %(error)s", rev=rev, error=made.stderr.strip())
        )
    tree = folder / "tree"
    with tarfile.open(tar) as archive:
        archive.extractall(tree, filter="data")
    return tree


def measured_anchor(name: str, size: int, tree: Path) -> tuple[float, Phrase]:
    """``name`` measured on the older ``tree`` (pure Python, as it was) in a child process of
    its own, its modules from ``tree`` alone (tools/anchor_measures.py)."""
    env = {k: v for k, v in os.environ.items() if k not in (build.PURE_ENV, "PYTHONPATH")}
    site = sysconfig.get_paths()["purelib"]
    out = subprocess.run(
        [sys.executable, "-S", str(ROOT / "tools" / "anchor_measures.py"), str(tree), site, name, str(size)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        raise SystemExit(
            "bench-compiled: "
            + say("the older tree could not run %(measure)s: %(error)s", measure=name, error=out.stderr.strip()[-2000:])
        )
    result = json.loads(lines[-1])
    if not str(result["origin"]).startswith(str(tree)):
        raise SystemExit(
            "bench-compiled: " + say("the older tree's run imported the project from %(path)s", path=result["origin"])
        )
    return float(result["value"]), Phrase(str(result["what"]), **result.get("values", {}))


BUILD_REASONS = (
    N_("extension modules without a build manifest (an interrupted build)"),
    N_("the pure-Python build (no C compiler, or WESTMARCH_PURE=1 at build time)"),
    N_("the list of compiled modules changed since the compiled build"),
    N_("sources changed since the compiled build"),
    N_("the compiled build, matching its sources"),
)
"""Why a process runs the build it runs (domain/build.py ``_decide``, in English there)."""


def build_reason() -> str:
    """:func:`domain.build.reason` in the language spoken."""
    reason = build.reason()
    if reason == f"{build.PURE_ENV} is set":
        return say("%(variable)s is set", variable=build.PURE_ENV)
    return _(reason) if reason in BUILD_REASONS else reason


def main(args: argparse.Namespace) -> int:
    from tools.bench import bench_reference, publish

    if args.child:
        child(args.child, args.size)
        return 0
    if build.mode() != "compiled":
        print(
            "bench-compiled: "
            + say("the compiled build is not installed (%(reason)s); run pip install -e .", reason=build_reason())
        )
        return 2
    quick, repeats = bool(args.quick), 1 if args.quick else int(args.repeats)
    rows = bench_reference(3 if not quick else 1)
    names = [n.strip() for n in str(args.measures).split(",") if n.strip()]
    unknown = [n for n in names if n not in MEASURES]
    if unknown or not names:
        print(
            "bench-compiled: "
            + say("unknown measures %(unknown)s; known: %(known)s", unknown=unknown, known=", ".join(MEASURES))
        )
        return 2
    anchor = str(args.anchor or "")
    if anchor:
        others = [n for n in names if n not in ANCHORED]
        if others:
            print(
                "bench-compiled: "
                + say(
                    "an older tree can be measured on %(known)s only, not %(unknown)s",
                    known=", ".join(ANCHORED),
                    unknown=", ".join(others),
                )
            )
            return 2
    with tempfile.TemporaryDirectory() as tmp:
        tree = anchor_tree(anchor, Path(tmp)) if anchor else None
        for name in names:
            _, _, higher, size, quick_size = MEASURES[name]
            n = quick_size if quick else size
            best: dict[bool, tuple[float, str]] = {}
            keep = max if higher else min
            for turn in range(repeats):
                for other in (turn % 2 == 0, turn % 2 == 1):
                    if other and tree is not None:
                        value, what = measured_anchor(name, n, tree)
                    else:
                        value, what = measured(name, n, other)
                    if other not in best or keep(best[other][0], value) != best[other][0]:
                        best[other] = (value, what)
            rows.append(_row(name, best, repeats, anchor))
            print(f"{name}: {told(rows[-1][1])}", flush=True)
    default = names == DEFAULT_MEASURES.split(",")
    section = "compiled" if default else "compiled-" + "-".join(names)
    command = "westmarch bench-compiled" + (" --quick" if quick else f" --repeats {repeats}")
    if not default:
        command += f" --measures {','.join(names)}"
    heading = "Compiled core (mypyc) beside pure Python"
    title = heading if default else f"{heading}: {', '.join(names)}"
    if anchor:
        section = "compiled-anchor" if default else f"compiled-anchor-{'-'.join(names)}"
        command += f" --anchor {anchor}"
        title = f"Compiled core (mypyc) against the tree of {anchor} (pure Python)"
        if not default:
            title += f": {', '.join(names)}"
    publish(args.output, section, title, command, rows, echo=False)
    return 0


def _row(name: str, best: dict[bool, tuple[float, str]], repeats: int, anchor: str) -> tuple[str, str, str]:
    """The table row of measure ``name``: today's compiled build (``best[False]``) against
    the pure-Python build or, with ``anchor``, the older tree (``best[True]``)."""
    _, unit, higher, _, _ = MEASURES[name]
    (compiled, what_c), (other, what_o) = best[False], best[True]
    ratio = compiled / other if higher else other / compiled
    fmt = "{:,.0f}" if compiled >= 100 else "{:,.2f}"
    if anchor:
        title = phrase("%(name)s (best of %(repeats)s turns each)", name=TITLES[name], repeats=repeats)
        result = phrase(
            "compiled %(n)s %(unit)s (%(what)s), the tree of %(anchor)s %(n2)s %(unit)s (%(what2)s): "
            "compiled %(ratio)sx better",
            n=fmt.format(compiled),
            unit=unit,
            what=what_c,
            anchor=anchor,
            n2=fmt.format(other),
            what2=what_o,
            ratio=format(ratio, ".2f"),
        )
    elif what_c == what_o:
        title = phrase(
            "%(name)s (%(what)s; best of %(repeats)s turns each)", name=TITLES[name], what=what_c, repeats=repeats
        )
        result = phrase(
            "compiled %(n)s %(unit)s, pure Python %(n2)s %(unit)s: %(ratio)sx",
            n=fmt.format(compiled),
            unit=unit,
            n2=fmt.format(other),
            ratio=format(ratio, ".2f"),
        )
    else:
        title = phrase("%(name)s (best of %(repeats)s turns each)", name=TITLES[name], repeats=repeats)
        result = phrase(
            "compiled %(n)s %(unit)s (%(what)s), pure Python %(n2)s %(unit)s (%(what2)s): compiled %(ratio)sx better",
            n=fmt.format(compiled),
            unit=unit,
            what=what_c,
            n2=fmt.format(other),
            what2=what_o,
            ratio=format(ratio, ".2f"),
        )
    return (title, result, ANCHOR_GOALS[name] if anchor == ANCHOR else "" if anchor else GOALS[name])


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench-compiled", description="the compiled core against pure Python")
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="one small turn each (for a smoke test)")
    p.add_argument("--repeats", type=int, default=4, help="turns of each build per measure (default: %(default)s)")
    p.add_argument(
        "--measures",
        default=DEFAULT_MEASURES,
        help="measures to run, comma-separated, of lcg, wotr, rollout, fold, floor, grpc, postgres; any other "
        "choice than the default writes a section of its own (default: %(default)s)",
    )
    p.add_argument(
        "--anchor",
        nargs="?",
        const=ANCHOR,
        default="",
        metavar="REV",
        help="measure today's compiled build against the project's own tree at commit REV (pure Python, as it was) "
        "instead of today's pure-Python build; without REV, the tree the compiled core's goals were set against "
        "(%(const)s); writes a section of its own",
    )
    p.add_argument("--child", default="", help=argparse.SUPPRESS)
    p.add_argument("--size", type=int, default=0, help=argparse.SUPPRESS)


if __name__ == "__main__":
    sys.exit(main(parser().parse_args()))
