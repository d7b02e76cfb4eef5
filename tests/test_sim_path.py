"""The simulation path's shortcuts read as their plain versions do.

Every game played goes through a handful of steps on each event or command (the cursor's
flow, a command's guard, a War of the Ring card's move); each was made cheaper, and each
test here pins the cheap reading to the plain one, or checks that the cost it removed does
not come back.
"""

from __future__ import annotations

import ast
import dis
import random
from typing import Any, cast
from uuid import uuid4

from bots import random_choice
from domain import build
from domain.game import Game
from domain.kernel import zones
from domain.kernel.decisions import Option
from domain.kernel.runtime import _extends
from domain.lcg.cards import hunt_for_the_dreadnaught as hunt
from domain.lcg.lineups import lcg_options
from domain.lcg.rules import attachments, planning, playing_events, resources, ships, table, windows
from domain.lcg.rules.constant import ally_cap_reached
from domain.lcg.rules.table import CARDS, cards_in, seats_in_turn, text_of
from domain.lcg.ruleset import LCG
from domain.lcg.scenarios import SCENARIOS as LCG_SCENARIOS
from domain.lcg.state import LcgState
from domain.wotr import moving
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import BOT_UNSEEN, WotrState


def _plain_extends(env: dict[str, Any], below: dict[str, Any]) -> bool:
    """Whether ``env`` starts with the keys of ``below``, in the same order, read plainly."""
    return list(env)[: len(below)] == list(below)


def test_extends_reads_as_the_plain_key_prefix() -> None:
    rng = random.Random(7)
    names = ["_card", "_by", "_ans", "a", "b", "c", "uid", "x"]
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = [({}, {}), ({"a": 1}, {}), ({}, {"a": 1})]
    for _ in range(2000):
        below = {k: 0 for k in rng.sample(names, rng.randint(0, 5))}
        env = dict(below) if rng.random() < 0.5 else {}
        for k in rng.sample(names, rng.randint(0, 4)):
            env[k] = 1
        if rng.random() < 0.3 and env:
            keys = list(env)
            rng.shuffle(keys)
            env = {k: env[k] for k in keys}
        cases.append((env, below))
    for env, below in cases:
        assert _extends(env, below) == _plain_extends(env, below), (env, below)


