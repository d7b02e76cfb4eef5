"""The Hunt for the Dreadnaught: setup cards, quest stages, the fleet and the Dreadnaught.

Rules (The Hunt for the Dreadnaught rulebook): "Global values" — stage 1B needs 8 progress
per player among all groups, the Dreadnaught has 15 hit points per player among all
groups; the printed values here are the per-player figures, and the card's passive text
turns them into the global value (``Options.epic_players``, or the group's own players),
less what other groups have contributed (``LcgState.shared``, each a recorded event).
"Per player" values count the players in the group who started the scenario.

The ships' Basic side is side A, their Upgraded side side B (``[[flip]]`` in the card
pack); so is the Dreadnaught's Damaged side.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from importlib import resources

import msgspec

from domain.kernel.decisions import Kind, Option
from domain.kernel.events import Event, GameEnded, LimitUsed, Modifier, ModifierAdded, Outcome
from domain.kernel.flow import Ask, Call, Case, Decide, ForEach, If, Let, Node, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.cards import Action, Trigger, text, text_of
from domain.lcg.effects import (
    PLAYER,
    SELF,
    ability_used,
    card_option,
    choose,
    chosen,
    deal_damage,
    draw,
    each_player,
    emit,
    heal,
    place_progress,
    ready,
    reduce_threat,
    spread_damage,
    st,
    use_limit,
)
from domain.lcg.rules import attachments, caps, planning, playing_events, ship_keywords, ships, table, triggers
from domain.lcg.rules import resources as paying
from domain.lcg.rules.any_group import in_any_group, other_groups, relayed, sent_amount
from domain.lcg.rules.constant import ally_cap_reached
from domain.lcg.state import LcgState, Seat, Uid

EASY, STANDARD, HARD = "thftd-001", "thftd-002", "thftd-003"
SETUP_CARDS = {"easy": EASY, "standard": STANDARD, "hard": HARD}
SEARCHING, DESTROY = "thftd-004", "thftd-005"
EITHILIANT, GOLDEN_WING, PRIDE, SILENT_MIST, SWAN_SHIP, TWILIGHTS_CALL = (f"thftd-{n:03}" for n in range(6, 12))
FLEET = (EITHILIANT, GOLDEN_WING, PRIDE, SILENT_MIST, SWAN_SHIP, TWILIGHTS_CALL)
GONDORIAN_WARSHIP = "thftd-012"
DREADNAUGHT = "thftd-013"
CAPTAIN, COMMANDER, DESCENDANT, HYDRAKEN, OPHIDIAN, VARJAX = (f"thftd-{n:03}" for n in range(14, 20))
ELITES = (CAPTAIN, COMMANDER, DESCENDANT, HYDRAKEN, OPHIDIAN, VARJAX)
CORSAIRS = tuple(f"thftd-{n:03}" for n in range(20, 26))
"""The 13 non-ship, non-unique Corsair enemies (the rulebook's numbers 18 to 30): the Corsair deck."""
BLACK_SAILS, CORSAIR_WARSHIP, COBAS_HAVEN = "thftd-026", "thftd-029", "thftd-035"
TOLFALAS_LANDING, WICKED_COVE = "thftd-038", "thftd-039"
CORSAIR_DECK, CORSAIR_DISCARD = ship_keywords.CORSAIR_DECK, ship_keywords.CORSAIR_DISCARD

for _code in CORSAIRS:
    ev.DISCARD_PILES[_code] = CORSAIR_DISCARD


# -- the other side of double-sided cards ------------------------------------------------------


class Flip(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    name: str
    willpower: int | None = None
    attack: int | None = None
    defense: int | None = None
    hit_points: int | None = None
    engagement_cost: int | None = None
    threat: int | None = None
    victory_points: int | None = None
    traits: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    text: str = ""


class _Flips(msgspec.Struct):
    flip: list[Flip]


def _flips() -> dict[str, Flip]:
    raw = resources.files("domain.lcg.cards").joinpath("hunt_for_the_dreadnaught.toml").read_bytes().decode()
    return {f.code: f for f in msgspec.convert(tomllib.loads(raw), _Flips).flip}


FLIPS = _flips()
for _code, _flip in FLIPS.items():
    ship_keywords.SIDE_B_KEYWORDS[_code] = _flip.keywords
    table.SIDE_B_TEXTS[_code] = _flip.text
    table.SIDE_B_STATS[_code] = {
        which: value for which in (*table.STATS, "victory_points") if (value := getattr(_flip, which)) is not None
    }


def flip(card: Callable[[Runtime], Uid], face: str = "B") -> Node:
    return emit(lambda rt: ev.CardFlipped(card=card(rt), face=face) if st(rt).cards[card(rt)].face != face else None)


def flipped_to(face: str) -> Callable[[LcgState, Event, Uid], bool]:
    def test(s: LcgState, e: Event, uid: Uid) -> bool:
        return isinstance(e, ev.CardFlipped) and e.card == uid and e.face == face

    return test


# -- global values and per-player values ----------------------------------------------------


def group_players(s: LcgState) -> int:
    """The per-player multiplier: the players of this group who started the scenario."""
    return ship_keywords.players_who_started(s)


def event_players(s: LcgState) -> int:
    """The players among all groups at the start of the event (this group alone when it
    plays on its own)."""
    return (s.options.epic_players if s.options is not None else 0) or group_players(s)


def _global(per_player: int, key: str) -> Callable[[LcgState, Uid, str], int]:
    """The card's ``*`` value: ``per_player`` for each player among all groups, less what
    the other groups contributed (so this group's own tokens reach it exactly when the
    groups' total reaches the global value)."""
    stat = "quest_points" if key == "progress" else "hit_points"

    def passive(s: LcgState, uid: Uid, which: str) -> int:
        if which != stat:
            return 0
        return per_player * (event_players(s) - 1) - s.shared.get(key, 0)

    return passive


def five_per_player(s: LcgState, uid: Uid) -> int:
    return 5 * group_players(s)


# -- preparing the fleet and the Corsair deck ----------------------------------------------------


def _in_deck(s: LcgState, codes: tuple[str, ...]) -> list[Uid]:
    return [u for u in s.zone("encounter.deck") if s.cards[u].code in codes]


def _move_all(codes: tuple[str, ...], to: str) -> ForEach:
    return ForEach(
        lambda rt: _in_deck(st(rt), codes),
        "moved",
        emit(lambda rt: ev.CardMoved(card=int(rt.env["moved"]), to=to)),
    )


def _move_copies(code: str, count: Callable[[LcgState], int], to: str) -> ForEach:
    return ForEach(
        lambda rt: _in_deck(st(rt), (code,))[: count(st(rt))],
        "moved",
        emit(lambda rt: ev.CardMoved(card=int(rt.env["moved"]), to=to)),
    )


def _shuffle(zone: str) -> Node:
    return emit(lambda rt: ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(st(rt).zone(zone)))))


