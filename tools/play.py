"""Play in the terminal: the table, the decision, numbered options; bots take other seats.

Each decision is shown to the seat that must answer it, with that seat's view of the
table only. Answers are saved as they are given, so quitting loses nothing: ``play``
again resumes. Beside a decision the table shows what it turns on: the text of the card
that caused it, the totals (willpower against threat, hit points left, a combat's icons)
and, on demand, any card's whole text (``?NAME``, ``? 3``).
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

import projections.card_names
from bots import is_action_window
from domain.kernel.decisions import Choice, Decision, IllegalChoice, Kind, Option, RuleError
from projections.i18n import N_, _, card_name, say
from projections.prompts import error_text, translate
from projections.story import collapse

HELP = N_("""Answer with the option numbers:
  one option:        3
  several options:   1,4,5   (an empty line chooses none, where none is allowed)
  an order:          2,1,3   (every option, first to last)
  a number:          the number itself
Other keys:
  ?NAME or ? NAME    a card's whole text, stats and state (? Forest Spider)
  ? 3                the card of option 3
  t                  the whole table (after a seat's first decision, only what changed
                     since its last one is shown)
  a                  auto-pass on or off: pass every action window for you
  v                  the value of each answer: its chance of winning, estimated by
                     search from what you know (2 s; v 10: ten seconds)
  u                  take back your last decision (the game goes on from before it;
                     what was taken back is kept, and listed by: westmarch games)
  u SEAT             take back SEAT's last decision (on a server: consent to SEAT's
                     asking; it happens once every seat agrees, or the referee does it)
  q                  quit (everything answered so far is saved)
  h                  this help""")

CLOSING_OPTIONS = ("pass", "done", "skip", "no", "undefended")
"""Option ids that end a choice; they stay last when options are put in a stable order."""


HINT_SECONDS = 2.0
"""CPU seconds of search behind the ``v`` key when no other time is typed."""
HINT_MOST = 60.0

Hint = Callable[[Decision, float], Any]
"""The values of a decision's answers (a :class:`bots.analysis.Analysis`) from ``seconds`` of
search; raises ``ValueError`` saying why there are none."""


class Quit(Exception):
    pass


class TakeBack(Exception):
    """The player asked to take back a seat's last decision (``""``: their own)."""

    def __init__(self, seat: str = "") -> None:
        super().__init__(seat)
        self.seat = seat


@dataclass(frozen=True)
class Screen:
    """How one game's table is shown: the renderer and its aids (tools/render_*.py)."""

    render: Callable[[Any], str]
    cards: Callable[[Any], list[Any]]
    card_text: Callable[[Any], str]
    option_note: Callable[[Any, Decision, Option], str]
    notes: Callable[[Any, Decision], list[str]]
    score: Callable[[Any], str]
    printed: Callable[[str], list[Any]]
    """Cards of the game whose name starts with a text, as printed (for cards not in sight)."""


def screen(game: str) -> Screen:
    """The terminal screen of a ruleset (``lcg`` or ``wotr``)."""
    if game == "wotr":
        from tools import render_wotr as r
    else:
        from tools import render_lcg as r  # type: ignore[no-redef]
    return Screen(r.render, r.cards, r.card_text, r.option_note, r.notes, r.score, r.printed)


@dataclass
class Seating:
    """Who answers what at this table; ``auto_pass`` may change during play."""

    bots: dict[str, Any] = field(default_factory=dict)
    humans: set[str] | None = None
    auto_pass: bool = False
    on_change: Callable[[Seating], None] | None = None
    shared: bool = False
    """Several seats are played at this terminal: every screen says whose hand it shows."""


def ordered(decision: Decision) -> list[Option]:
    """The options as numbered on screen: by label (so an option keeps its number from one
    decision to the next), closing options (Pass, Done...) last; an order, a yes/no and
    short lists stay as the rules give them."""
    options = list(decision.options)
    if decision.kind is Kind.ORDER or len(options) <= 2:
        return options
    return sorted(options, key=lambda o: (o.id in CLOSING_OPTIONS, o.label.casefold()))


