"""The greedy LCG player and event cards: it plays an event where the table shows it helps,
passes where the same event is legal but useless, aims it well, and plays whole games with
decks full of events."""

from __future__ import annotations

import uuid
from typing import Any, cast

import msgspec

from bots import make_bot
from bots.lcg_greedy import GreedyBot
from domain.game import Game
from domain.kernel.decisions import Choice
from domain.lcg.cards import CARDS
from domain.lcg.events import EventPlayed
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.lcg.state import HeroSetup, LcgState
from projections.lcg import view
from tools.fixtures import Run
from tools.games import kind
from tools.simulate import play_out


def _run(heroes: list[str], zones: dict[str, Any], at: str, phase: str) -> Run:
    return Run({"game": {"players": 1, "heroes": [heroes]}, "position": {"at": at, "phase": phase, "zones": zones}})


def _greedy(game: Game) -> Choice:
    state = cast(LcgState, game.state)
    decision = state.pending
    assert decision is not None
    return GreedyBot(1).choose(decision, lambda: view(state, decision.seat))


def _feint_position(enemy: str) -> Run:
    return _run(
        ["Gimli", "Legolas", "Thalin"],
        {
            "p1.heroes": [{"card": "Gimli", "resources": 1}, "Legolas", "Thalin"],
            "p1.hand": ["Feint"],
            "p1.engaged": [enemy],
        },
        "lcg.combat.window.shadows",
        "combat",
    )


def test_feint_against_a_strong_attacker_not_a_weak_one() -> None:
    assert CARDS["core-098"].attack < 3 <= CARDS["core-097"].attack  # Black Forest Bats, East Bight Patrol
    strong = _feint_position("East Bight Patrol")
    weak = _feint_position("Black Forest Bats")
    assert _greedy(strong.game) == (f"{strong.uid('Feint')}.0",)
    assert _greedy(weak.game) == ("pass",)


def test_radagasts_cunning_on_the_most_threatening_enemy() -> None:
    run = _run(
        ["Denethor", "Glorfindel", "Beravor"],
        {
            "p1.heroes": [
                {"card": "Denethor", "resources": 1, "exhausted": True, "committed": True},
                {"card": "Glorfindel", "exhausted": True, "committed": True},
                "Beravor",
            ],
            "p1.hand": ["Radagast's Cunning"],
            "staging": ["Black Forest Bats", "Ungoliant's Spawn"],
        },
        "lcg.quest.window.staging",
        "quest",
    )
    game = run.game
    decision = game.state.pending
    assert decision is not None and decision.rule == "lcg.quest.window.staging"
    game.answer("p1", decision.id, _greedy(game))
    target = game.state.pending
    assert target is not None and target.rule == "core-065.action"
    assert _greedy(game) == (str(run.uid("Ungoliant's Spawn")),)


def test_a_test_of_will_is_played_on_a_harmful_reveal() -> None:
    run = _run(
        ["Éowyn", "Dúnhere", "Aragorn"],
        {
            "p1.heroes": [
                {"card": "Éowyn", "resources": 1, "exhausted": True, "committed": True},
                "Dúnhere",
                "Aragorn",
            ],
            "p1.hand": ["A Test of Will"],
            "encounter.deck": ["The Necromancer's Reach"],
        },
        "lcg.quest.staging",
        "quest",
    )
    assert _greedy(run.game) == ("yes",)


def test_greedy_games_with_decks_full_of_events() -> None:
    played: set[str] = set()
    for seed in range(1, 13):
        options = lcg_options("passage-through-mirkwood", seed % 4 + 1, None, "standard")
        deck = tuple(c.code for c in CARDS.values() if c.type in ("ally", "event") for _ in range(c.quantity))
        options = msgspec.structs.replace(options, players=tuple(HeroSetup(p.heroes, deck) for p in options.players))
        game = Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))
        bots = {seat: make_bot("greedy", seed * 10 + i) for i, seat in enumerate(LCG.seats(game.state))}
        play_out(game, bots, kind("lcg"))
        assert game.state.over is not None
        cards = cast(LcgState, game.state).cards
        played |= {cards[e.card].code for e in game.pending_events if isinstance(e, EventPlayed)}
    assert len(played) >= 8, f"the greedy player played only {sorted(CARDS[c].name for c in played)}"