def _fleet_left(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return sorted(_in_deck(s, FLEET), key=lambda u: s.cards[u].code)


def _ship_setup(rt: Runtime) -> str | None:
    code = st(rt).cards[int(rt.env["ship"])].code
    return f"{code}.setup" if text_of(code).setup is not None else None


PREPARE = register(
    "thftd.setup.prepare",
    Seq(
        _move_all((DREADNAUGHT, *ELITES), "set-aside"),
        _move_all(CORSAIRS, CORSAIR_DECK),
        _shuffle(CORSAIR_DECK),
        each_player(
            choose(
                PLAYER,
                "Prepare your fleet: choose the ship-objective you take control of (Basic side)",
                _fleet_left,
                "ship",
                emit(lambda rt: ev.CardMoved(card=int(rt.env["ship"]), to=f"{PLAYER(rt)}.allies")),
            ),
            rule="thftd.setup.fleet",
        ),
        _move_all((*FLEET, GONDORIAN_WARSHIP), "set-aside"),
        each_player(
            ForEach(
                lambda rt: ships.ship_objectives(st(rt), PLAYER(rt)),
                "ship",
                Call(_ship_setup, lambda rt: {"self": rt.env["ship"], "player": PLAYER(rt), "_card": rt.env["ship"]}),
            )
        ),
    ),
    rule="thftd.setup.prepare",
)
"""Rulebook, "Preparing Your Fleet" and "The Corsair Deck": the unique enemies set aside,
the 13 Corsair enemies shuffled into their own deck, each player's ship chosen (Basic side
up), every other ship-objective (with the 4 Gondorian Warships) set aside."""


def _other_setup_cards(rt: Runtime) -> list[Uid]:
    s = st(rt)
    assert s.options is not None
    mine = SETUP_CARDS[s.options.difficulty]
    return [u for u in s.zone("encounter.deck") if s.cards[u].code in SETUP_CARDS.values() and s.cards[u].code != mine]


def _setup_card(rt: Runtime) -> str:
    s = st(rt)
    assert s.options is not None
    return f"{SETUP_CARDS[s.options.difficulty]}.setup"


def _place_setup_card(rt: Runtime) -> Event | None:
    found = _in_deck(st(rt), (EASY, STANDARD, HARD))
    return ev.CardMoved(card=found[0], to="setup") if found else None


def _the_setup_card(rt: Runtime) -> Uid:
    return st(rt).zone("setup")[0]


# Searching the High Seas, 1A: the scenario is set up by its setup card. Rulebook,
# "Difficulty Modes": find the Setup card of the chosen mode, remove the other two.
SEARCHING_SETUP = Seq(
    ForEach(_other_setup_cards, "other", emit(lambda rt: ev.CardMoved(card=int(rt.env["other"]), to="removed"))),
    emit(_place_setup_card),
    Call(_setup_card),
    flip(_the_setup_card),
)


def _first_locations(rt: Runtime) -> dict[str, object]:
    """Standard Mode: from the top of the shuffled deck, the first 2 locations (3 with 3 or
    more players) go to the staging area; the cards above the last of them are discarded."""
    s = st(rt)
    wanted = 3 if group_players(s) >= 3 else 2
    found: list[Uid] = []
    passed: list[Uid] = []
    for uid in s.zone("encounter.deck"):
        if len(found) == wanted:
            break
        (found if table.defn(s, uid).type == "location" else passed).append(uid)
    return {"found": found, "passed": passed}


def _heroes_gain(rt: Runtime) -> Event | None:
    heroes = tuple(table.heroes(st(rt), PLAYER(rt)))
    return ev.ResourcesAdded(cards=heroes) if heroes else None


def _to_staging(var: str) -> Node:
    return emit(lambda rt: ev.CardMoved(card=int(rt.env[var]), to="staging"))


# Easy Mode, A — "Setup: prepare the fleet and the Corsair deck. Set aside the 7 unique
# enemies, 2 Black Sails and 1 Corsair Warship. Add Cobas Haven to the staging area.
# Shuffle the encounter deck. Each hero gets 1 resource." Then flip it beside the quest.
EASY_SETUP = Seq(
    Call("thftd.setup.prepare"),
    _move_copies(BLACK_SAILS, lambda s: 2, "set-aside"),
    _move_copies(CORSAIR_WARSHIP, lambda s: 1, "set-aside"),
    _move_copies(COBAS_HAVEN, lambda s: 1, "staging"),
    _shuffle("encounter.deck"),
    each_player(emit(_heroes_gain)),
)

# Standard Mode, A — "Setup: prepare the fleet and the Corsair deck. Set aside the 7 unique
# enemies. Shuffle the encounter deck, then discard cards from its top until 2 locations
# (3 with 3 or more players) are discarded; add those locations to the staging area."
STANDARD_SETUP = Seq(
    Call("thftd.setup.prepare"),
    _shuffle("encounter.deck"),
    Let(
        _first_locations,
        Seq(
            emit(lambda rt: ev.CardsDiscarded(cards=tuple(rt.env["passed"])) if rt.env["passed"] else None),
            ForEach(lambda rt: list(rt.env["found"]), "location", _to_staging("location")),
        ),
    ),
)

# Hard Mode, A — "Setup: prepare the fleet and the Corsair deck. Set aside the 7 unique
# enemies. Add 3 Tolfalas Landing to the staging area (with 3 or more players, also 2
# Wicked Cove). Shuffle the encounter deck."
HARD_SETUP = Seq(
    Call("thftd.setup.prepare"),
    _move_copies(TOLFALAS_LANDING, lambda s: 3, "staging"),
    _move_copies(WICKED_COVE, lambda s: 2 if group_players(s) >= 3 else 0, "staging"),
    _shuffle("encounter.deck"),
)


def _no_ship(s: LcgState, seat: Seat) -> bool:
    return not s.players[seat].eliminated and not ships.ship_objectives(s, seat)


def _shipless(s: LcgState, e: Event, uid: Uid) -> bool:
    return s.cards[uid].face == "B" and any(_no_ship(s, p) for p in s.active_seats())


def shipless() -> Trigger:
    """Every setup card, B — "Any player who does not control a ship-objective is eliminated." """
    return Trigger(
        (ev.CharacterDestroyed, ev.CardMoved),
        _shipless,
        ForEach(
            lambda rt: [p for p in st(rt).active_seats() if _no_ship(st(rt), p)],
            "shipless",
            Call("lcg.eliminate", lambda rt: {"player": rt.env["shipless"], "reason": "no-ship"}),
        ),
    )


def _engaged_non_unique(s: LcgState) -> list[Uid]:
    return [u for p in s.active_seats() for u in table.engaged(s, p) if not table.defn(s, u).unique]


def _ten_damage_targets(rt: Runtime) -> list[Uid]:
    return _engaged_non_unique(st(rt))


def _quest_action_open(s: LcgState, uid: Uid, seat: Seat) -> bool:
    return (
        s.cards[uid].face == "B"
        and s.phase == "quest"
        and not s.limit_used("thftd.setup.quest-action")
        and bool(_engaged_non_unique(s) or other_groups(s))
    )


# Easy and Standard Mode, B — "Quest Action: deal 10 damage to a non-unique enemy engaged
# with a player (in any group). (Limit once per game for each group.)" Any player of the
# group may use it (it belongs to no player). In an epic event the player picks the group
# first (see domain/lcg/rules/any_group.py); the limit is the acting group's.
def quest_action() -> Action:
    return Action(
        _quest_action_open,
        Seq(
            ability_used("action"),
            use_limit("thftd.setup.quest-action", "game"),
            in_any_group(
                PLAYER,
                "Deal 10 damage to a non-unique engaged enemy: in which group?",
                "quest-action-damage",
                10,
                _ten_damage_targets,
                lambda: choose(
                    PLAYER,
                    "Deal 10 damage to a non-unique engaged enemy",
                    _ten_damage_targets,
                    "target",
                    deal_damage(lambda rt: int(rt.env["target"]), 10),
                ),
            ),
        ),
        "deal 10 damage to a non-unique engaged enemy (once per game)",
        anyone=True,
    )


relayed(
    "quest-action-damage",
    "Another group's Quest Action: deal 10 damage to a non-unique enemy engaged with a player here",
    _ten_damage_targets,
    lambda target: deal_damage(target, sent_amount),
)


text(
    EASY,
    setup=EASY_SETUP,
    # Easy Mode, B — "During the resource phase, each player draws 1 additional card."
    forced=(
        Trigger(
            ev.PhaseBegan,
            lambda s, e, uid: isinstance(e, ev.PhaseBegan) and e.phase == "resource" and s.cards[uid].face == "B",
            each_player(draw(PLAYER, 1)),
        ),
        shipless(),
    ),
    actions=(quest_action(),),
)
text(STANDARD, setup=STANDARD_SETUP, forced=(shipless(),), actions=(quest_action(),))


def _hard(s: LcgState) -> bool:
    return any(s.cards[u].code == HARD and s.cards[u].face == "B" for u in s.zone("setup"))


def _threat_cap(s: LcgState, seat: str, source: Uid | None) -> int | None:
    """Hard Mode, B: "Each player's threat cannot be reduced by more than 1 each round"."""
    if not _hard(s):
        return None
    return 0 if s.limit_used(f"{caps.REDUCED_THREAT}{seat}") else 1


caps.THREAT_REDUCTION_CAPS.append(_threat_cap)


def _player_card_cause(s: LcgState, e: Event) -> bool:
    source = e.cause.card
    return source is not None and source in s.cards and table.defn(s, source).encounter_set is None


def _healed_or_readied(s: LcgState, e: Event, uid: Uid) -> bool:
    if s.cards[uid].face != "B" or not _player_card_cause(s, e):
        return False
    if isinstance(e, ev.DamageHealed):
        return table.defn(s, e.card).is_character
    return isinstance(e, ev.CardsReadied) and any(table.defn(s, u).is_character for u in e.cards)


# Hard Mode, B — "Forced: after a player card effect heals or readies a character, its
# controller raises their threat by 1." (Readied together, several characters of one
# player raise that player's threat by 1 for each.)
text(
    HARD,
    setup=HARD_SETUP,
    forced=(
        Trigger(
            (ev.DamageHealed, ev.CardsReadied),
            _healed_or_readied,
            ForEach(
                lambda rt: [u for u in rt.env["touched"] if table.holder(st(rt), u) is not None],
                "character",
                emit(lambda rt: ev.ThreatRaised(player=str(table.holder(st(rt), int(rt.env["character"]))), amount=1)),
            ),
            bind=lambda s, e, uid: {
                "touched": [e.card] if isinstance(e, ev.DamageHealed) else list(getattr(e, "cards", ()))
            },
        ),
        Trigger(
            ev.ThreatReduced,
            lambda s, e, uid: s.cards[uid].face == "B",
            emit(lambda rt: LimitUsed(key=f"{caps.REDUCED_THREAT}{rt.env['reduced']}", until="round")),
            bind=lambda s, e, uid: {"reduced": getattr(e, "player", "")},
        ),
        shipless(),
    ),
)

# -- the quest --------------------------------------------------------------------------------


def _searching_met(s: LcgState, uid: Uid) -> bool:
    """Searching the High Seas holds as much progress as its (global) quest points."""
    card = s.cards[uid]
    return card.zone == "quest" and card.progress >= table.quest_points(s, uid)


def _quest_phase_ends(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, xev.PhaseEnded) and e.phase == "quest" and _searching_met(s, uid)


# Searching the High Seas, 1B — "Quest points: 8 per player, a global value. No more than 5
# progress per player can be placed on this stage each round. The players can only advance
# at the end of the quest phase." Its progress never defeats it by itself: it advances as the
# quest phase ends, before the travel phase, each group at the end of its own quest phase
# (rulebook, Global Values: "each group will advance independently at the end of their quest
# phase").
text(
    SEARCHING,
    setup=SEARCHING_SETUP,
    stat=_global(8, "progress"),
    can_defeat=lambda s, uid: False,
    forced=(Trigger(xev.PhaseEnded, _quest_phase_ends, Call("lcg.quest.defeat", lambda rt: {"card": SELF(rt)})),),
)
caps.PROGRESS_CAPS[SEARCHING] = five_per_player
caps.PROGRESS_CAPS[DESTROY] = five_per_player


def _set_aside(s: LcgState, code: str) -> list[Uid]:
    return [u for u in s.zone("set-aside") if s.cards[u].code == code]


def _warship_affordable(s: LcgState, uid: Uid, seat: Seat) -> bool:
    return s.cards[uid].progress >= five_per_player(s, uid) and bool(_set_aside(s, GONDORIAN_WARSHIP))


def _dreadnaught_attacks(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.AttackDeclared) and s.cards[e.enemy].code == DREADNAUGHT and s.attack is not None


def _dreadnaught_destroyed(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.EnemyDefeated) and s.cards[e.enemy].code == DREADNAUGHT


def _bring_dreadnaught(rt: Runtime) -> Event | None:
    found = _set_aside(st(rt), DREADNAUGHT)
    return ev.CardMoved(card=found[0], to="staging") if found else None


# Destroy the Dreadnaught — "When Revealed: add the set-aside Dreadnaught to the staging
# area, Elite side faceup. No more than 5 progress per player can be placed on this stage
# each round. Action: remove 5 progress per player from this stage to choose a group; that
# group shuffles a set-aside Gondorian Warship into its encounter deck. Response: after the
# Dreadnaught attacks you, raise your threat by 4 to cancel that attack. If the Dreadnaught
# is destroyed, the players win." Reading: the group chosen is this group (a text cannot
# reach into another group's game); the stage prints no quest points ("-"): progress
# never defeats it.
text(
    DESTROY,
    when_revealed=emit(_bring_dreadnaught),
    actions=(
        Action(
            _warship_affordable,
            Seq(
                ability_used("action"),
                emit(lambda rt: xev.ProgressRemoved(card=SELF(rt), amount=five_per_player(st(rt), SELF(rt)))),
                emit(
                    lambda rt: ev.DeckShuffled(
                        zone="encounter.deck",
                        order=tuple(
                            rt.shuffle([*st(rt).zone("encounter.deck"), _set_aside(st(rt), GONDORIAN_WARSHIP)[0]])
                        ),
                    )
                ),
            ),
            "remove 5 progress per player: shuffle a Gondorian Warship into the encounter deck",
            anyone=True,
        ),
    ),
    responses=(
        Trigger(
            ev.AttackDeclared,
            _dreadnaught_attacks,
            Seq(
                emit(lambda rt: ev.ThreatRaised(player=PLAYER(rt), amount=4)),
                emit(
                    lambda rt: ModifierAdded(
                        modifier=Modifier(int(rt.env["enemy"]), table.cannot_attack(PLAYER(rt)), 1, "phase", SELF(rt))
                    )
                ),
            ),
            optional=True,
            prompt="The Dreadnaught attacks you: raise your threat by 4 to cancel the attack?",
            bind=lambda s, e, uid: {"player": getattr(e, "player", ""), "enemy": getattr(e, "enemy", 0)},
        ),
    ),
    forced=(
        Trigger(
            ev.EnemyDefeated,
            _dreadnaught_destroyed,
            emit(lambda rt: GameEnded(outcome=Outcome(result="won", reason="dreadnaught-destroyed", winner="players"))),
        ),
    ),
)

# -- the Dreadnaught ------------------------------------------------------------------------------


def _dreadnaught_below_half(s: LcgState) -> list[Uid]:
    out = []
    for uid in table.enemies_in_play(s):
        card = s.cards[uid]
        if card.code == DREADNAUGHT and card.face == "A":
            start = 15 * event_players(s)
            left = start - s.shared.get("damage", 0) - card.damage
            if 2 * left < start:
                out.append(uid)
    return out


def _random_elite(rt: Runtime) -> Event | None:
    elites = [u for u in st(rt).zone("set-aside") if st(rt).cards[u].code in ELITES]
    if not elites:
        return None
    return ev.EnemyEngaged(enemy=rt.pick(elites)[0], player=PLAYER(rt), origin="set-aside")


def _to_staging_if_engaged(rt: Runtime) -> Event | None:
    uid = int(rt.env["dreadnaught"])
    return ev.CardMoved(card=uid, to="staging") if st(rt).cards[uid].zone != "staging" else None


ship_keywords.END_OF_ROUND.append((lambda s: bool(_dreadnaught_below_half(s)), "thftd-013.damaged"))

# Dreadnaught, Elite side — "Hit points: 15 per player, a global value. No more than 5
# damage per player can be placed on the Dreadnaught each round. Forced: at the end of the
# round, if the Dreadnaught has fewer than half its starting hit points left, flip it to
# its Damaged side." Damaged side — "Massive. Forced: when the Dreadnaught flips to this
# side, for each player, put a random set-aside unique Corsair enemy into play engaged
# with that player." Readings: its damage stays on it as it flips (one hit point pool); a
# Massive enemy cannot leave the staging area, so a Dreadnaught engaged with a player
# returns there as it turns Massive.
text(
    DREADNAUGHT,
    stat=_global(15, "damage"),
    forced=(Trigger(ev.CardFlipped, flipped_to("B"), each_player(emit(_random_elite))),),
)
register(
    "thftd-013.damaged",
    ForEach(
        lambda rt: _dreadnaught_below_half(st(rt)),
        "dreadnaught",
        Let(
            lambda rt: {"_card": rt.env["dreadnaught"]},
            Seq(
                emit(_to_staging_if_engaged), emit(lambda rt: ev.CardFlipped(card=int(rt.env["dreadnaught"]), face="B"))
            ),
        ),
    ),
    rule="thftd-013.forced",
)
caps.DAMAGE_CAPS[DREADNAUGHT] = five_per_player


def _shared_damage_lethal(s: LcgState, event: Event) -> dict[str, object] | None:
    """Epic Multiplayer: damage the other groups placed can make this group's Dreadnaught's
    damage lethal; it is destroyed then, as the framework destroys any enemy."""
    found = [u for u in table.enemies_in_play(s) if s.cards[u].code == DREADNAUGHT]
    return {"card": found[0]} if found else None


ship_keywords.hook(ev.SharedValueLearned, "lcg.destroy", _shared_damage_lethal, needs=(DREADNAUGHT,))

# -- the unique Corsair elites ---------------------------------------------------------------------


def _elite_holds(s: LcgState, seat: Seat, enemy: Uid) -> bool:
    """Each unique Corsair elite: "While you are engaged with [it], you cannot attack the
    Dreadnaught"."""
    return s.cards[enemy].code == DREADNAUGHT and any(s.cards[u].code in ELITES for u in s.zone(f"{seat}.engaged"))


ships.ATTACK_BANS.append(table.needs(_elite_holds, DREADNAUGHT))


def _holder(rt: Runtime) -> Seat:
    return str(table.holder(st(rt), SELF(rt)) or st(rt).first)


def _attacked_by_self(s: LcgState, e: Event, uid: Uid) -> bool:
    return (
        isinstance(e, ev.AttackResolved)
        and e.by_enemy
        and not e.cancelled
        and e.enemy == uid
        and table.holder(s, uid) is not None
    )


def _deck_empty(s: LcgState, e: Event, uid: Uid) -> bool:
    seat = table.holder(s, uid)
    return isinstance(e, ev.PhaseBegan) and e.phase == "refresh" and seat is not None and not s.zone(f"{seat}.deck")


# Captain of the Haven — "Pillage 8. Immune to player card effects. Forced: at the end of
# the combat phase, if the engaged player has no cards in their deck, that player is
# eliminated." Checked as the refresh phase begins, the moment combat has ended.
text(
    CAPTAIN,
    forced=(
        Trigger(
            ev.PhaseBegan,
            _deck_empty,
            Call("lcg.eliminate", lambda rt: {"player": _holder(rt), "reason": "captain-of-the-haven"}),
        ),
    ),
)


def _the_dreadnaught(rt: Runtime) -> Uid | None:
    found = [u for u in table.enemies_in_play(st(rt)) if st(rt).cards[u].code == DREADNAUGHT]
    return found[0] if found else None


# Commander of the Dreadnaught — "Forced: after Commander of the Dreadnaught attacks you,
# the Dreadnaught makes an attack against you." (The attack happens if the Dreadnaught is
# engaged with you, or Massive in the staging area.)
text(
    COMMANDER,
    forced=(
        Trigger(
            ev.AttackResolved,
            _attacked_by_self,
            If(
                lambda rt: _the_dreadnaught(rt) is not None,
                Call("lcg.combat.enemy-attack", lambda rt: {"enemy": _the_dreadnaught(rt), "player": _holder(rt)}),
            ),
        ),
    ),
)


def _engaged_self(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.EnemyEngaged) and e.enemy == uid


def _shadow_on_top_corsair(rt: Runtime) -> Event | None:
    """The enemy just engaged from the Corsair deck (the last one engaged) gets a shadow card."""
    deck = st(rt).zone("encounter.deck")
    boarder = rt.env.get("boarder")
    return ev.ShadowCardDealt(enemy=int(boarder), card=deck[0]) if deck and boarder is not None else None


def corsair_with_shadow(seat: Callable[[Runtime], Seat]) -> Node:
    """The top card of the Corsair deck comes into play engaged with ``seat`` and is dealt
    a shadow card."""
    return Seq(
        emit(ship_keywords.corsair_reshuffle),
        Let(
            lambda rt: {"boarder": next(iter(st(rt).zone(CORSAIR_DECK)), None)},
            If(
                lambda rt: rt.env["boarder"] is not None,
                Seq(
                    emit(
                        lambda rt: ev.EnemyEngaged(enemy=int(rt.env["boarder"]), player=seat(rt), origin=CORSAIR_DECK)
                    ),
                    emit(_shadow_on_top_corsair),
                ),
            ),
        ),
    )


# Descendant of Castamir — "Forced: after Descendant of Castamir engages you, put the top 2
# cards of the Corsair deck into play engaged with you and deal 1 shadow card to each."
text(
    DESCENDANT,
    forced=(
        Trigger(
            ev.EnemyEngaged,
            _engaged_self,
            ForEach(lambda rt: [0, 1], "nth", corsair_with_shadow(lambda rt: str(rt.env["engaged"]))),
            bind=lambda s, e, uid: {"engaged": getattr(e, "player", "")},
        ),
    ),
)


def _deal_shadow_to_self(rt: Runtime) -> Event | None:
    deck = st(rt).zone("encounter.deck")
    return ev.ShadowCardDealt(enemy=SELF(rt), card=deck[0]) if deck else None


# Hydraken — "Forced: after Hydraken attacks, it makes another attack against the engaged
# player; deal it 2 shadow cards for that attack, and the engaged player raises their
# threat by 4. (Limit once per round.)"
text(
    HYDRAKEN,
    forced=(
        Trigger(
            ev.AttackResolved,
            lambda s, e, uid: _attacked_by_self(s, e, uid) and not s.limit_used(f"hydraken:{uid}"),
            Seq(
                use_limit("hydraken:{self}"),
                emit(lambda rt: ev.ThreatRaised(player=_holder(rt), amount=4)),
                emit(_deal_shadow_to_self),
                emit(_deal_shadow_to_self),
                Call("lcg.combat.enemy-attack", lambda rt: {"enemy": SELF(rt), "player": _holder(rt)}),
            ),
        ),
    ),
)


def _ophidian_limit(s: LcgState, enemy: Uid) -> int | None:
    """Ophidian: "No more than 1 character can attack Ophidian each round"."""
    if s.cards[enemy].code != OPHIDIAN:
        return None
    return 0 if s.limit_used(f"ophidian:{enemy}") else 1


# asked only in a game holding Ophidian (table.in_game)
ships.ATTACKER_LIMITS.append(table.needs(_ophidian_limit, OPHIDIAN))

# Ophidian — "No more than 1 character can attack Ophidian each round. Forced: after a
# character defends against Ophidian, deal 2 damage to the defending character."
text(
    OPHIDIAN,
    forced=(
        Trigger(
            ev.AttackersDeclared,
            lambda s, e, uid: isinstance(e, ev.AttackersDeclared) and e.enemy == uid,
            use_limit("ophidian:{self}"),
        ),
        Trigger(
            ev.DefenderDeclared,
            lambda s, e, uid: isinstance(e, ev.DefenderDeclared) and e.enemy == uid and e.defender is not None,
            deal_damage(lambda rt: int(rt.env["defender"]), 2),
            bind=lambda s, e, uid: {"defender": getattr(e, "defender", 0)},
        ),
    ),
)


def _excess(s: LcgState, e: Event, uid: Uid) -> bool:
    attack = s.attack
    if not isinstance(e, ev.DamageDealt) or attack is None or attack.enemy != uid or attack.attackers:
        return False
    return s.cards[e.card].damage > table.hit_points(s, e.card)


def _varjax_ships(rt: Runtime) -> list[Uid]:
    return ships.ship_objectives(st(rt), str(rt.env["defending"]))


# Varjax — "Archery 3. For each point of excess combat damage dealt by Varjax's attack
# (damage beyond the remaining hit points of the character it damages), the defending
# player deals 1 damage to a ship-objective they control."
text(
    VARJAX,
    forced=(
        Trigger(
            ev.DamageDealt,
            _excess,
            spread_damage(
                lambda rt: str(rt.env["defending"]),
                lambda rt: int(rt.env["excess"]),
                _varjax_ships,
                "Varjax: excess damage, choose a ship-objective to take 1 damage",
            ),
            bind=lambda s, e, uid: {
                "excess": s.cards[getattr(e, "card", 0)].damage - table.hit_points(s, getattr(e, "card", 0)),
                "defending": s.attack.player if s.attack is not None else s.first,
            },
        ),
    ),
)

# -- the fleet -------------------------------------------------------------------------------------


def _controls(s: LcgState, code: str, seat: Seat) -> list[Uid]:
    """The ship-objectives of ``code`` that ``seat`` controls, in uid order: read from the
    game's cards of ``code`` (one) rather than from every character the seat controls
    (``ships.controlled``, compiled). The ships' hero auras (``ships.heroes_aura``) read the
    same cards the same way, inline."""
    return ships.controlled(s, code, seat)


# "Each hero you control gets +1 [stat]" (Basic side), +2 (Upgraded side): built by the
# compiled rules (``ships.heroes_aura``), since every stat of every hero a view or a rule reads
# asks it
table.AURAS.append(table.scoped(table.needs(ships.heroes_aura(EITHILIANT, "willpower"), EITHILIANT), "hero"))
table.AURAS.append(table.scoped(table.needs(ships.heroes_aura(GOLDEN_WING, "hit_points"), GOLDEN_WING), "hero"))
table.AURAS.append(table.scoped(table.needs(ships.heroes_aura(PRIDE, "defense"), PRIDE), "hero"))


def _your_heroes(rt: Runtime) -> list[Uid]:
    return table.heroes(st(rt), PLAYER(rt))


def _flip_response(effect: Node, prompt: str) -> Trigger:
    return Trigger(ev.CardFlipped, flipped_to("B"), effect, optional=True, prompt=prompt)


def _locations_here(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return s.zone("active") + [u for u in s.zone("staging") if table.defn(s, u).type == "location"]


def _return_to_deck(rt: Runtime) -> Event | None:
    zone = f"{PLAYER(rt)}.deck"
    back = chosen(rt, "returned")
    if not back:
        return None
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle([*st(rt).zone(zone), *back])))


