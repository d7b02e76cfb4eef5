"""One client holding connections to the web port against another client's ``GET /``.

Writes the ``web-flood`` section of BENCHMARKS.md (``python -m tools.bench_web_flood``).
A real ``westmarch serve --web-port`` in a process of its own, with the web limits as shipped
(``service.web.http.WebOptions``); a measured client from 127.0.0.2 opening a new connection
for each ``GET /`` of the page, in alternating stretches:

- alone;
- while a flooding process from 127.0.0.1 tries to hold 1,030 connections, each trickling the
  head of a request one byte a second (the flood that once made every other client's
  ``GET /`` answer 503 for minutes); a connection it loses (refused with 503, or cut at the
  head's deadline with 408) it opens again 2 s later;
- while it tries the same from 40 addresses (127.0.0.10 to .49), 32 connections each: more
  than the server's shared places, so only the places kept for new addresses are left.

Linux routes all of 127/8 to loopback, so a socket bound to another 127.x address is another
client address to the server. The figure is the measured client's p99 under each flood
against its p99 alone (the stretches alone pooled), and the answers other than 200 it got.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from projections.i18n import from_environment, speaking
from tools.bench import publish
from tools.phrase import Phrase, phrase

VICTIM = "127.0.0.2"


@dataclass(frozen=True)
class Flood:
    name: Phrase
    """What the flood does, said in the language spoken on the console."""
    sources: list[str]
    per_source: int
    trickle: float
    """Seconds between the bytes each held connection sends."""
    reopen: float
    """Seconds before a lost connection is opened again."""


FLOODS = [
    Flood(
        phrase("one address (127.0.0.1) trying to hold 1,030 connections, a byte every 30 s"),
        ["127.0.0.1"],
        1030,
        30,
        30,
    ),
    Flood(
        phrase("40 addresses (127.0.0.10 to .49) trying to hold 32 connections each (1,280), a byte every 30 s"),
        [f"127.0.0.{i}" for i in range(10, 50)],
        32,
        30,
        30,
    ),
    Flood(
        phrase("one address trying to hold 1,030 connections, a byte a second, each lost one opened again 2 s later"),
        ["127.0.0.1"],
        1030,
        1,
        2,
    ),
]


# -- the flooding process ------------------------------------------------------------------


async def hold(port: int, source: str, trickle: float, reopen: float, counts: dict[str, int]) -> None:
    """One slot of the flood: a connection trickling a request head, reopened when lost.
    It counts as held once it has gone a second without an answer."""
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            counts["connect errors"] += 1
            await asyncio.sleep(reopen)
            continue
        counts["opened"] += 1
        status, held = "closed", False
        try:
            writer.write(f"GET / HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nx-pad: ".encode())
            wait = min(1.0, trickle)
            while True:
                try:
                    async with asyncio.timeout(wait):  # (3.11's wait_for can swallow a cancel)
                        got = await reader.read(4096)
                except TimeoutError:
                    if not held:
                        held = True
                        counts["holding"] += 1
                        wait = max(0.0, trickle - 1.0)
                    else:
                        wait = trickle
                    writer.write(b"a")
                    continue
                if got.startswith(b"HTTP/1.1 "):
                    status = got[9:12].decode()
                break
        except OSError:
            pass
        finally:
            if held:
                counts["holding"] -= 1
            writer.close()
        counts[f"answered {status}"] = counts.get(f"answered {status}", 0) + 1
        await asyncio.sleep(reopen)


async def flood(port: int, flood: Flood, out: Path) -> None:
    counts: dict[str, int] = {"opened": 0, "holding": 0, "connect errors": 0}
    most = 0
    slots = [
        asyncio.ensure_future(hold(port, source, flood.trickle, flood.reopen, counts))
        for source in flood.sources
        for _ in range(flood.per_source)
    ]
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    while not stop.is_set():
        most = max(most, counts["holding"])
        out.write_text(json.dumps({**counts, "most held at once": most}))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.25):
                await stop.wait()
    for slot in slots:
        slot.cancel()
    await asyncio.gather(*slots, return_exceptions=True)
    out.write_text(json.dumps({**counts, "most held at once": most}))


# -- the measured client -------------------------------------------------------------------


def get_page(port: int) -> tuple[float, int]:
    """Seconds for one ``GET /`` on a new connection from :data:`VICTIM`, and its status."""
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(VICTIM, 0)) as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nconnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    return time.perf_counter() - started, status


@dataclass
class Pages:
    times: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)

    def add(self, other: Pages) -> None:
        self.times += other.times
        for status, n in other.statuses.items():
            self.statuses[status] = self.statuses.get(status, 0) + n

    def p(self, q: int) -> float:
        return statistics.quantiles(self.times, n=100)[q - 1] * 1000 if len(self.times) > 1 else float("nan")

    def others(self) -> str:
        others = {k: v for k, v in self.statuses.items() if k != 200}
        if not others:
            return "every answer 200"
        return ", ".join(f"{v:,} answered {k or 'nothing'}" for k, v in sorted(others.items()))


def stretch(port: int, seconds: float, pause: float = 0.01) -> Pages:
    pages = Pages()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            elapsed, status = get_page(port)
        except OSError:
            elapsed, status = 0.0, 0
        pages.statuses[status] = pages.statuses.get(status, 0) + 1
        if status == 200:
            pages.times.append(elapsed)
        time.sleep(pause)
    return pages


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(folder: Path) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, "-m", "tools.cli", "serve", "--db", str(folder / "games.db"), "--port", "0"]
    command += ["--web-port", "0", "--log-level", "warning"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for _ in range(2):
        line = proc.stdout.readline()
        if "the web page is at http://127.0.0.1:" in line:
            return proc, int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
    proc.kill()
    raise RuntimeError("the server did not start its web page")


def flooded(port: int, server: int, index: int, seconds: float, folder: Path) -> tuple[Pages, dict[str, int], str]:
    out = folder / "flood.json"
    command = [sys.executable, "-m", "tools.bench_web_flood", "--flood-child", str(port), str(index), str(out)]
    child = subprocess.Popen(command)
    try:
        time.sleep(5.0)  # let it open all it can
        server_cpu, flood_cpu, started = cpu_seconds(server), cpu_seconds(child.pid), time.monotonic()
        pages = stretch(port, seconds)
        wall = time.monotonic() - started
        cpu = (
            f"CPU meanwhile: server {(cpu_seconds(server) - server_cpu) / wall:.2f} cores, "
            f"flood {(cpu_seconds(child.pid) - flood_cpu) / wall:.2f}"
        )
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(10)
    counts: dict[str, int] = json.loads(out.read_text())
    time.sleep(2.0)
    return pages, counts, cpu


def main(args: argparse.Namespace) -> int:
    seconds = float(args.seconds)
    rows: list[tuple[str, str, str]] = []
    alone = Pages()
    results: list[tuple[Flood, Pages, dict[str, int], str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server, port = start_server(folder)
        try:
            stretch(port, 1.0)  # warm up
            for index, flood in enumerate(FLOODS):
                alone.add(stretch(port, seconds))
                results.append((flood, *flooded(port, server.pid, index, seconds, folder)))
            alone.add(stretch(port, seconds))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)
    base = alone.p(99)
    rows.append(
        (
            phrase(
                "another client (127.0.0.2) alone: `GET /` of the page on a new connection each time, in stretches "
                "between the floods"
            ),
            phrase(
                "p50 %(n)s ms, p99 %(base)s ms (%(n2)s pages; %(n3)s)",
                n=format(alone.p(50), ".2f"),
                base=format(base, ".2f"),
                n2=format(len(alone.times), ","),
                n3=alone.others(),
            ),
            "",
        )
    )
    for flood, pages, counts, cpu in results:
        answers = ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items()) if k.startswith("answered"))
        rows.append(
            (
                phrase("the same while %(name)s", name=flood.name),
                phrase(
                    "p99 %(n)s ms against %(base)s ms alone: %(n2)sx (p50 %(n3)s ms; %(n4)s pages; %(n5)s; the flood "
                    "held at most %(n6)s at once and opened %(n7)s, %(answers)s; %(cpu)s)",
                    n=format(pages.p(99), ".2f"),
                    base=format(base, ".2f"),
                    n2=format(pages.p(99) / base, ".2f"),
                    n3=format(pages.p(50), ".2f"),
                    n4=format(len(pages.times), ","),
                    n5=pages.others(),
                    n6=format(counts.get("most held at once", 0), ","),
                    n7=format(counts.get("opened", 0), ","),
                    answers=answers,
                    cpu=cpu,
                ),
                phrase("goal <= 2x, every answer 200"),
            )
        )
    command = "python -m tools.bench_web_flood" + (f" --seconds {seconds:g}" if seconds != 15 else "")
    title = "Web port: another client's page while others hold connections"
    publish(args.output, "web-flood", title, command, rows)
    return 0


def cli() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--output", default="BENCHMARKS.md", help="file to write (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each stretch (default: %(default)s)")
    parser.add_argument("--flood-child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood_child:
        port, index, out = args.flood_child
        asyncio.run(flood(int(port), FLOODS[int(index)], Path(out)))
        return 0
    return main(args)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    with speaking(from_environment()):  # WESTMARCH_LANG or LANG: the console's language
        sys.exit(cli())
