"""Epic Multiplayer (The Hunt for the Dreadnaught): groups sharing two global values.

Rules (The Hunt for the Dreadnaught rulebook, "Global Values" and "Epic Multiplayer Mode"):
groups of one to four players play separate games; the event organizer fixes, from the total
number of players at the start, the global quest points of stage 1B (8 per player) and the
Dreadnaught's global hit points (15 per player), counts the progress placed on every group's
stage 1B and the damage placed on every group's Dreadnaught, and tells the groups; each group
advances (or sees its Dreadnaught destroyed) at the point its own rules say.

The organizer is an aggregate of its own (:class:`Epic`): its events are the opening of the
event (the groups and the global values), each contribution it counted (with the group's
event that made it: the cause), each effect one group sent to another (a card text "in any
group", relayed to the target group; see ``domain/lcg/rules/any_group.py``) and each total
reached. How far it has read each group's log
is not its business but its process application's (``service/organizer.py``: the library's
tracking records, written in the same transaction as these events). The aggregate still
refuses to count a group event at or before the last one it counted of that group, so a
group event is never counted twice even by two organizers racing. What a group learns from
it is an event of the group's own log (:class:`~domain.lcg.events.SharedValueLearned`), so
every group's game replays, forks and verifies on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import msgspec

from domain.kernel.events import Event
from domain.lcg import events as ev
from domain.lcg.state import LcgState

PER_PLAYER = {"progress": 8, "damage": 15}
"""Global value per player among all groups: stage 1B's quest points, the Dreadnaught's hit points."""
COUNTED = {"progress": "thftd-004", "damage": "thftd-013"}
"""What each global value counts: progress placed on Searching the High Seas, damage on the Dreadnaught."""


def _placed(state: LcgState, e: Event) -> tuple[str, int] | None:
    """The global value ``e`` contributes to, and how much."""
    if isinstance(e, ev.ProgressPlaced) and state.cards[e.card].code == COUNTED["progress"]:
        return "progress", e.amount
    if isinstance(e, ev.DamageDealt) and state.cards[e.card].code == COUNTED["damage"]:
        return "damage", e.amount
    return None


def contributions(state: LcgState, events: Sequence[Event]) -> dict[str, int]:
    """What a group's ``events`` (its log, or a prefix of it) placed toward each global value,
    read from the log itself: the organizer's count of that group must equal it. ``state``
    is a state of the group at or after the last of them (it names every card)."""
    out = dict.fromkeys(PER_PLAYER, 0)
    for e in events:
        placed = _placed(state, e)
        if placed is not None:
            out[placed[0]] += placed[1]
    return out


MAX_GROUP = 4


class Group(msgspec.Struct, frozen=True):
    game_id: UUID
    players: int
    difficulty: str = "standard"


class EpicOpened(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int = 1
    groups: tuple[Group, ...]
    players: int
    totals: dict[str, int]
    timestamp: datetime | None = None


class ContributionCounted(msgspec.Struct, frozen=True, kw_only=True):
    """``amount`` of ``key`` placed in group ``group`` by its event ``source`` (the cause)."""

    originator_id: UUID
    originator_version: int
    group: UUID
    key: str
    amount: int
    source: int
    timestamp: datetime | None = None


class EffectRelayed(msgspec.Struct, frozen=True, kw_only=True):
    """Group ``group``'s event ``source`` sent ``effect`` (with ``amount``) to group ``target``;
    it is the ``number``-th effect relayed to ``target``, which learns it as an event of its
    own log (:class:`~domain.lcg.events.EffectArrived`)."""

    originator_id: UUID
    originator_version: int
    group: UUID
    source: int
    target: UUID
    number: int
    effect: str
    amount: int
    timestamp: datetime | None = None


class TotalReached(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int
    key: str
    total: int
    timestamp: datetime | None = None


class GroupFollowed(msgspec.Struct, frozen=True, kw_only=True):
    """Kept so that organizers stored before tracking records took over still load: the
    organizer had acted on group ``group``'s events up to version ``through``. Folded as the
    point before which the group's events are passed over, so re-following an old event
    counts nothing twice. No longer written."""

    originator_id: UUID
    originator_version: int
    group: UUID
    through: int
    timestamp: datetime | None = None


class GroupMoved(msgspec.Struct, frozen=True, kw_only=True):
    """A group's play went on in another game (``to``): a seat took back the decision asked
    at version ``at``, and ``to`` is the group's log up to that question, asked again. The
    organizer follows ``to`` from then on, as the same group; nothing it had counted of the
    group came after ``at`` (or the take-back was refused), so ``to`` owes nothing back."""

    originator_id: UUID
    originator_version: int
    group: UUID
    to: UUID
    at: int
    timestamp: datetime | None = None


EpicEvent = EpicOpened | ContributionCounted | EffectRelayed | TotalReached | GroupFollowed | GroupMoved


class EpicState(msgspec.Struct, kw_only=True):
    """The organizer's sheet: a fold of its events."""

    epic_id: UUID | None = None
    version: int = 0
    groups: tuple[Group, ...] = ()
    players: int = 0
    totals: dict[str, int] = msgspec.field(default_factory=dict)
    contributed: dict[UUID, dict[str, int]] = msgspec.field(default_factory=dict)
    counted_through: dict[UUID, int] = msgspec.field(default_factory=dict)
    """Each group's last event the organizer acted on (counted, or relayed): in log order."""
    relayed: dict[UUID, list[EffectRelayed]] = msgspec.field(default_factory=dict)
    """The effects relayed to each group, in order."""
    reached: dict[str, int] = msgspec.field(default_factory=dict)
    moved: dict[UUID, UUID] = msgspec.field(default_factory=dict)
    """Games a group played before a take-back, and the game it played next."""

    def apply(self, e: EpicEvent) -> None:
        self.version = e.originator_version
        if isinstance(e, EpicOpened):
            self.epic_id, self.groups, self.players, self.totals = e.originator_id, e.groups, e.players, dict(e.totals)
            self.contributed = {g.game_id: {k: 0 for k in e.totals} for g in e.groups}
            self.counted_through = {g.game_id: 0 for g in e.groups}
        elif isinstance(e, ContributionCounted):
            self.contributed[e.group][e.key] += e.amount
            self.counted_through[e.group] = e.source
        elif isinstance(e, EffectRelayed):
            self.relayed.setdefault(e.target, []).append(e)
            self.counted_through[e.group] = e.source
        elif isinstance(e, GroupFollowed):
            self.counted_through[e.group] = max(self.counted_through[e.group], e.through)
        elif isinstance(e, GroupMoved):
            self.groups = tuple(
                msgspec.structs.replace(g, game_id=e.to) if g.game_id == e.group else g for g in self.groups
            )
            self.contributed[e.to] = self.contributed.pop(e.group)
            self.counted_through[e.to] = self.counted_through.pop(e.group)
            self.relayed[e.to] = self.relayed.pop(e.group, [])
            self.moved[e.group] = e.to
        else:
            self.reached[e.key] = e.total

    def total(self, key: str) -> int:
        return sum(c[key] for c in self.contributed.values())

    def number(self, group: UUID) -> int:
        """A group's number in the event (1 for the first), by any game it has played."""
        while group in self.moved:
            group = self.moved[group]
        return next(i for i, g in enumerate(self.groups, start=1) if g.game_id == group)

    def unmovable(self, group: UUID, at: int) -> str:
        """Why group ``group`` cannot go on from its version ``at`` in another game ("" if it can)."""
        if group not in self.counted_through:
            return f"game {group} is not a group of this epic event now"
        through = self.counted_through[group]
        if through > at:
            return (
                f"the organizer has counted what the group did after version {at} (up to its event {through}) "
                "and the other groups were told: a take-back in an epic event cannot undo that"
            )
        return ""

    def others(self, group: UUID, key: str) -> int:
        """What every group but ``group`` contributed to ``key``: what ``group`` is told."""
        return self.total(key) - self.contributed[group][key]


