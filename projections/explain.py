"""Explain an event: walk its causes back to the decisions and rules it came from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.events import DecisionAnswered, DecisionRequested, Event
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import fold
from projections.arithmetic import comparison, rulebook, working
from projections.i18n import _, pgettext, say
from projections.prompts import translate
from projections.story import Namer, describe


@dataclass
class Because:
    """One link of a cause chain: the event, why it happened, and what led to it."""

    seq: int
    text: str
    rule: str
    card: str | None
    led_by: list[Because] = field(default_factory=list)
    working: list[str] = field(default_factory=list)
    """The numbers the step was decided by (a threat against an engagement cost...)."""
    section: str = ""
    """The rulebook section the rule reference stands for."""


def explain(rules: Ruleset[Any], events: Sequence[Event], seq: int, depth: int = 12) -> Because:
    """The cause tree of event ``seq`` (1-based), following ``by`` and ``answer`` links."""
    if not 1 <= seq <= len(events):
        raise IndexError(
            say("event %(seq)s is out of range: the game has events 1 to %(last)s", seq=seq, last=len(events))
        )
    seen: set[int] = set()

    def node(n: int, left: int) -> Because:
        event = events[n - 1]
        state = fold(rules, events[:n])
        name = Namer(rules, state)
        cause = event.cause
        text = describe(event, name)
        if isinstance(event, DecisionAnswered):
            asked = events[event.decision - 1]
            if isinstance(asked, DecisionRequested):
                chosen = [translate(o.label) for o in asked.decision.options if o.id in event.choice]
                text = say(
                    "%(seat)s chose %(chosen)s (%(prompt)s)",
                    seat=event.seat,
                    chosen=pgettext("list", ", ").join(chosen) or _("nothing"),
                    prompt=translate(asked.decision.prompt),
                )
        here = Because(n, text, cause.rule, name.name(cause.card) if cause.card is not None else None)
        here.working = working(rules, event, fold(rules, events[: n - 1]), state)
        here.section = rulebook(cause.rule)
        seen.add(n)
        if left > 0:
            for link in (cause.answer, cause.by, comparison(events, n) if cause.by is None else None):
                if link is not None and link not in seen and 1 <= link < n:
                    here.led_by.append(node(link, left - 1))
        return here

    return node(seq, depth)


def lines(tree: Because, indent: int = 0) -> list[str]:
    card = say(", text of %(card)s", card=tree.card) if tree.card else ""
    section = f"; {tree.section}" if tree.section else ""
    head = say("event %(seq)s: %(text)s", seq=tree.seq, text=tree.text)
    out = [f"{'  ' * indent}{'<- ' if indent else ''}{head}   [{tree.rule}{card}{section}]"]
    out += [f"{'  ' * indent}     = {line}" for line in tree.working]
    for child in tree.led_by:
        out += lines(child, indent + 1)
    return out
