"""Planning phase: each player in turn plays allies from hand, paying their cost.

Rules: a card's cost is paid with resources from the pools of heroes whose sphere
matches the card's (neutral cards may use any hero); a unique card cannot enter play
while a card of the same title is in play. When several ways to pay exist, the player
chooses which heroes pay.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Break, Decide, If, Node, Repeat
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import each_player, emit, st
from domain.lcg.rules import table
from domain.lcg.rules.constant import ally_cap_reached
from domain.lcg.state import LcgState, Seat, Uid


def paying_heroes(s: LcgState, seat: Seat, code_sphere: str | None) -> list[Uid]:
    return [
        h
        for h in table.heroes(s, seat)
        if s.cards[h].resources > 0 and (code_sphere in (None, "neutral") or table.defn(s, h).sphere == code_sphere)
    ]


def payments(s: LcgState, seat: Seat, uid: Uid) -> list[tuple[ev.Payment, ...]]:
    """Every way the matching heroes can pay the card's cost exactly."""
    d = table.defn(s, uid)
    heroes = paying_heroes(s, seat, d.sphere)

    def ways(i: int, left: int) -> Iterator[tuple[ev.Payment, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(heroes):
            return
        hero = heroes[i]
        for amount in range(min(left, s.cards[hero].resources), -1, -1):
            for rest in ways(i + 1, left - amount):
                yield ((ev.Payment(hero, amount),) if amount else ()) + rest

    return list(ways(0, d.cost))


def playable(s: LcgState, seat: Seat) -> list[Uid]:
    out = []
    for uid in table.hand(s, seat):
        d = table.defn(s, uid)
        if d.type != "ally" or (d.unique and table.unique_in_play(s, d.code)) or ally_cap_reached(s):
            continue
        if sum(s.cards[h].resources for h in paying_heroes(s, seat, d.sphere)) >= d.cost:
            out.append(uid)
    return out


def payment_id(payment: tuple[ev.Payment, ...]) -> str:
    return ",".join(f"{p.card}:{p.amount}" for p in payment) or "free"


def _ask_play(rt: Runtime) -> Ask:
    s = st(rt)
    seat = rt.env["player"]
    options = [Option(str(u), f"Play {table.name(s, u)} (cost {table.defn(s, u).cost})", u) for u in playable(s, seat)]
    return Ask(seat, "Planning: play an ally, or finish planning", [*options, Option("done", "Done")])


def _ask_payment(rt: Runtime) -> Ask:
    s = st(rt)
    seat = rt.env["player"]
    uid = int(rt.env["play"])
    options = []
    for way in payments(s, seat, uid):
        label = ", ".join(f"{table.name(s, p.card)} pays {p.amount}" for p in way) or "free"
        options.append(Option(payment_id(way), label))
    return Ask(seat, f"Pay for {table.name(s, uid)}", options, about=uid)


def _played(rt: Runtime) -> Event:
    s = st(rt)
    seat = rt.env["player"]
    uid = int(rt.env["play"])
    chosen = str(rt.env["payment"])
    way = next(w for w in payments(s, seat, uid) if payment_id(w) == chosen)
    return ev.AllyPlayed(player=seat, card=uid, payments=way)


def body() -> list[Node]:
    return [
        each_player(
            Repeat(
                Decide(
                    _ask_play,
                    "play",
                    If(
                        lambda rt: rt.env["play"] == "done",
                        Break(),
                        Decide(_ask_payment, "payment", emit(_played), auto_single=True, rule="lcg.planning.pay"),
                    ),
                    auto_single=True,
                    rule="lcg.planning.play-ally",
                )
            ),
            rule="lcg.planning",
        )
    ]
