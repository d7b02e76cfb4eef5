"""The languages Westmarch speaks: English (the source text), Spanish and Japanese.

Every word shown to a person is an English *message* marked in the code with :func:`_`
(or :func:`ngettext` when it counts something, :func:`pgettext` when one English word
reads differently in two places) and looked up at the moment it is shown in the gettext
catalog of the language being spoken: ``projections/locale/<lang>/LC_MESSAGES/westmarch.mo``,
compiled from the ``.po`` beside it (``python -m tools.i18n``; both are committed, and
tests/test_i18n.py fails when a ``.mo`` is older than its ``.po``). Only the standard
library's :mod:`gettext` reads them at run time.

The language is not passed down through every phrase: it is the *language being spoken*,
a :class:`contextvars.ContextVar` set for a stretch of work with :func:`speaking` (a command
of the command line, one gRPC call, one web request) and read by :func:`_`. A thread starts
speaking English. The event log never holds a translated word: a game played in Japanese
is told in Spanish by reading its events with ``speaking("es")``.

Phrases name their blanks (``%(card)s``), so a translation may put them in another order;
plural forms are the catalog's (Spanish has two, Japanese one), never an ``s`` added.

Choosing a language: :func:`choose` reads a tag as a person or a program writes it
(``es``, ``es_ES.UTF-8``, ``ja-JP``); :func:`from_environment` takes ``--lang``, then
``WESTMARCH_LANG``, then ``LANG``; :func:`from_accept_language` reads a browser's
``Accept-Language``. Each gives one of :data:`LANGUAGES`, English when nothing fits.
"""

from __future__ import annotations

import gettext as _gettext
import os
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "es", "ja")
"""The languages spoken, by their ISO 639-1 code; the first is the source language."""

DEFAULT = "en"

DOMAIN = "westmarch"
"""The gettext domain of the Python side's messages (the web page has its own)."""

LOCALE_DIR = Path(__file__).with_name("locale")
"""``<lang>/LC_MESSAGES/<domain>.po`` and ``.mo``, installed with the package."""

NAMES = {"en": "English", "es": "Español", "ja": "日本語"}
"""Each language by its own name, for a language picker."""

_SPEAKING: ContextVar[str] = ContextVar("westmarch_language", default=DEFAULT)


def choose(tag: str | None) -> str | None:
    """The language a tag stands for (``es``, ``ES``, ``es_ES.UTF-8``, ``ja-JP``,
    ``es-419``), or None when it names none that is spoken (``fr``, ``C``, ``""``)."""
    if not tag:
        return None
    primary = tag.strip().replace("_", "-").split(".")[0].split("@")[0].split("-")[0].lower()
    return primary if primary in LANGUAGES else None


def from_environment(flag: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language of a command: ``flag`` (``--lang``) when given, else ``WESTMARCH_LANG``,
    else ``LANG``, else English. A ``--lang`` that is not spoken is an error (ValueError,
    naming the languages); an environment variable that is not is passed over."""
    if flag:
        chosen = choose(flag)
        if chosen is None:
            raise ValueError(
                _("unknown language %(lang)s: choose from %(languages)s")
                % {"lang": repr(flag), "languages": ", ".join(LANGUAGES)}
            )
        return chosen
    env = os.environ if environ is None else environ
    for name in ("WESTMARCH_LANG", "LANG"):
        chosen = choose(env.get(name))
        if chosen is not None:
            return chosen
    return DEFAULT


def from_accept_language(header: str | None) -> str:
    """The spoken language a browser prefers most (``Accept-Language: ja,en;q=0.8``): the
    highest ``q`` first, ties in the order given; English when none is spoken."""
    best: tuple[float, int, str] | None = None
    for index, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        chosen = choose(tag)
        if chosen is None or quality <= 0:
            continue
        if best is None or (-quality, index) < (-best[0], best[1]):
            best = (quality, index, chosen)
    return best[2] if best is not None else DEFAULT


def language() -> str:
    """The language being spoken here and now."""
    return _SPEAKING.get()


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` (a tag :func:`choose` reads; English when it names none) until the
    block ends; yields the language chosen."""
    chosen = choose(lang) or DEFAULT
    token = _SPEAKING.set(chosen)
    try:
        yield chosen
    finally:
        _SPEAKING.reset(token)


@cache
def translations(lang: str, domain: str = DOMAIN) -> _gettext.NullTranslations:
    """The compiled catalog of ``domain`` in ``lang``; English (and a catalog not there)
    reads every message as written."""
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    return _gettext.translation(domain, LOCALE_DIR, languages=[lang], fallback=True)


def gettext(message: str) -> str:
    """``message`` in the language being spoken."""
    lang = _SPEAKING.get()
    if lang == DEFAULT:  # English reads every message as written (most of a game's lines)
        return message
    return translations(lang).gettext(message)


_ = gettext
"""The same as :func:`gettext`, by the name the catalog's extraction reads. A name bound to
the function, not a ``def _``: the compiled build (domain/build.py) leaves out a function
named ``_`` (mypyc: the name is missing from the module)."""


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` in the language being spoken (Spanish has
    two forms, Japanese one); format ``%(n)d`` into it afterwards."""
    lang = _SPEAKING.get()
    if lang == DEFAULT:
        return singular if n == 1 else plural
    return translations(lang).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` gives it (``pgettext("zone", "hand")``)."""
    lang = _SPEAKING.get()
    if lang == DEFAULT:
        return message
    return translations(lang).pgettext(context, message)


# The message parameters are named as no blank is: compiled, a positional-only parameter
# still refuses a blank of its name (``say("%(message)s ...", message=...)``, tools/cli.py).


def say(__message: str, /, **values: object) -> str:
    """The message in the language being spoken, its named blanks filled:
    ``say("%(card)s is revealed", card=name)``."""
    lang = _SPEAKING.get()
    text = __message if lang == DEFAULT else translations(lang).gettext(__message)
    return text % values if values else text


def nsay(__singular: str, __plural: str, __n: int, /, **values: object) -> str:
    """The form of a counted message for ``n``, its blanks filled (``%(n)d`` is ``n``):
    ``nsay("%(n)d card", "%(n)d cards", 3)``."""
    return ngettext(__singular, __plural, __n) % {"n": __n, **values}


def N_plural(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - the gettext convention's name
    """Marks a counted message for the catalog, to be said with :func:`nsay` elsewhere."""
    return singular, plural


def NP_(context: str, message: str) -> str:  # noqa: N802 - the gettext convention's name
    """Marks a message in a context for the catalog, to be said with :func:`pgettext`."""
    return message


def N_(message: str) -> str:  # noqa: N802 - the gettext convention's name
    """Marks a message for the catalog where it is written, to be translated where it is
    shown (``_(table[key])``): a constant's text, a label kept in a table."""
    return message


@cache
def _card_names(lang: str) -> Mapping[str, str]:
    path = LOCALE_DIR / lang / "card_names.toml"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    names = data.get("names", {})
    return {str(k): str(v) for k, v in names.items()}


def card_name(english: str) -> str:
    """A card's name in the language being spoken: the published edition's name where the
    catalog of names has one (``locale/<lang>/card_names.toml``), else the English name."""
    lang = _SPEAKING.get()
    if lang == DEFAULT:
        return english
    return _card_names(lang).get(english, english)


def card_names(lang: str) -> Mapping[str, str]:
    """English name -> name in ``lang`` for every card the catalog of names translates."""
    return _card_names(lang)