# Eithiliant's Setup: the chosen hero has the printed traits of the other hero chosen (recorded
# as a flag ``traits:<hero>:<other>`` that lasts the game), read by the compiled rules
# (``ships.borrowed_traits``), since every hero's view asks it
# its flag is set by Eithiliant's Setup alone, on a hero
table.TRAIT_AURAS.append(table.scoped(table.needs(ships.borrowed_traits, EITHILIANT), "hero"))

# Eithiliant — Basic: "Each hero you control gets +1 Willpower. Setup: choose a hero you
# control; it gains the printed traits of another hero you control until the end of the
# game." Upgraded: "+2 Willpower. Response: after this flips to its Upgraded side, shuffle
# up to 6 cards from your discard pile into your deck and place 6 progress on a location
# (in any group)." In an epic event the player picks the group of the location first.
text(
    EITHILIANT,
    setup=choose(
        PLAYER,
        "Eithiliant: choose a hero to gain the printed traits of another of your heroes",
        _your_heroes,
        "gainer",
        choose(
            PLAYER,
            "Eithiliant: whose traits does it gain?",
            lambda rt: [h for h in _your_heroes(rt) if h != int(rt.env["gainer"])],
            "giver",
            emit(lambda rt: LimitUsed(key=f"{ships.BORROWED}{rt.env['gainer']}:{rt.env['giver']}", until="game")),
        ),
    ),
    responses=(
        _flip_response(
            Seq(
                choose(
                    PLAYER,
                    "Eithiliant: shuffle up to 6 cards of your discard pile into your deck",
                    lambda rt: st(rt).zone(f"{PLAYER(rt)}.discard"),
                    "returned",
                    emit(_return_to_deck),
                    count=6,
                    optional=True,
                ),
                in_any_group(
                    PLAYER,
                    "Eithiliant: place 6 progress on a location in which group?",
                    "eithiliant-progress",
                    6,
                    _locations_here,
                    lambda: choose(
                        PLAYER,
                        "Eithiliant: place 6 progress on a location",
                        _locations_here,
                        "place",
                        place_progress(lambda rt: int(rt.env["place"]), 6),
                    ),
                ),
            ),
            "Eithiliant is upgraded: shuffle discarded cards back and place 6 progress on a location?",
        ),
    ),
)
relayed(
    "eithiliant-progress",
    "Eithiliant (another group's ship): place 6 progress on a location here",
    _locations_here,
    lambda target: place_progress(target, sent_amount),
)


