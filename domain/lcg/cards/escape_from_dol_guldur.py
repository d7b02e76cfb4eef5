"""The Escape from Dol Guldur encounter set (Core Set #101-110) and its quest (#123-125),
with the Orc Guards that Tower Gate and Out of the Dungeons make of players' cards."""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.events import Event, LimitUsed, Modifier, ModifierAdded
from domain.kernel.flow import Call, ForEach, If, Let, Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.cards import Action, Trigger, text
from domain.lcg.cards.encounter_steps import shuffle_encounter_deck
from domain.lcg.effects import (
    FIRST_PLAYER,
    PLAYER,
    SELF,
    ability_used,
    choose,
    chosen,
    defending_player,
    discard,
    each_player,
    emit,
    raise_threat,
    st,
    undefended,
)
from domain.lcg.rules import table
from domain.lcg.rules.constant import ALLY_LIMIT, Constant, constant
from domain.lcg.rules.keywords import guards_of
from domain.lcg.state import SET_ASIDE_FACE_UP, LcgState, Seat, Uid

NAZGUL = "core-102"
OBJECTIVES = ("core-108", "core-109", "core-110")
ORC_GUARD = "orc-guard"


# -- Orc Guards --------------------------------------------------------------------------


def _orc_guard(rt: Runtime) -> Event | None:
    s = st(rt)
    seat = PLAYER(rt)
    deck = s.zone(f"{seat}.deck")
    if s.players[seat].eliminated or not deck:
        return None
    return xev.OrcGuardMade(card=deck[0], guard=max(s.cards) + 1, player=seat)


def _newest_guard(rt: Runtime) -> Event | None:
    s = st(rt)
    guards = [u for u in s.zone("staging") if s.cards[u].code == ORC_GUARD]
    return ev.EnemyEngaged(enemy=max(guards), player=PLAYER(rt)) if guards else None


def _orc_guards() -> Node:
    """Each player puts the top card of his deck face down in front of him as an Orc Guard,
    "as if it just engaged him from the staging area" (so engagement effects apply)."""
    return each_player(Seq(emit(_orc_guard), emit(_newest_guard)))


def _guard_leaves(rt: Runtime) -> Event:
    s = st(rt)
    guard = SELF(rt)
    under = [u for u, c in s.cards.items() if c.attached_to == guard and c.zone.endswith(".under")]
    return xev.OrcGuardRemoved(guard=guard, card=under[0] if under else None)


# Orc Guard — a face-down player card acting as an enemy (1 hit point, 1 Attack, 1
# Defense); when it leaves play the card goes to its owner's discard pile, face up.
# FAQ 1.9 (Out of the Dungeons, Core 125): "If a facedown Orc Guard would be returned to the
# staging area, it is instead placed in its owner's discard pile" (its player eliminated).
text(
    ORC_GUARD,
    forced=(
        Trigger(
            ev.EnemyDefeated,
            lambda s, e, uid: isinstance(e, ev.EnemyDefeated) and e.enemy == uid,
            emit(_guard_leaves),
            zone="subject",
        ),
        Trigger(
            ev.CardMoved,
            lambda s, e, uid: isinstance(e, ev.CardMoved) and e.card == uid and e.to == "staging",
            emit(_guard_leaves),
        ),
    ),
)

# -- the encounter set -------------------------------------------------------------------


def _unclaimed_objectives(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for u in table.staging(s) if table.defn(s, u).type == "objective"]


def _guards_released(rt: Runtime) -> Event | None:
    """An objective shuffled away is no longer guarded by what guarded it."""
    guards = tuple(guards_of(st(rt), int(rt.env["objective"])))
    return xev.GuardsReleased(cards=guards) if guards else None


def _shuffle_in(rt: Runtime) -> Event:
    deck = [*st(rt).zone("encounter.deck"), int(rt.env["objective"])]
    return ev.DeckShuffled(zone="encounter.deck", order=tuple(rt.shuffle(deck)))


