"""Choosing cards, as every game's effect vocabulary asks it (see domain/kernel/steps.py).

A text says "choose 2 characters": the seat is asked for that many of the cards that
qualify (all of them if fewer do), each offered as the game labels a card; nothing is
asked when no card qualifies. What was chosen is read back from the binding by
:func:`chosen`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from domain.kernel.decisions import Option
from domain.kernel.flow import Ask
from domain.kernel.runtime import Runtime
from domain.kernel.steps import Get, ask_to_choose, resolve


def card_question(
    seat: Get[str],
    prompt: str,
    candidates: Callable[[Runtime], Iterable[int]],
    option: Callable[[Runtime, int], Option],
    count: int | Get[int],
    optional: bool,
    *,
    skip_if_none_wanted: bool = False,
) -> Callable[[Runtime], Ask | None]:
    """The question "``seat`` chooses ``count`` of ``candidates``", asked of the table as it
    stands: None (nothing to ask) when no card qualifies, and with ``skip_if_none_wanted``
    when ``count`` comes to none. ``option`` offers a card."""

    def ask(rt: Runtime) -> Ask | None:
        uids = list(candidates(rt))
        if not uids:
            return None
        n = min(resolve(count, rt), len(uids))
        if skip_if_none_wanted and n <= 0:
            return None
        return ask_to_choose(seat(rt), prompt, [option(rt, u) for u in uids], n, optional)

    return ask


def chosen(rt: Runtime, bind: str) -> list[int]:
    """The cards a card question bound to ``bind``: none for ``none``, each of a list, or
    the one card (several joined by commas when one option stood for all of them)."""
    value = rt.env.get(bind)
    if value is None or value == "none":
        return []
    if isinstance(value, list):
        return [int(v) for v in value]
    return [int(v) for v in str(value).split(",") if v]
