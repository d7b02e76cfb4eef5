"""The ``export``, ``import`` and ``verify FILE`` commands: game records (``domain/record.py``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from domain.record import verify_record
from domain.rulesets import ruleset
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
        raise RecordError(f"cannot read {path}: {error.strerror}") from None


def is_record_path(target: str) -> bool:
    """Whether ``westmarch verify TARGET`` names a record file rather than a stored game."""
    return target == "-" or Path(target).is_file()


def export_game(app: Westmarch, game_id: object, output: str | None) -> int:
    from uuid import UUID

    assert isinstance(game_id, UUID)
    out: BinaryIO
    try:
        out = open(output, "wb") if output else sys.stdout.buffer  # noqa: SIM115  (closed below)
    except OSError as error:
        raise RecordError(f"cannot write {output}: {error.strerror}") from None
    lines = 0
    try:
        for chunk in export(app, game_id):
            out.write(chunk)
            lines += chunk.count(b"\n")
    except DamagedStore as error:
        raise RecordError(str(error)) from None
    finally:
        if output:
            out.close()
        else:
            out.flush()
    where = output or "standard output"
    print(f"exported game {game_id}: {lines - 1} events to {where}", file=sys.stderr)
    return 0


def verify_file(path: str) -> int:
    with opened(path) as f:
        checked = verify_record(f, ruleset)
    header = checked.header
    name = f"{path} (game {header.game_id})" if header is not None else path
    print(f"{name}: {checked.verdict}")
    return checked.verdict.exit_code


def import_file(app: Westmarch, path: str) -> int:
    with opened(path) as f:
        try:
            done = import_record(app, f)
        except ImportRefused as error:
            print(f"{path}: {error}", file=sys.stderr)
            return error.verdict.exit_code if error.verdict is not None else 2
    if done.added == 0:
        print(f"{done.game_id}: already in this store with all {done.events} events; nothing imported")
    elif done.added < done.events:
        print(f"{done.game_id}: the stored game went on: {done.added} events added, now {done.events}")
    else:
        print(f"{done.game_id}: imported, {done.events} events of {done.ruleset}; re-execute with: westmarch verify")
    return 0


def add_arguments(export_parser: argparse.ArgumentParser, import_parser: argparse.ArgumentParser) -> None:
    export_parser.add_argument("game", help="game id or prefix")
    export_parser.add_argument("-o", "--output", metavar="FILE", help="file to write (default: standard output)")
    import_parser.add_argument("file", help="a record written by 'westmarch export' ('-' for standard input)")