def _has_ranged(s: LcgState, uid: Uid, keyword: str) -> bool:
    """Golden Wing: a hero chosen at setup has Ranged; on the Upgraded side every hero of
    its controller has Ranged."""
    if keyword != "Ranged" or table.defn(s, uid).type != "hero":
        return False
    if s.limit_used(f"ranged:{uid}"):
        return True
    seat = table.holder(s, uid)
    return seat is not None and any(s.cards[u].face == "B" for u in _controls(s, GOLDEN_WING, seat))


table.KEYWORD_AURAS.append(table.needs(_has_ranged, GOLDEN_WING))


def _enemies_here(rt: Runtime) -> list[Uid]:
    return table.enemies_in_play(st(rt))


# Golden Wing — Basic: "Each hero you control gets +1 hit point. Setup: reduce your threat
# by 3 and choose a hero you control; it gains Ranged until the end of the game." (The
# trigger word is missing in both sources; read as Setup.) Upgraded: "+2 hit points; your
# heroes gain Ranged. Response: after this flips to its Upgraded side, deal 6 damage to an
# enemy (in any group)." In an epic event the player picks the group of the enemy first.
text(
    GOLDEN_WING,
    setup=Seq(
        reduce_threat(PLAYER, 3),
        choose(
            PLAYER,
            "Golden Wing: choose a hero to gain Ranged",
            _your_heroes,
            "archer",
            emit(lambda rt: LimitUsed(key=f"ranged:{rt.env['archer']}", until="game")),
        ),
    ),
    responses=(
        _flip_response(
            in_any_group(
                PLAYER,
                "Golden Wing: deal 6 damage to an enemy in which group?",
                "golden-wing-damage",
                6,
                _enemies_here,
                lambda: choose(
                    PLAYER,
                    "Golden Wing: deal 6 damage to an enemy",
                    _enemies_here,
                    "target",
                    deal_damage(lambda rt: int(rt.env["target"]), 6),
                ),
            ),
            "Golden Wing is upgraded: deal 6 damage to an enemy?",
        ),
    ),
)
relayed(
    "golden-wing-damage",
    "Golden Wing (another group's ship): deal 6 damage to an enemy here",
    _enemies_here,
    lambda target: deal_damage(target, sent_amount),
)


