"""Building what one viewer may see of a Lord of the Rings LCG table (default-deny).

The builders of ``projections.lcg`` (which re-exports them): a seat's table view, the
rollout's cheaper one, and whether a viewer may see a card. They are apart from the view's
Struct classes (``projections/lcg_types.py``) so that they can be compiled with the rules
(domain/build.py): a search's rollouts build a view for every decision of the greedy player.
"""

from __future__ import annotations

from typing import Any, Final

from msgspec.structs import astuple

from domain.lcg.cards import CARDS, REGISTRY, CardDef
from domain.lcg.rules import ship_keywords, table
from domain.lcg.state import SET_ASIDE_FACE_UP, Card, LcgState, Uid
from projections.lcg_types import CardView, Hosts, PlayerView, TableView

_CARDS: Final = CARDS
"""The card registry, Final: the compiled view reads it from a C static (table.CARDS)."""
_REGISTRY: Final = REGISTRY
"""The card registry's version (:func:`_current`)."""

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
_ENEMY_STATS: Final = ("attack", "defense", "threat", "engagement_cost", "hit_points")
"""An enemy's stats, its hit points last: shown as a global value (``table.global_value``)."""
_LOCATION_STATS: Final = ("threat", "quest_points")
_QUEST_STATS: Final = ("quest_points",)

# What a card's definition gives its view, by kind (``_Face.kind``).
_OTHER: Final = 0
_CHARACTER: Final = 1
_ENEMY: Final = 2
_LOCATION: Final = 3
_QUEST: Final = 4
_PRICED: Final = 5
"""Attachments and events: their cost shown."""


class _Face:
    """What a view shows of a card that its definition alone decides, on the side that is
    up: its name, type, sphere, printed keywords, printed traits, text, cost and victory
    points. A view shows ~27 cards and a search's rollouts build one for every decision of
    the greedy player, and each of these read afresh was a dict lookup and several Struct
    field reads; they are read once per code and side (:func:`_face`), by the same
    functions (``_title``, ``ship_keywords.printed_keywords``, ``table.printed_text``)."""

    def __init__(self, s: LcgState, uid: Uid, card: Card, d: CardDef) -> None:
        self.name = _title(card, d)
        self.type = d.type
        self.sphere = d.sphere
        self.keywords = ship_keywords.printed_keywords(s, uid)
        self.traits = d.traits
        self.text = table.printed_text(s, uid)
        self.victory_points = d.victory_points or None
        self.stage = d.stage
        text = table.text_of(d.code)
        self.own_stat = text.stat is not None
        """Whether its text changes its own stats (Gimli's attack)."""
        self.steady_stat = text.steady_stat
        """Whether that change reads nothing but the card's own code, side and tokens."""
        self.cost: int | None = None
        kind = _OTHER
        stats: tuple[str, ...] = ()
        if d.is_character:
            kind, stats = _CHARACTER, _CHARACTER_STATS
            self.cost = d.cost if d.type == "ally" else None
        elif d.type == "enemy":
            kind, stats = _ENEMY, _ENEMY_STATS
        elif d.type == "location":
            kind, stats = _LOCATION, _LOCATION_STATS
        elif d.type == "quest":
            kind, stats = _QUEST, _QUEST_STATS
        elif d.type in ("attachment", "event"):
            kind = _PRICED
            self.cost = d.cost
        self.kind = kind
        self.printed = [max(table.printed(s, uid, which), 0) for which in stats]
        """The stats of its kind as printed (never below zero): ``table.stats_on`` of a card
        that nothing changes (:func:`_stats`)."""


_FACES_A: Final[dict[str, _Face]] = {}
_FACES_B: Final[dict[str, _Face]] = {}
""":class:`_Face` by code, of side A and side B, read under the card registry's version
:data:`_READ` holds (:func:`_current`): a card's definition and text change only when a card
or a text is registered, which moves the version on."""


class _Version:
    def __init__(self) -> None:
        self.version = -1


