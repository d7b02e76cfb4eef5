"""Where a server's CPU and context switches go, thread by thread, per SubmitDecision.

``serve`` processes of one or more trees (or one tree with other settings), each on a SQLite
file of its own, kept running; then rounds in which 50 clients (a process of their own, the
loop of ``tools.bench_service.submit_loops``) play against each server in turn, the order
reversed every other round (A B, B A, ...), so a server's runs are paired with the others'
under the same load of the machine. For each run: the SubmitDecision calls answered, and per
call the server's CPU (user + system) and voluntary and involuntary context switches, in all
and by thread (``/proc/PID/task/*``: the event loop's thread, the Python worker threads, gRPC's
``event_engine`` threads). One JSON object per round on standard output, and a summary of the
paired differences against the first server at the end (median, and how many pairs were lower).

    python -m tools.bench_threads SECONDS ROUNDS TREE[+SERVE-ARG...] [TREE[+SERVE-ARG...] ...]

A tree is a directory holding the project (a checkout of this repository); ``+--workers+2`` after it adds
those arguments to its ``serve``. The numbers are for comparing servers run side by side: the
machine's load moves them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Threads = dict[str, tuple[str, float, int, int]]
"""Per thread id: its kind, CPU seconds, voluntary and involuntary context switches."""


def threads(pid: int) -> Threads:
    """Each thread of process ``pid`` now: the event loop's (the process's first thread),
    ``python`` (the other threads the interpreter started) or the kernel's name for it."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: Threads = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            stat = (task / "stat").read_text()
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat.rsplit(")", 1)[1].split()
            switches = dict(
                line.split(":\t") for line in (task / "status").read_text().splitlines() if "ctxt_switches" in line
            )
            kind = "loop" if task.name == str(pid) else name.rstrip("0123456789_")
            cpu = (int(fields[11]) + int(fields[12])) / ticks
            found[task.name] = (
                kind,
                cpu,
                int(switches["voluntary_ctxt_switches"]),
                int(switches["nonvoluntary_ctxt_switches"]),
            )
    return found


@dataclass(frozen=True)
class PerCall:
    calls: int
    cpu_ms: float
    voluntary: float
    involuntary: float
    by_kind: dict[str, tuple[float, float, float]]
    """Per kind of thread: CPU ms, voluntary and involuntary switches a call."""


def per_call(before: Threads, after: Threads, calls: int) -> PerCall:
    """What the threads spent between two looks, per call (threads started meanwhile count whole)."""
    n = max(1, calls)
    totals = [0.0, 0.0, 0.0]
    kinds: dict[str, list[float]] = {}
    for tid, (kind, cpu, voluntary, involuntary) in after.items():
        _, cpu0, voluntary0, involuntary0 = before.get(tid, (kind, 0.0, 0, 0))
        spent = (cpu - cpu0, voluntary - voluntary0, involuntary - involuntary0)
        adding = kinds.setdefault(kind, [0.0, 0.0, 0.0])
        for at in range(3):
            adding[at] += spent[at]
            totals[at] += spent[at]
    return PerCall(
        calls,
        1000 * totals[0] / n,
        totals[1] / n,
        totals[2] / n,
        {kind: (round(1000 * v[0] / n, 3), round(v[1] / n, 2), round(v[2] / n, 2)) for kind, v in kinds.items()},
    )


def _start(tree: str, db: str, args: list[str]) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, PYTHONPATH=tree)
    argv = [sys.executable, "-m", "tools.cli", "serve", "--port", "0", "--log-level", "warning", "--db", db, *args]
    proc = subprocess.Popen(argv, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "serving on" not in line:
        proc.kill()
        raise RuntimeError(line)
    return proc, line.strip().rsplit(" ", 1)[-1]


def _clients(tree: str, address: str, seconds: float, out: Any) -> None:
    sys.path.insert(0, tree)
    from tools.bench_service import submit_loops

    out.put(asyncio.run(submit_loops([address], 50, seconds))[1])


def sign_p(lower: int, pairs: int) -> float:
    """Two-sided sign test: the chance of a split at least this uneven if neither were lower."""
    tail = min(lower, pairs - lower)
    chance: float = 2 * sum(math.comb(pairs, k) for k in range(tail + 1)) / 2**pairs
    return min(1.0, chance)


def main(argv: list[str]) -> None:
    seconds, rounds = float(argv[0]), int(argv[1])
    servers = [spec.split("+") for spec in argv[2:]]
    context = multiprocessing.get_context("spawn")
    rows: list[list[PerCall]] = []
    with tempfile.TemporaryDirectory() as tmp:
        running = [_start(spec[0], f"{tmp}/{n}.db", spec[1:]) for n, spec in enumerate(servers)]
        try:
            for round_ in range(rounds):
                order = list(range(len(servers)))
                if round_ % 2:
                    order.reverse()
                row: dict[int, PerCall] = {}
                for n in order:
                    proc, address = running[n]
                    out = context.Queue()
                    clients = context.Process(target=_clients, args=(servers[n][0], address, seconds, out))
                    before = threads(proc.pid)
                    clients.start()
                    calls = out.get()
                    clients.join()
                    row[n] = per_call(before, threads(proc.pid), calls)
                rows.append([row[n] for n in range(len(servers))])
                print(json.dumps({"round": round_, "order": order, "runs": [vars(r) for r in rows[-1]]}), flush=True)
        finally:
            for proc, _ in running:
                proc.send_signal(signal.SIGTERM)
                proc.wait(30)
    summary = []
    for n in range(len(servers)):
        cpu = [r[n].cpu_ms for r in rows]
        switches = [r[n].voluntary + r[n].involuntary for r in rows]
        differences = [r[n].cpu_ms - r[0].cpu_ms for r in rows]
        lower = sum(d < 0 for d in differences)
        summary.append(
            {
                "server": "+".join(servers[n]),
                "cpu_ms_median": round(statistics.median(cpu), 3),
                "switches_median": round(statistics.median(switches), 1),
                "cpu_ms_paired_difference_median": round(statistics.median(differences), 3),
                "pairs_lower": lower,
                "pairs": len(rows),
                "sign_p": round(sign_p(lower, len(rows)), 4),
            }
        )
    print(json.dumps({"summary": summary}))


if __name__ == "__main__":
    main(sys.argv[1:])
