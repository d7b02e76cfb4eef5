"""Who plays what: the options a new game is made from, validated.

A game is a scenario (its seats, decks and locations) plus the readings of the disputed
rules (:class:`~domain.wotr.state.RuleOptions`, documented in ``open_questions.md``).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.kernel.ruleset import SetupError
from domain.wotr.scenarios import SCENARIOS, load, scenario
from domain.wotr.state import DeckSetup, Options, RuleOptions

CHOICES: dict[str, tuple[str, ...]] = {
    "excess_hand": ("cycle", "keep"),
    "play_cost": ("cycle", "cycle-or-forsake"),
    "empty_combat": ("defender", "nobody"),
}


def scenario_keys() -> list[str]:
    load()
    return sorted(SCENARIOS)


def rule_options(values: Mapping[str, object] | None = None) -> RuleOptions:
    values = dict(values or {})
    unknown = set(values) - {*CHOICES, "when_played_in_reserve"}
    if unknown:
        raise SetupError(
            f"unknown rule option(s) {sorted(unknown)}; known: {', '.join([*CHOICES, 'when_played_in_reserve'])}"
        )
    for key, allowed in CHOICES.items():
        if key in values and values[key] not in allowed:
            raise SetupError(f"rule option {key} must be one of {', '.join(allowed)}, not {values[key]!r}")
    flag = values.pop("when_played_in_reserve", False)
    if not isinstance(flag, bool):
        raise SetupError("rule option when_played_in_reserve must be true or false")
    return RuleOptions(**{k: str(v) for k, v in values.items()}, when_played_in_reserve=flag)


def wotr_options(scenario_key: str, rules: Mapping[str, object] | None = None) -> Options:
    """Validated options for a new game; raises :class:`SetupError` with the reason."""
    try:
        chosen = scenario(scenario_key)
    except KeyError as error:
        raise SetupError(str(error.args[0])) from None
    decks = tuple(DeckSetup(d.seat, d.team, d.factions, d.cards) for d in chosen.seats)
    return Options(scenario=chosen.key, decks=decks, rules=rule_options(rules))