def _shuffle_five_back(rt: Runtime) -> Event | None:
    zone = f"{PLAYER(rt)}.deck"
    back = chosen(rt, "back")
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle([*st(rt).zone(zone), *back]))) if back else None


def _ask_victory(rt: Runtime) -> Ask | None:
    s = st(rt)
    pile = s.zone("encounter.discard")
    if not pile:
        return None
    options = [Option(str(u), table.name(s, u), u) for u in pile]
    return Ask(
        PLAYER(rt),
        "Pride of Lebennin: add up to 2 cards of the encounter discard pile to the victory display",
        options,
        Kind.MANY,
        0,
        min(2, len(options)),
    )


# Pride of Lebennin — Basic: "Each hero you control gets +1 Defense. Forced: after you draw
# your setup hand, draw 5 more cards, then shuffle 5 cards from your hand into your deck.
# You cannot take a mulligan." Reading: the fleet is prepared after the setup hands are
# drawn, so the draw happens as the ship is taken. Upgraded: "+2 Defense. Response: after
# this flips to its Upgraded side, heal 2 damage from a character and add up to 2 cards
# from the encounter discard pile to the victory display."
text(
    PRIDE,
    setup=Seq(
        draw(PLAYER, 5),
        choose(
            PLAYER,
            "Pride of Lebennin: shuffle 5 cards from your hand into your deck",
            lambda rt: table.hand(st(rt), PLAYER(rt)),
            "back",
            emit(_shuffle_five_back),
            count=5,
        ),
    ),
    responses=(
        _flip_response(
            Seq(
                choose(
                    PLAYER,
                    "Pride of Lebennin: heal 2 damage from a character",
                    lambda rt: [u for u in table.all_characters(st(rt)) if st(rt).cards[u].damage],
                    "healed",
                    heal(lambda rt: int(rt.env["healed"]), 2),
                ),
                Decide(
                    _ask_victory,
                    "victory",
                    ForEach(
                        lambda rt: (
                            list(rt.env["victory"]) if isinstance(rt.env["victory"], list) else [rt.env["victory"]]
                        ),
                        "won",
                        emit(lambda rt: ev.CardMoved(card=int(rt.env["won"]), to="victory")),
                    ),
                ),
            ),
            "Pride of Lebennin is upgraded: heal 2 damage and add encounter cards to the victory display?",
        ),
    ),
)


