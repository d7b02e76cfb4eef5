"""The story of a game: one readable line per event, with its cause.

This is the referee's (audit) view: it names every card. Per-seat projections decide
what a player may see before anything reaches them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from domain.kernel.events import (
    DecisionAnswered,
    DecisionRequested,
    DelayedEffectScheduled,
    Event,
    GameEnded,
    LimitUsed,
    ModifierAdded,
    ScopeEnded,
)
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.kernel.state import State


class Namer:
    """Turns card uids into names, given the state the event was applied to."""

    def __init__(self, rules: Ruleset[Any], state: State) -> None:
        self.rules, self.state = rules, state

    def card(self, uid: int | None) -> str:
        if uid is None:
            return "-"
        return f"{self.rules.card_name(self.state, uid)}#{uid}"

    def cards(self, uids: Iterable[int]) -> str:
        return ", ".join(self.card(u) for u in uids) or "nothing"


def describe(event: Event, name: Namer) -> str:
    """A one-line account of ``event`` (the state must already include it)."""
    match event:
        case DecisionRequested(decision=d):
            return f"{d.seat} must decide: {d.prompt} [{len(d.options)} options]"
        case DecisionAnswered(seat=seat, choice=choice):
            return f"{seat} answered {', '.join(choice) or '(nothing)'}"
        case ModifierAdded(modifier=m):
            sign = "+" if m.amount >= 0 else ""
            return f"{name.card(m.target)} gets {sign}{m.amount} {m.stat} until the end of the {m.until}"
        case DelayedEffectScheduled(delayed=d):
            return f"at the end of the {d.at}: {d.node}"
        case LimitUsed(key=key, until=until):
            return f"limit used ({key}) until the end of the {until}"
        case ScopeEnded(scope=scope):
            return f"end of the {scope}: lasting effects lapse"
        case GameEnded(outcome=o):
            return f"GAME OVER: {o.result} ({o.reason})"
    fields: list[str] = []
    for field in event.__struct_fields__:
        if field in ("seq", "cause", "flow", "draws", "hash"):
            continue
        value: Any = getattr(event, field)
        if field in ("card", "enemy", "defender", "to", "location", "wielder") and isinstance(value, int):
            value = name.card(value)
        elif field in ("cards", "attackers", "order") and isinstance(value, tuple):
            if field == "order" or not all(isinstance(v, int) for v in value):
                value = f"{len(value)} cards"
            else:
                value = name.cards(value)
        elif field == "options":
            value = "…"
        fields.append(f"{field}={value}")
    return f"{type(event).__name__}({', '.join(fields)})"


def story(rules: Ruleset[Any], events: Iterable[Event]) -> Iterator[tuple[Event, str]]:
    """Each event with its line, folding as it goes so names resolve."""
    state = rules.new_state()
    namer = Namer(rules, state)
    for event in events:
        apply(rules, state, event)
        yield event, describe(event, namer)


def cause_text(event: Event, name: Namer) -> str:
    c = event.cause
    parts = [c.rule]
    if c.card is not None:
        parts.append(f"card {name.card(c.card)}")
    if c.by is not None:
        parts.append(f"after #{c.by}")
    if c.answer is not None:
        parts.append(f"answer #{c.answer}")
    return "; ".join(parts)