def parse_answer(decision: Decision, text: str, options: list[Option] | None = None) -> Choice:
    """Turn what the player typed into option ids; ValueError says what is wrong."""
    options = options if options is not None else list(decision.options)
    text = text.strip()
    span = say("type a number from 1 to %(n)s", n=len(options))
    if decision.kind is Kind.NUMBER:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(
                say("type a number from %(low)s to %(high)s", low=decision.min, high=decision.max)
            ) from None
        if not decision.min <= value <= decision.max:
            raise ValueError(say("type a number from %(low)s to %(high)s", low=decision.min, high=decision.max))
        return (str(value),)
    if not text:
        if decision.kind is Kind.MANY and decision.min == 0:
            return ()
        raise ValueError(span)
    picks = []
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        if not part.isdigit():
            raise ValueError(say("%(part)s is not an option: %(span)s (h for help)", part=repr(part), span=span))
        n = int(part)
        if not 1 <= n <= len(options):
            raise ValueError(say("there is no option %(n)s: %(span)s", n=n, span=span))
        picks.append(options[n - 1].id)
    if len(set(picks)) != len(picks):
        raise ValueError(_("an option is given twice"))
    if decision.kind is Kind.ONE and len(picks) != 1:
        raise ValueError(say("choose one option: %(span)s", span=span))
    if decision.kind is Kind.MANY and not decision.min <= len(picks) <= decision.max:
        wanted = (
            str(decision.min)
            if decision.min == decision.max
            else say("%(low)s to %(high)s", low=decision.min, high=decision.max)
        )
        raise ValueError(
            say("choose %(wanted)s options, separated by commas (you gave %(given)s)", wanted=wanted, given=len(picks))
        )
    if decision.kind is Kind.ORDER and len(picks) != len(options):
        raise ValueError(
            say(
                "put all %(n)s options in order, separated by commas (you gave %(given)s)",
                n=len(options),
                given=len(picks),
            )
        )
    return tuple(picks)


def _how_many(decision: Decision) -> str:
    low, high = decision.min, decision.max
    if low == high:
        return say("choose %(n)s, separated by commas", n=low) if low > 1 else _("choose 1")
    if low == 0:
        return say("choose up to %(n)s, separated by commas, or press Enter for none", n=high)
    return say("choose %(low)s to %(high)s, separated by commas", low=low, high=high)


def show_decision(
    decision: Decision,
    out: TextIO,
    table: Any = None,
    shown: Screen | None = None,
    options: list[Option] | None = None,
    cause: int | None = None,
) -> None:
    """The prompt, what it turns on, and the numbered options. ``cause`` is the card whose
    text asks the question, if any: its text is shown unless the prompt already shows it."""
    shape = {
        Kind.ONE: _("choose one"),
        Kind.MANY: _how_many(decision),
        Kind.ORDER: _("put every option in order"),
        Kind.NUMBER: say("a number from %(low)s to %(high)s", low=decision.min, high=decision.max),
    }[decision.kind]
    out.write(f"\n{decision.seat}: {translate(decision.prompt)} ({shape})\n")
    if table is not None and shown is not None:
        for line in shown.notes(table, decision):
            out.write(line + "\n")
        cards = shown.cards(table)
        told = {decision.about}
        if decision.about is None:
            for card in named_in(decision, cards):
                out.write(f"  {card_name(card.name)}: {card.text}\n")
                told.add(card.uid)
        caused = next((c for c in cards if c.uid == cause), None) if cause not in told else None
        if caused is not None and caused.text:
            out.write(
                "  "
                + say("(asked by the text of %(card)s: %(text)s)", card=card_name(caused.name), text=caused.text)
                + "\n"
            )
    for i, option in enumerate(options if options is not None else decision.options, start=1):
        note = shown.option_note(table, decision, option) if table is not None and shown is not None else ""
        out.write(f"  {i:2}. {translate(option.label)}{f'  ({note})' if note else ''}\n")


def named_in(decision: Decision, cards: list[Any]) -> list[Any]:
    """The cards a prompt names ("Use the response of Son of Arnor?", "Forest Gate: draw 2
    cards?"), each once: an option's card first, else any card in sight of that name."""
    by_uid = {c.uid: c for c in cards}
    options = [by_uid[o.card] for o in decision.options if o.card is not None and o.card in by_uid]
    found: dict[str, Any] = {}
    for card in [*options, *cards]:
        if card.text and card.name not in found and card.name in decision.prompt and card.type != "quest":
            found[card.name] = card
    return list(found.values())


