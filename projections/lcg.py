"""What one viewer may see of a Lord of the Rings LCG table (default-deny).

A seat sees its own hand, every face-up card, and counts of face-down piles; never
another seat's hand, any deck's order or contents, a face-down shadow card, the quest
cards not yet revealed, or the seed. A spectator sees only the public table. The
referee sees everything; so does everyone once the game is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel.decisions import Decision
from domain.kernel.events import Outcome
from domain.lcg import events as lcg_events
from domain.lcg.cards import CARDS, CardDef
from domain.lcg.rules import ship_keywords, table
from domain.lcg.state import SET_ASIDE_FACE_UP, Card, LcgState, Seat, Uid
from projections.projection import GameProjection

REFEREE = "referee"
SPECTATOR = "spectator"


class CardView(msgspec.Struct, omit_defaults=True):
    uid: Uid
    code: str
    name: str
    type: str
    exhausted: bool = False
    committed: bool = False
    damage: int = 0
    resources: int = 0
    progress: int = 0
    willpower: int | None = None
    attack: int | None = None
    defense: int | None = None
    hit_points: int | None = None
    threat: int | None = None
    engagement_cost: int | None = None
    quest_points: int | None = None
    cost: int | None = None
    sphere: str | None = None
    keywords: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    text: str = ""
    attachments: list[CardView] = msgspec.field(default_factory=list)
    shadows: list[CardView] = msgspec.field(default_factory=list)
    face_down_shadows: int = 0
    victory_points: int | None = None
    guarding: Uid | None = None
    """The objective this encounter card guards (Guarded)."""
    other_groups: int = 0
    """Epic Multiplayer: the progress (stage 1B) or damage (the Dreadnaught) the other groups
    placed toward this card's global value, which ``quest_points`` or ``hit_points`` shows
    whole: the value is met when this card's own tokens and these reach it."""


class PlayerView(msgspec.Struct, omit_defaults=True):
    seat: Seat
    threat: int
    eliminated: bool = False
    first: bool = False
    heroes: list[CardView] = msgspec.field(default_factory=list)
    allies: list[CardView] = msgspec.field(default_factory=list)
    engaged: list[CardView] = msgspec.field(default_factory=list)
    hand: list[CardView] | None = None
    hand_size: int = 0
    deck_size: int = 0
    discard: list[CardView] = msgspec.field(default_factory=list)
    deck: list[CardView] | None = None
    prisoner: list[CardView] = msgspec.field(default_factory=list)
    """A hero turned face down as the prisoner (Escape from Dol Guldur)."""
    deck_conditions: list[CardView] = msgspec.field(default_factory=list)
    """Conditions attached to the top of the deck (Iron Shackles)."""
    contract: list[CardView] = msgspec.field(default_factory=list)
    burgled: list[CardView] = msgspec.field(default_factory=list)
    """The card a burgle attempt turned up from the top of the deck, face up (The Lonely Mountain)."""


class TableView(msgspec.Struct, omit_defaults=True):
    viewer: str
    version: int
    round: int
    phase: str
    players: list[PlayerView]
    staging: list[CardView]
    encounter_deck_size: int
    encounter_discard: list[CardView]
    victory: list[CardView]
    quest: CardView | None = None
    active_location: CardView | None = None
    quest_stage: int = 0
    revealed: list[CardView] = msgspec.field(default_factory=list)
    decision: Decision | None = None
    waiting_for: Seat | None = None
    outcome: Outcome | None = None
    seed: int | None = None
    encounter_deck: list[CardView] | None = None
    set_aside: list[CardView] = msgspec.field(default_factory=list)
    """Cards set aside face up, out of play (Nazgûl of Dol Guldur)."""
    setup: list[CardView] = msgspec.field(default_factory=list)
    """The scenario's setup card beside the quest deck (The Hunt for the Dreadnaught)."""
    corsair_deck_size: int = 0
    corsair_discard: list[CardView] = msgspec.field(default_factory=list)
    treasures: int = 0
    """How many treasures lie face down under The Lonely Mountain (their identity is hidden)."""
    offered: list[CardView] = msgspec.field(default_factory=list)
    """Cards the viewer's own pending decision names that the table does not lay out for it
    (the ship-objectives set aside while the fleet is prepared), so it can read what it picks."""
    staging_threat: int = 0
    """The total threat in the staging area as the quest counts it (``table.staging_threat``:
    a card that contributes no threat left out, the threat auras and the staging area's own
    modifiers counted), which the sum of the staged cards' threat is not."""
    committed_willpower: int = 0
    """The willpower of the characters committed to the quest, as the quest adds it up."""