# Dungeon Jailor — "Forced: if Dungeon Jailor is in the staging area after the players
# have just quested unsuccessfully, shuffle 1 unclaimed objective from the staging area
# back into the encounter deck." Unsuccessful: the threat in the staging area was higher
# than the willpower (Core Set rulebook, Quest resolution); the first player chooses which.
# It resolves on QuestResolved, before the threat is raised: the outcome is one step and its
# consequence the next (FAQ 1.24, Questing Successfully, read the same way for a failed quest).
text(
    "core-101",
    forced=(
        Trigger(
            ev.QuestResolved,
            lambda s, e, uid: (
                isinstance(e, ev.QuestResolved) and e.threat > e.willpower and s.cards[uid].zone == "staging"
            ),
            choose(
                FIRST_PLAYER,
                "Dungeon Jailor: shuffle an objective back into the encounter deck",
                _unclaimed_objectives,
                "objective",
                Seq(emit(_guards_released), emit(_shuffle_in)),
            ),
        ),
    ),
)


def _victim_leaves(rt: Runtime) -> Event | None:
    """Its attachments leave first (a claimed objective returns to the staging area)."""
    gone = tuple(table.attachments_on(st(rt), int(rt.env["victim"])))
    return ev.CardsDiscarded(cards=gone) if gone else None


def _no_hero_left(rt: Runtime) -> bool:
    s = st(rt)
    seat = str(rt.env["engaged"])
    return not s.players[seat].eliminated and not table.heroes(s, seat)


# Nazgûl of Dol Guldur — "No attachments can be played on Nazgûl of Dol Guldur. Forced:
# when the prisoner is rescued, move Nazgûl of Dol Guldur into the staging area. Forced:
# after a shadow effect dealt to Nazgûl of Dol Guldur resolves, the engaged player chooses
# and discards 1 character he controls." A shadow card without a shadow effect does not
# count. A player left without heroes this way is eliminated (Core Set rulebook). "No
# attachments can be played on" it is FAQ 1.9 errata (Core 102): no player attachment targets it.
constant(NAZGUL, Constant(no_attachments=True))
text(
    NAZGUL,
    forced=(
        Trigger(
            xev.HeroRescued,
            lambda s, e, uid: s.cards[uid].zone == SET_ASIDE_FACE_UP,
            emit(lambda rt: ev.CardMoved(card=SELF(rt), to="staging")),
            zone="set-aside",
        ),
        Trigger(
            xev.ShadowEffectResolved,
            lambda s, e, uid: (
                isinstance(e, xev.ShadowEffectResolved) and e.enemy == uid and s.controller(uid) is not None
            ),
            choose(
                lambda rt: str(rt.env["engaged"]),
                "Nazgûl of Dol Guldur: discard one of your characters",
                lambda rt: table.characters(st(rt), str(rt.env["engaged"])),
                "victim",
                Seq(
                    emit(_victim_leaves),
                    emit(
                        lambda rt: ev.CharacterDiscarded(card=int(rt.env["victim"]), controller=str(rt.env["engaged"]))
                    ),
                    If(
                        _no_hero_left,
                        Call("lcg.eliminate", lambda rt: {"player": rt.env["engaged"], "reason": "heroes"}),
                    ),
                ),
            ),
            bind=lambda s, e, uid: {"engaged": s.controller(uid) or s.first},
        ),
    ),
)


def _controlled(rt: Runtime) -> list[Uid]:
    return table.controlled_attachments(st(rt), defending_player(rt))


# Cavern Guardian — "Doomed 1. Shadow: choose and discard 1 attachment you control;
# discarded objectives return to the staging area (if the attack is undefended, discard
# every attachment you control)." The objectives' own text returns them.
text(
    "core-103",
    shadow=If(
        undefended,
        discard(_controlled),
        choose(
            defending_player,
            "Cavern Guardian: discard an attachment you control",
            _controlled,
            "attachment",
            discard(lambda rt: chosen(rt, "attachment")),
        ),
    ),
)


