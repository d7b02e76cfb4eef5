"""Keywords of encounter cards that act as the card is revealed: Doomed X and Guarded.

Core Set rulebook, Keywords: "Doomed X: when a card with this keyword is revealed, each
player raises his threat by X." "Guarded: when an objective with this keyword enters the
staging area from the encounter deck, the next card of the encounter deck is revealed and
attached to it; the objective cannot be claimed while any encounter card is attached. An
enemy or location guarding it counts its threat in the staging area as usual, and stops
guarding when it leaves play (defeated, explored, or by a card effect); a treachery stops
guarding once it has resolved. If another objective comes up as the guard, it goes to the
staging area with a guard of its own, and the next card guards the first objective."
Surge, the third keyword of a reveal, is in :mod:`domain.lcg.rules.procedures`.
"""

from __future__ import annotations

from domain.kernel.events import Event
from domain.kernel.flow import Call, If, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.cards import CardDef
from domain.lcg.effects import each_player, emit, st
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Uid


def keyword_value(d: CardDef, keyword: str) -> int:
    """X of a keyword printed "Keyword X" (0 if the card does not have it)."""
    for k in d.keywords:
        name, _, value = k.partition(" ")
        if name == keyword and value.isdigit():
            return int(value)
    return 0


def _doomed(rt: Runtime) -> Event | None:
    x = keyword_value(table.defn(st(rt), int(rt.env["card"])), "Doomed")
    return ev.ThreatRaised(player=rt.env["player"], amount=x) if x else None


register("lcg.keyword.doomed", each_player(emit(_doomed)), rule="lcg.keyword.doomed")


def doomed_program(rt: Runtime) -> str | None:
    """Doomed resolves with the card's other reveal effects, if the card is still revealed (a
    response to the reveal came first and may have removed it: FAQ 1.9, Thalin Core 6)."""
    card = st(rt).cards[int(rt.env["card"])]
    if card.zone != "revealed":
        return None
    return "lcg.keyword.doomed" if keyword_value(table.defn(st(rt), card.uid), "Doomed") else None


register(
    "lcg.keyword.guarded",
    Seq(
        Call("lcg.reveal", lambda rt: {"guarding": rt.env["card"]}),
        If(
            lambda rt: rt.env.get("also") is not None,
            Call("lcg.reveal", lambda rt: {"guarding": rt.env["also"]}),
        ),
    ),
    rule="lcg.keyword.guarded",
)


def guarded_program(rt: Runtime) -> str | None:
    """An objective with Guarded that has just entered the staging area gets its guard."""
    s = st(rt)
    uid = int(rt.env["card"])
    d = table.defn(s, uid)
    return (
        "lcg.keyword.guarded" if d.type == "objective" and d.has("Guarded") and s.cards[uid].zone == "staging" else None
    )


def guard_placed(rt: Runtime) -> Event | None:
    """The card revealed to guard an objective guards it once it is in the staging area."""
    guarding = rt.env.get("guarding")
    s = st(rt)
    uid = int(rt.env["card"])
    if guarding is None or s.cards[uid].zone != "staging" or table.defn(s, uid).type == "objective":
        return None
    return xev.GuardPlaced(card=uid, objective=int(guarding))


def guards_of(s: LcgState, objective: Uid) -> list[Uid]:
    """The encounter cards in play guarding ``objective``."""
    return [
        u
        for u, c in s.cards.items()
        if c.attached_to == objective and c.zone not in ("attachments", "shadows") and table.is_in_play(s, u)
    ]
