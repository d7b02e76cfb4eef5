"""The greedy Free Peoples bot's rules of play, each shown acting in a real position.

Positions are reached by playing real games against the Shadow bots (the engine, not a
mock); each test then asks the bot for one decision from its seat's view only.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator
from functools import partial

import msgspec

from bots.wotr_greedy import Front, GreedyBot
from bots.wotr_plans import ACTIVATES, activation_worth
from domain.game import Game
from domain.kernel.decisions import Decision
from domain.wotr.cards import CARDS
from domain.wotr.events import CombatEnded
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from projections.wotr import CardView, LocationView, TableView, printed_view
from tools.games import kind


def _game(scenario: str, seed: int) -> Game:
    options = wotr_options(scenario, None, ["shadow"], "standard", None)
    return Game.start(uuid.uuid4(), WOTR, WOTR.created(options, seed))


def _first_turn(game: Game) -> tuple[Decision, TableView]:
    """Answer with the greedy bot up to the Free Peoples' first action-step turn."""
    view = kind("wotr").view
    bots: dict[str, GreedyBot] = {}
    while (decision := game.state.pending) is not None:
        if decision.rule == "wotr.action.turn":
            return decision, view(game.state, decision.seat)
        bot = bots.setdefault(decision.seat, GreedyBot(1))
        game.answer(decision.seat, decision.id, bot.choose(decision, partial(view, game.state, decision.seat)))
    raise AssertionError("the game ended before a Free Peoples turn")


def _round(game: Game) -> int:
    state = game.state
    assert isinstance(state, WotrState)
    return state.round


def test_a_duel_ring_token_is_used_each_round() -> None:
    """Rules §9.2: a Duel's token comes back every round, so the bot draws with it in every
    round (once the Shadow's hand is empty: it answers rather than leads, so not always at
    its first turn)."""
    game = _game("two-player-duel", 3)
    view = kind("wotr").view
    bots: dict[str, GreedyBot] = {}
    used: set[int] = set()
    while (decision := game.state.pending) is not None and _round(game) <= 3:
        bot = bots.setdefault(decision.seat, GreedyBot(1))
        choice = bot.choose(decision, partial(view, game.state, decision.seat))
        if decision.seat == "gandalf" and choice == ("ring",):
            used.add(_round(game))
        game.answer(decision.seat, decision.id, choice)
    assert used == {1, 2, 3}


def test_a_once_a_game_ring_token_is_kept_for_its_point() -> None:
    """Rules §8: an unused Trilogy token scores 1 at the end; the bot keeps it early on."""
    decision, view = _first_turn(_game("trilogy", 3))
    assert decision.option("ring") is not None
    assert GreedyBot(1).choose(decision, lambda: view) != ("ring",)


def _front(view: TableView, loc: LocationView) -> Front:
    return Front(view, loc, "free")


def test_icons_beyond_the_shadows_reach_are_worth_nothing() -> None:
    """A combat held beyond what the Shadow can bring is safe (the bots answer only a lead
    they could overturn): no icon is wasted there, and short of it each icon counts."""
    _, view = _first_turn(_game("trilogy", 3))
    for loc in ([view.path] if view.path else []) + view.battlegrounds:
        front = _front(view, loc)
        front.threat = 3.0
        front.margin = 0
        assert front.gain(1) > 0.0
        front.margin = 3
        assert front.gain(1) == 0.0
        assert front.gain(4) == 0.0


def test_a_shadow_seat_whose_factions_cannot_enter_is_no_threat() -> None:
    """Rules §6: only factions a battleground shows fight there; Helm's Deep is attacked by
    Isengard alone, so the Witch-king's unseen hand (Mordor) adds nothing there."""
    from bots.wotr_greedy import _deck_icons_by

    assert _deck_icons_by("trilogy", "witch-king", "helms-deep", "shadow") == 0.0
    assert _deck_icons_by("trilogy", "saruman", "helms-deep", "shadow") > 0.0
    assert _deck_icons_by("trilogy", "witch-king", "minas-tirith", "shadow") > 0.0


def _card(uid: int, code: str) -> CardView:
    return msgspec.structs.replace(printed_view(code, uid), owner="frodo")


def test_a_leader_alone_adds_no_leadership_icons_to_a_battleground() -> None:
    """Rules digest §6.3: a character's leadership icons count on a battleground only while
    an army of its faction there supports it. Ghân-buri-Ghân (Rohan, leadership 1, no
    battleground icons) defending Edoras alone adds nothing (the bot counted his icon there,
    and sent leaders alone to battlegrounds they could not hold); beside an unpaired Rohan
    army he adds his icon, and the army arriving beside him adds his too."""
    _, view = _first_turn(_game("trilogy", 3))
    edoras = LocationView(uid=9001, code="edoras", name="Edoras", kind="battleground", vp=1, defense=1, deck="free")
    edoras.defending = ("wizard", "rohan")
    edoras.attacking = ("isengard",)
    leader = _card(9002, "frodo-084")
    riders = next(code for code, d in CARDS.items() if d.type == "army" and d.faction == "rohan" and d.bg_defense)
    army = _card(9003, riders)
    front = _front(view, edoras)
    assert front.icons(leader) == 0
    edoras.cards = [army]
    assert _front(view, edoras).icons(leader) == 1
    edoras.cards = [leader]
    assert _front(view, edoras).icons(army) == army.bg_defense + 1


