"""Load benchmarks of the service, written to the ``service-load`` section of BENCHMARKS.md.

Every figure is a ratio against a baseline measured in the same run, since the machines
this runs on are noisy:

- **Server CPU per command**: the CPU time (user + system, from /proc) the server process
  spends per ``SubmitDecision``, against what the echo server (the same service answering
  canned responses, ``tools/bench_service.py``) spends per call, both under 50 concurrent
  clients.
  The echo server is also measured answering only as many calls a second as ours did, and
  so again with each call going the service's own way to its canned answer (its wrapper,
  limits and the hand-off to a worker thread and back).
- **The floor**: the CPU per command of the game service alone, played on one thread with
  no gRPC, event loop or worker threads (rules, views, SQLite, the protobuf response),
  against the same echo figure: what any server built on these rules spends at the least.
- **Fairness under a flood**: one client's ``SubmitDecision`` p99 alone, then while another
  client (a process of its own, one connection) opens 500 ``Watch`` streams with one token
  and calls ``ListGames`` and ``CreateGame`` as fast as the server answers, in alternating
  stretches; with the CPU the server, the flood and the measured client spent meanwhile.
- **PostgreSQL, 1, 2 and 4 processes** (``serve --processes N``) against the ``eventsourcing``
  library's own application saving one event per command (aggregates held in memory) on the
  same database with the same number of concurrent writers; with each run's CPU per command
  of the server, the clients and PostgreSQL, and the cores twice the library's rate would
  take at that cost.
- **Listing games**: a page of ``ListGames`` on a store of played games, read from the index
  of first rows, against the same page made from the library's notification log read by topic.
- **Soak** (``--soak-minutes``): the RSS of one server over a long run of bot games, sampled
  every 30 s: it must level off.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
from tools.bench import bench_reference, publish, told_row
from tools.bench_service import POSTGRES_DSN, Proc, _pct, serve, submit_loops
from tools.pgschema import scratch_schema
from tools.phrase import phrase
from tools.rpc_client import aio_channel, run_bots_async

# -- CPU of a process tree ---------------------------------------------------------------


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` and its child processes."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in [pid, *_children(pid)]:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def cpu_per_call(proc: Proc, loops: int, seconds: float, echo: bool, rate: float | None = None) -> tuple[float, int]:
    """Milliseconds of server CPU per call under ``loops`` concurrent clients (together making
    ``rate`` calls a second, if given), and the calls."""
    before = cpu_seconds(proc.proc.pid)
    _, count = asyncio.run(submit_loops([proc.address], loops, seconds, echo=echo, rate=rate))
    used = cpu_seconds(proc.proc.pid) - before
    return 1000 * used / max(1, count), count


# -- fairness under a flood --------------------------------------------------------------


async def _flood(address: str, stop: asyncio.Event, counts: dict[str, int], callers: int = 8) -> None:
    """One connection: 500 Watch streams with one spectator token, then ListGames and
    CreateGame as fast as the server answers (``callers`` calls at once), until ``stop``."""
    channel = aio_channel(address)
    stub = pb_grpc.GameServiceStub(channel)
    access = (await stub.CreateGame(pb.CreateGameRequest(game="lcg", seed=99))).access
    streams = []

    async def watch() -> None:
        stream = stub.Watch(pb.WatchRequest(token=access.spectator_token))
        streams.append(stream)
        try:
            async for _ in stream:
                counts["watch updates"] = counts.get("watch updates", 0) + 1
        except grpc.RpcError as error:
            key = f"watch {error.code().name}"
            counts[key] = counts.get(key, 0) + 1

    watchers = [asyncio.create_task(watch()) for _ in range(500)]

    async def spam() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                if n % 2:
                    await stub.ListGames(pb.ListGamesRequest())
                else:
                    await stub.CreateGame(pb.CreateGameRequest(game="lcg", seed=n))
                counts["open calls answered"] = counts.get("open calls answered", 0) + 1
            except grpc.RpcError as error:
                key = f"open calls {error.code().name}"
                counts[key] = counts.get(key, 0) + 1

    spammers = [asyncio.create_task(spam()) for _ in range(callers)]
    await stop.wait()
    for task in spammers:
        task.cancel()
    for stream in streams:
        stream.cancel()
    for task in [*spammers, *watchers]:
        with contextlib.suppress(BaseException):
            await task
    await channel.close()


def _flood_process(address: str, callers: int, ready: Any, stop: Any, results: Any) -> None:
    run_flood(_flood, address, callers, ready, stop, results)


def run_flood(flood: Any, address: str, callers: int, ready: Any, stop: Any, results: Any, settle: float = 1.0) -> None:
    """A flood (``flood(address, stopping, counts, callers)``) as a client process of its own
    (as another client would be): it starts, says it is flooding ``settle`` seconds later
    (its streams are open by then), floods until ``stop`` is set, then hands back its counts."""
    counts: dict[str, int] = {}

    async def run() -> None:
        stopping = asyncio.Event()
        flooding = asyncio.create_task(flood(address, stopping, counts, callers))
        await asyncio.sleep(settle)
        ready.set()
        await asyncio.get_running_loop().run_in_executor(None, stop.wait)
        stopping.set()
        await flooding

    asyncio.run(run())
    results.put(counts)


@dataclass
class Fairness:
    alone: list[float] = field(default_factory=list)
    flooded: list[float] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    """Seconds measured under the flood; the CPU seconds below are spent in them."""
    server_cpu: float = 0.0
    server_cpu_alone: float = 0.0
    """The server's CPU seconds in the stretches without the flood (as long as ``seconds``)."""
    flood_cpu: float = 0.0
    client_cpu: float = 0.0


