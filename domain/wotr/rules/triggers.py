"""What each event sets off: a card's text when it is played or moved, a location's
activation text when it is activated.

After every event the runtime calls :func:`after`, which pushes programs on the cursor;
the last pushed runs first, so texts resolve in printed order: what resolves whatever the
destination, then "when played", then "whenever played or moved onto ...".

"When played" resolves only for a card played onto a path or a battleground (seed 004:
played to reserve it does not resolve), unless the game's rule options say otherwise;
text that names the reserve resolves there.
"""

from __future__ import annotations

from typing import Final

from domain.kernel.events import Event
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.cards import program_of
from domain.wotr.effects import st
from domain.wotr.rules import table


def _call(rt: Runtime, program: str | None, event: Event, uid: int, player: str | None, **extra: object) -> None:
    if program is not None:
        env: dict[str, object] = {"self": uid, "player": player, "_card": uid, "_by": event.seq, **extra}
        rt.call(program, env, caller={})


def _played(rt: Runtime, e: ev.CardPlayed) -> None:
    s = st(rt)
    code = s.cards[e.card].code
    assert s.options is not None
    to_location = e.to.startswith("at.")
    location = table.location_of(s, e.card)
    in_reserve = e.to.endswith(".reserve")
    if to_location:
        _call(rt, program_of(code, "entered"), e, e.card, e.player, location=location)
    if to_location or (in_reserve and s.options.rules.when_played_in_reserve):
        _call(rt, program_of(code, "when-played"), e, e.card, e.player, location=location)
    if in_reserve:
        _call(rt, program_of(code, "when-played-reserve"), e, e.card, e.player, location=location)
    _call(rt, program_of(code, "on-play"), e, e.card, e.player, location=location)


def _moved(rt: Runtime, e: ev.CardMoved) -> None:
    s = st(rt)
    location = table.location_of(s, e.card)
    _call(rt, program_of(s.cards[e.card].code, "entered"), e, e.card, e.player, location=location)


def _activated(rt: Runtime, e: ev.LocationActivated) -> None:
    s = st(rt)
    _call(rt, program_of(s.cards[e.location].code, "activation"), e, e.location, s.starting_seat())


# Final aliases of the event types :func:`after` tells apart on every event: the compiled
# core reads a Final name from a C static, an attribute of the (interpreted) events module
# through a lookup each time.
_PLAYED: Final = ev.CardPlayed
_MOVED: Final = ev.CardMoved
_ACTIVATED: Final = ev.LocationActivated


def after(rt: Runtime, event: Event) -> None:
    if isinstance(event, _PLAYED):
        _played(rt, event)
    elif isinstance(event, _MOVED):
        _moved(rt, event)
    elif isinstance(event, _ACTIVATED):
        _activated(rt, event)
