"""The Lord of the Rings: The Card Game, as a ruleset the kernel can run."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from domain.engine import engine
from domain.kernel.events import Event
from domain.kernel.ruleset import Ruleset
from domain.lcg import events as lcg_events
from domain.lcg.cards import CARDS, load_texts
from domain.lcg.encounter_events import ENCOUNTER_EVENTS
from domain.lcg.hobbit_events import HOBBIT_EVENTS
from domain.lcg.state import LcgState, Options

load_texts()

from domain.lcg.rules import keywords, procedures, redraw, round, setup, ship_keywords, triggers  # noqa: E402,F401
from domain.lcg.scenarios import load as load_scenarios  # noqa: E402

load_scenarios()


class LcgRules(Ruleset[LcgState]):
    name = "lcg"
    state_type = LcgState
    events = lcg_events.EVENTS + ENCOUNTER_EVENTS + HOBBIT_EVENTS
    appliers = lcg_events.APPLIERS.table
    root = "lcg.game"
    redraw = "lcg.take-back.redraw"
    rules_version = 13
    """Bump with a line in RULES_CHANGELOG.md when a rule change alters re-execution."""
    changelog = Path(__file__).with_name("RULES_CHANGELOG.md")
    position_event: type[Event] | None = lcg_events.PositionSet
    told: ClassVar[dict[type[Event], str]] = {
        lcg_events.SharedValueLearned: "lcg.epic.organizer-report",
        lcg_events.EffectArrived: "lcg.epic.relayed-effect",
    }

    after = staticmethod(triggers.after)
    """What an event sets off: the compiled function itself, not a method calling it
    (the runtime calls it after every event)."""

    def seats(self, state: LcgState) -> list[str]:
        return list(state.order)

    def card_name(self, state: LcgState, uid: int) -> str:
        card = state.cards.get(uid)
        return CARDS[card.code].name if card is not None else f"card {uid}"

    def created(self, options: Options, seed: int) -> lcg_events.GameCreated:
        seats = tuple(f"p{i + 1}" for i in range(len(options.players)))
        return lcg_events.GameCreated(
            seed=seed, rules_version=self.rules_version, engine=engine(), options=options, seats=seats
        )


LCG = LcgRules()
