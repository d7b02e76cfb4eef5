"""Epic Multiplayer: card texts that act "in any group".

Rules (The Hunt for the Dreadnaught rulebook, "Epic Multiplayer Mode"): some card effects
say "(in any group)"; in an epic event they may affect a card in another group's game. Outside
an epic event a text "in any group" means this group (there is no other).

A group's game cannot reach into another's, so the effect crosses through the event
organizer: the acting player picks the group; aimed elsewhere, the group records
:class:`~domain.lcg.events.EffectSent` (naming the group and the effect), the organizer
relays it, and the target group's log records :class:`~domain.lcg.events.EffectArrived`
with its cause (the source group and its event). There the effect resolves as a rule step
of that game; the card it lands on is picked by that group's first player, since the acting
player cannot see that table (``domain/lcg/open_questions.md``). Each group's log so stays
self-sufficient: it replays, forks and verifies alone.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.decisions import Option
from domain.kernel.flow import Ask, Decide, If, Node, register
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import FIRST_PLAYER, choose, emit, st
from domain.lcg.rules import ship_keywords
from domain.lcg.state import LcgState, Seat, Uid

RELAYED_RULE = "lcg.epic.relayed-effect"
Targets = Callable[[Runtime], list[Uid]]


def other_groups(s: LcgState) -> list[int]:
    """The numbers of the other groups of this group's epic event (none outside one)."""
    options = s.options
    if options is None or options.epic_groups < 2:
        return []
    return [g for g in range(1, options.epic_groups + 1) if g != options.epic_group]


def in_any_group(
    seat: Callable[[Runtime], Seat], prompt: str, effect: str, amount: int, here: Targets, body: Callable[[], Node]
) -> Node:
    """A text "in any group": ``body`` makes the text's nodes acting in this group (whose
    possible targets are ``here``); in an epic event ``seat`` first picks the group, and another group's pick
    sends ``effect`` with ``amount`` to it. This group is offered only if it has a target."""

    def ask(rt: Runtime) -> Ask | None:
        s = st(rt)
        mine = [Option("here", f"this group (group {s.options.epic_group})")] if here(rt) and s.options else []
        options = mine + [Option(str(g), f"group {g}") for g in other_groups(s)]
        return Ask(seat(rt), prompt, options) if options else None

    def sent(rt: Runtime) -> ev.EffectSent:
        return ev.EffectSent(group=int(rt.env["group"]), effect=effect, amount=amount)

    return If(
        lambda rt: bool(other_groups(st(rt))),
        Decide(ask, "group", If(lambda rt: rt.env["group"] == "here", body(), emit(sent)), auto_single=True),
        body(),
    )


def relayed(effect: str, prompt: str, targets: Targets, body: Callable[[Callable[[Runtime], Uid]], Node]) -> None:
    """How ``effect`` resolves in the group it was sent to: the first player picks one of
    ``targets`` (nothing happens without one), then ``body`` acts on it; the amount sent is
    bound as ``amount``."""
    program = f"lcg.epic.relayed.{effect}"
    register(
        program,
        choose(FIRST_PLAYER, prompt, targets, "target", body(lambda rt: int(rt.env["target"]))),
        rule=RELAYED_RULE,
    )

    def args(s: LcgState, e: object) -> dict[str, object] | None:
        return {"amount": e.amount} if isinstance(e, ev.EffectArrived) and e.effect == effect else None

    ship_keywords.hook(ev.EffectArrived, program, args)


def sent_amount(rt: Runtime) -> int:
    """The amount a relayed effect was sent with."""
    return int(rt.env["amount"])
