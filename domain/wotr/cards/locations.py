"""Paths and battlegrounds: what each activation text does.

An activation text resolves as its location is activated (rules §4.1). "The <faction>
player" is the seat whose deck holds that faction; "each <team> player" is every seat of
the team (a lone Duel deck resolves it twice).
"""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.flow import Node, Seq
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.cards import text
from domain.wotr.effects import (
    PLAYER,
    SELF,
    activate,
    add_tokens,
    battleground_named,
    cycle_from_hand,
    draw,
    draw_play_cycle,
    each_player,
    emit,
    faction_player,
    forsake,
    pile,
    search,
    st,
    yes_no,
)
from domain.wotr.state import FREE, SHADOW


def draws(faction: str, count: int) -> Node:
    return faction_player(faction, draw(PLAYER, count))


def draws_then_cycles(faction: str) -> Node:
    return faction_player(faction, Seq(draw(PLAYER, 1), cycle_from_hand(PLAYER, 1)))


def may_forsake_to_draw(faction: str, count: int, prompt: str) -> Node:
    return faction_player(faction, yes_no(PLAYER, prompt, Seq(forsake(PLAYER), draw(PLAYER, count))))


# -- paths -------------------------------------------------------------------------------

# Bag End (1) — "The Hobbit player draws 2 cards."
text("bag-end", activation=draws("hobbit", 2))
# Gildor's Encampment (1) — "The Elf player draws 1 card, then cycles 1 card from hand."
text("gildors-encampment", activation=draws_then_cycles("elf"))
# Bucklebury Ferry (1) — "The Mordor player and the Hobbit player each draw 1 card."
text("bucklebury-ferry", activation=Seq(draws("mordor", 1), draws("hobbit", 1)))
# The Old Forest (2) — "Each Free Peoples player must forsake 1 card."
text("the-old-forest", activation=each_player(FREE, forsake(PLAYER)))
# Inn of the Prancing Pony (2) — "Each Shadow player draws 2 cards."
text("inn-of-the-prancing-pony", activation=each_player(SHADOW, draw(PLAYER, 2)))
# Weathertop (2) — "The Mordor player draws 2 cards."
text("weathertop", activation=draws("mordor", 2))
# Fords of Bruinen (3) — "Each Free Peoples player must forsake 1 card, then draws 3 cards."
text("fords-of-bruinen", activation=each_player(FREE, Seq(forsake(PLAYER), draw(PLAYER, 3))))
# Imladris (3) — "The Elf player draws 2 cards."
text("imladris", activation=draws("elf", 2))
# The Council of Elrond (3) — "Each Free Peoples player draws 1 card."
text("the-council-of-elrond", activation=each_player(FREE, draw(PLAYER, 1)))
# Caradhras (4) — "Each Free Peoples player must forsake 1 card."
text("caradhras", activation=each_player(FREE, forsake(PLAYER)))
# The Doors of Durin (4) — "The Monstrous player may forsake 1 card to add 1 attack token to
# this path."
text(
    "the-doors-of-durin",
    activation=faction_player(
        "monstrous",
        yes_no(
            PLAYER,
            "The Doors of Durin: forsake a card to add 1 attack token to the path?",
            Seq(forsake(PLAYER), add_tokens(SELF, attack=1)),
        ),
    ),
)
# Khazad-dûm (4) — "The Monstrous player draws 2 cards."
text("khazad-dum", activation=draws("monstrous", 2))
# Dimrill Dale (5) — "Each Shadow player must cycle 2 cards from hand."
text("dimrill-dale", activation=each_player(SHADOW, cycle_from_hand(PLAYER, 2)))
# Egladil (5) — "Each Free Peoples player draws 2 cards, then cycles 1 card from hand."
text("egladil", activation=each_player(FREE, Seq(draw(PLAYER, 2), cycle_from_hand(PLAYER, 1))))
# Lothlórien (5) — "The Elf player draws 1 card, then cycles 1 card from hand."
text("lothlorien", activation=draws_then_cycles("elf"))
# Amon Hen (6) — "The Mordor player draws 1 card, then cycles 1 card from hand."
text("amon-hen", activation=draws_then_cycles("mordor"))
# Emyn Muil (6) — "Each Free Peoples player must forsake 1 card."
text("emyn-muil", activation=each_player(FREE, forsake(PLAYER)))
# Dead Marshes (6) — "The Monstrous player draws 2 cards."
text("dead-marshes", activation=draws("monstrous", 2))
# Osgiliath (7) — "The Dúnedain player may forsake 1 card to draw 3 cards."
text("osgiliath", activation=may_forsake_to_draw("dunedain", 3, "Osgiliath: forsake a card to draw 3?"))
# The Cross-roads (7) — "Each Free Peoples player draws 1 card."
text("the-cross-roads", activation=each_player(FREE, draw(PLAYER, 1)))
# Henneth Annûn (7) — "The Dúnedain player draws 1 card."
text("henneth-annun", activation=draws("dunedain", 1))
# Morgul Vale (8) — "The Mordor player draws 5 cards, may play 1 Nazgûl character from them,
# and cycles the rest."
text("morgul-vale", activation=faction_player("mordor", draw_play_cycle(PLAYER, 5, "nazgul")))
# Cirith Ungol (8) — "The Mordor player draws 5 cards, may play 1 army from them, and cycles
# the rest."
text("cirith-ungol", activation=faction_player("mordor", draw_play_cycle(PLAYER, 5, "army")))
# Shelob's Lair (8) — "The Monstrous player draws 2 cards."
text("shelobs-lair", activation=draws("monstrous", 2))
# Morgai (9) — "The Shadow adds 1 attack token to this path."
text("morgai", activation=add_tokens(SELF, attack=1))
# Orodruin (9) — "The Mordor player draws 2 cards."
text("orodruin", activation=draws("mordor", 2))
# Crack of Doom (9) — "The Monstrous player draws 2 cards."
text("crack-of-doom", activation=draws("monstrous", 2))

