"""Per-viewer event feeds: each event as one viewer may see it (default-deny).

The generic part lives here; what is secret in a particular game (which zones are face
down, which event fields name cards) comes from the game's :class:`Projection`.

For a viewer who may not see everything (a seat or a spectator, while the game is on):

- A card reference (an event's card fields, the cause's card, a modifier's target, a
  chosen option that is a card) stays only if the viewer may see that card in the state
  just before or just after the event (or the event itself shows it to them, like a card
  they looked at). Otherwise it is removed, never replaced by its uid: card uids follow the
  decklists, so a uid alone would tell the card.
- Another seat's ``DecisionRequested`` shows only who decides, the rule and the kind of
  choice; their ``DecisionAnswered`` keeps only the choices that name no hidden card.
- The seed is removed (a take-back's fresh one too), and so are the cursor (``flow``),
  scheduled effects' bindings and the event's hash (a hash of hidden content could be
  tested against guesses); a take-back's redraw keeps only how many cards it drew afresh.
- The game decides the rest (a shuffle shows its zone and count, never its order).

The referee sees everything, and so does everyone once the game is over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, cast

import msgspec

from domain.kernel.decisions import Decision, Kind
from domain.kernel.events import (
    CardsRedrawn,
    DecisionAnswered,
    DecisionRequested,
    DelayedEffectScheduled,
    Event,
    LimitUsed,
    ModifierAdded,
    PositionEvent,
)
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import apply
from domain.kernel.state import State
from projections.story import Namer, continued, describe, describe_body, run_key

REFEREE = "referee"
SPECTATOR = "spectator"

_ENVELOPE = ("seq", "cause", "flow", "draws", "hash")


class Projection(Protocol):
    """What a game tells the feed about its secrets."""

    name: str

    def view(self, state: Any, viewer: str) -> Any:
        """The table as ``viewer`` may see it (a msgspec struct)."""

    def visible(self, state: Any, viewer: str, uid: int) -> bool:
        """May ``viewer`` see card ``uid`` in ``state``?"""

    def reveals(self, event: Any, viewer: str) -> set[int]:
        """Cards ``event`` itself shows to ``viewer`` beyond the zone rules."""

    def refs(self, body: dict[str, Any]) -> set[int]:
        """Card uids the game-specific fields of an event body mention."""

    def redact(self, body: dict[str, Any], seeing: Callable[[int], bool]) -> bool:
        """Remove the game-specific fields ``viewer`` may not see; True if any."""


def projection(name: str) -> Projection:
    """The projection of a game by its ruleset name."""
    found = _PROJECTIONS.get(name)
    if found is None:
        found = _PROJECTIONS[name] = _imported(name)
    return found


_PROJECTIONS: dict[str, Projection] = {}
"""Each game's projection once imported: a feed is made per viewer and command, and an
import in a function runs the import machinery at each call (~7 k instructions)."""


def _imported(name: str) -> Projection:
    if name == "lcg":
        from projections.lcg import PROJECTION

        return PROJECTION
    if name == "wotr":
        from projections.wotr import PROJECTION as WOTR_PROJECTION

        return WOTR_PROJECTION
    raise KeyError(f"no projection for game {name!r}")


@dataclass(frozen=True)
class Projected:
    """One event as one viewer may see it."""

    seq: int
    type: str
    cause: dict[str, Any]
    body: dict[str, Any]
    text: str
    hash: str = ""
    redacted: bool = False
    run_text: str = ""
    """Set when the event says what the event before it said of another card (as this
    viewer was told both): the one line that tells the run so far ("13 cards are put at
    the bottom of the Corsair deck"), for a timeline that shows a run as one line."""

    def __init__(
        self,
        seq: int,
        type: str,
        cause: dict[str, Any],
        body: dict[str, Any],
        text: str,
        hash: str = "",
        redacted: bool = False,
        run_text: str = "",
    ) -> None:
        # written out rather than the one ``dataclass`` makes: compiled, each field is set
        # in place (the generated one is interpreted: a third of the feed's cost per event)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "cause", cause)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "hash", hash)
        object.__setattr__(self, "redacted", redacted)
        object.__setattr__(self, "run_text", run_text)


def all_seeing(viewer: str, state: State) -> bool:
    return viewer == REFEREE or state.over is not None


class _Seen:
    """An event part way through projection: what the viewer saw before it was applied."""

    def __init__(
        self,
        event: Event,
        kind: str,
        cause: dict[str, Any],
        body: dict[str, Any],
        refs: set[int],
        seen: set[int],
        pending: Decision | None,
        reveal: bool,
    ) -> None:
        self.event = event
        self.kind = kind
        self.cause = cause
        self.body = body
        self.refs = refs
        self.seen = seen
        self.pending = pending
        self.reveal = reveal
        self.text = ""
        self.changed = False
        self.run_text = ""


class Feed:
    """Projects a game's events, in order, for one viewer.

    ``state`` is the game's state before the first event to project; the feed folds each
    event into it (so after ``project`` it is the state after that event). With
    ``reveal_all`` (the referee, or a game that is over) nothing is removed.

    A feed is also a :class:`~domain.kernel.runtime.Watcher`: given to the rules as they
    run on ``state`` (the game's own), it projects each event around its application
    (:meth:`before`, :meth:`after`) and :meth:`collected` gives them once the command is
    done, so no copy of the state from before the command is needed.
    """

    def __init__(
        self, rules: Ruleset[Any], viewer: str, state: State, reveal_all: bool = False, uids: bool = False
    ) -> None:
        """``uids``: the text names each card with its uid (``Forest Spider#28``), for a test
        that checks which card a sentence names; a person reads names only."""
        self.rules = rules
        self.viewer = viewer
        self.state = state
        self.reveal_all = reveal_all or viewer == REFEREE
        self.game = projection(rules.name)
        self.namer = Namer(rules, state, uids)
        self._watched: list[_Seen] = []
        self._current: _Seen | None = None
        self._run: list[str] = []
        """The lines of the run the last event belongs to (see :attr:`Projected.run_text`)."""
        self._run_key: tuple[int, str] | None = None
        """:func:`~projections.story.run_key` of the run's lines."""

    def project_many(self, events: Iterable[Event]) -> list[Projected]:
        return [self.project(e) for e in events]

    def project(self, event: Event) -> Projected:
        self.before(event)
        apply(self.rules, self.state, event)
        self.after(event)
        return _done(self._watched.pop())

    def collected(self) -> list[Projected]:
        """The events watched so far, projected (each with its hash, if the viewer sees it)."""
        done = [_done(seen) for seen in self._watched]
        self._watched = []
        return done

    def before(self, event: Event) -> None:
        """What the viewer sees of ``event`` in the state before it (called just before
        the event is applied)."""
        state = self.state
        body: dict[str, Any] = msgspec.to_builtins(event)
        # the cause as the body gives it: its rule, then each of card, by and answer that is
        # set (a cause omits its defaults, None)
        cause_out: dict[str, Any] = body["cause"]
        for key in _ENVELOPE:
            if key in body:  # compiled, ``in`` and ``del`` are direct where ``pop`` is a method call
                del body[key]  # noqa: RUF051
        kind = type(event).__name__
        if "type" in body:
            del body["type"]  # noqa: RUF051
        pending = state.pending
        if self.reveal_all or state.over is not None:
            self._current = _Seen(event, kind, cause_out, body, set(), set(), pending, True)
            return
        viewer, game = self.viewer, self.game
        body["type"] = kind
        refs = game.refs(body)
        _kernel_refs(event, pending, refs)
        if "card" in cause_out:
            refs.add(cause_out["card"])
        visible = game.visible
        seen = {u for u in refs if visible(state, viewer, u)}
        self._current = _Seen(event, kind, cause_out, body, refs, seen, pending, False)

    def after(self, event: Event) -> None:
        """The rest of ``event``'s projection, in the state just after it was applied."""
        current = self._current
        assert current is not None and current.event is event
        self._current = None
        state, body = self.state, current.body
        if current.reveal or state.over is not None:  # over: the game just ended, all may be revealed
            if "type" in body:
                del body["type"]  # as in before(): no method call
            current.reveal = True
            current.text = describe(event, self.namer, body)
            self._told(current)
            return
        viewer, game, refs, seen = self.viewer, self.game, current.refs, current.seen
        visible = game.visible
        seen |= {u for u in refs - seen if visible(state, viewer, u)}
        seen |= game.reveals(event, viewer)
        seeing = seen.__contains__
        changed = _redact_kernel(event, body, current.pending, viewer, seeing)
        changed = game.redact(body, seeing) or changed
        if "seed" in body:
            del body["seed"]
            changed = True
        cause = current.cause
        if "card" in cause and not seeing(cause["card"]):
            del cause["card"]
            changed = True
        if "type" in body:
            del body["type"]  # as in before(): no method call
        kind = current.kind
        current.text = describe_body(kind, body, self.namer, seeing) if changed else describe(event, self.namer, body)
        current.changed = changed
        self._told(current)

    def _told(self, current: _Seen) -> None:
        key = run_key(current.text)
        # only a line of the run's key may continue it (continued() checks it too): one
        # reading of each line, not of the whole run again
        joined = continued(self._run, current.text) if key is not None and key == self._run_key else None
        self._run_key = key
        if joined is None:
            self._run = [current.text]
        else:
            self._run.append(current.text)
            current.run_text = joined
        self._watched.append(current)


def _done(seen: _Seen) -> Projected:
    event = seen.event
    if seen.reveal:
        return Projected(event.seq, seen.kind, seen.cause, seen.body, seen.text, event.hash, run_text=seen.run_text)
    return Projected(event.seq, seen.kind, seen.cause, seen.body, seen.text, "", seen.changed, seen.run_text)


def _choice_card(decision: Decision | None, answer: DecisionAnswered, choice: str) -> int | None:
    """The card a chosen option names, if any."""
    if decision is not None and decision.id == answer.decision:
        option = decision.option(choice)
        if option is not None:
            return option.card if option.card is not None else _digits(choice, decision)
        if decision.kind is Kind.NUMBER:
            return None
    return int(choice) if choice.isdigit() else None


def _digits(choice: str, decision: Decision) -> int | None:
    return int(choice) if choice.isdigit() and decision.kind is not Kind.NUMBER else None


_OTHER, _REQUESTED, _ANSWERED, _MODIFIER, _DELAYED, _LIMIT, _POSITION, _REDRAWN = range(8)
"""What the feed does with a kernel event of each type (:func:`_kernel_kind`)."""

_KINDS: dict[type, int] = {}
""":func:`_kernel_kind` of the event types met so far."""


def _kernel_kind(event: Event) -> int:
    """Which of the kernel's events ``event`` is (``_OTHER``: a game's own): read once per
    event type, not by a test of each kernel type per event (an ``isinstance`` of a struct
    type is a call of its metaclass's check, each time)."""
    cls = type(event)
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _OTHER
        for base, which in (
            (DecisionRequested, _REQUESTED),
            (DecisionAnswered, _ANSWERED),
            (ModifierAdded, _MODIFIER),
            (DelayedEffectScheduled, _DELAYED),
            (LimitUsed, _LIMIT),
            (PositionEvent, _POSITION),
            (CardsRedrawn, _REDRAWN),
        ):
            if issubclass(cls, base):
                kind = which
                break
        _KINDS[cls] = kind
    return kind


def _kernel_refs(event: Event, pending: Decision | None, refs: set[int]) -> None:
    """Add to ``refs`` the cards the kernel's fields of ``event`` name."""
    kind = _kernel_kind(event)
    if kind == _OTHER:
        return
    if kind == _ANSWERED:
        answered = cast(DecisionAnswered, event)
        for choice in answered.choice:
            card = _choice_card(pending, answered, choice)
            if card is not None:
                refs.add(card)
    elif kind == _MODIFIER:
        modifier = cast(ModifierAdded, event).modifier
        refs.add(modifier.target)
        if modifier.source is not None:
            refs.add(modifier.source)
    elif kind == _LIMIT:
        refs.update(int(d) for d in re.findall(r"\d+", cast(LimitUsed, event).key))
    elif kind == _POSITION:  # what a laid-out position says is already running
        position = cast(PositionEvent, event)
        for m in position.modifiers:
            refs.update(u for u in (m.target, m.source) if u is not None)
        for limit in position.limits:
            refs.update(int(d) for d in re.findall(r"\d+", limit.key))


def _redact_kernel(
    event: Event, body: dict[str, Any], pending: Decision | None, viewer: str, seeing: Callable[[int], bool]
) -> bool:
    kind = _kernel_kind(event)
    if kind == _OTHER:
        return False
    if kind == _REQUESTED:
        decision = cast(DecisionRequested, event).decision
        if decision.seat == viewer:
            return False
        body["decision"] = {"id": decision.id, "seat": decision.seat, "rule": decision.rule, "kind": decision.kind}
        return True
    if kind == _ANSWERED:
        answered = cast(DecisionAnswered, event)
        if answered.seat == viewer:
            return False
        kept = []
        for choice in answered.choice:
            card = _choice_card(pending, answered, choice)
            if card is None or seeing(card):
                kept.append(choice)
        if len(kept) != len(answered.choice):
            body["choice"] = kept
            body["choice_hidden"] = len(answered.choice) - len(kept)
            return True
        return False
    if kind == _MODIFIER:
        modifier = body["modifier"]
        changed = False
        for key in ("target", "source"):
            uid = modifier.get(key)
            if uid is not None and not seeing(uid):
                del modifier[key]
                changed = True
        return changed
    if kind == _DELAYED:
        return body["delayed"].pop("env", None) is not None
    if kind == _LIMIT:
        if all(seeing(int(d)) for d in re.findall(r"\d+", cast(LimitUsed, event).key)):
            return False
        del body["key"]
        return True
    if kind == _POSITION:
        return _redact_lasting(body, seeing)
    # CardsRedrawn: what no seat has seen, by definition: its count only
    body["count"] = len(body.pop("cards", ()))
    body.pop("places", None)
    return True


def _redact_lasting(body: dict[str, Any], seeing: Callable[[int], bool]) -> bool:
    """A laid-out position's lasting effects as a viewer may see them: a modifier loses the
    cards they may not see, a limit naming one is left out (counted), a delayed effect keeps
    only when it runs and which program (its bindings name cards)."""
    changed = False
    for modifier in body.get("modifiers", ()):
        for key in ("target", "source"):
            uid = modifier.get(key)
            if uid is not None and not seeing(uid):
                del modifier[key]
                changed = True
    limits = body.get("limits", ())
    kept = [x for x in limits if all(seeing(int(d)) for d in re.findall(r"\d+", x["key"]))]
    if len(kept) != len(limits):
        body["limits"] = kept
        body["limits_hidden"] = len(limits) - len(kept)
        changed = True
    for delayed in body.get("delayed", ()):
        changed = delayed.pop("env", None) is not None or changed
    return changed


# -- card fields: what every game's projection does with the fields that name cards ------


def card_refs(body: dict[str, Any], fields: Iterable[str]) -> set[int]:
    """The card uids an event body names in ``fields`` and in a laid-out position's ``zones``."""
    found: set[int] = set()
    for key in fields:
        value = body.get(key)
        if value is None:
            continue
        kind = type(value)
        if kind is int:
            found.add(value)
        elif kind is list or kind is tuple:
            uids = [u for u in value if type(u) is int]
            if len(uids) == len(value):  # a plain list of uids, the usual case
                found.update(uids)
            else:
                found.update(u for u in map(_uid_of, value) if u >= 0)
    for uids in (body.get("zones") or {}).values():
        found.update(uids)
    return found


def redact_cards(body: dict[str, Any], fields: Iterable[str], seeing: Callable[[int], bool]) -> bool:
    """Remove from ``body`` the cards in ``fields`` the viewer may not see (a list keeps a
    count of those it lost), a shuffle's order (its count stays) and a laid-out position's
    hidden cards (each zone's size stays); True if anything was removed."""
    changed = False
    if body.get("type") in ("DeckShuffled", "ShuffledIntoDeck") and "order" in body:
        body["count"] = len(body.pop("order"))
        changed = True
    for key in fields:
        value = body.get(key)
        if value is None:
            continue
        kind = type(value)
        if kind is int:
            if not seeing(value):
                del body[key]
                changed = True
        elif kind is list or kind is tuple:
            kept = [item for item in value if seeing(item if type(item) is int else _uid_of(item))]
            if len(kept) != len(value):
                body[key] = kept
                body[f"{key}_hidden"] = len(value) - len(kept)
                changed = True
    if "zones" in body:
        zones = body["zones"]
        body["zones"] = {z: [u for u in uids if seeing(u)] for z, uids in zones.items()}
        body["zone_sizes"] = {z: len(uids) for z, uids in zones.items()}
        changed = True
    return changed


def _uid_of(item: Any) -> int:
    """The card an item of a card list names (a uid, a new card ``[uid, code, zone, owner]``,
    a laid-out card ``{"uid": ...}``), or -1 for none."""
    if isinstance(item, int) and not isinstance(item, bool):
        return item
    if isinstance(item, list | tuple) and item and isinstance(item[0], int):
        return item[0]
    if isinstance(item, dict) and isinstance(item.get("uid"), int):
        return int(item["uid"])
    return -1