Hosts = dict[Uid | None, list[Uid]]
"""The cards in the attachments zone by the card each is attached to, in the zone's order."""


def hosts(s: LcgState) -> Hosts:
    """Every card's attachments at once, each list what ``table.attachments_on`` gives: a view
    asks it of every card it shows, and each ask reads the whole attachments zone."""
    cards = s.cards
    found: Hosts = {}
    for a in s.zone("attachments"):
        found.setdefault(cards[a].attached_to, []).append(a)
    return found


_CHARACTER_STATS = ("willpower", "attack", "defense", "hit_points")
_ENEMY_STATS = ("attack", "defense", "threat", "engagement_cost")
_LOCATION_STATS = ("threat", "quest_points")


def card_view(s: LcgState, uid: Uid, attached: Hosts | None = None) -> CardView:
    """``uid`` as a viewer who may see it sees it; ``attached``: ``hosts(s)``, for a caller
    that shows many cards (read afresh when not given)."""
    if attached is None:
        attached = hosts(s)
    card = s.cards[uid]
    d = CARDS[card.code]
    on = attached.get(uid, [])
    v = CardView(
        uid=uid,
        code=card.code,
        name=_title(card, d),
        type=d.type,
        exhausted=card.exhausted,
        committed=card.committed,
        damage=card.damage,
        resources=table.resources_on(s, uid),
        progress=card.progress,
        sphere=d.sphere,
        keywords=ship_keywords.printed_keywords(s, uid),
        traits=table.traits_on(s, uid, on),
        text=table.printed_text(s, uid),
    )
    if d.is_character:
        v.willpower, v.attack, v.defense, v.hit_points = table.stats_on(s, uid, _CHARACTER_STATS, on)
        v.cost = d.cost if d.type == "ally" else None
    elif d.type == "enemy":
        v.attack, v.defense, v.threat, v.engagement_cost = table.stats_on(s, uid, _ENEMY_STATS, on)
        v.hit_points = table.global_value(s, uid, "hit_points", on)
    elif d.type == "location":
        v.threat, v.quest_points = table.stats_on(s, uid, _LOCATION_STATS, on)
    elif d.type == "quest":
        v.quest_points = table.global_value(s, uid, "quest_points", on)  # a global value whole
    elif d.type in ("attachment", "event"):
        v.cost = d.cost
    v.other_groups = table.other_groups(s, uid)
    v.attachments = [card_view(s, a, attached) for a in on]
    v.victory_points = d.victory_points or None
    if card.attached_to is not None and card.zone not in ("attachments", "shadows") and table.is_in_play(s, uid):
        v.guarding = card.attached_to
    return v


def _title(card: Card, d: CardDef) -> str:
    """The name on the side of the card that is up (a quest card's side A has its own)."""
    return d.name if d.type != "quest" or card.face == "B" else (d.name_a or d.name)


def identity_view(s: LcgState, uid: Uid, attached: Hosts) -> CardView:
    """Which card ``uid`` is, and what is attached to it, without its stats or text: what a
    rollout's blueprint reads of the encounter cards out of play (:func:`play_view`)."""
    card = s.cards[uid]
    d = CARDS[card.code]
    v = CardView(uid=uid, code=card.code, name=_title(card, d), type=d.type)
    v.attachments = [identity_view(s, a, attached) for a in attached.get(uid, ())]
    return v


def _enemy_view(s: LcgState, uid: Uid, all_seeing: bool, attached: Hosts) -> CardView:
    v = card_view(s, uid, attached)
    for shadow in table.shadows_of(s, uid):
        if all_seeing or s.cards[shadow].shown:
            v.shadows.append(card_view(s, shadow, attached))
        else:
            v.face_down_shadows += 1
    return v


def view(s: LcgState, viewer: str) -> TableView:
    """The table as ``viewer`` (a seat, ``spectator`` or ``referee``) may see it."""
    return _table_view(s, viewer, whole=True)


