"""Domain events: immutable facts, each with its cause and its place in the hash chain.

Every event a ruleset defines subclasses :class:`Event`. The runtime fills in the
fields common to all events (``seq``, ``cause``, ``flow``, ``draws``, ``hash``) when the
event is emitted; a rule step only states what happened.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.decisions import Decision

Env = dict[str, Any]
"""Bindings of a running program frame: option ids, card uids, loop items.

Values are JSON-native (int, str, bool, None, lists of those) so that a frame
decoded from the store compares equal to the frame that was stored.
"""


class Frame(msgspec.Struct, frozen=True, array_like=True, omit_defaults=True, gc=False):
    """One entry of the flow cursor: a program node being run, with its bindings."""

    node: str
    i: int = 0
    env: Env = {}
    items: list[Any] | None = None


class Flow(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """How the cursor moved with an event: keep the first ``keep`` frames, then push.

    Frames inherit bindings from the frame below them, so a pushed frame listed in
    ``extends`` stores only what it adds to (or changes in) the bindings of the frame
    below it; the fold puts the rest back. This keeps the log small without changing
    the cursor it describes. The runtime writes it (``domain.kernel.runtime.flow_since``,
    in the compiled core).
    """

    keep: int
    push: tuple[Frame, ...] = ()
    extends: tuple[int, ...] = ()

    def onto(self, stack: list[Frame]) -> None:
        """Move ``stack`` (the cursor before the event) as this flow says."""
        del stack[self.keep :]
        if not self.extends:
            stack.extend(self.push)
            return
        extends = self.extends
        for j, frame in enumerate(self.push):
            if j in extends:
                frame = Frame(frame.node, frame.i, {**stack[-1].env, **frame.env}, frame.items)
            stack.append(frame)


class FlowKeep(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A :class:`Flow` as the fold from stored rows decodes it (``domain/kernel/stored.py``),
    for the last events only (those that set the final cursor): each pushed frame kept as its
    undecoded bytes, decoded only if it is still on the cursor when the fold is done."""

    keep: int
    push: tuple[msgspec.Raw, ...] = ()
    extends: tuple[int, ...] = ()


class Cause(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """Why an event happened.

    ``rule`` is a stable rule reference (``lcg.quest.resolve``); ``card`` the uid of the
    card whose text produced the event; ``by`` the seq of the event that triggered it;
    ``answer`` the seq of the decision answer it follows from.
    """

    rule: str
    card: int | None = None
    by: int | None = None
    answer: int | None = None


NO_CAUSE = Cause(rule="")


class Event(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag=True, gc=False):
    """Base of every domain event. Subclasses are named in the past tense."""

    seq: int = 0
    cause: Cause = NO_CAUSE
    flow: Flow | None = None
    draws: int = 0
    hash: str = ""


class Created(Event, frozen=True, kw_only=True):
    """Base of every ruleset's first event: the seed of all chance in the game, and the
    version of the ruleset's rules the game is played under.

    Re-execution (``domain/verify.py``) needs the rules a game was played under; the fold
    does not. A game recorded before rules versions were recorded has version 0 (the field
    is left out of its bytes, so its hash chain is unchanged).
    """

    seed: int
    rules_version: int = 0
    engine: str = ""
    """The Westmarch that started the game ("westmarch 0.1.0"; empty for games started before
    it was recorded). Not a rule: re-execution starts from this event as recorded."""


class Modifier(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A lasting change to one card's stat, until a scope (phase, round, game) ends."""

    target: int
    stat: str
    amount: int
    until: str
    source: int | None = None


class Limit(msgspec.Struct, frozen=True):
    """A limited ability already used (``key``, as its card text names it), until a scope ends."""

    key: str
    until: str


class Delayed(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A program to run when a scope ends (\"at the end of the phase, ...\")."""

    at: str
    node: str
    env: Env = {}


class Outcome(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """How a game ended: ``result`` is ruleset-defined (``won``/``lost``, a side's name)."""

    result: str
    reason: str
    winner: str | None = None


class PositionEvent(Event, frozen=True, kw_only=True):
    """Base of each game's event that lays out an exact position (fixtures, disputes).

    Besides the table, which each game describes in its own event, a position may have
    lasting effects already running (modifiers, effects waiting for the end of a scope) and
    limited abilities already used: a dispute about "+1 attack until the end of the round"
    or "once per round" starts in the middle of those as often as at the beginning.
    """

    modifiers: tuple[Modifier, ...] = ()
    limits: tuple[Limit, ...] = ()
    delayed: tuple[Delayed, ...] = ()
    rng: int = 0
    """The random draws already made in the game the position is taken from (a capture), so
    chance after the position is the game's own; 0: counted afresh from the seed."""


# --- Events the kernel itself emits; every ruleset's event union includes these. -----


class DecisionRequested(Event, frozen=True, kw_only=True):
    """A seat must now choose; the game waits for the answer."""

    decision: Decision


class DecisionAnswered(Event, frozen=True, kw_only=True):
    """The seat whose turn it was answered the pending decision."""

    decision: int
    seat: str
    choice: tuple[str, ...]


class ModifierAdded(Event, frozen=True, kw_only=True):
    modifier: Modifier


class DelayedEffectScheduled(Event, frozen=True, kw_only=True):
    delayed: Delayed


class LimitUsed(Event, frozen=True, kw_only=True):
    """A limited ability was used (\"Limit once per round\")."""

    key: str
    until: str


class ScopeEnded(Event, frozen=True, kw_only=True):
    """A phase, round or other scope ended: its modifiers, limits and delays lapse."""

    scope: str


class GameEnded(Event, frozen=True, kw_only=True):
    outcome: Outcome


class Reseeded(Event, frozen=True, kw_only=True):
    """A take-back: the chance still to come is drawn from ``seed``, a fresh one the game is
    told (hidden from the seats until the game ends, as the first seed is), so taking back a
    decision and trying again cannot show what chance would have brought. The pending
    decision is withdrawn; the ruleset's ``redraw`` program runs (:class:`CardsRedrawn`:
    what chance had already decided but no seat has seen), then the decision is asked again."""

    seed: int


class CardsRedrawn(Event, frozen=True, kw_only=True):
    """After a take-back, face-down cards that no seat has seen are drawn afresh: ``cards``
    (a shuffle of ``places``, with this event's draw) take the places of ``places``, in
    order; each card takes the zone and position of the one whose place it takes. ``piles``
    names the zones they lie in, which from every seat's view could hold any of them (the
    encounter deck and the face-down shadow cards dealt from it, say)."""

    piles: tuple[str, ...]
    places: tuple[int, ...]
    cards: tuple[int, ...]


KERNEL_EVENTS: tuple[type[Event], ...] = (
    DecisionRequested,
    DecisionAnswered,
    ModifierAdded,
    DelayedEffectScheduled,
    LimitUsed,
    ScopeEnded,
    GameEnded,
    Reseeded,
    CardsRedrawn,
)
