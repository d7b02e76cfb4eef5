"""The Sauron's Reach encounter set (Core Set #115-118)."""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.flow import If, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Trigger, text
from domain.lcg.effects import (
    PLAYER,
    SELF,
    attacker,
    choose,
    chosen,
    damage_each,
    defending_player,
    discard,
    each_player,
    emit,
    modify,
    raise_threat,
    st,
)
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Seat

HIGH_THREAT = 35


def _high(s: LcgState, seat: Seat) -> bool:
    return s.players[seat].threat >= HIGH_THREAT


def _shuffle_back(rt: Runtime) -> Event | None:
    s = st(rt)
    crow = SELF(rt)
    if s.cards[crow].zone != "encounter.discard":
        return None
    deck = [*s.zone("encounter.deck"), crow]
    return ev.DeckShuffled(zone="encounter.deck", order=tuple(rt.shuffle(deck)))


# Eastern Crows — "Surge. Forced: after Eastern Crows is defeated, shuffle it back into
# the encounter deck. Shadow: the attacking enemy gets +1 Attack (+2 if the defending
# player's threat is 35 or higher)."
text(
    "core-115",
    forced=(
        Trigger(
            ev.EnemyDefeated,
            lambda s, e, uid: isinstance(e, ev.EnemyDefeated) and e.enemy == uid,
            emit(_shuffle_back),
            zone="subject",
        ),
    ),
    shadow=If(
        lambda rt: _high(st(rt), defending_player(rt)),
        modify(lambda rt: [attacker(rt)], "attack", 2, "attack"),
        modify(lambda rt: [attacker(rt)], "attack", 1, "attack"),
    ),
)

# Evil Storm — "When Revealed: deal 1 damage to each character controlled by each player
# with a threat of 35 or higher."
text(
    "core-116",
    when_revealed=damage_each(
        lambda rt: [u for seat in st(rt).active_seats() if _high(st(rt), seat) for u in table.characters(st(rt), seat)],
        1,
    ),
)


def _not_questing(rt: Runtime) -> int:
    s = st(rt)
    return sum(1 for u in table.characters(s, PLAYER(rt)) if not s.cards[u].committed)


def _exhausted_allies(rt: Runtime) -> list[int]:
    s = st(rt)
    return [u for u in s.zone(f"{defending_player(rt)}.allies") if s.cards[u].exhausted]


# Pursued by Shadow — "When Revealed: each player raises his threat by 1 for each
# character he controls that is not committed to a quest. Shadow: the defending player
# returns 1 exhausted ally he controls to its owner's hand; if he controls none, he raises
# his threat by 3."
text(
    "core-117",
    when_revealed=each_player(raise_threat(PLAYER, _not_questing)),
    shadow=If(
        lambda rt: bool(_exhausted_allies(rt)),
        choose(
            defending_player,
            "Pursued by Shadow: return an exhausted ally to your hand",
            _exhausted_allies,
            "ally",
            emit(
                lambda rt: ev.CardMoved(
                    card=chosen(rt, "ally")[0], to=f"{table.owner_of(st(rt), chosen(rt, 'ally')[0])}.hand"
                )
            ),
        ),
        raise_threat(defending_player, 3),
    ),
)


def _staged_locations(rt: Runtime) -> list[int]:
    s = st(rt)
    return [u for u in table.staging(s) if table.defn(s, u).type == "location"]


# Treacherous Fog — "When Revealed: each location in the staging area gets +1 Threat until
# the end of the phase; then each player with a threat of 35 or higher chooses and discards
# 1 card from his hand."
text(
    "core-118",
    when_revealed=Seq(
        modify(_staged_locations, "threat", 1, "phase"),
        each_player(
            If(
                lambda rt: _high(st(rt), PLAYER(rt)),
                choose(
                    PLAYER,
                    "Treacherous Fog: discard a card from your hand",
                    lambda rt: table.hand(st(rt), PLAYER(rt)),
                    "discarded",
                    discard(lambda rt: chosen(rt, "discarded")),
                ),
            )
        ),
    ),
)