def play_view(s: LcgState, seat: str) -> TableView:
    """The parts of ``seat``'s view a player decides from, for a search's rollouts.

    A rollout plays in a world the search dealt itself (bots/worlds.py), so the blueprint
    may read it straight; what costs is building every card's view. This one leaves empty
    the piles out of play no bot reads (the other players' discard piles, the Corsair
    discard pile), which took a good part of a rollout's time. The encounter cards out of
    play (the encounter discard pile, the victory display) are there by their identity
    alone (:func:`identity_view`): the greedy bot reckons the encounter deck's composition
    from their codes (bots/lcg_encounter.py) and finds the last burgle card among them
    (bots/lcg_burgle.py); their stats and text, a pile that grows all game, were most of
    what was left of a view's cost. Everything else is the seat's own view, built by the same code
    (``_table_view``), so a bot decides in a rollout as it does at the table. It is never
    shown to anyone: the seat's own view stays ``view``.
    """
    return _table_view(s, seat, whole=False)


def _table_view(s: LcgState, viewer: str, whole: bool) -> TableView:
    """The one builder of a table view: ``viewer``'s whole view, or (``whole`` false) the
    rollout's, which leaves the piles no bot reads empty, shows the encounter cards out of
    play by their identity, and builds the rest alike."""
    all_seeing = viewer == REFEREE or s.over is not None
    attached = hosts(s)
    shown = card_view if whole else identity_view
    players = []
    for seat in s.order:
        player = s.players[seat]
        mine = all_seeing or viewer == seat
        players.append(
            PlayerView(
                seat=seat,
                threat=player.threat,
                eliminated=player.eliminated,
                first=s.first == seat,
                heroes=[card_view(s, u, attached) for u in s.zone(f"{seat}.heroes")],
                allies=[card_view(s, u, attached) for u in s.zone(f"{seat}.allies")],
                engaged=[_enemy_view(s, u, all_seeing, attached) for u in table.engaged(s, seat)],
                hand=[card_view(s, u, attached) for u in s.zone(f"{seat}.hand")] if mine else None,
                hand_size=len(s.zone(f"{seat}.hand")),
                deck_size=len(s.zone(f"{seat}.deck")),
                discard=[card_view(s, u, attached) for u in s.zone(f"{seat}.discard")] if whole or mine else [],
                deck=[card_view(s, u, attached) for u in s.zone(f"{seat}.deck")] if all_seeing else None,
                prisoner=[card_view(s, u, attached) for u in s.zone(f"{seat}.prisoner")],
                deck_conditions=[card_view(s, u, attached) for u in s.zone(f"{seat}.shackles")],
                contract=[card_view(s, u, attached) for u in s.zone(f"{seat}.contract")],
                burgled=[card_view(s, u, attached) for u in s.zone(f"{seat}.burgle")],
            )
        )
    stage = table.quest_card(s)
    location = table.active_location(s)
    decision = s.pending
    return TableView(
        viewer=viewer,
        version=s.version,
        round=s.round,
        phase=s.phase,
        players=players,
        staging=[_enemy_view(s, u, all_seeing, attached) for u in s.zone("staging")],
        encounter_deck_size=len(s.zone("encounter.deck")),
        encounter_discard=[shown(s, u, attached) for u in s.zone("encounter.discard")],
        victory=[shown(s, u, attached) for u in s.zone("victory")],
        quest=card_view(s, stage, attached) if stage is not None else None,
        quest_stage=CARDS[s.cards[stage].code].stage if stage is not None else 0,
        active_location=card_view(s, location, attached) if location is not None else None,
        revealed=[card_view(s, u, attached) for u in s.zone("revealed")],
        decision=decision if decision is not None and (all_seeing or decision.seat == viewer) else None,
        waiting_for=decision.seat if decision is not None else None,
        outcome=s.over,
        seed=s.seed if all_seeing else None,
        encounter_deck=[card_view(s, u, attached) for u in s.zone("encounter.deck")] if all_seeing else None,
        set_aside=[card_view(s, u, attached) for u in s.zone(SET_ASIDE_FACE_UP)],
        setup=[card_view(s, u, attached) for u in s.zone("setup")],
        corsair_deck_size=len(s.zone("corsair.deck")),
        corsair_discard=[card_view(s, u, attached) for u in s.zone("corsair.discard")] if whole else [],
        treasures=len(s.zone("treasures")),
        offered=_offered(s, viewer, decision, attached) if decision is not None and decision.seat == viewer else [],
        staging_threat=table.staging_threat(s),
        committed_willpower=sum(table.willpower(s, u) for u in table.committed(s)),
    )