def _staging_threat_up(rt: Runtime) -> Event:
    n = len(st(rt).active_seats())
    return ModifierAdded(modifier=Modifier(table.STAGING_AREA, "threat", n, "phase", SELF(rt)))


# Under the Shadow — "When Revealed: until the end of the phase, raise the total threat in
# the staging area by X, X the number of players. Shadow: the defending player raises his
# threat by the number of enemies engaged with him."
text(
    "core-104",
    when_revealed=emit(_staging_threat_up),
    shadow=raise_threat(defending_player, lambda rt: len(st(rt).zone(f"{defending_player(rt)}.engaged"))),
)


def _shackle(rt: Runtime) -> Event:
    return ev.CardMoved(card=SELF(rt), to=f"{st(rt).first}.shackles")


# Iron Shackles — "When Revealed: attach Iron Shackles to the top of the first player's
# deck (a Condition: the next time a player would draw 1 or more cards from that deck,
# discard Iron Shackles instead). Shadow: resolve its When Revealed effect." The draw it
# replaces is any draw from that deck, the resource phase's included (procedures.py).
text("core-105", when_revealed=emit(_shackle), shadow=emit(_shackle))
constant("core-105", Constant(replaces_draw=True))

# Tower Gate — "Forced: after traveling to Tower Gate, each player places the top card of
# his deck face down in front of him, as if it just engaged him from the staging area: an
# 'Orc Guard' enemy with 1 hit point, 1 Attack and 1 Defense."
text(
    "core-107",
    forced=(
        Trigger(
            ev.LocationTraveled,
            lambda s, e, uid: isinstance(e, ev.LocationTraveled) and e.card == uid,
            _orc_guards(),
        ),
    ),
)

# -- the objectives ----------------------------------------------------------------------


def _room(s: LcgState, seat: Seat) -> list[Uid]:
    """Heroes of ``seat`` that may take the objective: any of them. Ruling (Core Set rulebook,
    Keywords: Restricted; Rules Reference, Restricted): a third Restricted attachment may be
    attached, then one of them is discarded (rules/attachments.py), so a hero holding two is a
    legal choice."""
    return list(table.heroes(s, seat))


def _claimable(s: LcgState, uid: Uid, seat: Seat) -> bool:
    return s.cards[uid].zone == "staging" and not guards_of(s, uid) and bool(_room(s, seat))


def _claim() -> Action:
    return Action(
        _claimable,
        Seq(
            ability_used("action"),
            raise_threat(PLAYER, 2),
            choose(
                PLAYER,
                "Claim the objective: attach it to one of your heroes",
                lambda rt: _room(st(rt), PLAYER(rt)),
                "hero",
                emit(lambda rt: xev.ObjectiveClaimed(card=SELF(rt), to=int(rt.env["hero"]), player=PLAYER(rt))),
            ),
        ),
        "raise your threat by 2 to claim it",
        anyone=True,
    )


def _held_by_eliminated(s: LcgState, e: Event, uid: Uid) -> bool:
    host = s.cards[uid].attached_to
    return (
        isinstance(e, ev.PlayerEliminated)
        and s.cards[uid].zone == "attachments"
        and host is not None
        and s.cards[host].zone.partition(".")[0] == e.player
    )


def _detached() -> tuple[Trigger, Trigger]:
    """(If detached, return it to the staging area.) Only a claimed objective is ever attached:
    one dealt as a shadow card is discarded like any other (Core Set rulebook, Combat). Reading:
    the cards of an eliminated player leave the game, so an objective his hero held is detached
    and returns too (else Through the Caverns could never be defeated)."""
    return (
        Trigger(
            ev.CardsDiscarded,
            lambda s, e, uid: isinstance(e, ev.CardsDiscarded) and uid in e.cards and s.cards[uid].claimed,
            emit(lambda rt: xev.ObjectiveReturned(card=SELF(rt))),
            zone="subject",
        ),
        Trigger(ev.PlayerEliminated, _held_by_eliminated, emit(lambda rt: xev.ObjectiveReturned(card=SELF(rt)))),
    )


