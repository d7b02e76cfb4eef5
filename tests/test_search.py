"""The search bot and the worlds it plays in: it never sees what its seat cannot.

Every bot's choice is the same when the cards hidden from its seat are permuted among the
places they could be (decks, other hands, face-down shadow cards, location decks) and the
game's seed is changed: what it decides cannot depend on them. The search is reproducible
from its seed, appends nothing and changes nothing. Win rates are benchmarks
(``westmarch bench-bots``), not tests; here a handful of games only check that the search
bot finishes games with legal answers.
"""

from __future__ import annotations

import math
import random
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bots import make_bot, random_choice
from bots.search import Budget, OptionValue, SearchBot, candidates, evaluate, rollout, wilson
from bots.worlds import copy_state, hidden_places, searchable, world
from domain.game import Game
from domain.kernel.decisions import Decision, Kind, Option, check_choice
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import Runtime, UnchainedState, apply, fold
from domain.kernel.state import UNCHAINED
from domain.kernel.stored import stored_fold
from domain.lcg.lineups import lcg_options
from domain.lcg.ruleset import LCG
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from tools.fixtures import Run, load

FIXED_BY_THE_RULES = {"lcg": {"quest.deck", "set-aside"}, "wotr": set()}
"""Zones whose hidden cards a world keeps as they are: the rules say what they are (the
quest deck in order, cards a scenario sets aside by name). Every other hidden card is dealt."""


def lcg_game(seed: int, scenario: str = "passage-through-mirkwood", players: int = 1) -> Game:
    return Game.start(uuid.uuid4(), LCG, LCG.created(lcg_options(scenario, players, None, "standard"), seed))


def wotr_game(seed: int, scenario: str = "trilogy", bots: tuple[str, ...] = ("shadow",)) -> Game:
    options = wotr_options(scenario, None, list(bots), "standard" if bots else "", None)
    return Game.start(uuid.uuid4(), WOTR, WOTR.created(options, seed))


def advance(game: Game, decisions: int, seed: int, until: Callable[[Decision], bool] | None = None) -> Game:
    """Play ``decisions`` greedy answers, then on to the first decision ``until`` accepts."""
    name = game.rules.name
    view = searchable(name).view
    bots: dict[str, Any] = {}
    for n in range(10_000):
        decision = game.state.pending
        assert decision is not None, "the game ended before the position wanted"
        if n >= decisions and (until is None or until(decision)):
            return game
        bot = bots.setdefault(decision.seat, make_bot("greedy", seed, name))
        game.answer(decision.seat, decision.id, bot.choose(decision, partial(view, game.state, decision.seat)))
    raise AssertionError("no such decision")


def searched(decision: Decision) -> bool:
    """A decision with a few answers to compare (a handful keeps the test fast)."""
    blueprint = (decision.options[0].id,) if decision.options else (str(decision.min),)
    return 1 < len(candidates(decision, blueprint)) <= 5


def permuted(rules: Ruleset[Any], state: Any, seat: str, seed: int) -> Any:
    """``state`` with the cards hidden from ``seat`` permuted at random within each pool
    (which card is where, and which uid is which card) and a new game seed."""
    rng = random.Random(seed)
    out: Any = copy_state(rules, state)
    moved: dict[int, Any] = {}
    for places in hidden_places(searchable(rules.name), out, seat).values():
        uids = [out.zones[zone][i] for zone, i in places]
        slots = [out.cards[u] for u in uids]
        identities = [(c.code, c.owner) for c in slots]
        rng.shuffle(uids)
        rng.shuffle(identities)
        for (zone, i), slot, uid, (code, owner) in zip(places, slots, uids, identities, strict=True):
            out.zones[zone][i] = uid
            moved[uid] = msgspec.structs.replace(slot, uid=uid, code=code, owner=owner)
    out.cards = {uid: moved.get(uid, card) for uid, card in out.cards.items()}
    out.seed = rng.getrandbits(40)
    return out


def encode(rules: Ruleset[Any], state: Any) -> bytes:
    return rules.codec.encode(state)


