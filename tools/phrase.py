"""A benchmark's words, in English in BENCHMARKS.md and in the language spoken on the console.

BENCHMARKS.md is a project document, written in English whatever the language of the person
who runs a benchmark; what the benchmark prints as it ends is said to that person. A row's
text is therefore a :class:`Phrase`: a ``str`` whose value is the English (what
``write_section`` writes, word for word as before) and which remembers its catalog message and
its values, so :func:`told` says it again in the language spoken. ``phrase("...")`` marks the
message for the catalog (tools/i18n.py extracts it like ``say``).
"""

from __future__ import annotations

from projections.i18n import _, say


class Phrase(str):
    """English text that can be said again in the language spoken (:meth:`told`)."""

    message: str
    values: dict[str, object]

    def __new__(cls, message: str, /, **values: object) -> Phrase:
        made = super().__new__(cls, message % values if values else message.replace("%%", "%"))
        made.message, made.values = message, values
        return made

    def told(self) -> str:
        """The phrase in the language spoken, its blanks filled with the same values: a value
        that is itself a phrase (a flood's name, a measure's) is told too, so no English word
        is left inside a translated sentence."""
        if not self.values:
            return _(self.message).replace("%%", "%")
        return say(
            self.message,
            **{key: told(value) if isinstance(value, str) else value for key, value in self.values.items()},
        )


def phrase(message: str, /, **values: object) -> Phrase:
    """A benchmark's words: ``phrase("%(n)s events/s", n=f"{rate:,.0f}")``."""
    return Phrase(message, **values)


def told(text: str) -> str:
    """``text`` as the console says it: a :class:`Phrase` in the language spoken, other text as it is."""
    return text.told() if isinstance(text, Phrase) else text


def written(path: object) -> str:
    """The last line of a benchmark: where its section was written."""
    return say("written to %(file)s", file=path)