def _host(rt: Runtime) -> Uid | None:
    card = st(rt).cards[SELF(rt)]
    return card.attached_to if card.zone == "attachments" else None


def _torch_burns(rt: Runtime) -> Event | None:
    host = _host(rt)
    seat = st(rt).controller(host) if host is not None else None
    return ev.ThreatRaised(player=seat, amount=2) if seat is not None else None


def _at_round_end(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, xev.RoundEnded) and s.cards[uid].zone == "attachments"


# Gandalf's Map — "Guarded. Restricted. Action: raise your threat by 2 to claim this
# objective when it is free of encounters, and attach it to a hero you control (if
# detached, it returns to the staging area). The attached hero cannot attack or defend."
# Any player may claim it (its Action is on a card no player controls: Core Set rulebook,
# Objective cards); a hero already holding 2 Restricted attachments may take it, then
# discards one of the three (the objective itself returns to the staging area).
text("core-108", actions=(_claim(),), forced=_detached())
constant("core-108", Constant(host_cannot_fight=True))

# Dungeon Torch — "... Forced: at the end of each round, raise the attached hero's
# controller's threat by 2."
text(
    "core-109",
    actions=(_claim(),),
    forced=(
        *_detached(),
        Trigger(
            xev.RoundEnded,
            _at_round_end,
            emit(_torch_burns),
        ),
    ),
)

# Shadow Key — "... Forced: at the end of each round, the attached hero takes 1 damage."
text(
    "core-110",
    actions=(_claim(),),
    forced=(
        *_detached(),
        Trigger(
            xev.RoundEnded,
            _at_round_end,
            emit(lambda rt: ev.DamageDealt(card=h, amount=1) if (h := _host(rt)) is not None else None),
        ),
    ),
)

# -- the quest ---------------------------------------------------------------------------


def _find(codes: tuple[str, ...], zone: str) -> Callable[[Runtime], list[Uid]]:
    def cards(rt: Runtime) -> list[Uid]:
        s = st(rt)
        return [u for u in s.zone(zone) if s.cards[u].code in codes]

    return cards


def _claimed(s: LcgState) -> int:
    return sum(1 for a in s.zone("attachments") if table.defn(s, a).type == "objective")


def _prisoners(s: LcgState) -> list[Uid]:
    """The prisoner, unless its player has left the game (his cards with him)."""
    return [u for seat in s.active_seats() for u in s.zone(f"{seat}.prisoner")]


def _capture(rt: Runtime) -> Event | None:
    s = st(rt)
    heroes = [h for seat in s.active_seats() for h in table.heroes(s, seat)]
    return xev.HeroCaptured(card=rt.pick(heroes)[0]) if heroes else None


def _count_ally(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.AllyPlayed) and s.cards[uid].zone == "quest" and s.cards[uid].face == "B"


def _one_ally() -> Trigger:
    """The players as a group cannot play more than 1 ally card each round: each ally played
    under such a stage is counted until the end of the round (planning.py asks)."""
    return Trigger(ev.AllyPlayed, _count_ally, emit(lambda rt: LimitUsed(key=ALLY_LIMIT, until="round")))