POSITIONS = [
    pytest.param(lambda: advance(lcg_game(3), 25, 3, searched), id="lcg-mirkwood-solo"),
    pytest.param(lambda: advance(lcg_game(5, players=2), 40, 5, searched), id="lcg-mirkwood-two-players"),
    pytest.param(lambda: advance(lcg_game(4, "escape-from-dol-guldur"), 30, 4, searched), id="lcg-dol-guldur"),
    pytest.param(lambda: advance(lcg_game(2, "hunt-for-the-dreadnaught"), 30, 2, searched), id="lcg-dreadnaught"),
    pytest.param(lambda: advance(lcg_game(6, "the-lonely-mountain"), 30, 6, searched), id="lcg-lonely-mountain"),
    pytest.param(lambda: advance(wotr_game(2), 30, 2, searched), id="wotr-against-the-shadow"),
    pytest.param(lambda: advance(wotr_game(7, "two-player-duel", ()), 45, 7, searched), id="wotr-duel"),
]


@pytest.mark.parametrize("position", POSITIONS)
def test_a_world_depends_on_nothing_the_seat_cannot_see(position: Callable[[], Game]) -> None:
    game = position()
    rules, state = game.rules, game.state
    seat = state.pending.seat
    spec = searchable(rules.name)
    pooled = {zone for places in hidden_places(spec, state, seat).values() for zone, _ in places}
    hidden = {c.zone for u, c in state.cards.items() if not spec.visible(state, seat, u)}
    assert hidden - pooled <= FIXED_BY_THE_RULES[rules.name], "hidden cards a world would keep as they are"
    assert pooled, "nothing hidden: the test would prove nothing"
    other = permuted(rules, state, seat, 99)
    assert encode(rules, other) != encode(rules, state)
    for n in range(3):
        a = world(rules, spec, state, seat, random.Random(n))
        b = world(rules, spec, other, seat, random.Random(n))
        assert encode(rules, a) == encode(rules, b)
    # and a world is a real game: the decision pending is the one asked
    assert world(rules, spec, state, seat, random.Random(0)).pending == state.pending


@pytest.mark.parametrize("position", POSITIONS)
def test_every_bot_chooses_the_same_whatever_is_hidden(position: Callable[[], Game]) -> None:
    game = position()
    rules, state = game.rules, game.state
    decision = state.pending
    seat = decision.seat
    other = permuted(rules, state, seat, 7)
    view = searchable(rules.name).view
    for kind in ("random", "greedy"):
        a = make_bot(kind, 11, rules.name).choose(decision, partial(view, state, seat))
        b = make_bot(kind, 11, rules.name).choose(decision, partial(view, other, seat))
        assert a == b, kind
    budget = Budget(rollouts=1)
    a_values = evaluate(rules, state, seat, budget, 5)
    b_values = evaluate(rules, other, seat, budget, 5)
    assert a_values == b_values
    assert len(a_values) > 1
    # enough worlds that the search bot may leave its blueprint's answer (FIRST_LOOK)
    bots = [SearchBot(rules, lambda s=s: s, Budget(rollouts=8), 5, horizon=1) for s in (state, other)]  # type: ignore[misc]
    assert bots[0].choose(decision, partial(view, state, seat)) == bots[1].choose(decision, partial(view, other, seat))


@pytest.mark.parametrize("position", POSITIONS[:1] + POSITIONS[-2:-1])
def test_evaluate_is_reproducible_and_changes_nothing(position: Callable[[], Game]) -> None:
    game = position()
    rules, state = game.rules, game.state
    before = encode(rules, state)
    events = len(game.pending_events)
    seat = state.pending.seat
    first = evaluate(rules, state, seat, Budget(rollouts=3), 21)
    assert evaluate(rules, state, seat, Budget(rollouts=3), 21) == first
    assert encode(rules, state) == before
    assert len(game.pending_events) == events
    for value in first:
        check_choice(state.pending, value.choice)
        assert 0.0 <= value.low <= value.value <= value.high <= 1.0
        assert value.rollouts == 3
    # the referee's evaluation reads the true cards; it too changes nothing
    evaluate(rules, state, seat, Budget(rollouts=1), 21, referee=True)
    assert encode(rules, state) == before


