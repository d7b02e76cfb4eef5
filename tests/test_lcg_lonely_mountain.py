"""The Lonely Mountain as whole games: setup (Bilbo Baggins, the treasures, Smaug), random-bot
games under the invariants, and what the table and the event feed show of a burgle attempt.

Sources: The Hobbit: On the Doorstep, The Lonely Mountain rules insert (Burgle); A Warm Welcome
1A (#71, Setup); Bilbo Baggins (#1: the first player gains control; outside the hero limit).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import cast

import msgspec

from domain.game import Game
from domain.kernel.events import Event
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
    state = cast(LcgState, run.game.state)
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
    state = cast(LcgState, run.game.state)
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
    s = cast(LcgState, kept.game.state)
    mountain, smaug = kept.uid("The Lonely Mountain"), kept.uid("Smaug the Magnificent")
    assert constant.cannot_leave_staging(s, mountain) and constant.cannot_leave_staging(s, smaug)
    assert travel.reachable(s) == [kept.uid("Western Slopes")]
    assert not procedures.explorable(s, mountain)
    assert not constant.cannot_leave_staging(s, kept.uid("Western Slopes"))

    free = _position(staging, [])
    s = cast(LcgState, free.game.state)
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
    state = cast(LcgState, fold(LCG, list(run.game.pending_events)))
    state.pending = None  # the travel decision is asked again once the effects are done
    sink: list[Event] = []
    runtime = Runtime(LCG, state, sink)
    runtime.call("test.lonely-mountain.leave-staging", {}, caller={})
    runtime.run()
    discarded = [e for e in sink if isinstance(e, ev.CardsDiscarded)]
    assert [e.cards for e in discarded] == [(slopes,)]
    assert not any(isinstance(e, ev.EnemyEngaged) for e in sink)
    assert state.cards[mountain].zone == "staging" and state.cards[smaug].zone == "staging"


# -- every clause of the scenario's cards, and where it is shown acting ---------------------

CLAUSES: list[tuple[str, str, str]] = [
    # (card, clause, evidence: "rule:<reference a fixture's events carry>",
    #  "fixture:<file under tests/fixtures/lcg>" or "test:<test of this module>")
    ("otd-001", "outside the hero limit; the first player controls him", "test:test_setup_bilbo_treasures_and_smaug"),
    (
        "otd-001",
        "gains resources from no card but a treasure",
        "fixture:bilbo-baggins-gains-no-resources-from-a-non-treasure-card",
    ),
    ("otd-001", "Action: 1 resource, search the deck for a treasure", "rule:otd-001.action"),
    (
        "otd-001",
        "if he leaves play (destroyed), the players lose",
        "fixture:lonely-mountain-loss-when-bilbo-leaves-play",
    ),
    (
        "otd-001",
        "... (his controller eliminated), the players lose",
        "fixture:lonely-mountain-loss-when-bilbos-controller-is-eliminated",
    ),
    ("otd-020", "Action: exhaust, +X threat: the next ally of the hero's sphere costs X less", "rule:otd-020.action"),
    ("otd-020", "... only the next such ally", "rule:otd-020.forced"),
    (
        "otd-021",
        "attach to Bilbo Baggins: +1 defense, +1 hit point",
        "fixture:mithril-shirt-played-on-bilbo-defense-and-hit-points",
    ),
    ("otd-022", "Restricted", "fixture:thrors-treasures-are-restricted-a-third-on-a-hero-means-one-goes"),
    ("otd-022", "+2 attack", "fixture:thrors-battle-axe-attack-and-response"),
    ("otd-022", "Response: 1 damage to another engaged enemy", "rule:otd-022.response"),
    ("otd-023", "Restricted", "fixture:thrors-treasures-are-restricted-a-third-on-a-hero-means-one-goes"),
    ("otd-023", "gains Ranged, +2 attack on a ranged attack", "fixture:thrors-hunting-bow-ranged-plus-2-attack"),
    ("otd-024", "Action: into the victory display (3 points), draw 3", "rule:otd-024.action"),
    (
        "otd-035",
        "while active: staged locations -1 threat",
        "fixture:hidden-path-active-staging-locations-minus-1-threat",
    ),
    ("otd-035", "Travel: 2 Baggins resources", "rule:otd-035.travel"),
    ("otd-035", "... no travel without them", "fixture:hidden-path-no-travel-without-2-baggins-resources"),
    ("otd-036", "Forced: a Condition on the character it damages", "rule:otd-036.forced"),
    ("otd-036", "Shadow: a Condition on the defender", "rule:otd-036.shadow"),
    ("otd-037", "When Revealed: characters outside the named sphere leave the quest", "rule:otd-037.when-revealed"),
    ("otd-037", "Shadow: +1 attack, +2 undefended", "rule:otd-037.shadow"),
    ("otd-038", "When Revealed: exhausted characters -1 willpower, attack, defense", "rule:otd-038.when-revealed"),
    ("otd-038", "Shadow: defender destroyed by this attack: +5 threat", "rule:otd-038.shadow"),
    (
        "otd-038",
        "... not a defender destroyed by a later attack",
        "fixture:weighed-down-shadow-defender-survives-no-threat",
    ),
    ("otd-039", "Response: a burgle attempt attaches it to Smaug the Magnificent", "rule:otd-039.response"),
    ("otd-039", "attached: -3 defense", "fixture:smaug-the-magnificent-attacked-by-the-first-player"),
    ("otd-040", "Indestructible", "fixture:indestructible-enemy-not-destroyed-by-damage-above-hit-points"),
    (
        "otd-040",
        "Immune to player card effects",
        "fixture:smaug-immune-to-player-card-effects-radagasts-cunning-cannot-choose-him",
    ),
    ("otd-040", "cannot be engaged", "fixture:smaug-the-golden-cannot-be-engaged-by-any-means"),
    ("otd-040", "X: questing characters without the Burglar trait", "fixture:burgle-karls-example"),
    ("otd-040", "Forced: the 6th progress: stage 4A", "rule:otd-040.forced"),
    ("otd-041", "Indestructible", "fixture:smaug-the-magnificent-indestructible-damage-beyond-hit-points"),
    (
        "otd-041",
        "Immune to player card effects",
        "fixture:smaug-immune-to-player-card-effects-radagasts-cunning-cannot-choose-him",
    ),
    (
        "otd-041",
        "cannot leave the staging area but by quest card effects",
        "test:test_cards_kept_in_the_staging_area_cannot_leave_it",
    ),
    (
        "otd-041",
        "... nor be engaged",
        "test:test_card_effects_neither_discard_nor_engage_what_stays_in_the_staging_area",
    ),
    ("otd-041", "engaged with the first player", "fixture:smaug-the-magnificent-attacked-by-the-first-player"),
    (
        "otd-041",
        "... yet his threat counts in the staging area",
        "fixture:smaug-the-magnificent-considered-engaged-his-threat-counts-in-the-staging-area",
    ),
    ("otd-041", "Forced: a burgle shadow card: he attacks again", "rule:otd-041.forced"),
    ("otd-042", "Surge", "fixture:surge-chain-a-surge-card-revealed-by-surge-surges-again"),
    ("otd-042", "Forced: a location revealed: 1 progress on Smaug the Golden", "rule:otd-042.forced"),
    ("otd-042", "Burgle: 1 card of its sphere and type", "fixture:burgle-sphere-and-type-match-croaking-crows"),
    (
        "otd-043",
        "immune to player card effects while a card is under it",
        "fixture:the-lonely-mountain-immune-while-treasures-under-it",
    ),
    (
        "otd-043",
        "... no progress from a player card",
        "fixture:the-lonely-mountain-immune-northern-tracker-places-no-progress-on-it",
    ),
    (
        "otd-043",
        "cannot leave the staging area while a card is under it",
        "fixture:the-lonely-mountain-cannot-leave-the-staging-area-no-travel-while-a-card-is-under-it",
    ),
    (
        "otd-043",
        "... and can once none is",
        "fixture:the-lonely-mountain-leaves-the-staging-area-once-nothing-is-under-it",
    ),
    ("otd-043", "-2 threat for each card under it", "fixture:burgle-karls-example"),
    ("otd-043", "Action: 2 resources, take the revealed card, reveal the next", "rule:otd-043.action"),
    ("otd-044", "while active, Forced: 1 progress on Smaug the Golden at the end of the round", "rule:otd-044.forced"),
    ("otd-044", "Burgle: 3 cards of its type", "fixture:burgle-type-match-great-hall"),
    (
        "otd-045",
        "while active: The Lonely Mountain's threat halved",
        "fixture:secret-entrance-travel-named-type-matches-mountain-threat-halved",
    ),
    ("otd-045", "Travel: exhaust a hero, name a type, look at the top card", "rule:otd-045.travel"),
    (
        "otd-045",
        "... a wrong type: no travel this round",
        "fixture:secret-entrance-travel-wrong-type-stays-no-more-travel",
    ),
    ("otd-046", "while active: the round's first treachery gains surge", "rule:otd-046.forced"),
    ("otd-046", "Burgle: 2 cards of its cost", "fixture:burgle-karls-example"),
    ("otd-047", "Response: explored: draw 2 or 1 progress off Smaug the Golden", "rule:otd-047.response"),
    ("otd-047", "Burgle: 2 cards of its sphere", "fixture:burgle-sphere-match-western-slopes"),
    ("otd-048", "Surge", "fixture:pretending-to-sleep-pay-baggins-resources"),
    ("otd-048", "When Revealed: 1 progress on Smaug, pay X or stage 4A", "rule:otd-048.when-revealed"),
    ("otd-048", "... stage 4A when they cannot pay", "fixture:pretending-to-sleep-cannot-pay-advance-to-stage-4"),
    ("otd-048", "Burgle: 2 cards of its type", "fixture:burgle-pretending-to-sleep-type-match"),
    ("otd-049", "When Revealed: 2 random discards, Dragons +1 threat per event", "rule:otd-049.when-revealed"),
    ("otd-049", "Burgle: 1 card of its sphere and cost", "fixture:burgle-sphere-and-cost-match-known-to-an-ounce"),
    (
        "otd-050",
        "When Revealed: Dragons attack the player committing most willpower",
        "fixture:belching-fire-dragons-attack-the-player-committing-most-willpower",
    ),
    (
        "otd-050",
        "... no shadow card, not even to Smaug the Magnificent",
        "fixture:belching-fire-smaug-the-magnificent-attacks-with-no-shadow-card",
    ),
    ("otd-050", "Burgle: 1 card of its type and cost", "fixture:burgle-type-and-cost-match-belching-fire"),
    ("otd-051", "When Revealed: attach to the richest hero", "rule:otd-051.when-revealed"),
    ("otd-051", "-1 willpower per resource", "fixture:dragon-spell-attaches-to-the-richest-hero-spending-hurts"),
    ("otd-051", "Forced: spending N resources deals N damage", "rule:otd-051.forced"),
    (
        "otd-071",
        "1A Setup: Smaugs, The Lonely Mountain, A Bare Patch, the treasures",
        "test:test_setup_bilbo_treasures_and_smaug",
    ),
    ("otd-071", "1B no quest phase", "fixture:lonely-mountain-a-warm-welcome-no-quest-phase-then-stage-2"),
    ("otd-071", "1B Forced: at the end of the round, stage 2", "rule:otd-071.forced"),
    ("otd-072", "2B Forced: quest success: progress on Smaug, burgle, a treasure, may advance", "rule:otd-072.forced"),
    ("otd-072", "... the players advance to stage 3", "fixture:lonely-mountain-stage-3a-and-4-swap-the-smaugs"),
    (
        "otd-072",
        "... before the quest's progress, which then goes on the active location and 2B",
        "fixture:the-burglars-turn-resolves-before-the-quests-progress-then-placed-at-stage-2",
    ),
    (
        "otd-072",
        "... having advanced to stage 3, the quest's progress is placed nowhere",
        "fixture:the-burglars-turn-advancing-to-stage-3-the-quests-progress-is-not-placed",
    ),
    (
        "otd-072",
        "... Smaug the Golden's 6th progress: stage 4A, no burgle attempt",
        "fixture:the-burglars-turn-sixth-progress-on-smaug-stage-4a-no-burgle-attempt",
    ),
    (
        "otd-072",
        "2B Forced: a failed burgle: Smaug the Golden attacks",
        "fixture:burgle-fails-without-matching-cards-smaug-attacks",
    ),
    ("otd-073", "3A When Revealed: the Smaugs swap, A Bare Patch to the staging area", "rule:otd-073.when-revealed"),
    (
        "otd-073",
        "3B not defeated while Smaug the Magnificent is in play",
        "fixture:lonely-mountain-inside-information-not-defeated-while-smaug-holds",
    ),
    ("otd-073", "3B Forced: progress beyond his hit points removes him", "rule:otd-073.forced"),
    (
        "otd-073",
        "3B Forced: damage leaving him fewer hit points than the progress removes him",
        "fixture:inside-information-damage-to-smaug-below-the-progress-removes-him",
    ),
    ("otd-073", "3B defeated: the players win", "fixture:lonely-mountain-win-inside-information-progress-beyond-smaug"),
    ("otd-074", "4A When Revealed: Smaug the Golden out, Smaug the Magnificent in", "rule:otd-074.when-revealed"),
    ("otd-074", "4B Forced: the 7th progress: back to stage 2B", "rule:otd-074.forced"),
]
"""The audit of The Lonely Mountain: every clause of Bilbo Baggins, the five treasures, the
Wilderland and The Lonely Mountain encounter sets and quest stages 1-4, and what shows it."""

_OWN_DIRS = ("cards/the-lonely-mountain", "cards/wilderland-hobbit", "cards/hobbit-treasures")
"""The scenario's own fixtures; from scenario/ and rules/ only those it names or that start
with lonely-mountain."""


def test_every_clause_of_the_scenario_is_shown_acting() -> None:
    from domain.lcg.cards import CARDS
    from tools.fixtures import run_file

    root = Path(__file__).parent / "fixtures" / "lcg"
    # The pack's sphere player cards (Dwarf heroes and allies) are no part of the scenario.
    spheres = ("leadership", "tactics", "spirit", "lore")
    scenario = {c for c in CARDS if c.startswith("otd-") and c != "otd-019" and CARDS[c].sphere not in spheres}
    assert {code for code, _, _ in CLAUSES} == scenario
    needed = {e.split(":", 1)[1] for _, _, e in CLAUSES if e.startswith("fixture:")}
    files = [p for d in _OWN_DIRS for p in (root / d).glob("*.toml")] + [
        p
        for d in ("scenario", "rules")
        for p in (root / d).glob("*.toml")
        if p.stem in needed or p.stem.startswith("lonely-mountain")
    ]
    rules: set[str] = set()
    passed: set[str] = set()
    for path in files:
        result = run_file(path)
        rules |= result.rules
        if result.passed:
            passed.add(path.stem)
    missing = []
    for code, clause, evidence in CLAUSES:
        kind, _, what = evidence.partition(":")
        shown = (
            (kind == "rule" and any(r.startswith(what) for r in rules))
            or (kind == "fixture" and what in passed)
            or (kind == "test" and callable(globals().get(what)))
        )
        if not shown:
            missing.append(f"{code} {clause}: {evidence}")
    assert not missing, missing
