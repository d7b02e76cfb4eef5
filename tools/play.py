"""Play in the terminal: the table, the decision, numbered options; bots take other seats.

Each decision is shown to the seat that must answer it, with that seat's view of the
table only. Answers are saved as they are given, so quitting loses nothing: ``play``
again resumes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from typing import Any, TextIO

from domain.kernel.decisions import Choice, Decision, Kind, RuleError

HELP = """Answer with the option numbers:
  one option:        3
  several options:   1,4,5   (an empty line chooses none, where none is allowed)
  an order:          2,1,3   (every option, first to last)
  a number:          the number itself
  q quits (everything answered so far is saved), ? shows this help"""


class Quit(Exception):
    pass


def parse_answer(decision: Decision, text: str) -> Choice:
    """Turn what the player typed into option ids; ValueError says what is wrong."""
    text = text.strip()
    if decision.kind is Kind.NUMBER:
        int(text)
        return (text,)
    if not text:
        if decision.kind is Kind.MANY and decision.min == 0:
            return ()
        raise ValueError("type the number of an option")
    picks = []
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        n = int(part)
        if not 1 <= n <= len(decision.options):
            raise ValueError(f"there is no option {n}; choose 1 to {len(decision.options)}")
        picks.append(decision.options[n - 1].id)
    return tuple(picks)


def _how_many(decision: Decision) -> str:
    low, high = decision.min, decision.max
    if low == high:
        return f"choose {low}, separated by commas" if low > 1 else "choose 1"
    if low == 0:
        return f"choose up to {high}, separated by commas, or press Enter for none"
    return f"choose {low} to {high}, separated by commas"


def show_decision(decision: Decision, out: TextIO) -> None:
    shape = {
        Kind.ONE: "choose one",
        Kind.MANY: _how_many(decision),
        Kind.ORDER: "put every option in order",
        Kind.NUMBER: f"a number from {decision.min} to {decision.max}",
    }[decision.kind]
    out.write(f"\n{decision.seat}: {decision.prompt} ({shape})\n")
    for i, option in enumerate(decision.options, start=1):
        out.write(f"  {i:2}. {option.label}\n")


def ask_human(
    decision: Decision,
    table: str,
    submit: Callable[[Choice], None],
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> None:
    """Show the table and the decision, read answers until one is accepted."""
    out = out or sys.stdout
    out.write("\n" + "=" * 78 + "\n" + table + "\n")
    show_decision(decision, out)
    while True:
        try:
            text = read("> ")
        except EOFError:
            raise Quit from None
        if text.strip() in ("q", "quit", "exit"):
            raise Quit
        if text.strip() in ("?", "help"):
            out.write(HELP + "\n")
            continue
        try:
            choice = parse_answer(decision, text)
            submit(choice)
            return
        except ValueError as error:
            out.write(f"  not understood: {error}\n")
        except RuleError as error:
            out.write(f"  refused: {error}\n")


def play(
    state: Callable[[], Any],
    submit: Callable[[Decision, Choice], None],
    view: Callable[[str], Any],
    render: Callable[[Any], str],
    bots: dict[str, Any],
    humans: set[str] | None,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    recent: Callable[[str], list[str]] | None = None,
) -> Any:
    """Drive a game to its end (or until the player quits); returns its outcome.

    ``recent(seat)`` gives what happened since that seat last decided, as the seat may
    see it; it is shown above the table before each of the seat's decisions.
    """
    out = out or sys.stdout
    while True:
        current = state()
        decision = current.pending
        if decision is None:
            out.write("\n" + render(view("referee" if current.over else "spectator")) + "\n")
            return current.over
        seat = decision.seat
        if seat in bots:
            bot = bots[seat]
            submit(decision, bot.choose(decision, partial(view, seat)))
            continue
        if humans is not None and seat not in humans:
            out.write(f"\nwaiting for {seat}, who is not played here\n")
            return None
        table = render(view(seat))
        if recent is not None:
            lines = recent(seat)
            if lines:
                table = "Since your last decision:\n" + "\n".join(f"  {line}" for line in lines) + "\n\n" + table
        try:
            ask_human(decision, table, partial(submit, decision), read, out)
        except Quit:
            out.write("\nsaved; run play again to resume\n")
            return None