def _offered(s: LcgState, viewer: str, decision: Any, attached: Hosts) -> list[CardView]:
    """The cards ``decision`` names (its options' and the one it is about) that ``viewer``
    does not see on the table: a seat is shown what it is asked to choose."""
    named = [o.card for o in decision.options if o.card is not None]
    if decision.about is not None:
        named.append(decision.about)
    hidden = [uid for uid in dict.fromkeys(named) if uid in s.cards and not visible(s, viewer, uid)]
    return [card_view(s, uid, attached) for uid in hidden]


# -- which cards a viewer may see (default-deny), for views and event feeds ---------------

_PUBLIC_ZONES = frozenset(
    {
        "staging",
        "active",
        "quest",
        "quest.done",
        "encounter.discard",
        "victory",
        "revealed",
        "removed",
        SET_ASIDE_FACE_UP,
        "corsair.discard",
        "setup",
    }
)
"""Shared zones whose cards are face up (removed from the game: events such as Will of the
West, and Orc Guards gone from play). Everything else shared (the encounter deck, the quest
deck, unused quest cards, cards set aside face down) is hidden from every seat."""
_PUBLIC_PLAYER_ZONES = frozenset(
    {"heroes", "allies", "engaged", "discard", "prisoner", "shackles", "contract", "burgle"}
)
"""A player's face-up zones (the prisoner's identity is known: it was a hero in play); their
hand is seen by its owner only; the card a burgle attempt turned up is face up; their deck,
and a card face down under an Orc Guard, by nobody."""

CARD_FIELDS = (
    "card",
    "enemy",
    "defender",
    "cards",
    "attackers",
    "to",
    "objective",
    "guard",
    "burgle",
    "revealed",
    "discarded",
)
"""Event fields that hold card uids (``to`` only when it is a uid, not a zone name)."""


def visible(s: LcgState, viewer: str, uid: Uid) -> bool:
    """May ``viewer`` see card ``uid`` (its identity, even its uid) in state ``s``?"""
    if viewer == REFEREE or s.over is not None:
        return True
    card = s.cards.get(uid)
    return card is not None and _visible(s, viewer, card.zone, card, 0)


def _visible(s: LcgState, viewer: str, zone: str, card: Any, depth: int) -> bool:
    if zone in _PUBLIC_ZONES:
        return True
    if zone == "shadows":
        return bool(card.shown)
    if zone == "attachments":
        host = s.cards.get(card.attached_to) if card.attached_to is not None else None
        return host is not None and depth < 8 and _visible(s, viewer, host.zone, host, depth + 1)
    seat, _, rest = zone.partition(".")
    if seat in s.players:
        if rest in _PUBLIC_PLAYER_ZONES:
            return True
        if rest == "hand":
            return seat == viewer
    return False


class LcgProjection(GameProjection):
    """The LCG part of the per-viewer feed (``projections/feed.py`` does the generic part)."""

    def __init__(self) -> None:
        super().__init__("lcg", view, visible, CARD_FIELDS)

    def reveals(self, event: Any, viewer: str) -> set[int]:
        """Cards an event shows to one seat beyond the zone rules: a card it looked at."""
        if isinstance(event, lcg_events.CardLookedAt) and event.player == viewer:
            return {event.card}
        return set()

    def refs(self, body: dict[str, Any]) -> set[int]:
        """Every card uid the game-specific fields of an event body mention."""
        found = super().refs(body)
        found.update(payment[0] for payment in body.get("payments", ()))
        return found

    def redact(self, body: dict[str, Any], seeing: Callable[[int], bool]) -> bool:
        """Remove from ``body`` what the viewer may not see; True if anything was removed."""
        changed = super().redact(body, seeing)
        if "payments" in body:
            kept = [p for p in body["payments"] if seeing(p[0])]
            if len(kept) != len(body["payments"]):
                body["payments"] = kept
                changed = True
        return changed


PROJECTION = LcgProjection()