_READ: Final = _Version()
"""The card registry's version under which :data:`_FACES_A` and :data:`_FACES_B` were read."""


def _current() -> None:
    """Forget the faces read under an older version of the card registry (a card or a text
    registered since, as a test may register a code anew), once per view: each face was
    checked against ``CARDS`` (a lookup by code per card a view shows, ~0.9 M instructions of
    a search rollout's ~40 M, compiled). A view kept of a card (``_KEPT``, ``_KNOWN``) is given
    again only with the face it was built from, so theirs go with them."""
    version = _REGISTRY.version
    if version != _READ.version:
        _FACES_A.clear()
        _FACES_B.clear()
        _READ.version = version


def _face(s: LcgState, uid: Uid, card: Card, code: str) -> _Face:
    """``card``'s :class:`_Face` (``code``: its code, which the caller has read)."""
    return _side(s, uid, card, code, card.face)


def _side(s: LcgState, uid: Uid, card: Card, code: str, face: str) -> _Face:
    """:func:`_face`, the side that is up (``face``) read by the caller too; its caller's
    view has called :func:`_current`."""
    faces = _FACES_A if face == "A" else _FACES_B if face == "B" else None
    if faces is None:
        return _Face(s, uid, card, _CARDS[code])
    found = faces.get(code)
    if found is None:
        found = faces[code] = _Face(s, uid, card, _CARDS[code])
    return found


_CARD_FIELDS: Final = (
    "uid",
    "code",
    "name",
    "type",
    "exhausted",
    "committed",
    "damage",
    "resources",
    "progress",
    "willpower",
    "attack",
    "defense",
    "hit_points",
    "threat",
    "engagement_cost",
    "quest_points",
    "cost",
    "sphere",
    "keywords",
    "traits",
    "text",
    "attachments",
    "shadows",
    "face_down_shadows",
    "victory_points",
    "guarding",
    "other_groups",
)
"""``CardView``'s fields in order, as :func:`_card` passes them (by position: ~1,800
instructions a card fewer than by keyword, compiled)."""
if CardView.__struct_fields__ != _CARD_FIELDS:
    raise RuntimeError("projections/lcg_types.py's CardView fields changed: update lcg_view._card")


class _Table:
    """What every card view of one table view shares, read once per view: the attachments by
    host, and whether the texts that give cards traits or keep resources on them, or the other
    groups' share of a global value, can apply in this game at all (``table.in_game``; the
    texts are tied to their cards by ``table.needs``). Where they cannot, a card shows its
    printed traits, its own resource tokens and no other groups' share, as
    ``table.traits_on``, ``table.resources_on`` and ``table.other_groups`` would give."""

    def __init__(self, s: LcgState, attached: Hosts) -> None:
        self.s = s
        self.cards = s.cards
        self.attached = attached
        self.trait_hooks = table.in_game(s, table.TRAIT_AURAS)
        self.trait_auras = bool(self.trait_hooks)
        self.kept = bool(table.in_game(s, table.KEPT_RESOURCES))
        self.epic = bool(s.shared)
        self.auras = bool(table.in_game(s, table.AURAS))
        stats = table.touched(s, table.AURAS)
        traits = table.touched(s, table.TRAIT_AURAS)
        kept = table.touched(s, table.KEPT_RESOURCES)
        self.reached: frozenset[str] | None = stats
        """The card types and codes an aura in this game may change the stats of
        (``table.touched``; None: any card)."""
        self.touched: frozenset[str] | None = (
            stats | traits | kept if stats is not None and traits is not None and kept is not None else None
        )
        """The card types and codes a text in this game may give stats, traits or kept
        resources (``table.touched``; None: any card): a rollout's view keeps the view of any
        other card as where no such text is in the game (:func:`_plain`). The Hunt for the
        Dreadnaught's ships give their controller's heroes stats, Eithiliant a hero traits,
        Isle of Fortune resources to itself: without them a search's rollouts there built
        every card's view afresh, a third of their time."""
        self.modified = {m.target for m in s.modifiers} if s.modifiers else _NO_UIDS
        self.blanking = bool(table.in_game(s, table.BLANKING))
        """Whether a text that blanks others' (Overworked) can apply in this game."""
        self.keep = False
        """Whether a plain card's view may be the one kept from an earlier view (:func:`_plain`):
        a rollout's view (``play_view``) in a game where nothing of the table changes a card
        that has nothing attached (no aura, no kept resources, no traits given, no epic share)."""


