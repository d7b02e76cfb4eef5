"""The command line in Spanish and Japanese: ``--help`` of every command, ``log`` and a refusal."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from service.app import Westmarch, store_env
from tests.test_i18n_story import WORD, _english_words
from tools.cli import main, parser

COMMANDS = [
    [],
    ["new", "lcg"],
    ["new", "wotr"],
    *[[name] for name in ("play", "serve", "log", "verify", "export", "games")],
]
OPTION_WORDS = re.compile(
    r"(?<![\w-])--?[\w-]+|\b[A-Z_]{2,}\w*|\{[^}]*\}|\S+\.(?:db|md|json|toml|o8d)|\w+://\S+|%\(\w+\)s"
)
"""What a help text quotes as it is typed: options, metavars, choices, file names, addresses."""


def _help(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    return capsys.readouterr().out


@cache
def _typed() -> frozenset[str]:
    """Words a help text quotes as typed or as names: commands, choices, argument names,
    scenario titles, card names (``new``, ``cycle``, ``game``, ``Passage through Mirkwood``)."""
    from domain.lcg.scenarios import SCENARIOS, load
    from projections.prompts import _names

    load()
    words: set[str] = {"westmarch", "lcg", "wotr", "grpc", "postgresql", "sqlite", "tls", "ringsdb", "octgn"}
    stack = [parser()]
    while stack:
        p = stack.pop()
        for action in p._actions:
            words |= {w.lower() for w in WORD.findall(f"{action.dest} {action.metavar or ''}")}
            choices = getattr(action, "choices", None) or ()
            words |= {w.lower() for choice in choices for w in WORD.findall(str(choice))}
            if isinstance(choices, dict):
                stack += list(choices.values())
    titles = [s.title for s in SCENARIOS.values()] + ["The Hunt for the Dreadnaught", "Against the Shadow"]
    for text in titles + list(_names()):
        words |= {w.lower() for w in WORD.findall(text)}
    return frozenset(words)


def _english(text: str) -> list[str]:
    english = _english_words() | {"usage", "options", "positional", "arguments", "show", "help", "message", "exit"}
    typed = OPTION_WORDS.sub(" ", text)
    found = {w.strip("'’") for w in WORD.findall(typed)}
    return sorted(w for w in found if w.lower() in english and w.lower() not in _typed())


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "westmarch")
def test_help_in_spanish_and_japanese(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    english = _help(capsys, [*command, "--help"])
    spanish = _help(capsys, ["--lang", "es", *command, "--help"])
    japanese = _help(capsys, ["--lang", "ja", *command, "--help"])
    assert english.startswith("usage: westmarch") and "options:" in english
    assert spanish.startswith("uso: westmarch") and "opciones:" in spanish
    assert japanese.startswith("使い方: westmarch") and "オプション:" in japanese
    assert not _english(spanish), _english(spanish)
    latin = [
        w
        for w in (w.strip("'’") for w in WORD.findall(OPTION_WORDS.sub(" ", japanese)))
        if w.lower() in _english_words() and w.lower() not in _typed()
    ]
    assert not latin, latin


def test_every_option_of_every_command_says_its_help_in_spanish() -> None:
    """Each argument's help is a catalog message: none is left English in any command."""
    from projections.i18n import speaking

    with speaking("es"):
        top = parser()
    seen = 0
    stack = [top]
    while stack:
        p = stack.pop()
        for action in p._actions:
            if action.help and action.help != "==SUPPRESS==":
                seen += 1
                left = _english(action.help)
                assert not left, f"{p.prog} {action.option_strings}: {action.help!r}"
            choices = getattr(action, "choices", None)
            if isinstance(choices, dict):
                stack += [c for c in choices.values() if c not in stack]
    assert seen > 100


def test_log_and_a_refusal_in_spanish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")
    assert main(["new", "lcg", "--seed", "4", "--db", db]) == 0
    capsys.readouterr()
    (game,) = Westmarch(store_env(db=db)).games()
    assert main(["--lang", "es", "log", str(game.id), "--db", db, "--brief"]) == 0
    told = capsys.readouterr().out
    assert "empieza una partida de Passage through Mirkwood" in told
    assert "¿Te quedas con tu mano inicial o haces mulligan?" in told
    assert main(["--lang", "fr", "log", str(game.id), "--db", db]) == 2
    assert "unknown language 'fr': choose from en, es, ja" in capsys.readouterr().err


