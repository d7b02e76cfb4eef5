"""The Lonely Mountain as whole games: setup (Bilbo Baggins, the treasures, Smaug), random-bot
games under the invariants, and what the table and the event feed show of a burgle attempt.

Sources: The Hobbit: On the Doorstep, The Lonely Mountain rules insert (Burgle); A Warm Welcome
1A (#71, Setup); Bilbo Baggins (#1: the first player gains control; outside the hero limit).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import msgspec

from domain.game import Game
from domain.kernel.runtime import fold
from domain.lcg import events as ev
from domain.lcg import hobbit_events as hev
from domain.lcg.cards import CARDS
from domain.lcg.decks import playable, random_deck
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.verify import verify
from projections.feed import Feed
from projections.lcg import view, visible
from tests.conftest import new_lcg
from tests.invariant_support import play_probing
from tools.fixtures import Run, load

SCENARIO = "the-lonely-mountain"
FIXTURES = Path(__file__).parent / "fixtures" / "lcg" / "cards" / "the-lonely-mountain"
TREASURES = {"otd-020", "otd-021", "otd-022", "otd-023", "otd-024"}
GAMES = 500
"""Random-bot games from setup, 1 to 4 players, both difficulties."""


def _codes(state: LcgState, zone: str) -> list[str]:
    return [state.cards[u].code for u in state.zone(zone)]


def _set_up(game: Game) -> LcgState:
    """The game once every player kept their hand and stage 1A's setup ran."""
    while not any(isinstance(e, ev.QuestStageRevealed) for e in game.pending_events):
        decision = game.state.pending
        assert decision is not None and decision.rule == "lcg.setup.mulligan"
        game.answer(decision.seat, decision.id, ("keep",))
    assert isinstance(game.state, LcgState)
    return game.state


def test_setup_bilbo_treasures_and_smaug() -> None:
    for players in (1, 3):
        game = new_lcg(7, players, "standard", SCENARIO)
        state = _set_up(game)
        first = state.first
        heroes = _codes(state, f"{first}.heroes")
        assert heroes[-1] == "otd-001" and len(heroes) == 4, "Bilbo joins the first player's 3 heroes"
        for seat in state.order:
            if seat != first:
                assert "otd-001" not in _codes(state, f"{seat}.heroes")
        assert set(_codes(state, "treasures")) == TREASURES and len(state.zone("treasures")) == 5
        assert set(_codes(state, "staging")) >= {"otd-040", "otd-043"}
        assert set(_codes(state, "set-aside")) == {"otd-041", "otd-039"}
        assert not {"otd-039", "otd-040", "otd-041", "otd-043"} & set(_codes(state, "encounter.deck"))
        stage = state.zone("quest")[0]
        assert state.cards[stage].code == "otd-071" and state.cards[stage].face == "B"
        created = [e for e in game.pending_events if isinstance(e, ev.CardsCreated)]
        assert created[-1].cause.rule.startswith("otd-071.setup")


def test_easy_mode_leaves_out_the_hardest_encounter_cards() -> None:
    """Easy mode (Hall of Beorn's easy counts, domain/lcg/open_questions.md): no Great Hall,
    Pretending to Sleep, Dragon-Spell or Fighting Among Friends, one Weighed Down; 24 cards in
    the encounter deck once setup took out Smaug the Golden, Smaug the Magnificent, The Lonely
    Mountain and A Bare Patch (35 in standard)."""
    for difficulty, size in (("standard", 35), ("easy", 24)):
        state = _set_up(new_lcg(5, 1, difficulty, SCENARIO))
        deck = Counter(_codes(state, "encounter.deck"))
        assert sum(deck.values()) == size, (difficulty, deck)
        if difficulty == "easy":
            assert not {"otd-044", "otd-048", "otd-051", "otd-037"} & set(deck)
            assert deck["otd-038"] == 1 and deck["otd-050"] == 4


