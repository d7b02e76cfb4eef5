"""Every question and option label the engine can ask, in Spanish and Japanese: not only those
met in the seeded games.

The engine records its questions in English (``Ask(seat, prompt, options)``,
``Option(id, label)``, a card text's ``prompt=``/``label=``); :func:`projections.prompts.translate`
reads them when they are shown. This test reads the rules' source for every such text (a string,
an f-string, either branch of a conditional), fills an f-string's blanks with a value of the kind
its expression gives (a card's name, a number, a seat; :data:`SAMPLES` where the expression says
more), and asks each in both languages: nothing English may be left but names.
"""

from __future__ import annotations

import ast
import itertools
import re
from functools import cache
from pathlib import Path

import pytest

from projections.i18n import speaking
from projections.prompts import _names, translate
from tests.test_i18n_story import WORD, _short_names, _without_names
from tools import i18n as catalogs

DOMAIN = Path(__file__).resolve().parent.parent / "domain"
ASSIGNED = {"prompt", "question", "label", "text"}
"""Names a question or a label is kept in before it is asked (``prompt = f"..."``)."""

SAMPLES = {
    "table.dest_label(s, dest)": ["to your reserve", "(event)", "onto Minas Tirith", "on Aragorn"],
    "effect.describe()": ["2 cards matching its sphere", "1 card matching its type and cost"],
    "seen": ["Aragorn (hero, leadership, cost 12)", "Gandalf (ally, no sphere, cost 5)"],
    "scope": ["round", "phase"],
    "s.phase.title()": ["Resource", "Combat"],
    "extra": ["", " with Sting"],
    "base.label": ["Aragorn"],
    "action.label": ["ready a character"],
    "prompt": ["draw 2 cards?"],
    "label": ["Aragorn: Response", "ready a character"],
    "node": ["core-050.2"],  # a delayed effect's rule key, kept as it is
    "_KIND_NAMES[d[2]]": ["Response", "Forced effect"],
}
"""Values of a blank whose expression says what it holds (what the rules put there)."""

NUMBER = re.compile(r"attack\(|cost|threat|remaining|value|amount|count|round|^x$|^n$|epic_group|^g$")
SEAT = re.compile(r"\bowner\b|\bseat\b|^p$|^s\.first$|player")
CARD = re.compile(r"name|title|card|hero|enemy|uid|location|\bu\b")


def _texts(node: ast.expr, source: str) -> list[tuple[list[str], list[str]]]:
    """A text expression as (its literal pieces, the source of each blank between them): one
    for a string or an f-string, one for each branch of a conditional or an ``or``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [([node.value], [])]
    if isinstance(node, ast.JoinedStr):
        pieces, blanks = [""], []
        for value in node.values:
            if isinstance(value, ast.Constant):
                pieces[-1] += str(value.value)
            elif isinstance(value, ast.FormattedValue):
                blanks.append(ast.get_source_segment(source, value.value) or "")
                pieces.append("")
        return [(pieces, blanks)]
    if isinstance(node, ast.IfExp):
        return _texts(node.body, source) + _texts(node.orelse, source)
    if isinstance(node, ast.BoolOp):
        return [text for value in node.values for text in _texts(value, source)]
    if isinstance(node, ast.Lambda):
        return _texts(node.body, source)
    return []


@cache
def asked() -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """Every question and label the rules write: (where, literal pieces, blanks)."""
    found = []
    for path in sorted(p for part in ("kernel", "lcg", "wotr") for p in (DOMAIN / part).rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            exprs: list[ast.expr] = []
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in ("Ask", "Option") and len(node.args) >= 2:
                    exprs.append(node.args[1])
                exprs += [k.value for k in node.keywords if k.arg in ("prompt", "label")]
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in ASSIGNED for t in node.targets
            ):
                exprs.append(node.value)
            for expr in exprs:
                for pieces, blanks in _texts(expr, source):
                    where = f"{path.relative_to(DOMAIN.parent)}:{expr.lineno}"
                    found.append((where, tuple(pieces), tuple(blanks)))
    return tuple(found)


def _values(blank: str) -> list[str]:
    if blank in SAMPLES:
        return SAMPLES[blank]
    if NUMBER.search(blank):
        return ["2"]
    if SEAT.search(blank):
        return ["p1", "Aragorn"]
    if CARD.search(blank):
        return ["Aragorn", "p1"]
    return ["2", "Aragorn"]


def filled(pieces: tuple[str, ...], blanks: tuple[str, ...]) -> list[str]:
    """The texts a question may read as: each blank given each of its sample values (a few)."""
    combos = itertools.islice(itertools.product(*(_values(b) for b in blanks)), 16)
    return ["".join(p + (c[i] if i < len(c) else "") for i, p in enumerate(pieces)) for c in combos]


@cache
def _spanish_words() -> frozenset[str]:
    words: set[str] = set()
    for message in catalogs.read("es"):
        if message.id:
            for text in (message.string,) if isinstance(message.string, str) else message.string or ():
                words |= {w.lower() for w in WORD.findall(text or "")}
    return frozenset(words)


@cache
def _names_longest_first() -> list[str]:
    return sorted(_names(), key=len, reverse=True)


KEY = re.compile(r"[\w-]+\.[\w.-]+")
"""A rule's key (``core-050.2``, ``lcg.setup.mulligan``): written as it is in every language."""


def english_left(lang: str, english: str, told: str) -> list[str]:
    """The English words of ``english`` still in ``told``, its translation (names and rule
    keys aside)."""
    names = _names_longest_first()
    english, told = KEY.sub(" ", english), KEY.sub(" ", told)
    words = {w.lower() for w in WORD.findall(_without_names(english, names))} - {"p1", "x"}
    rest = WORD.findall(_without_names(told, names))
    if lang == "ja":
        return [w for w in rest if w.lower() in words and w not in _short_names()]
    return [w for w in rest if w.lower() in words - _spanish_words() and w not in _short_names()]


def test_the_rules_questions_are_found() -> None:
    found = {("".join(pieces), where.split(":")[0]) for where, pieces, _blanks in asked()}
    assert ("Keep your setup hand, or take a mulligan?", "domain/lcg/rules/setup.py") in found
    assert any(text == "Gandalf enters play: use his response?" for text, _ in found)
    assert any(text == "Play  " and where == "domain/wotr/rules/action.py" for text, where in found)
    assert len(asked()) > 150


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_every_question_and_label_the_rules_can_ask_is_translated(lang: str) -> None:
    untold = []
    for where, pieces, blanks in asked():
        texts = [t for t in filled(pieces, blanks) if t.strip()]
        with speaking(lang):
            told = [(text, translate(text)) for text in texts]
        if texts and all(english_left(lang, text, said) for text, said in told):
            untold.append((where, told[0][0], told[0][1]))
    assert not untold, f"{len(untold)} untranslated:\n" + "\n".join(map(str, untold))


def test_the_check_sees_an_untranslated_question() -> None:
    with speaking("es"):
        assert english_left("es", "Fly, you fools!", translate("Fly, you fools!")) == ["Fly", "you", "fools"]
        said = translate("Keep your setup hand, or take a mulligan?")
        assert not english_left("es", "Keep your setup hand, or take a mulligan?", said)
