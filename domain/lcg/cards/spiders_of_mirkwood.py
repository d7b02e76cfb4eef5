"""The Spiders of Mirkwood encounter set (Core Set #74-80)."""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.flow import Ask, Decide, If, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Trigger, text
from domain.lcg.effects import (
    PLAYER,
    SELF,
    card_var,
    choose,
    chosen,
    damage_each,
    deal_damage,
    defending_player,
    each_player,
    emit,
    exhaust,
    modify,
    raise_threat,
    reveal_encounter_card,
    st,
    undefended,
)
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Uid

# King Spider — "When Revealed: each player chooses and exhausts 1 character he
# controls. Shadow: the defending player chooses and exhausts 1 character he controls
# (2 if the attack is undefended)."
text(
    "core-074",
    when_revealed=each_player(
        choose(
            PLAYER,
            "King Spider: choose a character to exhaust",
            lambda rt: table.ready_characters(st(rt), PLAYER(rt)),
            "exhausted",
            exhaust(lambda rt: chosen(rt, "exhausted")),
        )
    ),
    shadow=choose(
        defending_player,
        "King Spider (shadow): choose characters to exhaust",
        lambda rt: table.ready_characters(st(rt), defending_player(rt)),
        "exhausted",
        exhaust(lambda rt: chosen(rt, "exhausted")),
        count=lambda rt: 2 if undefended(rt) else 1,
    ),
)


def _engaged_self(s: LcgState, e: object, uid: Uid) -> bool:
    return isinstance(e, ev.EnemyEngaged) and e.enemy == uid


def _engaged_player(rt: Runtime) -> str:
    return str(rt.env["engaged"])


# Hummerhorns — "Forced: after Hummerhorns engages you, deal 5 damage to a single hero
# you control. Shadow: deal 1 damage to each character the defending player controls
# (2 if the attack is undefended)."
text(
    "core-075",
    forced=(
        Trigger(
            ev.EnemyEngaged,
            _engaged_self,
            choose(
                _engaged_player,
                "Hummerhorns: choose a hero to take 5 damage",
                lambda rt: table.heroes(st(rt), _engaged_player(rt)),
                "hero",
                deal_damage(card_var("hero"), 5),
            ),
            bind=lambda s, e, uid: {"engaged": getattr(e, "player", "")},
        ),
    ),
    shadow=damage_each(
        lambda rt: table.characters(st(rt), defending_player(rt)),
        lambda rt: 2 if undefended(rt) else 1,
    ),
)

# Ungoliant's Spawn — "When Revealed: each character committed to a quest gets -1
# Willpower until the end of the phase. Shadow: raise the defending player's threat by
# 4 (by 8 if the attack is undefended)." The printed text says "currently committed":
# the characters are fixed as it is revealed. "The defending player" is the player
# attacked, even if another player's character defends (FAQ 1.52).
text(
    "core-076",
    when_revealed=modify(lambda rt: table.committed(st(rt)), "willpower", -1, "phase"),
    shadow=raise_threat(defending_player, lambda rt: 8 if undefended(rt) else 4),
)


def _every_player_has_ready_hero(s: LcgState, uid: Uid) -> bool:
    return all(any(not s.cards[h].exhausted for h in table.heroes(s, seat)) for seat in s.active_seats())


# Great Forest Web — "Travel: each player must exhaust 1 hero he controls to travel here."
text(
    "core-077",
    travel=each_player(
        choose(
            PLAYER,
            "Great Forest Web: exhaust a hero to travel",
            lambda rt: [h for h in table.heroes(st(rt), PLAYER(rt)) if not st(rt).cards[h].exhausted],
            "hero",
            exhaust(lambda rt: chosen(rt, "hero")),
        )
    ),
    can_travel=_every_player_has_ready_hero,
)


def _search_top_five(rt: Runtime) -> list[Uid]:
    return st(rt).zone(f"{PLAYER(rt)}.deck")[:5]


def _ask_search(rt: Runtime) -> Ask | None:
    s = st(rt)
    if s.players[PLAYER(rt)].eliminated or not s.zone(f"{PLAYER(rt)}.deck"):
        return None
    prompt = "Mountains of Mirkwood was explored: search the top 5 cards of your deck for 1 card?"
    return Ask(PLAYER(rt), prompt, [Option("yes", "Search"), Option("no", "Do not search")])


def _reshuffle_own(rt: Runtime) -> ev.DeckShuffled:
    zone = f"{PLAYER(rt)}.deck"
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(st(rt).zone(zone))))


# Mountains of Mirkwood — "Travel: reveal the top card of the encounter deck and add it
# to the staging area to travel here. Response: after Mountains of Mirkwood leaves play
# as an explored location, each player may search the top 5 cards of his deck for 1
# card and add it to his hand; each shuffles the rest back." Each player decides for
# themselves whether to search, before seeing the cards (declining shows nothing and
# shuffles nothing); a player who searches takes 1 card (any card qualifies) into hand,
# which is not a draw, and shuffles their deck (FAQ 1.21: a searched deck is shuffled).
text(
    "core-078",
    travel=reveal_encounter_card(),
    can_travel=lambda s, uid: bool(s.zone("encounter.deck") or s.zone("encounter.discard")),
    responses=(
        Trigger(
            ev.LocationExplored,
            lambda s, e, uid: isinstance(e, ev.LocationExplored) and e.card == uid,
            each_player(
                Decide(
                    _ask_search,
                    "search",
                    If(
                        lambda rt: rt.env["search"] == "yes",
                        Seq(
                            choose(
                                PLAYER,
                                "Mountains of Mirkwood: take 1 of the top 5 cards of your deck into your hand",
                                _search_top_five,
                                "taken",
                                emit(lambda rt: ev.CardMoved(card=int(rt.env["taken"]), to=f"{PLAYER(rt)}.hand")),
                            ),
                            emit(_reshuffle_own),
                        ),
                    ),
                )
            ),
            zone="subject",
        ),
    ),
)

# Eyes of the Forest — "When Revealed: each player discards every event card in his hand."
text(
    "core-079",
    when_revealed=each_player(
        emit(
            lambda rt: (
                ev.CardsDiscarded(cards=events)
                if (events := tuple(u for u in table.hand(st(rt), PLAYER(rt)) if table.defn(st(rt), u).type == "event"))
                else None
            )
        )
    ),
)


def _ask_web_player(rt: Runtime) -> Ask:
    s = st(rt)
    seats = table.highest_threat_seats(s)
    prompt = "Caught in a Web: players tie for the highest threat; who takes it?"
    return Ask(s.first, prompt, [Option(p, f"{p} (threat {s.players[p].threat})") for p in seats])


def _victim(rt: Runtime) -> str:
    return str(rt.env["victim"])


# Caught in a Web — "When Revealed: the player with the highest threat attaches this
# card to a hero he controls. (Condition.) The attached hero does not ready during the
# refresh phase unless you pay 2 resources from its pool." On a tie for the highest
# threat the first player chooses among the tied players (FAQ 1.03, whose example is this
# card). Two copies on one hero must each be paid for, 4 resources in all (FAQ, Caught in
# a Web): the refresh phase sums ``holds_in_refresh`` over the attachments.
text(
    "core-080",
    when_revealed=Decide(
        _ask_web_player,
        "victim",
        choose(
            _victim,
            "Caught in a Web: attach it to one of your heroes",
            lambda rt: table.heroes(st(rt), _victim(rt)),
            "hero",
            emit(lambda rt: ev.AttachmentAttached(card=SELF(rt), to=int(rt.env["hero"]))),
        ),
        auto_single=True,
    ),
    holds_in_refresh=2,
)