def dual_stack(server: Proc) -> Proc:
    """A server listening on ``[::]``, addressed by its clients at 127.0.0.1 (the flood comes
    from ::1, :func:`flood_address`): to the server they are two client addresses, each with
    its own budget (service/rpc/limits.py), as two clients on a network would be."""
    server.address = f"127.0.0.1:{server.address.rsplit(':', 1)[1]}"
    return server


def flood_address(server: Proc) -> str:
    return f"[::1]:{server.address.rsplit(':', 1)[1]}"


def fairness(
    server: Proc,
    seconds: float,
    rounds: int = 3,
    callers: int = 8,
    flood_process: Any = None,
    addresses: tuple[str, str] | None = None,
) -> Fairness:
    """One client's SubmitDecision latencies alone and under the flood, in ``rounds``
    alternating stretches (so both see the same machine), with the CPU each process spent
    while the flood ran. ``flood_process`` (default :func:`_flood_process`) floods in a
    process of its own; ``addresses``: the measured client's and the flood's (default: both
    the server's), so that the flood can come from another client address."""
    context = multiprocessing.get_context("spawn")
    found = Fairness()
    victim, flooder = addresses or (server.address, server.address)
    for _ in range(rounds):
        server_before = cpu_seconds(server.proc.pid)
        alone, _ = asyncio.run(submit_loops([victim], 1, seconds / rounds))
        found.server_cpu_alone += cpu_seconds(server.proc.pid) - server_before
        found.alone += alone
        ready, stop, results = context.Event(), context.Event(), context.Queue()
        flood = context.Process(target=flood_process or _flood_process, args=(flooder, callers, ready, stop, results))
        flood.start()
        try:
            ready.wait(60)
            assert flood.pid is not None
            server_before, flood_before = cpu_seconds(server.proc.pid), cpu_seconds(flood.pid)
            client_before, started = time.process_time(), time.perf_counter()
            flooded, _ = asyncio.run(submit_loops([victim], 1, seconds / rounds))
            found.seconds += time.perf_counter() - started
            found.client_cpu += time.process_time() - client_before
            found.server_cpu += cpu_seconds(server.proc.pid) - server_before
            found.flood_cpu += cpu_seconds(flood.pid) - flood_before
            found.flooded += flooded
        finally:
            stop.set()
            for key, n in results.get(timeout=60).items():
                found.counts[key] = found.counts.get(key, 0) + n
            flood.join(30)
            if flood.is_alive():
                flood.kill()
    return found


