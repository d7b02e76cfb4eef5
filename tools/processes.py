"""``westmarch serve --processes N``: N server processes on one port, to use every core.

Each child is an ordinary ``westmarch serve`` bound with SO_REUSEPORT, so the kernel
spreads new client connections over them; they share the store (PostgreSQL, or one SQLite
file) and stay consistent through it: optimistic concurrency on each game's version, and
the store's notification log to wake watchers of games another process changed. The
parent picks the port, starts the children, says where it serves once all are up,
restarts a child that dies, and passes SIGTERM and SIGINT on for a graceful stop.

A child that dies while one of its games waits for a bot's decision leaves nothing stuck:
the others' sweeps (``--bot-sweep``) take the game up once it stops moving, and the
restarted child sweeps every game with a room at its start (``service/autoplay.py``).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from projections.i18n import say
from service.web.http import page_address

RESTART_PAUSE = 1.0


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def child_command(args: argparse.Namespace, port: int, web_port: int | None = None) -> list[str]:
    command = [sys.executable, "-m", "tools.cli", "serve", "--host", args.host, "--port", str(port), "--reuse-port"]
    if web_port is not None:
        command += ["--web-port", str(web_port)]
    command += ["--log-level", args.log_level, "--grace", str(args.grace), "--epic-groups", str(args.epic_groups)]
    command += ["--bot-sweep", str(args.bot_sweep)]
    if args.postgres:
        command += ["--postgres", args.postgres]
    elif args.db:
        command += ["--db", args.db]
    if args.workers:
        command += ["--workers", str(args.workers)]
    if args.private:
        command += ["--private"]
    if args.tls_cert:
        command += ["--tls-cert", args.tls_cert, "--tls-key", args.tls_key or ""]
    return command


class Supervisor:
    def __init__(self, command: list[str], count: int) -> None:
        self.command = command
        self.children: list[subprocess.Popen[str] | None] = [None] * count
        self.stopping = threading.Event()

    def start(self, n: int) -> str:
        """Start child ``n``; returns the line it printed when it began to serve."""
        # the child's first line is read here, not by a person: it is said in English
        child = subprocess.Popen(
            self.command, stdout=subprocess.PIPE, text=True, env={**os.environ, "WESTMARCH_LANG": "en"}
        )
        self.children[n] = child
        assert child.stdout is not None
        line = child.stdout.readline()
        if "serving on" not in line:
            child.wait(10)
            raise RuntimeError(say("a server process did not start (exit %(code)s)", code=child.returncode))
        return line

    def watch(self) -> int:
        """Restart children that die until told to stop; then stop them all."""
        while not self.stopping.wait(0.5):
            for n, child in enumerate(self.children):
                if child is not None and child.poll() is not None and not self.stopping.is_set():
                    died = say(
                        "server process %(pid)s exited (%(code)s); restarting", pid=child.pid, code=child.returncode
                    )
                    print(f"westmarch: {died}", file=sys.stderr)
                    time.sleep(RESTART_PAUSE)
                    try:
                        self.start(n)
                    except RuntimeError as error:
                        print(f"westmarch: {error}", file=sys.stderr)
        return self.stop()

    def stop(self) -> int:
        live = [c for c in self.children if c is not None and c.poll() is None]
        for child in live:
            child.send_signal(signal.SIGTERM)
        worst = 0
        for child in live:
            try:
                worst = max(worst, child.wait(60))
            except subprocess.TimeoutExpired:
                child.kill()
                worst = 1
        return worst


def serve_processes(args: argparse.Namespace) -> int:
    port = args.port or free_port(args.host)
    web_port = None if args.web_port is None else args.web_port or free_port(args.host)
    supervisor = Supervisor(child_command(args, port, web_port), args.processes)

    def on_signal(signum: int, frame: Any) -> None:
        supervisor.stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        for n in range(args.processes):
            supervisor.start(n)
    except RuntimeError as error:
        supervisor.stop()
        print(f"westmarch: {error}", file=sys.stderr)
        return 1
    pids = ", ".join(str(c.pid) for c in supervisor.children if c is not None)
    print(
        "westmarch: " + say("%(n)s server processes: %(pids)s", n=args.processes, pids=pids),
        file=sys.stderr,
        flush=True,
    )
    print("westmarch: " + say("serving on %(address)s", address=f"{args.host}:{port}"), flush=True)
    if web_port is not None:
        page = page_address(args.host, web_port, bool(args.tls_cert))
        print("westmarch: " + say("the web page is at %(page)s", page=f"{page}#token=TOKEN"), flush=True)
    return supervisor.watch()
