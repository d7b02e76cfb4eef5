"""Core Set Spirit and Lore allies, and neutral Gandalf: what their text does."""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Case, Decide, ForEach, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Action, Trigger, text
from domain.lcg.effects import (
    ENTERS_PLAY,
    PLAYER,
    SELF,
    ability_used,
    card_var,
    choose,
    chosen,
    deal_damage,
    discard,
    draw,
    emit,
    entered_play,
    exhaust,
    heal,
    later,
    place_progress,
    raise_threat,
    reduce_threat,
    st,
    use_limit,
)
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Seat, Uid


def _ready(s: LcgState, uid: Uid) -> bool:
    return not s.cards[uid].exhausted


def _committed(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.CharactersCommitted) and uid in e.cards


def _entered_play(s: LcgState, e: Event, uid: Uid) -> bool:
    """Played from hand or put into play by a card (Sneak Attack): "enters play"."""
    return entered_play(e, uid)


def _played(s: LcgState, e: Event, uid: Uid) -> bool:
    """ "After you play": from hand, its cost paid; not put into play by another card."""
    return isinstance(e, ev.AllyPlayed) and e.card == uid


def _ask_player(prompt: str, others_only: bool = False) -> Callable[[Runtime], Ask | None]:
    def ask(rt: Runtime) -> Ask | None:
        seats = [p for p in st(rt).active_seats() if not (others_only and p == PLAYER(rt))]
        return Ask(PLAYER(rt), prompt, [Option(p, p) for p in seats]) if seats else None

    return ask


# -- Spirit ------------------------------------------------------------------------------


def _took_available(s: LcgState, uid: Uid, seat: Seat) -> bool:
    others = [p for p in s.active_seats() if p != seat]
    return bool(others) and s.players[seat].threat >= 3 and not s.limit_used(f"{uid}")


def _given(rt: Runtime) -> Event:
    return ev.ControlGiven(card=SELF(rt), player=str(rt.env["target"]))


# Wandering Took — "Action: reduce your threat by 3 to give control of Wandering Took to
# another player; raise that player's threat by 3. (Limit once per round.)" The limit is
# errata (FAQ 1.9, Wandering Took CORE 43). Reducing the threat is the cost: it needs 3
# threat to pay.
text(
    "core-043",
    actions=(
        Action(
            _took_available,
            Seq(
                ability_used("action"),
                use_limit("{self}"),
                reduce_threat(PLAYER, 3),
                Decide(
                    _ask_player("Wandering Took: give him to which player?", others_only=True),
                    "target",
                    Seq(emit(_given), raise_threat(lambda rt: str(rt.env["target"]), 3)),
                    auto_single=True,
                ),
            ),
            "reduce your threat by 3: give him to another player",
        ),
    ),
)

# Lórien Guide — "Response: after Lórien Guide commits to a quest, place 1 progress token
# on the active location."
text(
    "core-044",
    responses=(
        Trigger(
            ev.CharactersCommitted,
            lambda s, e, uid: _committed(s, e, uid) and table.active_location(s) is not None,
            place_progress(lambda rt: table.active_location(st(rt)), 1),
            optional=True,
        ),
    ),
)


def _staged_locations(s: LcgState) -> list[Uid]:
    return [u for u in table.staging(s) if table.defn(s, u).type == "location"]


# Northern Tracker — "Response: after Northern Tracker commits to a quest, place 1 progress
# token on each location in the staging area."
text(
    "core-045",
    responses=(
        Trigger(
            ev.CharactersCommitted,
            lambda s, e, uid: _committed(s, e, uid) and bool(_staged_locations(s)),
            ForEach(lambda rt: _staged_locations(st(rt)), "location", place_progress(card_var("location"), 1)),
            optional=True,
        ),
    ),
)


# -- Lore --------------------------------------------------------------------------------


def _damaged_heroes(s: LcgState) -> list[Uid]:
    return [u for seat in s.active_seats() for u in table.heroes(s, seat) if s.cards[u].damage]


# Daughter of the Nimrodel — "Action: exhaust Daughter of the Nimrodel to heal up to 2
# damage on 1 hero."
text(
    "core-058",
    actions=(
        Action(
            lambda s, uid, seat: _ready(s, uid) and bool(_damaged_heroes(s)),
            Seq(
                ability_used("action"),
                exhaust(lambda rt: [SELF(rt)]),
                choose(
                    PLAYER,
                    "Daughter of the Nimrodel: heal up to 2 damage on a hero",
                    lambda rt: _damaged_heroes(st(rt)),
                    "healed",
                    heal(card_var("healed"), 2),
                ),
            ),
            "exhaust: heal up to 2 damage on a hero",
        ),
    ),
)


def _top_attachments(s: LcgState) -> list[Uid]:
    """The topmost attachment of each player's discard pile (the last card put there is on top)."""
    out = []
    for seat in s.active_seats():
        pile = [u for u in s.zone(f"{seat}.discard") if table.defn(s, u).type == "attachment"]
        if pile:
            out.append(pile[-1])
    return out


