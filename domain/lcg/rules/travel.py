"""Travel phase: if there is no active location, the first player may travel to one.

Rules: the players may travel to one location in the staging area when there is no
active location; a Travel cost printed on the location must be paid to travel there.
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.flow import Ask, Call, Decide, If, Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import card_option, emit, st
from domain.lcg.rules import table
from domain.lcg.rules.constant import cannot_leave_staging, must_travel_to
from domain.lcg.rules.table import text_of
from domain.lcg.state import LcgState, Uid

TRAVEL_REFUSED = "travel.refused"
"""A lasting flag (until the end of the round) set by a Travel cost that failed (Secret
Entrance): the location stays in the staging area and the players cannot travel again this
round."""


def reachable(s: LcgState) -> list[Uid]:
    if table.active_location(s) is not None or s.limit_used(TRAVEL_REFUSED):
        return []
    out = []
    for uid in table.staging(s):
        if table.defn(s, uid).type != "location" or cannot_leave_staging(s, uid):
            continue
        can = text_of(s.cards[uid].code).can_travel
        if can is None or can(s, uid):
            out.append(uid)
    return out


def _ask(rt: Runtime) -> Ask | None:
    s = st(rt)
    places = reachable(s)
    forced = [u for u in must_travel_to(s) if u in places]
    if forced:
        # The East Bight: "the players must travel to The East Bight if there is no active location".
        return Ask(s.first, "Travel: you must travel to this location", [card_option(s, u) for u in forced])
    options = [card_option(s, u) for u in places]
    if not options:
        return None
    return Ask(s.first, "Travel to a location in the staging area?", [*options, Option("skip", "Do not travel")])


def _cost(rt: Runtime) -> str | None:
    code = st(rt).cards[int(rt.env["location"])].code
    return f"{code}.travel" if text_of(code).travel is not None else None


def body() -> list[Node]:
    return [
        Decide(
            _ask,
            "location",
            If(
                lambda rt: rt.env["location"] != "skip",
                Seq(
                    Call(
                        _cost,
                        lambda rt: {
                            "self": int(rt.env["location"]),
                            "_card": int(rt.env["location"]),
                            "player": st(rt).first,
                        },
                        rule="lcg.travel.cost",
                    ),
                    emit(
                        lambda rt: (
                            None
                            if st(rt).limit_used(TRAVEL_REFUSED)
                            else ev.LocationTraveled(card=int(rt.env["location"]))
                        )
                    ),
                ),
            ),
            rule="lcg.travel",
        )
    ]
