"""Against the Shadow: what the printed Shadow bot cards and replacement locations do
(seed 003, "Card Notes"; their data in ``against_the_shadow.toml``). Only bot seats play
these cards; their choices are made by the bot rules (``domain/wotr/bot``).
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.flow import Ask, Call, Case, Decide, If, Let, Seq, register
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.cards import Action, text
from domain.wotr.cards.saruman import grima_whispers, rohan_characters, top_of_deck_cycles
from domain.wotr.effects import (
    PLAYER,
    SELF,
    add_tokens,
    cycle_self,
    draw,
    each_player,
    eliminate_self_unit,
    emit,
    faction_player,
    forsake,
    move,
    on_location,
    st,
)
from domain.wotr.rules import table
from domain.wotr.state import FREE, Uid, WotrState

# Saruman — "While in reserve, draw 1 additional card each Draw step. If forsaken from the
# top of your draw deck, cycle this card instead of eliminating it."
text("ats-saruman", extra_draw=1, instead=top_of_deck_cycles)

# White Hand Orcs — "If this card is eliminated for any reason, cycle it instead."
text("ats-white-hand-orcs", instead=lambda s, uid, how: "cycle")


def grima_choices(s: WotrState, seat: str) -> list[Option]:
    """Gríma's choices that are possible (seed 003, example of bot play 2: not Saruman from
    the eliminated pile, not a Rohan character unless one is in play; drawing 2 even if
    Saruman is in the draw deck)."""
    options = []
    if table.find(s, "Saruman", zones=(f"{seat}.deck",)):
        options.append(Option("saruman", "Take Saruman from the draw deck into hand"))
    if rohan_characters(s):
        options.append(Option("rohan", "Eliminate a Rohan character in play"))
    if table.can_draw(s, seat):
        options.append(Option("draw", "Draw 2 cards"))
    return options


def _grima_ask(rt: Runtime) -> Ask | None:
    options = grima_choices(st(rt), PLAYER(rt))
    return Ask(PLAYER(rt), "Gríma Wormtongue: choose one", options) if options else None


# Gríma Wormtongue — "If in reserve, use an action, eliminate this card, and choose: Take
# Saruman from the draw deck into hand; eliminate a Rohan character in play; or draw 2 cards."
text(
    "ats-grima-wormtongue",
    actions=(
        Action(
            Seq(
                eliminate_self_unit(),
                Decide(
                    _grima_ask,
                    "whisper",
                    Case("whisper", {**grima_whispers(), "draw": draw(PLAYER, 2)}),
                ),
            ),
            "eliminate Gríma: take Saruman, eliminate a Rohan character, or draw 2",
            available=lambda s, uid: bool(grima_choices(s, table.controller(s, uid))),
        ),
    ),
)

# Balrog of Moria — "+1 path icon on Khazad-dûm. When played or moved to a path or
# battleground, each Free Peoples player must forsake 1 card."
text("ats-balrog-of-moria", icons=on_location("khazad-dum", "path"), entered=each_player(FREE, forsake(PLAYER)))


def _other_paths(s: WotrState) -> list[Uid]:
    path = table.active_path(s)
    return list(s.zone(f"paths.{table.loc(s, path).number}")) if path is not None else []


def _crebain_can_fly(s: WotrState, uid: Uid) -> bool:
    path = table.active_path(s)
    return path is not None and 2 <= table.loc(s, path).number <= 6 and bool(_other_paths(s))


def _picked(rt: Runtime) -> int:
    return int(rt.env["picked"])


register(
    "wotr.bot.random-path",
    Let(
        # The pick is recorded in the BotChose event right after, which names the path.
        lambda rt: {"picked": rt.pick(_other_paths(st(rt)))[0]},
        Seq(
            emit(
                lambda rt: ev.BotChose(
                    player=PLAYER(rt),
                    step="random-path",
                    reason="a different random path of the same number",
                    location=_picked(rt),
                )
            ),
            Call("wotr.activate", lambda rt: {"location": _picked(rt)}),
        ),
    ),
    rule="wotr.bot.random-path",
)

# Flocks of Crebain — "If in reserve, move this card to a path 2-6, even if the Shadow is
# winning (the bot flowchart, step 3). If on a path 2-6, use an action to activate a
# different random path of the same number."
text(
    "ats-flocks-of-crebain",
    actions=(
        Action(
            Call("wotr.bot.random-path", lambda rt: {"player": PLAYER(rt)}),
            "activate a different random path of the same number",
            where="path",
            available=_crebain_can_fly,
        ),
    ),
)

# The Black Serpent — "When played or moved to a battleground, each Free Peoples player must
# forsake 1 card."
text(
    "ats-the-black-serpent",
    entered=If(
        lambda rt: (
            rt.env.get("location") is not None and table.loc(st(rt), int(rt.env["location"])).kind == "battleground"
        ),
        each_player(FREE, forsake(PLAYER)),
    ),
)


def _dol_amroth(s: WotrState) -> Uid | None:
    return next((u for u in s.zone("bg.free") if s.cards[u].code == "dol-amroth"), None)


def _dol_amroth_card(rt: Runtime) -> Uid:
    s = st(rt)
    return next(u for u in s.cards if s.cards[u].code == "dol-amroth")


# Coastal Raiders — "If in reserve, use an action to activate Dol Amroth if it is in the Free
# Peoples battleground deck, and then move this card to Dol Amroth."
text(
    "ats-coastal-raiders",
    actions=(
        Action(
            Seq(
                Call("wotr.activate", lambda rt: {"location": _dol_amroth(st(rt))}),
                move(PLAYER, SELF, _dol_amroth_card),
            ),
            "activate Dol Amroth and move there",
            available=lambda s, uid: _dol_amroth(s) is not None,
        ),
    ),
)

# The Witch-king — "Nazgûl. While in reserve, draw 1 additional card each Draw step."
text("ats-the-witch-king", extra_draw=1)

# The Messenger — "Nazgûl. If in reserve, use an action, cycle this card: draw up to 5 cards,
# one at a time: play the first Nazgûl character drawn and then stop; cycle the unplayed
# cards." (Used as an action from reserve: seed 003, example of bot play 1; the cost is the
# base card's, open_questions.md.)
text(
    "ats-the-messenger",
    actions=(
        Action(
            Seq(cycle_self(), Call("wotr.bot.draw-until", lambda rt: {"player": PLAYER(rt), "count": 5})),
            "cycle it: draw up to 5 cards, play the first Nazgûl drawn",
        ),
    ),
)

# Minas Morgul (Shadow battleground) — "The Mordor player draws up to 5 cards, one at a time:
# play the first Nazgûl character drawn to reserve and then stop; cycle the unplayed cards."
text(
    "ats-minas-morgul",
    activation=faction_player(
        "mordor", Call("wotr.bot.draw-until", lambda rt: {"player": PLAYER(rt), "count": 5, "where": "reserve"})
    ),
)


def _can_forsake(rt: Runtime) -> bool:
    s = st(rt)
    seat = PLAYER(rt)
    return bool(s.zone(f"{seat}.reserve") or s.zone(f"{seat}.hand")) or table.can_draw(s, seat)


# The Doors of Durin (path 4) — "The Monstrous player forsakes 1 card to add a skull icon to
# this path." (A skull icon: 1 attack token; with nothing to forsake, no icon.)
text(
    "ats-the-doors-of-durin",
    activation=faction_player("monstrous", If(_can_forsake, Seq(forsake(PLAYER), add_tokens(SELF, attack=1)))),
)
