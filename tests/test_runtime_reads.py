"""The runtime holds the state's version and head natively while it plays.

Each read of a msgspec Struct's field from compiled code is a generic attribute lookup;
``Runtime.emit`` read the state's ``version`` and ``head`` for every event. The runtime reads
them once, as it is made, and writes both to the state with each event it emits.
"""

from __future__ import annotations

import random
from collections import Counter
from uuid import uuid4

import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.state import State
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from tests.read_counts import count_reads


def test_the_runtime_reads_the_version_and_head_once_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    # Passage through Mirkwood random games, seeds 1-3: 2.8 reads of the two an event before,
    # 0.8 now (each read as a command's runtime is made, and by the rules' own questions)
    games = []
    for seed in range(1, 4):
        game = Game.start(uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 2), seed))
        games.append((game, random.Random(seed)))
    counts: Counter[str] = Counter()
    count_reads(monkeypatch, State, ("version", "head"), counts)
    events = commands = 0
    for game, rng in games:
        before = game.state.version
        while (d := game.state.pending) is not None:
            game.answer(d.seat, d.id, random_choice(d, rng))
            commands += 1
        events += game.state.version - before
    reads = counts["version"] + counts["head"]
    assert reads < 1.2 * events, (counts, events, commands)
