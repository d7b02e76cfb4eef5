"""The procedures a Shadow bot follows differently (seed 003, "Game Procedure Changes"),
registered as programs the base procedures call for a bot seat.

- ``wotr.bot.forsake``: the first possible of: cycle the right-most card in reserve
  (First In, Last Out), cycle a random card from hand, eliminate the top card of the draw
  deck (a "cycle instead" text still applies).
- ``wotr.bot.draw-until``: "draw up to 5 cards, one at a time: play the first Nazgûl
  character drawn and then stop; cycle the unplayed cards" (The Messenger, Minas Morgul).
"""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.flow import Break, Call, If, Let, Node, Repeat, Seq, register
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.bot import flowchart
from domain.wotr.effects import emit, st
from domain.wotr.rules import table
from domain.wotr.state import Uid


def _seat(rt: Runtime) -> str:
    return str(rt.env["player"])


def _reserve(rt: Runtime) -> list[Uid]:
    return list(st(rt).zone(f"{_seat(rt)}.reserve"))


def _hand(rt: Runtime) -> list[Uid]:
    return [u for u in st(rt).zone(f"{_seat(rt)}.hand") if u != rt.env.get("except")]


def _right_most(rt: Runtime) -> Event:
    s = st(rt)
    uid = _reserve(rt)[-1]
    cards = (uid,) if s.cards[uid].wielder is not None else tuple(table.unit(s, uid))
    return ev.CardsCycled(cards=cards)


def _random_hand(rt: Runtime) -> Event:
    (uid,) = rt.pick(_hand(rt))
    return ev.CardsCycled(cards=(uid,))


def _recycle(rt: Runtime) -> Event | None:
    s = st(rt)
    seat = _seat(rt)
    if s.zone(f"{seat}.deck") or not s.zone(f"{seat}.cycle"):
        return None
    return ev.DeckShuffled(zone=f"{seat}.deck", order=tuple(rt.shuffle(s.zone(f"{seat}.cycle"))))


FORSAKE = register(
    "wotr.bot.forsake",
    If(
        lambda rt: bool(_reserve(rt)),
        emit(_right_most, rule="wotr.bot.forsake.right-most-reserve"),
        If(
            lambda rt: bool(_hand(rt)),
            emit(_random_hand, rule="wotr.bot.forsake.random-hand"),
            If(
                lambda rt: table.can_draw(st(rt), _seat(rt)),
                Seq(
                    emit(_recycle, rule="wotr.draw.recycle"),
                    Call(
                        "wotr.eliminate",
                        lambda rt: {"card": st(rt).zone(f"{_seat(rt)}.deck")[0], "how": "forsake-deck"},
                    ),
                    rule="wotr.bot.forsake.top-of-deck",
                ),
            ),
        ),
    ),
    rule="wotr.bot.forsake",
)


def _last_drawn(rt: Runtime) -> Uid | None:
    aside = st(rt).zone(f"{_seat(rt)}.aside")
    return aside[-1] if aside else None


def _is_first_nazgul(rt: Runtime) -> bool:
    s = st(rt)
    uid = _last_drawn(rt)
    return uid is not None and table.defn(s, uid).has("Nazgul") and table.is_a(s, uid, "character")


def _where(rt: Runtime) -> dict[str, object]:
    s = st(rt)
    uid = _last_drawn(rt)
    assert uid is not None
    if uid in s.played:
        return {"card": uid, "dest": None, "why": "it was already played this round: it is cycled instead"}
    allowed = ["reserve"] if rt.env.get("where") == "reserve" else None
    placed = flowchart.placement(s, _seat(rt), uid, allowed)
    if placed is None:
        return {"card": uid, "dest": None, "why": "it cannot be played"}
    return {"card": uid, "dest": placed[0], "why": placed[1]}


def _chose(rt: Runtime) -> Event:
    dest = rt.env["dest"]
    location = int(str(dest)[1:]) if dest and str(dest).startswith("L") else None
    return ev.BotChose(
        player=_seat(rt),
        step="draw-until-nazgul",
        reason=f"the first Nazgûl character drawn: {rt.env['why']}",
        cards=(int(rt.env["card"]),),
        location=location,
        shown=dest is not None,
    )


def _drawn(rt: Runtime) -> int:
    return len(st(rt).zone(f"{_seat(rt)}.aside"))


def _unplayed(rt: Runtime) -> Event | None:
    aside = st(rt).zone(f"{_seat(rt)}.aside")
    return ev.CardsCycled(cards=tuple(aside)) if aside else None


PLAY_FIRST: Node = Let(
    _where,
    Seq(
        emit(_chose),
        If(
            lambda rt: rt.env["dest"] is not None,
            Call(
                "wotr.play",
                lambda rt: {"player": _seat(rt), "card": rt.env["card"], "dest": rt.env["dest"], "cost": False},
            ),
        ),
        Break(),
    ),
)

DRAW_UNTIL = register(
    "wotr.bot.draw-until",
    Seq(
        Repeat(
            Seq(
                Call("wotr.draw", lambda rt: {"player": _seat(rt), "count": 1, "aside": True}),
                If(_is_first_nazgul, PLAY_FIRST),
            ),
            until=lambda rt: _drawn(rt) >= int(rt.env["count"]) or not table.can_draw(st(rt), _seat(rt)),
        ),
        emit(_unplayed, rule="wotr.bot.draw-until.cycle-rest"),
    ),
    rule="wotr.bot.draw-until",
)
