"""The Aragorn deck (Dúnedain, Elf): what its texts do.

Soldiers of Gondor, High Elves and Blade of Westernesse have no text.
"""

from __future__ import annotations

from domain.kernel.flow import If, Seq
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.cards import ROUND_EFFECTS, Action, RoundEffect, text
from domain.wotr.effects import (
    PLAYER,
    SELF,
    activate_and_move,
    activate_chosen_path,
    add_tokens,
    battlegrounds,
    choose,
    chosen,
    corruption,
    cycle_from_hand,
    cycle_self,
    draw,
    each_player,
    eliminate_self_unit,
    emit,
    forsake,
    location,
    next_number_paths,
    on_location,
    pile,
    remove,
    round_effect,
    same_number_paths,
    search,
    showing,
    st,
    wielder,
    yes_no,
)
from domain.wotr.rules import table
from domain.wotr.state import FREE, Uid, WotrState


def _strider_or_aragorn(s: WotrState, uid: Uid) -> bool:
    return table.named(s, uid, "Strider", "Aragorn")


# Dead Men of Dunharrow — "No icons of its own. While it supports Strider or Aragorn on a
# battleground it adds 2 battleground attack and 2 battleground defense icons."
text("aragorn-033", support_bonus=lambda s, army, character: 2 if _strider_or_aragorn(s, character) else 0)

# Knights of Dol Amroth — "1 extra battleground defense icon while on Dol Amroth."
text("aragorn-034", icons=on_location("dol-amroth", "bg_defense"))

# Guards of the Citadel — "1 extra battleground defense icon while on Minas Tirith."
text("aragorn-035", icons=on_location("minas-tirith", "bg_defense"))

# The Great Gate — "3 battleground defense icons while on Minas Tirith, none elsewhere. Can
# never be played or moved onto a Shadow battleground."
text(
    "aragorn-037",
    icons=on_location("minas-tirith", "bg_defense", 3),
    may_enter=lambda s, uid, where: False if table.loc(s, where).deck == "shadow" else None,
)


def _top_of_deck_cycles(s: WotrState, uid: Uid, how: str) -> str | None:
    return "cycle" if how == "forsake-deck" else None


# Aragorn — "When played: Strider is removed from the game wherever he is. While in your
# reserve: draw 1 extra card in each draw step. If forsaken from the top of your draw deck,
# cycle it instead."
text("aragorn-038", on_play=remove("Strider"), extra_draw=1, instead=_top_of_deck_cycles)


def _on_path(rt: Runtime) -> bool:
    where = location(rt)
    return where is not None and table.loc(st(rt), where).kind == "path"


# Boromir — "When played: draw 1 card. Whenever Boromir is played or moved onto a path, you
# must forsake 1 card."
text("aragorn-039", when_played=draw(PLAYER, 1), entered=If(_on_path, forsake(PLAYER)))


def _can_forsake(s: WotrState, uid: Uid) -> bool:
    seat = table.controller(s, uid)
    return bool(s.zone(f"{seat}.hand") or s.zone(f"{seat}.reserve") or table.can_draw(s, seat))


# Denethor — "In reserve, as your action: forsake 1 card to search your draw deck for
# Boromir or Faramir and take it into your hand."
text(
    "aragorn-040",
    actions=(
        Action(
            Seq(
                forsake(PLAYER),
                search(
                    PLAYER,
                    "Denethor: take Boromir or Faramir from your draw deck",
                    pile(PLAYER, "deck", "Boromir", "Faramir"),
                    optional=False,
                ),
            ),
            "forsake a card to search for Boromir or Faramir",
            available=_can_forsake,
        ),
    ),
)


def _on_path_seven(rt: Runtime) -> bool:
    where = location(rt)
    return where is not None and table.loc(st(rt), where).kind == "path" and table.loc(st(rt), where).number == 7


# Faramir — "When played or moved onto a path numbered 7: you may activate another path with
# the same number (the current path is fought first)."
text(
    "aragorn-041",
    entered=If(
        _on_path_seven,
        activate_chosen_path(PLAYER, same_number_paths, "Faramir: activate another path numbered 7?", optional=True),
    ),
)