def _events_in_discard(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for u in s.zone(f"{PLAYER(rt)}.discard") if table.defn(s, u).type == "event"]


def _mist_on(seat: Seat) -> str:
    return f"silent-mist-on:{seat}:"


def _mist_off(seat: Seat) -> str:
    return f"silent-mist-off:{seat}:"


def _mist_discount(s: LcgState, seat: Seat, uid: Uid) -> int:
    """Silent Mist's Action: the event it plays (cost 3 or more) costs 1 less (2 on the
    Upgraded side). Each use opens one discount, closed when an event is played."""
    if not s.limits or table.defn(s, uid).cost < 3:
        return 0
    on = [x.key for x in s.limits if x.key.startswith(_mist_on(seat))]
    off = sum(1 for x in s.limits if x.key.startswith(_mist_off(seat)))
    return int(on[-1].rsplit(":", 1)[1]) if len(on) > off else 0


playing_events.COST_REDUCTIONS.append(table.needs(_mist_discount, SILENT_MIST))  # its Action opens the discount


def _mist_events(s: LcgState, seat: Seat, discount: int) -> list[tuple[Uid, int]]:
    """The events in hand (cost 3 or more) whose Action could be paid with the discount."""
    out = []
    for uid in table.hand(s, seat):
        d = table.defn(s, uid)
        if d.type != "event" or d.cost < 3:
            continue
        if not paying.can_pay_cost(s, seat, d.sphere, d.cost - discount):
            continue
        out += [(uid, i) for i, _ in enumerate(text_of(d.code).actions)]
    return out


def _mist_usable(s: LcgState, uid: Uid, seat: Seat) -> bool:
    return bool(_mist_events(s, seat, 2 if s.cards[uid].face == "B" else 1))


def _mist_choices(rt: Runtime) -> list[Uid]:
    """The events (cost 3 or more) whose Action may be played now, with the discount open."""
    s, seat = st(rt), PLAYER(rt)
    return [
        u
        for u in table.hand(s, seat)
        if table.defn(s, u).type == "event"
        and table.defn(s, u).cost >= 3
        and any(a.available(s, u, seat) for a in text_of(s.cards[u].code).actions[:1])
    ]


def _mist_closes(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.EventPlayed) and _mist_discount(s, e.player, e.card) > 0


# Silent Mist — Basic: "Your setup hand is 8 cards. Action: play an event from your hand with
# a cost of 3 or more, reducing its cost by 1." Reading: the fleet is prepared after the
# 6-card setup hands are drawn, so its player draws 2 more as it is taken. Upgraded:
# "Response: after this flips to its Upgraded side, add up to 2 events from your discard
# pile to your hand. Action: ... reducing its cost by 2." The discount lasts until an event
# is played with it (or the phase ends).
text(
    SILENT_MIST,
    setup=draw(PLAYER, 2),
    actions=(
        Action(
            _mist_usable,
            Seq(
                ability_used("action"),
                emit(
                    lambda rt: LimitUsed(
                        key=f"{_mist_on(PLAYER(rt))}{2 if st(rt).cards[SELF(rt)].face == 'B' else 1}", until="phase"
                    )
                ),
                choose(
                    PLAYER,
                    "Silent Mist: play an event (cost 3 or more) for less",
                    _mist_choices,
                    "event",
                    Call(
                        lambda rt: f"{st(rt).cards[int(rt.env['event'])].code}.action.0",
                        lambda rt: {"self": int(rt.env["event"]), "player": PLAYER(rt), "_card": int(rt.env["event"])},
                    ),
                ),
            ),
            "play an event costing 3 or more for less",
        ),
    ),
    forced=(
        Trigger(
            ev.EventPlayed,
            _mist_closes,
            emit(lambda rt: LimitUsed(key=f"{_mist_off(str(rt.env['by_player']))}{rt.env['_by']}", until="phase")),
            bind=lambda s, e, uid: {"by_player": getattr(e, "player", "")},
        ),
    ),
    responses=(
        _flip_response(
            choose(
                PLAYER,
                "Silent Mist: take up to 2 events from your discard pile into your hand",
                _events_in_discard,
                "events",
                ForEach(
                    lambda rt: chosen(rt, "events"),
                    "event",
                    emit(lambda rt: ev.CardMoved(card=int(rt.env["event"]), to=f"{PLAYER(rt)}.hand")),
                ),
                count=2,
                optional=True,
            ),
            "Silent Mist is upgraded: take events from your discard pile?",
        ),
    ),
)


def _pool(s: LcgState, seat: Seat) -> int:
    return sum(s.cards[h].resources for h in table.heroes(s, seat))


def _swan_usable(cost: int) -> Callable[[LcgState, Uid, Seat], bool]:
    def available(s: LcgState, uid: Uid, seat: Seat) -> bool:
        wanted = 1 if s.cards[uid].face == "B" else cost
        exhausted = [u for p in s.active_seats() for u in table.characters(s, p) if s.cards[u].exhausted]
        return not s.limit_used(f"swan:{uid}") and _pool(s, seat) >= wanted and bool(exhausted)

    return available


def _pay_one(rt: Runtime) -> Event | None:
    hero = int(rt.env["payer"])
    return ev.ResourcesPaid(payments=(ev.Payment(hero, 1),))


def pay_resources(seat: Callable[[Runtime], Seat], amount: Callable[[Runtime], int]) -> Node:
    """``seat`` pays ``amount`` resources, one at a time from heroes of its choice."""
    return ForEach(
        lambda rt: list(range(amount(rt))),
        "paid",
        choose(
            seat,
            "Pay 1 resource: from which hero's pool?",
            lambda rt: [h for h in table.heroes(st(rt), seat(rt)) if st(rt).cards[h].resources > 0],
            "payer",
            emit(_pay_one),
        ),
    )


def _exhausted_cards(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for p in s.active_seats() for u in table.characters(s, p) if s.cards[u].exhausted]