# -- PostgreSQL scaling ------------------------------------------------------------------


def library_baseline(schema: str, writers: int, seconds: float) -> float:
    """Commands per second of the ``eventsourcing`` library's own application on PostgreSQL:
    each command triggers one event on an aggregate held in memory and saves it."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    from service.app import store_env

    class Counter(Aggregate):
        def __init__(self) -> None:
            self.n = 0

        @event("Counted")
        def count(self) -> None:
            self.n += 1

    class Counting(Application[Any]):
        pass

    env = store_env(postgres=POSTGRES_DSN)
    env["POSTGRES_SCHEMA"] = schema
    env["CREATE_TABLE"] = "y"
    app = Counting(env)
    done = [0] * writers
    deadline = time.perf_counter() + seconds

    def writer(n: int) -> None:
        counter = Counter()
        app.save(counter)
        while time.perf_counter() < deadline:
            counter.count()
            app.save(counter)
            done[n] += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rate = sum(done) / (time.perf_counter() - started)
    app.close()
    return rate


@dataclass
class PgRun:
    rate: float
    """Commands per second."""
    server_ms: float
    """CPU per command of the server processes, the clients and PostgreSQL's processes."""
    clients_ms: float
    postgres_ms: float

    @property
    def total_ms(self) -> float:
        return self.server_ms + self.clients_ms + self.postgres_ms


