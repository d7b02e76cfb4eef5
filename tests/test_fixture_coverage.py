"""Every card text is shown acting in a fixture.

A card's text "acts" in a fixture when an event of the fixture is caused by one of the
card's programs (its rule reference starts with the card's code) or names the card as
its cause. Texts that only change how the rules compute (Gimli's attack, Enchanted
Stream's ban on drawing, Beorn's Path's condition) cause no event of their own; for
those a fixture must name the card in its title or source and be about it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tools.fixtures import Result, fixture_files, load, run_file

FIXTURES = Path(__file__).parent / "fixtures"

SHOWN_ELSEWHERE = {
    "core-119": "its Setup text runs before any fixture can start: tests/test_lcg_setup.py shows it",
    "aragorn-060": "Mirror of Galadriel only changes what its owner may see: tests/test_wotr_views.py shows it",
}
"""Texts a fixture cannot show, with the test that does."""


@cache
def results(game: str) -> tuple[tuple[Result, str], ...]:
    out = []
    for path in fixture_files([FIXTURES / game]):
        data = load(path)
        about = f"{data.get('name', '')} {data.get('source', '')}".casefold()
        out.append((run_file(path), about))
    return tuple(out)


def _acts(game: str, code: str, prefix: str, name: str) -> bool:
    for result, about in results(game):
        if code in result.cards or any(rule.startswith(prefix) for rule in result.rules):
            return True
        if name.casefold() in about:
            return True
    return False


def test_every_lcg_card_text_acts_in_a_fixture() -> None:
    from domain.lcg.cards import CARDS, TEXTS, load_texts

    load_texts()
    missing = [
        f"{code} {CARDS[code].name}"
        for code in TEXTS
        if code not in SHOWN_ELSEWHERE and not _acts("lcg", code, f"{code}.", CARDS[code].name)
    ]
    assert not missing, f"card texts no fixture shows acting: {missing}"
    assert len(TEXTS) >= 40


def test_every_card_of_the_hunt_for_the_dreadnaught_is_shown_in_a_fixture() -> None:
    """Each of the 47 cards: its text acts in a fixture, or (a text that only changes how the
    rules compute: Cobas Haven's Boarding, Corsair Warship's Archery) a fixture is about it.
    The ships' Setup texts and the contract's deck restriction act before a fixture can start:
    tests/test_hunt_for_the_dreadnaught.py shows them."""
    from domain.lcg.cards import CARDS, load_texts

    load_texts()
    pack = [code for code in CARDS if code.startswith("thftd-")]
    assert len(pack) == 47
    missing = [f"{code} {CARDS[code].name}" for code in pack if not _acts("lcg", code, f"{code}.", CARDS[code].name)]
    assert not missing, f"cards of The Hunt for the Dreadnaught no fixture shows: {missing}"


@pytest.mark.parametrize("scenario", ["journey-along-the-anduin", "escape-from-dol-guldur"])
def test_every_card_of_the_new_core_scenarios_acts_in_a_fixture(scenario: str) -> None:
    """Every encounter card (keyword-only cards too: their Doomed or Surge names them as the
    cause) and every quest card of the scenario, and the Orc Guards of Escape from Dol Guldur.
    The stage 1 texts that run at setup (1A Setup, 1B When Revealed: the prisoner, the Hill
    Troll) are shown by tests/test_lcg_scenario_setup.py; their other texts by fixtures."""
    from domain.lcg.cards import CARDS, load_texts
    from domain.lcg.scenarios import scenario as find

    load_texts()
    chosen = find(scenario)
    codes = [c.code for c in CARDS.values() if c.encounter_set in chosen.encounter_sets] + ["orc-guard"]
    missing = [f"{code} {CARDS[code].name}" for code in codes if not _acts("lcg", code, f"{code}.", CARDS[code].name)]
    assert not missing, f"cards of {scenario} no fixture shows acting: {missing}"


def test_every_player_card_with_text_has_its_text() -> None:
    """The whole player pool: a hero, ally or attachment whose card has text beyond its
    keywords has that text implemented (and so, by the test above, shown acting)."""
    from domain.lcg.cards import CARDS, TEXTS, load_texts

    load_texts()
    pool = [c for c in CARDS.values() if c.sphere is not None]
    missing = [f"{c.code} {c.name}" for c in pool if c.text and c.code not in TEXTS]
    assert not missing, f"player cards whose text does nothing: {missing}"
    assert {c.type for c in pool} >= {"hero", "ally", "attachment"}
    assert len([c for c in pool if c.type == "attachment"]) == 13


def test_every_lcg_player_event_has_its_text() -> None:
    from domain.lcg.cards import CARDS, TEXTS, load_texts

    load_texts()
    events = [code for code, c in CARDS.items() if c.type == "event"]
    assert len(events) == 28, "the Core Set has 28 player events"
    missing = [f"{code} {CARDS[code].name}" for code in events if code not in TEXTS]
    assert not missing, f"events without a text: {missing}"


def test_every_war_of_the_ring_text_acts_in_a_fixture() -> None:
    from domain.wotr.cards import CARDS, LOCATIONS, TEXTS, load_texts

    load_texts()
    with_text = {code: c.name for code, c in CARDS.items() if c.text and c.text != "No game text."} | {
        code: loc.name for code, loc in LOCATIONS.items() if loc.text
    }
    missing = [
        f"{code} {name}"
        for code, name in with_text.items()
        if code not in SHOWN_ELSEWHERE and not _acts("wotr", code, f"wotr.{code}.", name)
    ]
    assert not missing, f"card or location texts no fixture shows acting: {missing}"
    assert set(TEXTS) <= set(with_text) | set(CARDS), "a text is registered for an unknown card"


@pytest.mark.parametrize("game", ["lcg", "wotr"])
def test_every_fixture_passes_and_shows_something(game: str) -> None:
    for result, _ in results(game):
        assert result.passed, f"{result.path}: {result.failures}"
        assert result.rules, f"{result.path}: no event happened"
