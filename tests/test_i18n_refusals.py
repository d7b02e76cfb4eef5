"""Every refusal the rules engine (and the store, service/app.py) can raise, in Spanish and
Japanese: not only those met in the seeded games (issue 25).

The engine raises its refusals in English (a bad option, a decision that is not the seat's, a
setup it cannot make: :class:`~domain.kernel.decisions.RuleError` and its kinds,
:class:`~domain.kernel.ruleset.SetupError`); :func:`projections.prompts.error_text` reads them
when they are shown, as it reads a prompt. This test reads the rules' source for every such
``raise`` (a string, an f-string, either branch of a conditional), fills its blanks as
tests/test_i18n_prompts.py fills a question's, and asks each in both languages: nothing English
may be left but names.
"""

from __future__ import annotations

import ast
import itertools
import re
from functools import cache
from pathlib import Path

import pytest

from projections.i18n import speaking
from projections.prompts import error_text
from tests.test_i18n_prompts import _texts, _values, english_left

DOMAIN = Path(__file__).resolve().parent.parent / "domain"
STORE = DOMAIN.parent / "service" / "app.py"
"""The store's refusals of a command (a stale version, another command saved first) are said
to a person too."""
REFUSALS = {"RuleError", "NoDecisionPending", "UnknownDecision", "NotYourDecision", "IllegalChoice", "SetupError"}
"""The exceptions whose text is said to a person (domain/kernel/decisions.py, domain/kernel/ruleset.py)."""


def _refusal_texts(node: ast.AST) -> list[ast.expr]:
    """The text a node gives a refusal: the message of ``raise SetupError(...)`` (or of a
    RuleError), the reason of ``IllegalChoice(decision, choice, reason)``, and what a kind of
    RuleError says of itself (``super().__init__(...)`` in its class)."""
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
        call = node.exc
        func = call.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name == "IllegalChoice" and len(call.args) >= 3:
            return [call.args[2]]
        if name in REFUSALS and call.args:
            return [call.args[0]]
    if isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id in REFUSALS for b in node.bases):
        return [
            call.args[0]
            for call in ast.walk(node)
            if isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "__init__"
            and call.args
        ]
    return []


@cache
def refusals() -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """Every refusal the rules raise: (where, literal pieces, blanks)."""
    found = []
    for path in [*sorted(DOMAIN.rglob("*.py")), STORE]:
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            for expr in _refusal_texts(node):
                for pieces, blanks in _texts(expr, source):
                    found.append((f"{path.relative_to(DOMAIN.parent)}:{expr.lineno}", tuple(pieces), tuple(blanks)))
    return tuple(found)


SAMPLES = {
    "whose": ["a seat's", "a player's"],
    "players": ["2"],
    "player": ["1"],
    "least": ["30"],
    "len(names)": ["2"],
    "len(options.players)": ["3"],
}
"""Values of a blank whose expression says what it holds (the players' count is a number)."""

TYPED = re.compile(
    r"--[\w-]+|\[\[?[\w.]+\]\]?|<[^>]*>|'[^']*'|[\w/.-]+\.toml|\b\w+(?:_\w+)+\b"
    r"|(?<![A-Za-z])(?:first|position|shared|relays|attack|eliminated|engage|epic|stack|delayed|combat|paths|at"
    r"|uid|side|faction|type|quantity|icons|code|name|deck|true|false|TOML)(?![A-Za-z])"
)
"""What a refusal of a file quotes as it is typed in every language: a flag, a TOML table, a
zone's form (``<seat>.<hand>``), a quoted value, a file, a key of the position or bot-card file
(``first:``, ``side``) where the Japanese sentence names it."""


def filled(pieces: tuple[str, ...], blanks: tuple[str, ...]) -> list[str]:
    """The texts a refusal may read as: each blank given each of its sample values (a few)."""
    values = [SAMPLES.get(blank) or _values(blank) for blank in blanks]
    combos = itertools.islice(itertools.product(*values), 16)
    return ["".join(p + (c[i] if i < len(c) else "") for i, p in enumerate(pieces)) for c in combos]


def test_the_refusals_are_found() -> None:
    found = {"".join(pieces) for _where, pieces, _blanks in refusals()}
    assert len(refusals()) > 60, len(refusals())
    assert "no decision is pending" in found and "the game is over" in found
    assert "choose exactly one option" in found  # an IllegalChoice's reason
    assert any(text.startswith("decision ") and "is for seat" in text for text in found)
    assert any(where.startswith("service/app.py") for where, _pieces, _blanks in refusals())  # StaleVersion...


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_every_refusal_the_rules_can_raise_is_translated(lang: str) -> None:
    untold = []
    for where, pieces, blanks in refusals():
        texts = [t for t in filled(pieces, blanks) if t.strip()]
        with speaking(lang):
            told = [(text, TYPED.sub(" ", error_text(text))) for text in texts]
        if texts and all(english_left(lang, text, said) for text, said in told):
            untold.append((where, told[0][0], told[0][1]))
    assert not untold, f"{len(untold)} untranslated:\n" + "\n".join(map(str, untold))


def test_the_check_sees_an_untranslated_refusal_and_a_translated_one() -> None:
    english = "player 2 needs 3 to 3 heroes, got 4"
    with speaking("es"):
        assert english_left("es", "Fly, you fools!", error_text("Fly, you fools!")) == ["Fly", "you", "fools"]
        said = error_text(english)
    assert said == "el jugador 2 necesita de 3 a 3 héroes, recibió 4"
    with speaking("ja"):
        assert error_text("unknown zone p1.pocket; a player's zones are hand, deck") == (
            "不明なゾーンp1.pocket。プレイヤーのゾーンはhand, deck"
        )


@pytest.mark.parametrize("lang", ["es", "ja"])
@pytest.mark.parametrize(
    "lines",
    [
        # one problem: said in one line after the refusal's head
        "Aragorn\nGimli\nLegolas\n4x Guard of the Citadel\n",
        # two problems: the head, then each problem on its own line, each translated
        "Aragorn\nGimli\nLegolas\nGimli\n4x Guard of the Citadel\n",
    ],
)
def test_a_refused_deck_is_said_whole_in_the_language_spoken(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str, lines: str
) -> None:
    from tests.test_cli_newcomer import run

    deck = tmp_path / "bad.txt"
    deck.write_text(lines, encoding="utf-8")
    argv = ["new", "lcg", "--deck", str(deck), "--db", str(tmp_path / "g.db")]
    code, _, english = run(capsys, "--lang", "en", *argv)
    assert code == 2 and "is refused" in english and "copies of" in english
    code, _, told = run(capsys, "--lang", lang, *argv)
    assert code == 2 and told.startswith("westmarch: ") and told.count("\n") == english.count("\n")
    assert english_left(lang, english.removeprefix("westmarch: "), told.removeprefix("westmarch: ")) == []
