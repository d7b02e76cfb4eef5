"""The commands' own output in Spanish and Japanese: ``simulate``, ``games``, ``tokens``,
``export``, ``import``, ``new --epic`` and ``epic``, ``simulate --epic``, ``analyze``, ``serve``'s
first lines and the rarer refusals. Each is run in both languages and must leave no English
word (names, ids, tokens, options and the words a person types aside), and in English it says
what it always said.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from service.app import Westmarch, store_env
from tests.test_i18n_cli import _english
from tests.test_i18n_story import WORD, _english_words
from tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
TYPED = re.compile(
    r"\b[A-Z][A-Z_]{3,}\b|\S*[\d/]\S*|\b\w+(?:-\w+)+\b|[\w-]+\.[\w.-]+|westmarch \w+(?: [\w.-]+)*"
    r"|\b(?:greedy|lcg|wotr|spectator|referee)\b"
)
"""What an output quotes that is no word of a language: ids, tokens, numbers with their unit
glued on, gRPC status codes, files, rules' and scenarios' keys, a command to type again, the
bots', games' and viewers' names."""


def _left(lang: str, text: str) -> list[str]:
    """The English words left in ``text`` said in ``lang``."""
    plain = TYPED.sub(" ", text)
    if lang == "es":
        return _english(plain)
    return [w for w in WORD.findall(plain) if w.lower() in _english_words() and w.lower() not in _allowed()]


def _allowed() -> frozenset[str]:
    from tests.test_i18n_cli import _typed

    return _typed()


def _run(capsys: pytest.CaptureFixture[str], lang: str, *argv: str, code: int = 0) -> str:
    assert main(["--lang", lang, *argv]) == code
    out = capsys.readouterr()
    return out.out + out.err


