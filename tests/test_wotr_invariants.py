"""The foundation's invariants for War of the Ring, over thousands of random-bot games.

WESTMARCH_WOTR_GAMES games per scenario (default 1000), for all four scenarios:

1. State is a fold of events: for every game, folding its events gives its live state,
   and its hash chain is intact.
2. Reload and continue: the state folded at a random version, resumed, and answered with
   the rest of the recorded decisions gives exactly the same events.
3. Chance is recorded: ``verify`` (hash chain, then re-execution from the seed) agrees.
6. Bad input changes nothing: in every game, at random decisions, every kind of illegal
   answer raises a typed error and appends nothing.

Every ``STORE_EVERY``-th game also goes through the SQLite store: reloaded from it at a
random version and continued, and verified from the stored log. Separately: tampering
with a stored event is detected (4). WESTMARCH_WOTR_DEEP_EVERY=n runs 2 and 3 for every
n-th game only (default 1: every game).

The same checks run over WESTMARCH_WOTR_BOT_GAMES games per scenario (default 500) against
the Shadow bots (Against the Shadow), alternating the two difficulties, the Free Peoples
answering at random: there a game forked at a random event and continued makes the same bot
moves (the same events), and no decision is ever asked of a bot seat.

The games are split into chunks so that pytest-xdist spreads them over the cores.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from bots import random_choice
from domain.game import Game, Recorded
from domain.kernel.events import DecisionAnswered, DecisionRequested, Event
from domain.kernel.runtime import fold
from domain.verify import check_chain, verify
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from service.app import Westmarch, store_env
from tests.invariant_support import Probed, check_rate, play_probed
from tests.test_invariants import _tamper

GAMES = int(os.environ.get("WESTMARCH_WOTR_GAMES", "1000"))
BOT_GAMES = int(os.environ.get("WESTMARCH_WOTR_BOT_GAMES", "500"))
SCENARIOS = ("trilogy", "two-player-duel", "three-player-duel", "fellowship")
DEEP_EVERY = int(os.environ.get("WESTMARCH_WOTR_DEEP_EVERY", "1"))
CHUNKS = 8
STORE_EVERY = 40
ENCODE = WOTR.codec.encode


def new_game(scenario: str, seed: int) -> Game:
    return Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options(scenario), seed))


def new_bot_game(scenario: str, seed: int) -> Game:
    """A game against the Shadow bots: every Shadow seat a bot; odd seeds standard, even challenging."""
    shadow = [d.seat for d in wotr_options(scenario).decks if d.team == "shadow"]
    difficulty = "standard" if seed % 2 else "challenging"
    return Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options(scenario, None, shadow, difficulty), seed))


def play(scenario: str, seed: int, limit: int = 20_000) -> Game:
    game = new_game(scenario, seed)
    rng = random.Random(seed * 7919)
    for _ in range(limit):
        decision = game.state.pending
        if decision is None:
            return game
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    raise AssertionError(f"{scenario} seed {seed}: the game did not end within {limit} decisions")


def _chunk(k: int, games: int = GAMES) -> range:
    size = -(-games // CHUNKS)
    return range(k * size + 1, min(games, (k + 1) * size) + 1)


def check_table(s: WotrState) -> None:
    """Every card is in exactly one zone, the one it names; every item sits with its wielder."""
    placed = [uid for uids in s.zones.values() for uid in uids]
    assert sorted(placed) == sorted(s.cards), "a card is missing from the zones or listed twice"
    for zone, uids in s.zones.items():
        for uid in uids:
            card = s.cards[uid]
            assert card.zone == zone, f"card {uid} is listed in {zone} but says {card.zone}"
            if card.wielder is not None:
                assert s.cards[card.wielder].zone == zone, f"item {uid} is not with its wielder"


def _continue(again: Game, events: list[Event], version: int) -> list[Event]:
    """Resume a game loaded at ``version`` and answer the rest of its recorded decisions."""
    again.resume()
    for event in events[version:]:
        if isinstance(event, DecisionAnswered) and event.seq > again.version:
            again.answer(event.seat, event.decision, event.choice)
    return [*events[:version], *again.pending_events]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_fold_reload_and_verify(scenario: str, chunk: int, tmp_path: Path) -> None:
    check_games(scenario, _chunk(chunk), new_game, tmp_path)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_games_against_bots_fold_reload_and_verify(scenario: str, chunk: int, tmp_path: Path) -> None:
    check_games(scenario, _chunk(chunk, BOT_GAMES), new_bot_game, tmp_path)


def check_games(scenario: str, seeds: range, start: Callable[[str, int], Game], tmp_path: Path) -> None:
    """Play the games of ``seeds`` (probing illegal answers) and check invariants 1, 2, 3, 6."""
    app = Westmarch(store_env(db=str(tmp_path / "games.db")))
    reasons = set()
    probed: list[Probed] = []
    for seed in seeds:
        played = play_probed(start(scenario, seed), seed, ENCODE)
        played.check(f"{scenario} seed {seed}")
        probed.append(played)
        game = played.game
        events = list(game.pending_events)
        assert isinstance(game.state, WotrState)
        bots = game.state.options.bots if game.state.options else ()
        asked = {e.decision.seat for e in events if isinstance(e, DecisionRequested)}
        assert not asked & set(bots), f"{scenario} seed {seed}: a bot seat was asked a decision"
        assert game.state.over is not None, f"seed {seed}: the game did not end"
        reasons.add(game.state.over.reason)
        assert isinstance(game.state, WotrState)
        check_table(game.state)
        # 1. the fold of the events is the state; the hash chain holds
        assert ENCODE(fold(WOTR, events)) == ENCODE(game.state), f"{scenario} seed {seed}: fold differs"
        assert check_chain(WOTR, events).ok, f"{scenario} seed {seed}: hash chain broken"
        if seed % DEEP_EVERY:
            continue
        # 2. reload at a random version, continue: the same events follow
        version = random.Random(seed).randint(1, len(events))
        reloaded = Game(game.id, WOTR, fold(WOTR, events[:version]))
        assert isinstance(reloaded.state, WotrState)
        check_table(reloaded.state)
        replayed = _continue(reloaded, events, version)
        assert [ENCODE(e) for e in replayed] == [ENCODE(e) for e in events], (
            f"{scenario} seed {seed}: reloading at version {version} and continuing diverged"
        )
        # 3. verify re-executes the decisions from the seed
        verdict = verify(WOTR, events)
        assert verdict.ok, f"{scenario} seed {seed}: {verdict}"
        if seed % STORE_EVERY == 0:
            app.save(game)
            stored = Game(game.id, WOTR, app.state_at(game.id, version))
            again = _continue(stored, events, version)
            assert [ENCODE(e) for e in again] == [ENCODE(e) for e in events], (
                f"{scenario} seed {seed}: reloading from SQLite at {version} diverged"
            )
            assert verify(WOTR, app.history(game.id)).ok
    app.close()
    assert reasons, "no game was played"
    check_rate(probed)


@pytest.mark.parametrize("how", ["edit", "remove", "reorder"])
def test_tampering_is_detected(how: str, tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    app = Westmarch(store_env(db=str(path)))
    for seed in range(1, 13):
        game = play(SCENARIOS[seed % len(SCENARIOS)], seed)
        app.save(game)
        version = random.Random(seed).randint(1, game.version - 1)
        _tamper(path, game.id.hex, version, how)
        try:
            events = app.history(game.id)
        except Exception:
            continue  # an edit that breaks the JSON is detected when reading
        verdict = verify(WOTR, events)
        assert not verdict.ok, f"seed {seed}: {how} of event {version} went unnoticed"
        assert verdict.first_bad is not None and verdict.first_bad <= version + 1
    app.close()


def test_envelopes_carry_the_ruleset() -> None:
    game = new_game("trilogy", 1)
    recorded = game.collect_events()
    assert all(isinstance(r, Recorded) and r.ruleset == "wotr" for r in recorded)
    assert [r.originator_version for r in recorded] == list(range(1, len(recorded) + 1))
