"""The story of a game: every event of both games reads as a plain-English sentence.

- every event type of each ruleset (and the kernel's) has a phrase of its own, and real
  games and the fixtures show each one as a sentence, never the generic ``Type(...)`` line;
- a few sentences of seeded random games, word for word;
- a phrase survives an event body from which every card was removed (a viewer's redacted
  feed), and then names no card;
- in every viewer's feed, neither the feed's text nor the sentence of the redacted body
  (:func:`projections.story.describe_body`) names a card that viewer may not see.
"""

from __future__ import annotations

import random
import re
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bots import random_choice
from domain.game import Game
from domain.kernel.decisions import Decision
from domain.kernel.events import KERNEL_EVENTS, DecisionAnswered, DecisionRequested, Event
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.kernel.state import State
from domain.lcg.decks import Deck
from domain.lcg.lineups import lcg_options, starting_deck
from domain.lcg.ruleset import LCG
from domain.rulesets import names, ruleset
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from projections.feed import SPECTATOR, Feed, projection
from projections.story import Namer, describe, describe_body, phrase_for, phrasebook, story
from tools.fixtures import Run, fixture_files, load

FIXTURES = Path(__file__).parent / "fixtures"
GENERIC = re.compile(r"^[A-Z]\w+\(")
"""The generic fallback line: ``ResourcesAdded(cards=..., amount=1)``."""

NEVER_EMITTED = {"wotr": {"ModifierAdded", "DelayedEffectScheduled"}}
"""Kernel events a game never emits (War of the Ring has no lasting modifiers or delays)."""


def event_types(game: str) -> list[type[Event]]:
    rules = ruleset(game)
    return [*KERNEL_EVENTS, *(t for t in rules.events if t not in KERNEL_EVENTS)]


def play(game: Game, seed: int) -> list[Event]:
    rng = random.Random(seed * 7919)
    for _ in range(20_000):
        decision = game.state.pending
        if decision is None:
            break
        game.answer(decision.seat, decision.id, random_choice(decision, rng))
    return list(game.pending_events)


@cache
def lcg_game(seed: int, players: int, scenario: str = "passage-through-mirkwood") -> tuple[Event, ...]:
    """A game whose every player plays seed 001's deck (the Leadership and Tactics allies) and
    keeps their setup hand: the story below was written from it."""
    allies = Deck("allies", cards=tuple(Counter(starting_deck()).items()))
    options = lcg_options(scenario, players, None, "standard", [allies] * players)
    game = Game.start(uuid.uuid4(), LCG, LCG.created(options, seed))
    while (d := game.state.pending) is not None and d.rule == "lcg.setup.mulligan":
        game.answer(d.seat, d.id, ("keep",))
    return tuple(play(game, seed))


@cache
def wotr_game(seed: int, scenario: str) -> tuple[Event, ...]:
    return tuple(play(Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options(scenario), seed)), seed))


def lines(rules: Ruleset[Any], events: tuple[Event, ...]) -> list[str]:
    return [line for _, line in story(rules, events)]


