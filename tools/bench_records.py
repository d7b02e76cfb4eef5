"""Benchmark of game records: size, and export, import and offline-verify rates.

``westmarch bench-records`` writes its section of ``BENCHMARKS.md``. Random-bot games of
Passage through Mirkwood are stored in SQLite; in the same run, the fold of every game from
the store is the baseline the other rates are compared with. Each rate is the best of a few
repeats.
"""

from __future__ import annotations

import argparse
import gzip
import io
import tempfile
from pathlib import Path

from domain.record import check_record, verify_record
from domain.rulesets import ruleset
from projections.i18n import gettext
from service.app import Westmarch, store_env
from service.archive import export, import_record
from tools.bench import bench_reference, best_of, publish, random_game
from tools.phrase import phrase
from tools.progress import Progress


def bench_records(games: int, repeats: int, folder: Path) -> list[tuple[str, str, str]]:
    played = [random_game(seed, 2) for seed in range(1, games + 1)]
    total = sum(g.version for g in played)
    app = Westmarch({**store_env(db=str(folder / "source.db")), "IS_SNAPSHOTTING_ENABLED": "n"})
    for game in played:
        app.save(game)
    ids = [g.id for g in played]
    del played
    records = [b"".join(export(app, i)) for i in ids]
    lines = [io.BytesIO(r).readlines() for r in records]
    size = sum(len(r) for r in records)
    headers = sum(len(ls[0]) for ls in lines)
    zipped = sum(len(gzip.compress(r)) for r in records)

    fold = best_of(repeats, lambda: [app.state_at(i) for i in ids])
    exporting = best_of(repeats, lambda: [b"".join(export(app, i)) for i in ids])
    checking = best_of(repeats, lambda: [check_record(ls, ruleset) for ls in lines])
    verifying = best_of(repeats, lambda: [verify_record(ls, ruleset) for ls in lines])
    assert all(verify_record(ls, ruleset).verdict.ok for ls in lines)
    stores = iter(range(repeats))

    def import_all() -> None:
        target = Westmarch({**store_env(db=str(folder / f"target{next(stores)}.db"))})
        for ls in lines:
            import_record(target, ls)
        target.close()

    importing = best_of(repeats, import_all)
    app.close()

    def rate(seconds: float) -> str:
        return phrase(
            "%(n)s events/s (%(n2)sx the fold)", n=format(total / seconds, ",.0f"), n2=format(fold / seconds, ".2f")
        )

    return [
        (
            phrase(
                "record size - %(games)s two-player games, %(total)s events, %(n)s MB",
                games=games,
                total=format(total, ","),
                n=format(size / 1e6, ".1f"),
            ),
            phrase(
                "%(n)s bytes per event, plus a %(n2)s-byte header per game; %(n3)s bytes per event gzipped",
                n=format((size - headers) / total, ",.0f"),
                n2=format(headers / games, ",.0f"),
                n3=format(zipped / total, ",.0f"),
            ),
            "",
        ),
        (
            phrase("baseline: fold of every game from SQLite (state_at, no snapshots)"),
            phrase("%(n)s events/s", n=format(total / fold, ",.0f")),
            "",
        ),
        (phrase("export from SQLite (the store's bytes, a header, chunks of lines)"), rate(exporting), ""),
        (
            phrase(
                "import into a new SQLite file (whole check, every decision re-executed, one transaction per game, "
                "snapshots)"
            ),
            rate(importing),
            "",
        ),
        (phrase("offline verify, hash chain and decoding only (check_record)"), rate(checking), ""),
        (
            phrase("offline verify, chain then re-execution of every decision (westmarch verify FILE)"),
            rate(verifying),
            "",
        ),
    ]


def main(args: argparse.Namespace) -> int:
    quick = bool(args.quick)
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp, Progress(2, gettext("record benchmarks")) as bar:
        rows += bench_reference(1 if quick else 3)
        bar.advance(note="reference")
        rows += bench_records(3 if quick else 40, 1 if quick else 3, Path(tmp))
        bar.advance(note="records")
    command = "westmarch bench-records" + (" --quick" if quick else "")
    title = "Game records (export, import, offline verify; LCG, Passage through Mirkwood)"
    publish(args.output, "records", title, command, rows)
    return 0