def test_bilbo_never_in_a_deck() -> None:
    assert not playable("otd-001")
    rng = random.Random(3)
    for _ in range(50):
        assert "otd-001" not in random_deck(rng).heroes


def test_random_games_keep_the_invariants() -> None:
    encode = LCG.codec.encode
    endings: Counter[str] = Counter()
    burgles: Counter[str] = Counter()
    for seed in range(1, GAMES + 1):
        players = 1 + seed % 4
        game = new_lcg(seed, players, "easy" if seed % 3 == 0 else "standard", SCENARIO)
        game, _ = play_probing(game, seed, encode)
        events = list(game.pending_events)
        assert encode(fold(LCG, events)) == encode(game.state), f"seed {seed}: fold differs"
        verdict = verify(LCG, events)
        assert verdict.ok, f"seed {seed}: {verdict}"
        over = game.state.over
        assert over is not None
        endings[f"{over.result} {over.reason}"] += 1
        for e in events:
            if isinstance(e, hev.BurgleSucceeded):
                burgles["succeeded"] += 1
            elif isinstance(e, hev.BurgleFailed):
                burgles[e.reason] += 1
    assert burgles["succeeded"] > 0 and burgles["not-discarded"] > 0, burgles
    assert sum(endings.values()) == GAMES


def _karl() -> Run:
    """Karl's example played to its end (the question whether to advance to stage 3)."""
    data = load(FIXTURES / "burgle-karls-example.toml")
    run = Run(data)
    for step in data["step"]:
        decision = run.game.state.pending
        assert decision is not None
        run.game.answer(decision.seat, decision.id, run.choice(decision, step["choose"]))
    return run


def test_treasures_under_the_mountain_are_hidden_and_counted() -> None:
    run = _karl()
    state = run.game.state
    under = set(state.zone("treasures"))
    assert len(under) == 4
    for viewer in ("p1", "spectator"):
        table = msgspec.to_builtins(view(state, viewer))
        assert table["treasures"] == 4
        assert not any(visible(state, viewer, u) for u in under)
    taken = run.uid("Thrór's Golden Cup")
    assert visible(state, "p1", taken) and not visible(state, "spectator", taken)


def test_the_turned_up_card_is_public_the_hand_is_not() -> None:
    """Mid-attempt (before the first choice of Karl's example): the turned-up card is face up
    for every viewer; the hand stays its owner's; the event feed follows the same rule."""
    fixture = load(FIXTURES / "burgle-karls-example.toml")
    fixture["step"] = []
    run = Run(fixture)
    state = run.game.state
    turned = state.zone("p1.burgle")
    assert [run.label(u) for u in turned] == ["Steward of Gondor"]
    for viewer in ("p1", "spectator"):
        table = view(state, viewer)
        assert [c.name for c in table.players[0].burgled] == ["Steward of Gondor"]
    assert view(state, "spectator").players[0].hand is None
    hand = set(state.zone("p1.hand"))
    events = list(run.game.pending_events)
    for projected in Feed(LCG, "spectator", LcgState()).project_many(events):
        text = projected.text
        assert not any(run.label(u) in text for u in hand), text
        if projected.type == "BurgleCardTurnedUp":
            assert "Steward of Gondor" in text
    discarded = [e for e in events if isinstance(e, hev.BurgleCardsDiscarded)]
    assert [run.label(u) for u in discarded[0].cards] == ["Dark Bats", "Desolation of Smaug"]
    assert all(CARDS[state.cards[u].code].encounter_set for u in discarded[0].cards)


def test_explain_walks_a_burgle_back_to_its_steps_and_decisions() -> None:
    """Why Karl's attempt succeeded: the discard decision, the burgle decision at the second
    card turned up, back to the quest's success that set off The Burglar's Turn."""
    from projections.explain import explain, lines

    run = _karl()
    events = list(run.game.pending_events)
    success = next(e for e in events if isinstance(e, hev.BurgleSucceeded))
    text = "\n".join(lines(explain(LCG, events, success.seq)))
    assert "lcg.burgle.succeeds" in text and "lcg.burgle.step-3" in text
    assert "Which cards do you discard?" in text and "discard 2 cards matching its cost" in text
    assert "the quest: willpower 6 against threat 5" in text
    turned = [e for e in events if isinstance(e, hev.BurgleCardTurnedUp)]
    assert turned[0].cause.rule == "lcg.burgle.step-2" and turned[1].cause.rule == "otd-043.action"


