"""How every benchmark publishes its section (``tools/bench.py``): the section written to the
file in English, the rows and the file told to the console in the language spoken; and the
command line's benchmark commands, each running its own tool."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from projections.i18n import speaking
from tools.bench import Row, load_row, publish, told_row
from tools.cli import main
from tools.phrase import phrase

ROWS: list[Row] = [
    (phrase("%(rate)s events/s, %(n)s games/s", rate="1,000", n="2.0"), "3.0x", phrase("goal >= 30,000 events/s")),
    (phrase("load average of the machine at the end of the run (other work shares its cores)"), "0.5", ""),
]


def test_a_section_is_written_in_english_and_told_in_the_language_spoken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "BENCHMARKS.md"
    with speaking("es"):
        publish(str(output), "engine", "Engine", "westmarch bench --quick", ROWS)
    written = output.read_text(encoding="utf-8")
    assert "<!-- section:engine -->" in written and "Produced by `westmarch bench --quick`" in written
    assert "| 1,000 events/s, 2.0 games/s | 3.0x | goal >= 30,000 events/s |" in written
    assert capsys.readouterr().out.splitlines() == [
        "1,000 eventos/s, 2.0 partidas/s: 3.0x (objetivo >= 30,000 eventos/s)",
        "carga media de la máquina al final de la ejecución (otro trabajo comparte sus núcleos): 0.5",
        f"escrito en {output}",
    ]


def test_a_benchmark_that_told_its_rows_as_it_measured_says_only_where_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "BENCHMARKS.md"
    with speaking("ja"):
        publish(str(output), "peers", "Peers", "westmarch bench-peers --peers DIR", ROWS, echo=False)
        said = capsys.readouterr().out.splitlines()
    assert len(said) == 1 and str(output) in said[0] and "written to" not in said[0]
    assert "| 3.0x |" in output.read_text(encoding="utf-8")


def test_a_row_without_a_goal_is_told_without_parentheses() -> None:
    assert told_row(("measure", "1 s", "")) == "measure: 1 s"
    assert told_row(("measure", "1 s", "goal")) == "measure: 1 s (goal)"
    measure, load, goal = load_row()
    assert measure.startswith("load average") and float(load) >= 0 and goal == ""


BENCHMARKS = {
    "bench": "bench",
    "bench-load": "bench_load",
    "bench-service": "bench_service",
    "bench-records": "bench_records",
    "bench-wotr": "bench_wotr",
    "bench-compiled": "bench_compiled",
    "bench-peers": "bench_peers",
    "bench-decks": "bench_decks",
    "bench-bots": "bench_bots",
}


@pytest.mark.parametrize("command", sorted(BENCHMARKS))
def test_each_benchmark_command_runs_its_own_tool(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module(f"tools.{BENCHMARKS[command]}")
    ran: list[argparse.Namespace] = []

    def measured(args: argparse.Namespace) -> int:
        ran.append(args)
        return 7

    monkeypatch.setattr(module, "main", measured)
    extra = ["--peers", "peers"] if command == "bench-peers" else []
    assert main([command, "--output", "elsewhere.md", *extra]) == 7
    assert len(ran) == 1 and ran[0].output == "elsewhere.md" and ran[0].command == command


def test_bench_peers_plays_our_side_in_a_child_without_the_peers_directory() -> None:
    """Our side of bench-peers runs as ``python -m tools.bench_peers --child``, which is given
    no ``--peers`` (the child plays only our games); the parent without one says it is needed."""
    from tools import bench_peers

    done = subprocess.run(
        [sys.executable, "-m", "tools.bench_peers", "--child", "lcg", "--size", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["games"] == 1 and out["events"] > 0 and out["mode"] in ("pure", "compiled")
    assert bench_peers.main(bench_peers.parser().parse_args([])) == 2


def test_bench_compiled_measures_an_older_tree_from_that_tree_alone(tmp_path: Path) -> None:
    """``bench-compiled --anchor REV`` measures the project's own tree at REV (here HEAD's,
    always in a clone) in a child whose every project module comes from that tree, and says
    plainly when REV names no tree; without REV it is the tree the goals were set against."""
    from tools import bench_compiled

    tree = bench_compiled.anchor_tree("HEAD", tmp_path)
    assert (tree / "domain" / "kernel" / "runtime.py").is_file()
    value, what = bench_compiled.measured_anchor("lcg", 1, tree)
    assert value > 0 and what.values["games"] == "1" and int(str(what.values["events"]).replace(",", "")) > 100
    with pytest.raises(SystemExit, match="no tree of no-such-commit to measure against"):
        bench_compiled.anchor_tree("no-such-commit", tmp_path / "none")
    args = bench_compiled.parser().parse_args(["--anchor", "--output", "-"])
    assert args.anchor == bench_compiled.ANCHOR and args.output == "-"
    assert bench_compiled.parser().parse_args([]).anchor == ""
