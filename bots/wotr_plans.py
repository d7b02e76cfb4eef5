"""Plans over several cards for the greedy War of the Ring bot: fighting for a battleground.

Every attacker in a battleground combat is eliminated, won or lost, and the attack takes
the battleground only if it exceeds the printed defense and every defending icon (rules
digest §6.3; ``combat.py``). A card sent alone short of that is lost for nothing, so the
bot attacks a battleground only with a group of cards that takes it beyond what the Shadow
can still bring there (its reserve cards that may enter: a Shadow bot moves them in while
it could conceivably win, seed 003 flowchart step 3; and a share of its unseen hands), and
sends none there otherwise. It defends its own battlegrounds the same way: with the group
that holds one against the attack there and the Shadow's reach.

The group is chosen among the cards the seat may play or move there now (a play from hand
costs a second card, rules §5), the one worth most: the battleground's swing of points
times the chance of taking it, less the cards' cost; each of its cards is then worth an
equal share. Andúril's text (activate a Dúnedain battleground, move the wielder there) is
weighed the same way, battleground by battleground (:func:`activation_worth`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from projections.wotr import CardView, LocationView, TableView

PLAN_STAKE = 3.0
"""A battleground's points to the plan: twice them at least (the Free Peoples score them and
the Shadow, who would have scored it, does not), and a card short of a plan is held for
one that pays. Measured, wins of 300 standard / 300 challenging games, seeds 1301-1600:
2.0 124 / 61, 3.0 131 / 76, 4.0 129 / 64; seeds 1-100: 2.0 38 / 18, 3.0 42 / 13."""
CARD_COST = 0.6
"""What a card spent in an attack costs besides its icons' worth in reserve: every attacker
is eliminated, and a card on a battleground is not on a path (measured with PLAN_STAKE 3.0,
wins of 300 standard / 300 challenging games, seeds 1301-1600: 0.6 131 / 76, 0.3 122 / 69)."""
DEF_COST = 0.3
"""What a card sent to defend costs besides its icons' worth in reserve: defenders that
survive are cycled, not eliminated, so less than an attacker (measured as above: 0.3
131 / 76, 0.0 139 / 73, no clear difference)."""
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
    attacking: bool = True,
) -> Plan | None:
    """The cheapest worthwhile group of ``pieces`` that adds at least ``need`` attack icons
    to the Free Peoples' cards ``ours`` already on ``loc`` (a Shadow battleground); taking
    it beyond ``need`` by ``hand_threat`` more makes it safe from the Shadow's unseen hands,
    short of that it is a chance in proportion. Plays from hand are at most half the hand,
    rounded up (each costs a second card, or the top of the deck for the last)."""
    if need <= 0:
        return None
    base = side_icons(ours, attacking)
    ranked = sorted(pieces, key=lambda p: -side_icons([*ours, p.card], attacking))[:MAX_CANDIDATES]
    if side_icons([*ours, *(p.card for p in ranked)], attacking) - base < need:
        return None  # not even every card together takes it (more cards never count less)
    plays = (hand_size + 1) // 2
    stake = PLAN_STAKE * loc.vp
    best: Plan | None = None
    for size in range(1, min(MAX_GROUP, len(ranked)) + 1):
        for group in combinations(ranked, size):
            if sum(p.from_hand for p in group) > plays:
                continue
            icons = side_icons([*ours, *(p.card for p in group)], attacking) - base
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
        if loc.count is None:
            continue
        attacking = loc.deck != team
        ours = _units(c for c in loc.cards if _team_of(view, c.owner) == team)
        theirs = _units(c for c in loc.cards if _team_of(view, c.owner) != team)
        factions = loc.defending if attacking else loc.attacking
        reach = 0
        hand_threat = 0.0
        for player in view.players:
            if player.team == team:
                continue
            movable = [c for c in _units(player.reserve) if c.faction in factions]
            reach += side_icons([*theirs, *movable], not attacking) - side_icons(theirs, not attacking)
            hand_threat += player.hand_size * HAND_THREAT * _deck_icons(view.scenario, player.seat, loc, player.team)
        count = loc.count
        held = count.defense + count.defenders
        # the attack takes a battleground only beyond every defending icon (combat.decide)
        need = held + reach - count.attack + 1 if attacking else count.attack + reach - held
        out[loc.uid] = best_plan(loc, pieces.get(loc.uid, []), ours, need, hand_threat, hand_size, attacking)
    return out


ACTIVATES = "activate or reactivate any Dúnedain battleground"
"""Andúril's words: its wielder activates a battleground and moves there."""