def _position(staging: list[object], treasures: list[str]) -> Run:
    return Run(
        {
            "game": {"scenario": SCENARIO, "players": 1, "heroes": [["Aragorn", "Gimli", "Legolas"]], "seed": 1},
            "position": {
                "at": "lcg.travel",
                "phase": "travel",
                "zones": {
                    "p1.heroes": ["Aragorn", "Gimli", "Legolas", "Bilbo Baggins"],
                    "quest": ["Inside Information"],
                    "staging": staging,
                    "treasures": treasures,
                },
            },
        }
    )


def test_cards_kept_in_the_staging_area_cannot_leave_it() -> None:
    """The Lonely Mountain (#43) while a card is under it, and Smaug the Magnificent (#41,
    whom only quest card effects move), stay in the staging area: no travel, no exploring
    with enough progress (FAQ 1.18 would explore a staged location), no discarding, no
    engaging. With nothing under it The Lonely Mountain leaves like any location."""
    from domain.lcg.rules import constant, procedures, travel

    staging: list[object] = ["Smaug the Magnificent", {"card": "The Lonely Mountain", "progress": 4}, "Western Slopes"]
    kept = _position(staging, ["Mithril Shirt"])
    s = kept.game.state
    mountain, smaug = kept.uid("The Lonely Mountain"), kept.uid("Smaug the Magnificent")
    assert constant.cannot_leave_staging(s, mountain) and constant.cannot_leave_staging(s, smaug)
    assert travel.reachable(s) == [kept.uid("Western Slopes")]
    assert not procedures.explorable(s, mountain)
    assert not constant.cannot_leave_staging(s, kept.uid("Western Slopes"))

    free = _position(staging, [])
    s = free.game.state
    assert not constant.cannot_leave_staging(s, free.uid("The Lonely Mountain"))
    assert procedures.explorable(s, free.uid("The Lonely Mountain"))
    assert free.uid("The Lonely Mountain") in travel.reachable(s)
    assert constant.cannot_leave_staging(s, free.uid("Smaug the Magnificent"))


def test_card_effects_neither_discard_nor_engage_what_stays_in_the_staging_area() -> None:
    """The effect steps cards share refuse the cards kept in the staging area: a discard
    of The Lonely Mountain with a card under it, an engagement of Smaug the Magnificent
    (a Western Slopes beside them is discarded)."""
    from domain.kernel.flow import Seq, register
    from domain.kernel.runtime import Runtime
    from domain.lcg.effects import discard, engage

    run = _position(["Smaug the Magnificent", "The Lonely Mountain", "Western Slopes"], ["Mithril Shirt"])
    mountain, smaug, slopes = (run.uid(n) for n in ("The Lonely Mountain", "Smaug the Magnificent", "Western Slopes"))
    register(
        "test.lonely-mountain.leave-staging",
        Seq(discard(lambda rt: [mountain, slopes]), engage(lambda rt: smaug, lambda rt: "p1")),
        rule="test.leave-staging",
    )
    state = fold(LCG, list(run.game.pending_events))
    state.pending = None  # the travel decision is asked again once the effects are done
    sink: list[ev.Event] = []
    runtime = Runtime(LCG, state, sink)
    runtime.call("test.lonely-mountain.leave-staging", {}, caller={})
    runtime.run()
    discarded = [e for e in sink if isinstance(e, ev.CardsDiscarded)]
    assert [e.cards for e in discarded] == [(slopes,)]
    assert not any(isinstance(e, ev.EnemyEngaged) for e in sink)
    assert state.cards[mountain].zone == "staging" and state.cards[smaug].zone == "staging"