_NONE: Final[list[Uid]] = []
"""No attachments (never changed)."""
_NO_UIDS: Final[set[Uid]] = set()
"""No card with a lasting modifier (never changed)."""


def _stats(t: _Table, uid: Uid, code: str, f: _Face, whiches: tuple[str, ...], on: list[Uid]) -> list[int]:
    """``table.stats_on`` of ``whiches`` (``f``'s kind's stats), read from ``f`` where nothing
    changes the card's stats: no lasting modifier on it, no text of its own that changes
    them, nothing attached to it and no aura in this game. Most cards a view shows are such
    (a hand, the allies), and ``stats_on`` reads each of them afresh, ~6,000 instructions
    a card (compiled)."""
    if (
        not on
        and (not t.auras or (t.reached is not None and f.type not in t.reached and code not in t.reached))
        and uid not in t.modified
        and not f.own_stat
    ):
        return f.printed
    return table.stats_on(t.s, uid, whiches, on)


def card_view(s: LcgState, uid: Uid, attached: Hosts | None = None) -> CardView:
    """``uid`` as a viewer who may see it sees it; ``attached``: ``hosts(s)``, for a caller
    that shows many cards (read afresh when not given)."""
    _current()
    return _card(_Table(s, hosts(s) if attached is None else attached), uid)


_FIELDS: Final = astuple
"""A card's fields, in ``Card.__struct_fields__``' order, read at once: a view reads a card's
code, side, host and five tokens, each a Struct field read (~165 instructions compiled), and a
plain card's view is kept by all its fields (:func:`_plain`)."""
_CODE: Final = Card.__struct_fields__.index("code")
_SIDE: Final = Card.__struct_fields__.index("face")
_HOST: Final = Card.__struct_fields__.index("attached_to")
_ZONE: Final = Card.__struct_fields__.index("zone")
_EXHAUSTED: Final = Card.__struct_fields__.index("exhausted")
_COMMITTED: Final = Card.__struct_fields__.index("committed")
_DAMAGE: Final = Card.__struct_fields__.index("damage")
_RESOURCES: Final = Card.__struct_fields__.index("resources")
_PROGRESS: Final = Card.__struct_fields__.index("progress")
"""Where ``_FIELDS`` puts a card's code, the side that is up, the card it is attached to, its
zone and its tokens."""


def _card(t: _Table, uid: Uid) -> CardView:
    s = t.s
    card = t.cards[uid]
    fields = _FIELDS(card)
    code: str = fields[_CODE]
    f = _side(s, uid, card, code, fields[_SIDE])
    on = t.attached.get(uid)
    if (
        t.keep
        and t.touched is not None
        and f.type not in t.touched
        and code not in t.touched
        and (fields[_HOST] is None or fields[_ZONE] == "attachments")
        and uid not in t.modified
        and (not f.own_stat or (f.steady_stat and not t.blanking))
    ):
        if on is None:
            return _plain(t, uid, code, f, fields)
        return _carrying(t, uid, code, f, on, fields)
    if on is None:
        return _built(t, uid, code, f, _NONE, fields, [])
    return _built(t, uid, code, f, on, fields, [_card(t, a) for a in on])


