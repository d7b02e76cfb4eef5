"""Refresh phase: ready every card, raise each threat by 1, pass the first player token.

Rules: all exhausted cards ready; each player raises their threat by 1; the first player
token passes clockwise (to the next player still in the game).
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Decide, ForEach, If, Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import each_player, emit, st
from domain.lcg.rules import table
from domain.lcg.rules.constant import extra_refresh_threat
from domain.lcg.rules.table import cards_in, seats_in_turn, text_of
from domain.lcg.state import LcgState, Uid


def held_cost(s: LcgState, uid: Uid) -> int | None:
    """What must be paid from the card's pool for it to ready, if an attachment holds it."""
    costs = [text_of(s.cards[a].code).holds_in_refresh for a in table.attachments_on(s, uid)]
    paid = [c for c in costs if c is not None]
    return sum(paid) if paid else None


def _held(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for u in table.all_characters(s) if s.cards[u].exhausted and held_cost(s, u) is not None]


def _ask_pay(rt: Runtime) -> Ask | None:
    s = st(rt)
    uid = int(rt.env["held"])
    cost = held_cost(s, uid) or 0
    if s.cards[uid].resources < cost:
        return None
    owner = table.owner_of(s, uid)
    prompt = f"Pay {cost} resources from {table.name(s, uid)}'s pool to ready it?"
    return Ask(owner, prompt, [Option("pay", "Pay", uid), Option("no", "Leave it exhausted")])


def _ready_all(rt: Runtime) -> Event | None:
    """Every exhausted card the players control readies: characters, and the attachments
    and contracts whose costs exhausted them (Unexpected Courage, A Perilous Voyage)."""
    s = st(rt)
    cards = tuple(
        u
        for u in table.all_characters(s)
        if s.cards[u].exhausted and held_cost(s, u) is None and not table.cannot_ready(s, u)
    )
    others = tuple(
        u
        for u in (
            *cards_in(s, "attachments"),
            *(c for seat in seats_in_turn(s) for c in cards_in(s, f"{seat}.contract")),
        )
        if s.cards[u].exhausted
    )
    return ev.CardsReadied(cards=cards + others) if cards or others else None


def _pass_token(rt: Runtime) -> Event | None:
    s = st(rt)
    seats = seats_in_turn(s)
    return ev.FirstPlayerPassed(player=seats[1]) if len(seats) > 1 else None


def body() -> list[Node]:
    return [
        ForEach(
            _held,
            "held",
            Decide(
                _ask_pay,
                "pay",
                If(
                    lambda rt: rt.env["pay"] == "pay",
                    Seq(
                        emit(
                            lambda rt: ev.ResourcesPaid(
                                payments=(ev.Payment(int(rt.env["held"]), held_cost(st(rt), int(rt.env["held"])) or 0),)
                            )
                        ),
                        emit(lambda rt: ev.CardsReadied(cards=(int(rt.env["held"]),))),
                    ),
                ),
            ),
            rule="lcg.refresh.held",
        ),
        emit(_ready_all, rule="lcg.refresh.ready"),
        each_player(
            emit(lambda rt: ev.ThreatRaised(player=rt.env["player"], amount=1 + extra_refresh_threat(st(rt)))),
            rule="lcg.refresh.threat",
        ),
        emit(_pass_token, rule="lcg.refresh.first-player"),
    ]