# The Necromancer's Tower, 1A — "Setup: put the 3 objectives from the encounter deck into
# the staging area; set Nazgûl of Dol Guldur aside face up, out of play; shuffle the
# encounter deck; then each objective is guarded by the top card of the encounter deck."
# FAQ 1.9 errata (Core 123): the objectives are "revealed and placed in the staging area", so
# their Guarded keyword gives each one a guard.
# The guard is revealed (its When Revealed, Doomed and Surge resolve; Core Set rulebook,
# Guarded) so a treachery leaves its objective free at once.
# 1B — "When Revealed: 1 hero chosen at random among the players' heroes is turned face
# down: the prisoner cannot be used, cannot be damaged and collects no resources until
# rescued. The players as a group cannot play more than 1 ally card each round. The
# players cannot advance unless they control at least 1 objective." Reading: the prisoner
# leaves its player's heroes for a zone of its own; a player whose other heroes are all
# destroyed is eliminated (he has no hero in play).
text(
    "core-123",
    setup=Seq(
        ForEach(
            _find(OBJECTIVES, "encounter.deck"),
            "objective",
            emit(lambda rt: ev.CardMoved(card=int(rt.env["objective"]), to="staging")),
        ),
        ForEach(
            _find((NAZGUL,), "encounter.deck"),
            "nazgul",
            emit(lambda rt: ev.CardMoved(card=int(rt.env["nazgul"]), to=SET_ASIDE_FACE_UP)),
        ),
        emit(shuffle_encounter_deck),
        ForEach(
            _find(OBJECTIVES, "staging"),
            "objective",
            Call("lcg.reveal", lambda rt: {"guarding": rt.env["objective"]}),
            rule="lcg.keyword.guarded",
        ),
    ),
    when_revealed=emit(_capture),
    forced=(_one_ally(),),
    can_defeat=lambda s, uid: _claimed(s) >= 1,
)
constant("core-123", Constant(allies_per_round=1))


def _first_prisoner(rt: Runtime) -> Uid | None:
    prisoners = _prisoners(st(rt))
    return prisoners[0] if prisoners else None


# Through the Caverns, 2B — "Response: after progress tokens are placed on this stage, the
# prisoner is turned face up with 1 damage on it: rescued. The players as a group cannot
# play more than 1 ally card each round. The players cannot advance unless they have
# rescued the prisoner and control all 3 Escape from Dol Guldur objectives." The rescued
# hero comes back ready, under its owner's control (it was turned face down, not exhausted).
text(
    "core-124",
    responses=(
        Trigger(
            ev.ProgressPlaced,
            lambda s, e, uid: isinstance(e, ev.ProgressPlaced) and e.card == uid and bool(_prisoners(s)),
            Let(
                lambda rt: {"rescued": _first_prisoner(rt)},
                If(
                    lambda rt: rt.env["rescued"] is not None,
                    Seq(
                        emit(lambda rt: xev.HeroRescued(card=_rescued_hero(rt))),
                        emit(lambda rt: ev.DamageDealt(card=_rescued_hero(rt), amount=1)),
                    ),
                ),
            ),
            optional=True,
            prompt="Through the Caverns: rescue the prisoner (it comes back with 1 damage, and the Nazgûl comes)?",
        ),
    ),
    forced=(_one_ally(),),
    can_defeat=lambda s, uid: not _prisoners(s) and _claimed(s) >= len(OBJECTIVES),
)
constant("core-124", Constant(allies_per_round=1))


def _rescued_hero(rt: Runtime) -> Uid:
    """The prisoner this response rescues."""
    return int(rt.env["rescued"])


def _nazgul_gone(s: LcgState, uid: Uid) -> bool:
    return not any(s.cards[u].code == NAZGUL for u in table.enemies_in_play(s))


# Out of the Dungeons, 3B — "Forced: at the beginning of each quest phase, each player
# places the top card of his deck face down in front of him as if it just engaged him:
# an Orc Guard (1 hit point, 1 Attack, 1 Defense). The players cannot defeat this stage
# while Nazgûl of Dol Guldur is in play. If they defeat it, they win." A Nazgûl still set
# aside is not in play.
text(
    "core-125",
    forced=(
        Trigger(
            ev.PhaseBegan,
            lambda s, e, uid: isinstance(e, ev.PhaseBegan) and e.phase == "quest" and s.cards[uid].zone == "quest",
            _orc_guards(),
        ),
    ),
    can_defeat=_nazgul_gone,
    wins_when_defeated="out-of-the-dungeons",
)