def test_the_bot_holds_while_a_shadow_hand_still_has_cards() -> None:
    """The Shadow bots play a random card each turn until their hands are empty (seed 003,
    flowchart step 4; they pass only when every combat is theirs): a Free Peoples seat that
    may pass waits, and answers what they committed instead of leading."""
    game = _game("trilogy", 3)
    view = kind("wotr").view
    bots: dict[str, GreedyBot] = {}
    held = 0
    while (decision := game.state.pending) is not None and held < 3:
        seen = view(game.state, decision.seat)
        bot = bots.setdefault(decision.seat, GreedyBot(1))
        choice = bot.choose(decision, partial(lambda table: table, seen))
        shadow_holds = any(p.bot and p.hand_size > 0 for p in seen.players)
        if decision.rule == "wotr.action.turn" and decision.option("pass") is not None and shadow_holds:
            assert choice == ("pass",)
            held += 1
        game.answer(decision.seat, decision.id, choice)
    assert held == 3


def test_a_text_that_fights_the_path_now_is_used_while_the_path_is_held() -> None:
    """Strider's text activates the next path and fights the current one first (card text):
    worth more than another use while the Free Peoples hold the path against a Shadow that
    could still overturn it, worth less while they are losing it (corruption now)."""
    _, view = _first_turn(_game("trilogy", 3))
    assert view.path is not None
    strider = msgspec.structs.replace(
        printed_view(next(c for c, d in CARDS.items() if d.name == "Strider"), 9010), owner="frodo"
    )
    bot = GreedyBot(1)
    front = _front(view, view.path)
    bot._fronts = {view.path.uid: front}
    front.threat = 3.0
    front.margin = 1
    held = bot._fight_now(strider, view)
    assert held is not None and held > 0.0
    front.own = 3.0  # the Free Peoples could still take it back
    front.margin = -1
    losing = bot._fight_now(strider, view)
    assert losing is not None and losing < 0.0
    assert bot._fight_now(_card(9011, "frodo-084"), view) is None


def test_passing_again_is_as_good_as_passing_first() -> None:
    """Passing again repeats no card text: after passing often this round the bot passes
    whenever it would have passed at its first turn (the same bot with its passes
    forgotten). Its passes used to wear the pass down like a repeated text until, once the
    Shadow's hands were empty, it sent cards it had held to combats it could not win."""
    game = _game("two-player-duel", 1)
    view = kind("wotr").view
    bots: dict[str, GreedyBot] = {}
    compared = 0
    while (decision := game.state.pending) is not None and _round(game) <= 4:
        seen = view(game.state, decision.seat)
        bot = bots.setdefault(decision.seat, GreedyBot(1))
        passed = bot.taken[(_round(game), "pass")]
        if decision.rule == "wotr.action.turn" and decision.option("pass") is not None and passed >= 2:
            fresh = copy.deepcopy(bot)
            del fresh.taken[(_round(game), "pass")]
            if fresh.choose(decision, partial(lambda table: table, seen)) == ("pass",):
                compared += 1
                assert bot.choose(decision, partial(lambda table: table, seen)) == ("pass",)
                game.answer(decision.seat, decision.id, ("pass",))
                continue
        game.answer(decision.seat, decision.id, bot.choose(decision, partial(lambda table: table, seen)))
    assert compared > 5


def _battleground_turns(game: Game, deck: str) -> Iterator[tuple[Decision, GreedyBot, int]]:
    """Play the game with the greedy bot in every seat, yielding each Free Peoples
    action-step turn (with its bot, already asked) once per active battleground of
    ``deck``; the bot's answer is played once the caller has looked."""
    view = kind("wotr").view
    bots: dict[str, GreedyBot] = {}
    while (decision := game.state.pending) is not None:
        bot = bots.setdefault(decision.seat, GreedyBot(1))
        choice = bot.choose(decision, partial(view, game.state, decision.seat))
        state = game.state
        assert isinstance(state, WotrState)
        if decision.rule == "wotr.action.turn" and not state.is_bot(decision.seat):
            for uid, front in bot._fronts.items():
                if front.loc.kind == "battleground" and front.loc.deck == deck:
                    yield decision, bot, uid
        game.answer(decision.seat, decision.id, choice)


