"""A decision's prompt and its options' labels in the language spoken.

The engine records a decision in English, in the event log, which stays the same in every
language: the words are translated when they are shown. A prompt or a label that is always
the same words (``Pass``, ``Forest Gate: draw 2 cards?``) is a message of the catalog as it
stands; one the engine fills in (``Play Gandalf (cost 5)``) is read by the patterns of
:data:`PATTERNS`, an English pattern with named blanks and the message that says it, whose
blanks are filled with the pieces read (each piece itself translated if it is a message: a
phase, a zone...). Words no pattern reads stay as recorded.
"""

from __future__ import annotations

import re
from functools import cache

from projections.i18n import DEFAULT, _, card_name, language, translations

PATTERNS: tuple[tuple[str, str], ...] = ()
"""(English pattern, message): ``{card}`` in a pattern is a blank that reads anything, and
the message names the same blanks (``%(card)s``)."""


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for pattern, message in PATTERNS:
        regex = re.escape(pattern)
        regex = re.sub(r"\\\{(\w+)\\\}", lambda m: f"(?P<{m.group(1)}>.+?)", regex)
        out.append((re.compile(f"^{regex}$", re.DOTALL), message))
    return tuple(out)


def translate(text: str) -> str:
    """``text`` (a prompt or a label the engine recorded) in the language spoken."""
    if language() == DEFAULT or not text:
        return text
    catalog = translations(language())
    whole = catalog.gettext(text)
    if whole != text:
        return whole
    for regex, message in _compiled():
        match = regex.match(text)
        if match is not None:
            pieces = {key: _piece(value) for key, value in match.groupdict().items()}
            return _(message) % pieces
    return text


def _piece(text: str) -> str:
    translated = translations(language()).gettext(text)
    if translated != text:
        return translated
    return card_name(text)