def test_verify_and_the_log_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from domain.verify import Status, Verdict
    from projections.i18n import speaking
    from projections.verdicts import told

    db = str(tmp_path / "g.db")
    assert main(["new", "lcg", "--seed", "4", "--db", db]) == 0
    (game,) = Westmarch(store_env(db=db)).games()
    capsys.readouterr()
    assert main(["--lang", "ja", "verify", str(game.id), "--db", db]) == 0
    said = capsys.readouterr().out
    assert "正常: イベント" in said and "ハッシュチェーンは無傷" in said, said
    assert main(["--lang", "ja", "games", "--db", db]) == 0
    listed = capsys.readouterr().out
    assert "バージョン" in listed and "進行中" in listed and "プレイヤー: p1 Aragorn, Gimli, Legolas" in listed, listed
    assert main(["games", "--db", db]) == 0
    assert f"{game.id}  lcg   version      7  rules v" in capsys.readouterr().out
    assert main(["--lang", "ja", "log", str(game.id), "--db", db]) == 0
    told_log = capsys.readouterr().out
    assert "理由: lcg.setup" in told_log and "because" not in told_log
    broken = Verdict(Status.CHAIN_BROKEN, 9, 4, "the hash does not match the event's content and the chain")
    assert str(broken).startswith("FAILED at event 4: the hash chain is broken")
    with speaking("en"):
        assert told(broken) == str(broken)  # English is the engine's own words
    with speaking("es"):
        assert told(broken).startswith("FALLO en el evento 4: la cadena de hashes está rota: el hash no coincide")


def test_a_refusal_is_said_in_the_language_spoken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from domain.kernel.decisions import Decision, IllegalChoice, Kind, Option
    from projections.i18n import speaking
    from projections.prompts import error_text
    from service.rpc.server import status_of

    db = str(tmp_path / "g.db")
    assert main(["new", "lcg", "--seed", "4", "--db", db]) == 0
    (game,) = Westmarch(store_env(db=db)).games()
    capsys.readouterr()
    assert main(["--lang", "ja", "explain", str(game.id), "99", "--db", db]) == 2
    assert "westmarch: イベント99は範囲外: このゲームのイベントは1〜7" in capsys.readouterr().err
    asked = Decision(
        7,
        "p1",
        Kind.ONE,
        "Keep your setup hand, or take a mulligan?",
        "lcg.setup.mulligan",
        (Option("keep", "Keep this hand"),),
    )
    wrong = IllegalChoice(asked, ("zz",), "unknown option 'zz'")
    with speaking("es"):
        _code, message = status_of(wrong)
        assert message == "elección ilegal ['zz'] para la decisión 7 (lcg.setup.mulligan, one): opción desconocida 'zz'"
        assert error_text("a message no catalog knows") == "a message no catalog knows"
    assert status_of(wrong)[1] == str(wrong)  # English: the engine's own words


def test_the_decks_in_spanish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("Aragorn\nAragorn\nForest Spider\n", encoding="utf-8")
    assert main(["--lang", "es", "deck", "show", str(bad)]) == 1
    refused = capsys.readouterr().out
    assert "NO LEGAL (2 problemas)" in refused
    assert "Aragorn aparece dos veces entre los héroes; un héroe es único" in refused
    assert "Araña del Bosque es una carta de enemigo, no una carta de jugador" in refused  # the Spanish edition's name
    assert main(["--lang", "es", "decks"]) == 0
    listed = capsys.readouterr().out
    assert "30 cartas" in listed and "por defecto para p1" in listed and "juega uno con:" in listed
    assert main(["--lang", "es", "deck", "show", "leadership"]) == 0
    shown = capsys.readouterr().out
    assert "Héroes (3): Aragorn, Théodred, Glóin" in shown and "legal: 3 héroes, 30 cartas" in shown
    assert main(["decks"]) == 0
    assert "30 cards" in capsys.readouterr().out
