"""What each event sets off: framework checks, Forced effects, then Responses.

After every event the runtime calls :func:`after`, which pushes programs on the cursor.
The last pushed runs first, so the order of resolution is: framework checks (lethal
damage, 50 threat, a stage or location with enough progress), then Forced effects, then
Responses (Rules: Forced effects resolve before Responses to the same moment).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

from domain.kernel.events import Event
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import TEXTS, Trigger
from domain.lcg.effects import st
from domain.lcg.rules import table
from domain.lcg.rules.procedures import stage_defeatable
from domain.lcg.state import LcgState, Uid

ELIMINATION_THREAT = 50
"""Rules: a player whose threat reaches 50 is eliminated (seed 001: "Out: threat ≥ 50")."""

Check = Callable[[Runtime, Event], None]


def _check(rt: Runtime, program: str, event: Event, **args: object) -> None:
    """Queue a framework procedure, caused by ``event``."""
    rt.call(program, {**args, "_by": event.seq}, caller={})


def _damage(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.DamageDealt)
    s = st(rt)
    if s.cards[event.card].damage >= table.hit_points(s, event.card):
        _check(rt, "lcg.destroy", event, card=event.card)


def _threat(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.ThreatRaised)
    player = st(rt).players[event.player]
    if player.threat >= ELIMINATION_THREAT and not player.eliminated:
        _check(rt, "lcg.eliminate", event, player=event.player, reason="threat")


def _destroyed(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.CharacterDestroyed)
    s = st(rt)
    owner = s.cards[event.card].owner
    if owner and table.defn(s, event.card).type == "hero" and not s.zone(f"{owner}.heroes"):
        _check(rt, "lcg.eliminate", event, player=owner, reason="heroes")


def _progress(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.ProgressPlaced)
    s = st(rt)
    zone = s.cards[event.card].zone
    if zone == "active" and s.cards[event.card].progress >= table.defn(s, event.card).quest_points:
        _check(rt, "lcg.explore", event, card=event.card)
    elif zone == "quest" and stage_defeatable(s, event.card):
        _check(rt, "lcg.quest.advance", event, card=event.card)


def _defeated(rt: Runtime, event: Event) -> None:
    """A stage that an enemy in play held back (Beorn's Path) may fall once it is gone."""
    s = st(rt)
    stage = table.quest_card(s)
    if stage is not None and stage_defeatable(s, stage):
        _check(rt, "lcg.quest.advance", event, card=stage)


FRAMEWORK: dict[type[Event], Check] = {
    ev.DamageDealt: _damage,
    ev.ThreatRaised: _threat,
    ev.CharacterDestroyed: _destroyed,
    ev.ProgressPlaced: _progress,
    ev.EnemyDefeated: _defeated,
}

# -- card triggers -----------------------------------------------------------------------

Listener = tuple[str, str, int, Trigger]  # code, kind ("forced"/"response"), index, trigger


@cache
def _listeners() -> dict[type[Event], tuple[list[Listener], list[Listener]]]:
    table_: dict[type[Event], tuple[list[Listener], list[Listener]]] = {}
    for code, text in TEXTS.items():
        for kind, triggers in (("forced", text.forced), ("response", text.responses)):
            for i, trig in enumerate(triggers):
                forced, responses = table_.setdefault(trig.on, ([], []))
                (forced if kind == "forced" else responses).append((code, kind, i, trig))
    return table_


def _subjects(event: Event) -> Iterator[Uid]:
    for field in ("card", "enemy"):
        value = getattr(event, field, None)
        if isinstance(value, int):
            yield value
    for value in getattr(event, "cards", ()):
        yield value


def _candidates(s: LcgState, zone: str, event: Event) -> Iterator[Uid]:
    if zone == "subject":
        yield from _subjects(event)
        return
    if zone == "hand":
        for seat in s.active_seats():
            yield from s.zone(f"{seat}.hand")
        return
    for seat in s.active_seats():
        yield from s.zone(f"{seat}.heroes")
        yield from s.zone(f"{seat}.allies")
        yield from s.zone(f"{seat}.engaged")
    yield from s.zone("staging")
    yield from s.zone("active")
    yield from s.zone("quest")
    yield from s.zone("attachments")


def _push(rt: Runtime, event: Event, listeners: list[Listener]) -> None:
    s = st(rt)
    for code, kind, i, trig in reversed(listeners):
        for uid in _candidates(s, trig.zone, event):
            card = s.cards[uid]
            if card.code != code or not trig.test(s, event, uid):
                continue
            seat = card.owner or table.holder(s, uid) or s.first
            env = {"self": uid, "player": seat, "_card": uid, "_by": event.seq}
            if trig.bind is not None:
                env.update(trig.bind(s, event, uid))
            rt.call(f"{code}.{kind}.{i}", env, caller={})


def after(rt: Runtime, event: Event) -> None:
    listeners = _listeners().get(type(event))
    if listeners is not None:
        forced, responses = listeners
        _push(rt, event, responses)
        _push(rt, event, forced)
    check = FRAMEWORK.get(type(event))
    if check is not None:
        check(rt, event)
