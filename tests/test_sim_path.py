"""The simulation path's shortcuts read as their plain versions do.

Every game played goes through a handful of steps on each event or command; each was made
cheaper, and each test here pins the cheap reading to the plain one, or checks that the
cost it removed does not come back.
"""

from __future__ import annotations

import dis
from typing import Any

from domain.game import Game


def _imports(code: Any) -> list[str]:
    return [i.argval for i in dis.get_instructions(code) if i.opname == "IMPORT_NAME"]


def test_a_command_runs_no_import_statement() -> None:
    # ``from`` a plain module looks up its ``__path__`` and fails with a formatted
    # AttributeError each time: some 1.4 % of a random game's instructions, once per command
    assert _imports(Game._guarded) == []
    assert _imports(Game.answer) == []
