"""The Frodo deck (Dwarf, Hobbit, Rohan, Wizard): what its texts do.

Dwarven Axe, Mithril Coat, Glamdring, Riders of Rohan and Village Militia have no text.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.flow import ForEach, If, Let, Seq
from domain.kernel.runtime import Runtime
from domain.wotr.cards import Action, text
from domain.wotr.effects import (
    PLAYER,
    activate_and_move,
    activate_chosen_path,
    add_tokens,
    battlegrounds,
    card_var,
    choose,
    chosen,
    corruption,
    cycle_from_hand,
    cycle_self,
    draw,
    draw_play_cycle,
    each_player,
    eliminate,
    eliminate_self_unit,
    faction_player,
    location,
    next_number_paths,
    on_location,
    pile,
    remove,
    same_number_paths,
    search,
    st,
    wielder,
)
from domain.wotr.rules import table
from domain.wotr.state import FREE, SHADOW, Uid, WotrState

# Gimli — "When played: you may take Dwarven Axe from your cycle pile into your hand."
text(
    "frodo-067",
    when_played=search(PLAYER, "Gimli: take Dwarven Axe from your cycle pile?", pile(PLAYER, "cycle", "Dwarven Axe")),
)

# Frodo Baggins — "If Frodo would be eliminated or forsaken, cycle him instead (his items
# are still eliminated)."
text("frodo-069", instead=lambda s, uid, how: "cycle-alone")


def _army_of(faction: str) -> Callable[[WotrState, Uid, Uid], bool | None]:
    def may_enter(s: WotrState, uid: Uid, where: Uid) -> bool | None:
        loc = table.loc(s, where)
        if loc.kind != "battleground" or faction not in loc.factions:
            return None
        armies = [u for u in table.units_at(s, where, FREE) if table.is_a(s, u, "army")]
        return True if any(table.defn(s, a).faction == faction for a in armies) else None

    return may_enter


def _path_combat_cycles(s: WotrState, uid: Uid, how: str) -> str | None:
    return "cycle" if how == "path-combat" else None


# Merry Brandybuck — "May be played or moved onto a Rohan battleground while a Rohan army
# is there to support him. If eliminated in path combat, cycle him and his items instead."
text(
    "frodo-070",
    may_enter=_army_of("rohan"),
    supported_by=lambda s, uid, army: table.defn(s, army).faction == "rohan",
    instead=_path_combat_cycles,
)

# Pippin Took — the same with a Dúnedain battleground and army.
text(
    "frodo-071",
    may_enter=_army_of("dunedain"),
    supported_by=lambda s, uid, army: table.defn(s, army).faction == "dunedain",
    instead=_path_combat_cycles,
)


def _path_active(s: WotrState, uid: Uid) -> bool:
    return table.active_path(s) is not None


# Sam Gamgee — "While in reserve, as your action: cycle Sam and his items to add 1 defense
# token to the active path."
text(
    "frodo-072",
    actions=(
        Action(
            Seq(cycle_self(), add_tokens(lambda rt: table.active_path(st(rt)), defense=1)),
            "cycle Sam to add 1 defense token to the active path",
            available=_path_active,
        ),
    ),
)

# Bilbo Baggins — "If Bilbo would be eliminated or forsaken, cycle him and his items
# instead. While in reserve, as your action: cycle Bilbo to draw 2 cards."
text(
    "frodo-073",
    instead=lambda s, uid, how: "cycle",
    actions=(Action(Seq(cycle_self(), draw(PLAYER, 2)), "cycle Bilbo to draw 2 cards"),),
)

# Fatty Bolger — "If forsaken while in reserve, cycle him and his items instead. While in
# reserve, as your action: eliminate him to draw 3 cards."
text(
    "frodo-074",
    instead=lambda s, uid, how: "cycle" if how == "forsake-reserve" else None,
    actions=(Action(Seq(eliminate_self_unit(), draw(PLAYER, 3)), "eliminate Fatty to draw 3 cards"),),
)

# Herbs and Stewed Rabbit — "While in play, as your action: eliminate it to take 1 Hobbit
# character from your cycle pile into hand and draw 1 card."
text(
    "frodo-075",
    actions=(
        Action(
            Seq(
                eliminate_self_unit(),
                search(
                    PLAYER,
                    "Herbs and Stewed Rabbit: take a Hobbit character from your cycle pile",
                    pile(PLAYER, "cycle", faction="hobbit", type_="character"),
                    optional=False,
                ),
                draw(PLAYER, 1),
            ),
            "eliminate it: take a Hobbit character from your cycle pile, draw 1",
            where="play",
        ),
    ),
)


def _monstrous_on_path(s: WotrState, uid: Uid) -> int:
    path = table.active_path(s)
    if path is None or not table.on_path(s, uid):
        return 0
    monsters = [
        u
        for u in table.units_at(s, path, SHADOW)
        if table.is_a(s, u, "character") and table.defn(s, u).faction == "monstrous"
    ]
    return 1 if monsters else 0


# Sting — "While its wielder is on a path together with a Monstrous character, that path
# has 1 defense token."
text("frodo-076", location_defense=_monstrous_on_path)

# There Is Another Way — "Activate a different path with the same number as the active path
# (your choice; the active path is fought first) and add 1 defense token to the new path."
text(
    "frodo-078",
    on_play=activate_chosen_path(
        PLAYER,
        same_number_paths,
        "There Is Another Way: choose the new path",
        then=add_tokens(lambda rt: table.active_path(st(rt)), defense=1),
    ),
)


# Éomer — "When played: draw 5 cards; you may play up to 1 Rohan army from among them;
# cycle the rest."
text("frodo-082", when_played=draw_play_cycle(PLAYER, 5, "rohan-army"))


def _nazgul_here(rt: Runtime) -> list[Uid]:
    s = st(rt)
    where = location(rt)
    if where is None or table.loc(s, where).kind != "battleground":
        return []
    return [u for u in table.units_at(s, where, SHADOW) if table.defn(s, u).has("Nazgul")]


# Éowyn — "When played onto a battleground: you may eliminate 1 Nazgûl character on that
# battleground. When played into reserve: you may take Merry or Pippin from your cycle pile
# into your hand."
text(
    "frodo-083",
    when_played=choose(
        PLAYER,
        "Éowyn: eliminate a Nazgûl on this battleground?",
        _nazgul_here,
        "slain",
        eliminate(lambda rt: chosen(rt, "slain")[0] if chosen(rt, "slain") else None),
        optional=True,
    ),
    when_played_reserve=search(
        PLAYER,
        "Éowyn: take Merry or Pippin from your cycle pile?",
        pile(PLAYER, "cycle", "Merry Brandybuck", "Pippin Took"),
    ),
)

# Ghân-buri-Ghân — "While in reserve: Rohan cards may be played or moved onto Minas Tirith."
text(
    "frodo-084",
    grants=lambda s, self_, uid, where: (
        table.team(s, self_) == table.team(s, uid)
        and table.defn(s, uid).faction == "rohan"
        and s.cards[where].code == "minas-tirith"
    ),
)


def _theoden_icons(s: WotrState, uid: Uid, icon: str) -> int:
    return 1 if icon in ("bg_attack", "bg_defense") and table.gandalf_in_play(s) else 0


# Théoden — "1 battleground attack and 1 battleground defense icon while Gandalf is in
# play. When played: draw 5 cards; you may play up to 1 Rohan card from among them; cycle
# the rest."
text("frodo-085", icons=_theoden_icons, when_played=draw_play_cycle(PLAYER, 5, "rohan"))


# Shadowfax — "While its wielder is in reserve, as your action: activate or reactivate any
# battleground, then move the wielder there."
text(
    "frodo-086",
    actions=(
        Action(
            activate_and_move(
                "Shadowfax: choose a battleground to activate or reactivate",
                battlegrounds(lambda s, u: True),
                wielder,
                optional_move=False,
            ),
            "activate or reactivate a battleground and ride there",
        ),
    ),
)


def _rohan_in_reserve(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [
        u for u in s.zone(f"{PLAYER(rt)}.reserve") if s.cards[u].wielder is None and table.defn(s, u).faction == "rohan"
    ]


def _mordor_on_battlegrounds(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [
        u
        for b in table.active_battlegrounds(s)
        for u in table.units_at(s, b, SHADOW)
        if table.defn(s, u).faction == "mordor"
    ]


# Death! Ride, Ride to Ruin — "Eliminate any number of Rohan cards from your reserve; the
# Mordor player must then eliminate as many Mordor cards from active battlegrounds."
text(
    "frodo-087",
    on_play=choose(
        PLAYER,
        "Death! Ride: eliminate Rohan cards from your reserve",
        _rohan_in_reserve,
        "riders",
        Let(
            lambda rt: {"count": len(chosen(rt, "riders"))},
            Seq(
                ForEach(lambda rt: chosen(rt, "riders"), "rider", eliminate(card_var("rider"))),
                If(
                    lambda rt: int(rt.env["count"]) > 0,
                    faction_player(
                        "mordor",
                        choose(
                            PLAYER,
                            "Death! Ride: eliminate Mordor cards from active battlegrounds",
                            _mordor_on_battlegrounds,
                            "fallen",
                            ForEach(lambda rt: chosen(rt, "fallen"), "orc", eliminate(card_var("orc"))),
                            count=lambda rt: int(rt.env["count"]),
                        ),
                    ),
                ),
            ),
        ),
        count=lambda rt: len(_rohan_in_reserve(rt)),
        optional=True,
    ),
)


def _next_path_exists(s: WotrState, uid: Uid) -> bool:
    path = table.active_path(s)
    return path is not None and bool(s.zone(f"paths.{table.loc(s, path).number + 1}"))


# Gandalf the Grey — "While on a path, as your action: activate a path with the next higher
# number (the current path is fought first)."
text(
    "frodo-088",
    actions=(
        Action(
            activate_chosen_path(PLAYER, next_number_paths, "Gandalf the Grey: choose the next path"),
            "activate a path with the next higher number",
            where="path",
            available=_next_path_exists,
        ),
    ),
)


def _top_of_deck_cycles(s: WotrState, uid: Uid, how: str) -> str | None:
    return "cycle" if how == "forsake-deck" else None


# Gandalf the White — "When played: Gandalf the Grey is removed from the game wherever he
# is. While in reserve: draw 1 extra card in each draw step. If forsaken from the top of
# your draw deck, cycle it instead."
text("frodo-089", on_play=remove("Gandalf the Grey"), extra_draw=1, instead=_top_of_deck_cycles)


def _isengard_armies(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for u in table.in_play_cards(s) if table.is_a(s, u, "army") and table.defn(s, u).faction == "isengard"]


def _on_battleground(rt: Runtime) -> bool:
    where = location(rt)
    return where is not None and table.loc(st(rt), where).kind == "battleground"


# Treebeard — "1 extra battleground attack icon while on Orthanc. When played or moved onto
# a battleground, the Isengard player must eliminate 1 Isengard army in play."
text(
    "frodo-090",
    icons=on_location("orthanc", "bg_attack"),
    entered=If(
        _on_battleground,
        faction_player(
            "isengard",
            choose(
                PLAYER,
                "Treebeard: eliminate one of your Isengard armies",
                _isengard_armies,
                "felled",
                eliminate(lambda rt: chosen(rt, "felled")[0]),
            ),
        ),
    ),
)


def _quickbeam_icons(s: WotrState, uid: Uid, icon: str) -> int:
    if icon not in ("bg_attack", "bg_defense"):
        return 0
    where = table.location_of(s, uid)
    if where is None or table.loc(s, where).kind != "battleground":
        return 0
    isengard = [
        u
        for u in table.units_at(s, where, SHADOW)
        if table.defn(s, u).faction == "isengard" and not table.is_a(s, u, "item")
    ]
    return len(isengard) // 2


# Quickbeam — "1 battleground attack and 1 battleground defense icon for every 2 Isengard
# characters and armies on the same battleground."
text("frodo-091", icons=_quickbeam_icons)

# Sméagol — "While on a path, as your action: activate a path with the next higher number
# and add 1 corruption token. If eliminated in path combat, cycle him instead."
text(
    "frodo-092",
    actions=(
        Action(
            Seq(
                activate_chosen_path(PLAYER, next_number_paths, "Sméagol: choose the next path"),
                corruption(1),
            ),
            "activate a path with the next higher number, adding 1 corruption",
            where="path",
            available=_next_path_exists,
        ),
    ),
    instead=lambda s, uid, how: "cycle" if how == "path-combat" else None,
)


def _gandalf_in_cycle(s: WotrState, uid: Uid) -> bool:
    seat = table.controller(s, uid)
    return bool(table.find(s, "Gandalf the Grey", "Gandalf the White", zones=(f"{seat}.cycle",)))


# Gwaihir the Windlord — "While in reserve, as your action: cycle Gwaihir to take Gandalf
# from your cycle pile into your hand."
text(
    "frodo-093",
    actions=(
        Action(
            Seq(
                cycle_self(),
                search(
                    PLAYER,
                    "Gwaihir: take Gandalf from your cycle pile",
                    pile(PLAYER, "cycle", "Gandalf the Grey", "Gandalf the White"),
                    optional=False,
                ),
            ),
            "cycle Gwaihir to take Gandalf from your cycle pile",
            available=_gandalf_in_cycle,
        ),
    ),
)

# Gandalf's Staff — "While in play: your carryover limit is 1 higher."
text("frodo-094", carryover=1, carryover_where="play")

# Narya, Ring of Fire — "While in reserve, as your action: cycle Narya; each Shadow player
# must cycle 1 card from hand."
text(
    "frodo-096",
    actions=(
        Action(
            Seq(cycle_self(), each_player(SHADOW, cycle_from_hand(PLAYER, 1))),
            "cycle Narya: each Shadow player cycles a card",
        ),
    ),
)

# Ent-draught — "While in play, as your action: eliminate it to take 2 Hobbit characters
# from your cycle pile into your hand."
text(
    "frodo-097",
    actions=(
        Action(
            Seq(
                eliminate_self_unit(),
                search(
                    PLAYER,
                    "Ent-draught: take 2 Hobbit characters from your cycle pile",
                    pile(PLAYER, "cycle", faction="hobbit", type_="character"),
                    optional=False,
                    count=2,
                ),
            ),
            "eliminate it: take 2 Hobbit characters from your cycle pile",
            where="play",
        ),
    ),
)
