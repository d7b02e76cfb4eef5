"""Playing event cards from hand: Actions in action windows, Responses when they trigger.

Rules (Core Set rulebook, "Event Cards"; Rules Reference, "Resource Match"): an event is
played from its owner's hand by paying its cost from the pools of heroes whose sphere
matches its own (a neutral event from any hero's); its effect resolves and it goes to its
owner's discard pile. An Action event is played in an action window (a Quest Action only
in the quest phase, a Combat Action only in the combat phase); a Response event right
after the moment it names. An event whose effect has nothing to act on now (no target)
is not offered: our reading, as playing it would only throw the card away.

The played event goes to the discard pile as it is played, and its own text never
chooses it (Dwarven Tomb does not return itself; Will of the West is not shuffled back).
That a player holds a Response they can play shows as the game waiting for them, as at
a table; which card it is does not: the question is asked under the rule
``lcg.event.response`` and the card is named only to its owner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Decide, If, Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Action, Trigger, TriggerTest, text
from domain.lcg.effects import PLAYER, SELF, emit, st
from domain.lcg.rules import table
from domain.lcg.rules.resources import Purse, can_pay_cost, cost_payments, payment_id
from domain.lcg.rules.table import cards_in, text_of
from domain.lcg.state import LcgState, Seat, Uid

Playable = Callable[[LcgState, Seat, Uid], bool]
"""Whether the event's effect has something to act on now (seat, the event's uid)."""
XValues = Callable[[LcgState, Seat, Uid], list[int]]
"""The values X may take for an event whose printed cost is X."""


@dataclass(frozen=True)
class Cost:
    """How an event's cost is paid: its printed cost, or X (``x`` lists the values it may
    take); from at least ``heroes_needed`` different heroes' pools."""

    x: XValues | None = None
    heroes_needed: int = 1


PRINTED = Cost()
"""The printed cost, from any number of matching heroes."""


def _always(s: LcgState, seat: Seat, uid: Uid) -> bool:
    return True


COST_REDUCTIONS: Final[list[Callable[[LcgState, Seat, Uid], int]]] = []
"""Texts that make an event cost less to play now (Silent Mist): how much less."""


def reduction(s: LcgState, seat: Seat, uid: Uid) -> int:
    return sum(r(s, seat, uid) for r in table.in_game(s, COST_REDUCTIONS)) if COST_REDUCTIONS else 0


def _affordable(s: LcgState, seat: Seat, uid: Uid, cost: Cost, purse: Purse | None = None) -> bool:
    """Whether ``seat`` can pay for event ``uid`` now; ``purse``: ``seat``'s at ``s``, if the
    caller asks of several events."""
    d = table.definition_of(s, uid)
    paying = Purse(s, seat) if purse is None else purse
    if cost.x is not None:
        return any(paying.can_pay(d.sphere, x, cost.heroes_needed) for x in cost.x(s, seat, uid))
    return paying.can_pay(d.sphere, max(0, d.cost - reduction(s, seat, uid)), cost.heroes_needed)


def _amount(rt: Runtime) -> int:
    x = rt.env.get("x")
    if x is not None:
        return int(x)
    return max(0, table.definition_of(st(rt), SELF(rt)).cost - reduction(st(rt), PLAYER(rt), SELF(rt)))


def _ask_x(cost: Cost) -> Callable[[Runtime], Ask | None]:
    def ask(rt: Runtime) -> Ask | None:
        s = st(rt)
        uid, seat = SELF(rt), PLAYER(rt)
        if cost.x is None:
            return None
        sphere = table.defn(s, uid).sphere
        values = [x for x in cost.x(s, seat, uid) if can_pay_cost(s, seat, sphere, x, cost.heroes_needed)]
        options = [Option(str(x), f"X = {x}") for x in values]
        return Ask(seat, f"{table.name(s, uid)}: choose X (its cost)", options, about=uid)

    return ask


def _ways(rt: Runtime, cost: Cost) -> list[tuple[ev.Payment, ...]]:
    s = st(rt)
    uid = SELF(rt)
    return cost_payments(s, PLAYER(rt), table.defn(s, uid).sphere, _amount(rt), cost.heroes_needed)


def _ask_payment(cost: Cost) -> Callable[[Runtime], Ask]:
    def ask(rt: Runtime) -> Ask:
        s = st(rt)
        uid = SELF(rt)
        options = []
        for way in _ways(rt, cost):
            label = ", ".join(f"{table.name(s, p.card)} pays {p.amount}" for p in way) or "free"
            options.append(Option(payment_id(way), label))
        return Ask(PLAYER(rt), f"Pay for {table.name(s, uid)}", options, about=uid)

    return ask


def _played(cost: Cost) -> Callable[[Runtime], Event]:
    def make(rt: Runtime) -> Event:
        chosen = str(rt.env["payment"])
        way = next(w for w in _ways(rt, cost) if payment_id(w) == chosen)
        x = rt.env.get("x")
        return ev.EventPlayed(player=PLAYER(rt), card=SELF(rt), payments=way, x=None if x is None else int(x))

    return make


def play(effect: Node, rule: str, cost: Cost = PRINTED) -> Node:
    """Pay for the event (choosing X first if its cost is X), play it, resolve ``effect``
    (under ``rule``, the card's own)."""
    paid = Decide(
        _ask_payment(cost),
        "payment",
        Seq(emit(_played(cost)), effect, rule=rule),
        auto_single=True,
        rule="lcg.event.pay",
    )
    if cost.x is None:
        return paid
    return Decide(_ask_x(cost), "x", paid, auto_single=True, rule="lcg.event.x")