def taken_back(rules: Ruleset[Any], events: Sequence[Event], seed: int) -> list[Event]:
    """The game taken back to a question half way through: its first events, then what the
    take-back's fresh seed draws afresh, then the question asked again."""
    asked = [e.seq for e in events[: len(events) // 2] if isinstance(e, DecisionRequested)]
    game = Game.forked(uuid.uuid4(), rules, events[: asked[-1]])
    game.reseed(seed)
    return list(game.pending_events)


def fixture_games() -> Iterator[tuple[Ruleset[Any], list[Event]]]:
    """The events of every fixture, played as its steps say."""
    for path in fixture_files([FIXTURES]):
        data = load(path)
        run = Run(data)
        game = run.game
        for step in data.get("step", []):
            decision = game.state.pending
            if decision is None or step.get("refused"):
                break
            game.answer(str(step.get("seat", decision.seat)), decision.id, run.choice(decision, step.get("choose", [])))
        yield run.rules, list(game.pending_events)


def told_game() -> list[Event]:
    """A group of an epic event told what the other groups contributed (not a rule step of its
    own, so no fixture shows it)."""
    from domain.lcg.events import EffectArrived, SharedValueLearned

    run = Run(
        {
            "game": {"scenario": "hunt-for-the-dreadnaught", "players": 1},
            "position": {
                "at": "lcg.quest",
                "phase": "planning",
                "zones": {"p1.allies": ["Eithiliant"], "staging": ["Sea Monster"]},
            },
        }
    )
    run.game.tell(SharedValueLearned(key="progress", others=5, organizer_version=3))
    run.game.tell(EffectArrived(relay=1, source_group=2, source_event=40, effect="golden-wing-damage", amount=6))
    return list(run.game.pending_events)


# -- every event type has its own sentence ----------------------------------------------------


@pytest.mark.parametrize("game", names())
def test_every_event_type_has_a_phrase_of_its_own(game: str) -> None:
    missing = [t.__name__ for t in event_types(game) if phrase_for(game, t.__name__) is None]
    assert not missing, f"{game}: no phrase for {missing} (they would read as Type(...))"


def test_every_event_type_reads_as_a_sentence_in_real_games() -> None:
    games: list[tuple[Ruleset[Any], tuple[Event, ...] | list[Event]]] = [
        (LCG, lcg_game(seed, players)) for seed, players in ((3, 2), (5, 1), (8, 3), (12, 4))
    ]
    games += [(LCG, lcg_game(7, 2, "escape-from-dol-guldur")), (LCG, lcg_game(9, 1, "journey-along-the-anduin"))]
    games += [(WOTR, wotr_game(seed, s)) for seed, s in ((3, "trilogy"), (4, "two-player-duel"), (15, "fellowship"))]
    against_bots = wotr_options("trilogy", None, ["witch-king", "saruman"], "standard")
    bots = tuple(play(Game.start(uuid.uuid4(), WOTR, WOTR.created(against_bots, 6)), 6))
    games += [(WOTR, bots)]
    games += list(fixture_games())
    games.append((LCG, told_game()))
    games += [(LCG, taken_back(LCG, lcg_game(5, 1), 11)), (WOTR, taken_back(WOTR, bots, 12))]
    seen: dict[str, dict[str, str]] = {name: {} for name in names()}
    for rules, events in games:
        for event, line in story(rules, events):
            kind = type(event).__name__
            assert line and not GENERIC.match(line), f"{rules.name} {kind} reads generically: {line}"
            if kind not in ("DecisionRequested", "DecisionAnswered"):  # an option may be labelled "None"
                assert "None" not in line and "{" not in line, f"{rules.name} {kind}: {line}"
            seen[rules.name].setdefault(kind, line)
    for game in names():
        expected = {t.__name__ for t in event_types(game)} - NEVER_EMITTED.get(game, set())
        assert not expected - set(seen[game]), f"{game}: no game showed {sorted(expected - set(seen[game]))}"


@pytest.mark.parametrize("game", names())
def test_a_phrase_survives_a_body_with_every_card_removed(game: str) -> None:
    """A viewer's feed may remove any card field: the sentence then names no card at all."""
    rules = ruleset(game)
    events = lcg_game(3, 2) if game == "lcg" else wotr_game(3, "trilogy")
    state = rules.new_state()
    for event in events[:40]:
        apply(rules, state, event)
    namer = Namer(rules, state)
    for event_type in event_types(game):
        text = describe_body(event_type.__name__, {}, namer)
        assert text and not GENERIC.match(text), f"{event_type.__name__}: {text}"
        assert "#" not in text, f"{event_type.__name__} names a card from an empty body: {text}"


def test_an_event_no_game_knows_falls_back_to_the_generic_line() -> None:
    class SomethingOdd(Event, frozen=True, kw_only=True):
        card: int
        amount: int = 1

    state = LCG.new_state()
    for event in lcg_game(3, 2)[:2]:
        apply(LCG, state, event)
    text = describe(SomethingOdd(card=1, amount=2), Namer(LCG, state))
    assert text == "SomethingOdd(card=Aragorn, amount=2)"


# -- word for word ------------------------------------------------------------------------------

LCG_SEED_3 = [
    "a game of Passage through Mirkwood begins (standard, seed 3): "
    "p1 with Aragorn, Gimli and Legolas; p2 with Théodred, Glóin and Thalin",
    "p1 starts with threat 32",
    "the encounter deck is shuffled (36 cards)",
    "the quest is now stage 1A: Flies and Spiders",
    "Forest Spider is added to the staging area",
    "the quest card turns to stage 1B: Flies and Spiders",
    "Aragorn, Gimli and Legolas each gain 1 resource",
    "p1 draws Veteran Axehand",
    "p2 must decide: Quest: commit characters (exhaust them) [choose up to 3 of 3]",
    "p2 chooses: Théodred (p2)",
    "p2 commits Théodred to the quest",
    "p2 uses Théodred's response",
    "Old Forest Road is revealed",
    "the quest: willpower 2 against threat 6",
    "p1 raises their threat by 4 (now 36)",
    "the players travel to Old Forest Road",
    "Forest Spider engages p1",
    "Forest Spider gets +1 attack until the end of the round",
    "Forest Spider is dealt a shadow card, face down: Dol Guldur Orcs",
    "Forest Spider attacks p1",
    "Forest Spider attacks p1; Legolas defends",
    "Forest Spider's shadow card is revealed: Dol Guldur Orcs",
    "Legolas takes 3 damage",
    "Dol Guldur Orcs goes to the encounter discard pile",
    "p1 attacks Forest Spider with Aragorn",
    "p2 chooses: Play Faramir (cost 4)",
    "p2 plays Faramir, paying 2 from Théodred and 2 from Glóin",
    "3 progress tokens are placed on Old Forest Road",
    "Old Forest Road is explored",
    "Caught in a Web is attached to Legolas",
    "Forest Spider attacks p1; nobody defends",
    "p2 is eliminated: their threat reached 50",
]

WOTR_SEED_3 = [
    "a game of War of the Ring begins, Trilogy (seed 3): frodo and aragorn for the Free Peoples; "
    "witch-king and saruman for the Shadow; turn order frodo, witch-king, aragorn, saruman; "
    "Ring tokens: frodo, witch-king, aragorn and saruman",
    "Théoden and Frodo Baggins go to frodo's cycle pile",
    "Minas Tirith becomes an active battleground",
    "path 1, Bag End, becomes the active path",
    "frodo plays Treebeard to their reserve",
    "witch-king plays The Lidless Eye onto Minas Tirith",
    "aragorn plays Blade of Westernesse on Fatty Bolger",
    "witch-king plays the event The Black Captain",
    "aragorn uses up their Ring token",
    "frodo passes",
    "combat at Minas Tirith, the Shadow attacking: attack 0 against defense 3 (the defending cards show 2)",
    "the Free Peoples take Minas Tirith",
    "the Shadow takes Bag End and 1 corruption",
    "the score: Free Peoples 3, Shadow 1",
    "frodo draws 3 cards: Narya, Ring of Fire; Sam Gamgee and Gandalf the Grey",
    "witch-king becomes the starting player",
    "frodo moves Treebeard from reserve onto Minas Morgul",
    "1 defense token is placed on Amon Hen",
    "the defenders lose Legolas, cancelling 1 attack icon",
    "GAME OVER: the Free Peoples win (sudden death)",
]


def test_lcg_sentences_word_for_word() -> None:
    told = lines(LCG, lcg_game(3, 2))
    missing = [s for s in LCG_SEED_3 if s not in told]
    assert not missing, "\n".join(["missing:", *missing, "story:", *told[:200]])
    assert told[-1].startswith("GAME OVER: the players lose")


def test_wotr_sentences_word_for_word() -> None:
    told = lines(WOTR, wotr_game(3, "trilogy"))
    missing = [s for s in WOTR_SEED_3 if s not in told]
    assert not missing, "\n".join(["missing:", *missing, "story:", *told[:200]])


def test_a_seat_reads_its_own_answers_by_label_and_the_others_see_no_hidden_card() -> None:
    events = lcg_game(3, 2)
    told: dict[str, list[str]] = {}
    for viewer in ("p1", "p2"):
        feed = Feed(LCG, viewer, LCG.new_state())
        told[viewer] = []
        for event in events:
            projected = feed.project(event)
            text = describe_body(projected.type, projected.body, feed.namer) if projected.redacted else projected.text
            told[viewer].append(text)
    # p1's first draw: p1 sees the card, p2 only that a card was drawn
    at = next(i for i, line in enumerate(told["p1"]) if line == "p1 draws Veteran Axehand")
    assert told["p2"][at] == "p1 draws a card"
    # a shadow card is dealt face down: nobody but the referee knows it
    at = lines(LCG, events).index("Forest Spider is dealt a shadow card, face down: Dol Guldur Orcs")
    assert told["p1"][at] == told["p2"][at] == "Forest Spider is dealt a face-down shadow card"
    at = told["p2"].index("p2 chooses: Play Faramir (cost 4)")
    assert told["p1"][at - 1] == "p2 must decide which card to play"
    assert told["p1"][at] == "p2 chooses a hidden card"  # Faramir, still in p2's hand


# -- nothing hidden is named ---------------------------------------------------------------------


def _allowed(decision: Decision | None, viewer: str) -> set[int]:
    """Cards a seat's own pending decision shows it (its options, the card it is about)."""
    if decision is None or decision.seat != viewer:
        return set()
    out = {o.card for o in decision.options if o.card is not None}
    if decision.about is not None:
        out.add(decision.about)
    return out


def _hidden(rules: Ruleset[Any], state: State, viewer: str) -> set[int]:
    game = projection(rules.name)
    return {uid for uid in state.cards if not game.visible(state, viewer, uid)}  # type: ignore[attr-defined]


def _plain_names(rules: Ruleset[Any], state: State, uids: set[int]) -> dict[str, set[int]]:
    """The cards among ``uids`` that sentences name without their uid, by name."""
    book = phrasebook(rules.name)
    out: dict[str, set[int]] = {}
    if book is not None:
        for uid in uids:
            plain = book.name(state, uid)
            if plain is not None:
                out.setdefault(plain, set()).add(uid)
    return out


def _named(rules: Ruleset[Any], state: Any, text: str, hidden: set[int], prose: bool = True) -> set[int]:
    """The hidden cards ``text`` names: by ``#uid``, or (in ``prose``, not the words of a
    decision the game put to this seat) by a name given without a uid (a location, a hero)
    that is not part of the name of a card the viewer sees."""
    found = {int(u) for u in re.findall(r"#(\d+)", text)} & hidden
    plain = {n: u for n, u in _plain_names(rules, state, hidden).items() if n in text} if prose else {}
    if plain:
        rest = text
        for uid in re.findall(r"#(\d+)", text):
            rest = rest.replace(f"{rules.card_name(state, int(uid))}#{uid}", " ")
        for name in sorted({rules.card_name(state, u) for u in state.cards if u not in hidden}, key=len, reverse=True):
            rest = rest.replace(name, " ")
        for name, uids in plain.items():
            if re.search(rf"(?<![\w']){re.escape(name)}(?![\w#])", rest):
                found |= uids
    return found


LEAK_GAMES = [("lcg", 3, 2), ("lcg", 21, 3), ("lcg", 34, 1), ("wotr", 5, "two-player-duel"), ("wotr", 6, "trilogy")]


@pytest.mark.parametrize(("game", "seed", "setup"), LEAK_GAMES)
def test_no_text_in_any_feed_names_a_card_its_viewer_may_not_see(game: str, seed: int, setup: Any) -> None:
    rules = ruleset(game)
    events = lcg_game(seed, setup) if game == "lcg" else wotr_game(seed, setup)
    referee = rules.new_state()
    seats = sorted({e.decision.seat for e in events if isinstance(e, DecisionRequested)})
    viewers = [*seats, SPECTATOR]
    feeds = {v: Feed(rules, v, rules.new_state(), uids=True) for v in viewers}  # so a name tells which card
    before = {v: _hidden(rules, referee, v) for v in viewers}
    checked = redacted = 0
    for event in events:
        pending = referee.pending
        apply(rules, referee, event)
        if referee.over is not None:
            break
        for viewer in viewers:
            after = _hidden(rules, referee, viewer)
            feed = feeds[viewer]
            projected = feed.project(event)
            texts = [projected.text]
            if projected.redacted:
                texts.append(describe_body(projected.type, projected.body, feed.namer))
                redacted += 1
            hidden = before[viewer] & after
            hidden -= _allowed(pending, viewer) | _allowed(referee.pending, viewer)
            hidden -= projection(game).reveals(event, viewer)
            own = isinstance(event, DecisionRequested | DecisionAnswered) and projected.body.get("seat", "") in (
                viewer,
                (projected.body.get("decision") or {}).get("seat") if projected.type == "DecisionRequested" else "",
            )
            for text in texts:
                leaked = _named(rules, referee, text, hidden, prose=not own)
                assert not leaked, f"{viewer} reads hidden {sorted(leaked)} in event {event.seq}: {text!r}"
            checked += 1
            before[viewer] = after
    assert checked > 200 and redacted > 20


def test_the_feed_sentence_of_a_redacted_event_counts_what_it_hides() -> None:
    events = lcg_game(3, 2)
    feed = Feed(LCG, SPECTATOR, LCG.new_state())
    seen: dict[str, str] = {}
    for event in events:
        projected = feed.project(event)
        if projected.redacted:
            seen.setdefault(projected.type, describe_body(projected.type, projected.body, feed.namer))
    assert seen["CardsCreated"] == (
        "94 cards come to the table: p1's heroes Aragorn, Gimli and Legolas; "
        "p2's heroes Théodred, Glóin and Thalin; 88 face-down cards"
    )
    assert seen["GameCreated"].startswith("a game of Passage through Mirkwood begins (standard): ")
    assert seen["DeckShuffled"] == "p1's deck is shuffled (24 cards)"
    assert seen["CardsDrawn"] == "p1 draws 6 cards"
    assert seen["ShadowCardDealt"] == "Forest Spider is dealt a face-down shadow card"
    # the first decision of a game
    assert seen["DecisionRequested"] == "p1 must decide whether to keep their opening hand"


def test_story_remembers_the_question_to_tell_the_answer() -> None:
    events = lcg_game(3, 2)
    answers = [
        (e, line)
        for e, line in story(LCG, events)
        if isinstance(e, DecisionAnswered) and isinstance(events[e.decision - 1], DecisionRequested)
    ]
    assert answers and all(line.startswith(f"{e.seat} chooses") for e, line in answers)
    # a Namer that never saw the question tells the choice in words, never its id
    state = LCG.new_state()
    for event in events:
        apply(LCG, state, event)
        if isinstance(event, DecisionAnswered) and event.choice == ("done",):
            assert describe(event, Namer(LCG, state)) == f"{event.seat} chooses to stop"
            break


def test_other_seats_answers_are_told_by_name_never_by_id() -> None:
    """A seat's feed tells the answers to questions it was not shown in words: the cards
    it may see by name, the rest as hidden cards, and never an option id."""
    import random
    import re
    import uuid

    from domain.game import Game
    from domain.wotr.options import wotr_options
    from domain.wotr.ruleset import WOTR
    from projections.feed import Feed
    from tests.conftest import play_randomly

    game = Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options("trilogy", {}), 2))
    play_randomly(game, random.Random(2))
    events = list(game.pending_events)
    feed = Feed(WOTR, "frodo", WOTR.new_state())
    told = [p.text for p in feed.project_many(events) if p.type == "DecisionAnswered"]
    others = [t for t in told if not t.startswith("frodo ")]
    assert others
    bare = [re.sub(r"#\d+|\b\d+ hidden cards|\b[1-9] hidden card", "", t.split(" chooses ", 1)[1]) for t in others]
    assert not [t for t in bare if re.search(r"\d|\w\.\w", t)], bare
    assert any(re.search(r"chooses (play|use|move) [A-Z]", t) for t in others)
    assert not [t for t in told if re.search(r"#\d+", t)]