def fold_epic(events: Sequence[EpicEvent]) -> EpicState:
    state = EpicState()
    for e in events:
        state.apply(e)
    return state


def split(players: int, groups: int) -> list[int]:
    """Players divided into groups "as evenly as possible" (rulebook), larger groups first."""
    if groups < 1 or players < groups or players > MAX_GROUP * groups:
        raise ValueError(f"{players} players cannot be split into {groups} groups of 1 to {MAX_GROUP}")
    base, extra = divmod(players, groups)
    return [base + 1] * extra + [base] * (groups - extra)


def totals_for(players: int) -> dict[str, int]:
    """The global values for ``players`` among all groups (16 players: 128 progress, 240 damage)."""
    return {key: per * players for key, per in PER_PLAYER.items()}


class Epic:
    """The organizer aggregate: appends its events after validating them against its state."""

    def __init__(self, state: EpicState) -> None:
        self.state = state
        self._new: list[EpicEvent] = []

    @property
    def id(self) -> UUID:
        assert self.state.epic_id is not None
        return self.state.epic_id

    @property
    def version(self) -> int:
        return self.state.version

    @classmethod
    def open(cls, epic_id: UUID, groups: Sequence[Group]) -> Epic:
        if not groups or any(not 1 <= g.players <= MAX_GROUP for g in groups):
            raise ValueError(f"an epic event needs groups of 1 to {MAX_GROUP} players")
        players = sum(g.players for g in groups)
        epic = cls(EpicState())
        epic._append(
            EpicOpened(originator_id=epic_id, groups=tuple(groups), players=players, totals=totals_for(players))
        )
        return epic

    def _append(self, event: EpicEvent) -> None:
        self.state.apply(event)
        self._new.append(event)

    def collect_events(self) -> list[EpicEvent]:
        new, self._new = self._new, []
        return new

    def count(self, group: UUID, state: LcgState, events: Sequence[Event]) -> None:
        """Count the contributions in ``events`` (group ``group``'s events in log order;
        ``state`` is a state of the group at or after the last of them, which names every
        card) and relay the effects they send to other groups. An event at or before the
        last one acted on of the group is passed over: it was counted already (by this
        organizer or another racing it)."""
        if group not in self.state.counted_through:
            raise KeyError(f"game {group} is not a group of this epic event")
        through = self.state.counted_through[group]
        for e in events:
            if e.seq <= through:
                continue
            if isinstance(e, ev.EffectSent):
                self._relay(group, e)
                continue
            placed = _placed(state, e)
            if placed is not None and placed[1] > 0:
                self._append(
                    ContributionCounted(
                        originator_id=self.id,
                        originator_version=self.version + 1,
                        group=group,
                        key=placed[0],
                        amount=placed[1],
                        source=e.seq,
                    )
                )
        for key, total in self.state.totals.items():
            if key not in self.state.reached and self.state.total(key) >= total:
                self._append(
                    TotalReached(originator_id=self.id, originator_version=self.version + 1, key=key, total=total)
                )

    def move(self, group: UUID, to: UUID, at: int) -> None:
        """Group ``group`` goes on in game ``to`` from its version ``at`` (a take-back);
        ValueError naming why not (:meth:`EpicState.unmovable`)."""
        why = self.state.unmovable(group, at)
        if why:
            raise ValueError(why)
        self._append(GroupMoved(originator_id=self.id, originator_version=self.version + 1, group=group, to=to, at=at))

    def _relay(self, group: UUID, e: ev.EffectSent) -> None:
        if not 1 <= e.group <= len(self.state.groups) or self.state.groups[e.group - 1].game_id == group:
            raise ValueError(f"game {group} sent an effect to group {e.group}, which is not another group")
        target = self.state.groups[e.group - 1].game_id
        self._append(
            EffectRelayed(
                originator_id=self.id,
                originator_version=self.version + 1,
                group=group,
                source=e.seq,
                target=target,
                number=len(self.state.relayed.get(target, ())) + 1,
                effect=e.effect,
                amount=e.amount,
            )
        )

    def arrivals(self, group: UUID, state: LcgState) -> list[ev.EffectArrived]:
        """The effects relayed to ``group`` that have not arrived there yet, in order."""
        return [
            ev.EffectArrived(
                relay=r.number,
                source_group=self.state.number(r.group),
                source_event=r.source,
                effect=r.effect,
                amount=r.amount,
            )
            for r in self.state.relayed.get(group, [])[state.relays :]
        ]

    def reports(self, group: UUID, state: LcgState) -> list[ev.SharedValueLearned]:
        """What ``group`` must be told: each value where what it last learned of the other
        groups differs from the organizer's count."""
        out = []
        for key in self.state.totals:
            others = self.state.others(group, key)
            if state.shared.get(key, 0) != others:
                out.append(ev.SharedValueLearned(key=key, others=others, organizer_version=self.version))
        return out
