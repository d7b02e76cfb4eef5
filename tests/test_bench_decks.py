"""`westmarch bench-decks`: the greedy bot's games with good and bad decks, written to its section."""

from __future__ import annotations

from pathlib import Path

from domain.lcg.cards import CARDS
from domain.lcg.decks import problems
from domain.lcg.decks.ready_made import playable_part, ready_made
from tools.bench_decks import LINEUPS, allies_only, off_sphere
from tools.cli import main


def test_the_bad_decks_are_what_they_say() -> None:
    for key in LINEUPS:
        good = playable_part(ready_made()[key])
        spheres = {CARDS[h].sphere for h in good.heroes}
        bad = off_sphere(good)
        assert bad.size == 30 and not problems(bad), problems(bad)
        assert all(CARDS[c].sphere not in spheres | {"neutral"} for c, _ in bad.cards)
        assert {CARDS[c].type for c, _ in allies_only(good).cards} == {"ally"}


def test_bench_decks_writes_its_section(tmp_path: Path, capsys: object) -> None:
    out = tmp_path / "BENCHMARKS.md"
    out.write_text("# Benchmarks\n\n<!-- section:engine -->\nkept\n<!-- /section:engine -->\n", encoding="utf-8")
    assert main(["bench-decks", "--quick", "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "kept" in text
    section = text.split("<!-- section:lcg-decks -->", 1)[1].split("<!-- /section:lcg-decks -->", 1)[0]
    assert "Produced by `westmarch bench-decks --quick`" in section
    for scenario in ("passage-through-mirkwood", "journey-along-the-anduin", "escape-from-dol-guldur"):
        assert section.count(f"| {scenario}, ") == 3 * len(LINEUPS)
    assert "off-sphere (30 cards), 3 games | won" in section