# Swan Ship of Dol Amroth — Basic: "Setup: add 1 resource to each of your heroes' pools.
# Action: pay 2 resources to ready a character. (Limit once per round.)" Upgraded:
# "Response: after this flips to its Upgraded side, add 2 resources to a hero's pool and
# ready a card. Action: pay 1 resource to ready a card. (Limit once per round.)"
text(
    SWAN_SHIP,
    setup=emit(_heroes_gain),
    actions=(
        Action(
            _swan_usable(2),
            Seq(
                ability_used("action"),
                use_limit("swan:{self}"),
                pay_resources(PLAYER, lambda rt: 1 if st(rt).cards[SELF(rt)].face == "B" else 2),
                choose(
                    PLAYER,
                    "Swan Ship: ready a character",
                    _exhausted_cards,
                    "readied",
                    ready(lambda rt: chosen(rt, "readied")),
                ),
            ),
            "pay resources to ready a character (once per round)",
        ),
    ),
    responses=(
        _flip_response(
            Seq(
                choose(
                    PLAYER,
                    "Swan Ship: add 2 resources to a hero's pool",
                    _your_heroes,
                    "rich",
                    emit(lambda rt: ev.ResourcesAdded(cards=(int(rt.env["rich"]),), amount=2)),
                ),
                choose(
                    PLAYER,
                    "Swan Ship: ready a card",
                    _exhausted_cards,
                    "readied",
                    ready(lambda rt: chosen(rt, "readied")),
                ),
            ),
            "Swan Ship is upgraded: add 2 resources and ready a card?",
        ),
    ),
)


def _first_played(seat: Seat) -> str:
    return f"{ships.PLAYED_FIRST}{seat}"


# Twilight's Call: "the first card you play each round" (Basic side), "each card you play"
# (Upgraded side) "does not need a resource match": read by the compiled rules
# (``ships.ignores_match``), since every card a player may pay for asks it
_ignores_match = ships.ignores_match(TWILIGHTS_CALL)
paying.IGNORES_RESOURCE_MATCH.append(table.needs(_ignores_match, TWILIGHTS_CALL))


def _played_first(s: LcgState, e: Event, uid: Uid) -> bool:
    if not isinstance(e, ev.AllyPlayed | ev.AttachmentPlayed | ev.EventPlayed):
        return False
    return table.holder(s, uid) == e.player and not s.limit_used(_first_played(e.player))


def _twilight_usable(s: LcgState, uid: Uid, seat: Seat) -> bool:
    limited = s.cards[uid].face == "A" and s.limit_used(f"twilight:{uid}")
    return not limited and bool(planning.playable(s, seat))


def _ask_attach_to(rt: Runtime) -> Ask:
    s = st(rt)
    uid = int(rt.env["play"])
    options = [card_option(s, u) for u in attachments.targets(s, uid)]
    return Ask(PLAYER(rt), f"Attach {table.name(s, uid)} to", options, about=uid)


def _ally_played(rt: Runtime, way: tuple[ev.Payment, ...]) -> Event:
    return ev.AllyPlayed(player=PLAYER(rt), card=int(rt.env["play"]), payments=way)


def _attachment_played(rt: Runtime, way: tuple[ev.Payment, ...]) -> Event:
    return ev.AttachmentPlayed(player=PLAYER(rt), card=int(rt.env["play"]), to=int(rt.env["to"]), payments=way)


# Twilight's Call — Basic: "The first card you play each round does not need a resource
# match. Action: play an ally or attachment from your hand (paying its cost). (Limit once
# per round.)" Upgraded: "Each card you play does not need a resource match. Response: after
# this flips to its Upgraded side, draw 3 cards. Action: play an ally or attachment from
# your hand." The Action's gain is the timing: any action window, not only planning.
text(
    TWILIGHTS_CALL,
    forced=(
        Trigger(
            (ev.AllyPlayed, ev.AttachmentPlayed, ev.EventPlayed),
            _played_first,
            emit(lambda rt: LimitUsed(key=_first_played(PLAYER(rt)), until="round")),
        ),
    ),
    responses=(_flip_response(draw(PLAYER, 3), "Twilight's Call is upgraded: draw 3 cards?"),),
    actions=(
        Action(
            _twilight_usable,
            Seq(
                ability_used("action"),
                use_limit("twilight:{self}"),
                choose(
                    PLAYER,
                    "Twilight's Call: play an ally or an attachment from your hand",
                    lambda rt: planning.playable(st(rt), PLAYER(rt)),
                    "play",
                    If(
                        lambda rt: table.defn(st(rt), int(rt.env["play"])).type == "ally",
                        planning.pay_then(_ally_played),
                        Decide(_ask_attach_to, "to", planning.pay_then(_attachment_played), auto_single=True),
                    ),
                ),
            ),
            "play an ally or an attachment from your hand",
        ),
    ),
)


def _warship_destroyed(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.CharacterDestroyed) and e.card == uid


# Gondorian Warship — "When Revealed: a player of your choice takes control of Gondorian
# Warship. Forced: when Gondorian Warship is destroyed, set it aside, out of play.
# Shadow: deal 5 damage to the attacking enemy."
text(
    GONDORIAN_WARSHIP,
    when_revealed=Decide(
        lambda rt: Ask(
            st(rt).first,
            "Gondorian Warship: which player takes control of it?",
            [Option(p, p) for p in st(rt).active_seats()],
        ),
        "captain",
        emit(lambda rt: ev.CardMoved(card=SELF(rt), to=f"{rt.env['captain']}.allies")),
        auto_single=True,
    ),
    forced=(
        Trigger(
            ev.CharacterDestroyed,
            _warship_destroyed,
            emit(lambda rt: ev.CardMoved(card=SELF(rt), to="set-aside")),
            zone="subject",
        ),
    ),
    shadow=deal_damage(lambda rt: int(rt.env["enemy"]), 5),
)

# -- the contract --------------------------------------------------------------------------------

A_PERILOUS_VOYAGE = "thftd-047"


def _contract(s: LcgState, seat: Seat) -> Uid | None:
    found = [u for u in s.zone(f"{seat}.contract") if s.cards[u].code == A_PERILOUS_VOYAGE]
    return found[0] if found else None


def _voyage_usable(s: LcgState, uid: Uid, seat: Seat) -> bool:
    card = s.cards[uid]
    return card.face == "A" and not card.exhausted and bool(s.zone(f"{seat}.deck"))


def _top_two(rt: Runtime) -> list[Uid]:
    return st(rt).zone(f"{PLAYER(rt)}.deck")[:2]


def _looked(rt: Runtime) -> Event:
    return ev.CardLookedAt(player=PLAYER(rt), card=int(rt.env["seen"]))


def _bottom_the_rest(rt: Runtime) -> list[Uid]:
    return [u for u in rt.env["top"] if u != int(rt.env["drawn"])]


def _voyage_reduction(s: LcgState, seat: str, source: Uid | None) -> int | None:
    """A Perilous Voyage, side A: "Player card effects cannot reduce your threat" (a contract
    counts as a player card: rulebook, Contracts); an encounter card's effect still may.
    Side B: "Only contract effects can reduce your threat": no other card's effect, of
    either deck, may (the card's words; no FAQ entry narrows them)."""
    uid = _contract(s, seat)
    if uid is None or source is None or source not in s.cards:
        return None
    d = table.defn(s, source)
    if s.cards[uid].face == "B":
        return None if d.type == "contract" else 0
    return 0 if d.encounter_set is None else None


caps.THREAT_REDUCTION_CAPS.append(_voyage_reduction)


def _voyage_instead(s: LcgState, seat: str) -> str | None:
    uid = _contract(s, seat)
    return "thftd-047.instead" if uid is not None and s.cards[uid].face == "A" else None


triggers.ELIMINATION_REPLACEMENTS.append(_voyage_instead)
register(
    "thftd-047.instead",
    Let(
        lambda rt: {"_card": _contract(st(rt), PLAYER(rt))},
        emit(lambda rt: ev.CardFlipped(card=int(rt.env["_card"]), face="B")),
    ),
    rule="thftd-047.forced",
)


def _quests_ready(s: LcgState, uid: Uid) -> bool:
    """A Perilous Voyage, side B: "Committing heroes to the quest does not exhaust them"."""
    seat = table.holder(s, uid)
    contract = _contract(s, seat) if seat is not None and table.defn(s, uid).type == "hero" else None
    return contract is not None and s.cards[contract].face == "B"