# Halbarad — "In reserve, as your action: cycle Halbarad to search your draw deck for
# Strider or Aragorn and take it into your hand."
text(
    "aragorn-042",
    actions=(
        Action(
            Seq(
                cycle_self(),
                search(
                    PLAYER,
                    "Halbarad: take Strider or Aragorn from your draw deck",
                    pile(PLAYER, "deck", "Strider", "Aragorn"),
                    optional=False,
                ),
            ),
            "cycle Halbarad to search for Strider or Aragorn",
        ),
    ),
)

# Prince Imrahil — "When played: you may cycle 1 card from hand to search your draw deck for
# Knights of Dol Amroth and take it into your hand."
text(
    "aragorn-043",
    when_played=If(
        lambda rt: bool(st(rt).zone(f"{PLAYER(rt)}.hand")),
        yes_no(
            PLAYER,
            "Prince Imrahil: cycle a card to search for Knights of Dol Amroth?",
            Seq(
                cycle_from_hand(PLAYER, 1),
                search(
                    PLAYER, "Take Knights of Dol Amroth", pile(PLAYER, "deck", "Knights of Dol Amroth"), optional=False
                ),
            ),
        ),
    ),
)

# Strider — "While on a path, as your action: activate a path with the next higher number
# (the current path is fought first). Removed from the game when Aragorn is played."
text(
    "aragorn-044",
    actions=(
        Action(
            activate_chosen_path(PLAYER, next_number_paths, "Strider: choose the next path"),
            "activate a path with the next higher number",
            where="path",
            available=lambda s, uid: bool(next_paths(s)),
        ),
    ),
)


def next_paths(s: WotrState) -> list[Uid]:
    path = table.active_path(s)
    return [] if path is None else list(s.zone(f"paths.{table.loc(s, path).number + 1}"))


def _spared(rt: Runtime) -> list[Uid]:
    s = st(rt)
    me = SELF(rt)
    return [
        u
        for u in rt.env["doomed"]
        if u != me
        and table.is_a(s, u, "character")
        and table.defn(s, u).faction != "wizard"
        and table.team(s, u) == table.team(s, me)
        and s.cards[u].zone == s.cards[me].zone
    ]


def _spare(rt: Runtime) -> ev.CardsCycled:
    return ev.CardsCycled(cards=(SELF(rt), *chosen(rt, "spared")))


def _items_lost(rt: Runtime) -> ev.CardsEliminated | None:
    s = st(rt)
    items = [i for u in (SELF(rt), *chosen(rt, "spared")) for i in table.items_of(s, u)]
    return ev.CardsEliminated(cards=tuple(items)) if items else None


# Ioreth — "After combat on a battleground, Ioreth and one other non-Wizard character are
# cycled instead of eliminated; any items they wield are still eliminated."
text(
    "aragorn-045",
    battleground_losses=choose(
        PLAYER,
        "Ioreth: choose another character to cycle instead of eliminating",
        _spared,
        "spared",
        Seq(emit(_items_lost), emit(_spare)),
        otherwise=Seq(emit(_items_lost), emit(_spare)),
    ),
)


# Andúril — "While its wielder is in reserve, as your action: activate or reactivate any
# Dúnedain battleground, then move the wielder there."
text(
    "aragorn-046",
    actions=(
        Action(
            activate_and_move(
                "Andúril: choose a Dúnedain battleground",
                battlegrounds(showing("dunedain")),
                wielder,
                optional_move=False,
            ),
            "activate or reactivate a Dúnedain battleground and move there",
        ),
    ),
)


def _strider_in_play(rt: Runtime) -> bool:
    s = st(rt)
    return any(table.named(s, u, "Strider", "Aragorn") for u in table.in_play_cards(s))


# Paths of the Dead — "Forsake 2 cards, then draw 4 cards (5 instead if Strider or Aragorn is
# in play)."
text(
    "aragorn-048",
    on_play=Seq(
        forsake(PLAYER),
        forsake(PLAYER),
        draw(PLAYER, lambda rt: 5 if _strider_in_play(rt) else 4),
    ),
)

# The Red Arrow — "For the rest of this round, Rohan cards may be played or moved onto
# Dúnedain battlegrounds."
ROUND_EFFECTS["red-arrow"] = RoundEffect(
    may_enter=lambda s, uid, where: table.defn(s, uid).faction == "rohan" and "dunedain" in table.loc(s, where).factions
)
text("aragorn-049", on_play=round_effect("red-arrow"))