# -- battlegrounds -----------------------------------------------------------------------

# Helm's Deep — "The Rohan player draws 5 cards, may play 1 army or character from them onto
# Helm's Deep, and cycles the rest."
text(
    "helms-deep",
    activation=faction_player("rohan", draw_play_cycle(PLAYER, 5, "army-or-character", where="at:helms-deep")),
)
# Edoras — "If Helm's Deep is still in the Free Peoples battleground deck, activate it too."
text("edoras", activation=activate(battleground_named("helms-deep", ("bg.free",))))
# Rivendell — "The Elf player draws 1 card, then cycles 1 card from hand."
text("rivendell", activation=draws_then_cycles("elf"))
# Lórien — "The Shadow battleground Dol Guldur must also be activated or reactivated."
text("lorien", activation=activate(battleground_named("dol-guldur")))
# Minas Tirith — "The Dúnedain player may forsake 1 card to draw 3 cards."
text("minas-tirith", activation=may_forsake_to_draw("dunedain", 3, "Minas Tirith: forsake a card to draw 3?"))
# Dol Amroth — "The Dúnedain player may forsake 1 card to draw 1 card."
text("dol-amroth", activation=may_forsake_to_draw("dunedain", 1, "Dol Amroth: forsake a card to draw 1?"))
# Pelargir — "The Dúnedain player may forsake 1 card to draw 1 card."
text("pelargir", activation=may_forsake_to_draw("dunedain", 1, "Pelargir: forsake a card to draw 1?"))
# Moria — "The Monstrous player draws 2 cards."
text("moria", activation=draws("monstrous", 2))
# Dol Guldur — "The Free Peoples battleground Lórien must also be activated or reactivated."
text("dol-guldur", activation=activate(battleground_named("lorien")))
# Minas Morgul — "The Mordor player draws 5 cards, may play 1 Nazgûl character from them into
# reserve, and cycles the rest."
text("minas-morgul", activation=faction_player("mordor", draw_play_cycle(PLAYER, 5, "nazgul", where="reserve")))
# Morannon — "The Mordor player draws 5 cards, may play 1 army from them, and cycles the rest."
text("morannon", activation=faction_player("mordor", draw_play_cycle(PLAYER, 5, "army")))
# Harad — "Each Shadow player draws 1 card."
text("harad", activation=each_player(SHADOW, draw(PLAYER, 1)))
# Umbar — "Each Shadow player draws 1 card."
text("umbar", activation=each_player(SHADOW, draw(PLAYER, 1)))


def _recycle_all(rt: Runtime) -> Event | None:
    """Rules §7: a text's recycle shuffles the cycle pile into the remaining draw deck."""
    s = st(rt)
    seat = PLAYER(rt)
    cards = s.zone(f"{seat}.deck") + s.zone(f"{seat}.cycle")
    return ev.DeckShuffled(zone=f"{seat}.deck", order=tuple(rt.shuffle(cards))) if s.zone(f"{seat}.cycle") else None


# Orthanc — "The Isengard player may take Saruman from the draw deck or the cycle pile into
# hand; then the cycle pile is shuffled into the draw deck."
text(
    "orthanc",
    activation=faction_player(
        "isengard",
        Seq(
            search(
                PLAYER,
                "Orthanc: take Saruman from your draw deck or cycle pile?",
                lambda rt: pile(PLAYER, "deck", "Saruman")(rt) + pile(PLAYER, "cycle", "Saruman")(rt),
            ),
            emit(_recycle_all),
        ),
    ),
)