def postgres_cpu_seconds() -> float:
    """User + system CPU seconds of every PostgreSQL process of this machine."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            name, fields = (entry / "stat").read_text().rsplit(")", 1)
            if name.split("(", 1)[1] in ("postgres", "postmaster"):
                parts = fields.split()
                total += (int(parts[11]) + int(parts[12])) / ticks
    return total


def pg_rate(processes: int, loops: int, seconds: float) -> PgRun:
    with scratch_schema(POSTGRES_DSN, "bench") as schema:
        server = serve(["--postgres", POSTGRES_DSN, "--processes", str(processes)], {"POSTGRES_SCHEMA": schema})
        try:
            addresses = [server.address] * loops  # one connection per client: spread over the processes
            server_before, postgres_before = cpu_seconds(server.proc.pid), postgres_cpu_seconds()
            clients_before, started = time.process_time(), time.perf_counter()
            _, count = asyncio.run(submit_loops(addresses, loops, seconds))
            elapsed = time.perf_counter() - started
            per = 1000 / max(1, count)
            return PgRun(
                count / elapsed,
                per * (cpu_seconds(server.proc.pid) - server_before),
                per * (time.process_time() - clients_before),
                per * (postgres_cpu_seconds() - postgres_before),
            )
        finally:
            server.stop()


# -- the floor: the same commands with no server around them -----------------------------


def in_process_cpu(
    seconds: float, configure: Callable[[Any], None] | None = None, env: dict[str, str] | None = None
) -> tuple[float, int]:
    """CPU milliseconds per command of the game service itself, on one thread with no gRPC,
    no event loop and no worker threads: the games ``submit_loops`` plays (create, view,
    then answer decisions), saved to SQLite, each answer turned into its protobuf response.
    What any server built on these rules spends per command at the least. ``configure`` is
    given the service before it plays; ``env`` names another store than a fresh SQLite file."""
    from bots import random_choice
    from service.app import Westmarch, store_env
    from service.commands import GameService
    from service.games import GameRequest
    from service.rpc import convert
    from service.rpc.server import sqlite_synchronous

    with tempfile.TemporaryDirectory() as tmp:
        app = Westmarch(env or store_env(db=str(Path(tmp) / "floor.db")))
        sqlite_synchronous(app, "NORMAL")
        service = GameService(app)
        if configure is not None:
            configure(service)
        rng = random.Random(1)
        count = 0
        started, deadline = time.process_time(), time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            access = service.create(GameRequest(game="lcg"), seed=rng.randrange(1, 2**31))
            seat = next(iter(access.seats))
            version, decision = access.version, service.view_as(access.game_id, seat).decision
            while decision is not None and time.perf_counter() < deadline:
                choice = list(random_choice(decision, rng))
                result = service.submit_as(access.game_id, seat, version, decision.id, choice, uuid.uuid4().hex)
                convert.submit_pb(result)
                count += 1
                if result.over:
                    break
                version, decision = result.version, result.decision
        used = time.process_time() - started
        app.close()
    return 1000 * used / max(1, count), count


# -- soak --------------------------------------------------------------------------------


def soak(minutes: float) -> list[tuple[float, float, int]]:
    """(minutes, RSS MiB, games played) every 30 s while bots play games without pause."""
    samples: list[tuple[float, float, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = serve(["--db", str(Path(tmp) / "soak.db")])
        try:
            started = time.perf_counter()
            games = 0
            seed = 1
            next_sample = 0.0
            while (elapsed := time.perf_counter() - started) < minutes * 60:
                if elapsed >= next_sample:
                    samples.append((elapsed / 60, server.rss_mib(), games))
                    next_sample += 30
                report = asyncio.run(
                    run_bots_async([server.address], 20, 10, bot="random", seed=seed, players=2, progress=False)
                )
                games += report.games
                seed += 20
            samples.append(((time.perf_counter() - started) / 60, server.rss_mib(), games))
        finally:
            server.stop()
    return samples


# -- listing games -----------------------------------------------------------------------


def listing(games: int, calls: int = 20) -> tuple[float, float, int]:
    """CPU milliseconds of one page of ``ListGames`` (100 games, with their summaries) on a
    store of ``games`` games played to their end, against the same page made from the
    library's notification log read by topic (as games were listed before the index of
    first rows); and how many events the store holds."""
    import random as _random

    from bots import random_choice
    from domain.lcg.lineups import lcg_options
    from domain.lcg.ruleset import LCG
    from domain.rulesets import names
    from service.app import Westmarch, store_env
    from service.commands import GameService
    from service.store import CREATED_TOPIC

    with tempfile.TemporaryDirectory() as tmp:
        app = Westmarch(store_env(db=str(Path(tmp) / "listing.db")))
        rng = _random.Random(1)
        events = 0
        for seed in range(1, games + 1):
            game = app.create("lcg", LCG.created(lcg_options("passage-through-mirkwood", 1, None, "standard"), seed))
            while (decision := game.state.pending) is not None:
                game.answer(decision.seat, decision.id, random_choice(decision, rng))
            app.store(game)
            events += game.version
        service = GameService(app)
        topics = [CREATED_TOPIC.format(ruleset=n) for n in names()]

        def by_topic() -> None:  # the same page as the listing was made before the index
            recorder: Any = app.recorder
            page = recorder.select_notifications(1, 500, topics=topics)
            for note in page[:100]:
                app.summary(note.originator_id, note.topic, note.state)

        def per_call(fn: Any) -> float:
            started = time.process_time()
            for _ in range(calls):
                fn()
            return 1000 * (time.process_time() - started) / calls

        ours = per_call(lambda: service.games(0, 100))
        theirs = per_call(by_topic)
        app.close()
    return ours, theirs, events


# -- the run -----------------------------------------------------------------------------


def main(args: argparse.Namespace) -> int:
    if getattr(args, "flood_only", False):
        return flood_only(args)
    if not args.soak_only:
        load(args)
    if args.soak_minutes:
        soak_section(args)
    return 0


def load(args: argparse.Namespace) -> None:
    quick = bool(args.quick)
    seconds = 3.0 if quick else 12.0
    rows: list[tuple[str, str, str]] = bench_reference(1 if quick else 3)  # how fast Python runs here today
    with tempfile.TemporaryDirectory() as tmp:
        echo = Proc([sys.executable, "-m", "tools.bench_service", "echo"])
        through = Proc([sys.executable, "-m", "tools.bench_service", "echo", "--through-servicer"])
        server = dual_stack(serve(["--host", "[::]", "--db", str(Path(tmp) / "bench.db")]))
        try:
            ours, ours_n = cpu_per_call(server, 50, seconds, echo=False)
            theirs, theirs_n = cpu_per_call(echo, 50, seconds, echo=True)
            rows.append(
                (
                    phrase("server CPU per SubmitDecision (SQLite, 50 clients) against the echo server's per call"),
                    phrase(
                        "%(ours)s ms against %(theirs)s ms: %(n)sx (%(ours_n)s commands, %(theirs_n)s echo calls)",
                        ours=format(ours, ".2f"),
                        theirs=format(theirs, ".2f"),
                        n=format(ours / theirs, ".1f"),
                        ours_n=format(ours_n, ","),
                        theirs_n=format(theirs_n, ","),
                    ),
                    phrase("goal <= 2.5x"),
                )
            )
            paced, paced_n = cpu_per_call(echo, 50, seconds, echo=True, rate=ours_n / seconds)
            rows.append(
                (
                    phrase(
                        "the same, with the echo server answering as many calls a second as ours did (its calls then "
                        "come fewer at a time, so each costs it more)"
                    ),
                    phrase(
                        "%(ours)s ms against %(paced)s ms: %(n)sx (%(n2)s echo calls a second against our %(n3)s)",
                        ours=format(ours, ".2f"),
                        paced=format(paced, ".2f"),
                        n=format(ours / paced, ".1f"),
                        n2=format(paced_n / seconds, ",.0f"),
                        n3=format(ours_n / seconds, ",.0f"),
                    ),
                    "",
                )
            )
            wrapped, wrapped_n = cpu_per_call(through, 50, seconds, echo=True, rate=ours_n / seconds)
            rows.append(
                (
                    phrase(
                        "the echo server's canned answers going the service's own way (its call wrapper, limits and "
                        "the hand-off to a worker thread and back), as many calls a second as ours"
                    ),
                    phrase(
                        "%(wrapped)s ms per call, against %(paced)s ms for the plain echo server (%(n)s calls a "
                        "second)",
                        wrapped=format(wrapped, ".2f"),
                        paced=format(paced, ".2f"),
                        n=format(wrapped_n / seconds, ",.0f"),
                    ),
                    "",
                )
            )
            floor, floor_n = in_process_cpu(seconds / 2)
            rows.append(
                (
                    phrase(
                        "the floor: CPU per command of the game service alone (rules, views, SQLite, protobuf "
                        "response; one thread, no gRPC), against the echo server's per call"
                    ),
                    phrase(
                        "%(floor)s ms against %(theirs)s ms: %(n)sx (%(floor_n)s commands); ours less the floor and "
                        "the echo going our way leaves %(n2)s ms",
                        floor=format(floor, ".2f"),
                        theirs=format(theirs, ".2f"),
                        n=format(floor / theirs, ".1f"),
                        floor_n=format(floor_n, ","),
                        n2=format(ours - floor - wrapped, ".2f"),
                    ),
                    "",
                )
            )
            fair = fairness(server, 2 * seconds, addresses=(server.address, flood_address(server)))
            rows.append(fairness_row(fair))
            p50, p99 = _pct(fair.alone, 0.5), _pct(fair.alone, 0.99)
            rows.append(
                (
                    phrase("one client alone: SubmitDecision round trip (SQLite)"),
                    phrase("p50 %(p50)s ms, p99 %(p99)s ms", p50=format(p50, ".2f"), p99=format(p99, ".2f")),
                    phrase("goal p99 <= 10 ms"),
                )
            )
        finally:
            server.stop()
            echo.stop()
            through.stop()
    ours, theirs, events = listing(40 if quick else 200)
    rows.append(
        (
            phrase(
                "ListGames, one page of 100 games with their summaries, on a store of %(quick)s played games "
                "(%(events)s events), against the same page made from the library's notification log read by topic",
                quick=40 if quick else 200,
                events=format(events, ","),
            ),
            phrase(
                "%(ours)s ms against %(theirs)s ms of CPU: %(n)sx",
                ours=format(ours, ".1f"),
                theirs=format(theirs, ".1f"),
                n=format(ours / theirs, ".2f"),
            ),
            "",
        )
    )
    with scratch_schema(POSTGRES_DSN, "bench") as schema:
        base = library_baseline(schema, 50, seconds)
    rows.append(
        (
            phrase("PostgreSQL: the eventsourcing library's own application, one event saved per command, 50 writers"),
            phrase("%(base)s commands/s", base=format(base, ",.0f")),
            phrase("baseline"),
        )
    )
    for processes in (1, 2, 4):
        run = pg_rate(processes, 50, seconds)
        rows.append(
            (
                phrase(
                    "PostgreSQL: `serve --processes %(processes)s`, 50 concurrent clients playing games",
                    processes=processes,
                ),
                phrase(
                    "%(rate)s commands/s: %(n)sx the library's application; CPU per command: server %(server_ms)s ms, "
                    "clients %(clients_ms)s ms, PostgreSQL %(postgres_ms)s ms",
                    rate=format(run.rate, ",.0f"),
                    n=format(run.rate / base, ".2f"),
                    server_ms=format(run.server_ms, ".2f"),
                    clients_ms=format(run.clients_ms, ".2f"),
                    postgres_ms=format(run.postgres_ms, ".2f"),
                ),
                phrase("goal >= 2x with 2 processes") if processes == 2 else "",
            )
        )
        if processes == 2:
            need = 2 * base * run.total_ms / 1000
            rows.append(
                (
                    phrase(
                        "PostgreSQL, 2 processes: the cores twice the library's rate would take at this CPU per command"
                    ),
                    phrase(
                        "%(n)s commands/s x %(total_ms)s ms = %(need)s cores (this machine has %(n2)s)",
                        n=format(2 * base, ",.0f"),
                        total_ms=format(run.total_ms, ".2f"),
                        need=format(need, ".1f"),
                        n2=os.cpu_count(),
                    ),
                    "",
                )
            )
    command = "westmarch bench-load" + (" --quick" if quick else "")
    publish(args.output, "service-load", "gRPC service under load (ratios in one run)", command, rows)


FLOOD_MEASURE = phrase(
    "one client's SubmitDecision p99 while another client process floods on one connection (500 Watch "
    "streams with one token, ListGames and CreateGame without pause), against its p99 alone "
    "(alternating stretches)"
)


def counted(key: str, n: int) -> str:
    """One count of a flood (``watch updates 1,234``, ``open calls RESOURCE_EXHAUSTED 56``) as a
    phrase: its words said in the language spoken, the RPCs' and status codes' names as typed."""
    number = format(n, ",")
    subject, _, last = key.rpartition(" ")
    if key == "watch updates":
        return phrase("watch updates %(n)s", n=number)
    if key == "WatchEpic sheets":
        return phrase("WatchEpic sheets %(n)s", n=number)
    if last == "answered":
        if subject == "open calls":
            return phrase("open calls answered %(n)s", n=number)
        if subject == "analyses":
            return phrase("analyses answered %(n)s", n=number)
        return phrase("%(rpc)s answered %(n)s", rpc=subject, n=number)
    if last.isupper():  # a gRPC status code
        if subject == "open calls":
            return phrase("open calls %(code)s %(n)s", code=last, n=number)
        if subject == "analyses":
            return phrase("analyses %(code)s %(n)s", code=last, n=number)
        if subject == "watch":
            return phrase("watch %(code)s %(n)s", code=last, n=number)
    return f"{key} {number}"


def fairness_row(fair: Fairness, measure: str = FLOOD_MEASURE) -> tuple[str, str, str]:
    alone, flooded = fair.alone, fair.flooded
    p_alone, p_flooded = _pct(alone, 0.99), _pct(flooded, 0.99)
    seen = functools.reduce(
        lambda said, more: phrase("%(list)s, %(more)s", list=said, more=more),
        [counted(k, v) for k, v in sorted(fair.counts.items())] or [""],
    )
    per_second = max(fair.seconds, 1e-9)
    return (
        measure,
        phrase(
            "%(p_flooded)s ms against %(p_alone)s ms: %(n)sx (p50 %(flooded)s ms against %(alone)s ms; %(flooded2)s "
            "calls against %(alone2)s; CPU while flooded: server %(n2)s cores (alone %(n3)s), flood %(n4)s, client "
            "%(n5)s; the flood: %(seen)s)",
            p_flooded=format(p_flooded, ".2f"),
            p_alone=format(p_alone, ".2f"),
            n=format(p_flooded / max(p_alone, 1e-9), ".2f"),
            flooded=format(statistics.median(flooded), ".2f"),
            alone=format(statistics.median(alone), ".2f"),
            flooded2=format(len(flooded), ","),
            alone2=format(len(alone), ","),
            n2=format(fair.server_cpu / per_second, ".2f"),
            n3=format(fair.server_cpu_alone / per_second, ".2f"),
            n4=format(fair.flood_cpu / per_second, ".2f"),
            n5=format(fair.client_cpu / per_second, ".2f"),
            seen=seen,
        ),
        phrase("goal <= 2x"),
    )


def flood_only(args: argparse.Namespace) -> int:
    """Only the fairness figure, printed (``--flood-only``): for quick checks."""
    with tempfile.TemporaryDirectory() as tmp:
        server = dual_stack(serve(["--host", "[::]", "--db", str(Path(tmp) / "bench.db")]))
        try:
            asyncio.run(submit_loops([server.address], 1, 1.0))  # warm
            found = fairness(server, 6.0 if args.quick else 24.0, addresses=(server.address, flood_address(server)))
            row = fairness_row(found)
        finally:
            server.stop()
    print(told_row(row))
    return 0


def soak_section(args: argparse.Namespace) -> None:
    rows: list[tuple[str, str, str]] = []
    samples = soak(args.soak_minutes)
    first, peak, last = samples[0][1], max(s[1] for s in samples), samples[-1][1]
    half = [s for s in samples if s[0] >= samples[-1][0] / 2]
    growth = half[-1][1] - half[0][1] if len(half) > 1 else 0.0
    per_game = 1024 * growth / max(1, half[-1][2] - half[0][2]) if len(half) > 1 else 0.0
    trace = "; ".join(f"{m:.1f} min {r:.0f} MiB" for m, r, _ in samples[:: max(1, len(samples) // 8)])
    rows.append(
        (
            phrase(
                "soak: RSS of one server (SQLite) over %(soak_minutes)s minutes of bot games (%(samples)s games)",
                soak_minutes=format(args.soak_minutes, "g"),
                samples=format(samples[-1][2], ","),
            ),
            phrase(
                "start %(first)s MiB, peak %(peak)s MiB, end %(last)s MiB; second half %(growth)s MiB (%(per_game)s "
                "KiB per game). Samples: %(trace)s",
                first=format(first, ".0f"),
                peak=format(peak, ".0f"),
                last=format(last, ".0f"),
                growth=format(growth, "+.1f"),
                per_game=format(per_game, "+.1f"),
                trace=trace,
            ),
            phrase("levels off"),
        )
    )
    command = f"westmarch bench-load --soak-only --soak-minutes {args.soak_minutes:g}"
    publish(args.output, "service-soak", "gRPC service: memory over a long run", command, rows)