THREE_HUNTERS = ("Strider", "Aragorn", "Gimli", "Legolas")

# The Three Hunters — "For the rest of this round, Strider, Aragorn, Gimli and Legolas may
# be played or moved onto any battleground and may be supported by any Free Peoples army."
ROUND_EFFECTS["three-hunters"] = RoundEffect(
    may_enter=lambda s, uid, where: table.named(s, uid, *THREE_HUNTERS),
    supports=lambda s, army, character: table.named(s, character, *THREE_HUNTERS) and table.team(s, army) == FREE,
)
text("aragorn-050", on_play=round_effect("three-hunters"))


def _arwen_boost(s: WotrState, arwen: Uid, uid: Uid, icon: str) -> int:
    if not _strider_or_aragorn(s, uid) or table.team(s, uid) != table.team(s, arwen):
        return 0
    where = table.location_of(s, uid)
    if where is None:
        return 0
    kind = table.loc(s, where).kind
    return 1 if (kind, icon) in (("path", "path"), ("battleground", "bg_defense")) else 0


# Arwen — "When played: draw 1 card. While Arwen is in your reserve, Strider or Aragorn on a
# path has 1 extra path icon, and on a battleground 1 extra battleground defense icon."
text("aragorn-053", when_played=draw(PLAYER, 1), boosts=_arwen_boost)

# Elrond — "When played: draw 1 card. While in reserve: your carryover limit is 1 higher."
text("aragorn-054", when_played=draw(PLAYER, 1), carryover=1)

# Galadriel — "When played: draw 1 card. While in reserve: in the draw step draw 1 extra
# card, then cycle 1 card from hand."
text("aragorn-055", when_played=draw(PLAYER, 1), extra_draw=1, cycle_after_draw=1)

# Legolas — "When played: you may search your draw deck for Bow of the Galadhrim and take it
# into your hand."
text(
    "aragorn-056",
    when_played=search(
        PLAYER, "Legolas: take Bow of the Galadhrim from your draw deck?", pile(PLAYER, "deck", "Bow of the Galadhrim")
    ),
)

# Bow of the Galadhrim — "Weapon. Its wielder may not wield any other Weapon."
text("aragorn-057", excludes="Weapon")

# Elven Cloak — "If its wielder would be eliminated in path combat, cycle the wielder and its
# items instead."
text("aragorn-058", instead=lambda s, uid, how: "cycle" if how == "path-combat" else None)


def _hobbits_on_path(rt: Runtime) -> int:
    s = st(rt)
    path = table.active_path(s)
    if path is None:
        return 0
    return sum(
        1
        for u in table.units_at(s, path, FREE)
        if table.is_a(s, u, "character") and table.defn(s, u).faction == "hobbit"
    )


# Lembas — "While on a path, as an action the Hobbit player may eliminate Lembas to remove 1
# corruption token for each Hobbit character on that path."
text(
    "aragorn-059",
    actions=(
        Action(
            Seq(eliminate_self_unit(), corruption(lambda rt: -_hobbits_on_path(rt))),
            "eliminate Lembas: remove 1 corruption per Hobbit on the path",
            where="path",
        ),
    ),
)

# Nenya, Ring of Adamant — "While in reserve, as your action: cycle Nenya to add 1 defense
# token to the active path or to an active battleground."
text(
    "aragorn-061",
    actions=(
        Action(
            Seq(
                cycle_self(),
                choose(
                    PLAYER,
                    "Nenya: add a defense token where?",
                    lambda rt: table.active_locations(st(rt)),
                    "warded",
                    add_tokens(lambda rt: chosen(rt, "warded")[0], defense=1),
                ),
            ),
            "cycle Nenya: add 1 defense token to an active location",
            available=lambda s, uid: bool(table.active_locations(s)),
        ),
    ),
)

# Phial of Galadriel — "While its wielder is on a path, that path has 2 defense tokens."
text("aragorn-062", location_defense=lambda s, uid: 2 if table.on_path(s, uid) else 0)

# Vilya, Ring of Air — "While in reserve, as your action: cycle Vilya; each Free Peoples
# player draws 1 card."
text(
    "aragorn-063",
    actions=(
        Action(Seq(cycle_self(), each_player(FREE, draw(PLAYER, 1))), "cycle Vilya: each Free Peoples player draws 1"),
    ),
)
