"""The Witch-king deck (Mordor): what its texts do.

Grond, Olog-hai, Trolls of Udûn, Black Uruks and Mordor Orcs have no text.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.flow import If, Seq
from domain.kernel.runtime import Runtime
from domain.wotr.cards import Action, text
from domain.wotr.effects import (
    PLAYER,
    SELF,
    activate_and_move,
    add_tokens,
    battlegrounds,
    choose,
    chosen,
    corruption,
    cycle_from_hand,
    cycle_self,
    cycle_unit,
    draw,
    draw_play_cycle,
    each_player,
    eliminate_self_unit,
    forsake,
    location,
    location_code,
    move,
    on_location,
    pile,
    remove,
    search,
    showing,
    st,
    wielder,
    yes_no,
)
from domain.wotr.rules import table
from domain.wotr.state import FREE, SHADOW, Uid, WotrState


def _top_of_deck_cycles(s: WotrState, uid: Uid, how: str) -> str | None:
    return "cycle" if how == "forsake-deck" else None


def _path_active(s: WotrState, uid: Uid) -> bool:
    return table.active_path(s) is not None


def _battleground_active(s: WotrState, uid: Uid) -> bool:
    return bool(table.active_battlegrounds(s))


# The Witch-king — "Nazgûl. While in reserve: draw 1 extra card in the draw step. If
# forsaken from the top of your draw deck, cycle instead."
text("witch-king-144", extra_draw=1, instead=_top_of_deck_cycles)

# The Reaver — "Nazgûl. While in reserve, as your action: cycle it; each Free Peoples player
# must forsake 1 card."
text(
    "witch-king-145",
    actions=(
        Action(
            Seq(cycle_self(), each_player(FREE, forsake(PLAYER))), "cycle it: each Free Peoples player forsakes a card"
        ),
    ),
)

# The Beguiler — "Nazgûl. While in reserve, as your action: cycle it; each Free Peoples
# player must cycle 1 card from hand."
text(
    "witch-king-146",
    actions=(
        Action(
            Seq(cycle_self(), each_player(FREE, cycle_from_hand(PLAYER, 1))),
            "cycle it: each Free Peoples player cycles a card",
        ),
    ),
)

# The Hunter — "Nazgûl. While in reserve, as your action: cycle it to add 1 attack token to
# the active path."
text(
    "witch-king-147",
    actions=(
        Action(
            Seq(cycle_self(), add_tokens(lambda rt: table.active_path(st(rt)), attack=1)),
            "cycle it: add 1 attack token to the active path",
            available=_path_active,
        ),
    ),
)


def _other_nazgul_in_cycle(s: WotrState, uid: Uid) -> bool:
    seat = table.controller(s, uid)
    return any(table.defn(s, u).has("Nazgul") for u in s.zone(f"{seat}.cycle"))


# The Messenger — "Nazgûl. While in reserve, as your action: cycle it to take a Nazgûl
# character from your cycle pile into your hand." (Not itself: it is the cost.)
text(
    "witch-king-148",
    actions=(
        Action(
            Seq(
                cycle_self(),
                search(
                    PLAYER,
                    "The Messenger: take a Nazgûl from your cycle pile",
                    lambda rt: [
                        u for u in pile(PLAYER, "cycle", keyword="Nazgul", type_="character")(rt) if u != SELF(rt)
                    ],
                    optional=False,
                ),
            ),
            "cycle it: take a Nazgûl from your cycle pile",
            available=_other_nazgul_in_cycle,
        ),
    ),
)

# The Black Easterling — "Nazgûl. 1 extra battleground defense icon while on Dol Guldur.
# When played: draw 1 card."
text("witch-king-149", icons=on_location("dol-guldur", "bg_defense"), when_played=draw(PLAYER, 1))

# The Commander — "Nazgûl. While in reserve, as your action: cycle it; each Shadow player
# draws 1 card."
text(
    "witch-king-150",
    actions=(Action(Seq(cycle_self(), each_player(SHADOW, draw(PLAYER, 1))), "cycle it: each Shadow player draws 1"),),
)


def _battleground_token(prompt: str, attack: int, defense: int) -> Seq:
    return Seq(
        cycle_self(),
        choose(
            PLAYER,
            prompt,
            lambda rt: table.active_battlegrounds(st(rt)),
            "where",
            add_tokens(lambda rt: chosen(rt, "where")[0], attack=attack, defense=defense),
        ),
    )


# The Destroyer — "Nazgûl. While in reserve, as your action: cycle it to add 1 attack token
# to an active battleground."
text(
    "witch-king-151",
    actions=(
        Action(
            _battleground_token("The Destroyer: add an attack token where?", 1, 0),
            "cycle it: add 1 attack token to an active battleground",
            available=_battleground_active,
        ),
    ),
)

# The Warrior — "Nazgûl. While in reserve, as your action: cycle it to add 1 defense token
# to an active battleground."
text(
    "witch-king-152",
    actions=(
        Action(
            _battleground_token("The Warrior: add a defense token where?", 0, 1),
            "cycle it: add 1 defense token to an active battleground",
            available=_battleground_active,
        ),
    ),
)

# Grishnákh — "While on a path, as your action: eliminate him to add 1 corruption token."
text(
    "witch-king-153",
    actions=(Action(Seq(eliminate_self_unit(), corruption(1)), "eliminate him: add 1 corruption", where="path"),),
)


def _not_while_shadow_battleground(s: WotrState, uid: Uid, where: Uid) -> bool | None:
    if table.loc(s, where).kind != "path":
        return None
    return False if any(table.loc(s, b).deck == SHADOW for b in table.active_battlegrounds(s)) else None


# Mouth of Sauron — "Cannot be played or moved onto a path while any Shadow battleground is
# active. While in reserve: draw 1 extra card in each draw step."
text("witch-king-154", may_enter=_not_while_shadow_battleground, extra_draw=1)


def _on_path(rt: Runtime) -> bool:
    where = location(rt)
    return where is not None and table.loc(st(rt), where).kind == "path"


# Gorbag & Shagrat — "When played or moved onto a path: you may cycle 1 card from hand to add
# 1 attack token to the path (2 tokens if the path is Cirith Ungol)."
text(
    "witch-king-155",
    entered=If(
        lambda rt: _on_path(rt) and bool(st(rt).zone(f"{PLAYER(rt)}.hand")),
        yes_no(
            PLAYER,
            "Gorbag & Shagrat: cycle a card to add attack to the path?",
            Seq(
                cycle_from_hand(PLAYER, 1),
                If(
                    lambda rt: location_code(rt) == "cirith-ungol",
                    add_tokens(location, attack=2),
                    add_tokens(location, attack=1),
                ),
            ),
        ),
    ),
)

# The Lidless Eye — "Cannot be played or moved onto a path while any Shadow battleground is
# active. When played: each Shadow player draws 1 card. While in reserve: your carryover
# limit is 1 higher."
text(
    "witch-king-156",
    may_enter=_not_while_shadow_battleground,
    when_played=each_player(SHADOW, draw(PLAYER, 1)),
    carryover=1,
)

# Gothmog — "While in reserve: draw 1 extra card in each draw step. When played: The
# Witch-king is removed from the game wherever he is."
text("witch-king-157", extra_draw=1, on_play=remove("The Witch-king"))

# Nazgûl's Mantle — "If its Nazgûl would be eliminated in combat, cycle it and its items
# instead."
text("witch-king-158", instead=lambda s, uid, how: "cycle" if how.endswith("-combat") else None)


def _wielder(rt: Runtime) -> Uid:
    """The Nazgûl this item is on (its texts run only while it is wielded)."""
    on = wielder(rt)
    assert on is not None
    return on


# Black Breath — "While on a path or a battleground, as your action: cycle this item, its
# Nazgûl and that Nazgûl's other items to add 1 corruption token."
text(
    "witch-king-159",
    actions=(
        Action(
            Seq(cycle_unit(_wielder), corruption(1)),
            "cycle it with its Nazgûl: add 1 corruption",
            where="location",
        ),
    ),
)


def _mount_targets(kind: str) -> Callable[[Runtime], list[Uid]]:
    def get(rt: Runtime) -> list[Uid]:
        s = st(rt)
        wielder = _wielder(rt)
        if not table.in_reserve(s, wielder):
            return []
        return [
            where
            for where in table.active_locations(s)
            if table.loc(s, where).kind == kind and table.may_enter(s, wielder, where)
        ]

    return get


def _ride(kind: str, prompt: str) -> Seq:
    targets = _mount_targets(kind)
    return Seq(
        choose(
            PLAYER,
            prompt,
            targets,
            "ride",
            If(lambda rt: bool(chosen(rt, "ride")), move(PLAYER, _wielder, lambda rt: chosen(rt, "ride")[0])),
            optional=True,
        )
    )


# Black Rider's Mount — "When played onto a Nazgûl in your reserve (even one played this
# round), you may move that Nazgûl onto the active path at once."
text("witch-king-160", when_played_reserve=_ride("path", "Black Rider's Mount: move the Nazgûl onto the path?"))

# Fell Beast — "When played onto a Nazgûl in your reserve (even one played this round), you
# may move that Nazgûl onto an active battleground at once."
text("witch-king-161", when_played_reserve=_ride("battleground", "Fell Beast: move the Nazgûl onto a battleground?"))

# Morgul Blade — "While on a path, as your action: eliminate it to add 1 corruption token."
text(
    "witch-king-162",
    actions=(Action(Seq(eliminate_self_unit(), corruption(1)), "eliminate it: add 1 corruption", where="path"),),
)


def _witch_king_in_reserve(rt: Runtime) -> Uid | None:
    s = st(rt)
    found = table.find(s, "The Witch-king", zones=(f"{PLAYER(rt)}.reserve",))
    return found[0] if found else None


# The Black Captain — "If The Witch-king is in your reserve (even if played there this
# round): activate or reactivate a Mordor battleground of your choice; then you may move The
# Witch-king there."
text(
    "witch-king-163",
    on_play=If(
        lambda rt: _witch_king_in_reserve(rt) is not None,
        activate_and_move(
            "The Black Captain: choose a Mordor battleground",
            battlegrounds(showing("mordor")),
            _witch_king_in_reserve,
            optional_move=True,
        ),
    ),
)

# The Ringwraiths Are Abroad — "Draw 7 cards; eliminate 1 of them; play up to 2 Nazgûl
# characters from them; cycle the rest."
text("witch-king-164", on_play=draw_play_cycle(PLAYER, 7, "nazgul", plays=2, eliminate_one=True))

# The Day Without Dawn — "Draw 7 cards; eliminate 1 of them; play up to 2 armies from them;
# cycle the rest."
text("witch-king-165", on_play=draw_play_cycle(PLAYER, 7, "army", plays=2, eliminate_one=True))
