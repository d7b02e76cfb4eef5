"""Encounter phase: optional engagement, then engagement checks.

Rules: each player in turn may engage one enemy in the staging area. Then, player by
player, the enemy in the staging area with the highest engagement cost at or below
that player's threat engages them; this repeats until no enemy can engage anyone. On a
tie the player chooses which enemy engages them.
Massive (Hunt for the Dreadnaught rulebook): an enemy with Massive "cannot leave the
staging area": it is neither engaged optionally nor by an engagement check.
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.flow import Ask, Decide, If, Node, Repeat, register
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import card_option, each_player, emit, engage, st
from domain.lcg.rules import table
from domain.lcg.rules.constant import may_be_engaged, may_optionally_engage, skips_engagement_checks
from domain.lcg.rules.table import seats_in_turn
from domain.lcg.state import LcgState, Seat, Uid


def _ask_optional(rt: Runtime) -> Ask | None:
    s = st(rt)
    seat = rt.env["player"]
    enemies = [
        u
        for u in table.staging_enemies(s)
        if may_optionally_engage(s, u) and may_be_engaged(s, u) and not table.has_keyword(s, u, "Massive")
    ]
    if not enemies:
        return None
    options = [card_option(s, u) for u in enemies]
    return Ask(seat, "Engage an enemy from the staging area?", [*options, Option("skip", "No")])


def next_engagement(s: LcgState, seat: Seat) -> list[Uid]:
    """The enemies that would engage ``seat`` now (several only on a tie)."""
    threat = s.players[seat].threat
    able = [
        u
        for u in table.staging_enemies(s)
        if table.engagement_cost(s, u) <= threat and not table.has_keyword(s, u, "Massive") and may_be_engaged(s, u)
    ]
    if not able:
        return []
    top = max(table.engagement_cost(s, u) for u in able)
    return [u for u in able if table.engagement_cost(s, u) == top]


def _none_can_engage(rt: Runtime) -> bool:
    s = st(rt)
    return skips_engagement_checks(s) or not any(next_engagement(s, seat) for seat in seats_in_turn(s))


def _ask_check(rt: Runtime) -> Ask | None:
    s = st(rt)
    seat = rt.env["player"]
    enemies = next_engagement(s, seat)
    if not enemies:
        return None
    return Ask(seat, "Engagement check: which enemy engages you?", [card_option(s, u) for u in enemies])


ENGAGED_BY_A_TEXT = register(
    "lcg.encounter.engaged-by-a-text",
    engage(lambda rt: int(rt.env["enemy"]), lambda rt: str(rt.env["player"])),
    rule="lcg.encounter.engaged-by-a-text",
)
"""An enemy engages a player from wherever it is (the encounter deck or its discard pile, the
staging area, another player's play area), as a card's text engages it, with no engagement
check: a position states such an engagement (a fixture's ``engage``) to ask what follows it
(Boarding resolves only after an engagement from the staging area)."""


def _engage(bind: str) -> Node:
    return emit(lambda rt: ev.EnemyEngaged(enemy=int(rt.env[bind]), player=rt.env["player"], origin="staging"))


def body() -> list[Node]:
    return [
        each_player(
            Decide(
                _ask_optional,
                "enemy",
                If(lambda rt: rt.env["enemy"] != "skip", _engage("enemy")),
            ),
            rule="lcg.encounter.optional-engagement",
        ),
        Repeat(
            each_player(Decide(_ask_check, "engages", _engage("engages"), auto_single=True)),
            until=_none_can_engage,
            rule="lcg.encounter.engagement-check",
        ),
    ]
