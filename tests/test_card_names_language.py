"""The terminal's ``?`` search in every language: a card's English name finds it in Japanese
(``?Aragorn``), and its Spanish name or its English one in Spanish."""

from __future__ import annotations

import uuid

from domain.game import Game
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from projections.i18n import speaking
from tools.games import KINDS
from tools.play import find_card, ordered, screen


def test_the_english_name_finds_a_card_in_every_language() -> None:
    game = Game.start(uuid.uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 1), 5))
    shown, view = screen("lcg"), KINDS["lcg"].view
    decision = game.state.pending
    assert decision is not None
    table, options = view(game.state, "p1"), ordered(decision)
    with speaking("en"):
        english = find_card(table, shown, "Aragorn", options)
    with speaking("ja"):
        japanese = find_card(table, shown, "Aragorn", options)
        axehand_ja = find_card(table, shown, "Veteran Axehand", options)
    with speaking("es"):
        spanish = find_card(table, shown, "aragorn", options)
        axehand_es = find_card(table, shown, "Soldado con Hacha Veterano", options)
        axehand_by_english = find_card(table, shown, "Veteran Axehand", options)
    assert english.startswith("Aragorn") and japanese.startswith("Aragorn") and spanish.startswith("Aragorn")
    assert japanese != english  # the card's text around the name is Japanese
    assert "Veteran Axehand" in axehand_ja
    assert axehand_es == axehand_by_english and "no card named" not in axehand_es
