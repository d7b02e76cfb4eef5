"""War of the Ring: The Card Game, as a ruleset the kernel can run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.engine import engine
from domain.kernel.events import Event
from domain.kernel.ruleset import Ruleset
from domain.wotr import events as wotr_events
from domain.wotr.cards import load_texts
from domain.wotr.rules import table
from domain.wotr.state import Options, WotrState

load_texts()

from domain.wotr.bot import decisions as bot_decisions  # noqa: E402
from domain.wotr.bot import procedures as bot_procedures  # noqa: E402,F401  (register programs)
from domain.wotr.rules import procedures, redraw, round, setup, triggers  # noqa: E402,F401  (register programs)
from domain.wotr.scenarios import scenario  # noqa: E402


class WotrRules(Ruleset[WotrState]):
    name = "wotr"
    state_type = WotrState
    events = wotr_events.EVENTS
    appliers = wotr_events.APPLIERS.table
    root = "wotr.game"
    redraw = "wotr.take-back.redraw"
    rules_version = 1
    """Bump with a line in RULES_CHANGELOG.md when a rule change alters re-execution."""
    changelog = Path(__file__).with_name("RULES_CHANGELOG.md")
    position_event: type[Event] | None = wotr_events.PositionSet

    def after(self, rt: Any, event: Event) -> None:
        triggers.after(rt, event)

    def played_by_rules(self, rt: Any, ask: Any) -> Any:
        """Against the Shadow: a Shadow bot seat is played by the rules (``domain/wotr/bot``)."""
        state: WotrState = rt.state
        return bot_decisions.answer(rt, ask) if state.is_bot(ask.seat) else None

    def seats(self, state: WotrState) -> list[str]:
        return state.seats()

    def played_by_people(self, state: WotrState) -> list[str]:
        return [seat for seat in state.seats() if not state.is_bot(seat)]

    def card_name(self, state: WotrState, uid: int) -> str:
        return table.name(state, uid) if uid in state.cards else f"card {uid}"

    def created(self, options: Options, seed: int) -> wotr_events.GameCreated:
        chosen = scenario(options.scenario)
        # Against the Shadow: the Shadow bots do not receive Ring tokens (seed 003, Setup).
        rings = tuple(d.seat for d in chosen.seats if d.ring and d.seat not in options.bots)
        return wotr_events.GameCreated(
            seed=seed,
            rules_version=self.rules_version,
            engine=engine(),
            options=options,
            order=chosen.order,
            rings=rings,
        )


WOTR = WotrRules()
