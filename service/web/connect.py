"""The Connect protocol's wire format (https://connectrpc.com/docs/protocol), for browsers.

A browser cannot speak gRPC (it needs HTTP/2 trailers), so the web page calls the same
methods over the Connect protocol, which plain ``fetch`` can speak over HTTP/1.1:

- a unary call is ``POST /westmarch.v1.GameService/Method`` with the request as the whole
  body (``application/json``: protobuf's JSON mapping, or ``application/proto``: its binary
  form); the response is the message with status 200, or an error as JSON
  (``{"code": "not_found", "message": "..."}``) with the HTTP status that fits its code;
- a server-streaming call (``Watch``) sends ``application/connect+json`` or
  ``application/connect+proto``: the request and every response are *enveloped* (one flags
  byte, a 4-byte big-endian length, the message), and the last envelope (flags ``0x02``) is
  the end of the stream, JSON, carrying the error if the call failed. Status is 200 whatever
  happens once the stream is accepted.

Compression is not offered (the page runs on the same machine or a LAN; messages are small).
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message

PROTOCOL_VERSION = "1"
END_STREAM = 0x02
COMPRESSED = 0x01
HEADER = struct.Struct(">BI")

ERRORS: dict[grpc.StatusCode, tuple[str, int]] = {
    grpc.StatusCode.CANCELLED: ("canceled", 499),
    grpc.StatusCode.UNKNOWN: ("unknown", 500),
    grpc.StatusCode.INVALID_ARGUMENT: ("invalid_argument", 400),
    grpc.StatusCode.DEADLINE_EXCEEDED: ("deadline_exceeded", 504),
    grpc.StatusCode.NOT_FOUND: ("not_found", 404),
    grpc.StatusCode.ALREADY_EXISTS: ("already_exists", 409),
    grpc.StatusCode.PERMISSION_DENIED: ("permission_denied", 403),
    grpc.StatusCode.RESOURCE_EXHAUSTED: ("resource_exhausted", 429),
    grpc.StatusCode.FAILED_PRECONDITION: ("failed_precondition", 400),
    grpc.StatusCode.ABORTED: ("aborted", 409),
    grpc.StatusCode.OUT_OF_RANGE: ("out_of_range", 400),
    grpc.StatusCode.UNIMPLEMENTED: ("unimplemented", 501),
    grpc.StatusCode.INTERNAL: ("internal", 500),
    grpc.StatusCode.UNAVAILABLE: ("unavailable", 503),
    grpc.StatusCode.DATA_LOSS: ("data_loss", 500),
    grpc.StatusCode.UNAUTHENTICATED: ("unauthenticated", 401),
}
"""Each status code's Connect name and HTTP status (the protocol's table)."""


class CallFailed(Exception):
    """A call ended with a status other than OK."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Codec:
    """How messages are written in one content type: protobuf JSON or binary."""

    name: str
    decode: Callable[[bytes, type[Message]], Message]
    encode: Callable[[Message], bytes]


def _decode_json(data: bytes, kind: type[Message]) -> Message:
    try:
        return json_format.Parse(data.decode("utf-8") if data else "{}", kind())
    except (json_format.ParseError, UnicodeDecodeError) as error:
        raise CallFailed(grpc.StatusCode.INVALID_ARGUMENT, f"malformed {kind.__name__}: {error}") from None


def _encode_json(message: Message) -> bytes:
    return json.dumps(json_format.MessageToDict(message), separators=(",", ":"), ensure_ascii=False).encode()


def _decode_proto(data: bytes, kind: type[Message]) -> Message:
    try:
        return kind.FromString(data)
    except (DecodeError, ValueError, TypeError) as error:
        raise CallFailed(grpc.StatusCode.INVALID_ARGUMENT, f"malformed {kind.__name__}: {error}") from None


def _encode_proto(message: Message) -> bytes:
    return message.SerializeToString()


JSON = Codec("json", _decode_json, _encode_json)
PROTO = Codec("proto", _decode_proto, _encode_proto)


def codec_of(content_type: str, streaming: bool) -> Codec | None:
    """The codec a request's content type asks for, or None if it is not one we speak."""
    base = content_type.split(";", 1)[0].strip().lower()
    prefix = "application/connect+" if streaming else "application/"
    if not base.startswith(prefix):
        return None
    return {"json": JSON, "proto": PROTO}.get(base[len(prefix) :])


def content_type(codec: Codec, streaming: bool) -> str:
    return f"application/connect+{codec.name}" if streaming else f"application/{codec.name}"


def envelope(data: bytes, flags: int = 0) -> bytes:
    return HEADER.pack(flags, len(data)) + data


def unwrap(body: bytes) -> bytes:
    """The one message of a streaming request's body (a server-streaming call sends one)."""
    if len(body) < HEADER.size:
        raise CallFailed(grpc.StatusCode.INVALID_ARGUMENT, "the request is not an enveloped message")
    flags, length = HEADER.unpack_from(body)
    if flags & COMPRESSED:
        raise CallFailed(grpc.StatusCode.UNIMPLEMENTED, "compressed messages are not accepted")
    if flags != 0 or len(body) != HEADER.size + length:
        raise CallFailed(grpc.StatusCode.INVALID_ARGUMENT, "the request must be exactly one enveloped message")
    return body[HEADER.size :]


def error_json(code: grpc.StatusCode, message: str) -> dict[str, Any]:
    return {"code": ERRORS.get(code, ("unknown", 500))[0], "message": message}


def error_body(code: grpc.StatusCode, message: str) -> tuple[int, bytes]:
    """A unary call's error: its HTTP status and JSON body."""
    return ERRORS.get(code, ("unknown", 500))[1], json.dumps(error_json(code, message)).encode()


def end_of_stream(failure: CallFailed | None) -> bytes:
    """The last envelope of a stream: empty when it ended well, else its error."""
    body: dict[str, Any] = {} if failure is None else {"error": error_json(failure.code, failure.message)}
    return envelope(json.dumps(body).encode(), END_STREAM)
