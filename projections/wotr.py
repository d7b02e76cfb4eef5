"""What one viewer may see of a War of the Ring table (default-deny).

A seat sees its own hand, its own cycle and eliminated piles (rules §3: you may look
through them), a Shadow bot's eliminated pile (Against the Shadow), the cards it has set
aside to look at, the top of its own draw deck while
its Mirror of Galadriel is in play, and everything face up: reserves, the active path and
battlegrounds with the cards on them, the battlegrounds and Free Peoples paths in the
scoring areas. Of everything else it sees counts only: other seats' hands (teammates'
too), every draw deck, other seats' piles, the Shadow's face-down paths, the location
decks. A spectator sees the public table; the referee everything; so does everyone once
the game is over. The seed is shown only then.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.decisions import Decision
from domain.kernel.events import Outcome
from domain.wotr import events as wotr_events
from domain.wotr.cards import CARDS
from domain.wotr.rules import table
from domain.wotr.rules.combat import Tally, tally
from domain.wotr.state import FREE, SHADOW, Seat, Uid, WotrState
from projections.projection import GameProjection

REFEREE = "referee"
SPECTATOR = "spectator"


class CardView(msgspec.Struct, omit_defaults=True):
    uid: Uid
    code: str
    name: str
    type: str
    faction: str
    owner: Seat | None = None
    path: int = 0
    bg_attack: int = 0
    bg_defense: int = 0
    lead_attack: int = 0
    lead_defense: int = 0
    paths: tuple[int, ...] = ()
    keywords: tuple[str, ...] = ()
    reserved: bool = False
    text: str = ""
    items: list[CardView] = msgspec.field(default_factory=list)


class LocationView(msgspec.Struct, omit_defaults=True):
    uid: Uid
    code: str
    name: str
    kind: str
    vp: int
    defense: int
    number: int = 0
    deck: str = ""
    defending: tuple[str, ...] = ()
    attacking: tuple[str, ...] = ()
    attack_tokens: int = 0
    defense_tokens: int = 0
    ignore_defense: bool = False
    text: str = ""
    cards: list[CardView] = msgspec.field(default_factory=list)
    count: Tally | None = None
    """An active location's combat as it stands, card by card, and who would take it now:
    the count the combat step itself makes (``domain.wotr.rules.combat.tally``)."""


class PlayerView(msgspec.Struct, omit_defaults=True):
    seat: Seat
    team: str
    bot: bool = False
    """A Shadow bot the rules play (Against the Shadow)."""
    starting: bool = False
    to_act: bool = False
    ring: str = ""
    carryover: int = 2
    hand_size: int = 0
    deck_size: int = 0
    cycle_size: int = 0
    eliminated_size: int = 0
    reserve: list[CardView] = msgspec.field(default_factory=list)
    hand: list[CardView] | None = None
    cycle: list[CardView] | None = None
    eliminated: list[CardView] | None = None
    aside: list[CardView] | None = None
    aside_size: int = 0
    top_of_deck: CardView | None = None
    deck: list[CardView] | None = None


class TeamView(msgspec.Struct, omit_defaults=True):
    team: str
    score: int
    scored: list[LocationView] = msgspec.field(default_factory=list)
    face_down_paths: int = 0
    corruption: int = 0


class CombatView(msgspec.Struct, omit_defaults=True):
    location: Uid
    kind: str
    attackers: str
    attack: int
    defense: int
    remaining: int


class TableView(msgspec.Struct, omit_defaults=True):
    viewer: str
    version: int
    scenario: str
    round: int
    step: str
    players: list[PlayerView]
    teams: list[TeamView]
    path_number: int = 0
    path: LocationView | None = None
    battlegrounds: list[LocationView] = msgspec.field(default_factory=list)
    combat: CombatView | None = None
    path_decks: dict[int, int] = msgspec.field(default_factory=dict)
    battleground_decks: dict[str, int] = msgspec.field(default_factory=dict)
    effects: list[str] = msgspec.field(default_factory=list)
    decision: Decision | None = None
    waiting_for: Seat | None = None
    outcome: Outcome | None = None
    seed: int | None = None


_ICONS = ("path", "bg_attack", "bg_defense", "lead_attack", "lead_defense")


def printed_view(code: str, uid: Uid = 0) -> CardView:
    """A card as printed, out of play (icons as printed, no owner)."""
    d = CARDS[code]
    return CardView(
        uid=uid,
        code=code,
        name=d.name,
        type=d.type,
        faction=d.faction,
        path=d.path,
        bg_attack=d.bg_attack,
        bg_defense=d.bg_defense,
        lead_attack=d.lead_attack,
        lead_defense=d.lead_defense,
        paths=d.paths,
        keywords=d.keywords,
        text=d.text,
    )


def card_view(s: WotrState, uid: Uid) -> CardView:
    """A card on the table: as printed, with its owner, and in play its icons as they stand
    now and the items it wields."""
    card = s.cards[uid]
    v = printed_view(card.code, uid)
    v.owner, v.reserved = card.owner, card.reserved
    if table.in_play(s, uid):
        for icon in _ICONS:
            setattr(v, icon, table.icons(s, uid, icon))
        v.items = [card_view(s, i) for i in table.items_of(s, uid)]
    return v


def _holders(s: WotrState, zone: str) -> list[CardView]:
    """The cards of a zone in play, items shown on their wielders."""
    return [card_view(s, u) for u in s.zone(zone) if s.cards[u].wielder is None]


def location_view(s: WotrState, uid: Uid, with_cards: bool = True) -> LocationView:
    card = s.cards[uid]
    where = table.loc(s, uid)
    return LocationView(
        uid=uid,
        code=card.code,
        name=where.name,
        kind=where.kind,
        vp=where.vp,
        defense=where.defense,
        number=where.number,
        deck=where.deck,
        defending=where.defending,
        attacking=where.attacking,
        attack_tokens=card.attack_tokens,
        defense_tokens=card.defense_tokens,
        ignore_defense=card.ignore_defense,
        text=where.text,
        cards=_holders(s, table.location_zone(s, uid)) if with_cards else [],
        count=tally(s, uid) if with_cards else None,
    )


def _team(s: WotrState, side: str, all_seeing: bool) -> TeamView:
    scored = []
    face_down = 0
    for uid in s.zone(f"{side}.score"):
        if side == SHADOW and table.loc(s, uid).kind == "path" and not all_seeing:
            face_down += 1
        else:
            scored.append(location_view(s, uid, with_cards=False))
    return TeamView(
        team=side,
        score=table.score(s, side, final=s.over is not None),
        scored=scored,
        face_down_paths=face_down,
        corruption=s.corruption if side == SHADOW else 0,
    )


def _mirror_in_play(s: WotrState, seat: Seat) -> bool:
    return table.mirror_in_play(s, seat)


def view(s: WotrState, viewer: str) -> TableView:
    """The table as ``viewer`` (a seat, ``spectator`` or ``referee``) may see it."""
    all_seeing = viewer == REFEREE or s.over is not None
    to_act = s.seat_to_act() if s.step == "action" and s.order else None
    players = []
    for seat in s.seats():
        mine = all_seeing or viewer == seat
        deck = s.zone(f"{seat}.deck")
        p = PlayerView(
            seat=seat,
            team=s.team_of(seat),
            bot=s.is_bot(seat),
            starting=s.starting_seat() == seat,
            to_act=to_act == seat,
            ring=s.players[seat].ring,
            carryover=table.carryover(s, seat),
            hand_size=len(s.zone(f"{seat}.hand")),
            deck_size=len(deck),
            cycle_size=len(s.zone(f"{seat}.cycle")),
            eliminated_size=len(s.zone(f"{seat}.eliminated")),
            aside_size=len(s.zone(f"{seat}.aside")),
            reserve=_holders(s, f"{seat}.reserve"),
        )
        if mine or s.is_bot(seat):
            p.eliminated = [card_view(s, u) for u in s.zone(f"{seat}.eliminated")]
        if mine:
            p.hand = [card_view(s, u) for u in s.zone(f"{seat}.hand")]
            p.cycle = [card_view(s, u) for u in s.zone(f"{seat}.cycle")]
            p.aside = [card_view(s, u) for u in s.zone(f"{seat}.aside")]
            if deck and _mirror_in_play(s, seat):
                p.top_of_deck = card_view(s, deck[0])
        if all_seeing:
            p.deck = [card_view(s, u) for u in deck]
        players.append(p)
    path = table.active_path(s)
    combat = s.combat
    decision = s.pending
    return TableView(
        viewer=viewer,
        version=s.version,
        scenario=s.options.scenario if s.options else "",
        round=s.round,
        step=s.step,
        players=players,
        teams=[_team(s, FREE, all_seeing), _team(s, SHADOW, all_seeing)],
        path_number=s.path_number,
        path=location_view(s, path) if path is not None else None,
        battlegrounds=[location_view(s, u) for u in table.active_battlegrounds(s)],
        combat=CombatView(
            combat.location, combat.kind, combat.attackers, combat.attack, combat.defense, combat.remaining
        )
        if combat is not None
        else None,
        path_decks={n: len(s.zone(f"paths.{n}")) for n in range(1, 10) if s.zone(f"paths.{n}")},
        battleground_decks={side: len(s.zone(f"bg.{side}")) for side in (FREE, SHADOW)},
        effects=list(s.effects),
        decision=decision if decision is not None and (all_seeing or decision.seat == viewer) else None,
        waiting_for=decision.seat if decision is not None else None,
        outcome=s.over,
        seed=s.seed if all_seeing else None,
    )


# -- which cards a viewer may see (default-deny), for views and event feeds ---------------

_PUBLIC_ZONES = frozenset({"path", "battlegrounds", "free.score", "out", "resolving"})
"""Shared zones whose cards are face up (and ``at.<location>``). Location decks are face
down; so are the paths in the Shadow's scoring area."""
_PUBLIC_SEAT_ZONES = frozenset({"reserve"})
_OWN_SEAT_ZONES = frozenset({"hand", "cycle", "eliminated", "aside"})
"""A seat's own hand, piles and set-aside cards: seen by that seat only (rules §3)."""

