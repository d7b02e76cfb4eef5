"""Rules versions: each ruleset numbers the versions of its rules and says what changed.

A ruleset's ``RULES_CHANGELOG.md`` (beside its ``ruleset.py``) has one line per change that
alters what re-executing a recorded game produces::

    - v2: the active location takes progress before the quest (FAQ 1.1, p. 4)

The line names the version that the change brought, what changed, and its source. A
version may have several lines; the newest version is the ruleset's ``rules_version``
(a test checks that the two agree). ``westmarch verify`` quotes the lines between the
version a game was recorded under and the current one when re-execution differs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_LINE = re.compile(r"^- v(\d+): (.+)$")


@dataclass(frozen=True)
class RulesChange:
    version: int
    text: str

    def __str__(self) -> str:
        return f"v{self.version}: {self.text}"


def read_changelog(path: Path) -> tuple[RulesChange, ...]:
    """The changes listed in a changelog file, oldest first."""
    found = (_LINE.match(line.strip()) for line in path.read_text(encoding="utf-8").splitlines())
    return tuple(RulesChange(int(m.group(1)), m.group(2)) for m in found if m is not None)
