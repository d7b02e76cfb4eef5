"""No one client can shut the others out of the web port, and the page answers only to its own names.

A real web server on a loopback port, and clients from several loopback addresses (Linux routes
all of 127/8 to loopback, so a client socket bound to 127.0.0.2 is another client address):

- connections per address are limited, and the last places are kept for addresses holding none,
  so while some addresses hold all they may, a new one is still served;
- a request head trickled a byte at a time is cut off at its deadline (one deadline for the whole
  head, not one per byte), and an idle kept-alive connection is closed;
- the ``Host`` header must name this server (DNS rebinding): a page of another site whose name
  was rebound to this address is refused, with a body saying so.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from service.app import store_env
from service.web.http import WebOptions, WebServer
from tests.rpc_support import create, stub_for, threaded_server, tokens

Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]


def run(options: WebOptions, body: Callable[[WebServer, int], Awaitable[None]]) -> None:
    async def main() -> None:
        web = WebServer({}, options)
        port = await web.start()
        try:
            await body(web, port)
        finally:
            await web.stop()

    asyncio.run(main())


async def connect(port: int, source: str) -> Stream:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def response_head(reader: asyncio.StreamReader) -> bytes:
    return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)


async def get_page(port: int, source: str) -> tuple[bytes, bytes]:
    """``GET /`` from ``source`` on a new connection: the status line and the whole answer."""
    reader, writer = await connect(port, source)
    writer.write(f"GET / HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nconnection: close\r\n\r\n".encode())
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return answer.split(b"\r\n", 1)[0], answer


async def held_connection(port: int, source: str) -> Stream:
    """A connection admitted (it got an answer to a first request) that then trickles the
    head of a second request, one byte at a time, and never finishes it."""
    reader, writer = await connect(port, source)
    writer.write(f"HEAD / HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert (await response_head(reader)).startswith(b"HTTP/1.1 200 ")
    writer.write(b"GET / HTTP/1.1\r\nx-pad: ")
    return reader, writer


async def trickle(streams: list[Stream], every: float) -> None:
    while True:
        for _, writer in streams:
            if not writer.is_closing():
                writer.write(b"a")
        await asyncio.sleep(every)


async def refused(port: int, source: str) -> bytes:
    """What a connection from ``source`` is answered before it sends anything (then closed)."""
    reader, writer = await connect(port, source)
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return answer


def test_addresses_holding_all_they_may_leave_a_new_address_served() -> None:
    options = WebOptions(max_connections=12, max_per_address=4, reserved=3, header_seconds=60, idle_seconds=60)

    async def body(web: WebServer, port: int) -> None:
        held: list[Stream] = []
        for source in ("127.0.0.1", "127.0.0.3"):
            for _ in range(4):
                held.append(await held_connection(port, source))
        dripping = asyncio.ensure_future(trickle(held, 0.05))
        try:
            over = await refused(port, "127.0.0.1")  # a fifth from one address
            assert over.startswith(b"HTTP/1.1 503 ") and over.endswith(
                b"too many connections from your address; close some and try again"
            )
            held.append(await held_connection(port, "127.0.0.4"))  # 9 of 12: the shared places are full
            over = await refused(port, "127.0.0.4")  # the last 3 are for addresses holding none
            assert over.startswith(b"HTTP/1.1 503 ")
            status, answer = await get_page(port, "127.0.0.2")
            assert status == b"HTTP/1.1 200 OK" and b"/app.js" in answer
            # the reserve serves several new clients at once, one connection each
            kept = [await held_connection(port, source) for source in ("127.0.0.5", "127.0.0.6", "127.0.0.7")]
            assert (await refused(port, "127.0.0.8")).startswith(b"HTTP/1.1 503 ")  # 12 of 12
            for reader, _ in held + kept:  # every holder is still open: nothing was dropped to make room
                assert not reader.at_eof()
            for _, writer in kept:
                writer.close()
            await asyncio.sleep(0.2)
            status, _ = await get_page(port, "127.0.0.2")  # a place freed is a place for a new client
            assert status == b"HTTP/1.1 200 OK"
        finally:
            dripping.cancel()
            for _, writer in held:
                writer.close()
        await asyncio.sleep(0.2)
        status, _ = await get_page(port, "127.0.0.1")  # the flooder, once it lets go, is served again
        assert status == b"HTTP/1.1 200 OK"

    run(options, body)


def test_a_burst_of_connections_from_one_address_is_admitted_up_to_its_share_and_each_counted_once() -> None:
    """Sixty connections opened at once from one address (refused ones reopened at once, as a
    flood does): four are admitted, every other one is answered 503 as it is accepted, and once
    all are closed nothing is left counted, so the address is served again."""
    options = WebOptions(max_connections=12, max_per_address=4, reserved=3, header_seconds=60, idle_seconds=60)

    async def body(web: WebServer, port: int) -> None:
        opened = await asyncio.gather(*(connect(port, "127.0.0.1") for _ in range(60)))

        async def answered(reader: asyncio.StreamReader) -> bytes | None:
            """What a connection was answered before it sent anything; None if it is held open."""
            try:
                return await asyncio.wait_for(reader.read(), 3)
            except TimeoutError:
                return None

        answers = await asyncio.gather(*(answered(r) for r, _ in opened))
        refusals = [a for a in answers if a is not None]
        assert len(refusals) == 56 and all(a.startswith(b"HTTP/1.1 503 ") for a in refusals)
        kept = [stream for stream, a in zip(opened, answers, strict=True) if a is None]
        for reader, writer in kept:  # the four admitted ones are served
            writer.write(f"GET / HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nconnection: close\r\n\r\n".encode())
            assert (await asyncio.wait_for(reader.read(), 10)).startswith(b"HTTP/1.1 200 ")
        for _, writer in opened:
            writer.close()
        await asyncio.sleep(0.2)
        assert web._open == 0 and not web._by_address  # nothing left counted
        for _ in range(6):  # and again up to the address's share
            status, _ = await get_page(port, "127.0.0.1")
            assert status == b"HTTP/1.1 200 OK"

    run(options, body)


def test_a_head_trickled_a_byte_at_a_time_is_cut_off_at_its_deadline() -> None:
    options = WebOptions(header_seconds=0.6, idle_seconds=30)

    async def body(web: WebServer, port: int) -> None:
        reader, writer = await connect(port, "127.0.0.1")
        started = time.monotonic()
        writer.write(f"GET / HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nx-pad: ".encode())
        dripping = asyncio.ensure_future(trickle([(reader, writer)], 0.05))  # far inside any per-byte timeout
        try:
            answer = await asyncio.wait_for(reader.read(), 10)
        finally:
            dripping.cancel()
        elapsed = time.monotonic() - started
        assert answer.startswith(b"HTTP/1.1 408 ") and answer.endswith(
            b"the request's head did not arrive within 0.6 s"
        )
        assert 0.5 <= elapsed < 5, elapsed
        writer.close()
        # a kept-alive connection's next head has as long from its own first byte, not from the opening
        reader, writer = await connect(port, "127.0.0.1")
        writer.write(f"HEAD / HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert (await response_head(reader)).startswith(b"HTTP/1.1 200 ")
        await asyncio.sleep(0.8)
        writer.write(f"GET /app.js HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert (await response_head(reader)).startswith(b"HTTP/1.1 200 ")
        writer.close()
        # a connection opened and never used is closed at the head's deadline, without an answer
        reader, writer = await connect(port, "127.0.0.1")
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()

    run(options, body)


def test_an_idle_kept_alive_connection_is_closed() -> None:
    options = WebOptions(header_seconds=10, idle_seconds=0.5)

    async def body(web: WebServer, port: int) -> None:
        reader, writer = await connect(port, "127.0.0.1")
        request = f"HEAD / HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n\r\n".encode()
        writer.write(request)
        assert (await response_head(reader)).startswith(b"HTTP/1.1 200 ")
        await asyncio.sleep(0.2)  # within the idle time: the connection is reused
        writer.write(request)
        assert (await response_head(reader)).startswith(b"HTTP/1.1 200 ")
        started = time.monotonic()
        assert await asyncio.wait_for(reader.read(), 10) == b""  # then idle: closed by the server
        elapsed = time.monotonic() - started
        assert 0.4 <= elapsed < 5, elapsed
        writer.close()

    run(options, body)


def answer_to(port: int, host: str | None, request: bytes = b"GET / HTTP/1.1") -> tuple[int, bytes]:
    """Status and body of one request with this ``Host`` header (None: none at all, HTTP/1.0)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        if host is None:
            sock.sendall(b"GET / HTTP/1.0\r\n\r\n")
        else:
            sock.sendall(request + f"\r\nhost: {host}\r\nconnection: close\r\n\r\n".encode())
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def test_the_page_answers_only_to_its_own_host_names() -> None:
    options = WebOptions(names=("table.example", "other.example:8443"))

    async def body(web: WebServer, port: int) -> None:
        def check() -> None:
            for good in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}"):
                status, page = answer_to(port, good)
                assert status == 200 and b"/app.js" in page, good
            for named in ("table.example", "table.example:443", "table.example.", "other.example:8443"):
                assert answer_to(port, named)[0] == 200, named
            for bad in ("evil.example", f"evil.example:{port}", "127.0.0.1:1", "localhost", "other.example", "[::1]"):
                status, text = answer_to(port, bad)
                assert status == 421, bad
                assert text.startswith(b"this server does not answer to the host name "), text
                assert f"open the page as http://127.0.0.1:{port}/".encode() in text
            assert answer_to(port, None)[0] == 421

        await asyncio.to_thread(check)

    run(options, body)


def test_a_call_naming_another_host_is_refused_before_it_runs(tmp_path: Path) -> None:
    with threaded_server(store_env(db=str(tmp_path / "games.db")), web_port=0) as server:
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, players=1, seed=5)
        token = tokens(access)["p1"]
        port = server.web.port
        call = json.dumps({"token": token}).encode()
        post = (
            f"POST /westmarch.v1.GameService/GetView HTTP/1.1\r\ncontent-type: application/json\r\n"
            f"content-length: {len(call)}"
        ).encode()

        def view(host: str) -> tuple[int, bytes]:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(post + f"\r\nhost: {host}\r\nconnection: close\r\n\r\n".encode() + call)
                chunks = []
                while chunk := sock.recv(65536):
                    chunks.append(chunk)
            head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
            return int(head.split(b" ", 2)[1]), body

        sent: list[str] = []
        server.web.on_sent = lambda method, request, response: sent.append(method)
        status, body = view(f"rebound.example:{port}")
        assert status == 421 and b"rebound.example" in body and sent == []
        status, body = view(f"127.0.0.1:{port}")
        assert status == 200 and json.loads(body)["view"]["gameId"] == access.game_id and sent == ["GetView"]
