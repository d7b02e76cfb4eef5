"""The terminal table in Spanish (and Japanese), through a real pseudo-terminal.

``westmarch --lang es play`` shows the table, the story since the seat's last decision, the
question and its options, the help and its complaints about a wrong key in Spanish; the
language may come from ``WESTMARCH_LANG`` or ``LANG`` instead. Card names and card texts
are the cards' own (printed in English; the Spanish names where the catalog of names has
them): everything else on the screen is in the language asked for.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.lcg.cards import CARDS
from domain.lcg.scenarios import SCENARIOS, load
from projections.i18n import card_names
from service.app import Westmarch, store_env
from tests.terminal_support import OPTION, Terminal
from tests.test_i18n_story import WORD, _english_words, _short_names
from tools.cli import main

SPANISH_ASK = re.compile(r"^(\S+): (.*) \(([^()]*(?:\([^()]*\))?[^()]*)\)$", re.MULTILINE)


def _new_game(db: str) -> str:
    assert main(["new", "lcg", "--seed", "3", "--db", db]) == 0
    (game,) = Westmarch(store_env(db=db)).games()
    return str(game.id)


def _answer(screen: str) -> str:
    """A quick player's answer to the last question on a Spanish screen."""
    asked = list(SPANISH_ASK.finditer(screen))
    assert asked, f"no question on the screen:\n{screen[-1500:]}"
    shape = asked[-1].group(3)
    found = OPTION.findall(screen[asked[-1].end() :])
    if "pulsa Intro para ninguna" in shape:
        return ""
    if shape.startswith("ordena todas"):
        return ",".join(n for n, _ in found)
    number = re.match(r"un número de (\d+) a", shape)
    if number:
        return number.group(1)
    many = re.match(r"elige (\d+), separadas", shape)
    if many:
        return ",".join(n for n, _ in found[: int(many.group(1))])
    return str(found[-1][0])


def _english_left(screen: str) -> list[str]:
    """Words of English messages on the screen, once the cards' own words (and the scenarios'
    titles) are taken out."""
    load()
    texts = sorted(
        {t for c in CARDS.values() for t in (c.text, c.name, getattr(c, "name_a", "") or "") if t}
        | set(card_names("es").values())
        | {sc.title for sc in SCENARIOS.values()},  # a scenario's title is a name, kept as it is
        key=len,
        reverse=True,
    )
    for text in texts:
        screen = screen.replace(text, " ")
    english = _english_words()
    seats = {"referee", "spectator"}  # names of seats, as p1 is
    return sorted({w for w in WORD.findall(screen) if w.lower() in english and w not in _short_names() | seats})


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


def test_the_terminal_table_in_spanish(db: str) -> None:
    game = _new_game(db)
    term = Terminal(["--lang", "es", "play", game, "--db", db, "--auto-pass"])
    screens = []
    try:
        first = term.read()
        screens.append(first)
        assert "Zona de preparación (amenaza" in first and "Mazo de Encuentros" in first, first[-2000:]
        assert re.search(r"Ronda \d+ - fase de preparación - versión \d+ - visto como p1", first)
        assert "Staging area" not in first and "Encounter deck" not in first
        helped = term.type("h")
        assert "Responde con los números de las opciones" in helped
        wrong = term.type("zz")
        assert "no es una opción" in wrong and "h para ayuda" in wrong, wrong
        screens.append(term.type(_answer(first)))
        for _ in range(40):
            if term.ended:
                break
            screens.append(term.type(_answer(term.seen[-20000:])))
        told = "\n".join(screens)
        assert "Desde tu última decisión:" in told
        assert "elige" in told
    finally:
        term.close()
    left = _english_left(told)
    assert not left, f"English words on the Spanish screens: {left}"


def test_the_language_comes_from_the_environment(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _new_game(db)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.delenv("WESTMARCH_LANG", raising=False)
    term = Terminal(["play", game, "--db", db, "--auto-pass"])
    try:
        first = term.read()
        assert "ステージングエリア（脅威" in first and "ラウンド0 - セットアップフェイズ" in first, first[-1500:]
    finally:
        term.close()
    monkeypatch.setenv("WESTMARCH_LANG", "es")
    term = Terminal(["play", game, "--db", db, "--auto-pass"])
    try:
        assert "Zona de preparación" in term.read()  # WESTMARCH_LANG before LANG
    finally:
        term.close()
    term = Terminal(["--lang", "en", "play", game, "--db", db, "--auto-pass"])
    try:
        assert "Staging area" in term.read()  # --lang before both
    finally:
        term.close()


JAPANESE_ASK = re.compile(r"^(\S+): (.*) \(([^()]*)\)$", re.MULTILINE)


def _latin_left(screen: str) -> list[str]:
    """Latin words left on a Japanese screen once the cards' and seats' own words are out."""
    from domain.wotr.cards import CARDS as WOTR_CARDS
    from domain.wotr.cards import LOCATIONS
    from domain.wotr.scenarios import scenario

    texts = {t for c in WOTR_CARDS.values() for t in (c.text, c.name) if t} | {loc.name for loc in LOCATIONS.values()}
    texts |= {loc.text for loc in LOCATIONS.values() if getattr(loc, "text", "")}
    texts.add(scenario("trilogy").title)
    for text in sorted(texts, key=len, reverse=True):
        screen = screen.replace(text, " ")
    seats = {"frodo", "aragorn", "witch-king", "saruman", "referee", "spectator", "VP"}
    return sorted({w for w in WORD.findall(screen) if w not in seats and w not in _short_names()})


def test_the_war_of_the_ring_table_in_japanese(db: str) -> None:
    assert main(["new", "wotr", "--scenario", "trilogy", "--seed", "5", "--db", db]) == 0
    (game,) = Westmarch(store_env(db=db)).games()
    term = Terminal(["--lang", "ja", "play", str(game.id), "--db", db])
    screens = []
    try:
        screens.append(term.read())
        assert "ラウンド" in screens[0] and "得点:" in screens[0], screens[0][-1500:]
        for _ in range(12):
            if term.ended:
                break
            asked = list(JAPANESE_ASK.finditer(term.seen[-20000:]))
            found = OPTION.findall(term.seen[-20000:][asked[-1].end() :]) if asked else []
            shape = asked[-1].group(3) if asked else ""
            if "カンマ区切り" in shape:  # choose so many: the first ones
                count = re.search(r"(\d+)", shape)
                answer = ",".join(n for n, _ in found[: int(count.group(1)) if count else 1])
            else:
                answer = str(found[-1][0]) if found else "1"
            screens.append(term.type(answer))
    finally:
        term.close()
    told = "\n".join(screens)
    left = _latin_left(told)
    assert not left, f"Latin words on the Japanese screens: {left}"


def test_a_cards_whole_text_in_spanish_and_japanese() -> None:
    """``? NAME``: the card's face in the language spoken; its printed text stays the card's own."""
    from projections.i18n import speaking
    from tools.render_lcg import card_text, printed

    axe = printed("Veteran Axe")[0]
    with speaking("en"):
        assert card_text(axe).splitlines()[:3] == [
            "Veteran Axehand - tactics ally",
            "  cost 2, WP 0, ATK 2, DEF 1, HP 2",
            "  Traits: Dwarf. Warrior.",
        ]
    with speaking("es"):
        told = card_text(axe)
        assert told.startswith("Soldado con Hacha Veterano - aliado de táctica\n  coste 2, FV 0, ATQ 2, DEF 1, PI 2")
        assert "Texto: (sin texto)" in told
    with speaking("ja"):
        assert card_text(axe).startswith("Veteran Axehand - 戦術の味方")
