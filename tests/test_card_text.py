"""Card text reads as the printed card does, in both games.

The text a person is shown of a card (the terminal's ``? N``, the view every client reads)
is the card's printed text in its own order: its keywords, then each ability under the
trigger word the printed cards use ("Forced:", "Response:", "Action:", "When Revealed:",
"Shadow:", ...). Annotations a data source added (``[PASSIVE]``, ``[RESPONSE] Trigger: ...
Effect: ...``) and notes about the sources ("Neither source prints a trigger word...") are no
part of it: the readings the engine chose live beside the card's code and in the ruleset's
notes (``domain/lcg/open_questions.md``), not on the table.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator

import pytest

from domain.lcg.cards import CARDS as LCG_CARDS
from domain.lcg.cards import load_texts
from domain.lcg.rules import table
from domain.wotr.cards import CARDS as WOTR_CARDS
from domain.wotr.cards import LOCATIONS
from projections.lcg import view
from tools.fixtures import Run

TAG = re.compile(r"\[[A-Z][A-Z ]*\]")
"""An annotation tag: ``[PASSIVE]``, ``[QUEST ACTION]``."""
ANNOTATION = re.compile(r"\b(Trigger|Effect|Cost|Keywords):")
"""The annotation form's parts, which no printed card writes."""
SOURCE_NOTE = re.compile(
    r"\b(sources?|DragnCards|Hall of Beorn|RingsDB|inference|inferred|interpretation|"
    r"card shows|prints?|printed \*|the list|the sheet|FAQ|rulebook)\b",
    re.IGNORECASE,
)
"""Words that speak about where a text comes from rather than what the card says."""
TRIGGERS = (
    "Forced",
    "Response",
    "Action",
    "Quest Action",
    "Combat Action",
    "Planning Action",
    "When Revealed",
    "Shadow",
    "Travel",
    "Setup",
    "Burgle",
)


def shown_texts() -> Iterator[tuple[str, str]]:
    """Every card text either game shows a person: (where, text)."""
    load_texts()
    for code, d in LCG_CARDS.items():
        for side, text in (("", d.text), (" side A", d.text_a), (" side B", d.text_b)):
            if text:
                yield f"lcg {code} {d.name}{side}", text
    for code, text in table.SIDE_B_TEXTS.items():
        yield f"lcg {code} {LCG_CARDS[code].name} side B", text
    for code, w in WOTR_CARDS.items():
        if w.text:
            yield f"wotr {code} {w.name}", w.text
    for code, where in LOCATIONS.items():
        if where.text:
            yield f"wotr {code} {where.name}", where.text


def faults(text: str) -> list[str]:
    found = [m.group(0) for pattern in (TAG, ANNOTATION, SOURCE_NOTE) for m in pattern.finditer(text)]
    return found


def test_no_card_text_carries_an_annotation_tag_or_a_note_about_its_sources() -> None:
    texts = list(shown_texts())
    assert len(texts) > 250
    bad = [f"{where}: {found}" for where, text in texts if (found := faults(text))]
    assert not bad, f"{len(bad)} card texts, e.g. {bad[:8]}"


@pytest.mark.parametrize(
    "text",
    [
        "[PASSIVE] Your heroes: +1 WP each.",
        "Keywords: Surge. [FORCED] Trigger: a location is revealed. Effect: 1 progress.",
        "Your threat -3. (Neither source prints a trigger word on this line; 'Setup' is an inference.)",
        "Travel: look at the top card (DragnCards: revealed; Hall of Beorn: looked at).",
        "Action: play an ally (the gain is the timing, which is an interpretation).",
    ],
)
def test_the_scan_catches_what_the_old_card_data_said(text: str) -> None:
    assert faults(text)


def test_encounter_texts_open_with_their_keywords_then_the_printed_trigger_words() -> None:
    """An encounter card or ship with keywords prints them first ("Surge. Shadow: ..."); each
    ability after them opens with a trigger word the printed cards use."""
    load_texts()
    trigger = re.compile(r"(?:^|\. |\) )([A-Z][a-z]+(?: [A-Z][a-z]+)?): ")
    checked = 0
    for code, d in LCG_CARDS.items():
        if not code.startswith(("thftd-", "otd-0")) or d.type in ("hero", "treasure"):
            continue
        texts = [d.text, d.text_a, d.text_b, table.SIDE_B_TEXTS.get(code, "")]
        for text in filter(None, texts):
            checked += 1
            words = {m.group(1) for m in trigger.finditer(text)}
            assert words <= set(TRIGGERS), (code, d.name, words - set(TRIGGERS))
        if d.keywords and d.text:
            first = d.text.split(". ")[0]
            assert any(k.split(" ")[0] in first for k in d.keywords), (code, d.name, d.text)
    assert checked > 70


def _table(position: str) -> Run:
    data = tomllib.loads(
        '[game]\nscenario = "hunt-for-the-dreadnaught"\nplayers = 1\n'
        f'heroes = [["Aragorn", "Gimli", "Legolas"]]\n[position]\nat = "lcg.planning"\n{position}'
    )
    return Run(data)


def test_a_card_on_its_other_side_shows_that_side_s_text_and_keywords() -> None:
    """An Upgraded ship reads its Upgraded text; the Damaged Dreadnaught is Massive."""
    run = _table(
        '[position.zones]\n"p1.allies" = [{ card = "Golden Wing", face = "B" }, "Silent Mist"]\n'
        '"p1.engaged" = [{ card = "Dreadnaught", face = "B" }]\n'
    )
    shown = view(run.game.state, "p1")  # type: ignore[arg-type]
    ships = {c.name: c for c in shown.players[0].allies}
    assert ships["Golden Wing"].text.startswith("Immune to player card effects. Ranged. Sentinel. Each hero")
    assert "Response: After Golden Wing flips, deal 6 damage" in ships["Golden Wing"].text
    assert "+1 hit point" not in ships["Golden Wing"].text
    assert "Your starting hand is 8 cards." in ships["Silent Mist"].text  # Basic side
    dreadnaught = shown.players[0].engaged[0]
    assert "Massive" in dreadnaught.keywords and "Archery 1 per player" not in dreadnaught.keywords
    assert dreadnaught.text.startswith("Massive. Immune to player card effects.")
