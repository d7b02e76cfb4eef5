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


def _evil_storm_revealed(threat: int) -> Run:
    """Evil Storm revealed while A Test of Will is in hand, the player at ``threat``, Thalin at 1 hit point."""
    return Run(
        {
            "game": {"players": 1, "heroes": [["Éowyn", "Dúnhere", "Thalin"]]},
            "position": {
                "at": "lcg.quest.staging",
                "phase": "quest",
                "threat": {"p1": threat},
                "zones": {
                    "p1.heroes": [
                        {"card": "Éowyn", "resources": 1, "exhausted": True, "committed": True},
                        "Dúnhere",
                        {"card": "Thalin", "damage": 3},
                    ],
                    "p1.hand": ["A Test of Will"],
                    "encounter.deck": ["Evil Storm"],
                },
            },
        }
    )


def test_a_test_of_will_is_kept_while_evil_storm_does_nothing() -> None:
    # Evil Storm hurts only a player at 35 threat or more: below it the cancel is wasted
    low, high = _evil_storm_revealed(34), _evil_storm_revealed(35)
    for run in (low, high):
        decision = run.game.state.pending
        assert decision is not None and decision.rule == "lcg.event.response"
    assert _greedy(low.game) == ("no",)
    assert _greedy(high.game) == ("yes",)


def test_greedy_games_with_decks_full_of_events() -> None:
    played: set[str] = set()
    for seed in range(1, 13):
        options = lcg_options("passage-through-mirkwood", seed % 4 + 1, None, "standard")
        deck = tuple(c.code for c in CARDS.values() if c.type in ("ally", "event") for _ in range(c.quantity))
        options = msgspec.structs.replace(options, players=tuple(HeroSetup(p.heroes, deck) for p in options.players))
        game = Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))
        bots = {seat: make_bot("greedy", seed * 10 + i) for i, seat in enumerate(LCG.seats(cast(LcgState, game.state)))}
        play_out(game, bots, kind("lcg"))
        assert game.state.over is not None
        cards = cast(LcgState, game.state).cards
        played |= {cards[e.card].code for e in game.pending_events if isinstance(e, EventPlayed)}
    assert len(played) >= 8, f"the greedy player played only {sorted(CARDS[c].name for c in played)}"


def _blade_mastery_position(enemy: str) -> Run:
    """After the enemies' attacks, before the player's: Thalin (2 attack, 1 Tactics resource)
    and Éowyn (1) ready, Legolas (3) exhausted, Blade Mastery in hand and ``enemy`` engaged
    (its attack already made)."""
    return _run(
        ["Thalin", "Éowyn", "Legolas"],
        {
            "p1.heroes": [{"card": "Thalin", "resources": 1}, "Éowyn", {"card": "Legolas", "exhausted": True}],
            "p1.hand": ["Blade Mastery"],
            "p1.engaged": [enemy],
        },
        "lcg.combat.window.enemy-attacks",
        "combat",
    )


def _through_the_attacks(run: Run, first: Choice | None = None) -> int | None:
    """Answer the window with ``first`` (else the greedy bot's answer), then let the greedy
    bot answer until the combat phase is over; the character Blade Mastery was played on."""
    game = run.game
    decision = cast(LcgState, game.state).pending
    assert decision is not None and decision.rule == "lcg.combat.window.enemy-attacks"
    game.answer(decision.seat, decision.id, first if first is not None else _greedy(game))
    target = None
    for _ in range(60):
        state = cast(LcgState, game.state)
        decision = state.pending
        if state.phase != "combat" or decision is None:
            return target
        choice = _greedy(game)
        if decision.rule == "core-032.action":
            target = int(choice[0])
        game.answer(decision.seat, decision.id, choice)
    raise AssertionError("the combat phase did not end")


def test_blade_mastery_is_not_played_for_a_kill_its_one_bonus_cannot_make() -> None:
    """Blade Mastery gives +1 attack to ONE character (core-032). Thalin and Éowyn attack
    for 3 against the Forest Spider's 1 defense and 4 hit points: the old check counted +1
    for each of them (5) and played it, but played the spider lives: 4 attack at most, 3
    damage through its defense."""
    spider = CARDS["core-096"]
    assert (spider.name, spider.defense, spider.hit_points) == ("Forest Spider", 1, 4)
    run = _blade_mastery_position("Forest Spider")
    assert _greedy(run.game) == ("pass",)
    # what the old check did: play it (on the hardest-hitting ready character) and attack
    window = cast(LcgState, run.game.state).pending
    assert window is not None
    played = next(o.id for o in window.options if o.card == run.uid("Blade Mastery"))
    assert _through_the_attacks(run, (played,)) == run.uid("Thalin")
    state = cast(LcgState, run.game.state)
    assert state.cards[run.uid("Blade Mastery")].zone == "p1.discard"
    assert state.cards[run.uid("Forest Spider")].zone == "p1.engaged"
    assert 0 < state.cards[run.uid("Forest Spider")].damage < spider.hit_points


def test_blade_mastery_is_played_on_a_ready_attacker_for_the_kill_it_makes() -> None:
    """Thalin and Éowyn attack for 3 against the King Spider's 1 defense and 3 hit points:
    one more attack kills it. The bot plays Blade Mastery on a ready attacker (Thalin), not
    on the exhausted Legolas who hits hardest but cannot attack, and the spider dies."""
    king = CARDS["core-074"]
    assert (king.name, king.defense, king.hit_points) == ("King Spider", 1, 3)
    run = _blade_mastery_position("King Spider")
    window = cast(LcgState, run.game.state).pending
    assert window is not None
    assert _greedy(run.game) == (next(o.id for o in window.options if o.card == run.uid("Blade Mastery")),)
    assert _through_the_attacks(run) == run.uid("Thalin")
    state = cast(LcgState, run.game.state)
    assert state.cards[run.uid("Blade Mastery")].zone == "p1.discard"
    assert state.cards[run.uid("King Spider")].zone != "p1.engaged"
