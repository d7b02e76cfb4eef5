"""``play --server`` speaks the player's language to the server (issue 25): the terminal
client's GetView, Watch and SubmitDecision carry the language spoken, so the server's own
words (the question, the options, its refusals) come back in it. A real loopback server."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.kernel.decisions import Decision, RuleError
from projections.i18n import speaking
from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer
from tests.rpc_support import create, stub_for, threaded_server, tokens
from tools.rpc_client import RemoteSeat

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
"""Kana or kanji."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadedServer]:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as running:
        yield running


def test_a_remote_seat_asks_and_is_refused_in_the_language_spoken(server: ThreadedServer) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        keys = tokens(create(stub, players=1, seed=11))
        seat = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view.waiting_for
        with speaking("ja"):
            mine = RemoteSeat(stub, keys[seat])
            now = mine.state()
        assert mine.language == "ja" and now.pending is not None
        assert JAPANESE.search(now.pending.prompt), now.pending.prompt
        english = RemoteSeat(stub, keys[seat], lang="en").state().pending
        assert english is not None and not JAPANESE.search(english.prompt)
        # a choice the server refuses (no such option): its refusal in the seat's language
        with pytest.raises(RuleError) as refused:
            mine.submit(now.pending, ("no-such-option",))
        assert JAPANESE.search(str(refused.value)), str(refused.value)
        with pytest.raises(RuleError) as refused_en:
            RemoteSeat(stub, keys[seat], lang="en").submit(now.pending, ("no-such-option",))
        assert not JAPANESE.search(str(refused_en.value)), str(refused_en.value)


def test_a_seat_waiting_watches_in_the_language_spoken(server: ThreadedServer) -> None:
    """The seat that does not decide watches until its turn: the view the Watch stream brings
    has its question in Spanish."""
    channel, stub = stub_for(server.address)
    with channel:
        keys = tokens(create(stub, players=2, seed=11))
        first = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view.waiting_for
        other = next(s for s in ("p1", "p2") if s != first)
        waiting = RemoteSeat(stub, keys[other], lang="es")
        assert not waiting.view.HasField("decision")
        seen: list[Decision | None] = []
        watcher = threading.Thread(target=lambda: seen.append(waiting.state().pending))
        watcher.start()
        deciding = RemoteSeat(stub, keys[first], lang="en")
        while watcher.is_alive():
            now = deciding.state()
            if now.pending is None:
                break
            deciding.submit(now.pending, (now.pending.options[0].id,))
            watcher.join(0.05)
        watcher.join(30)
        (pending,) = seen
        assert pending is not None and pending.seat == other
        english = RemoteSeat(stub, keys[other], lang="en").state().pending
        assert english is not None and pending.prompt != english.prompt, pending.prompt
