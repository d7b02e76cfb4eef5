"""The Dol Guldur Orcs encounter set (Core Set #89-95)."""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.flow import Call, If
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Trigger, text
from domain.lcg.effects import (
    FIRST_PLAYER,
    SELF,
    attacker,
    card_var,
    choose,
    chosen,
    damage_each,
    deal_damage,
    defending_player,
    discard,
    emit,
    modify,
    st,
    undefended,
)
from domain.lcg.rules import table

# Dol Guldur Orcs — "When Revealed: the first player chooses 1 character committed to a
# quest; deal 2 damage to it. Shadow: the attacking enemy gets +1 Attack (+3 if the
# attack is undefended)."
text(
    "core-089",
    when_revealed=choose(
        FIRST_PLAYER,
        "Dol Guldur Orcs: choose a questing character to take 2 damage",
        lambda rt: table.committed(st(rt)),
        "target",
        deal_damage(card_var("target"), 2),
    ),
    shadow=If(
        undefended,
        modify(lambda rt: [attacker(rt)], "attack", 3, "attack"),
        modify(lambda rt: [attacker(rt)], "attack", 1, "attack"),
    ),
)

# Chieftan Ufthak — "Chieftain Ufthak gets +2 Attack for each resource token on him.
# Forced: after Chieftain Ufthak attacks, place 1 resource token on him." Only his own
# attacks count, not attacks the players make against him; the token comes right after
# the attack's damage (FAQ: "after this enemy attacks" resolves after step 4).
text(
    "core-090",
    stat=lambda s, uid, which: 2 * s.cards[uid].resources if which == "attack" else 0,
    steady_stat=True,
    forced=(
        Trigger(
            ev.AttackResolved,
            lambda s, e, uid: isinstance(e, ev.AttackResolved) and e.enemy == uid and e.by_enemy and not e.cancelled,
            emit(lambda rt: ev.ResourcesAdded(cards=(SELF(rt),))),
        ),
    ),
)

# Dol Guldur Beastmaster — "Forced: when Dol Guldur Beastmaster attacks, deal it 1
# additional shadow card." The card is dealt as its attack begins, before the defender
# is declared (FAQ errata for Core #91: dealt at step 1 of the attack).
text(
    "core-091",
    forced=(
        Trigger(
            ev.AttackDeclared,
            lambda s, e, uid: isinstance(e, ev.AttackDeclared) and e.enemy == uid,
            Call("lcg.shadow.deal-extra", lambda rt: {"self": SELF(rt)}),
        ),
    ),
)


def _staging_empty(rt: Runtime) -> bool:
    return not st(rt).zone("staging")


def _staged_enemies_and_locations(rt: Runtime) -> list[int]:
    s = st(rt)
    return [u for u in table.staging(s) if table.defn(s, u).type in ("enemy", "location")]


def _controlled_attachments(rt: Runtime) -> list[int]:
    """Attachments a player controls: player cards they own. An encounter card attached
    to a character (Caught in a Web) is controlled by no player (FAQ 1.06)."""
    seat = defending_player(rt)
    return [a for a in st(rt).zone("attachments") if st(rt).cards[a].owner == seat]


# Driven by Shadow — "When Revealed: each enemy and each location in the staging area
# gets +1 Threat until the end of the phase; if the staging area is empty, this card
# gains surge. Shadow: the defending player chooses and discards 1 attachment from the
# defending character (every attachment he controls if the attack is undefended)."
# The printed text says "currently in the staging area": cards that enter it later in
# the phase (a surge card) get no +1. Undefended, "all attachments you control" leaves a
# Caught in a Web on the defending player's hero in place (FAQ 1.06); defended, any
# attachment on the defending character may be chosen, a Caught in a Web included.
text(
    "core-092",
    when_revealed=If(
        _staging_empty,
        emit(lambda rt: ev.SurgeGained(card=SELF(rt))),
        modify(_staged_enemies_and_locations, "threat", 1, "phase"),
    ),
    shadow=If(
        undefended,
        discard(_controlled_attachments),
        choose(
            defending_player,
            "Driven by Shadow: discard an attachment from the defending character",
            lambda rt: table.attachments_on(st(rt), int(rt.env["defender"])),
            "attachment",
            discard(lambda rt: chosen(rt, "attachment")),
        ),
    ),
)

# The Necromancer's Reach — "When Revealed: deal 1 damage to each exhausted character."
text(
    "core-093",
    when_revealed=damage_each(lambda rt: [u for u in table.all_characters(st(rt)) if st(rt).cards[u].exhausted], 1),
)


def _discard_two_at_random(rt: Runtime) -> Event:
    hand = table.hand(st(rt), st(rt).first)
    return ev.CardsDiscarded(cards=tuple(rt.pick(hand, 2)))


# Necromancer's Pass — "Travel: the first player must discard 2 cards from his hand at
# random to travel here."
text(
    "core-094",
    travel=emit(_discard_two_at_random),
    can_travel=lambda s, uid: len(table.hand(s, s.first)) >= 2,
)

# Enchanted Stream — "While Enchanted Stream is the active location, players cannot draw
# cards."
text("core-095", while_active=frozenset({"draw"}))
