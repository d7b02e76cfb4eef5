"""The Saruman deck (Isengard, Monstrous, Southron): what its texts do.

Devilry of Saruman, Fighting Uruk-hai, Wolf Riders, White Hand Orcs, Goblins of the Misty
Mountains and Haradrim Mûmakil have no text.
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.events import Event, LimitUsed
from domain.kernel.flow import Ask, Case, Decide, If, Let, Node, Seq
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.cards import Action, text
from domain.wotr.effects import (
    PLAYER,
    SELF,
    activate,
    activate_and_move,
    activate_chosen_path,
    battleground_named,
    battlegrounds,
    choose,
    chosen,
    draw,
    each_player,
    eliminate,
    eliminate_self_unit,
    emit,
    forsake,
    location_code,
    on_location,
    pile,
    same_number_paths,
    search,
    showing,
    st,
)
from domain.wotr.rules import table
from domain.wotr.state import FREE, Uid, WotrState


def rohan_characters(s: WotrState) -> list[Uid]:
    return [u for u in table.in_play_cards(s) if table.is_a(s, u, "character") and table.defn(s, u).faction == "rohan"]


def grima_whispers() -> dict[str, Node]:
    """What Gríma's choices do (this card's, and the Shadow bot card's, which adds a third)."""
    return {
        "saruman": search(PLAYER, "Take Saruman", pile(PLAYER, "deck", "Saruman"), optional=False),
        "rohan": choose(
            PLAYER,
            "Gríma: eliminate a Rohan character",
            lambda rt: rohan_characters(st(rt)),
            "victim",
            eliminate(lambda rt: chosen(rt, "victim")[0]),
        ),
    }


def _grima_ask(rt: Runtime) -> Ask:
    return Ask(
        PLAYER(rt),
        "Gríma Wormtongue: choose one",
        [Option("saruman", "Take Saruman from your draw deck"), Option("rohan", "Eliminate a Rohan character in play")],
    )


# Gríma Wormtongue — "While in reserve, as your action: eliminate Gríma to either take
# Saruman from your draw deck into your hand, or eliminate a Rohan character in play."
text(
    "saruman-106",
    actions=(
        Action(
            Seq(
                eliminate_self_unit(),
                Decide(
                    _grima_ask,
                    "whisper",
                    Case("whisper", grima_whispers()),
                ),
            ),
            "eliminate Gríma: take Saruman or eliminate a Rohan character",
        ),
    ),
)


def top_of_deck_cycles(s: WotrState, uid: Uid, how: str) -> str | None:
    """'If forsaken from the top of your draw deck, cycle instead.'"""
    return "cycle" if how == "forsake-deck" else None


# Saruman — "While in reserve: draw 1 extra card in the draw step. If forsaken from the top
# of your draw deck, cycle instead."
text("saruman-107", extra_draw=1, instead=top_of_deck_cycles)


def _same_number_exists(s: WotrState, uid: Uid) -> bool:
    path = table.active_path(s)
    return path is not None and bool(s.zone(f"paths.{table.loc(s, path).number}"))


def _different_path(name: str) -> Action:
    return Action(
        activate_chosen_path(PLAYER, same_number_paths, f"{name}: choose a different path with the same number"),
        "activate a different path with the same number",
        where="path",
        available=_same_number_exists,
    )


# Uglúk — "While on a path, as your action: activate a different path with the same number."
text("saruman-108", actions=(_different_path("Uglúk"),))


def _top_three(rt: Runtime) -> list[Uid]:
    return list(st(rt).zone(f"{PLAYER(rt)}.deck")[:3])


def _seen(rt: Runtime) -> list[Uid]:
    return [u for u in rt.env.get("seen", []) if st(rt).cards[u].zone == f"{PLAYER(rt)}.deck"]


def _looked(rt: Runtime) -> Event | None:
    top = _top_three(rt)
    return ev.CardsLookedAt(player=PLAYER(rt), cards=tuple(top)) if top else None


