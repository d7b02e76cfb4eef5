"""Plans over several cards for the greedy War of the Ring bot: attacking a battleground.

Every attacker in a battleground combat is eliminated, won or lost (rules digest §6.3;
``combat.py``), and the attack takes the battleground only if it exceeds the printed
defense and every defending icon. A card sent alone short of that is lost for nothing, so
the bot attacks a battleground only with a group of cards that can take it beyond what the
Shadow can still bring there (its reserve cards that may enter: a Shadow bot moves them in
while it could conceivably win, seed 003 flowchart step 3; and a share of its unseen hand),
and sends none there otherwise.

The group is chosen among the cards the seat may play or move there now (a play from hand
costs a second card, rules §5), the cheapest group that takes the battleground; each of its
cards is then worth the plan's share of the battleground's swing of points, less its cost.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from projections.wotr import CardView, LocationView, TableView

PLAN_STAKE = 2.0
"""A battleground taken from the Shadow is worth its points twice: the Free Peoples score
them and the Shadow, who would have scored its own battleground, does not."""
CARD_COST = 0.6
"""What a card spent in an attack costs besides its icons' worth in reserve: every attacker
is eliminated, and a card on a battleground is not on a path."""
HAND_COST = 0.4
"""A play from hand costs a second card from hand (cycled to pay, rules §5)."""
MAX_GROUP = 5
"""The most cards a plan holds (the groups searched grow as the cards to the power)."""
MAX_CANDIDATES = 9
"""The cards a plan is chosen from, those with the most icons there first."""


@dataclass(frozen=True)
class Piece:
    """One card the seat may send to a battleground now: the option that sends it, the
    card (with the items it carries) and whether it comes from hand."""

    option: str
    card: CardView
    from_hand: bool
    cost: float


@dataclass(frozen=True)
class Plan:
    """The group that takes ``location``: the options sending it, the icons it adds, what
    it needs, and what the plan is worth (points times its chance, less the cards' cost)."""

    location: int
    options: tuple[str, ...]
    icons: int
    need: int
    value: float

    def share(self) -> float:
        """What each card of the plan is worth: an equal share of the plan's value."""
        return self.value / max(1, len(self.options))


def _units(cards: Iterable[CardView]) -> list[CardView]:
    return [c for c in cards if c.type in ("character", "army")]


def side_icons(cards: Sequence[CardView], attacking: bool) -> int:
    """The icons ``cards`` (one side's, on one battleground) count in combat: each card's
    battleground icons with its items', and a character's leadership icons only while an
    army of its faction supports it, one army per character, the strongest leaders first
    (rules digest §6.3; ``combat.tally``)."""
    total = 0
    armies: dict[str, int] = defaultdict(int)
    leaders: dict[str, list[int]] = defaultdict(list)
    for card in cards:
        total += card.bg_attack if attacking else card.bg_defense
        for item in card.items:
            total += (item.bg_attack + item.lead_attack) if attacking else (item.bg_defense + item.lead_defense)
        if card.type == "army":
            armies[card.faction] += 1
        elif card.type == "character":
            lead = card.lead_attack if attacking else card.lead_defense
            if lead > 0:
                leaders[card.faction].append(lead)
    for faction, leads in leaders.items():
        total += sum(sorted(leads, reverse=True)[: armies[faction]])
    return total


def best_plan(
    loc: LocationView,
    pieces: Sequence[Piece],
    ours: Sequence[CardView],
    need: int,
    hand_threat: float,
    hand_size: int,
) -> Plan | None:
    """The cheapest worthwhile group of ``pieces`` that adds at least ``need`` attack icons
    to the Free Peoples' cards ``ours`` already on ``loc`` (a Shadow battleground); taking
    it beyond ``need`` by ``hand_threat`` more makes it safe from the Shadow's unseen hands,
    short of that it is a chance in proportion. Plays from hand are at most half the hand,
    rounded up (each costs a second card, or the top of the deck for the last)."""
    if need <= 0:
        return None
    base = side_icons(ours, True)
    ranked = sorted(pieces, key=lambda p: -side_icons([*ours, p.card], True))[:MAX_CANDIDATES]
    plays = (hand_size + 1) // 2
    stake = PLAN_STAKE * loc.vp
    best: Plan | None = None
    for size in range(1, min(MAX_GROUP, len(ranked)) + 1):
        for group in combinations(ranked, size):
            if sum(p.from_hand for p in group) > plays:
                continue
            icons = side_icons([*ours, *(p.card for p in group)], True) - base
            surplus = icons - need
            if surplus < 0:
                continue
            chance = 1.0 if surplus >= hand_threat else (surplus + 1.0) / (hand_threat + 1.0)
            value = stake * chance - sum(p.cost for p in group)
            if value > 0 and (best is None or value > best.value):
                best = Plan(loc.uid, tuple(p.option for p in group), icons, need, value)
    return best


def plans(view: TableView, team: str, pieces: dict[int, list[Piece]], hand_size: int) -> dict[int, Plan | None]:
    """A plan for each battleground the seat's team attacks (``pieces``: what it may send to
    each now), None where no group of them takes it at a gain."""
    from bots.wotr_greedy import HAND_THREAT, _deck_icons, _team_of

    out: dict[int, Plan | None] = {}
    for loc in view.battlegrounds:
        if loc.deck == team or loc.count is None:
            continue
        ours = _units(c for c in loc.cards if _team_of(view, c.owner) == team)
        theirs = _units(c for c in loc.cards if _team_of(view, c.owner) != team)
        reach = 0
        hand_threat = 0.0
        for player in view.players:
            if player.team == team:
                continue
            movable = [c for c in _units(player.reserve) if c.faction in loc.defending]
            reach += side_icons([*theirs, *movable], False) - side_icons(theirs, False)
            hand_threat += player.hand_size * HAND_THREAT * _deck_icons(view.scenario, player.seat, loc, player.team)
        count = loc.count
        need = count.defense + count.defenders + reach - count.attack + 1
        out[loc.uid] = best_plan(loc, pieces.get(loc.uid, []), ours, need, hand_threat, hand_size)
    return out
