"""The simulation path's shortcuts read as their plain versions do.

Every game played goes through a handful of steps on each event or command (the cursor's
flow, a command's guard, a War of the Ring card's move); each was made cheaper, and each
test here pins the cheap reading to the plain one, or checks that the cost it removed does
not come back.
"""

from __future__ import annotations

import ast
import dis
import random
from typing import Any
from uuid import uuid4

from bots import random_choice
from domain import build
from domain.game import Game
from domain.kernel import zones
from domain.kernel.runtime import _extends
from domain.wotr import moving
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import BOT_UNSEEN, WotrState


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


def _plain_unseen(s: WotrState, zone: str) -> bool:
    """The unseen piles as the state's interpreted method read them before they were compiled."""
    seat, _, rest = zone.partition(".")
    return seat in s.players and (rest == "deck" or (rest in BOT_UNSEEN and s.is_bot(seat)))


def _plain_move(s: WotrState, uid: int, zone: str) -> None:
    """A War of the Ring card's move as the apply functions read before it was compiled."""
    card = zones.lift(s, uid)
    if zone.rsplit(".", 1)[-1] in moving.PILES:
        card.wielder = None
        card.reserved = False
    card.known = _plain_unseen(s, zone) and (card.known or not _plain_unseen(s, card.zone))
    zones.put(s, card, zone)


def _wotr_states() -> list[WotrState]:
    """States along random games of War of the Ring, with and without Shadow bots."""
    states: list[WotrState] = []
    for seed, bots in ((3, ()), (4, ("shadow",))):
        options = wotr_options("trilogy", None, bots, "standard" if bots else "")
        game = Game.start(uuid4(), WOTR, WOTR.created(options, seed))
        rng = random.Random(seed)
        while game.state.pending is not None and game.version < 600:
            if game.version % 150 < 5:
                states.append(WOTR.codec.decode_state(WOTR.codec.encode(game.state)))  # type: ignore[arg-type]
            d = game.state.pending
            game.answer(d.seat, d.id, random_choice(d, rng))
    return states


def test_wotr_moves_read_as_the_plain_apply_functions() -> None:
    codec = WOTR.codec
    rng = random.Random(11)
    for state in _wotr_states():
        piles = [f"{seat}.{pile}" for seat in state.players for pile in (*moving.PILES, "reserve")]
        places = sorted({*state.zones, *piles, "nowhere.deck"})
        for zone in places:
            assert moving.unseen_pile(state, zone) == _plain_unseen(state, zone), zone
        for _ in range(40):
            uid = rng.choice(sorted(state.cards))
            zone = rng.choice(places)
            plain = codec.decode_state(codec.encode(state))
            compiled = codec.decode_state(codec.encode(state))
            assert isinstance(plain, WotrState) and isinstance(compiled, WotrState)
            wielded = [i for i in plain.zone(plain.cards[uid].zone) if plain.cards[i].wielder == uid]
            assert moving.items_on(compiled, uid) == wielded
            _plain_move(plain, uid, zone)
            moving.move(compiled, uid, zone)
            assert codec.encode(compiled) == codec.encode(plain), (uid, zone)
