"""The web page's own words in each language, as the page reads them.

The page's texts are English, marked in its scripts (``static/phrases.js``) and kept, one
gettext catalog a language, in the domain ``westmarch_web``:
``locale/<lang>/LC_MESSAGES/westmarch_web.po`` and the ``.mo`` compiled from it (both
committed; ``python -m tools.i18n_web`` maintains them with Babel, and the tests fail when a
``.mo`` is not the compilation of its ``.po``). The server reads each ``.mo`` once and serves
it to the page as JSON (``/locale/<lang>.json``: English text -> translation, a counted
text -> its forms), and chooses the page's first language from the browser's
``Accept-Language``; the page may pick another, which it then keeps.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

from projections import card_names
from projections.i18n import from_accept_language

LANGUAGES = ("en", "es", "ja")
"""The languages the page speaks, by ISO 639-1 code (the Python side's, projections/i18n)."""
SOURCE = "en"
"""The language the page's texts are written in: it needs no catalog."""
DOMAIN = "westmarch_web"
LOCALE_DIR = Path(__file__).with_name("locale")

Messages = dict[str, str | list[str]]


def read_mo(data: bytes) -> tuple[Messages, dict[str, str]]:
    """A compiled gettext catalog's messages and header fields.

    A counted message is keyed by its English singular, with its forms in the language's
    order; the header (the message with the empty id) is returned apart."""
    if len(data) < 20:
        raise ValueError("not a gettext catalog: too short")
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">" if magic == 0xDE120495 else ""
    if not order:
        raise ValueError("not a gettext catalog: wrong magic number")
    _revision, count, ids_at, strs_at = struct.unpack(order + "4I", data[4:20])
    messages: Messages = {}
    header: dict[str, str] = {}
    for i in range(count):
        id_length, id_offset = struct.unpack(order + "2I", data[ids_at + 8 * i : ids_at + 8 * i + 8])
        str_length, str_offset = struct.unpack(order + "2I", data[strs_at + 8 * i : strs_at + 8 * i + 8])
        original = data[id_offset : id_offset + id_length].decode("utf-8")
        translated = data[str_offset : str_offset + str_length].decode("utf-8")
        if not original:
            for line in translated.splitlines():
                name, sep, value = line.partition(":")
                if sep:
                    header[name.strip()] = value.strip()
            continue
        if "\x04" in original:  # a context: the page marks none
            continue
        if "\x00" in original:
            messages[original.split("\x00", 1)[0]] = translated.split("\x00")
        else:
            messages[original] = translated
    return messages, header


def catalog(lang: str) -> tuple[Messages, dict[str, str]]:
    """The page's catalog in ``lang`` (empty for English, or a language with none)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang == SOURCE or not path.exists():
        return {}, {}
    return read_mo(path.read_bytes())


def catalog_json(lang: str) -> bytes:
    """What ``/locale/<lang>.json`` answers: ``{"language", "plural_forms", "messages",
    "card_names", "traits"}``: the cards a published edition names otherwise than English
    (English name -> name in ``lang``: ``projections/locale/<lang>/card_names.toml``), and the
    printed traits it words otherwise (``card_traits.toml``)."""
    messages, header = catalog(lang)
    names = {english: name for english, name in card_names.names(lang).items() if name != english}
    traits = {english: word for english, word in card_names.traits(lang).items() if word != english}
    answer = {
        "language": lang,
        "plural_forms": header.get("Plural-Forms", ""),
        "messages": messages,
        "card_names": names,
        "traits": traits,
    }
    return json.dumps(answer, ensure_ascii=False, sort_keys=True).encode("utf-8")


def preferred(accept_language: str | None) -> str:
    """The spoken language a browser prefers most (``Accept-Language: ja,en;q=0.8``): the
    highest ``q`` first, ties in the order given; English when it names none spoken. The same
    reading as the Python texts' (projections.i18n), so the page and the server's words agree."""
    return from_accept_language(accept_language)


def page_in(html: bytes, lang: str) -> bytes:
    """The page's HTML with ``<html lang>`` saying the language chosen for it."""
    return html.replace(b'<html lang="en">', f'<html lang="{lang}">'.encode(), 1)
