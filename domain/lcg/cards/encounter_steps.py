"""Steps that several encounter texts of the Core scenarios share."""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.effects import st
from domain.lcg.rules import table


def shuffle_encounter_deck(rt: Runtime) -> Event:
    return ev.DeckShuffled(zone="encounter.deck", order=tuple(rt.shuffle(st(rt).zone("encounter.deck"))))


def remove_progress(rt: Runtime, amount: int) -> Event | None:
    """The current quest card loses ``amount`` progress (all it has, if fewer)."""
    stage = table.quest_card(st(rt))
    if stage is None:
        return None
    n = min(amount, st(rt).cards[stage].progress)
    return xev.ProgressRemoved(card=stage, amount=n) if n > 0 else None