def refusal(decision: Decision, error: RuleError) -> str:
    """A refused answer in the table's words: the options by label, never by id."""
    if isinstance(error, IllegalChoice):
        labels = [o.label if (o := decision.option(c)) is not None else c for c in error.choice]
        reason = error.reason
        for option in decision.options:
            reason = reason.replace(repr(option.id), repr(option.label))
        return f"{', '.join(labels) or _('nothing')}: {reason}"
    return str(error)


def printed_named(shown: Screen, query: str) -> list[Any]:
    """The game's cards as printed one of whose names (English, or a published edition's)
    starts with ``query``."""
    return [c for c in shown.printed("") if projections.card_names.name_starts(c.name, query)]


def find_card(table: Any, shown: Screen, query: str, options: list[Option]) -> str:
    """The text of the card a player asked about: ``3`` (option 3's card) or a name."""
    query = query.strip()
    found = shown.cards(table)
    if query.isdigit():
        n = int(query)
        if not 1 <= n <= len(options):
            return say(
                "there is no option %(n)s: %(span)s", n=n, span=say("type a number from 1 to %(n)s", n=len(options))
            )
        option = options[n - 1]
        card = next((c for c in found if c.uid == option.card), None) if option.card is not None else None
        if card is not None:
            return shown.card_text(card)
        if option.card is not None:  # a card the table does not lay out (a ship-objective set aside): as printed
            name = re.sub(r" \([^)]*\)$", "", option.label)
            printed = [c for c in printed_named(shown, name) if projections.card_names.is_named(c.name, name)]
            if printed:
                return (
                    say("%(card)s, as printed:", card=card_name(printed[0].name)) + "\n" + shown.card_text(printed[0])
                )
        return say("option %(n)s is not about a card you can see", n=n)
    # a card by any of its names: its English name in every language, its published name too
    named, begun = projections.card_names.is_named, projections.card_names.name_starts
    matches = [c for c in found if named(c.name, query)] or [c for c in found if begun(c.name, query)]
    asked = repr(query)
    if not matches:
        pool = printed_named(shown, query)
        exact = [c for c in pool if named(c.name, query)] or pool
        kinds = {c.name for c in exact}
        if len(kinds) == 1:
            head = say("no %(card)s is in sight; as printed:", card=card_name(exact[0].name))
            return head + "\n" + shown.card_text(exact[0])
        if kinds:
            could = ", ".join(sorted(card_name(k) for k in kinds))
            return say("no card named %(name)s is in sight; %(name)s could be %(cards)s", name=asked, cards=could)
        return say("no card named %(name)s is in sight, and none in this game's cards", name=asked)
    names = {c.name for c in matches}
    if len(names) > 1:
        could = ", ".join(sorted(card_name(k) for k in names))
        return say("%(name)s could be %(cards)s: type more of the name", name=asked, cards=could)
    return shown.card_text(matches[0])


def ask_human(
    decision: Decision,
    table_text: str,
    submit: Callable[[Choice], None],
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    table: Any = None,
    shown: Screen | None = None,
    seating: Seating | None = None,
    cause: int | None = None,
    whole: str | None = None,
    hint: Hint | None = None,
) -> None:
    """Show the table and the decision, read answers until one is accepted; ``t`` shows
    ``whole``, the whole table, when what was shown is only what changed; ``v`` the values
    of the answers (``hint``)."""
    out = out or sys.stdout
    options = ordered(decision)
    out.write("\n" + "=" * 78 + "\n" + table_text + "\n")
    show_decision(decision, out, table, shown, options, cause)
    while True:
        try:
            text = read("> ")
        except EOFError:
            raise Quit from None
        word = text.strip()
        if word in ("q", "quit", "exit"):
            raise Quit
        if word in ("h", "help", "?"):
            out.write(_(HELP) + "\n")
            continue
        if word in ("t", "table"):
            out.write((whole or table_text) + "\n")
            continue
        if word.startswith("?"):
            out.write((find_card(table, shown, word[1:], options) if shown else _("no table to look at")) + "\n")
            continue
        if word == "a" and seating is not None:
            seating.auto_pass = not seating.auto_pass
            if seating.on_change is not None:
                seating.on_change(seating)
            if seating.auto_pass:
                out.write("  " + _("auto-pass is on: action windows are passed for you") + "\n")
            else:
                out.write("  " + _("auto-pass is off") + "\n")
            continue
        if word == "v" or word.startswith("v "):
            out.write(values(decision, options, hint, word[1:].strip()) + "\n")
            continue
        if word in ("u", "undo") or word.startswith("u "):
            raise TakeBack(word[2:].strip() if word.startswith("u ") else "")
        try:
            choice = parse_answer(decision, text, options)
            submit(choice)
            return
        except ValueError as error:
            out.write(f"  {error}\n")
        except RuleError as error:
            out.write("  " + say("refused: %(why)s", why=error_text(refusal(decision, error))) + "\n")