def _built(
    t: _Table, uid: Uid, code: str, f: _Face, on: list[Uid], fields: tuple[Any, ...], attachments: list[CardView]
) -> CardView:
    """The view of card ``uid`` built afresh (``f``: its face; ``on``: its attachments, and
    ``attachments`` their views; ``fields``: the card's, ``_FIELDS``)."""
    s = t.s
    kind = f.kind
    willpower: int | None = None
    attack: int | None = None
    defense: int | None = None
    hit_points: int | None = None
    threat: int | None = None
    engagement_cost: int | None = None
    quest_points: int | None = None
    if kind == _CHARACTER:
        willpower, attack, defense, hit_points = _stats(t, uid, code, f, _CHARACTER_STATS, on)
    elif kind == _ENEMY:
        attack, defense, threat, engagement_cost, hit = _stats(t, uid, code, f, _ENEMY_STATS, on)
        hit_points = hit + table.other_groups(s, uid) if t.epic else hit
    elif kind == _LOCATION:
        threat, quest_points = _stats(t, uid, code, f, _LOCATION_STATS, on)
    elif kind == _QUEST:
        points = _stats(t, uid, code, f, _QUEST_STATS, on)[0]
        quest_points = points + table.other_groups(s, uid) if t.epic else points  # a global value whole
    attached_to = fields[_HOST]
    # positional, in _CARD_FIELDS' order: a Struct matches each keyword to its field
    return CardView(
        uid,
        code,
        f.name,
        f.type,
        fields[_EXHAUSTED],
        fields[_COMMITTED],
        fields[_DAMAGE],
        table.resources_on(s, uid) if t.kept else fields[_RESOURCES],
        fields[_PROGRESS],
        willpower,
        attack,
        defense,
        hit_points,
        threat,
        engagement_cost,
        quest_points,
        f.cost,
        f.sphere,
        f.keywords,
        table.traits_on(s, uid, on, t.trait_hooks) if on or t.trait_auras else f.traits,
        f.text,
        attachments,
        [],
        0,
        f.victory_points,
        attached_to
        if attached_to is not None and fields[_ZONE] not in ("attachments", "shadows") and table.is_in_play(s, uid)
        else None,
        table.other_groups(s, uid) if t.epic else 0,
    )


class _Kept:
    """A plain card's view as a rollout's view last built it, and the card's face and fields
    (``_FIELDS``) it was built from (:func:`_plain`)."""

    def __init__(self, f: _Face, fields: tuple[Any, ...], v: CardView) -> None:
        self.f = f
        self.fields = fields
        self.v = v


_KEPT: Final[dict[Uid, _Kept]] = {}
"""The last view :func:`_plain` built of each uid (of whichever world: it is checked against
the card before it is given again)."""


def _plain(t: _Table, uid: Uid, code: str, f: _Face, fields: tuple[Any, ...]) -> CardView:
    """``_card`` of a plain card in a rollout's view (``_Table.keep``; not an enemy with
    shadows, whose view gets them: ``_enemy_view``): with nothing attached to it, attached to
    nothing or an attachment (in the attachments zone, whose view shows no card it guards), no
    lasting modifier on it and no text of its own that changes its stats but by its own tokens
    (``Text.steady_stat``: Gimli's, in a game where no text can blank his: ``_Table.blanking``). Such
    a view depends on its face (``f``: its code and side) and its tokens alone: it is built by
    :func:`_built`, as every card's, and kept with the card's ``fields``; the view of the same
    card with the same face and fields (its tokens among them) is the one built before, given
    again (not copied: a rollout's blueprint only reads its views). A search's rollouts build a view for
    every decision of the greedy player, and two thirds of the ~27 cards each shows are such,
    most of them unchanged since the last decision (a hand, the allies, the heroes' attachments
    and the conditions attached to them): each built afresh was ~5,000 instructions (compiled)."""
    kept = _KEPT.get(uid)
    if kept is not None and kept.f is f and kept.fields == fields:
        return kept.v
    v = _built(t, uid, code, f, _NONE, fields, [])
    _KEPT[uid] = _Kept(f, fields, v)
    return v


class _Carrier:
    """A card's view with attachments as a rollout's view last built it, the face and fields
    (``_FIELDS``) it was built from, and whether an attachment's bonus to it applies in an
    attack (``Host.in_attacks``: the view was built outside one) (:func:`_carrying`)."""

    def __init__(self, f: _Face, fields: tuple[Any, ...], v: CardView, attacks: bool) -> None:
        self.f = f
        self.fields = fields
        self.v = v
        self.attacks = attacks