# Erebor Hammersmith — "Response: after you play Erebor Hammersmith, return the topmost
# attachment of any player's discard pile to its owner's hand."
text(
    "core-059",
    responses=(
        Trigger(
            ev.AllyPlayed,
            lambda s, e, uid: _played(s, e, uid) and bool(_top_attachments(s)),
            choose(
                PLAYER,
                "Erebor Hammersmith: return an attachment from a discard pile to its owner's hand",
                lambda rt: _top_attachments(st(rt)),
                "returned",
                emit(
                    lambda rt: ev.CardMoved(
                        card=card_var("returned")(rt), to=f"{table.owner_of(st(rt), card_var('returned')(rt))}.hand"
                    )
                ),
            ),
            optional=True,
        ),
    ),
)

# Henamarth Riversong — "Action: exhaust Henamarth Riversong to look at the top card of
# the encounter deck." Only his controller learns what it is.
text(
    "core-060",
    actions=(
        Action(
            lambda s, uid, seat: _ready(s, uid) and bool(s.zone("encounter.deck")),
            Seq(
                ability_used("action"),
                exhaust(lambda rt: [SELF(rt)]),
                emit(lambda rt: ev.CardLookedAt(player=PLAYER(rt), card=st(rt).zone("encounter.deck")[0])),
            ),
            "exhaust: look at the top encounter card",
        ),
    ),
)

CONDITION_ENCOUNTER_CARDS = frozenset({"core-080"})
"""Encounter cards that count as Condition attachments once attached: Caught in a Web
("attach this card to a hero ... (Condition.)") has no printed trait of its own."""


def _conditions(s: LcgState) -> list[Uid]:
    return [
        a
        for a in s.zone("attachments")
        if table.defn(s, a).is_a("Condition") or s.cards[a].code in CONDITION_ENCOUNTER_CARDS
    ]


# Miner of the Iron Hills — "Response: after Miner of the Iron Hills enters play, choose
# and discard 1 Condition attachment from play."
text(
    "core-061",
    responses=(
        Trigger(
            ENTERS_PLAY,
            lambda s, e, uid: _entered_play(s, e, uid) and bool(_conditions(s)),
            choose(
                PLAYER,
                "Miner of the Iron Hills: discard a Condition attachment",
                lambda rt: _conditions(st(rt)),
                "condition",
                discard(lambda rt: chosen(rt, "condition")),
            ),
            optional=True,
        ),
    ),
)

# Gléowine — "Action: exhaust Gléowine to choose a player; that player draws 1 card."
text(
    "core-062",
    actions=(
        Action(
            lambda s, uid, seat: _ready(s, uid),
            Seq(
                ability_used("action"),
                exhaust(lambda rt: [SELF(rt)]),
                Decide(
                    _ask_player("Gléowine: choose a player to draw 1 card"),
                    "target",
                    draw(lambda rt: str(rt.env["target"]), 1),
                    auto_single=True,
                ),
            ),
            "exhaust: a player draws 1",
        ),
    ),
)

# -- neutral -----------------------------------------------------------------------------


def _gandalf_ask(rt: Runtime) -> Ask:
    options = [Option("draw", "Draw 3 cards")]
    if table.enemies_in_play(st(rt)):
        options.append(Option("damage", "Deal 4 damage to 1 enemy in play"))
    options.append(Option("threat", "Reduce your threat by 5"))
    return Ask(PLAYER(rt), "Gandalf enters play: choose 1", options)


def _leave_at_round_end(rt: Runtime) -> Event | None:
    gandalf = SELF(rt)
    return ev.CardsDiscarded(cards=(gandalf,)) if table.is_in_play(st(rt), gandalf) else None


register("core-073.round-end", emit(_leave_at_round_end), rule="core-073.forced")


# Gandalf — "At the end of the round, discard Gandalf from play. Response: after Gandalf
# enters play, choose 1: draw 3 cards, deal 4 damage to 1 enemy in play, or reduce your
# threat by 5." Entering play, he is marked to be discarded when this round ends.
text(
    "core-073",
    forced=(Trigger(ENTERS_PLAY, _entered_play, later("round", "core-073.round-end")),),
    responses=(
        Trigger(
            ENTERS_PLAY,
            _entered_play,
            Decide(
                _gandalf_ask,
                "mode",
                Case(
                    "mode",
                    {
                        "draw": draw(PLAYER, 3),
                        "damage": choose(
                            PLAYER,
                            "Gandalf: deal 4 damage to an enemy",
                            lambda rt: table.enemies_in_play(st(rt)),
                            "enemy",
                            deal_damage(card_var("enemy"), 4),
                        ),
                        "threat": reduce_threat(PLAYER, 5),
                    },
                ),
            ),
            optional=True,
            prompt="Gandalf enters play: use his response?",
        ),
    ),
)