def values(decision: Decision, options: list[Option], hint: Hint | None, asked: str) -> str:
    """The ``v`` key: each answer searched, best first, as it is typed at this prompt (the
    options' numbers on screen), with its chance of winning and a bar."""
    if hint is None:
        return "  " + _("no values at this table")
    try:
        seconds = float(asked) if asked else HINT_SECONDS
    except ValueError:
        return "  " + say("v %(asked)s: type v, or v and the seconds of search (v 10)", asked=asked)
    if not 0 < seconds <= HINT_MOST:
        return "  " + say("v %(asked)s: give from 1 to %(most)s seconds of search", asked=asked, most=f"{HINT_MOST:g}")
    sys.stdout.flush()
    try:
        found = hint(decision, seconds)
    except ValueError as error:
        return "  " + say("no values: %(error)s", error=error_text(str(error)))
    number = {o.id: str(n) for n, o in enumerate(options, start=1)}
    typed = [
        ",".join(number.get(c, c) for c in v.choice) if decision.kind is not Kind.NUMBER else v.choice[0]
        for v in found.options
    ]
    width = max(len(t) for t in typed) if typed else 1
    labels = [translate(v.label) for v in found.options]
    label = max(len(said) for said in labels) if labels else 1
    lines = [
        "  "
        + say(
            "chance of winning after each answer, from what %(seat)s knows (the cards hidden from %(seat)s sampled);"
            " %(rollouts)s rollouts, 95%% interval:",
            seat=found.knowledge,
            rollouts=found.rollouts,
        )
    ]
    for t, v, said in zip(typed, found.options, labels, strict=True):
        bar = "#" * round(20 * v.value) + "." * (20 - round(20 * v.value))
        lines.append(
            "    "
            + say("type %(typed)s", typed=f"{t:<{width}}")
            + f"  {said:<{label}}  {v.value:4.0%} [{v.low:4.0%} - {v.high:4.0%}]  {bar}"
        )
    return "\n".join(lines)