# asked only in a game holding A Perilous Voyage (table.in_game)
table.QUEST_WITHOUT_EXHAUSTING.append(table.needs(_quests_ready, A_PERILOUS_VOYAGE))


def _shuffle_own_deck(rt: Runtime) -> Event:
    zone = f"{PLAYER(rt)}.deck"
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(st(rt).zone(zone))))


VOYAGE_LESS = 3
"""A Perilous Voyage, side B: the card found may be played, "reducing its cost by 3"."""


def _voyage_discount_key(uid: Uid) -> str:
    return f"voyage-play:{uid}"


def _voyage_event_discount(s: LcgState, seat: Seat, uid: Uid) -> int:
    """The event found with A Perilous Voyage, played from the deck, costs 3 less."""
    if not s.limits or not s.limit_used(_voyage_discount_key(uid)):
        return 0
    return VOYAGE_LESS if s.cards[uid].zone == f"{seat}.deck" else 0


playing_events.COST_REDUCTIONS.append(table.needs(_voyage_event_discount, A_PERILOUS_VOYAGE))


def _found_cost(s: LcgState, uid: Uid) -> int:
    return max(0, table.defn(s, uid).cost - VOYAGE_LESS)


def _found_playable(s: LcgState, seat: Seat, uid: Uid) -> bool:
    """Whether the card found may be played now, 3 cheaper: an ally or an attachment as in
    the planning phase (unique, the stage's ally limit, a legal target, a matching pool), an
    Action event as from hand (something to act on, its phase). Reading: "play it" gives
    leave to play the card now, not to break its other rules; a Response event has no
    moment to answer here, so it can only be taken into hand."""
    d = table.defn(s, uid)
    if d.type == "event":
        return playing_events.playable_outside_hand(s, seat, uid, VOYAGE_LESS)
    if d.type not in ("ally", "attachment") or (d.unique and table.unique_in_play(s, d.code)):
        return False
    if d.type == "ally" and ally_cap_reached(s):
        return False
    if d.type == "attachment" and not attachments.targets(s, uid):
        return False
    return paying.can_pay_cost(s, seat, d.sphere, _found_cost(s, uid))


def _ask_found(rt: Runtime) -> Ask:
    s, seat = st(rt), PLAYER(rt)
    uid = int(rt.env["found"])
    name = table.name(s, uid)
    options = [Option("hand", f"Add {name} to your hand", uid)]
    if _found_playable(s, seat, uid):
        options.append(Option("play", f"Play {name}, its cost reduced by 3 (to {_found_cost(s, uid)})", uid))
    return Ask(seat, f"A Perilous Voyage: add {name} to your hand or play it for 3 less?", options, about=uid)


def _found_ways(rt: Runtime) -> list[tuple[ev.Payment, ...]]:
    s, uid = st(rt), int(rt.env["found"])
    return paying.cost_payments(s, PLAYER(rt), table.defn(s, uid).sphere, _found_cost(s, uid))


def _ask_found_payment(rt: Runtime) -> Ask:
    s, uid = st(rt), int(rt.env["found"])
    options = []
    for way in _found_ways(rt):
        label = ", ".join(f"{table.name(s, p.card)} pays {p.amount}" for p in way) or "free"
        options.append(Option(paying.payment_id(way), label))
    return Ask(PLAYER(rt), f"Pay for {table.name(s, uid)}", options, about=uid)


def _found_payment(rt: Runtime) -> tuple[ev.Payment, ...]:
    return next(w for w in _found_ways(rt) if paying.payment_id(w) == str(rt.env["payment"]))


def _pay_found(then: Callable[[Runtime, tuple[ev.Payment, ...]], Event]) -> Decide:
    return Decide(
        _ask_found_payment,
        "payment",
        emit(lambda rt: then(rt, _found_payment(rt))),
        auto_single=True,
        rule="lcg.planning.pay",
    )


def _ask_found_target(rt: Runtime) -> Ask:
    s, uid = st(rt), int(rt.env["found"])
    options = [card_option(s, u) for u in attachments.targets(s, uid)]
    return Ask(PLAYER(rt), f"Attach {table.name(s, uid)} to", options, about=uid)


_PLAY_FOUND = Let(
    lambda rt: {"kind": table.defn(st(rt), int(rt.env["found"])).type},
    Case(
        "kind",
        {
            "ally": _pay_found(
                lambda rt, way: ev.AllyPlayed(player=PLAYER(rt), card=int(rt.env["found"]), payments=way)
            ),
            "attachment": Decide(
                _ask_found_target,
                "to",
                _pay_found(
                    lambda rt, way: ev.AttachmentPlayed(
                        player=PLAYER(rt), card=int(rt.env["found"]), to=int(rt.env["to"]), payments=way
                    )
                ),
                auto_single=True,
                rule="lcg.planning.attach",
            ),
            "event": Seq(
                emit(lambda rt: LimitUsed(key=_voyage_discount_key(int(rt.env["found"])), until="phase")),
                Call(
                    lambda rt: f"{st(rt).cards[int(rt.env['found'])].code}.action.0",
                    lambda rt: {"self": int(rt.env["found"]), "player": PLAYER(rt), "_card": int(rt.env["found"])},
                ),
            ),
        },
    ),
)


# A Perilous Voyage (contract), side A — "Your deck must contain at least 100 cards (checked
# when the contract is chosen: domain/lcg/lineups.py). Player card effects cannot reduce your
# threat. Action: exhaust A Perilous Voyage and raise your threat by 1 to look at the top 2
# cards of your deck: draw 1 of them and put the other on the bottom of your deck. Forced:
# when you would be eliminated by reaching your threat elimination level, flip this contract
# instead." Side B — "Only contract effects can reduce your threat. Committing heroes to the
# quest does not exhaust them. Forced: when this contract flips to this side, reduce your
# threat by 10 and search your deck for a card: either add it to your hand or play it,
# reducing its cost by 3; shuffle your deck." Side B has no such Forced of its own: a player
# whose threat reaches the elimination level again is eliminated.
text(
    A_PERILOUS_VOYAGE,
    actions=(
        Action(
            _voyage_usable,
            Seq(
                ability_used("action"),
                emit(lambda rt: ev.CardsExhausted(cards=(SELF(rt),))),
                emit(lambda rt: ev.ThreatRaised(player=PLAYER(rt), amount=1)),
                Let(
                    lambda rt: {"top": _top_two(rt)},
                    Seq(
                        ForEach(lambda rt: list(rt.env["top"]), "seen", emit(_looked)),
                        choose(
                            PLAYER,
                            "A Perilous Voyage: draw one of the top 2 cards (the other goes to the bottom)",
                            lambda rt: list(rt.env["top"]),
                            "drawn",
                            Seq(
                                emit(lambda rt: ev.CardsDrawn(player=PLAYER(rt), cards=(int(rt.env["drawn"]),))),
                                ForEach(
                                    _bottom_the_rest,
                                    "rest",
                                    emit(lambda rt: ev.CardMoved(card=int(rt.env["rest"]), to=f"{PLAYER(rt)}.deck")),
                                ),
                            ),
                        ),
                    ),
                ),
            ),
            "exhaust, +1 threat: look at your top 2 cards, draw 1",
        ),
    ),
    forced=(
        Trigger(
            ev.CardFlipped,
            flipped_to("B"),
            Seq(
                reduce_threat(PLAYER, 10),
                choose(
                    PLAYER,
                    "A Perilous Voyage: search your deck for a card (to add to your hand or play for 3 less)",
                    lambda rt: st(rt).zone(f"{PLAYER(rt)}.deck"),
                    "found",
                    Decide(
                        _ask_found,
                        "how",
                        If(
                            lambda rt: rt.env["how"] == "play",
                            _PLAY_FOUND,
                            emit(lambda rt: ev.CardMoved(card=int(rt.env["found"]), to=f"{PLAYER(rt)}.hand")),
                        ),
                        auto_single=True,
                    ),
                ),
                emit(_shuffle_own_deck),
            ),
        ),
    ),
)
