"""Constant abilities: card texts that change how a rule runs while the card is where it acts.

A quest stage changes the quest and encounter phases (Anduin Passage reveals one more card
and skips engagement checks; Ambush on the Shore skips the staging step; The Necromancer's
Tower lets the group play one ally a round); a location changes travel or the refresh phase
(The East Bight, Gladden Fields); an enemy in the staging area limits optional engagement
(Goblin Sniper) or keeps a card there (The Lonely Mountain, Smaug the Magnificent); an
attachment stops its host fighting (Gandalf's Map); a condition on a deck replaces its next
draw (Iron Shackles). Card modules declare them with
:func:`constant`; the phases ask the questions below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from domain.lcg.cards import CARDS
from domain.lcg.rules import table
from domain.lcg.rules.table import cards_in, seats_in_turn
from domain.lcg.state import LcgState, Seat, Uid


@dataclass(frozen=True)
class Constant:
    extra_reveals: int = 0
    """Stage: encounter cards revealed in the staging step beyond one per player."""
    skips_staging: bool = False
    """Stage: the quest phase has no staging step."""
    skips_engagement_checks: bool = False
    """Stage: no engagement checks in the encounter phase (optional engagement stays)."""
    allies_per_round: int | None = None
    """Stage: how many ally cards the group may play each round."""
    refresh_threat: int = 0
    """Active location: each player's threat rises this much more in the refresh phase."""
    must_travel: bool = False
    """Location in the staging area: with no active location, the players must travel here."""
    optional_engagement: Callable[[LcgState, Uid], bool] | None = None
    """Enemy in the staging area: whether a player may optionally engage it now."""
    host_cannot_fight: bool = False
    """Attachment: the attached character cannot attack or defend."""
    replaces_draw: bool = False
    """Condition on a deck: the next draw from that deck discards this card instead."""
    no_attachments: bool = False
    """Enemy: no attachment can be played on it."""
    skips_quest: bool = False
    """Stage: no quest phase is played (A Warm Welcome): nobody commits, nothing is
    revealed, the quest does not resolve."""
    cannot_be_engaged: bool = False
    """Enemy: nothing engages it, neither optional engagement, an engagement check nor a card
    effect (Smaug the Golden: "cannot be engaged by any means")."""
    stays_in_staging: Callable[[LcgState, Uid], bool] | None = None
    """Card in the staging area: while this holds it cannot leave the staging area (The
    Lonely Mountain with a card under it; Smaug the Magnificent, whom only quest card
    effects move): it is not traveled to, explored, engaged or discarded."""


CONSTANTS: Final[dict[str, Constant]] = {}
_NONE: Final = Constant()


def constant(code: str, entry: Constant) -> Constant:
    """Declare what the text of card ``code`` changes in the rules."""
    if code not in CARDS:
        raise KeyError(f"{code} is not a known card")
    if code in CONSTANTS:
        raise ValueError(f"{code} has two constant abilities")
    CONSTANTS[code] = entry
    return entry


def of(s: LcgState, uid: Uid | None) -> Constant:
    return _NONE if uid is None else CONSTANTS.get(s.cards[uid].code, _NONE)


def stage(s: LcgState) -> Constant:
    return of(s, table.quest_card(s))


def staging_reveals(s: LcgState) -> list[object]:
    """One item per encounter card the staging step reveals (players first, then extra)."""
    now = stage(s)
    if now.skips_staging or now.skips_quest:
        return []
    seats: list[object] = list(seats_in_turn(s))
    return seats + [f"extra-{i}" for i in range(now.extra_reveals)]


def skips_engagement_checks(s: LcgState) -> bool:
    return stage(s).skips_engagement_checks


def may_optionally_engage(s: LcgState, enemy: Uid) -> bool:
    test = of(s, enemy).optional_engagement
    return test is None or test(s, enemy)


def must_travel_to(s: LcgState) -> list[Uid]:
    """Locations the players must travel to now, if any (The East Bight)."""
    if table.active_location(s) is not None:
        return []
    return [u for u in table.staging(s) if of(s, u).must_travel]


def cannot_leave_staging(s: LcgState, uid: Uid) -> bool:
    """Whether a card in the staging area is kept there by its own constant ability."""
    test = of(s, uid).stays_in_staging
    return test is not None and s.cards[uid].zone == "staging" and test(s, uid)


def may_be_engaged(s: LcgState, enemy: Uid) -> bool:
    """Whether anything may engage the enemy: not one that cannot be engaged, nor one its text
    keeps in the staging area."""
    return not of(s, enemy).cannot_be_engaged and not cannot_leave_staging(s, enemy)


def extra_refresh_threat(s: LcgState) -> int:
    return of(s, table.active_location(s)).refresh_threat


def cannot_fight(s: LcgState, uid: Uid) -> bool:
    """Whether an attachment on the character forbids it to attack or defend."""
    return any(of(s, a).host_cannot_fight for a in table.attachments_on(s, uid))


def ally_cap_reached(s: LcgState) -> bool:
    """Whether the group already played as many allies this round as the stage allows."""
    cap = stage(s).allies_per_round
    return cap is not None and sum(1 for x in s.limits if x.key == ALLY_LIMIT) >= cap


ALLY_LIMIT = "stage.ally-played"
"""The limit key recorded each time an ally is played under a stage that counts them."""


def draw_replacement(s: LcgState, seat: Seat) -> Uid | None:
    """A condition on ``seat``'s deck that the next draw discards instead (Iron Shackles)."""
    for uid in cards_in(s, f"{seat}.shackles"):
        if of(s, uid).replaces_draw:
            return uid
    return None


def skips_quest(s: LcgState) -> bool:
    return stage(s).skips_quest