CARD_FIELDS = ("card", "cards", "location", "wielder", "order", "played")
"""Event fields that hold card uids."""


def visible(s: WotrState, viewer: str, uid: Uid) -> bool:
    """May ``viewer`` see card ``uid`` (its identity, even its uid) in state ``s``?"""
    if viewer == REFEREE or s.over is not None:
        return True
    card = s.cards.get(uid)
    if card is None:
        return False
    zone = card.zone
    if zone in _PUBLIC_ZONES or zone.startswith("at."):
        return True
    if zone == "shadow.score":
        return table.loc(s, uid).kind == "battleground"
    seat, _, rest = zone.partition(".")
    if seat in s.players:
        if rest == "eliminated" and s.is_bot(seat):
            return True  # Against the Shadow: "You may inspect the contents of a Shadow eliminated pile."
        return rest in _PUBLIC_SEAT_ZONES or (rest in _OWN_SEAT_ZONES and seat == viewer)
    return False


class WotrProjection(GameProjection):
    """The War of the Ring part of the per-viewer feed (``projections/feed.py``)."""

    def __init__(self) -> None:
        super().__init__("wotr", view, visible, CARD_FIELDS)

    def reveals(self, event: Any, viewer: str) -> set[int]:
        """Cards an event shows beyond the zone rules: what a seat looked at (to that seat),
        a card taken by name from a deck or pile (to everyone, rules §3), the card a Shadow
        bot is about to play face up."""
        if isinstance(event, wotr_events.CardsLookedAt) and event.player == viewer:
            return set(event.cards)
        if isinstance(event, wotr_events.CardTaken):
            return {event.card}
        if isinstance(event, wotr_events.BotChose) and event.shown:
            return set(event.cards)
        return set()

    def refs(self, body: dict[str, Any]) -> set[int]:
        found = super().refs(body)
        for pair in body.get("supports", ()):
            found.update(pair)
        return found


PROJECTION = WotrProjection()
