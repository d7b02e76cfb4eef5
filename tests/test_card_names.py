"""Card names in other languages: the Spanish names of the LCG Core Set
(``projections/locale/es/card_names.toml``, from Hall of Beorn where it has them), none in
Japanese, and the ``?`` search of the terminal table, which finds a card by any of its names."""

from __future__ import annotations

import tomllib
import uuid
from pathlib import Path
from typing import Any

from domain.game import Game
from domain.kernel.decisions import Option
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from projections import card_names
from tools.games import KINDS
from tools.play import Screen, find_card, ordered, screen

CARDS = Path(__file__).parent.parent / "domain" / "lcg" / "cards"
HALL_OF_BEORN = {
    "Brok Ironfist": "Brok Puñohierro",
    "Dungeon Torch": "Antorcha de la Mazmorra",
    "Erebor Hammersmith": "Herrero de Erebor",
    "Forest Spider": "Araña del Bosque",
    "Guard of the Citadel": "Guardia de La Ciudadela",
    "Horseback Archer": "Arquero a Caballo",
    "Longbeard Orc Slayer": "Mataorcos de Barba Larga",
    "Miner of the Iron Hills": "Minero de las Colinas de Hierro",
    "Silverlode Archer": "Arquero del Cauce de Plata",
    "Veteran Axehand": "Soldado con Hacha Veterano",
}
"""The Core Set's titles in Hall of Beorn's SpanishTranslation.cs (the file's header cites it)."""


def core_set_traits() -> set[str]:
    """Every trait printed on the project's Core Set cards."""
    found: set[str] = set()
    for path in sorted(CARDS.glob("core_set*.toml")):
        with path.open("rb") as handle:
            for value in tomllib.load(handle).values():
                for card in value if isinstance(value, list) else []:
                    found.update(card.get("traits", []))
    return found


def core_set_names() -> set[str]:
    """Every name of the project's Core Set cards (a quest's first side's too)."""
    found: set[str] = set()
    for path in sorted(CARDS.glob("core_set*.toml")):
        with path.open("rb") as handle:
            for value in tomllib.load(handle).values():
                for card in value if isinstance(value, list) else []:
                    found.update(card[key] for key in ("name", "name_a") if key in card)
    return found


def test_the_spanish_names_cover_the_whole_core_set() -> None:
    spanish = card_names.names("es")
    core = core_set_names()
    assert len(core) >= 128
    assert set(spanish) == core, (sorted(core - set(spanish)), sorted(set(spanish) - core))
    assert all(name.strip() == name and name for name in spanish.values())
    assert {k: v for k, v in spanish.items() if k != v} == HALL_OF_BEORN
    header = (card_names.LOCALE_DIR / "es" / "card_names.toml").read_text().split("[names]")[0]
    assert "Hall of Beorn" in header and "SpanishTranslation.cs" in header
    assert "keeps its English name" in header and "War of the Ring" in header


def test_the_spanish_traits_cover_the_core_set() -> None:
    spanish = card_names.traits("es")
    assert set(spanish) == core_set_traits()
    assert spanish["Warrior"] == "Guerrero" and spanish["Ranger"] == "Montaraz" and spanish["Gondor"] == "Góndor"
    assert spanish["Noble"] == "Noble"  # no public source: the English word
    assert card_names.traits("ja") == {}


def test_japanese_keeps_the_english_names() -> None:
    assert card_names.names("ja") == {}
    assert "no Japanese edition" in (card_names.LOCALE_DIR / "ja" / "card_names.toml").read_text()


def test_a_card_is_known_by_each_of_its_names() -> None:
    assert card_names.is_named("Guard of the Citadel", "guardia de la ciudadela")
    assert card_names.is_named("Guardia de La Ciudadela", "Guard of the Citadel")
    assert card_names.name_starts("Guard of the Citadel", "Guardia")
    assert card_names.name_starts("Silverlode Archer", "arquero del")
    assert card_names.is_named("Aragorn", "ARAGORN") and not card_names.is_named("Aragorn", "Arag")
    assert not card_names.name_starts("Aragorn", "Guardia")
    assert card_names.known_as("Some Card Nobody Named") == {"some card nobody named"}


def _mirkwood_table() -> tuple[Any, Screen, list[Option]]:
    """p1's table at a Passage through Mirkwood game's first decision, as the terminal shows it."""
    game = Game.start(uuid.uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 1), 5))
    decision = game.state.pending
    assert decision is not None
    return KINDS["lcg"].view(game.state, "p1"), screen("lcg"), ordered(decision)


def test_the_terminal_finds_a_card_by_its_english_or_its_spanish_name() -> None:
    """``?Aragorn``, ``?soldado`` (Veteran Axehand, in hand), ``?guardia`` and ``?Guard of
    the Citadel`` (not in play: as printed) at a Passage through Mirkwood table."""
    table, shown, options = _mirkwood_table()
    in_play = {c.name for c in shown.cards(table)}
    assert "Aragorn" in in_play
    assert find_card(table, shown, "Aragorn", options).startswith("Aragorn")
    assert find_card(table, shown, "aragorn", options) == find_card(table, shown, "Aragorn", options)
    # a card in sight (in hand) by its Spanish name, whole or begun
    assert "Veteran Axehand" in in_play
    axehand = find_card(table, shown, "Veteran Axehand", options)
    assert axehand.startswith("Veteran Axehand")
    assert find_card(table, shown, "Soldado con Hacha Veterano", options) == axehand
    assert find_card(table, shown, "soldado", options) == axehand
    # a card not in sight, as printed, by either name
    assert "Guard of the Citadel" not in in_play
    by_spanish = find_card(table, shown, "guardia", options)
    assert by_spanish.startswith("no Guard of the Citadel is in sight; as printed:\nGuard of the Citadel")
    assert find_card(table, shown, "Guardia de La Ciudadela", options) == by_spanish
    assert find_card(table, shown, "Guard of the Citadel", options) == by_spanish
    spider = find_card(table, shown, "Araña del Bosque", options)
    assert "Forest Spider" in spider and spider == find_card(table, shown, "Forest Spider", options)


def test_the_terminal_answers_a_look_in_the_language_spoken() -> None:
    """What ``?`` answers when there is no such option or card is said in Spanish at a Spanish
    table, the cards by the edition's names, as the rest of the table is."""
    from projections.i18n import speaking

    table, shown, options = _mirkwood_table()
    with speaking("es"):
        assert find_card(table, shown, "9", options) == f"no hay opción 9: escribe un número de 1 a {len(options)}"
        assert find_card(table, shown, "Boromir", options) == (
            "no hay ninguna carta llamada 'Boromir' a la vista, ni entre las cartas de esta partida"
        )
        assert find_card(table, shown, "guardia", options).startswith(
            "Guardia de La Ciudadela no está a la vista; tal como está impresa:\n"
        )
