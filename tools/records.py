"""The ``export``, ``import`` and ``verify FILE`` commands: game records (``domain/record.py``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO
from uuid import UUID

from domain.record import verify_record
from domain.rulesets import ruleset
from projections.i18n import _, say
from projections.verdicts import told
from service.app import Westmarch
from service.archive import DamagedStore, ImportRefused, export, import_record


class RecordError(Exception):
    """A record file cannot be opened or written; exit status 2."""


@contextmanager
def opened(path: str) -> Iterator[BinaryIO]:
    """A record to read: a file, or standard input for ``-``."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        with open(path, "rb") as f:
            yield f
    except OSError as error:
        raise RecordError(say("cannot read %(file)s: %(error)s", file=path, error=error.strerror)) from None


def is_record_path(target: str) -> bool:
    """Whether ``westmarch verify TARGET`` names a record file rather than a stored game."""
    return target == "-" or Path(target).is_file()


def export_game(app: Westmarch, game_id: UUID, output: str | None) -> int:
    try:
        return write_record(export(app, game_id), output, say("game %(game)s", game=game_id))
    except DamagedStore as error:
        raise RecordError(str(error)) from None


def export_remote(server: str, token: str, game: str, output: str | None, tls_ca: str | None) -> int:
    """Export a game from a Westmarch server (ExportGame), as the token's viewer."""
    import grpc

    from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
    from service.rpc.gen.westmarch.v1 import westmarch_pb2_grpc as pb_grpc
    from tools.rpc_client import channel

    with channel(server, tls_ca) as ch:
        stub = pb_grpc.GameServiceStub(ch)
        chunks = (c.lines for c in stub.ExportGame(pb.ExportGameRequest(game_id=game, token=token)))
        try:
            return write_record(chunks, output, say("the game at %(server)s", server=server))
        except grpc.RpcError as error:
            raise RecordError(f"{error.code().name}: {error.details()}") from None


def write_record(chunks: Iterable[bytes], output: str | None, what: str) -> int:
    """Write a record to ``output`` (a file, whole or not at all) or to standard output."""
    lines = 0
    if not output:
        for chunk in chunks:
            sys.stdout.buffer.write(chunk)
            lines += chunk.count(b"\n")
        sys.stdout.buffer.flush()
    else:
        part = Path(output + ".part")
        try:
            with open(part, "wb") as out:
                for chunk in chunks:
                    out.write(chunk)
                    lines += chunk.count(b"\n")
            part.replace(output)
        except OSError as error:
            raise RecordError(say("cannot write %(file)s: %(error)s", file=output, error=error.strerror)) from None
        finally:
            part.unlink(missing_ok=True)
    print(
        say(
            "exported %(what)s: %(n)s events to %(output)s",
            what=what,
            n=lines - 1,
            output=output or _("standard output"),
        ),
        file=sys.stderr,
    )
    return 0


def verify_file(path: str) -> int:
    with opened(path) as f:
        checked = verify_record(f, ruleset)
    header = checked.header
    name = say("%(file)s (game %(game)s)", file=path, game=header.game_id) if header is not None else path
    print(f"{name}: {told(checked.verdict)}")
    return checked.verdict.exit_code


def import_file(app: Westmarch, path: str) -> int:
    with opened(path) as f:
        try:
            done = import_record(app, f)
        except ImportRefused as error:
            print(f"{path}: {error}", file=sys.stderr)
            return error.verdict.exit_code if error.verdict is not None else 2
    if done.added == 0:
        print(
            say(
                "%(game)s: already in this store with all %(n)s events; nothing imported",
                game=done.game_id,
                n=done.events,
            )
        )
    elif done.added < done.events:
        print(
            say(
                "%(game)s: the stored game went on: %(added)s events added, now %(n)s",
                game=done.game_id,
                added=done.added,
                n=done.events,
            )
        )
    else:
        print(
            say(
                "%(game)s: imported, %(n)s events of %(ruleset)s, each re-executed from the seed",
                game=done.game_id,
                n=done.events,
                ruleset=done.ruleset,
            )
        )
    return 0


def add_arguments(export_parser: argparse.ArgumentParser, import_parser: argparse.ArgumentParser) -> None:
    export_parser.add_argument("game", nargs="?", help="game id or prefix (with --token: optional)")
    export_parser.add_argument("-o", "--output", metavar="FILE", help="file to write (default: standard output)")
    export_parser.add_argument("--server", metavar="HOST:PORT", help="export from a Westmarch server (ExportGame)")
    export_parser.add_argument("--token", help="with --server: a token of the game (the referee's during play)")
    export_parser.add_argument("--tls-ca", metavar="PEM", help="with --server: connect with TLS, trusting this CA")
    import_parser.add_argument("file", help="a record written by 'westmarch export' ('-' for standard input)")