def test_extends_calls_no_zip() -> None:
    # the compiled core makes a zip through the generic call (its ``strict`` keyword and all):
    # the flow of an event cost some 2 % of a random game's instructions more that way
    tree = ast.parse(build.source("domain.kernel.runtime").read_text(encoding="utf-8"))
    (found,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_extends"]
    called = {n.func.id for n in ast.walk(found) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert "zip" not in called


def _imports(code: Any) -> list[str]:
    return [i.argval for i in dis.get_instructions(code) if i.opname == "IMPORT_NAME"]


def test_a_command_runs_no_import_statement() -> None:
    # ``from`` a plain module looks up its ``__path__`` and fails with a formatted
    # AttributeError each time: some 1.4 % of a random game's instructions, once per command
    assert _imports(Game._guarded) == []
    assert _imports(Game.answer) == []


def _plain_unseen(s: WotrState, zone: str) -> bool:
    """The unseen piles as the state's interpreted method read them before they were compiled."""
    seat, _, rest = zone.partition(".")
    return seat in s.players and (rest == "deck" or (rest in BOT_UNSEEN and s.is_bot(seat)))


def _plain_move(s: WotrState, uid: int, zone: str) -> None:
    """A War of the Ring card's move as the apply functions read before it was compiled."""
    card = zones.lift(s, uid)
    if zone.rsplit(".", 1)[-1] in moving.PILES:
        card.wielder = None
        card.reserved = False
    card.known = _plain_unseen(s, zone) and (card.known or not _plain_unseen(s, card.zone))
    zones.put(s, card, zone)


def _wotr_states() -> list[WotrState]:
    """States along random games of War of the Ring, with and without Shadow bots."""
    states: list[WotrState] = []
    for seed, bots in ((3, ()), (4, ("shadow",))):
        options = wotr_options("trilogy", None, bots, "standard" if bots else "")
        game = Game.start(uuid4(), WOTR, WOTR.created(options, seed))
        rng = random.Random(seed)
        while game.state.pending is not None and game.version < 600:
            if game.version % 150 < 5:
                states.append(WOTR.codec.decode_state(WOTR.codec.encode(game.state)))  # type: ignore[arg-type]
            d = game.state.pending
            game.answer(d.seat, d.id, random_choice(d, rng))
    return states


def test_wotr_moves_read_as_the_plain_apply_functions() -> None:
    codec = WOTR.codec
    rng = random.Random(11)
    for state in _wotr_states():
        piles = [f"{seat}.{pile}" for seat in state.players for pile in (*moving.PILES, "reserve")]
        places = sorted({*state.zones, *piles, "nowhere.deck"})
        for zone in places:
            assert moving.unseen_pile(state, zone) == _plain_unseen(state, zone), zone
        for _ in range(40):
            uid = rng.choice(sorted(state.cards))
            zone = rng.choice(places)
            plain = codec.decode_state(codec.encode(state))
            compiled = codec.decode_state(codec.encode(state))
            assert isinstance(plain, WotrState) and isinstance(compiled, WotrState)
            wielded = [i for i in plain.zone(plain.cards[uid].zone) if plain.cards[i].wielder == uid]
            assert moving.items_on(compiled, uid) == wielded
            _plain_move(plain, uid, zone)
            moving.move(compiled, uid, zone)
            assert codec.encode(compiled) == codec.encode(plain), (uid, zone)


# -- LCG action windows and paying: the reads every window makes -----------------------------


def _plain_with_actions(s: LcgState) -> list[tuple[str | None, int]]:
    """The cards with Actions in play, with who controls them, as read before the game's
    cards with Actions were looked up (every character and attachment scanned)."""
    out: list[tuple[str | None, int]] = []
    cards = s.cards
    acting = [a for a in cards_in(s, "attachments") if text_of(cards[a].code).actions]
    for owner in seats_in_turn(s):
        for u in table.characters(s, owner):
            if text_of(cards[u].code).actions:
                out.append((owner, u))
        if acting:
            out += [(owner, a) for a in table.controlled_attachments(s, owner, acting)]
        out += [(owner, u) for u in cards_in(s, f"{owner}.contract") if text_of(cards[u].code).actions]
    if acting:
        controlled = {u for _, u in out}
        out += [(None, a) for a in acting if a not in controlled and cards[a].owner is None]
    out += [(None, u) for u in cards_in(s, "setup") + cards_in(s, "quest") if text_of(cards[u].code).actions]
    return out


def _plain_event_actions(s: LcgState, seat: str) -> list[Option]:
    """The Action events ``seat`` may play, each asked through its own Action."""
    options: list[Option] = []
    for uid in cards_in(s, f"{seat}.hand"):
        card = CARDS[s.cards[uid].code]
        if card.type != "event":
            continue
        for i, action in enumerate(text_of(card.code).actions):
            if action.available(s, uid, seat):
                options.append(Option(f"{uid}.{i}", f"Play {card.name}: {action.label}", uid))
    return options


def _plain_available_actions(s: LcgState, seat: str, planning: bool) -> list[Option]:
    """:func:`windows.available_actions` with every staged card asked, from the plain reads."""
    options: list[Option] = []
    cards = s.cards
    for owner, uid in _plain_with_actions(s):
        actions = text_of(cards[uid].code).actions
        if not actions or table.blank(s, uid):
            continue
        for i, action in enumerate(actions):
            if planning and not action.planning:
                continue
            if (owner == seat or action.anyone) and action.available(s, uid, seat):
                options.append(Option(f"{uid}.{i}", f"{table.name(s, uid)}: {action.label}", uid))
    if planning:
        return options
    for uid in table.staging(s):
        for i, action in enumerate(text_of(cards[uid].code).actions):
            if action.anyone and action.available(s, uid, seat):
                options.append(Option(f"{uid}.{i}", f"{table.name(s, uid)}: {action.label}", uid))
    return options + _plain_event_actions(s, seat)


def _plain_matching(s: LcgState, seat: str, sphere: str | None) -> list[int]:
    heroes = table.heroes(s, seat)
    if sphere in (None, "neutral") or any(f(s, seat) for f in table.in_game(s, resources.IGNORES_RESOURCE_MATCH)):
        return heroes
    return [h for h in heroes if table.defn(s, h).sphere == sphere or sphere in table.spheres(s, h)]


def _plain_playable(s: LcgState, seat: str) -> list[int]:
    """The cards ``seat`` may play in the planning step, each priced on its own."""
    out = []
    for uid in table.hand(s, seat):
        d = table.defn(s, uid)
        if d.type not in planning.PLANNING_TYPES or (d.unique and table.unique_in_play(s, d.code)):
            continue
        if d.type == "ally" and ally_cap_reached(s):
            continue
        if d.type in ("attachment", "treasure") and not attachments.targets(s, uid):
            continue
        if resources.can_pay_cost(s, seat, d.sphere, planning.cost(s, seat, uid)):
            out.append(uid)
    return out


def _lcg_positions() -> list[LcgState]:
    """Positions along random games of every LCG scenario, each a copy of its own (as a fork
    or a reload makes), with seats of every deck the scenario offers by default."""
    codec = LCG.codec
    states: list[LcgState] = []
    for scenario in sorted(LCG_SCENARIOS):
        for seed in range(1, 9):
            game = Game.start(uuid4(), LCG, LCG.created(lcg_options(scenario, 1 + seed % 3), seed))
            rng = random.Random(seed)
            while (d := game.state.pending) is not None and game.version < 1500:
                if game.version % 9 < 2:
                    copy = codec.decode_state(codec.encode(game.state))
                    assert isinstance(copy, LcgState)
                    states.append(copy)
                game.answer(d.seat, d.id, random_choice(d, rng))
    return states


def test_lcg_windows_read_as_the_plain_scans() -> None:
    # most windows find no card with Actions in play: the window then looks at none
    spheres = [None, "neutral", "leadership", "tactics", "spirit", "lore", "baggins", "fellowship"]
    states = _lcg_positions()
    assert len(states) > 300
    asked = 0
    for s in states:
        assert table.acting(s) == {u for u, c in s.cards.items() if text_of(c.code).actions}
        hosts = {u: text_of(c.code).host for u, c in s.cards.items()}
        assert sorted(table.givers(s)) == sorted(u for u, h in hosts.items() if h is not None and h.spheres is not None)
        assert windows._with_actions(s) == _plain_with_actions(s)
        for seat in seats_in_turn(s):
            for planned in (False, True):
                fast = windows.available_actions(s, seat, planned)
                assert fast == _plain_available_actions(s, seat, planned), (seat, planned)
                asked += bool(fast)
            assert playing_events.event_actions(s, seat) == _plain_event_actions(s, seat)
            assert planning.playable(s, seat) == _plain_playable(s, seat)
            for sphere in spheres:
                assert resources.matching_heroes(s, seat, sphere) == _plain_matching(s, seat, sphere), sphere
    assert asked > 20  # positions where a window offers something were compared too


def test_a_cards_own_limits_are_asked_only_in_a_game_holding_it() -> None:
    # Ophidian's attacker limit and A Perilous Voyage's questing without exhausting (The Hunt
    # for the Dreadnaught) were asked at every attack and commitment of every game
    mirkwood = cast(
        LcgState, Game.start(uuid4(), LCG, LCG.created(lcg_options("passage-through-mirkwood", 2), 1)).state
    )
    assert hunt._ophidian_limit not in table.in_game(mirkwood, ships.ATTACKER_LIMITS)
    assert hunt._quests_ready not in table.in_game(mirkwood, table.QUEST_WITHOUT_EXHAUSTING)
    game = Game.start(uuid4(), LCG, LCG.created(lcg_options("hunt-for-the-dreadnaught", 2), 1))
    dreadnaught = cast(LcgState, game.state)
    assert hunt.OPHIDIAN in table.codes_in_game(dreadnaught)
    assert hunt._ophidian_limit in table.in_game(dreadnaught, ships.ATTACKER_LIMITS)
