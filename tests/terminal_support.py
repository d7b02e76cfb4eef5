"""A person at the terminal, for tests: ``westmarch play`` in a real pseudo-terminal.

:class:`Terminal` starts the command line under a pty (the stdlib ``pty`` module), reads
what it shows up to each ``> `` prompt, and types answers, as a player would.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPTION = re.compile(r"^\s+(\d+)\. (.*)$", re.MULTILINE)
ASK = re.compile(
    r"^(\S+): (.*) \((choose one|choose .*|put every option in order|a number from (\d+) to (\d+))\)$", re.MULTILINE
)


def listen_to_ctrl_c() -> None:
    """In a child about to exec the command line: Ctrl-C (SIGINT) reaches it as it reaches a
    player's shell, whatever the test process inherited (an ignored or blocked SIGINT
    survives exec, and the command would then never hear it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Terminal:
    def __init__(self, argv: Sequence[str], timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command line, as a player starts it
            listen_to_ctrl_c()
            os.chdir(ROOT)
            os.execv(sys.executable, [sys.executable, "-m", "tools.cli", *argv])
        self.seen = ""
        """Everything the terminal showed so far."""
        self.screen = ""
        """What it showed since the last answer."""
        self.status: int | None = None
        self._pending = ""
        """What a read that timed out had seen of the screen it waited for."""

    def read(self, timeout: float | None = None) -> str:
        """What the terminal shows up to its next prompt (or to its end); '' at the end.

        A ``TimeoutError`` after ``timeout`` seconds (the terminal's own by default); what
        was shown so far is kept for the next read."""
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        chunk, self._pending = self._pending, ""
        while not chunk.endswith("> "):
            left = deadline - time.monotonic()
            if left <= 0:
                self._pending = chunk
                raise TimeoutError(f"no prompt within {wait} s; last shown:\n{(self.seen + chunk)[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal: it ended
                data = b""
            if not data:
                self._reap()
                break
            chunk += data.decode("utf-8", "replace").replace("\r\n", "\n")
        self.seen += chunk
        self.screen = chunk
        return chunk

    def type(self, text: str) -> str:
        os.write(self.fd, (text + "\n").encode())
        return self.read()

    @property
    def ended(self) -> bool:
        return self.status is not None

    def _reap(self) -> None:
        _, status = os.waitpid(self.pid, 0)
        self.status = os.waitstatus_to_exitcode(status)

    def close(self) -> None:
        if self.status is None:
            os.kill(self.pid, signal.SIGTERM)
            self._reap()
        os.close(self.fd)


def closing_answer(screen: str) -> str:
    """A quick player's answer: the last option (Pass, No, Done... are listed last), every
    option in order where an order is asked, the least where a number is."""
    asked = list(ASK.finditer(screen))
    if not asked:
        raise AssertionError(f"no decision on the screen:\n{screen[-1500:]}")
    shape = asked[-1].group(3)
    found = OPTION.findall(screen[asked[-1].end() :])
    if shape.startswith("a number"):
        return str(asked[-1].group(4))
    if shape.startswith("put every"):
        return ",".join(n for n, _ in found)
    if "press Enter for none" in shape:
        return ""
    if shape.startswith("choose ") and shape not in ("choose one", "choose 1"):
        low = re.match(r"choose (\d+)", shape)
        count = int(low.group(1)) if low else 1
        return ",".join(n for n, _ in found[:count])
    return str(found[-1][0])