def _fought(game: Game, target: int, first: str) -> tuple[str | None, set[str]]:
    """Answer the pending decision with ``first`` (the answer looked at), then play on with
    the greedy bot in every seat until the combat on ``target``: who took it, and every
    answer given on the way."""
    view = kind("wotr").view
    bots: dict[str, GreedyBot] = {}
    answers: set[str] = set()
    while (decision := game.state.pending) is not None:
        bot = bots.setdefault(decision.seat, GreedyBot(1))
        choice = bot.choose(decision, partial(view, game.state, decision.seat)) if answers else (first,)
        answers.update(choice)
        for event in game.answer(decision.seat, decision.id, choice):
            if isinstance(event, CombatEnded) and event.location == target:
                return event.winner, answers
    raise AssertionError("the battleground was never fought")


def test_a_battleground_is_attacked_only_with_a_group_that_takes_it() -> None:
    """Every attacker in a battleground combat is eliminated, and the attack takes the
    battleground only beyond every defending icon (rules digest §6.3): the bot sends no card
    to a Shadow battleground that no group of its cards can take beyond the Shadow's reach
    (it used to send one at a time and fall short of the printed defence), and when a group
    can, it sends the whole group and takes the battleground. Two-player Duel, seed 1:
    Dol Guldur in round 1 is out of reach; in round 6 two Free Peoples cards in reserve take
    Orthanc (defence 2) beyond the Shadow's reserve."""
    game = _game("two-player-duel", 1)
    planned: tuple[str, ...] = ()
    target = -1
    first = ""
    declined: list[str] = []
    for decision, bot, uid in _battleground_turns(game, "shadow"):
        plan = bot._plans[uid]
        sends = [o.id for o in decision.options if o.id.startswith("move.") and o.id.endswith(f".{uid}")]
        sends += [o.id for o in decision.options if o.id.startswith("play.") and o.id.endswith(f".L{uid}")]
        answered = bot.shortlist(decision, 1)
        assert answered is not None
        if plan is None and sends:
            assert answered[0][0] not in sends
            declined.append(bot._fronts[uid].loc.code)
        if plan is not None and len(plan.options) >= 2 and answered[0][0] in plan.options:
            planned, target, first = plan.options, uid, answered[0][0]
            break
    assert "dol-guldur" in declined
    assert len(planned) >= 2
    winner, answers = _fought(game, target, first)
    assert winner == "free"
    assert set(planned) <= answers


def test_a_battleground_is_defended_with_a_group_that_holds_it() -> None:
    """The defenders hold a battleground only if their icons cancel every attack icon
    (rules digest §6.3): the bot sends the group of cards that holds its battleground
    against the attack there and the Shadow's reserve that may join it, not one card at a
    time short of it. Three-player Duel, seed 2, round 2: a group of Free Peoples cards
    (planned: four, three from hand) holds Minas Tirith."""
    game = _game("three-player-duel", 2)
    planned: tuple[str, ...] = ()
    target = -1
    first = ""
    for decision, bot, uid in _battleground_turns(game, "free"):
        plan = bot._plans[uid]
        answered = bot.shortlist(decision, 1)
        assert answered is not None
        if plan is not None and len(plan.options) >= 3 and answered[0][0] in plan.options:
            planned, target, first = plan.options, uid, answered[0][0]
            break
    assert len(planned) >= 3
    winner, answers = _fought(game, target, first)
    assert winner == "free"
    assert len(set(planned) & answers) >= 3  # replanned as the Shadow answers, still a group


def test_anduril_goes_where_the_shadows_reserve_cannot_answer() -> None:
    """Andúril activates a Dúnedain battleground and moves its wielder there (card text):
    the bot weighs each against the Shadow's reserve cards that may enter it (a Shadow bot
    moves them in while it could conceivably win, seed 003 flowchart step 3). Trilogy,
    seed 6, round 3: it sends Aragorn to Harad, which the Southron reserve cannot hold
    (not to Minas Morgul, which the Mordor reserve would), and takes it."""
    game = _game("trilogy", 6)
    view = kind("wotr").view
    bots: dict[str, GreedyBot] = {}
    target = -1
    winner = None
    while (decision := game.state.pending) is not None and winner is None:
        seen = view(game.state, decision.seat)
        bot = bots.setdefault(decision.seat, GreedyBot(1))
        choice = bot.choose(decision, partial(lambda table: table, seen))
        if decision.rule == "wotr.aragorn-046.action" and target < 0:
            me = next(p for p in seen.players if p.seat == decision.seat)
            wielder = next(c for c in me.reserve if any(ACTIVATES in i.text for i in c.items))
            others = [c for c in me.reserve if c.uid != wielder.uid and not c.reserved]
            worth = {o.label: activation_worth(seen, "free", o.label, wielder, others) for o in decision.options}
            picked = next(o.label for o in decision.options if o.id == choice[0])
            assert picked == "Harad"
            assert worth["Harad"] > worth["Minas Morgul"]
            assert worth["Harad"] == max(worth.values())
            target = int(choice[0])
        for event in game.answer(decision.seat, decision.id, choice):
            if isinstance(event, CombatEnded) and event.location == target:
                winner = event.winner
    assert winner == "free"
