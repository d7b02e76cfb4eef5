"""Resource phase: each hero gains 1 resource, then each player draws 1 card; and how
resources pay for the cards players play."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Decide, Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import PLAYER, draw, each_player, emit, st
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Seat, Uid


def _gain(rt: Runtime) -> Event | None:
    heroes = tuple(table.heroes(st(rt), rt.env["player"]))
    return ev.ResourcesAdded(cards=heroes) if heroes else None


def body() -> list[Node]:
    return [
        each_player(
            Seq(emit(_gain, rule="lcg.resource.gain"), draw(PLAYER, 1)),
            rule="lcg.resource",
        )
    ]


# -- paying a card's cost ----------------------------------------------------------------
#
# Rules (Core Set rulebook, "Resource match"): a card's cost is paid with resources from the
# pools of heroes whose resource icon matches the card's sphere; a neutral card may be paid
# by any heroes. When several ways to pay exist, the player chooses which heroes pay. Every
# card played from hand (ally, attachment, event) pays through these functions.


def paying_heroes(s: LcgState, seat: Seat, sphere: str | None) -> list[Uid]:
    """The heroes of ``seat`` with resources that may pay for a card of ``sphere``."""
    return [
        h
        for h in table.heroes(s, seat)
        if s.cards[h].resources > 0 and (sphere in (None, "neutral") or sphere in table.spheres(s, h))
    ]


def can_pay(s: LcgState, seat: Seat, uid: Uid) -> bool:
    d = table.defn(s, uid)
    return sum(s.cards[h].resources for h in paying_heroes(s, seat, d.sphere)) >= d.cost


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


def payment_id(payment: tuple[ev.Payment, ...]) -> str:
    return ",".join(f"{p.card}:{p.amount}" for p in payment) or "free"


def _ask_payment(rt: Runtime) -> Ask:
    s = st(rt)
    seat = rt.env["player"]
    uid = int(rt.env["play"])
    options = []
    for way in payments(s, seat, uid):
        label = ", ".join(f"{table.name(s, p.card)} pays {p.amount}" for p in way) or "free"
        options.append(Option(payment_id(way), label))
    return Ask(seat, f"Pay for {table.name(s, uid)}", options, about=uid)


Played = Callable[[Runtime, tuple[ev.Payment, ...]], Event | None]


def pay_then(played: Played, rule: str) -> Decide:
    """The player (``player``) chooses how to pay for the card ``play``; then ``played``
    makes the event that the card was played, with those payments."""

    def make(rt: Runtime) -> Event | None:
        s = st(rt)
        chosen = str(rt.env["payment"])
        way = next(w for w in payments(s, rt.env["player"], int(rt.env["play"])) if payment_id(w) == chosen)
        return played(rt, way)

    return Decide(_ask_payment, "payment", emit(make), auto_single=True, rule=rule)