def test_evaluate_refuses_another_seats_decision() -> None:
    game = advance(lcg_game(3), 5, 3)
    with pytest.raises(ValueError, match="not p2's"):
        evaluate(LCG, game.state, "p2", Budget(rollouts=1), 1)


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(30, 100)
    assert 0.21 < low < 0.22 and 0.39 < high < 0.40
    assert wilson(10, 10)[1] == 1.0


def test_candidates_of_each_kind_are_legal_and_start_with_the_blueprint() -> None:
    opts = tuple(Option(str(i), f"option {i}", card=i) for i in range(8))
    one = Decision(1, "p1", Kind.ONE, "?", "r", opts)
    many = Decision(1, "p1", Kind.MANY, "?", "r", opts, min=0, max=8)
    few = Decision(1, "p1", Kind.MANY, "?", "r", opts[:3], min=0, max=3)
    order = Decision(1, "p1", Kind.ORDER, "?", "r", opts[:4])
    number = Decision(1, "p1", Kind.NUMBER, "?", "r", (), min=0, max=9)
    for decision, blueprint in (
        (one, ("3",)),
        (many, ("1", "2")),
        (few, ("1",)),
        (order, ("0", "1", "2", "3")),
        (number, ("4",)),
    ):
        found = candidates(decision, blueprint)
        assert found[0] == blueprint
        assert len(set(found)) == len(found) > 1
        for choice in found:
            check_choice(decision, choice)
    assert len(candidates(few, ("1",))) == 8  # every subset of three
    # a card the seat may not use is no candidate, unless every answer needs one
    assert ("5",) not in candidates(one, ("3",), lambda i: i != "5")
    assert candidates(one, ("3",), lambda i: False) == [(str(i),) for i in (3, 0, 1, 2, 4, 5, 6, 7)]


def test_search_bot_plays_games_to_the_end_with_legal_answers() -> None:
    """A smoke run: the ends of three games on a tiny budget, every answer checked by the
    rules themselves."""
    for game in (advance(lcg_game(8), 40, 8), advance(lcg_game(9, players=2), 140, 9), advance(wotr_game(8), 110, 8)):
        name = game.rules.name
        view = searchable(name).view
        bots = {
            seat: make_bot("search", 3, name, state=lambda g=game: g.state, budget=Budget(rollouts=1))  # type: ignore[misc]
            for seat in game.rules.seats(game.state)
        }
        while (decision := game.state.pending) is not None:
            choice = bots[decision.seat].choose(decision, partial(view, game.state, decision.seat))
            game.answer(decision.seat, decision.id, choice)
        assert game.state.over is not None


def test_the_search_bot_needs_the_games_state() -> None:
    with pytest.raises(ValueError, match="same process"):
        make_bot("search", 1, "lcg")
    assert isinstance(OptionValue(("a",), 0.5, 0.4, 0.6, 10), OptionValue)
    assert random_choice


def partnered(game: Game) -> Callable[[Decision], bool]:
    """A decision offering cards of the deciding seat's partner (and cards of its own)."""
    spec = searchable(game.rules.name)

    def test(decision: Decision) -> bool:
        owners = {spec.partner_of(game.state, o.card, decision.seat) for o in decision.options if o.card is not None}
        return None in owners and len(owners) > 1

    return test


