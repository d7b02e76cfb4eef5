"""The invariants, over many games played by random bots.

1. State is a fold of events: folding a game's events gives its live state.
2. Reloading from the SQLite store at any version and continuing equals uninterrupted play.
3. Chance is recorded: ``verify`` re-executes the decisions from the seed and agrees.
4. The log is tamper-evident: editing, removing or reordering a stored event fails ``verify``.
6. Bad input changes nothing: in every game, at random decisions, every kind of illegal
   answer raises a typed error naming the decision, and appends nothing.

The games are spread over the three Core scenarios (Passage through Mirkwood, Journey Along
the Anduin, Escape from Dol Guldur), each with every setup below. The number of games is
bounded so CI stays fast; WESTMARCH_INVARIANT_GAMES raises it.
"""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

import pytest

from domain.game import Game, Recorded
from domain.kernel.events import DecisionAnswered, Event
from domain.kernel.runtime import fold
from domain.lcg.ruleset import LCG
from domain.verify import verify
from service.app import Westmarch, store_env
from tests.conftest import new_lcg, play_randomly
from tests.invariant_support import play_probing

GAMES = int(os.environ.get("WESTMARCH_INVARIANT_GAMES", "1000"))
CHUNKS = 8
SETUPS = [(1, "standard"), (2, "standard"), (1, "easy"), (3, "standard"), (4, "easy"), (2, "easy")]
SCENARIOS = ("passage-through-mirkwood", "journey-along-the-anduin", "escape-from-dol-guldur")


def _setup(seed: int) -> tuple[int, str, str]:
    """Consecutive seeds change the scenario; every scenario meets every setup."""
    players, difficulty = SETUPS[(seed // len(SCENARIOS)) % len(SETUPS)]
    return players, difficulty, SCENARIOS[seed % len(SCENARIOS)]


def _play(seed: int) -> Game:
    players, difficulty, scenario = _setup(seed)
    return play_randomly(new_lcg(seed, players, difficulty, scenario), random.Random(seed * 7919))


def _play_probing(seed: int) -> tuple[Game, int]:
    players, difficulty, scenario = _setup(seed)
    return play_probing(new_lcg(seed, players, difficulty, scenario), seed, LCG.codec.encode)


def _chunk(k: int) -> range:
    size = -(-GAMES // CHUNKS)
    return range(k * size + 1, min(GAMES, (k + 1) * size) + 1)


def _store(app: Westmarch, game: Game) -> None:
    app.save(game)


def _continue(app: Westmarch, game: Game, events: list[Event], version: int) -> list[Event]:
    """Reload ``game`` at ``version`` from the store and answer the rest of its decisions."""
    state = app.state_at(game.id, version)
    again = Game(game.id, LCG, state)
    again.resume()
    for event in events[version:]:
        if isinstance(event, DecisionAnswered) and event.seq > again.version:
            again.answer(event.seat, event.decision, event.choice)
    return [*events[:version], *again.pending_events]


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fold_reload_and_verify(chunk: int, tmp_path: Path) -> None:
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    encode = LCG.codec.encode
    results = set()
    scenarios = set()
    probed = 0
    for seed in _chunk(chunk):
        scenarios.add(_setup(seed)[2])
        game, tried = _play_probing(seed)
        probed += tried
        events = list(game.pending_events)
        assert game.state.over is not None, f"seed {seed}: the game did not end"
        results.add(game.state.over.reason)
        # 1. the fold of the events is the state
        assert encode(fold(LCG, events)) == encode(game.state), f"seed {seed}: fold differs"
        _store(app, game)
        # 2. reload at a random version from SQLite, continue: the same events follow
        version = random.Random(seed).randint(1, len(events))
        replayed = _continue(app, game, events, version)
        assert [encode(e) for e in replayed] == [encode(e) for e in events], (
            f"seed {seed}: reloading at version {version} and continuing diverged"
        )
        # 3. verify re-executes the decisions from the seed
        verdict = verify(LCG, app.history(game.id))
        assert verdict.ok, f"seed {seed}: {verdict}"
    assert results, "no game was played"
    assert scenarios == set(SCENARIOS), "every chunk plays all three scenarios"
    assert probed > 10 * len(_chunk(chunk)), "too few illegal answers were tried"


def _tamper(path: Path, game_id: str, version: int, how: str) -> None:
    db = sqlite3.connect(path)
    with db:
        if how == "edit":
            (state,) = db.execute(
                "SELECT state FROM stored_events WHERE originator_id=? AND originator_version=?",
                (game_id, version),
            ).fetchone()
            text = bytes(state).decode()
            position = text.index('"seq":') + len('"seq":')
            edited = text[:position] + text[position:].replace("1", "2", 1) if "1" in text[position:] else text
            if edited == text:
                edited = text.replace('"cause":{', '"cause":{"card":999,', 1)
            db.execute(
                "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                (edited.encode(), game_id, version),
            )
        elif how == "remove":
            db.execute("DELETE FROM stored_events WHERE originator_id=? AND originator_version=?", (game_id, version))
        elif how == "reorder":
            rows = db.execute(
                "SELECT originator_version, state FROM stored_events WHERE originator_id=? "
                "AND originator_version IN (?, ?)",
                (game_id, version, version + 1),
            ).fetchall()
            (va, sa), (vb, sb) = rows
            for v, s in ((va, sb), (vb, sa)):
                db.execute(
                    "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                    (s, game_id, v),
                )
    db.close()


@pytest.mark.parametrize("how", ["edit", "remove", "reorder"])
def test_tampering_is_detected(how: str, tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    app = Westmarch(store_env(db=str(path)))
    for seed in range(1, 41):
        game = _play(seed)
        app.save(game)
        rng = random.Random(seed)
        version = rng.randint(1, game.version - 1)
        _tamper(path, game.id.hex, version, how)
        try:
            events = app.history(game.id)
        except Exception:
            continue  # an edit that breaks the JSON is detected when reading
        verdict = verify(LCG, events)
        assert not verdict.ok, f"seed {seed}: {how} of event {version} went unnoticed"
        assert verdict.first_bad is not None and verdict.first_bad <= version + 1


def test_envelopes_carry_the_ruleset() -> None:
    game = new_lcg(1)
    recorded = game.collect_events()
    assert all(isinstance(r, Recorded) and r.ruleset == "lcg" for r in recorded)
    assert [r.originator_version for r in recorded] == list(range(1, len(recorded) + 1))
