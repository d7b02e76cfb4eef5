"""The simulation path's shortcuts read as their plain versions do.

Every game played goes through a handful of steps on each event or command; each was made
cheaper, and each test here pins the cheap reading to the plain one, or checks that the
cost it removed does not come back.
"""

from __future__ import annotations

import ast
import dis
import random
from typing import Any

from domain import build
from domain.game import Game
from domain.kernel.runtime import _extends


def _plain_extends(env: dict[str, Any], below: dict[str, Any]) -> bool:
    """Whether ``env`` starts with the keys of ``below``, in the same order, read plainly."""
    return list(env)[: len(below)] == list(below)


def test_extends_reads_as_the_plain_key_prefix() -> None:
    rng = random.Random(7)
    names = ["_card", "_by", "_ans", "a", "b", "c", "uid", "x"]
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = [({}, {}), ({"a": 1}, {}), ({}, {"a": 1})]
    for _ in range(2000):
        below = {k: 0 for k in rng.sample(names, rng.randint(0, 5))}
        env = dict(below) if rng.random() < 0.5 else {}
        for k in rng.sample(names, rng.randint(0, 4)):
            env[k] = 1
        if rng.random() < 0.3 and env:
            keys = list(env)
            rng.shuffle(keys)
            env = {k: env[k] for k in keys}
        cases.append((env, below))
    for env, below in cases:
        assert _extends(env, below) == _plain_extends(env, below), (env, below)


def test_extends_calls_no_zip() -> None:
    # the compiled core makes a zip through the generic call (its ``strict`` keyword and all):
    # the flow of an event cost some 2 % of a random game's instructions more that way
    tree = ast.parse(build.source("domain.kernel.runtime").read_text(encoding="utf-8"))
    (found,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_extends"]
    called = {n.func.id for n in ast.walk(found) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert "zip" not in called


def _imports(code: Any) -> list[str]:
    return [i.argval for i in dis.get_instructions(code) if i.opname == "IMPORT_NAME"]


def test_a_command_runs_no_import_statement() -> None:
    # ``from`` a plain module looks up its ``__path__`` and fails with a formatted
    # AttributeError each time: some 1.4 % of a random game's instructions, once per command
    assert _imports(Game._guarded) == []
    assert _imports(Game.answer) == []