@pytest.mark.parametrize("seed", [1, 7])
def test_no_bot_spends_a_partners_cards_without_consent(seed: int) -> None:
    game = lcg_game(seed, players=2)
    game = advance(game, 0, seed, partnered(game))
    state, decision = game.state, game.state.pending
    seat = decision.seat
    spec = searchable("lcg")
    partners = {o.id for o in decision.options if o.card is not None and spec.partner_of(state, o.card, seat)}
    assert partners and len(partners) < len(decision.options)
    view = partial(spec.view, state, seat)
    budget = Budget(rollouts=2)
    for kind in ("greedy", "search"):
        choice = make_bot(kind, 4, "lcg", state=lambda: state, budget=budget).choose(decision, view)
        assert not set(choice) & partners, kind
    assert all(not set(v.choice) & partners for v in evaluate(LCG, state, seat, budget, 3, horizon=1))
    # with the partner's consent its cards are candidates like the seat's own
    consented = evaluate(LCG, state, seat, budget, 3, consent=frozenset(state.players) - {seat}, horizon=1)
    assert any(set(v.choice) & partners for v in consented)


@pytest.mark.parametrize("position", [POSITIONS[0], POSITIONS[5]])
def test_a_rollout_cut_at_its_horizon_values_the_position(position: Callable[[], Game]) -> None:
    game = position()
    rules, state = game.rules, game.state
    spec = searchable(rules.name)
    assert spec.value is not None and spec.horizon is not None
    decision = state.pending
    assert decision is not None
    seat = decision.seat
    players = {s: spec.blueprint(5, frozenset(rules.seats(state))) for s in rules.seats(state)}
    base = world(rules, spec, state, seat, random.Random(1))
    start = spec.clock(base)
    blueprint = players[seat].choose(decision, partial(spec.view, base, seat))
    cut = copy_state(rules, base)
    won, value = rollout(rules, spec, cut, seat, blueprint, players, horizon=1)
    if cut.over is None:
        assert spec.clock(cut) == start + 1 and cut.pending is not None
        assert won == value == spec.value(cut, seat) and 0.0 < value < 1.0
    whole = copy_state(rules, base)
    rollout(rules, spec, whole, seat, blueprint, players)
    assert whole.over is not None


def test_the_search_bot_keeps_the_blueprints_answer_unless_confident() -> None:
    """SPARTA's rule: with a confidence no search can reach, the search bot answers as its
    blueprint (the greedy bot) would, decision after decision."""
    game = lcg_game(12)
    view = searchable("lcg").view
    sure = SearchBot(LCG, lambda: game.state, Budget(rollouts=2), 3)
    sure.DEVIATE_Z = math.inf
    greedy = make_bot("greedy", 3, "lcg")
    while (decision := game.state.pending) is not None:
        choice = sure.choose(decision, partial(view, game.state, decision.seat))
        assert choice == greedy.choose(decision, partial(view, game.state, decision.seat))
        game.answer(decision.seat, decision.id, choice)
    assert sure.searched > 0 and sure.deviated == 0


@pytest.mark.parametrize("seed", [2])
def test_a_game_played_by_the_search_bot_is_reproducible_from_its_seed(seed: int) -> None:
    """With a budget in rollouts, the same seeds give the same answers, hence the same game."""

    def played() -> tuple[list[tuple[str, ...]], bytes]:
        game = lcg_game(seed, "journey-along-the-anduin")
        view = searchable("lcg").view
        bot = SearchBot(LCG, lambda: game.state, Budget(rollouts=1), seed)
        answers: list[tuple[str, ...]] = []
        for _ in range(14):
            decision = game.state.pending
            if decision is None:
                break
            answers.append(bot.choose(decision, partial(view, game.state, decision.seat)))
            game.answer(decision.seat, decision.id, answers[-1])
        assert bot.searched > 0
        return answers, encode(LCG, game.state)

    assert played() == played()


FIXTURES = Path(__file__).parent / "fixtures" / "analysis"


