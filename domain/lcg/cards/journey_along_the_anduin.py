"""The Journey Along the Anduin encounter set (Core Set #111-114) and its quest (#126-128)."""

from __future__ import annotations

from domain.kernel.events import Event, GameEnded, Outcome
from domain.kernel.flow import Call, ForEach, If, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Trigger, text
from domain.lcg.cards.encounter_steps import remove_progress, shuffle_encounter_deck
from domain.lcg.effects import SELF, attacker, emit, reveal_encounter_card, st, undefended
from domain.lcg.rules import table
from domain.lcg.rules.constant import Constant, constant
from domain.lcg.state import LcgState, Uid

HILL_TROLL = "core-082"

# Misty Mountain Goblins — "Forced: after Misty Mountain Goblins attacks, remove 1
# progress token from the current quest. Shadow: remove 1 progress token from the
# current quest (3 if the attack is undefended)."
text(
    "core-111",
    forced=(
        Trigger(
            ev.AttackResolved,
            lambda s, e, uid: isinstance(e, ev.AttackResolved) and e.enemy == uid and e.by_enemy and not e.cancelled,
            emit(lambda rt: remove_progress(rt, 1)),
        ),
    ),
    shadow=emit(lambda rt: remove_progress(rt, 3 if undefended(rt) else 1)),
)


def _players(rt: Runtime) -> list[int]:
    return list(range(len(st(rt).active_seats())))


# Massing at Night — "When Revealed: reveal X more encounter cards, X the number of
# players. Shadow: deal X shadow cards to the attacking enemy, X the number of players."
# The shadow cards dealt this way are turned over in the same attack (combat.py).
text(
    "core-112",
    when_revealed=ForEach(_players, "more", reveal_encounter_card()),
    shadow=ForEach(_players, "more", Call("lcg.shadow.deal-extra", lambda rt: {"self": attacker(rt)})),
)

# Banks of the Anduin — "Forced: if Banks of the Anduin leaves play, return it to the top
# of the encounter deck instead of the discard pile." It is put on top as it reaches the
# discard pile, before anything else can happen.
text(
    "core-113",
    forced=(
        Trigger(
            ev.LocationExplored,
            lambda s, e, uid: isinstance(e, ev.LocationExplored) and e.card == uid,
            emit(lambda rt: ev.CardMoved(card=SELF(rt), to="encounter.deck", top=True)),
            zone="subject",
        ),
    ),
)

# Gladden Fields — "Forced: while Gladden Fields is the active location, each player
# raises his threat by 1 more in the refresh phase." (refresh.py adds it.)
constant("core-114", Constant(refresh_threat=1))


# -- the quest ---------------------------------------------------------------------------


def _troll_in_play(s: LcgState) -> bool:
    return any(s.cards[u].code == HILL_TROLL for u in table.enemies_in_play(s))


def _search_troll(rt: Runtime) -> Event | None:
    s = st(rt)
    if _troll_in_play(s):
        return None
    found = [u for u in s.zone("encounter.deck") if s.cards[u].code == HILL_TROLL]
    return ev.CardMoved(card=found[0], to="staging") if found else None


# To the River..., 1A — "Setup: each player reveals 1 card from the top of the encounter
# deck and adds it to the staging area." Revealed cards resolve as in the staging step:
# their When Revealed effects, Surge and Doomed (Core Set rulebook, Setup).
# 1B — "When Revealed: if no Hill Troll is in play, search the encounter deck for 1 Hill
# Troll and put it in the staging area; shuffle the encounter deck. The players cannot
# defeat this stage while any Hill Troll is in play."
text(
    "core-126",
    setup=ForEach(lambda rt: st(rt).active_seats(), "player", reveal_encounter_card()),
    when_revealed=Seq(emit(_search_troll), emit(shuffle_encounter_deck)),
    can_defeat=lambda s, uid: not _troll_in_play(s),
)

# Anduin Passage, 2B — "Reveal 1 more encounter card each quest phase. Make no engagement
# checks in the encounter phase (each player may still optionally engage 1 enemy)."
constant("core-127", Constant(extra_reveals=1, skips_engagement_checks=True))


def _no_enemy_left(s: LcgState, uid: Uid) -> bool:
    return s.cards[uid].zone == "quest" and s.cards[uid].face == "B" and not table.enemies_in_play(s)


def _won(rt: Runtime) -> Event:
    return GameEnded(outcome=Outcome(result="won", reason="ambush-on-the-shore", winner="players"))


def _per_player_twice(rt: Runtime) -> list[int]:
    return list(range(2 * len(st(rt).active_seats())))


_LEAVING = (ev.EnemyDefeated, ev.CardMoved, ev.CardsDiscarded)
"""Ways an enemy leaves play (defeated; Wolf Rider returned to the encounter deck)."""


def _enemy_left(s: LcgState, e: Event, uid: Uid) -> bool:
    """An enemy just left play, and none is left."""
    if isinstance(e, ev.EnemyDefeated):
        gone = [e.enemy]
    elif isinstance(e, ev.CardMoved):
        gone = [e.card]
    elif isinstance(e, ev.CardsDiscarded):
        gone = list(e.cards)
    else:
        return False
    left = any(table.defn(s, u).type == "enemy" and not table.is_in_play(s, u) for u in gone)
    return left and s.over is None and _no_enemy_left(s, uid)


# Ambush on the Shore, 3B — "When Revealed: reveal 2 encounter cards per player and add
# them to the staging area. Skip the staging step of the quest phase for the rest of the
# game. Once there are no enemies in play, the players win." The win is checked after the
# cards are revealed and each time a card leaves play.
text(
    "core-128",
    when_revealed=Seq(
        ForEach(_per_player_twice, "more", reveal_encounter_card()),
        If(lambda rt: _no_enemy_left(st(rt), SELF(rt)), emit(_won)),
    ),
    forced=tuple(Trigger(kind, _enemy_left, emit(_won)) for kind in _LEAVING),
)
constant("core-128", Constant(skips_staging=True))