_CARRIERS: Final[dict[Uid, _Carrier]] = {}
"""The last view :func:`_carrying` kept of each uid (of whichever world: it is checked against
the card and its attachments' views before it is given again)."""


def _carrying(t: _Table, uid: Uid, code: str, f: _Face, on: list[Uid], fields: tuple[Any, ...]) -> CardView:
    """``_card`` of a card with attachments (``on``) in a rollout's view (``_Table.keep``),
    attached to nothing (or an attachment), with no lasting modifier on it and no text of its
    own that changes its stats (as :func:`_plain`'s): its view depends on its face, its tokens
    and its attachments, whose texts give it stats and traits (``Host``). Where each
    attachment's bonus reads nothing but the two cards (``Host.steady``), or gives nothing
    outside an attack (``Host.in_attacks``) and none is being made, the view built before of
    the card with the same face and fields, and attachments whose views are the very ones it
    shows (each kept by :func:`_plain` with the same face and tokens), is given again. A hero with attachments is
    such (Aragorn under Caught in a Web, Glóin with Steward of Gondor, Legolas with Blade of
    Gondolin outside combat): ~110 of them in a search rollout's views, each built afresh, its
    stats alone ~9,300 instructions (``table.stats_on``, compiled)."""
    attachments = [_card(t, a) for a in on]
    kept = _CARRIERS.get(uid)
    if kept is not None and kept.f is f and kept.fields == fields and (not kept.attacks or t.s.attack is None):
        shown = kept.v.attachments
        if len(shown) == len(attachments):
            same = True
            for k, view_of in enumerate(attachments):
                if shown[k] is not view_of:
                    same = False
                    break
            if same:
                return kept.v
    v = _built(t, uid, code, f, on, fields, attachments)
    attacks = False
    cards = t.cards
    for a in on:
        host = table.text_of(cards[a].code).host
        if host is None or host.stat is None or host.steady:
            continue
        if host.in_attacks and t.s.attack is None:
            attacks = True
            continue
        return v
    _CARRIERS[uid] = _Carrier(f, fields, v, attacks)
    return v


def _title(card: Card, d: CardDef) -> str:
    """The name on the side of the card that is up (a quest card's side A has its own)."""
    return d.name if d.type != "quest" or card.face == "B" else (d.name_a or d.name)


def identity_view(s: LcgState, uid: Uid, attached: Hosts) -> CardView:
    """Which card ``uid`` is, and what is attached to it, without its stats or text: what a
    rollout's blueprint reads of the encounter cards out of play (:func:`play_view`)."""
    _current()
    return _identified(s, uid, attached)


def _identified(s: LcgState, uid: Uid, attached: Hosts) -> CardView:
    """:func:`identity_view` in a view that has called :func:`_current`."""
    card = s.cards[uid]
    code = card.code
    f = _face(s, uid, card, code)
    on = attached.get(uid)
    if on is None:
        return CardView(uid, code, f.name, f.type)
    return CardView(uid, code, f.name, f.type, attachments=[_identified(s, a, attached) for a in on])


class _Known:
    """A card's identity view as a rollout's view last built it, and the face it shows
    (:func:`_identity`)."""

    def __init__(self, f: _Face, v: CardView) -> None:
        self.f = f
        self.v = v


_KNOWN: Final[dict[Uid, _Known]] = {}
"""The last identity view :func:`_identity` built of each uid (of whichever world: checked
against the card's face before it is given again)."""


def _identity(s: LcgState, uid: Uid, attached: Hosts) -> CardView:
    """``identity_view`` of a card out of play in a rollout's view: one with nothing attached
    is its uid and face alone (``_Face``: code and side), so the view built before of the same
    uid with the same face is given again (the encounter discard pile and the victory display
    a rollout's view shows grow all game, and change a card at a time)."""
    if uid in attached:
        return _identified(s, uid, attached)
    card = s.cards[uid]
    code = card.code
    f = _face(s, uid, card, code)
    kept = _KNOWN.get(uid)
    if kept is not None and kept.f is f:
        return kept.v
    v = CardView(uid, code, f.name, f.type)
    _KNOWN[uid] = _Known(f, v)
    return v