# -- Action events -----------------------------------------------------------------------


def action_event(
    code: str,
    effect: Node,
    label: str,
    playable: Playable = _always,
    phase: str | None = None,
    cost: Cost = PRINTED,
) -> None:
    """Register an Action event; ``phase`` limits it to one phase (Quest or Combat Action)."""

    def available(s: LcgState, uid: Uid, seat: Seat) -> bool:
        return _available(s, seat, uid, playable, phase, cost, None)

    action = Action(available, play(effect, f"{code}.action", cost), label)
    ACTION_EVENTS[code] = (playable, phase, cost)
    _ACTIONS[code] = action
    text(code, actions=(action,))


def _available(
    s: LcgState, seat: Seat, uid: Uid, playable: Playable, phase: str | None, cost: Cost, purse: Purse | None
) -> bool:
    """Whether ``seat`` may play the Action event ``uid`` now (``playable``, ``phase``, ``cost``:
    as registered by :func:`action_event`; ``purse``: ``seat``'s at ``s``, if known)."""
    return s.cards[uid].zone == table.seat_key(seat, "hand") and _usable(s, seat, uid, playable, phase, cost, purse)


def _usable(
    s: LcgState, seat: Seat, uid: Uid, playable: Playable, phase: str | None, cost: Cost, purse: Purse | None
) -> bool:
    """:func:`_available` of an Action event known to lie in ``seat``'s hand."""
    return (phase is None or s.phase == phase) and _affordable(s, seat, uid, cost, purse) and playable(s, seat, uid)


ACTION_EVENTS: dict[str, tuple[Playable, str | None, Cost]] = {}
"""Each Action event's own conditions (what its effect needs, its phase, its cost), by code."""
_ACTIONS: Final[dict[str, Action]] = {}
"""The Action :func:`action_event` registered for each code (:func:`event_actions` asks its
conditions itself, with one :class:`Purse` for the whole hand)."""


def playable_outside_hand(s: LcgState, seat: Seat, uid: Uid, less: int) -> bool:
    """Whether a card text that lets ``seat`` play the Action event ``uid`` from where it is
    (A Perilous Voyage: from the deck), ``less`` cheaper, lets them play it now: its effect
    has something to act on, it is its phase, and the reduced printed cost can be paid (an
    event costing X is not offered). The reduction itself is one of :data:`COST_REDUCTIONS`."""
    found = ACTION_EVENTS.get(s.cards[uid].code)
    if found is None:
        return False
    playable, phase, cost = found
    d = table.definition_of(s, uid)
    return (
        cost.x is None
        and (phase is None or s.phase == phase)
        and can_pay_cost(s, seat, d.sphere, max(0, d.cost - less - reduction(s, seat, uid)), cost.heroes_needed)
        and playable(s, seat, uid)
    )


def event_actions(s: LcgState, seat: Seat) -> list[Option]:
    """The Action events ``seat`` may play now from hand (option ids as Actions on cards)."""
    options: list[Option] = []
    cards = s.cards
    acting = table.acting(s)
    purse: Purse | None = None
    for uid in cards_in(s, table.seat_key(seat, "hand")):
        if uid not in acting:
            continue  # a card whose text has no Actions offers none
        code = cards[uid].code
        card = table.definition(code)
        if card.type != "event":
            continue
        registered = _ACTIONS.get(code)
        for i, action in enumerate(text_of(code).actions):
            if action is registered:
                playable, phase, cost = ACTION_EVENTS[code]
                if purse is None:
                    purse = Purse(s, seat)
                usable = _usable(s, seat, uid, playable, phase, cost, purse)  # it lies in the hand
            else:
                usable = action.available(s, uid, seat)
            if usable:
                options.append(Option(f"{uid}.{i}", f"Play {card.name}: {action.label}", uid))
    return options


# -- Response events ---------------------------------------------------------------------


def response_event(
    code: str,
    on: type[Event] | tuple[type[Event], ...],
    when: TriggerTest,
    effect: Node,
    prompt: str,
    playable: Playable = _always,
    bind: Callable[[LcgState, Event, Uid], dict[str, Any]] | None = None,
    still: Callable[[Runtime], bool] | None = None,
    cost: Cost = PRINTED,
) -> None:
    """Register a Response event: after an event ``on`` for which ``when`` holds, its
    owner may play it from hand (if they can pay, and ``playable``). ``still`` checks, as
    the owner is asked, that the moment has not passed (another response changed it)."""

    def can_play(s: LcgState, uid: Uid) -> bool:
        seat = table.owner_of(s, uid)
        return _affordable(s, seat, uid, cost) and playable(s, seat, uid)

    def ask(rt: Runtime) -> Ask | None:
        s = st(rt)
        uid, seat = SELF(rt), PLAYER(rt)
        if s.players[seat].eliminated or s.cards[uid].zone != table.seat_key(seat, "hand"):
            return None
        if not _affordable(s, seat, uid, cost) or (still is not None and not still(rt)):
            return None
        name = table.name(s, uid)
        return Ask(seat, f"{name}: {prompt}", [Option("yes", f"Play {name}", uid), Option("no", "No", uid)])

    offer = Decide(
        ask,
        "use",
        If(lambda rt: rt.env["use"] == "yes", play(effect, f"{code}.response", cost)),
        rule="lcg.event.response",
    )

    text(code, responses=(Trigger(on, when, offer, zone="hand", bind=bind, condition=can_play),))
