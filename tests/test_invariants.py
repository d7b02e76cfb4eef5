"""The invariants, over many games played by random bots.

1. State is a fold of events: folding a game's events gives its live state.
2. Reloading from the SQLite store at any version and continuing equals uninterrupted play.
3. Chance is recorded: ``verify`` re-executes the decisions from the seed and agrees.
4. The log is tamper-evident: editing, removing or reordering a stored event fails ``verify``.
6. Bad input changes nothing: in every game, at random decisions, every kind of illegal
   answer raises a typed error naming the decision, and appends nothing.

The games are spread over the three Core scenarios (Passage through Mirkwood, Journey Along
the Anduin, Escape from Dol Guldur), each with every setup below; half of each scenario's games
are played with the default decks, half with random legal decks (1 to 3 heroes each, cards
drawn from the pool). The number of games is bounded so CI stays fast;
WESTMARCH_INVARIANT_GAMES raises it.
"""

from __future__ import annotations

import os
import random
import sqlite3
import uuid
from pathlib import Path
from typing import cast

import msgspec
import pytest

from domain.game import Game, Recorded
from domain.kernel.events import DecisionAnswered, Event
from domain.kernel.runtime import fold
from domain.lcg.cards import CARDS
from domain.lcg.decks import Deck, random_deck
from domain.lcg.events import EventPlayed
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import HeroSetup, LcgState
from domain.verify import verify
from service.app import Westmarch, store_env
from tests.conftest import new_lcg, play_randomly
from tests.invariant_support import Probed, check_rate, play_probed

GAMES = int(os.environ.get("WESTMARCH_INVARIANT_GAMES", "1000"))
CHUNKS = 8
SETUPS = [(1, "standard"), (2, "standard"), (1, "easy"), (3, "standard"), (4, "easy"), (2, "easy")]
SCENARIOS = ("passage-through-mirkwood", "journey-along-the-anduin", "escape-from-dol-guldur")


def _setup(seed: int) -> tuple[int, str, str]:
    """Consecutive seeds change the scenario (and, by parity, the decks: see :func:`_new`);
    every six seeds the setup changes, so every scenario meets every setup with both kinds
    of decks."""
    players, difficulty = SETUPS[(seed // 6) % len(SETUPS)]
    return players, difficulty, SCENARIOS[seed % len(SCENARIOS)]


def _new(seed: int) -> Game:
    """Seed's game: odd seeds with the default decks, even ones with random legal decks."""
    players, difficulty, scenario = _setup(seed)
    if seed % 2:
        return new_lcg(seed, players, difficulty, scenario)
    rng = random.Random(seed)
    decks: list[Deck] = []
    for _ in range(players):
        decks.append(random_deck(rng, [h for d in decks for h in d.heroes]))
    options = lcg_options(scenario, players, None, difficulty, decks)
    return Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))


def _play(seed: int) -> Game:
    return play_randomly(_new(seed), random.Random(seed * 7919))


def _play_probing(seed: int) -> Probed:
    return play_probed(_new(seed), seed, LCG.codec.encode)


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


def _check(app: Westmarch, seed: int, game: Game) -> str:
    """Invariants 1-3 on one finished game; its end reason."""
    encode = LCG.codec.encode
    events = list(game.pending_events)
    assert game.state.over is not None, f"seed {seed}: the game did not end"
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
    return game.state.over.reason


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fold_reload_and_verify(chunk: int, tmp_path: Path) -> None:
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    results = set()
    scenarios = set()
    probed: list[Probed] = []
    for seed in _chunk(chunk):
        scenarios.add(_setup(seed)[2])
        played = _play_probing(seed)
        played.check(f"seed {seed}")
        probed.append(played)
        results.add(_check(app, seed, played.game))
    assert results, "no game was played"
    assert scenarios == set(SCENARIOS), "every chunk plays all three scenarios"
    check_rate(probed)


EVENT_GAMES = 64


SPHERE_LINEUPS = [["Gimli", "Legolas", "Thalin"], ["Aragorn", "Théodred", "Glóin"]]
"""One sphere per player (Thicket of Spears needs three Tactics heroes to pay for it)."""


def _with_events(seed: int) -> Game:
    """A game whose decks hold every Core Set event beside the allies, in one of the three
    scenarios (cancels meet each one's encounter cards); every other game starts with
    one-sphere lineups."""
    players, difficulty, scenario = _setup(seed)
    heroes = SPHERE_LINEUPS[:players] if seed % 2 else None
    options = lcg_options(scenario, players, heroes, difficulty)
    deck = tuple(c.code for c in CARDS.values() if c.type in ("ally", "event") for _ in range(c.quantity))
    options = msgspec.structs.replace(options, players=tuple(HeroSetup(p.heroes, deck) for p in options.players))
    return Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))


def test_invariants_with_events_in_decks(tmp_path: Path) -> None:
    """Events played, declined, cancelling and cancelled keep every invariant."""
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    played: set[str] = set()
    probed: list[Probed] = []
    for seed in range(1, EVENT_GAMES + 1):
        one = play_probed(_with_events(seed), seed, LCG.codec.encode)
        one.check(f"seed {seed}")
        probed.append(one)
        game = one.game
        cards = cast(LcgState, game.state).cards
        played |= {cards[e.card].code for e in game.pending_events if isinstance(e, EventPlayed)}
        _check(app, seed, game)
    assert len(played) >= 20, f"only {len(played)} different events were played"
    check_rate(probed)


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
