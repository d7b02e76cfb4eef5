"""The web page's HTTP/1.1 server, on the same event loop as the gRPC server.

It serves two things on one port: the page itself (``static/``: HTML, JavaScript and CSS
from this package, no build step, nothing from elsewhere) and the methods of every
``westmarch.v1`` service (GameService, RoomService, EpicService) over the Connect protocol
(``connect.py``), dispatched to the very handlers registered with gRPC: tokens,
projections, errors and call logs are the gRPC API's, so the page can see and do exactly
what any client with its token could.

HTTP parsing is h11's (a small pure-Python HTTP/1.1 state machine with no dependencies);
connections are asyncio streams. A call's token travels in its POST body, never in a URL,
and the page keeps it in the address's fragment, which browsers do not send: it reaches
no log.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import os
import socket
import ssl
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from importlib import resources
from typing import Any, NoReturn

import grpc
import h11
from google.protobuf.message import Message

from projections.i18n import say, speaking
from service.rpc.gen.westmarch.v1 import epic_pb2 as epb
from service.rpc.gen.westmarch.v1 import room_pb2 as rpb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.web import connect, i18n
from service.web.connect import CallFailed, Codec

PACKAGE = "westmarch.v1"
"""The page calls the services of this package (``/westmarch.v1.GameService/GetView``)."""
MAX_BODY = 4 * 1024 * 1024
"""Bytes of a request body at most (gRPC's default message limit)."""
READ_CHUNK = 65536
ACCEPT_BATCH = 100
"""Connections accepted in one look at a listening socket (as the event loop's own accept)."""
ACCEPT_PAUSE = 1.0
"""Seconds before accepting again when the process is out of file descriptors."""

log = logging.getLogger("westmarch.web")

STATIC_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
SECURITY_HEADERS = [
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cache-control", "no-store"),
]
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def canned(status: int, text: str) -> bytes:
    """A whole answer written before (or instead of) reading a request, closing the connection."""
    body = text.encode()
    head = f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: text/plain\r\n"
    return head.encode() + f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode() + body


BUSY = canned(503, "too many connections; try again later")
"""The whole answer to a connection over the limit, before its request is read."""
BUSY_ADDRESS = canned(503, "too many connections from your address; close some and try again")
"""The answer to a connection over its address's limit."""

Sent = Callable[[str, Message, Message], None]
"""Told of every message the web handler sends: method, request, response (tests check it)."""


@dataclass(frozen=True)
class WebOptions:
    host: str = "127.0.0.1"
    port: int = 0
    tls: ssl.SSLContext | None = None
    reuse_port: bool = False
    """Share the port with other server processes (SO_REUSEPORT; ``serve --processes``)."""
    max_connections: int = 1024
    """Open connections at most (a page holds one or two); more are refused with 503."""
    max_per_address: int = 32
    """Open connections from one client address at most (an IPv6 client: from its /64);
    more are refused with 503, so one client cannot hold the whole server."""
    reserved: int = 128
    """Of ``max_connections``, this many are only for addresses holding no connection:
    while others hold all the rest, a new client still gets in (at most a quarter of
    ``max_connections`` is kept so)."""
    header_seconds: float = 10.0
    """A request's whole head (request line and headers) must arrive within this long, from
    the connection's opening or the request's first byte: trickling a byte at a time does
    not keep a connection open. Later, 408 and the connection is closed."""
    idle_seconds: float = 30.0
    """A kept-alive connection waiting for its next request is closed after this long."""
    body_seconds: float = 60.0
    """A request's whole body must arrive within this long after its head (408 later)."""
    names: tuple[str, ...] = ()
    """Host names served besides the bound host, localhost, 127.0.0.1 and [::1] (a name
    alone, at any port, or ``name:port``). A request naming any other host is refused
    with 421: a page of another site whose name was rebound to this address (DNS
    rebinding) cannot call the service as if it were this page."""


def page_address(host: str, port: int, tls: bool) -> str:
    """Where the page is, to open with ``#token=TOKEN`` after it."""
    return f"{'https' if tls else 'http'}://{host}:{port}/"


def tls_context(cert: str | None, key: str | None) -> ssl.SSLContext | None:
    """A server TLS context from the gRPC server's certificate and key (None without them)."""
    if not (cert and key):
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files by URL path, read once from the package."""
    folder = resources.files("service.web").joinpath("static")
    files: dict[str, tuple[bytes, str]] = {}
    for item in folder.iterdir():
        suffix = "." + item.name.rsplit(".", 1)[-1]
        if item.is_file() and suffix in STATIC_TYPES:
            files["/" + item.name] = (item.read_bytes(), STATIC_TYPES[suffix])
    files["/"] = files["/index.html"]
    for lang in i18n.LANGUAGES:
        files[f"/locale/{lang}.json"] = (i18n.catalog_json(lang), "application/json; charset=utf-8")
    return files


PAGES = ("/", "/index.html")
"""The page itself: served in the language the browser prefers (``<html lang>``), which the
page speaks unless one was picked in it."""


def request_types() -> dict[str, type[Message]]:
    """Each method's request message class by its path (``westmarch.v1.GameService/GetView``),
    from the descriptors of every service the page may call."""
    found: dict[str, type[Message]] = {}
    for module in (pb, epb, rpb):
        for service in module.DESCRIPTOR.services_by_name.values():
            for m in service.methods:
                found[f"{service.full_name}/{m.name}"] = getattr(module, m.input_type.name)
    return found


class WebContext:
    """What a servicer handler needs of its call, for a call that came over the web."""

    def __init__(self, peer: str) -> None:
        self._peer = peer

    async def abort(self, code: grpc.StatusCode, details: str = "") -> NoReturn:
        raise CallFailed(code, details)

    def peer(self) -> str:
        return self._peer


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class TooLarge(Exception):
    pass


@dataclass
class Exchange:
    """One client connection: h11's state of it, its streams, and who it is for the logs."""

    conn: h11.Connection
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    peer: str

    async def send_whole(
        self, status: int, kind: str, body: bytes, extra: list[tuple[str, str]] | None = None, length: int | None = None
    ) -> None:
        """A whole response: status, content type, body (``length`` for a HEAD's)."""
        headers = [
            ("content-type", kind),
            ("content-length", str(len(body) if length is None else length)),
            *SECURITY_HEADERS,
            *(extra or []),
        ]
        conn, writer = self.conn, self.writer
        writer.write(conn.send(h11.Response(status_code=status, headers=headers, reason=_reason(status))))
        if body:
            writer.write(conn.send(h11.Data(data=body)))
        writer.write(conn.send(h11.EndOfMessage()))
        await writer.drain()


class WebServer:
    def __init__(self, methods: Mapping[str, grpc.RpcMethodHandler[Any, Any]], options: WebOptions) -> None:
        self.methods = dict(methods)
        self.options = options
        self.port = 0
        self.files = static_files()
        self.types = request_types()
        self.on_sent: Sent | None = None
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._idle: set[asyncio.Task[None]] = set()
        """Connections waiting for their next request: closed at once on stop."""
        self._by_address: dict[str, int] = {}
        """Open connections by client address (``client_address``)."""
        self._open = 0
        """Connections admitted and not yet closed (counted as they are admitted, before
        their task starts, so a burst of connections is counted connection by connection)."""
        self._closing = False
        self._listening: list[socket.socket] = []
        self._protocol: Callable[[], asyncio.Protocol] = self._no_protocol
        """Each connection's protocol (set as the server starts)."""
        self._handing: set[asyncio.Task[None]] = set()
        """Connections accepted and being handed to their protocol (a TLS handshake)."""

    async def start(self) -> int:
        loop = asyncio.get_running_loop()

        def admitted() -> asyncio.StreamReaderProtocol:
            reader = asyncio.StreamReader(limit=2**16, loop=loop)
            return asyncio.StreamReaderProtocol(reader, self._serve_connection, loop=loop)

        self._protocol = lambda: _Gate(self, admitted)
        self._server = await loop.create_server(
            self._protocol,
            self.options.host,
            self.options.port,
            ssl=self.options.tls,
            ssl_handshake_timeout=self.options.header_seconds if self.options.tls is not None else None,
            reuse_port=self.options.reuse_port or None,
            start_serving=False,
        )
        for listening in self._server.sockets:  # accepted by _accept, not by the event loop's own accept
            sock = socket.socket(fileno=os.dup(listening.fileno()))
            sock.setblocking(False)
            sock.listen(ACCEPT_BATCH)  # the event loop's own backlog
            self._listening.append(sock)
            loop.add_reader(sock.fileno(), self._accept, sock)
        self.port = self._server.sockets[0].getsockname()[1]
        url = page_address(self.options.host, self.port, self.options.tls is not None)
        log.info("web page", extra={"fields": {"url": url}})
        return self.port

    async def stop(self, grace: float = 1.0) -> None:
        """Stop accepting; give open calls ``grace`` seconds (streams end as the hub closes)."""
        if self._server is None:
            return
        loop = asyncio.get_running_loop()
        for sock in self._listening:
            loop.remove_reader(sock.fileno())
            sock.close()
        self._listening.clear()
        for handing in list(self._handing):
            handing.cancel()
        self._server.close()
        self._closing = True
        for task in self._idle:
            task.cancel()
        if self._connections:
            _, pending = await asyncio.wait(set(self._connections), timeout=grace)
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self._server.wait_closed()
        self._server = None

    # -- connections -------------------------------------------------------------------

    def _accept(self, listening: socket.socket) -> None:
        """Accept the connections waiting, a batch at a time. One whose address or the server
        is over its limits is refused here, in this callback: the canned answer (under TLS,
        none: the handshake never starts) and the socket closed, with no transport, task or
        timer made for it. A client reopening each refused connection at once, hundreds a
        second in bursts, so costs the event loop as little as a connection can, and the
        other clients' connections queued behind its bursts are reached sooner. The others
        are handed to the event loop as connections it accepted itself (``_Gate`` counts
        them, and checks the limits again)."""
        loop = asyncio.get_running_loop()
        for _ in range(ACCEPT_BATCH):
            try:
                conn, peername = listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # out of descriptors, or the client gave up first: look again soon
                if error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    log.warning("accepting web connections failed: %s", error)
                    loop.remove_reader(listening.fileno())
                    loop.call_later(ACCEPT_PAUSE, self._resume, listening)
                return
            refusal = self._refusal(client_address(peername))
            if refusal is not None:
                with contextlib.suppress(OSError):
                    conn.setblocking(False)
                    if self.options.tls is None:
                        conn.send(refusal)
                    conn.shutdown(socket.SHUT_WR)
                conn.close()
                continue
            conn.setblocking(False)
            handing = loop.create_task(self._hand(conn))
            self._handing.add(handing)
            handing.add_done_callback(self._handing.discard)

    @staticmethod
    def _no_protocol() -> asyncio.Protocol:
        raise RuntimeError("the web server has not started")

    def _resume(self, listening: socket.socket) -> None:
        if listening in self._listening:
            asyncio.get_running_loop().add_reader(listening.fileno(), self._accept, listening)

    async def _hand(self, conn: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        tls = self.options.tls
        try:
            await loop.connect_accepted_socket(
                self._protocol,
                sock=conn,
                ssl=tls,
                ssl_handshake_timeout=self.options.header_seconds if tls is not None else None,
            )
        except (OSError, ssl.SSLError, TimeoutError, ConnectionError):
            conn.close()  # a failed handshake: nothing was counted for it

    async def _serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        peername = writer.get_extra_info("peername")
        peer = f"web:{peername[0]}:{peername[1]}" if isinstance(peername, tuple) else "web"
        address = client_address(peername)  # admitted and counted by its _Gate
        self._connections.add(task)
        conn = h11.Connection(h11.SERVER)
        exchange = Exchange(conn, reader, writer, peer)
        sockname = writer.get_extra_info("sockname")
        local = str(sockname[0]) if isinstance(sockname, tuple) else ""
        loop = asyncio.get_running_loop()
        opened = loop.time()
        try:
            first = True
            while True:
                self._idle.add(task)
                try:
                    request = await _read_request(conn, reader, self.options, opened if first else None)
                except SlowRequest as slow:
                    self._idle.discard(task)
                    await _refuse(writer, canned(408, str(slow)))
                    break
                except (h11.RemoteProtocolError, TooLarge) as error:
                    self._idle.discard(task)
                    status = 413 if isinstance(error, TooLarge) else 400
                    if conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                        await exchange.send_whole(status, "text/plain; charset=utf-8", str(error).encode())
                    break
                self._idle.discard(task)
                first = False
                if request is None:
                    break
                refused = self._misdirected(request, local)
                if refused is not None:
                    extra = [("connection", "close")]
                    await exchange.send_whole(421, "text/plain; charset=utf-8", refused.encode(), extra)
                    break
                await self._respond(exchange, request)
                if self._closing or conn.our_state is not h11.DONE or conn.their_state is not h11.DONE:
                    break
                conn.start_next_cycle()
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError, h11.LocalProtocolError):
            pass
        except asyncio.CancelledError:
            if task not in self._idle:
                raise
        finally:
            self._idle.discard(task)
            self._connections.discard(task)
            self._release(address)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    def _release(self, address: str) -> None:
        """A connection admitted from ``address`` is closed."""
        self._open -= 1
        left = self._by_address.get(address, 1) - 1
        if left > 0:
            self._by_address[address] = left
        else:
            self._by_address.pop(address, None)

    def admit(self, address: str) -> bytes | None:
        """None when a new connection from ``address`` may open (it is then counted), else
        the answer refusing it.

        Three limits, so that no one client shuts the others out: its address's own share
        (``max_per_address``), the whole (``max_connections``), and the reserve: the last
        ``reserved`` places are only for addresses that hold no connection yet."""
        refusal = self._refusal(address)
        if refusal is None:
            self._open += 1
            self._by_address[address] = self._by_address.get(address, 0) + 1
        return refusal

    def _refusal(self, address: str) -> bytes | None:
        options = self.options
        total, mine = self._open, self._by_address.get(address, 0)
        if mine >= options.max_per_address:
            return BUSY_ADDRESS
        if total >= options.max_connections:
            return BUSY
        reserve = min(options.reserved, options.max_connections // 4)
        if mine > 0 and total >= options.max_connections - reserve:
            return BUSY_ADDRESS
        return None

    def _misdirected(self, request: Request, local: str) -> str | None:
        """None when the request's ``Host`` is a name this server answers to, else why not.

        Served: the bound host, localhost, 127.0.0.1, [::1] and the address the connection
        came in on, each at this port, and the names of ``WebOptions.names``."""
        tls = self.options.tls is not None
        given = request.headers.get("host", "").strip().lower()
        name, port = split_host(given, 443 if tls else 80)
        if name.endswith("."):
            name = name[:-1]
        for served in self.options.names:
            served_name, served_port = split_host(served.strip().lower(), 0)
            if served_name == name and (served_port in (0, port)):
                return None
        own = {"localhost", "127.0.0.1", "[::1]", bracketed(self.options.host), bracketed(local)}
        if name in own and port == self.port:
            return None
        shown = given or "(none)"
        where = page_address(self.options.host, self.port, tls)
        return (
            f"this server does not answer to the host name {shown}: open the page as {where} "
            "(an operator may serve more names)"
        )

    async def _respond(self, exchange: Exchange, request: Request) -> None:
        path = request.path.split("?", 1)[0]
        if path.startswith(f"/{PACKAGE}.") and path.count("/") == 2:
            full = path[1:]
            name = full.rsplit("/", 1)[1]
            if request.method != "POST":
                await exchange.send_whole(405, "text/plain", b"calls are POST requests", [("allow", "POST")])
                return
            handler = self.methods.get(full)
            if handler is None:
                status, body = connect.error_body(grpc.StatusCode.UNIMPLEMENTED, f"no method {name!r}")
                await exchange.send_whole(status, "application/json", body)
                return
            streaming = handler.response_streaming
            codec = connect.codec_of(request.headers.get("content-type", ""), streaming)
            if codec is None:
                wanted = connect.content_type(connect.JSON, streaming), connect.content_type(connect.PROTO, streaming)
                await exchange.send_whole(415, "text/plain", f"send {wanted[0]} or {wanted[1]}".encode())
                return
            # the call is served in the page's language (the page sends it as Accept-Language):
            # the story, prompts, options and errors the servicer words come out in it
            with speaking(i18n.preferred(request.headers.get("accept-language"))):
                if streaming:
                    await self._stream(exchange, request, full, handler, codec)
                else:
                    await self._unary(exchange, request, full, handler, codec)
            return
        found = self.files.get(path)
        if request.method not in ("GET", "HEAD") or found is None:
            await exchange.send_whole(404, "text/plain; charset=utf-8", b"not found")
            return
        data, kind = found
        extra = [("content-security-policy", PAGE_POLICY)] if kind.startswith("text/html") else []
        if path in PAGES:
            data = i18n.page_in(data, i18n.preferred(request.headers.get("accept-language")))
            extra.append(("vary", "accept-language"))
        await exchange.send_whole(200, kind, data if request.method == "GET" else b"", extra, len(data))

    def _parse(
        self, exchange: Exchange, full: str, codec: Codec, data: bytes, handler: grpc.RpcMethodHandler[Any, Any]
    ) -> Any:
        """The request message. Malformed binary requests are the servicer's to refuse (and log)
        as over gRPC; a request that is not even JSON of its type is refused and logged here."""
        if codec is connect.PROTO and handler.request_deserializer is not None:
            return handler.request_deserializer(data)
        try:
            return codec.decode(data, self.types[full])
        except CallFailed as failure:
            fields = {"rpc": _method(full), "outcome": failure.code.name, "peer": exchange.peer}
            log.info("call", extra={"fields": fields})
            raise

    async def _unary(
        self,
        exchange: Exchange,
        request: Request,
        full: str,
        handler: grpc.RpcMethodHandler[Any, Any],
        codec: Codec,
    ) -> None:
        behavior: Any = handler.unary_unary
        name = _method(full)
        try:
            message = self._parse(exchange, full, codec, request.body, handler)
            response: Message = await behavior(message, WebContext(exchange.peer))
        except CallFailed as failure:
            status, body = connect.error_body(failure.code, failure.message)
            await exchange.send_whole(status, "application/json", body)
            return
        if self.on_sent is not None:
            self.on_sent(name, message, response)
        await exchange.send_whole(200, connect.content_type(codec, False), codec.encode(response))

    async def _stream(
        self,
        exchange: Exchange,
        request: Request,
        full: str,
        handler: grpc.RpcMethodHandler[Any, Any],
        codec: Codec,
    ) -> None:
        name = _method(full)
        conn, writer = exchange.conn, exchange.writer
        headers = [("content-type", connect.content_type(codec, True)), *SECURITY_HEADERS]
        writer.write(conn.send(h11.Response(status_code=200, headers=headers, reason=b"OK")))
        failure: CallFailed | None = None
        updates: AsyncGenerator[Message, None] | None = None
        gone = asyncio.ensure_future(_closed_by_client(conn, exchange.reader))
        try:
            message = self._parse(exchange, full, codec, connect.unwrap(request.body), handler)
            behavior: Any = handler.unary_stream
            updates = behavior(message, WebContext(exchange.peer))
            assert updates is not None
            while True:
                step = asyncio.ensure_future(anext(updates))
                await asyncio.wait({step, gone}, return_when=asyncio.FIRST_COMPLETED)
                if not step.done():  # the page went away: end the call (the servicer logs it)
                    step.cancel()
                    with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration, CallFailed):
                        await step
                    return
                try:
                    update = step.result()
                except StopAsyncIteration:
                    break
                if self.on_sent is not None:
                    self.on_sent(name, message, update)
                writer.write(conn.send(h11.Data(data=connect.envelope(codec.encode(update)))))
                await writer.drain()
        except CallFailed as error:
            failure = error
        finally:
            gone.cancel()
            if updates is not None:
                with contextlib.suppress(Exception):
                    await updates.aclose()
        writer.write(conn.send(h11.Data(data=connect.end_of_stream(failure))))
        writer.write(conn.send(h11.EndOfMessage()))
        await writer.drain()


class SlowRequest(Exception):
    pass


async def _read_request(
    conn: h11.Connection, reader: asyncio.StreamReader, options: WebOptions, opened: float | None
) -> Request | None:
    """The next whole request on the connection, or None when the client closed it or left
    a kept-alive connection idle for ``idle_seconds``.

    ``opened``: when the connection opened, for its first request, whose head must then
    arrive within ``header_seconds`` of it; a later request's head has as long from its
    first byte. The body has ``body_seconds`` after the head. Each is one deadline for the
    whole part, not for each read, so a byte at a time does not keep a connection."""
    loop = asyncio.get_running_loop()
    head: h11.Request | None = None
    body = bytearray()
    deadline: float | None = None if opened is None else opened + options.header_seconds
    if deadline is None and conn.trailing_data[0]:  # a pipelined request has begun already
        deadline = loop.time() + options.header_seconds
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            if deadline is None:  # kept alive, waiting for the next request's first byte
                try:
                    data = await asyncio.wait_for(reader.read(READ_CHUNK), options.idle_seconds)
                except TimeoutError:
                    return None
                deadline = loop.time() + options.header_seconds
            else:
                try:
                    data = await asyncio.wait_for(reader.read(READ_CHUNK), max(0.0, deadline - loop.time()))
                except TimeoutError:
                    if head is None:
                        if opened is not None and not conn.trailing_data[0] and conn.their_state is h11.IDLE:
                            return None  # opened and never used: closed without an answer
                        raise SlowRequest(
                            say(
                                "the request's head did not arrive within %(header_seconds)s s",
                                header_seconds=format(options.header_seconds, "g"),
                            )
                        ) from None
                    raise SlowRequest(
                        say(
                            "the request's body did not arrive within %(body_seconds)s s",
                            body_seconds=format(options.body_seconds, "g"),
                        )
                    ) from None
            conn.receive_data(data)
            if not data and conn.their_state is h11.IDLE:
                return None
            continue
        if isinstance(event, h11.Request):
            head = event
            deadline = loop.time() + options.body_seconds
        elif isinstance(event, h11.Data):
            body += event.data
            if len(body) > MAX_BODY:
                raise TooLarge(say("a request body holds at most %(max_body)s bytes", max_body=MAX_BODY))
        elif isinstance(event, h11.EndOfMessage):
            assert head is not None
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in head.headers}
            return Request(head.method.decode("ascii"), head.target.decode("ascii", "replace"), headers, bytes(body))
        elif isinstance(event, h11.ConnectionClosed) or event is h11.PAUSED:
            return None


