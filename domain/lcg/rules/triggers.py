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
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.cards import TEXTS, Trigger
from domain.lcg.effects import st
from domain.lcg.rules import attachments, table
from domain.lcg.rules.procedures import stage_defeatable
from domain.lcg.state import SET_ASIDE_FACE_UP, LcgState, Uid

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


def _attachment_lost(rt: Runtime, event: Event) -> None:
    """A character whose damage reaches its hit points is destroyed whenever that happens
    (Core Set rulebook, Damage): an attachment that gave hit points (Citadel Plate) leaving
    play can do it as well as damage (Rules Reference, Restricted: discarding Citadel Plate
    can destroy its damaged hero)."""
    assert isinstance(event, ev.CardsDiscarded)
    s = st(rt)
    if not any(table.defn(s, u).type == "attachment" for u in event.cards):
        return
    for uid in table.all_characters(s):
        if s.cards[uid].damage and s.cards[uid].damage >= table.hit_points(s, uid):
            _check(rt, "lcg.destroy", event, card=uid)


ELIMINATION_REPLACEMENTS: list[Callable[[LcgState, str], str | None]] = []
"""Texts that replace a player's elimination by threat ("flip this contract instead"): each
gives the program to run instead, or None."""


def _threat(rt: Runtime, event: Event) -> None:
    assert isinstance(event, ev.ThreatRaised)
    player = st(rt).players[event.player]
    if player.threat >= ELIMINATION_THREAT and not player.eliminated:
        instead = next((p for r in ELIMINATION_REPLACEMENTS if (p := r(st(rt), event.player))), None)
        _check(rt, instead or "lcg.eliminate", event, player=event.player, reason="threat")


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


HOOKS: dict[type[Event], list[Check]] = {}
"""Checks a scenario's rules add, run like the framework checks (keywords such as
Boarding, per-round caps): each queues its own program when it applies."""

FRAMEWORK: dict[type[Event], Check] = {
    ev.DamageDealt: _damage,
    ev.CardsDiscarded: _attachment_lost,
    ev.ThreatRaised: _threat,
    ev.CharacterDestroyed: _destroyed,
    ev.ProgressPlaced: _progress,
    ev.EnemyDefeated: _defeated,
    ev.AttachmentPlayed: attachments.check_restricted,
    ev.AttachmentAttached: attachments.check_restricted,
    xev.ObjectiveClaimed: attachments.check_restricted,
}

# -- card triggers -----------------------------------------------------------------------

Listener = tuple[str, str, int, Trigger]  # code, kind ("forced"/"response"), index, trigger


@cache
def _listeners() -> dict[type[Event], list[Listener]]:
    """For each event type, its listeners: responses first, then forced effects.

    Pushed in this order, the forced effects end up on top and resolve first.
    """
    by_type: dict[type[Event], list[Listener]] = {}
    for kind in ("response", "forced"):
        for code, text in TEXTS.items():
            for i, trig in enumerate(text.forced if kind == "forced" else text.responses):
                for on in trig.on if isinstance(trig.on, tuple) else (trig.on,):
                    by_type.setdefault(on, []).append((code, kind, i, trig))
    return by_type


def _subjects(event: Event) -> Iterator[Uid]:
    for field in ("card", "enemy"):
        value = getattr(event, field, None)
        if isinstance(value, int):
            yield value
    yield from getattr(event, "cards", ())


def _in_play(s: LcgState) -> list[Uid]:
    out: list[Uid] = []
    for seat in s.active_seats():
        out += s.zone(f"{seat}.heroes")
        out += s.zone(f"{seat}.allies")
        out += s.zone(f"{seat}.engaged")
        out += s.zone(f"{seat}.contract")
    for zone in ("staging", "active", "quest", "attachments", "setup"):
        out += s.zone(zone)
    return out


def _hands(s: LcgState) -> list[Uid]:
    return [u for seat in s.active_seats() for u in s.zone(f"{seat}.hand")]


def _push(rt: Runtime, event: Event, listeners: list[Listener]) -> None:
    s = st(rt)
    pools: dict[str, list[Uid]] = {}
    for code, kind, i, trig in listeners:
        pool = pools.get(trig.zone)
        if pool is None:
            if trig.zone == "subject":
                pool = list(_subjects(event))
            elif trig.zone == "hand":
                pool = _hands(s)
            elif trig.zone == "set-aside":
                pool = list(s.zone(SET_ASIDE_FACE_UP))
            else:
                pool = _in_play(s)
            pools[trig.zone] = pool
        for uid in reversed(pool):
            card = s.cards[uid]
            if card.code != code or table.blank(s, uid) or not trig.test(s, event, uid):
                continue
            seat = card.owner or table.holder(s, uid) or s.first
            env = {"self": uid, "player": seat, "_card": uid, "_by": event.seq}
            if trig.bind is not None:
                env.update(trig.bind(s, event, uid))
            rt.call(f"{code}.{kind}.{i}", env, caller={})


def after(rt: Runtime, event: Event) -> None:
    # Keyword checks are pushed first, so they resolve after the cards' Forced effects and
    # Responses to the same event (a ship that gains Boarding as it engages boards with it).
    for hook in HOOKS.get(type(event), ()):
        hook(rt, event)
    listeners = _listeners().get(type(event))
    if listeners is not None:
        _push(rt, event, listeners)
    check = FRAMEWORK.get(type(event))
    if check is not None:
        check(rt, event)
    if type(event) in attachments.HOST_MAY_LEAVE and st(rt).zones.get("attachments"):
        attachments.check_orphans(rt, event)