def changes(before: str, after: str) -> str:
    """What of the table ``after`` differs from ``before`` (the table the seat was shown at
    its last decision): its first line (round, phase, version), then each line that is new
    or changed, under the titles of its sections, and each line gone (with nothing like it
    in its place), marked so under its section's title."""
    old, new = before.splitlines(), after.splitlines()
    if not new:
        return after
    show: set[int] = {0}
    gone: dict[int, list[str]] = {}

    def with_titles(j: int) -> None:
        """Show line ``j`` of the table now and the section lines above it (less indented)."""
        show.add(j)
        depth = _indent(new[j])
        for k in range(j - 1, 0, -1):
            if depth == 0:
                break
            if _indent(new[k]) < depth:
                show.add(k)
                depth = _indent(new[k])

    def title_now(i: int) -> int:
        """Where the section of line ``i`` of the old table is in the table now (0: none)."""
        depth = _indent(old[i])
        for k in range(i - 1, 0, -1):
            if _indent(old[k]) < depth:
                same = [j for j, line in enumerate(new) if _indent(line) == _indent(old[k])]
                found = difflib.get_close_matches(old[k], [new[j] for j in same], n=1, cutoff=0.6)
                return same[[new[j] for j in same].index(found[0])] if found else 0
        return 0

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for j in range(j1, j2):
            with_titles(j)
        now = new[j1:j2]
        for i in range(i1, i2):
            # a line like one now in its place changed (shown above); only one with none left
            if i > 0 and old[i].strip() and not difflib.get_close_matches(old[i], now, n=1, cutoff=0.6):
                at = title_now(i)
                with_titles(at)
                gone.setdefault(at, []).append(" " * _indent(old[i]) + say("gone: %(line)s", line=old[i].strip()))
    out = []
    for j, line in enumerate(new):
        if j in show:
            out.append(line)
        out += gone.get(j, [])
    if len(out) == 1:
        out.append("    " + _("(nothing else changed)"))
    return "\n".join(out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def play(
    state: Callable[[], Any],
    submit: Callable[[Decision, Choice], None],
    view: Callable[[str], Any],
    shown: Screen,
    seating: Seating,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    recent: Callable[[str], list[str]] | None = None,
    take_back: Callable[[str], str] | None = None,
    caused_by: Callable[[Decision], int | None] | None = None,
    hint: Hint | None = None,
) -> Any:
    """Drive a game to its end (or until the player quits); returns its outcome.

    ``recent(seat)`` gives what happened since that seat last decided, as the seat may
    see it; it is shown above the table before each of the seat's decisions, and the
    game's last events at its end (lines in a row that say the same of several cards,
    once). ``take_back(seat)`` takes back the seat's last decision and says what was done
    (a ``RuleError`` if it cannot). ``caused_by(decision)`` is the card whose text asked
    it, if any. ``hint(decision, seconds)`` values its answers (the ``v`` key).
    """
    out = out or sys.stdout
    last_human: str | None = None
    last_table: dict[str, str] = {}
    """The table each seat was last shown whole: later ones show what changed since."""
    while True:
        current = state()
        decision = current.pending
        if decision is None:
            if current.over and recent is not None:
                lines = collapse(recent("referee"))
                if lines:
                    out.write("\n" + _("Last events:") + "\n" + "\n".join(f"  {line}" for line in lines[-12:]) + "\n")
            table = view("referee" if current.over else "spectator")
            out.write("\n" + shown.render(table) + "\n")
            if current.over:
                out.write(f"{shown.score(table)}\n")  # the table above ends with how the game ended
            return current.over
        seat = decision.seat
        if seat in seating.bots:
            submit(decision, seating.bots[seat].choose(decision, partial(view, seat)))
            continue
        if seating.humans is not None and seat not in seating.humans:
            out.write("\n" + say("waiting for %(seat)s, who is not played here", seat=seat) + "\n")
            return None
        if seating.auto_pass and is_action_window(decision):
            submit(decision, ("pass",))
            out.write(
                say(
                    "%(seat)s passes: %(prompt)s (auto-pass; type a to turn it off)",
                    seat=seat,
                    prompt=translate(decision.prompt),
                )
                + "\n"
            )
            continue
        table = view(seat)
        whole = shown.render(table)
        before = last_table.get(seat)
        last_table[seat] = whole
        if before is None:
            text = whole
        else:
            text = (
                _("The table, what changed since your last decision (t: the whole table):")
                + "\n"
                + changes(before, whole)
            )
        if recent is not None:
            lines = collapse(recent(seat))
            if lines:
                text = _("Since your last decision:") + "\n" + "\n".join(f"  {line}" for line in lines) + "\n\n" + text
        if last_human is not None and last_human != seat:
            text = (
                say(
                    "*** %(seat)s decides now: the table below shows %(seat)s's hand, not %(other)s's ***",
                    seat=seat,
                    other=last_human,
                )
                + "\n"
                + text
            )
        elif last_human is None and seating.shared:
            text = say("*** %(seat)s decides: the table below shows %(seat)s's hand ***", seat=seat) + "\n" + text
        last_human = seat
        try:
            cause = caused_by(decision) if caused_by is not None else None
            ask_human(decision, text, partial(submit, decision), read, out, table, shown, seating, cause, whole, hint)
        except Quit:
            out.write("\n" + _("saved; run play again to resume") + "\n")
            return None
        except TakeBack as asked:
            if take_back is None:
                out.write("  taking back is not possible at this table\n")
                continue
            last_table.clear()  # the table after a take-back is shown whole
            try:
                out.write(take_back(asked.seat or seat) + "\n")
            except RuleError as error:
                out.write("  " + say("cannot take back: %(error)s", error=error_text(str(error))) + "\n")
