"""War of the Ring setup, per scenario: decks, hands, Ring tokens, locations, options."""

from __future__ import annotations

import uuid

import pytest

from domain.game import Game
from domain.kernel.ruleset import SetupError
from domain.rulesets import ruleset
from domain.wotr import events as ev
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import RuleOptions, WotrState


def start(scenario: str, seed: int = 1, **rules: object) -> Game:
    return Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options(scenario, rules), seed))


def state(game: Game) -> WotrState:
    assert isinstance(game.state, WotrState)
    return game.state


def answer_setup_cycles(game: Game) -> None:
    """Every seat cycles the first cards offered until the first round begins."""
    while game.state.pending is not None and game.state.pending.rule == "wotr.cycle":
        d = game.state.pending
        game.answer(d.seat, d.id, tuple(o.id for o in d.options[: d.min]))


def test_the_kernel_knows_wotr_only_through_the_registry() -> None:
    assert ruleset("wotr") is WOTR
    assert ruleset(ev.CardsCycled) is WOTR


def test_trilogy_setup_draw_seven_cycle_two() -> None:
    game = start("trilogy")
    s = state(game)
    assert s.order == ["frodo", "witch-king", "aragorn", "saruman"]
    assert {p.seat: (p.team, p.ring) for p in s.players.values()} == {
        "frodo": ("free", "ready"),
        "witch-king": ("shadow", "ready"),
        "aragorn": ("free", "ready"),
        "saruman": ("shadow", "ready"),
    }
    assert all(len(s.zone(f"{seat}.hand")) == 7 for seat in s.order)
    assert all(len(s.zone(f"{seat}.deck")) == 31 - 7 for seat in s.order)
    assert [len(s.zone(f"paths.{n}")) for n in range(1, 10)] == [3] * 9
    assert len(s.zone("bg.free")) == len(s.zone("bg.shadow")) == 7
    assert s.pending is not None and s.pending.seat == "frodo" and s.pending.max == 2
    answer_setup_cycles(game)
    assert all(len(s.zone(f"{seat}.hand")) + len(s.zone(f"{seat}.cycle")) == 7 for seat in s.order)
    assert all(len(s.zone(f"{seat}.cycle")) == 2 for seat in s.order)
    # Round 1: a battleground of the Free Peoples (Frodo starts) and a path numbered 1.
    while s.step != "action":
        d = s.pending
        assert d is not None
        game.answer(d.seat, d.id, (d.options[0].id,))
    assert s.round == 1
    first = s.zone("battlegrounds")[0]
    assert s.zone("bg.free").count(first) == 0 and len(s.zone("bg.free")) + len(s.zone("bg.shadow")) < 14
    assert s.path_number == 1 and len(s.zone("path")) == 1


@pytest.mark.parametrize(
    ("scenario", "hands", "decks"),
    [
        ("two-player-duel", {"gandalf": 4, "witch-king": 6}, {"gandalf": 62, "witch-king": 62}),
        (
            "three-player-duel",
            {"gandalf": 6, "witch-king": 7, "saruman": 7},
            {"gandalf": 62, "witch-king": 31, "saruman": 31},
        ),
        ("fellowship", {"balrog": 7, "gandalf": 7}, {"balrog": 30, "gandalf": 30}),
    ],
)
def test_other_scenarios_deal_their_hands(scenario: str, hands: dict[str, int], decks: dict[str, int]) -> None:
    game = start(scenario)
    created = next(e for e in game.pending_events if isinstance(e, ev.CardsCreated))
    for seat, n in hands.items():
        opening = next(e for e in game.pending_events if isinstance(e, ev.CardsDrawn) and e.player == seat)
        assert len(opening.cards) == n
        assert sum(1 for c in created.cards if c.owner == seat) == decks[seat]


def test_three_player_duel_turn_order_and_rings() -> None:
    s = state(start("three-player-duel"))
    assert s.pending is not None and s.pending.seat == "witch-king" and s.pending.rule == "wotr.cycle"
    assert s.order == ["gandalf", "witch-king", "gandalf", "saruman"]
    assert all(p.ring == "ready" for p in s.players.values())


def test_fellowship_uses_its_decks_schedule_and_paths() -> None:
    game = start("fellowship")
    s = state(game)
    assert s.order == ["balrog", "gandalf"]
    assert all(p.ring == "" for p in s.players.values())
    assert sum(len(s.zone(f"paths.{n}")) for n in range(1, 10)) == 13
    assert not s.zone("paths.7")
    answer_setup_cycles(game)
    (bg,) = s.zone("battlegrounds")
    assert s.cards[bg].code == "minas-morgul"


def test_rule_options_are_recorded_in_the_first_event() -> None:
    game = start("trilogy", excess_hand="keep", empty_combat="nobody")
    created = game.pending_events[0]
    assert isinstance(created, ev.GameCreated)
    assert created.options.rules == RuleOptions(excess_hand="keep", empty_combat="nobody")
    assert created.options.scenario == "trilogy"


def test_bad_setups_are_refused_with_a_reason() -> None:
    with pytest.raises(SetupError, match="unknown scenario"):
        wotr_options("return-of-the-king")
    with pytest.raises(SetupError, match="excess_hand must be one of"):
        wotr_options("trilogy", {"excess_hand": "discard"})
    with pytest.raises(SetupError, match="unknown rule option"):
        wotr_options("trilogy", {"hand_limit": 3})