class _Gate(asyncio.Protocol):
    """A connection accepted (after its TLS handshake): admitted and counted, else refused
    with the canned answer (the limits are checked again here: many connections accepted
    together are counted one by one), and handed to the connection's stream protocol."""

    def __init__(self, server: WebServer, admitted: Callable[[], asyncio.StreamReaderProtocol]) -> None:
        self._server = server
        self._admitted = admitted
        self._inner: asyncio.StreamReaderProtocol | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        refusal = self._server.admit(client_address(transport.get_extra_info("peername")))
        if refusal is not None:
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(refusal)
            transport.close()
            return
        self._inner = self._admitted()
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._inner is not None:
            self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()


async def _closed_by_client(conn: h11.Connection, reader: asyncio.StreamReader) -> None:
    """Returns when the client closes the connection (it sends nothing while it waits)."""
    while True:
        data = await reader.read(READ_CHUNK)
        if not data:
            return
        conn.receive_data(data)  # a pipelined request: kept for the next cycle


async def _refuse(writer: asyncio.StreamWriter, answer: bytes) -> None:
    """Write a canned answer and close, not waiting long on a client that does not read."""
    writer.write(answer)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer.drain(), 1.0)
    writer.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer.wait_closed(), 1.0)


def client_address(peername: object) -> str:
    """Whose a connection is, for the per-address limit: its IP address; an IPv6 client's
    /64 (one subscriber usually holds a whole /64), an IPv4-mapped one as IPv4."""
    if not isinstance(peername, tuple) or not peername:
        return ""
    try:
        ip = ipaddress.ip_address(str(peername[0]).split("%", 1)[0])
    except ValueError:
        return str(peername[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def bracketed(host: str) -> str:
    """A host as it is written in a ``Host`` header (IPv6 literals in brackets)."""
    host = host.lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def split_host(value: str, default_port: int) -> tuple[str, int]:
    """A ``Host`` header's name and port (``default_port`` when it names none; -1: no port
    number at all, which matches no server)."""
    if value.startswith("["):
        close = value.find("]")
        if close < 0:
            return value, -1
        name, rest = value[: close + 1], value[close + 1 :]
    elif ":" in value:
        name, rest = value.rsplit(":", 1)
        rest = ":" + rest
    else:
        name, rest = value, ""
    if not rest:
        return name, default_port
    if not rest.startswith(":") or not rest[1:].isdigit():
        return name, -1
    return name, int(rest[1:])


def _method(full: str) -> str:
    """A method's name from its path (``westmarch.v1.GameService/GetView``: ``GetView``)."""
    return full.rsplit("/", 1)[-1]


def _reason(status: int) -> bytes:
    try:
        return HTTPStatus(status).phrase.encode()
    except ValueError:
        return b"Client Closed Request" if status == 499 else b""