def _shadow_reach(
    view: TableView, team: str, factions: Sequence[str], theirs: Sequence[CardView], attacking: bool
) -> int:
    """What the other team's reserve cards of ``factions`` add beside ``theirs``: a Shadow
    bot moves them in while it could conceivably win (seed 003, flowchart step 3)."""
    movable = [c for p in view.players if p.team != team for c in _units(p.reserve) if c.faction in factions]
    return side_icons([*theirs, *movable], attacking) - side_icons(theirs, attacking)


def activation_worth(view: TableView, team: str, name: str, wielder: CardView, others: Sequence[CardView]) -> float:
    """What activating (or reactivating) battleground ``name`` and moving ``wielder`` there
    is worth to ``team``, in points: the chance of taking it beyond the Shadow's reach
    (its reserve cards that may enter; ``others``, the team's own reserve cards, may follow
    the wielder) times what taking or losing it changes. A battleground in a deck goes to
    whoever wins it; one the Shadow scored comes back only if taken, its printed defense
    ignored if it is the Free Peoples' (rules digest §6.2); one the team scored can only be
    lost; an active one is fought anyway, so only the wielder's share counts."""
    from bots.wotr_greedy import HAND_THREAT, _deck_icons_by, _team_of
    from domain.wotr.cards import LOCATIONS

    active = next((loc for loc in view.battlegrounds if loc.name == name), None)
    scored = next((t.team for t in view.teams for loc in t.scored if loc.name == name), None)
    where = next((d for d in LOCATIONS.values() if d.name == name and d.kind == "battleground"), None)
    if where is None or scored == team:
        return -1.0
    attacking = where.deck != team
    factions = where.defending if attacking else where.attacking
    mine = where.attacking if attacking else where.defending
    cards = active.cards if active is not None else []
    ours = _units(c for c in cards if _team_of(view, c.owner) == team)
    theirs = _units(c for c in cards if _team_of(view, c.owner) != team)
    printed = 0 if scored is not None and scored != where.deck else where.defense
    count = active.count if active is not None else None
    attack = count.attack if count is not None else 0
    held = count.defense + count.defenders if count is not None else (0 if attacking else printed)
    if attacking and count is None:
        held = printed
    reach = _shadow_reach(view, team, factions, theirs, not attacking)
    hand_threat = sum(
        p.hand_size * HAND_THREAT * _deck_icons_by(view.scenario, p.seat, where.code, p.team)
        for p in view.players
        if p.team != team
    )
    followers = [c for c in others if c.faction in mine and c.uid != wielder.uid]

    def chance(extra: Sequence[CardView]) -> float:
        added = side_icons([*ours, *extra, *followers], attacking) - side_icons(ours, attacking)
        surplus = (attack + added - held - reach - 1) if attacking else (held + added - attack - reach)
        if surplus < 0:
            return 0.0
        return 1.0 if surplus >= hand_threat else (surplus + 1.0) / (hand_threat + 1.0)

    taken = chance([wielder])
    if active is not None:
        return PLAN_STAKE * where.vp * (taken - chance([]))
    if scored is not None:
        return PLAN_STAKE * where.vp * taken
    return where.vp * (2.0 * taken - 1.0)
