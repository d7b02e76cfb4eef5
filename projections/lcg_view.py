"""Building what one viewer may see of a Lord of the Rings LCG table (default-deny).

The builders of ``projections.lcg`` (which re-exports them): a seat's table view, the
rollout's cheaper one, and whether a viewer may see a card. They are apart from the view's
Struct classes (``projections/lcg_types.py``) so that they can be compiled with the rules
(domain/build.py): a search's rollouts build a view for every decision of the greedy player.
"""

from __future__ import annotations

from typing import Any, Final

from domain.lcg.cards import CARDS, CardDef
from domain.lcg.rules import ship_keywords, table
from domain.lcg.state import SET_ASIDE_FACE_UP, Card, LcgState, Uid
from projections.lcg_types import CardView, Hosts, PlayerView, TableView

REFEREE: Final = "referee"
SPECTATOR: Final = "spectator"


def hosts(s: LcgState) -> Hosts:
    """Every card's attachments at once, each list what ``table.attachments_on`` gives: a view
    asks it of every card it shows, and each ask reads the whole attachments zone."""
    cards = s.cards
    found: Hosts = {}
    for a in s.zone("attachments"):
        found.setdefault(cards[a].attached_to, []).append(a)
    return found


_CHARACTER_STATS: Final = ("willpower", "attack", "defense", "hit_points")
_ENEMY_STATS: Final = ("attack", "defense", "threat", "engagement_cost")
_LOCATION_STATS: Final = ("threat", "quest_points")


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

_PUBLIC_ZONES: Final = frozenset(
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
_PUBLIC_PLAYER_ZONES: Final = frozenset(
    {"heroes", "allies", "engaged", "discard", "prisoner", "shackles", "contract", "burgle"}
)
"""A player's face-up zones (the prisoner's identity is known: it was a hero in play); their
hand is seen by its owner only; the card a burgle attempt turned up is face up; their deck,
and a card face down under an Orc Guard, by nobody."""


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