@pytest.mark.parametrize(
    ("name", "stat", "wins_from"),
    [("lcg-lethal-attack-wins-now.toml", "attack", 5), ("lcg-quest-wins-now.toml", "willpower", 3)],
    ids=["lethal-attack", "quest-wins-now"],
)
def test_the_search_bot_takes_the_answer_that_wins_now(name: str, stat: str, wins_from: int) -> None:
    """Positions whose best answers are known (any other loses at 50 threat): the search bot
    never searches its way from a winning answer to a losing one."""
    from domain.lcg.rules import table

    run = Run(load(FIXTURES / name))
    state = run.game.state
    decision = state.pending
    assert decision is not None
    bot = SearchBot(LCG, lambda: state, Budget(rollouts=10), 1)
    choice = bot.choose(decision, partial(searchable("lcg").view, state, decision.seat))
    check_choice(decision, choice)
    assert sum(getattr(table, stat)(state, int(uid)) for uid in choice) >= wins_from


def test_a_war_of_the_ring_search_compares_the_blueprints_best_few_actions() -> None:
    """An action step offers each card in hand to each place: the search compares the
    blueprint's few best, its own answer first, not a score of answers sharing the budget."""
    from bots.worlds import SHORTLIST
    from bots.wotr_greedy import GreedyBot

    game = advance(wotr_game(4), 0, 4, lambda d: d.rule == "wotr.action.turn" and len(d.options) > SHORTLIST)
    decision = game.state.pending
    assert decision is not None
    spec = searchable("wotr")
    bot = GreedyBot(4)
    answer = bot.choose(decision, partial(spec.view, game.state, decision.seat))
    few = spec.shortlist(bot, decision)
    assert few is not None and len(few) == SHORTLIST and few[0] == answer
    assert len(set(few)) == SHORTLIST and all(decision.option(c[0]) is not None for c in few)
    # only the decision it has just answered: another's ranking is not this one's
    assert spec.shortlist(GreedyBot(4), decision) is None


def test_a_war_of_the_ring_position_is_worth_the_icons_held_in_reserve() -> None:
    """A card in a team's reserve moves to a combat for free later (rules §5): the value a
    cut rollout ends on counts it, for its team and against the other, beside the score."""
    from domain.wotr.rules import table

    game = advance(wotr_game(5), 0, 5, lambda d: d.rule == "wotr.action.turn")
    state: Any = game.state
    spec = searchable("wotr")
    assert spec.value is not None
    free = next(s for s in state.seats() if state.team_of(s) == "free")
    shadow = next(s for s in state.seats() if state.team_of(s) == "shadow")

    def with_reserve(seat: str) -> Any:
        out: Any = copy_state(WOTR, state)
        uid = next(u for u in out.zone(f"{seat}.hand") if table.defn(out, u).type in ("character", "army"))
        out.zones[f"{seat}.hand"].remove(uid)
        out.zones.setdefault(f"{seat}.reserve", []).append(uid)
        out.cards[uid] = msgspec.structs.replace(out.cards[uid], zone=f"{seat}.reserve")
        return out

    now = spec.value(state, free)
    assert 0.0 < now < 1.0 and spec.value(state, shadow) == pytest.approx(1.0 - now)
    assert spec.value(with_reserve(free), free) > now
    assert spec.value(with_reserve(shadow), free) < now


def _played_as_a_stored_game(rules: Ruleset[Any], state: Any, choice: Any, players: dict[str, Any]) -> Game:
    """What a rollout did before it had a runtime of its own: every event chained and kept,
    decision after decision, as a stored game plays (the reference the rollout must match)."""
    game = Game(uuid.uuid4(), rules, state)
    decision = state.pending
    game.answer(decision.seat, decision.id, choice)
    view = searchable(rules.name).rollout_view or searchable(rules.name).view
    while (decision := game.state.pending) is not None:
        game.answer(
            decision.seat,
            decision.id,
            players[decision.seat].choose(decision, partial(view, game.state, decision.seat)),
        )
    return game