@pytest.fixture
def stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    db = str(tmp_path / "g.db")
    assert main(["new", "lcg", "--seed", "4", "--db", db]) == 0
    capsys.readouterr()
    (game,) = Westmarch(store_env(db=db)).games()
    return db, str(game.id)


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_simulate_says_its_report_in_the_language_spoken(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    said = _run(capsys, lang, "simulate", "lcg", "--games", "2", "--seed", "3")
    english = _run(capsys, "en", "simulate", "lcg", "--games", "2", "--seed", "3")
    assert "games: 2" in english and "events per game: mean" in english and "per game:" in english
    assert not _left(lang, said), (_left(lang, said), said)
    assert {"es": "partidas: 2", "ja": "ゲーム: 2"}[lang] in said, said

    # the numbers are the same in every language: only the words change (the losses' reasons
    # are left out: a reason's name may hold a number in one language, 'amenaza 50')
    def numbers(report: str) -> list[str]:
        lines = report.split("\n")[1:4]  # games, losses, rounds (a later line's words hold a '1' in ja)
        return re.findall(r"\d+(?:\.\d+)?", re.sub(r"[(（].*?[)）]", "", "\n".join(lines)))

    assert numbers(said) == numbers(english), (said, english)


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_games_tokens_export_and_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stored: tuple[str, str], lang: str
) -> None:
    db, game = stored
    record = str(tmp_path / "r.wmr")
    said = [
        _run(capsys, lang, "games", "--db", db),
        _run(capsys, lang, "tokens", game[:8], "--db", db),
        _run(capsys, lang, "tokens", game[:8], "--db", db, code=2),  # issued once only
        _run(capsys, lang, "tokens", game[:8], "--rotate", "p1", "--db", db),
        _run(capsys, lang, "export", game[:8], "--db", db, "--output", record),
        _run(capsys, lang, "import", record, "--db", db),
        _run(capsys, lang, "verify", record),
        _run(capsys, lang, "games", "--db", db, "--limit", "0", code=2),
        _run(capsys, lang, "games", "--db", str(tmp_path / "none.db"), code=2),
        _run(capsys, lang, "log", "ffff", "--db", db, code=2),
        _run(capsys, lang, "export", "--db", db, code=2),
        _run(capsys, lang, "play", game[:8], "--bot", "p9=greedy", "--db", db, code=2),
    ]
    for text in said:
        assert not _left(lang, text), (_left(lang, text), text)
        assert lang != "ja" or JAPANESE.search(text), text
    english = [
        _run(capsys, "en", "tokens", game[:8], "--rotate", "p2", "--db", db, code=2),
        _run(capsys, "en", "import", record, "--db", db),
        _run(capsys, "en", "log", "ffff", "--db", db, code=2),
    ]
    assert "p2" in english[0] and JAPANESE.search(english[0]) is None
    assert f"{game}: already in this store with all 7 events; nothing imported" in english[1]
    assert "westmarch: no game id starts with 'ffff' (see: westmarch games)" in english[2]


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_an_epic_event_opened_shown_and_simulated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    db = str(tmp_path / "e.db")
    opened = _run(capsys, lang, "new", "lcg", "--scenario", "hunt-for-the-dreadnaught", "--epic", "2x1", "--db", db)
    epic = re.search(r"[0-9a-f]{8}-[0-9a-f-]{27}", opened)
    assert epic is not None, opened
    sheet = _run(capsys, lang, "epic", epic.group(0)[:8], "--db", db)
    played = _run(
        capsys, lang, "simulate", "lcg", "--scenario", "hunt-for-the-dreadnaught", "--epic", "2x1", "--games", "1"
    )
    refused = _run(capsys, lang, "new", "lcg", "--scenario", "hunt-for-the-dreadnaught", "--epic", "9x9", code=2)
    for text in (opened, sheet, played, refused):
        assert not _left(lang, text), (_left(lang, text), text)
        assert lang != "ja" or JAPANESE.search(text), text
    english = _run(capsys, "en", "epic", epic.group(0)[:8], "--db", db)
    assert english.startswith(f"epic event {epic.group(0)} (2 players, organizer version")


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_analyze_says_its_figures_in_the_language_spoken(
    capsys: pytest.CaptureFixture[str], stored: tuple[str, str], lang: str
) -> None:
    db, game = stored
    said = _run(capsys, lang, "analyze", game[:8], "--at", "7", "--rollouts", "2", "--seed", "1", "--db", db)
    refused = _run(capsys, lang, "analyze", game[:8], "--at", "3", "--rollouts", "2", "--db", db, code=2)
    for text in (said, refused):
        assert not _left(lang, text), (_left(lang, text), text)
        assert lang != "ja" or JAPANESE.search(text), text
    english = _run(capsys, "en", "analyze", game[:8], "--at", "7", "--rollouts", "2", "--seed", "1", "--db", db)
    assert "chance of winning for the players, 95% interval; " in english, english


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_serve_says_where_it_serves_in_the_language_spoken(tmp_path: Path, lang: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WESTMARCH_LANG": lang, "WESTMARCH_PURE": "1"}
    command = [sys.executable, "-m", "tools.cli", "serve", "--port", "0", "--web-port", "0"]
    command += ["--db", str(tmp_path / "s.db"), "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline(), server.stdout.readline()]
    finally:
        server.terminate()
        server.wait(20)
    said = "".join(lines)
    assert re.match(r"westmarch: \S.* 127\.0\.0\.1:\d+", lines[0]) or "127.0.0.1:" in lines[0], lines
    assert {"es": "sirviendo en 127.0.0.1:", "ja": "で待ち受け中"}[lang] in said, said
    assert {"es": "la página web está en http://", "ja": "ウェブページ: http://"}[lang] in said, said
    assert not _left(lang, said), said


@pytest.mark.parametrize("lang", ["es", "ja"])
@pytest.mark.parametrize(
    ("bench", "english"),
    [("bench-records", "events/s"), ("bench-wotr", "events/s"), ("bench", "events/s"), ("bench-decks", "per game")],
)
def test_a_benchmark_speaks_on_the_console_and_writes_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, bench: str, english: str
) -> None:
    """The figures a benchmark prints are said in the language spoken; its section of
    BENCHMARKS.md, a project document, is written in English all the same. The benchmarks
    whose ``--quick`` run takes a few seconds; bench-service (about 45 s, PostgreSQL),
    bench-load, bench-peers (other machines), bench-bots (no --quick) and bench-compiled
    (the compiled build) are left out."""
    document = tmp_path / "BENCHMARKS.md"
    said = _run(capsys, lang, bench, "--quick", "--output", str(document))
    assert not _left(lang, said), (_left(lang, said), said)
    assert lang != "ja" or JAPANESE.search(said), said
    written = document.read_text(encoding="utf-8")
    assert english in written and "| measure | result | goal |" in written
    assert not JAPANESE.search(written) and "eventos" not in written and "partidas" not in written
    rows = [
        line.split(" | ")[0].lstrip("| ")
        for line in written.splitlines()
        if line.startswith("| ") and "---" not in line
    ]
    assert len([line for line in said.splitlines() if ": " in line]) >= len(rows) - 1 > 1


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_the_bots_report_and_the_table_against_the_shadow(lang: str) -> None:
    """What ``westmarch bots`` (over gRPC) and ``simulate wotr --scenario all`` print at the end,
    from the figures a run gathers (the runs themselves are tested where they are made)."""
    from collections import Counter

    from projections.i18n import speaking
    from tools.rpc_client import BotReport
    from tools.simulate_bots import show

    report = BotReport(
        games=4,
        finished=4,
        results=Counter({("lost", "heroes"): 3, ("won", "final-score"): 1}),
        decisions=812,
        aborted=2,
        errors=Counter({"FAILED_PRECONDITION: the game is over": 1}),
        latencies=[1.5, 2.0, 3.5],
        seconds=2.5,
    )
    row = {"scenario": "trilogy", "difficulty": "hard", "games": 10, "free_wins": 4, "free_win_rate": 0.4}
    with speaking(lang):
        said = report.text() + "\n" + show([row], False, "greedy")
    assert not _left(lang, said), (_left(lang, said), said)
    assert lang != "ja" or JAPANESE.search(said), said
    english = report.text() + "\n" + show([row], False, "greedy")
    assert english.startswith("games: 4 started, 4 finished\n    lost:     3  (heroes)")
    assert "error: FAILED_PRECONDITION: the game is over x1" in english


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_argparse_refusals_in_the_language_spoken(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    """argparse's own refusals (a missing argument, a wrong type, a choice not offered, an
    unknown option) are argparse's English: the command line says them again in its catalog."""
    refusals = [
        ["new"],
        ["simulate", "lcg", "--games", "x"],
        ["nwe"],
        ["new", "lcg", "--difficulty", "zz"],
        ["games", "--bogus"],
    ]
    for argv in refusals:
        with pytest.raises(SystemExit) as done:
            main(["--lang", lang, *argv])
        assert done.value.code == 2
        said = capsys.readouterr().err
        assert said.startswith("westmarch: ") and said.count("\n") == 1, said
        assert not _left(lang, said), (_left(lang, said), said)
        assert lang != "ja" or JAPANESE.search(said), said
    with pytest.raises(SystemExit):
        main(["nwe"])
    assert capsys.readouterr().err == (
        "westmarch: argument COMMAND: invalid choice: 'nwe'; did you mean new? (see: westmarch --help)\n"
    )


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_analyze_swings_and_a_seat_refused_in_the_language_spoken(
    capsys: pytest.CaptureFixture[str], stored: tuple[str, str], lang: str
) -> None:
    """The reasons a decision was skipped and the refusal of a seat not in the game are the
    analysis's own words (bots/analysis.py), said in the language spoken too."""
    db, game = stored
    said = _run(capsys, lang, "analyze", game[:8], "--swings", "--rollouts", "2", "--seed", "1", "--db", db)
    refused = _run(capsys, lang, "analyze", game[:8], "--at", "7", "--as", "p9", "--db", db, code=2)
    for text in (said, refused):
        assert not _left(lang, text), (_left(lang, text), text)
        assert lang != "ja" or JAPANESE.search(text), text
    assert "p9" in refused
    english = _run(capsys, "en", "analyze", game[:8], "--swings", "--rollouts", "2", "--seed", "1", "--db", db)
    assert "; skipped " in english and ("not answered yet" in english or "one legal answer" in english), english
