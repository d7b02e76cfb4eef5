"""The translation catalogs and the choice of a language (projections/i18n.py, tools/i18n.py)."""

from __future__ import annotations

import re
import threading

import pytest

from projections import i18n
from projections.i18n import _, choose, from_accept_language, from_environment, nsay, say, speaking
from tools import i18n as catalogs

SPOKEN = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|%%|\{(\w*)\}")


@pytest.fixture(scope="module")
def template() -> catalogs.Catalog:
    return catalogs.template()


def test_the_template_finds_marked_messages(template: catalogs.Catalog) -> None:
    ids = {m.id for m in template if m.id}
    assert "unknown language %(lang)s: choose from %(languages)s" in ids
    # a message marked inside another call's arguments is found too: say("...", sum=_sum(..., _("no icons")))
    assert "no icons" in ids and "an encounter card" in ids
    # counted messages and messages in a context
    assert ("%(n)d card", "%(n)d cards") in ids
    assert any(m.id == "action" and m.context == "step" for m in template)


@pytest.mark.parametrize("lang", SPOKEN)
def test_every_message_is_translated_and_none_is_fuzzy(template: catalogs.Catalog, lang: str) -> None:
    lacking = catalogs.missing(lang, template)
    assert not lacking, (
        f"{lang} lacks {len(lacking)} translations (python -m tools.i18n, then translate): {lacking[:20]}"
    )


@pytest.mark.parametrize("lang", SPOKEN)
def test_the_catalog_has_no_message_the_code_no_longer_says(template: catalogs.Catalog, lang: str) -> None:
    said = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    kept = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalogs.read(lang) if m.id}
    assert kept <= said, f"stale messages in {lang} (python -m tools.i18n update): {sorted(kept - said)[:10]}"


def _blanks(text: str) -> set[str]:
    return {"".join(found) for found in PLACEHOLDER.findall(text)}


def _fits(english: set[str], translated: set[str]) -> bool:
    """A translation fills the blanks of its message; ``%(card_s)s`` (the English possessive,
    ``Aragorn's``) may be said as ``%(card)s``, which the message is given too."""
    said = {
        blank.removesuffix("_s") if blank.endswith("_s") and blank not in translated else blank for blank in english
    }
    return {blank.removesuffix("_s") for blank in translated} <= {b.removesuffix("_s") for b in english} and (
        said == translated
    )


@pytest.mark.parametrize("lang", SPOKEN)
def test_placeholders_are_intact_in_every_translation(lang: str) -> None:
    for message in catalogs.read(lang):
        if not message.id:
            continue
        if isinstance(message.id, str):
            assert _fits(_blanks(message.id), _blanks(str(message.string))), (
                f"{lang}: {message.id!r} -> {message.string!r}"
            )
            continue
        plural = _blanks(message.id[1])
        for form in message.string:
            # a counted message's forms may leave out the count (``una carta`` for one)
            assert _blanks(form) <= plural and _fits(plural - {"n"}, _blanks(form) - {"n"}), (
                f"{lang}: {message.id!r} -> {form!r}"
            )


def test_the_possessive_blank_is_read_as_the_plain_one() -> None:
    assert _fits({"card_s", "seat"}, {"card", "seat"})
    assert _fits({"card_s"}, {"card_s"})
    assert not _fits({"card", "seat"}, {"card"})
    assert not _fits({"card"}, {"card", "enemy"})
    assert not _fits({"card_s"}, {"enemy"})


@pytest.mark.parametrize("lang", [i18n.DEFAULT, *SPOKEN])
def test_a_blank_may_bear_any_name(lang: str) -> None:
    """say() and nsay() fill a blank of any name, that of one of their own parameters too
    (tools/cli.py says ``%(message)s``): compiled, a positional-only parameter refuses it."""
    with speaking(lang):
        assert say("%(message)s; %(values)s", message="m", values="v") == "m; v"
        assert nsay("%(n)d %(singular)s", "%(n)d %(plural)s", 2, singular="a", plural="b") == "2 b"


@pytest.mark.parametrize("lang", SPOKEN)
def test_the_compiled_catalog_is_the_po_compiled(lang: str) -> None:
    mo = catalogs.po_path(lang).with_suffix(".mo")
    assert mo.read_bytes() == catalogs.mo_bytes(catalogs.read(lang)), f"run python -m tools.i18n compile ({mo})"


def test_plural_forms_are_the_languages() -> None:
    assert "nplurals=2; plural=(n != 1)" in catalogs.read("es").plural_forms
    assert "nplurals=1; plural=0" in catalogs.read("ja").plural_forms


def test_a_tag_is_read_as_people_and_programs_write_it() -> None:
    assert choose("es") == "es"
    assert choose("es_ES.UTF-8") == "es"
    assert choose("ja-JP") == "ja"
    assert choose("ES-419") == "es"
    assert choose("en_GB") == "en"
    assert choose("fr_FR.UTF-8") is None
    assert choose("C.UTF-8") is None
    assert choose("") is None


def test_the_command_line_then_westmarch_lang_then_lang() -> None:
    env = {"WESTMARCH_LANG": "ja", "LANG": "es_ES.UTF-8"}
    assert from_environment("es", env) == "es"
    assert from_environment(None, env) == "ja"
    assert from_environment(None, {"LANG": "es_ES.UTF-8"}) == "es"
    assert from_environment(None, {"WESTMARCH_LANG": "fr", "LANG": "ja_JP.UTF-8"}) == "ja"
    assert from_environment(None, {"LANG": "C.UTF-8"}) == "en"
    with pytest.raises(ValueError, match="unknown language 'fr': choose from en, es, ja"):
        from_environment("fr", {})


def test_accept_language_takes_the_best_spoken_language() -> None:
    assert from_accept_language("ja,en;q=0.8") == "ja"
    assert from_accept_language("fr-FR,fr;q=0.9,es;q=0.8,en;q=0.7") == "es"
    assert from_accept_language("en;q=0.5, es;q=0.9") == "es"
    assert from_accept_language("es;q=0, ja") == "ja"
    assert from_accept_language("de") == "en"
    assert from_accept_language(None) == "en"


def test_speaking_is_for_a_stretch_of_work_and_a_thread_starts_in_english() -> None:
    message = "unknown language %(lang)s: choose from %(languages)s"
    assert _(message) == message
    with speaking("ja") as lang:
        assert lang == "ja"
        japanese = _(message)
        assert japanese != message
        seen: list[str] = []
        thread = threading.Thread(target=lambda: seen.append(_(message)))
        thread.start()
        thread.join()
        assert seen == [message]
        with speaking("es"):
            assert _(message) not in (message, japanese)
        assert _(message) == japanese
    assert _(message) == message
    assert i18n.language() == "en"