@pytest.mark.parametrize("position", POSITIONS)
def test_a_rollout_plays_as_a_stored_game_without_its_hash_chain(position: Callable[[], Game]) -> None:
    """Seeded rollouts played to the end by the rollout's runtime (no sink, no chain) and by
    a stored game's (every event hashed and kept) end in the same state, head apart, with the
    same result: nothing the rules do reads the chain or the kept events."""
    game = position()
    rules, state = game.rules, game.state
    spec = searchable(rules.name)
    assert state.pending is not None
    seat = state.pending.seat
    seats = rules.seats(state)
    everyone = frozenset(seats)
    for n in range(2):
        base = world(rules, spec, state, seat, random.Random(n))
        blueprint = spec.blueprint(n, everyone).choose(base.pending, partial(spec.view, base, seat))

        def players(n: int = n) -> dict[str, Any]:
            return {s: spec.blueprint(100 + n, everyone) for s in seats}

        fast = copy_state(rules, base)
        result = rollout(rules, spec, fast, seat, blueprint, players())
        stored = _played_as_a_stored_game(rules, copy_state(rules, base), blueprint, players())
        slow = stored.state
        assert slow.over is not None and fast.over == slow.over
        assert result == spec.result(slow, seat)
        assert fast.version == slow.version > base.version
        assert fast.head == UNCHAINED and slow.head == stored.pending_events[-1].hash
        fast.head = slow.head
        assert encode(rules, fast) == encode(rules, slow)
        # the stored game's events fold to the same state: its chain is a game's
        assert encode(rules, fold(rules, stored.pending_events, copy_state(rules, base))) == encode(rules, slow)


def test_a_rollouts_state_can_never_become_a_games() -> None:
    """A state a rollout played on has no head to trust: a game, a chaining runtime, the fold
    (in memory, from stored rows, one event) refuse it, and a copy of it too; the game it was drawn
    from goes on untouched."""
    game = advance(lcg_game(3), 25, 3, searched)
    rules, state = game.rules, game.state
    spec = searchable(rules.name)
    decision = state.pending
    assert decision is not None
    seat = decision.seat
    everyone = frozenset(rules.seats(state))
    played = world(rules, spec, state, seat, random.Random(4))
    blueprint = spec.blueprint(4, everyone).choose(played.pending, partial(spec.view, played, seat))
    rollout(rules, spec, played, seat, blueprint, {s: spec.blueprint(4, everyone) for s in everyone}, horizon=1)
    assert played.head == UNCHAINED and played.version > state.version
    for candidate in (played, copy_state(rules, played)):
        with pytest.raises(UnchainedState):
            Game(uuid.uuid4(), rules, candidate)
        with pytest.raises(UnchainedState):
            Runtime(rules, candidate, []).run()
        with pytest.raises(UnchainedState):
            fold(rules, [], candidate)
        with pytest.raises(UnchainedState):
            apply(rules, candidate, game.pending_events[-1])
        with pytest.raises(UnchainedState):
            stored_fold(rules).fold([], candidate)
    # a rollout's runtime marks the state it is given at once, before any event
    untouched = copy_state(rules, state)
    Runtime(rules, untouched, None)
    assert untouched.head == UNCHAINED and untouched.version == state.version
    before = state.head
    game.answer(decision.seat, decision.id, blueprint)
    assert state.head != before and state.head == game.pending_events[-1].hash


def test_a_game_whose_own_state_a_rollout_played_on_stops() -> None:
    """A rollout given a game's live state instead of a copy: the game refuses its next
    command (nothing is appended), and its events, reloaded, are the game as it was."""
    game = advance(lcg_game(3), 25, 3, searched)
    rules, state = game.rules, game.state
    spec = searchable(rules.name)
    decision = state.pending
    assert decision is not None
    everyone = frozenset(rules.seats(state))
    kept = list(game.pending_events)
    reloaded = fold(rules, kept)
    blueprint = spec.blueprint(4, everyone).choose(decision, partial(spec.view, state, decision.seat))
    rollout(rules, spec, state, decision.seat, blueprint, {s: spec.blueprint(4, everyone) for s in everyone}, 1)
    pending = state.pending
    assert pending is not None and pending.id != decision.id
    with pytest.raises(UnchainedState):
        game.answer(pending.seat, pending.id, (pending.options[0].id,) if pending.options else (str(pending.min),))
    assert list(game.pending_events) == kept
    assert reloaded.head == kept[-1].hash and reloaded.pending == decision
