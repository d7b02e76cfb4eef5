"""Decisions are data: who decides, what kind of choice, and the legal options.

A client, a bot and a test all answer a decision the same way: with a tuple of option
ids. :func:`check_choice` is the single gate every answer passes before anything is
appended; it raises a typed error naming the decision and the offending choice.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec


class Kind(StrEnum):
    """The shape of an answer."""

    ONE = "one"  # exactly one option
    MANY = "many"  # between min and max distinct options ("choose zero or more")
    ORDER = "order"  # every option, in an order of the seat's choosing
    NUMBER = "number"  # one integer between min and max, given as its decimal string


class Option(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A legal option. ``id`` is stable for the life of the decision; ``card`` names
    the card the option is about, if any, so a client can show it."""

    id: str
    label: str
    card: int | None = None


class Decision(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A pending choice. ``id`` is the seq of the event that asked it."""

    id: int
    seat: str
    kind: Kind
    prompt: str
    rule: str
    options: tuple[Option, ...] = ()
    min: int = 1
    max: int = 1
    about: int | None = None
    """The card the decision is about (the attacking enemy, the card being paid for)."""

    def option(self, option_id: str) -> Option | None:
        for option in self.options:
            if option.id == option_id:
                return option
        return None


Choice = tuple[str, ...]


class RuleError(Exception):
    """Base of every error a command can raise. Nothing is appended when it is raised."""


class NoDecisionPending(RuleError):
    def __init__(self, game_over: bool) -> None:
        self.game_over = game_over
        super().__init__("the game is over" if game_over else "no decision is pending")


class UnknownDecision(RuleError):
    """The answer names a decision that is not the pending one (stale or made up)."""

    def __init__(self, given: int, pending: int) -> None:
        self.given, self.pending = given, pending
        super().__init__(f"decision {given} is not pending; the pending decision is {pending}")


class NotYourDecision(RuleError):
    def __init__(self, decision: Decision, seat: str) -> None:
        self.decision, self.seat = decision, seat
        super().__init__(f"decision {decision.id} ({decision.rule}) is for seat {decision.seat}, not {seat}")


class IllegalChoice(RuleError):
    """The choice is not among the legal answers of the decision."""

    def __init__(self, decision: Decision, choice: Choice, reason: str) -> None:
        self.decision, self.choice, self.reason = decision, choice, reason
        super().__init__(
            f"illegal choice {list(choice)!r} for decision {decision.id} "
            f"({decision.rule}, {decision.kind.value}): {reason}"
        )


def check_choice(decision: Decision, choice: Choice) -> None:
    """Raise :class:`IllegalChoice` unless ``choice`` answers ``decision`` legally."""
    kind = decision.kind
    if kind is Kind.ONE and len(choice) == 1:
        wanted = choice[0]
        for option in decision.options:
            if option.id == wanted:
                return  # the commonest answer, legal: the checks below would pass it
    if kind is Kind.NUMBER:
        if len(choice) != 1:
            raise IllegalChoice(decision, choice, "give exactly one number")
        try:
            value = int(choice[0])
        except ValueError:
            raise IllegalChoice(decision, choice, f"{choice[0]!r} is not a number") from None
        if str(value) != choice[0] or not decision.min <= value <= decision.max:
            raise IllegalChoice(decision, choice, f"give a whole number from {decision.min} to {decision.max}")
        return
    ids = {option.id for option in decision.options}
    unknown = [c for c in choice if c not in ids]
    if unknown:
        raise IllegalChoice(decision, choice, f"unknown option {unknown[0]!r}")
    if len(set(choice)) != len(choice):
        raise IllegalChoice(decision, choice, "an option is given twice")
    if decision.kind is Kind.ONE:
        if len(choice) != 1:
            raise IllegalChoice(decision, choice, "choose exactly one option")
    elif decision.kind is Kind.MANY:
        if not decision.min <= len(choice) <= decision.max:
            raise IllegalChoice(decision, choice, f"choose from {decision.min} to {decision.max} options")
    elif decision.kind is Kind.ORDER and len(choice) != len(ids):
        raise IllegalChoice(decision, choice, "order every option")
