"""The player cards beyond the starting decks, in whole games: random and greedy bots play
decks holding every Core Set ally and attachment, with heroes of every sphere, and the
invariants hold (fold, reload-free verify, illegal answers append nothing)."""

from __future__ import annotations

import uuid
from collections import Counter
from functools import partial
from typing import cast

import msgspec
import pytest

from bots import GREEDY
from domain.game import Game
from domain.kernel.events import Event
from domain.kernel.runtime import fold
from domain.lcg import events as ev
from domain.lcg.cards import CARDS
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.verify import verify
from projections.lcg import view
from tests.invariant_support import play_probing

LINEUPS = (
    ["Éowyn", "Eleanor", "Dúnhere"],
    ["Denethor", "Glorfindel", "Beravor"],
    ["Aragorn", "Gimli", "Legolas"],
    ["Théodred", "Glóin", "Thalin"],
)
POOL_DECK = tuple(c.code for c in CARDS.values() if c.type in ("ally", "attachment") for _ in range(c.quantity))
"""Every Core Set ally and attachment at its printed quantity."""


def pool_game(seed: int, players: int) -> Game:
    heroes = [LINEUPS[(seed + i) % len(LINEUPS)] for i in range(players)]
    options = lcg_options("passage-through-mirkwood", players, heroes)
    setups = tuple(msgspec.structs.replace(p, deck=POOL_DECK) for p in options.players)
    created = LCG.created(msgspec.structs.replace(options, players=setups), seed)
    return Game.start(uuid.uuid4(), LCG, created)


def _played(events: list[Event]) -> Counter[str]:
    return Counter(
        CARDS[code].type
        for e in events
        if isinstance(e, ev.AllyPlayed | ev.AttachmentPlayed)
        for code in [_code(events, e.card)]
    )


def _code(events: list[Event], uid: int) -> str:
    created = next(e for e in events if isinstance(e, ev.CardsCreated))
    return next(c.code for c in created.cards if c.uid == uid)


GAMES = 24


def test_random_games_with_the_whole_pool_keep_the_invariants() -> None:
    encode = LCG.codec.encode
    played: Counter[str] = Counter()
    for seed in range(1, GAMES + 1):
        game, _ = play_probing(pool_game(seed, 1 + seed % 4), seed, encode)
        events = list(game.pending_events)
        assert encode(fold(LCG, events)) == encode(game.state), f"seed {seed}: fold differs"
        verdict = verify(LCG, events)
        assert verdict.ok, f"seed {seed}: {verdict}"
        played += _played(events)
    assert played["attachment"] > GAMES and played["ally"] > GAMES, played


@pytest.mark.parametrize("players", [1, 2, 4])
def test_greedy_bots_play_the_new_cards(players: int) -> None:
    attached = Counter[str]()
    for seed in range(1, 5):
        game = pool_game(seed, players)
        bots = {f"p{i + 1}": GREEDY["lcg"](seed * 31 + i) for i in range(players)}
        while (decision := game.state.pending) is not None:
            seat = decision.seat
            game.answer(seat, decision.id, bots[seat].choose(decision, partial(view, cast(LcgState, game.state), seat)))
        assert game.state.over is not None
        events = list(game.pending_events)
        attached.update(CARDS[_code(events, e.card)].name for e in events if isinstance(e, ev.AttachmentPlayed))
    assert sum(attached.values()) > 0
    assert "Dark Knowledge" not in attached