def _enemy_view(t: _Table, uid: Uid, all_seeing: bool) -> CardView:
    s = t.s
    shadows = table.shadows_of(s, uid)
    if not shadows:
        return _card(t, uid)
    keep = t.keep
    t.keep = False  # its view gets its shadows: never one kept (``_plain``) nor kept
    v = _card(t, uid)
    t.keep = keep
    for shadow in shadows:
        if all_seeing or t.cards[shadow].shown:
            v.shadows.append(_card(t, shadow))
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


class _SeatZones:
    """The keys of a seat's zones (``p1.hand``...), made once per seat rather than per view."""

    def __init__(self, seat: str) -> None:
        self.heroes = f"{seat}.heroes"
        self.allies = f"{seat}.allies"
        self.engaged = f"{seat}.engaged"
        self.hand = f"{seat}.hand"
        self.deck = f"{seat}.deck"
        self.discard = f"{seat}.discard"
        self.prisoner = f"{seat}.prisoner"
        self.shackles = f"{seat}.shackles"
        self.contract = f"{seat}.contract"
        self.burgle = f"{seat}.burgle"


_SEAT_ZONES: Final[dict[str, _SeatZones]] = {}


def _seat_zones(seat: str) -> _SeatZones:
    found = _SEAT_ZONES.get(seat)
    if found is None:
        found = _SEAT_ZONES[seat] = _SeatZones(seat)
    return found


def _table_view(s: LcgState, viewer: str, whole: bool) -> TableView:
    """The one builder of a table view: ``viewer``'s whole view, or (``whole`` false) the
    rollout's, which leaves the piles no bot reads empty, shows the encounter cards out of
    play by their identity, and builds the rest alike."""
    all_seeing = viewer == REFEREE or s.over is not None
    _current()
    attached = hosts(s)
    t = _Table(s, attached)
    t.keep = not whole and not t.epic and t.touched is not None
    players = []
    committed_willpower = 0
    for seat in s.order:
        player = s.players[seat]
        mine = all_seeing or viewer == seat
        keys = _seat_zones(seat)
        hand = table.cards_in(s, keys.hand)
        heroes = _cards(t, table.cards_in(s, keys.heroes))
        allies = _cards(t, table.cards_in(s, keys.allies))
        if not player.eliminated:
            committed_willpower += _committed_willpower(s, heroes) + _committed_willpower(s, allies)
        players.append(
            PlayerView(
                seat=seat,
                threat=player.threat,
                eliminated=player.eliminated,
                first=s.first == seat,
                heroes=heroes,
                allies=allies,
                engaged=_engaged(t, seat, keys.engaged, all_seeing),
                hand=_cards(t, hand) if mine else None,
                hand_size=len(hand),
                deck_size=len(table.cards_in(s, keys.deck)),
                discard=_cards(t, table.cards_in(s, keys.discard)) if whole or mine else [],
                deck=_cards(t, table.cards_in(s, keys.deck)) if all_seeing else None,
                prisoner=_cards(t, table.cards_in(s, keys.prisoner)),
                deck_conditions=_cards(t, table.cards_in(s, keys.shackles)),
                contract=_cards(t, table.cards_in(s, keys.contract)),
                burgled=_cards(t, table.cards_in(s, keys.burgle)),
            )
        )
    stage = table.quest_card(s)
    location = table.active_location(s)
    decision = s.pending
    staging = [_enemy_view(t, u, all_seeing) for u in table.cards_in(s, "staging")]
    encounter_discard = table.cards_in(s, "encounter.discard")
    victory = table.cards_in(s, "victory")
    return TableView(
        viewer=viewer,
        version=s.version,
        round=s.round,
        phase=s.phase,
        players=players,
        staging=staging,
        encounter_deck_size=len(table.cards_in(s, "encounter.deck")),
        encounter_discard=_cards(t, encounter_discard)
        if whole
        else [_identity(s, u, attached) for u in encounter_discard],
        victory=_cards(t, victory) if whole else [_identity(s, u, attached) for u in victory],
        quest=_card(t, stage) if stage is not None else None,
        quest_stage=_stage(s, stage) if stage is not None else 0,
        active_location=_card(t, location) if location is not None else None,
        revealed=_cards(t, table.cards_in(s, "revealed")),
        decision=decision if decision is not None and (all_seeing or decision.seat == viewer) else None,
        waiting_for=decision.seat if decision is not None else None,
        outcome=s.over,
        seed=s.seed if all_seeing else None,
        encounter_deck=_cards(t, table.cards_in(s, "encounter.deck")) if all_seeing else None,
        set_aside=_cards(t, table.cards_in(s, SET_ASIDE_FACE_UP)),
        setup=_cards(t, table.cards_in(s, "setup")),
        corsair_deck_size=len(table.cards_in(s, "corsair.deck")),
        corsair_discard=_cards(t, table.cards_in(s, "corsair.discard")) if whole else [],
        treasures=len(table.cards_in(s, "treasures")),
        offered=_offered(t, viewer, decision) if decision is not None and decision.seat == viewer else [],
        staging_threat=table.staging_threat(s, _staged_threats(s, staging)),
        committed_willpower=committed_willpower,
    )


