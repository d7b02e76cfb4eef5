"""The invariants over the later stages of Journey Along the Anduin and Escape from Dol Guldur.

Random-bot games from the start rarely get past stage 1 (tests/test_invariants.py plays them),
so here random bots play on from the positions of the two scenarios' fixtures (stage 2 and 3,
the prisoner, objectives, Orc Guards, Ambush on the Shore...) to the end of the game: the state
is the fold of the events, re-executing the decisions from the seed reproduces the stream, and
illegal answers append nothing. Some of these games are won, by each scenario's own win.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from domain.kernel.runtime import fold
from domain.lcg.ruleset import LCG
from domain.verify import verify
from tests.invariant_support import play_probing
from tools.fixtures import Run, fixture_files, load

FIXTURES = Path(__file__).parent / "fixtures" / "lcg"
SCENARIOS = ("journey-along-the-anduin", "escape-from-dol-guldur")
GAMES_PER_POSITION = 4


@cache
def positions(scenario: str) -> tuple[Path, ...]:
    return tuple(p for p in fixture_files([FIXTURES]) if load(p).get("game", {}).get("scenario") == scenario)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_play_from_every_position_keeps_the_invariants(scenario: str) -> None:
    encode = LCG.codec.encode
    endings: Counter[str] = Counter()
    for path in positions(scenario):
        for k in range(GAMES_PER_POSITION):
            game, _ = play_probing(Run(load(path)).game, k + 1, encode)
            events = list(game.pending_events)
            assert encode(fold(LCG, events)) == encode(game.state), f"{path.name} #{k}: fold differs"
            verdict = verify(LCG, events)
            assert verdict.ok, f"{path.name} #{k}: {verdict}"
            over = game.state.over
            assert over is not None
            endings[f"{over.result} {over.reason}"] += 1
    won = "won ambush-on-the-shore" if scenario == "journey-along-the-anduin" else "won out-of-the-dungeons"
    assert endings[won] > 0, endings
    assert len(positions(scenario)) >= 20
