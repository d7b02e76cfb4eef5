"""A whole seeded game of each game told in Spanish and in Japanese: no English left.

The story of a game (``westmarch log``, gRPC's ``Event.text``) is told from the events, which
are the same in every language: the questions and their options too are read from the
English the engine recorded. Card names, seat names and scenario titles are names (there
is no Japanese edition of the LCG; the Spanish names are the published ones where the
catalog of names has them): everything else must be in the language asked for.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import Callable
from functools import cache
from typing import Any

import msgspec
import pytest

from domain.kernel.events import Event
from domain.kernel.ruleset import Ruleset
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import scenario as lcg_scenario
from domain.wotr.ruleset import WOTR
from domain.wotr.scenarios import scenario as wotr_scenario
from projections.i18n import card_names, speaking
from projections.prompts import _names
from projections.story import story
from tests.test_story import lcg_game, wotr_game
from tools import i18n as catalogs

WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’-]+")
"""A word in Latin letters (Spanish's accents too; not Japanese)."""


@cache
def _english_words() -> frozenset[str]:
    """Words of the English messages that no Spanish translation uses (``the``, ``draws``,
    ``card``; not ``no`` or ``Indestructible``, which are Spanish as well)."""
    english: set[str] = set()
    for message in catalogs.template():
        ids = (message.id,) if isinstance(message.id, str) else message.id
        for text in ids:
            english |= {w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)[sd]", " ", text))}
    spanish: set[str] = set()
    from domain.lcg.scenarios import SCENARIOS, load

    load()
    titles = {sc.title for sc in SCENARIOS.values()} | {"The Hunt for the Dreadnaught", "Against the Shadow"}
    names = sorted(set(_names()) | titles, key=len, reverse=True)
    for message in catalogs.read("es"):
        if not message.id:
            continue
        strings = (message.string,) if isinstance(message.string, str) else message.string or ()
        for text in strings:
            text = _without_names(re.sub(r"%\(\w+\)[sd]", " ", text or ""), names)
            spanish |= {w.lower() for w in WORD.findall(text)}
    return frozenset(w for w in english - spanish if len(w) >= 3)


@cache
def _short_names() -> frozenset[str]:
    """The first names a card's text calls its character by (``cycle Sam``, ``eliminate Fatty``)."""
    return frozenset(
        first for name in _names() if (first := name.split()[0]).istitle() and first not in ("The", "A", "An")
    )


def _without_names(line: str, names: list[str]) -> str:
    for name in names:
        line = line.replace(name, " □ ")
    return line


def _names_of(rules: Any, events: Any, lang: str) -> list[str]:
    created = msgspec.to_builtins(events[0])
    options = created.get("options") or {}
    seats = list(created.get("seats") or ()) + [str(d.get("seat")) for d in options.get("decks") or ()]
    titles = []
    for lookup in (lcg_scenario, wotr_scenario):
        with contextlib.suppress(KeyError):
            titles.append(lookup(str(options.get("scenario", ""))).title)
    titles.append("Against the Shadow")  # the bots' rulebook, by its title
    names = set(_names()) | set(card_names(lang).values()) | set(titles) | set(seats)
    names |= {name.split(", ")[0] for name in names}  # "Death! Ride", as a text calls "Death! Ride, Ride to Ruin"
    return sorted((n for n in names if n), key=len, reverse=True)


def _told(rules: Any, events: Any, lang: str) -> list[str]:
    with speaking(lang):
        return [line for _event, line in story(rules, events)]


@cache
def _bots_game() -> tuple[Event, ...]:
    """Against the Shadow: the Shadow seats played by the rules' bots, who say why they act."""
    from domain.game import Game
    from domain.wotr.options import wotr_options
    from tests.test_story import play

    created = WOTR.created(wotr_options("trilogy", bots=("witch-king", "saruman")), 4)
    return tuple(play(Game.start(uuid.uuid4(), WOTR, created), 4))


GAMES: dict[str, Callable[[], tuple[Ruleset[Any], tuple[Event, ...]]]] = {
    "wotr-bots": lambda: (WOTR, _bots_game()),
    "lcg": lambda: (LCG, lcg_game(3, 2)),
    "lcg-solo": lambda: (LCG, lcg_game(5, 1)),
    "lcg-hunt": lambda: (LCG, lcg_game(2, 2, "hunt-for-the-dreadnaught")),
    "lcg-mountain": lambda: (LCG, lcg_game(2, 2, "the-lonely-mountain")),
    "wotr": lambda: (WOTR, wotr_game(3, "trilogy")),
    "wotr-duel": lambda: (WOTR, wotr_game(2, "two-player-duel")),
    "wotr-fellowship": lambda: (WOTR, wotr_game(3, "fellowship")),
    "wotr-three": lambda: (WOTR, wotr_game(4, "three-player-duel")),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_in_japanese_has_no_english_word_but_names(game: str) -> None:
    rules, events = GAMES[game]()
    names = _names_of(rules, events, "ja")
    left = []
    for line in _told(rules, events, "ja"):
        rest = _without_names(line, names)
        words = [w for w in WORD.findall(rest) if w not in ("X", "LCG") and w not in _short_names()]
        if words:
            left.append((line, words))
    assert not left, f"{len(left)} lines keep English: {left[:8]}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_in_spanish_has_no_english_word_but_names(game: str) -> None:
    rules, events = GAMES[game]()
    names = _names_of(rules, events, "es")
    english = _english_words()
    left = []
    for line in _told(rules, events, "es"):
        rest = _without_names(line, names)
        words = [w for w in WORD.findall(rest) if w.lower() in english and w not in _short_names()]
        if words:
            left.append((line, words))
    assert not left, f"{len(left)} lines keep English: {left[:8]}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_english_story_is_the_same_told_three_times(game: str) -> None:
    """The language is only how the events are read: English after Spanish and Japanese
    reads word for word as it did before."""
    rules, events = GAMES[game]()
    before = _told(rules, events, "en")
    _told(rules, events, "es")
    _told(rules, events, "ja")
    assert _told(rules, events, "en") == before


def test_the_checks_see_english_where_there_is_some() -> None:
    """The word lists above catch an English sentence: a story left untranslated fails."""
    rules, events = GAMES["lcg"]()
    english = _english_words()
    told = _told(rules, events, "en")[:40]
    names = _names_of(rules, events, "es")
    assert any(w.lower() in english for line in told for w in WORD.findall(_without_names(line, names)))
    assert {"the", "draws", "chooses"} <= english


@pytest.mark.parametrize("game", ["lcg", "wotr"])
def test_explain_and_its_arithmetic_in_japanese_and_spanish(game: str) -> None:
    """``explain`` of every tenth event of a whole game: the sentences, the choices and the
    numbers' working in the language asked for (the rule reference in brackets, a rulebook's
    section by its English title, is a citation and stays as cited)."""
    from projections.explain import explain, lines

    rules, events = GAMES[game]()
    worked = 0
    for lang in ("ja", "es"):
        names = _names_of(rules, events, lang)
        english = _english_words()
        left = []
        for seq in range(10, len(events) + 1, 10):
            with speaking(lang):
                told = lines(explain(rules, events, seq, depth=3))
            worked += sum(line.lstrip().startswith("=") for line in told)
            for line in told:
                rest = _without_names(re.sub(r"\s+\[[^\]]*\]$", "", line), names)
                words = [w.strip("'’") for w in WORD.findall(rest)]
                if lang == "ja":
                    bad = [w for w in words if w not in ("X", "LCG") and w not in _short_names()]
                else:
                    bad = [w for w in words if w.lower() in english and w not in _short_names()]
                if bad:
                    left.append((line, bad))
        assert not left, f"{lang}: {len(left)} lines keep English: {left[:6]}"
    assert worked > 5  # the arithmetic was there to be told


@pytest.mark.parametrize("game", ["lcg", "wotr"])
def test_a_seats_feed_in_spanish_has_no_english_word_but_names(game: str) -> None:
    """What one seat is told (the cards hidden from it counted, never named), in Spanish."""
    from projections.feed import Feed

    rules, events = GAMES[game]()
    names = _names_of(rules, events, "es")
    english = _english_words()
    seat = "p2" if game == "lcg" else "witch-king"
    with speaking("es"):
        told = [p.text for p in Feed(rules, seat, rules.new_state()).project_many(list(events))]
    left = []
    for line in told:
        words = [w for w in WORD.findall(_without_names(line, names)) if w.lower() in english]
        if [w for w in words if w not in _short_names()]:
            left.append((line, words))
    assert any("una carta" in line or "cartas" in line for line in told)
    assert not left, f"{len(left)} lines keep English: {left[:8]}"


@pytest.mark.parametrize(
    ("lang", "run"),
    [
        ("en", r"^13 cards are put at the bottom of the Corsair deck$"),
        ("es", r"^13 cartas se ponen debajo de .+$"),
        ("ja", r"^カード13枚が.+の一番下に置かれる$"),
    ],
)
def test_a_run_of_the_same_line_is_told_once_in_every_language(lang: str, run: str) -> None:
    """The Dreadnaught's Corsair deck is built card by card, thirteen events: every feed tells
    the run as one line (``Event.run_text``) in the language spoken, as it does in English."""
    from projections.feed import Feed
    from projections.story import collapse

    rules, events = GAMES["lcg-hunt"]()
    with speaking(lang):
        projected = Feed(rules, "p1", rules.new_state()).project_many(list(events))
        runs = [p.run_text for p in projected if p.run_text]
        assert any(re.match(run, told) for told in runs), runs[:10]
        lines = [p.text for p in projected]
        assert len(collapse(lines)) <= len(lines) - 12  # the terminal's timeline too


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_lines_of_different_deeds_or_of_seats_are_not_joined(lang: str) -> None:
    from projections.i18n import say
    from projections.story import collapse

    with speaking(lang):
        destroyed = [say("%(card)s is destroyed", card=name) for name in ("Aragorn", "Gimli")]
        explored = say("%(card)s is explored and goes to the victory display", card="Gimli")
        drawn = [say("%(seat)s must decide %(what)s", seat=seat, what="x") for seat in ("p1", "p2")]
        told = collapse([*destroyed, explored, *drawn])
        assert told[1:] == [explored, *drawn], told
        assert (
            told[0]
            == say("%(items)s and %(last)s", items="Aragorn", last="Gimli")
            + {
                "es": " son destruidos",
                "ja": "が破壊される",
            }[lang]
        )