def _stage(s: LcgState, uid: Uid) -> int:
    """The stage number of quest card ``uid``, read from its face."""
    card = s.cards[uid]
    return _face(s, uid, card, card.code).stage


def _staged_threats(s: LcgState, staging: list[CardView]) -> dict[Uid, int]:
    """The threat of each staged card as its view shows it (``table.threat_of``: the view's
    stats are ``table.stat``'s), read afresh where the view shows none (neither an enemy nor
    a location)."""
    out: dict[Uid, int] = {}
    for v in staging:
        threat = v.threat
        out[v.uid] = threat if threat is not None else table.threat_of(s, v.uid)
    return out


def _cards(t: _Table, uids: list[Uid]) -> list[CardView]:
    return [_card(t, u) for u in uids]


def _committed_willpower(s: LcgState, characters: list[CardView]) -> int:
    """The willpower the committed ones of ``characters`` (one seat's heroes or allies) add to
    the quest: ``table.willpower`` of each, which their views show (a card shown without
    willpower read afresh)."""
    total = 0
    for v in characters:
        if v.committed:
            willpower = v.willpower
            total += willpower if willpower is not None else table.willpower(s, v.uid)
    return total


def _engaged(t: _Table, seat: str, key: str, all_seeing: bool) -> list[CardView]:
    """The enemies engaged with ``seat`` in ``table.engaged``'s order (highest engagement cost
    first, ties in the zone's order), sorted by the engagement costs their views show rather
    than each read again (a card shown without one is ordered by ``table.engaged``)."""
    s = t.s
    views = [_enemy_view(t, u, all_seeing) for u in table.cards_in(s, key)]
    if len(views) < 2:
        return views
    keyed: list[tuple[int, int]] = []
    for k, v in enumerate(views):
        cost = v.engagement_cost
        if cost is None:
            return [_enemy_view(t, u, all_seeing) for u in table.engaged(s, seat)]
        keyed.append((-cost, k))
    keyed.sort()
    return [views[k] for _, k in keyed]


def _offered(t: _Table, viewer: str, decision: Any) -> list[CardView]:
    """The cards ``decision`` names (its options' and the one it is about) that ``viewer``
    does not see on the table: a seat is shown what it is asked to choose."""
    s = t.s
    named = [o.card for o in decision.options if o.card is not None]
    if decision.about is not None:
        named.append(decision.about)
    hidden = [uid for uid in dict.fromkeys(named) if uid in s.cards and not visible(s, viewer, uid)]
    return [_card(t, uid) for uid in hidden]


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
