"""Resource phase: each hero gains 1 resource, then each player draws 1 card.

And what resources pay for: a card's cost comes from the pools of heroes whose sphere
matches the card's (neutral cards from any hero's); a resource icon an attachment gives
counts as the hero's sphere (Celebrían's Stone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from domain.kernel.events import Event
from domain.kernel.flow import Node, Seq
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


# -- paying costs ------------------------------------------------------------------------


IGNORES_RESOURCE_MATCH: Final[list[Callable[[LcgState, Seat], bool]]] = []
"""Texts under which a player's next card ignores the resource match (Twilight's Call)."""


def matching_heroes(s: LcgState, seat: Seat, sphere: str | None) -> list[Uid]:
    """The heroes of ``seat`` whose resources may pay for a card of ``sphere``."""
    heroes = table.heroes(s, seat)
    if sphere in (None, "neutral") or any(ignores(s, seat) for ignores in table.in_game(s, IGNORES_RESOURCE_MATCH)):
        return heroes
    cards = s.cards
    if not table.givers(s):  # no card of the game gives icons: a hero's only icon is its sphere
        return [h for h in heroes if table.definition_in(cards, h).sphere == sphere]
    # table.spheres of a hero no giver is attached to is its printed sphere alone: the
    # givers' hosts are read once, rather than every giver's host for each hero
    hosts = {cards[a].attached_to for a in table.givers(s)}
    return [
        h
        for h in heroes
        if table.definition_in(cards, h).sphere == sphere or (h in hosts and sphere in table.spheres(s, h))
    ]


def can_pay_cost(s: LcgState, seat: Seat, sphere: str | None, cost: int, heroes_needed: int = 1) -> bool:
    """Whether ``seat`` can pay ``cost`` for a card of ``sphere``.

    Rules Reference, "Resource Match": a card of a sphere needs a hero of that sphere even
    when it costs 0. ``heroes_needed`` > 1: the cost must come from that many different
    heroes' pools (Thicket of Spears).
    """
    return Purse(s, seat).can_pay(sphere, cost, heroes_needed)


class Purse:
    """What ``seat``'s heroes can pay at one state, for asking :func:`can_pay_cost` of several
    cards at once (the Action events in a hand, asked at every action window): the heroes'
    resources, and the pools of the heroes matching each sphere asked, are read once."""

    def __init__(self, s: LcgState, seat: Seat) -> None:
        self.s = s
        self.seat = seat
        self.total = -1
        """All the heroes' resources (-1: not read yet)."""
        self.pools: dict[str | None, list[int] | None] = {}
        """By sphere: the resources of the matching heroes that have any; None when no hero
        matches a sphere (not neutral)."""

    def can_pay(self, sphere: str | None, cost: int, heroes_needed: int = 1) -> bool:
        """:func:`can_pay_cost` of ``seat`` at this state."""
        s = self.s
        cards = s.cards
        if cost > 0:
            if self.total < 0:
                self.total = sum(
                    max(0, cards[h].resources) for h in table.cards_in(s, table.seat_key(self.seat, "heroes"))
                )
            if self.total < cost:
                return False  # not even all the heroes' resources would pay (the matching ones are among them)
        if sphere in self.pools:
            pools = self.pools[sphere]
        else:
            heroes = matching_heroes(s, self.seat, sphere)
            if not heroes and sphere not in (None, "neutral"):
                pools = None
            else:
                pools = []
                for h in heroes:
                    pool = cards[h].resources
                    if pool > 0:
                        pools.append(pool)
            self.pools[sphere] = pools
        if pools is None:
            return False
        if heroes_needed > 1:
            return len(pools) >= heroes_needed and sum(pools) >= cost
        return sum(pools) >= cost


def cost_payments(
    s: LcgState, seat: Seat, sphere: str | None, cost: int, heroes_needed: int = 1
) -> list[tuple[ev.Payment, ...]]:
    """Every way the matching heroes of ``seat`` can pay ``cost`` exactly."""
    if not can_pay_cost(s, seat, sphere, cost, heroes_needed):
        return []
    cards = s.cards
    heroes = [h for h in matching_heroes(s, seat, sphere) if cards[h].resources > 0]

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

    found = list(ways(0, cost))
    if heroes_needed > 1:
        found = [way for way in found if len(way) >= heroes_needed]
    return found


def payment_id(payment: tuple[ev.Payment, ...]) -> str:
    """A way to pay as an option id (``free`` when nothing is paid)."""
    return ",".join(f"{p.card}:{p.amount}" for p in payment) or "free"