def _kept(rt: Runtime) -> Event | None:
    left = _seen(rt)
    return ev.CardTaken(player=PLAYER(rt), card=left[0]) if left else None


def _palantir_unused(s: WotrState, uid: Uid) -> bool:
    return not s.limit_used(f"palantir.{uid}") and bool(s.zone(f"{table.controller(s, uid)}.deck"))


# Palantír of Orthanc — "While in reserve, once per round, as your action: look at the top
# 3 cards of your draw deck; eliminate 1, cycle 1 and take 1 into your hand."
text(
    "saruman-109",
    actions=(
        Action(
            Let(
                lambda rt: {"seen": _top_three(rt)},
                Seq(
                    emit(lambda rt: LimitUsed(key=f"palantir.{SELF(rt)}", until="round")),
                    emit(_looked),
                    choose(
                        PLAYER,
                        "Palantír: eliminate one of them",
                        _seen,
                        "gone",
                        Seq(
                            eliminate(lambda rt: chosen(rt, "gone")[0]),
                            choose(
                                PLAYER,
                                "Palantír: cycle one of them",
                                _seen,
                                "cycled",
                                Seq(emit(lambda rt: ev.CardsCycled(cards=tuple(chosen(rt, "cycled")))), emit(_kept)),
                                otherwise=emit(_kept),
                            ),
                        ),
                    ),
                ),
            ),
            "look at the top 3 cards: eliminate 1, cycle 1, take 1",
            available=_palantir_unused,
        ),
    ),
)

# Saruman's Staff — "While in play: your carryover limit is 1 higher."
text("saruman-110", carryover=1, carryover_where="play")

# Woven of All Colours — "If its wielder (Saruman) would be eliminated in combat, cycle him
# and his items instead."
text("saruman-111", instead=lambda s, uid, how: "cycle" if how.endswith("-combat") else None)


def _saruman_in_reserve(rt: Runtime) -> Uid | None:
    s = st(rt)
    found = table.find(s, "Saruman", zones=(f"{PLAYER(rt)}.reserve",))
    return found[0] if found else None


# Threats and Promises — "If Saruman is in your reserve (even if played there this round):
# activate or reactivate an Isengard battleground of your choice; then you may move Saruman
# there."
text(
    "saruman-112",
    on_play=If(
        lambda rt: _saruman_in_reserve(rt) is not None,
        activate_and_move(
            "Threats and Promises: choose an Isengard battleground",
            battlegrounds(showing("isengard")),
            _saruman_in_reserve,
            optional_move=True,
        ),
    ),
)


def _each_free_forsakes() -> Seq:
    """Eliminate it; each Free Peoples player must forsake 1 card (Barrow-wights,
    Hill-troll, Caradhras the Cruel, Cave-troll, Candles of Corpses)."""
    return Seq(eliminate_self_unit(), each_player(FREE, forsake(PLAYER)))


FORSAKE_LABEL = "eliminate it: each Free Peoples player forsakes a card"

# Barrow-wights — "While in reserve, as your action: eliminate it; each Free Peoples player
# must forsake 1 card."
text("saruman-115", actions=(Action(_each_free_forsakes(), FORSAKE_LABEL),))

# Flocks of Crebain — "While on a path, as your action: activate a different path with the
# same number."
text("saruman-116", actions=(_different_path("Flocks of Crebain"),))

# Hill-troll — as Barrow-wights.
text("saruman-117", actions=(Action(_each_free_forsakes(), FORSAKE_LABEL),))

# Balrog of Moria — "1 extra path icon while on Khazad-dûm. Whenever played or moved onto a
# path or a battleground, each Free Peoples player must forsake 1 card."
text("saruman-118", icons=on_location("khazad-dum", "path"), entered=each_player(FREE, forsake(PLAYER)))

# Caradhras the Cruel — "When played onto the Caradhras path: activate a different path with
# the same number (Caradhras is fought first). While in reserve, as your action: eliminate
# it; each Free Peoples player must forsake 1 card."
text(
    "saruman-119",
    when_played=If(
        lambda rt: location_code(rt) == "caradhras",
        activate_chosen_path(PLAYER, same_number_paths, "Caradhras the Cruel: choose a different path numbered 4"),
    ),
    actions=(Action(_each_free_forsakes(), FORSAKE_LABEL),),
)

