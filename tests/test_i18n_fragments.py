"""No English word left inside a translated sentence: values filled into a message's blanks
(who went past a limit, a flood's name, a measure's title and unit) are said in the language
spoken too (issue 25)."""

from __future__ import annotations

import re

import pytest

from projections.i18n import speaking
from service.rpc.limits import Gate, LimitExceeded, Limits
from tools.bench_compiled import MEASURES, TITLES
from tools.bench_web_flood import FLOODS
from tools.phrase import phrase, told

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
"""Kana or kanji."""

SAID = {"es": "esta dirección", "ja": "このアドレス"}


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_a_rate_limit_refusal_names_the_address_in_the_language_spoken(lang: str) -> None:
    """An address past its calls without a token is told so as ``this address``, translated."""
    gate = Gate(Limits(open_calls_burst=100, address_calls_burst=1, address_calls_per_second=0.001))
    with speaking(lang):
        gate.open_call("ListGames", "ipv4:127.0.0.1:5000")
        with pytest.raises(LimitExceeded) as refused:
            gate.open_call("ListGames", "ipv4:127.0.0.1:5001")
    text = str(refused.value)
    assert SAID[lang] in text, text
    assert "this address" not in text and "this connection" not in text


def test_a_rate_limit_refusal_names_the_connection_in_english_by_default() -> None:
    gate = Gate(Limits(open_calls_burst=1, open_calls_per_second=0.001))
    gate.open_call("ListGames", "ipv4:127.0.0.1:5000")
    with pytest.raises(LimitExceeded) as refused:
        gate.open_call("ListGames", "ipv4:127.0.0.1:5000")
    assert "too many ListGames calls from this connection" in str(refused.value)


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_a_flood_row_is_told_whole_in_the_language_spoken(lang: str) -> None:
    """bench-web-flood's row names the flood inside a sentence: both are translated, while
    the row written to BENCHMARKS.md stays English."""
    row = phrase("the same while %(name)s", name=FLOODS[0].name)
    assert str(row).startswith("the same while one address (127.0.0.1)")
    with speaking(lang):
        text = row.told()
    assert "one address" not in text and "the same while" not in text, text
    assert "127.0.0.1" in text
    if lang == "ja":
        assert JAPANESE.search(text)
    else:
        assert "una dirección" in text


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_bench_compiled_titles_and_units_are_told(lang: str) -> None:
    title = phrase("%(name)s (best of %(repeats)s turns each)", name=TITLES["lcg"], repeats=3)
    result = phrase(
        "compiled %(n)s %(unit)s, pure Python %(n2)s %(unit)s: %(ratio)sx",
        n="1",
        unit=MEASURES["lcg"][1],
        n2="2",
        ratio="0.5",
    )
    with speaking(lang):
        said = title.told() + " " + result.told()
    assert "random-bot simulation" not in said and "events/s" not in said, said


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_bench_compiled_says_why_the_pure_build_runs_in_the_language_spoken(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """On the pure build bench-compiled refuses, naming the reason the build module gives in
    English (domain/build.py): said in the language spoken. The suite runs on either build, so
    this process is told it runs the pure one, as WESTMARCH_PURE=1 would have decided it (else,
    on the compiled build, the benchmark would run and write BENCHMARKS.md)."""
    from domain import build
    from tools.cli import main

    monkeypatch.setattr(build, "_mode", "pure")
    monkeypatch.setattr(build, "_reason", f"{build.PURE_ENV} is set")

    assert main(["--lang", lang, "bench-compiled", "--quick"]) == 2
    said = capsys.readouterr().out
    assert "WESTMARCH_PURE" in said and "is set" not in said and "not installed" not in said, said
    assert lang != "ja" or JAPANESE.search(said), said


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_a_measure_run_in_a_child_is_told_in_the_language_spoken(lang: str) -> None:
    """bench-compiled's child process says what it measured as a phrase (message and values
    in its JSON): the parent writes the English and says it in the language spoken."""
    from tools.bench_compiled import measured

    _, what = measured("floor", 1, pure=True)
    assert re.fullmatch(r"[\d,]+ commands", what), what
    with speaking(lang):
        said = told(what)
    assert "commands" not in said and re.search(r"\d", said), said
    assert lang != "ja" or JAPANESE.search(said), said


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_the_flood_benchmarks_name_their_measures_in_the_language_spoken(lang: str) -> None:
    """bench-load's and bench-epic-flood's measure names (a flood's description filled into
    the epic one) are phrases: English in BENCHMARKS.md, the language spoken on the console."""
    from tools.bench_epic_flood import FLOODS as EPIC_FLOODS
    from tools.bench_load import FLOOD_MEASURE

    epic = phrase(
        "one client's SubmitDecision p99 (127.0.0.1) while %(flood)s from ::1, against its p99 alone",
        flood=EPIC_FLOODS["list-games"][0],
    )
    assert "while eight connections calling ListGames without pause" in epic
    with speaking(lang):
        said = [told(FLOOD_MEASURE), told(epic)]
    for text in said:
        assert "while" not in text and "without pause" not in text, text
        assert lang != "ja" or JAPANESE.search(text), text


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_a_floods_counts_are_told_in_the_language_spoken(lang: str) -> None:
    """What a flood got back (tools/bench_load.py ``counted``): its words translated, the
    RPC's and the status code's names kept as typed."""
    from tools.bench_load import counted

    said = [counted("open calls answered", 1234), counted("watch RESOURCE_EXHAUSTED", 5)]
    assert said == ["open calls answered 1,234", "watch RESOURCE_EXHAUSTED 5"]
    with speaking(lang):
        told_here = [told(text) for text in said]
    assert "answered" not in told_here[0] and "1,234" in told_here[0], told_here
    assert "RESOURCE_EXHAUSTED 5" in told_here[1], told_here
    assert lang != "ja" or JAPANESE.search(told_here[0]), told_here
