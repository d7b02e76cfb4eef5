"""Step builders every game's effect vocabulary starts from.

A game's ``effects`` module writes its card texts and rules with these and adds its own
words (dealing damage, cycling a card) beside them. An argument that depends on the
table is a function of the runtime (:data:`Get`); a plain value is accepted where a text
prints a number, and :func:`resolve` reads either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from domain.kernel.decisions import Kind, Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Do
from domain.kernel.runtime import Runtime

T = TypeVar("T")
Get = Callable[[Runtime], T]


def var(name: str) -> Get[Any]:
    """The value an earlier step bound to ``name``."""
    return lambda rt: rt.env[name]


def card_var(name: str) -> Get[int]:
    """The card uid an earlier step bound to ``name`` (option ids of cards are decimal uids)."""
    return lambda rt: int(rt.env[name])


def resolve(value: T | Get[T], rt: Runtime) -> T:
    """A plain value as it is, or what a :data:`Get` reads from the table now."""
    return value(rt) if callable(value) else value


def emit(make: Callable[[Runtime], Event | None], rule: str | None = None) -> Do:
    """A rule step that emits the event ``make`` builds, or nothing if it returns None."""

    def step(rt: Runtime) -> None:
        event = make(rt)
        if event is not None:
            rt.emit(event)

    return Do(step, rule)


def ask_to_choose(seat: str, prompt: str, options: list[Option], n: int, optional: bool) -> Ask:
    """Ask ``seat`` to choose ``n`` of ``options`` (``n`` no more than there are); with
    ``optional`` it may choose none instead."""
    if n == 1 and not optional:
        return Ask(seat, prompt, options)
    if n == 1:
        return Ask(seat, prompt, [*options, Option("none", "None")])
    if n == len(options) and not optional:
        return Ask(seat, prompt, options, Kind.MANY, min=n, max=n)
    return Ask(seat, prompt, options, Kind.MANY, min=0 if optional else n, max=n)