# Cave-troll — as Barrow-wights.
text("saruman-120", actions=(Action(_each_free_forsakes(), FORSAKE_LABEL),))

# Candles of Corpses — "1 extra path icon while on the Dead Marshes. While in reserve, as
# your action: eliminate it; each Free Peoples player must forsake 1 card."
text(
    "saruman-121",
    icons=on_location("dead-marshes", "path"),
    actions=(Action(_each_free_forsakes(), FORSAKE_LABEL),),
)

# Gollum — "While on a path, as your action: activate a different path with the same number.
# If eliminated in path combat, cycle him instead."
text(
    "saruman-122",
    actions=(_different_path("Gollum"),),
    instead=lambda s, uid, how: "cycle" if how == "path-combat" else None,
)

# Shelob — "1 extra path icon while on Shelob's Lair. Whenever played or moved onto a path or
# a battleground, each Free Peoples player must forsake 1 card."
text("saruman-123", icons=on_location("shelobs-lair", "path"), entered=each_player(FREE, forsake(PLAYER)))

# Whip of Many Thongs — "When played: draw 1 card."
text("saruman-124", when_played=draw(PLAYER, 1))


def _raid(battleground: str, deck: str, label: str) -> Action:
    """While in reserve, as your action: eliminate it to activate <battleground> if that
    card is still in the <deck> battleground deck."""
    target = battleground_named(battleground, (f"bg.{deck}",))
    return Action(
        Seq(eliminate_self_unit(), activate(target)),
        label,
        available=lambda s, uid: any(s.cards[u].code == battleground for u in s.zone(f"bg.{deck}")),
    )


# Coastal Raiders — "1 extra battleground attack icon on Dol Amroth. While in reserve, as your
# action: eliminate it to activate Dol Amroth if still in the Free Peoples deck."
text(
    "saruman-126",
    icons=on_location("dol-amroth", "bg_attack"),
    actions=(_raid("dol-amroth", "free", "eliminate it: activate Dol Amroth"),),
)

# Haradrim Cavalry — the same with Minas Tirith.
text(
    "saruman-127",
    icons=on_location("minas-tirith", "bg_attack"),
    actions=(_raid("minas-tirith", "free", "eliminate it: activate Minas Tirith"),),
)

# The Black Fleet — the same with Pelargir.
text(
    "saruman-128",
    icons=on_location("pelargir", "bg_attack"),
    actions=(_raid("pelargir", "free", "eliminate it: activate Pelargir"),),
)

# Corsairs of Umbar — "While in reserve, as your action: eliminate it to activate Umbar if
# still in the Shadow battleground deck."
text("saruman-129", actions=(_raid("umbar", "shadow", "eliminate it: activate Umbar"),))

# Haradrim Regulars — the same with Harad.
text("saruman-130", actions=(_raid("harad", "shadow", "eliminate it: activate Harad"),))


def southron_scored(s: WotrState) -> list[Uid]:
    return [
        u
        for zone in ("free.score", "shadow.score")
        for u in s.zone(zone)
        if table.loc(s, u).kind == "battleground" and "southron" in table.loc(s, u).factions
    ]


# The Black Serpent — "While in reserve, as your action: eliminate it to reactivate a
# Southron battleground from a scoring area."
text(
    "saruman-131",
    actions=(
        Action(
            Seq(
                eliminate_self_unit(),
                choose(
                    PLAYER,
                    "The Black Serpent: reactivate which battleground?",
                    lambda rt: southron_scored(st(rt)),
                    "raided",
                    activate(lambda rt: chosen(rt, "raided")[0]),
                ),
            ),
            "eliminate it: reactivate a Southron battleground",
            available=lambda s, uid: bool(southron_scored(s)),
        ),
    ),
)
