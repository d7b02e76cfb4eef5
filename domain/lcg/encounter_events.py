"""Events of the scenarios beyond Passage through Mirkwood: guards and objectives, the
prisoner, face-down Orc Guards, progress taken away, and the ends of phases and rounds.

Like :mod:`domain.lcg.events`, each apply function only writes down what happened.
"""

from __future__ import annotations

from domain.kernel import zones
from domain.kernel.events import Event
from domain.lcg.events import _move, on
from domain.lcg.state import Card, LcgState, Seat, Uid


class PhaseEnded(Event, frozen=True, kw_only=True):
    """The phase is over: "at the end of the phase" effects resolve now (Goblin Sniper)."""

    phase: str


@on(PhaseEnded)
def _phase_ended(s: LcgState, e: PhaseEnded) -> None:
    pass


class RoundEnded(Event, frozen=True, kw_only=True):
    """The round is over: "at the end of the round" effects resolve now (Dungeon Torch)."""

    round: int


@on(RoundEnded)
def _round_ended(s: LcgState, e: RoundEnded) -> None:
    pass


class ShadowEffectResolved(Event, frozen=True, kw_only=True):
    """The shadow effect of ``card``, dealt to ``enemy``, has resolved."""

    enemy: Uid
    card: Uid


@on(ShadowEffectResolved)
def _shadow_resolved(s: LcgState, e: ShadowEffectResolved) -> None:
    pass


class GuardPlaced(Event, frozen=True, kw_only=True):
    """An encounter card now guards an objective, until it leaves play (Guarded)."""

    card: Uid
    objective: Uid


@on(GuardPlaced)
def _guard(s: LcgState, e: GuardPlaced) -> None:
    s.cards[e.card].attached_to = e.objective


class GuardsReleased(Event, frozen=True, kw_only=True):
    """These cards no longer guard anything (their objective left the staging area)."""

    cards: tuple[Uid, ...]


@on(GuardsReleased)
def _released(s: LcgState, e: GuardsReleased) -> None:
    for uid in e.cards:
        s.cards[uid].attached_to = None


class ObjectiveClaimed(Event, frozen=True, kw_only=True):
    """A player claimed an objective and attached it to a hero he controls."""

    card: Uid
    to: Uid
    player: Seat


@on(ObjectiveClaimed)
def _claimed(s: LcgState, e: ObjectiveClaimed) -> None:
    _move(s, e.card, "attachments")
    card = s.cards[e.card]
    card.attached_to = e.to
    card.claimed = True


class ObjectiveReturned(Event, frozen=True, kw_only=True):
    """A claimed objective was detached (discarded): it returns to the staging area, unclaimed."""

    card: Uid


@on(ObjectiveReturned)
def _returned(s: LcgState, e: ObjectiveReturned) -> None:
    _move(s, e.card, "staging")
    s.cards[e.card].claimed = False


class ProgressRemoved(Event, frozen=True, kw_only=True):
    card: Uid
    amount: int


@on(ProgressRemoved)
def _progress_removed(s: LcgState, e: ProgressRemoved) -> None:
    s.cards[e.card].progress -= e.amount


class HeroCaptured(Event, frozen=True, kw_only=True):
    """The hero is turned face down as the prisoner: out of use until rescued."""

    card: Uid


@on(HeroCaptured)
def _captured(s: LcgState, e: HeroCaptured) -> None:
    _move(s, e.card, f"{s.cards[e.card].owner}.prisoner")


class HeroRescued(Event, frozen=True, kw_only=True):
    """The prisoner is turned face up again, in play under its owner's control."""

    card: Uid


@on(HeroRescued)
def _rescued(s: LcgState, e: HeroRescued) -> None:
    _move(s, e.card, f"{s.cards[e.card].owner}.heroes")


class OrcGuardMade(Event, frozen=True, kw_only=True):
    """The top card of a player's deck went face down under a new Orc Guard enemy.

    ``card`` is the face-down player card (nobody sees it); ``guard`` is the uid of the
    Orc Guard the table sees, entering the staging area to engage the player at once.
    """

    card: Uid
    guard: Uid
    player: Seat


@on(OrcGuardMade)
def _orc_guard(s: LcgState, e: OrcGuardMade) -> None:
    _move(s, e.card, f"{e.player}.under")
    s.cards[e.card].attached_to = e.guard
    zones.add(s, Card(uid=e.guard, code="orc-guard", zone="staging"))


class OrcGuardRemoved(Event, frozen=True, kw_only=True):
    """An Orc Guard left play: its face-down card goes to its owner's discard pile."""

    guard: Uid
    card: Uid | None = None


@on(OrcGuardRemoved)
def _orc_guard_removed(s: LcgState, e: OrcGuardRemoved) -> None:
    _move(s, e.guard, "removed")
    if e.card is not None:
        _move(s, e.card, f"{s.cards[e.card].owner}.discard")


ENCOUNTER_EVENTS: tuple[type[Event], ...] = (
    PhaseEnded,
    RoundEnded,
    ShadowEffectResolved,
    GuardPlaced,
    GuardsReleased,
    ObjectiveClaimed,
    ObjectiveReturned,
    ProgressRemoved,
    HeroCaptured,
    HeroRescued,
    OrcGuardMade,
    OrcGuardRemoved,
)
