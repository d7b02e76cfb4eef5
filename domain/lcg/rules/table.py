"""Questions the rules ask about the table: current stats, who controls what, what is where.

Pure functions of the state. Current stats are printed values plus lasting modifiers
plus the card's own passive text (Gimli, Chieftain Ufthak).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final, TypeVar

from domain.lcg import cards as _cards
from domain.lcg.cards import CardDef, Host, Text
from domain.lcg.epic import COUNTED
from domain.lcg.state import IN_PLAY_ZONES, Card, LcgState, Seat, Uid

# The card registries, Final: the compiled core reads a Final name from a C static, an
# imported one from the module's dict (the rules read a card's definition ~8 times an event).
CARDS: Final = _cards.CARDS
TEXTS: Final = _cards.TEXTS
NO_TEXT: Final = _cards.NO_TEXT

STATS = ("willpower", "attack", "defense", "hit_points", "threat", "engagement_cost")

Aura = Callable[[LcgState, Uid, str], int]
AURAS: Final[list[Aura]] = []
"""Passive texts that change other cards' stats, or a double-sided card's stats on its
other side (a scenario module adds its own; each returns 0 where it does not apply)."""

KeywordAura = Callable[[LcgState, Uid, str], bool]
KEYWORD_AURAS: Final[list[KeywordAura]] = []
"""Passive texts that give cards a keyword (Golden Wing: "your heroes have Ranged")."""


KEPT_RESOURCES: list[Callable[[LcgState, Uid], int]] = []
"""Resources a card's text keeps on it as a lasting count rather than as tokens (Isle of
Fortune: they must still be known as it leaves play); each returns 0 where it does not apply."""


H = TypeVar("H")


def text_of(code: str) -> Text:
    """``cards.text_of`` compiled: the rules read a card's text about 30,000 times a game,
    and a call from compiled code into an interpreted function costs a Python frame."""
    found = TEXTS.get(code)
    return found if found is not None else NO_TEXT


NEEDS: Final[dict[Any, frozenset[str]]] = {}
"""Hooks (an entry of :data:`AURAS`, ``resources.IGNORES_RESOURCE_MATCH``, ...) that can give
something only when a card of one of these codes is in the game (:func:`needs`)."""


SCOPES: Final[dict[Any, frozenset[str]]] = {}
"""Hooks (an entry of :data:`AURAS`, :data:`TRAIT_AURAS`, :data:`KEPT_RESOURCES` or
:data:`BLANKING`) that give nothing (0, no trait, no blank) to a card whose type and code are
none of these (:func:`scoped`)."""


def scoped(hook: H, *reach: str) -> H:
    """Record that ``hook`` gives nothing to a card whose type and code are none of ``reach``
    (card types, ``hero``, and codes, ``thftd-036``: :func:`touched`): a rollout's view keeps
    the views of the other cards as where no such hook is in the game (projections/lcg_view.py
    ``_plain``)."""
    SCOPES[hook] = frozenset(reach)
    return hook


def touched(s: LcgState, hooks: list[H]) -> frozenset[str] | None:
    """The card types and codes the hooks of ``hooks`` that can apply in this game
    (:func:`in_game`) may change (:func:`scoped`); None when one of them may change any card."""
    types: frozenset[str] = frozenset()
    for hook in in_game(s, hooks):
        scope = SCOPES.get(hook)
        if scope is None:
            return None
        types = types | scope
    return types


STAT_SCOPES: Final[dict[Any, str]] = {}
"""Auras (entries of :data:`AURAS`) that give nothing (0) to any stat but this one
(:func:`for_stat`)."""


def for_stat(hook: H, which: str) -> H:
    """Record that the aura ``hook`` gives nothing to any stat but ``which``: :func:`_stats`
    asks it of that stat alone, and (with :func:`scoped`) of the cards in its scope alone."""
    STAT_SCOPES[hook] = which
    return hook


def needs(hook: H, *codes: str) -> H:
    """Record that ``hook`` gives nothing (0, False, nothing) unless a card of one of
    ``codes`` is in the game; :func:`in_game` then leaves it out of the other games."""
    NEEDS[hook] = frozenset(codes)
    return hook


class _Pool:
    """The card codes of the game last asked about, and the hooks that can apply in it.

    Cards are only ever added to a game (``CardsCreated``) or all replaced by a position
    (a new dict), and a card's code never changes: the codes are kept while the state's
    ``cards`` is the same dict with as many cards. The dict itself is held, so its id
    cannot be reused by another game's while it is kept here."""

    def __init__(self) -> None:
        self.cards: dict[Uid, Any] | None = None
        self.size = -1
        self.codes: frozenset[str] = frozenset()
        self.types: frozenset[str] = frozenset()
        self.by_code: dict[str, list[Uid]] = {}
        """Each code's cards, in uid order."""
        self.hooks: dict[int, tuple[int, list[Any]]] = {}
        """By the id of a (module-level) list of hooks: its length then, and those that apply."""
        self.givers: list[Uid] | None = None
        """The cards whose text gives their host resource icons (:func:`spheres`; None: not
        read yet)."""
        self.acting: frozenset[Uid] | None = None
        """The cards whose text has Actions (:func:`acting`; None: not read yet)."""
        self.acting_in_play: list[Uid] = []
        """Those of :attr:`acting` that are not events (:func:`acting_in_play`)."""
        self.auras: list[Any] | None = None
        """The auras of :data:`AURAS` that can apply in this game (``in_game``) that
        :attr:`asked` was read from."""
        self.asked: dict[str, list[tuple[Any, frozenset[str] | None]]] = {}
        """By stat: the auras of :attr:`auras` that may give it (:func:`for_stat`), each with
        the card types and codes it may give it to (:func:`scoped`; None: any card)."""
        self.definitions: dict[Uid, Definition] = {}
        """By uid: :func:`definition_of` (emptied in place with the codes, and whenever a card
        is registered)."""


_POOL: Final = _Pool()


def _pool(s: LcgState) -> _Pool:
    cards = s.cards
    pool = _POOL
    if pool.cards is not cards or pool.size != len(cards):
        by_code: dict[str, list[Uid]] = {}
        for uid in sorted(cards):
            by_code.setdefault(cards[uid].code, []).append(uid)
        codes = frozenset(by_code)
        pool.cards, pool.size, pool.codes, pool.by_code = cards, len(cards), codes, by_code
        pool.types = frozenset([CARDS[code].type for code in codes if code in CARDS])
        pool.hooks = {}
        pool.definitions.clear()
        pool.givers = None
        pool.acting = None
    return pool


def codes_in_game(s: LcgState) -> frozenset[str]:
    """The codes of every card in the game (in any zone, in or out of play)."""
    return _pool(s).codes


def uids_of(s: LcgState, code: str) -> list[Uid]:
    """The cards of the game with ``code`` (in any zone), in uid order; do not change the list."""
    found = _pool(s).by_code.get(code)
    return found if found is not None else []


def acting(s: LcgState) -> frozenset[Uid]:
    """The cards of the game whose text has Actions (in any zone): an action window asks of
    each card of a hand whether it has Actions."""
    pool = _pool(s)
    found = pool.acting
    if found is None:
        found = frozenset([u for code, uids in pool.by_code.items() if text_of(code).actions for u in uids])
        pool.acting = found
        pool.acting_in_play = sorted(u for u in found if definition(s.cards[u].code).type != "event")
    return found


def acting_in_play(s: LcgState) -> list[Uid]:
    """The cards of :func:`acting` that can be in play: all but the events (an event is never
    in play: it goes from its owner's hand to the discard pile as it is played). An action
    window asks of each card in play whether it has Actions: most games have a handful of
    these, often none of them in play, and a window then needs no scan of the table."""
    acting(s)
    return _POOL.acting_in_play


def givers(s: LcgState) -> list[Uid]:
    """The cards of the game whose text gives their host resource icons (Celebrían's Stone),
    in any zone; do not change the list."""
    pool = _pool(s)
    found = pool.givers
    if found is None:
        found = pool.givers = [
            u
            for code, uids in pool.by_code.items()
            if (text_of(code).host or _NO_HOST_TEXT).spheres is not None
            for u in uids
        ]
    return found


def types_in_game(s: LcgState) -> frozenset[str]:
    """The card types (``hero``, ``ship-objective``, ...) of every card in the game."""
    return _pool(s).types


def in_game(s: LcgState, hooks: list[H]) -> list[H]:
    """The hooks of ``hooks`` that can apply in this game: those :func:`needs` did not tie
    to codes, and those tied to a code in the game (in the order they were added)."""
    pool = _pool(s)
    found = pool.hooks.get(id(hooks))
    if found is not None and found[0] == len(hooks):
        kept: list[H] = found[1]
        return kept
    codes = pool.codes
    kept = [h for h in hooks if h not in NEEDS or not NEEDS[h].isdisjoint(codes)]
    pool.hooks[id(hooks)] = (len(hooks), kept)
    return kept


def _auras_of(auras: list[Aura], which: str) -> list[tuple[Aura, frozenset[str] | None]]:
    """Of ``auras`` (``in_game(s, AURAS)``, just read for the game asked about), those that
    may change ``which`` (:func:`for_stat`), each with its scope (:func:`scoped`), in their
    order: every stat a view or a rule reads asked every aura, most of whose answers were 0
    (an aura of The Hunt for the Dreadnaught's ships gives one stat, to heroes alone)."""
    pool = _POOL
    if pool.auras is not auras:
        pool.auras = auras
        pool.asked = {}
    found = pool.asked.get(which)
    if found is None:
        found = pool.asked[which] = [(a, SCOPES.get(a)) for a in auras if STAT_SCOPES.get(a, which) == which]
    return found


def cards_in(s: LcgState, key: str) -> list[Uid]:
    """``s.zone(key)``, for the compiled rules: the state's methods stay interpreted (it is a
    msgspec Struct), and a call from compiled code into one costs a Python frame, while this
    is a native call (the rules asked for zones about 7,000 times a game). The empty list
    is made only when the zone is missing (``get(key, [])`` would make one every call)."""
    found = s.zones.get(key)
    return found if found is not None else []


_SEAT_KEYS: Final[dict[str, dict[Seat, str]]] = {}
"""Each seat's zone keys, by the zone's name (``heroes``: ``p1.heroes``), made once."""


def seat_key(seat: Seat, zone: str) -> str:
    """The key of ``seat``'s ``zone`` in the state's zones (``f"{seat}.{zone}"``), made once:
    a key built on every read is a new string, allocated, hashed for the zones' dict and
    freed (Passage through Mirkwood random games, callgrind, seeds 1-60 less 1-10: strings
    built 765 -> 262 instructions an event, their hashing 392 -> 137)."""
    keys = _SEAT_KEYS.get(zone)
    if keys is None:
        keys = _SEAT_KEYS[zone] = {}
    key = keys.get(seat)
    if key is None:
        key = keys[seat] = f"{seat}.{zone}"
    return key


def seats_in_turn(s: LcgState) -> list[Seat]:
    """``s.active_seats()`` compiled, for the same reason: seats still in the game, in turn
    order from the first player."""
    order = s.order
    first = s.first
    players = s.players
    n = len(order)
    start = 0
    for i in range(n):
        if order[i] == first:
            start = i
            break
    # from ``start`` round the order, without building the two slices and their sum (the
    # rules read the seats in turn some 260 times a game)
    out = []
    for k in range(start, start + n):
        seat = order[k - n] if k >= n else order[k]
        if not players[seat].eliminated:
            out.append(seat)
    return out


def resources_on(s: LcgState, uid: Uid) -> int:
    """The resources on a card as the table shows them: its tokens and what a text keeps."""
    card = s.cards[uid]
    if not KEPT_RESOURCES:
        return card.resources
    kept = 0
    code = card.code
    kind = definition(code).type
    for hook in in_game(s, KEPT_RESOURCES):
        scope = SCOPES.get(hook)
        # a text outside the game, or not reaching this card, keeps nothing on it (a view
        # asks it of every card it builds afresh: Isle of Fortune's, of ~550 a search rollout)
        if scope is None or kind in scope or code in scope:
            kept += hook(s, uid)
    return card.resources + kept


class Definition:
    """The fields of a card's definition the rules read most, in a native class: the
    compiled rules read a field of a :class:`CardDef` (a msgspec Struct) through the generic
    attribute lookup, ~140 instructions, and one of this class by a load from its slot.
    Made once per code (:func:`definition`) from the definition registered then, and
    forgotten whenever a card is registered (``cards.READ_BY_CODE``)."""

    def __init__(self, d: CardDef) -> None:
        self.code: str = d.code
        self.name: str = d.name
        self.type: str = d.type
        self.sphere: str | None = d.sphere
        self.unique: bool = d.unique
        self.cost: int = d.cost
        self.keywords: tuple[str, ...] = d.keywords
        self.traits: tuple[str, ...] = d.traits
        self.numbers: dict[str, int] = {which: getattr(d, which) for which in _NUMBERS}
        """The printed numbers (:data:`_NUMBERS`) by name, for a read by a name given at run time."""

    def is_a(self, trait: str) -> bool:
        """:meth:`CardDef.is_a`: whether the card has ``trait`` printed."""
        return trait in self.traits


_NUMBERS: Final = (
    "willpower",
    "attack",
    "defense",
    "hit_points",
    "threat",
    "engagement_cost",
    "quest_points",
    "victory_points",
    "cost",
    "threat_cost",
)


DEFINITIONS: Final[dict[str, Definition]] = {}
"""Each code's :class:`Definition`, made when first read."""
_cards.READ_BY_CODE.append(DEFINITIONS)
_cards.READ_BY_CODE.append(_POOL.definitions)


def definition(code: str) -> Definition:
    """The :class:`Definition` of the card registered under ``code``."""
    found = DEFINITIONS.get(code)
    if found is None:
        found = DEFINITIONS[code] = Definition(CARDS[code])
    return found


def definition_of(s: LcgState, uid: Uid) -> Definition:
    """:func:`definition` of the card ``uid``, kept by uid with the game's codes (a card's
    code never changes): the card's ``code`` is not read again."""
    pool = _pool(s)
    found = pool.definitions.get(uid)
    if found is None:
        found = pool.definitions[uid] = definition(s.cards[uid].code)
    return found


def definition_in(cards: dict[Uid, Card], uid: Uid) -> Definition:
    """:func:`definition_of` from the state's ``cards``, read once by a caller that asks
    about many cards."""
    return definition(cards[uid].code)


def defn(s: LcgState, uid: Uid) -> CardDef:
    return CARDS[s.cards[uid].code]


def defn_in(cards: dict[Uid, Card], uid: Uid) -> CardDef:
    """:func:`defn` from the state's ``cards``, read once by a caller that asks about many
    cards: each read of a Struct's field from compiled code is a generic attribute lookup."""
    return CARDS[cards[uid].code]


def name(s: LcgState, uid: Uid) -> str:
    return definition_of(s, uid).name


SIDE_B_TEXTS: dict[str, str] = {}
"""The text printed on side B of a double-sided card other than a quest, setup or contract
card (a ship's Upgraded side, the Damaged Dreadnaught), by code."""

SIDE_B_STATS: Final[dict[str, dict[str, int]]] = {}
"""The stats printed on side B of such a card where they differ from side A's, by code."""


def printed(s: LcgState, uid: Uid, which: str) -> int:
    """The value of ``which`` printed on the side of the card that is up."""
    card = s.cards[uid]
    return _printed(card, card.code, which)


def _printed(card: Card, code: str, which: str) -> int:
    """:func:`printed` of a card already read from the state, its ``code`` too."""
    if card.face == "B":
        side = SIDE_B_STATS.get(code)
        if side is not None and which in side:
            return side[which]
    found = definition(code).numbers.get(which)
    if found is not None:
        return found
    value: int = getattr(CARDS[code], which)
    return value


_TWO_TEXTS = frozenset({"quest", "setup", "contract"})


def printed_text(s: LcgState, uid: Uid) -> str:
    """The text printed on the side of the card that is up."""
    card = s.cards[uid]
    code = card.code
    d = CARDS[code]
    if d.type in _TWO_TEXTS:
        return d.text_a if card.face == "A" else d.text_b
    return SIDE_B_TEXTS.get(code, d.text) if card.face == "B" else d.text


def stat_parts(s: LcgState, uid: Uid, which: str) -> list[tuple[str, int]]:
    """What :func:`stat` adds up, each part with where it comes from ("printed", a card's
    name, "its own text", "an effect in play"): the same computation, for the referee's
    arithmetic (``explain``), so what it shows cannot drift from what the rules count."""
    parts: list[tuple[str, int]] = []
    stat(s, uid, which, parts)
    return parts


def modifier_source(s: LcgState, source: Uid | None, uid: Uid) -> str:
    """A lasting effect on card ``uid`` named by where it comes from, as a stat's parts say it."""
    if source is None:
        return "a lasting effect"
    return "its own text" if source == uid else name(s, source)


def stat(s: LcgState, uid: Uid, which: str, parts: list[tuple[str, int]] | None = None) -> int:
    """The card's current value of ``which`` (never below zero); with ``parts``, each term
    of the sum is also put there with where it comes from (see :func:`stat_parts`)."""
    on = attachments_on(s, uid) if s.zones.get("attachments") else []
    return _stats(s, uid, (which,), on, parts)[0]


def stats_on(s: LcgState, uid: Uid, whiches: tuple[str, ...], on: list[Uid]) -> list[int]:
    """:func:`stat` of each of ``whiches``, for a caller that has the card's attachments
    (``on``: :func:`attachments_on`, as a view groups the whole zone by host once): a view
    shows about 25 cards with 2 to 5 stats each, and each :func:`stat` reads the whole
    attachments zone, the card, its text and the hooks in the game again."""
    return _stats(s, uid, whiches, on, None)


def _stats(
    s: LcgState, uid: Uid, whiches: tuple[str, ...], on: list[Uid], parts: list[tuple[str, int]] | None
) -> list[int]:
    """The one sum behind :func:`stat` and :func:`stats_on`: printed value, lasting effects,
    the card's own text, its attachments ``on`` it, the auras in play."""
    cards = s.cards
    card = cards[uid]
    code = card.code
    modifiers = s.modifiers
    mine = [m for m in modifiers if m.target == uid] if modifiers else []
    passive = text_of(code).stat
    own = passive is not None and not blank(s, uid)
    hosts: list[tuple[Uid, Callable[[LcgState, Uid, Uid, str], int]]] = []
    for a in on:
        host = text_of(cards[a].code).host
        if host is not None and host.stat is not None:
            hosts.append((a, host.stat))
    auras = in_game(s, AURAS)
    kind = definition(code).type if auras else ""
    values: list[int] = []
    for which in whiches:
        value = _printed(card, code, which)
        if parts is not None:
            parts.append(("printed", value))
        for m in mine:
            if m.stat == which:
                value += m.amount
                if parts is not None:
                    parts.append((modifier_source(s, m.source, uid), m.amount))
        if own and passive is not None:
            extra = passive(s, uid, which)
            value += extra
            if parts is not None and extra:
                parts.append(("its own text", extra))
        for a, gives in hosts:
            extra = gives(s, a, uid, which)
            value += extra
            if parts is not None and extra:
                parts.append((name(s, a), extra))
        if auras:
            for aura, scope in _auras_of(auras, which):
                if scope is not None and kind not in scope and code not in scope:
                    continue
                extra = aura(s, uid, which)
                value += extra
                if parts is not None and extra:
                    parts.append(("an effect in play", extra))
        values.append(value if value > 0 else 0)
    return values


def has_keyword(s: LcgState, uid: Uid, keyword: str) -> bool:
    """Whether the card has ``keyword`` now: printed, or given by a passive text."""
    return keyword in definition_of(s, uid).keywords or any(aura(s, uid, keyword) for aura in in_game(s, KEYWORD_AURAS))


def has_trait(s: LcgState, uid: Uid, trait: str) -> bool:
    """Printed traits and traits an attachment gives (Steward of Gondor: Gondor)."""
    return trait in traits(s, uid)


RESOURCE_BANS: list[Callable[[LcgState, Uid, Uid | None], bool]] = []
"""Texts by which a hero gains no resources from a card (hero, the card's uid): Bilbo Baggins
gains resources from no card but a treasure."""


def may_gain_resources(s: LcgState, hero: Uid, source: Uid | None) -> bool:
    """Whether the text of card ``source`` may add resources to ``hero``'s pool."""
    return not any(ban(s, hero, source) for ban in RESOURCE_BANS)


TRAIT_AURAS: list[Callable[[LcgState, Uid], tuple[str, ...]]] = []
"""Texts that give a card traits (Eithiliant: a hero gains another hero's printed traits)."""


def traits(s: LcgState, uid: Uid) -> tuple[str, ...]:
    """Printed traits, then those its attachments and passive texts give."""
    return traits_on(s, uid, attachments_on(s, uid) if s.zones.get("attachments") else [])


def traits_on(
    s: LcgState, uid: Uid, on: list[Uid], auras: list[Callable[[LcgState, Uid], tuple[str, ...]]] | None = None
) -> tuple[str, ...]:
    """:func:`traits`, for a caller that has the card's attachments ``on`` (:func:`stats_on`);
    ``auras``: ``in_game(s, TRAIT_AURAS)``, for a caller that has read them (a view: the
    others give nothing in this game, and each asked is an interpreted call). An aura is asked
    only in a game where it can apply (``in_game``) and of a card in its scope (:func:`scoped`):
    the others give nothing."""
    code = s.cards[uid].code
    d = CARDS[code]
    printed = d.traits
    given: list[str] = []
    for aura in in_game(s, TRAIT_AURAS) if auras is None else auras:
        scope = SCOPES.get(aura)
        if scope is None or d.type in scope or code in scope:
            given += aura(s, uid)
    if not on and not given:
        return printed
    gained = [t for a in on for t in _host(s, a).traits] + given
    return (*printed, *dict.fromkeys(t for t in gained if t not in printed))


def spheres(s: LcgState, uid: Uid) -> tuple[str, ...]:
    """A hero's resource icons: its sphere, and any an attachment gives (Celebrían's Stone)."""
    cards = s.cards
    own = definition(cards[uid].code).sphere
    out: tuple[str, ...] = (own,) if own else ()
    if not any(cards[a].attached_to == uid for a in givers(s)):
        return out  # no card that gives icons is attached to it (most heroes, most games: no scan)
    for a in cards_in(s, "attachments"):
        if cards[a].attached_to == uid:
            gives = (text_of(cards[a].code).host or _NO_HOST_TEXT).spheres
            if gives is not None:
                out += gives(s, uid)
    return out


def attachments_forbid_attack(s: LcgState, enemy: Uid) -> bool:
    """Whether an attachment forbids the enemy to attack (Forest Snare)."""
    return any(_host(s, a).cannot_attack for a in attachments_on(s, enemy))


_NO_HOST_TEXT = Host()


def _host(s: LcgState, attachment: Uid) -> Host:
    return text_of(s.cards[attachment].code).host or _NO_HOST_TEXT


def willpower(s: LcgState, uid: Uid) -> int:
    return stat(s, uid, "willpower")


def attack(s: LcgState, uid: Uid) -> int:
    return stat(s, uid, "attack")


def defense(s: LcgState, uid: Uid) -> int:
    return stat(s, uid, "defense")


def hit_points(s: LcgState, uid: Uid) -> int:
    return stat(s, uid, "hit_points")


def quest_points(s: LcgState, uid: Uid) -> int:
    """A location's or quest stage's quest points as the rules count them: a global value
    (Searching the High Seas: 8 per player among all groups) or any text's change included.
    What the table shows a person is this same count."""
    return stat(s, uid, "quest_points")


def other_groups(s: LcgState, uid: Uid) -> int:
    """Epic Multiplayer: what the other groups placed toward the global value that is this
    card's quest points or hit points (progress on stage 1B, damage on the Dreadnaught), as
    this group last learned it from the organizer; 0 for any other card, and outside an
    epic event. The card's own tokens and this together meet the global value."""
    code = s.cards[uid].code
    for key, counted in COUNTED.items():
        if code == counted:
            return s.shared.get(key, 0)
    return 0


def global_value(s: LcgState, uid: Uid, which: str, on: list[Uid] | None = None) -> int:
    """A stat as the players are told it: a global value whole, what the other groups placed
    on their copies counted in it (the rules' own count, ``quest_points`` or ``hit_points``,
    is what this group's own tokens must still reach). Rulebook, Global Values: "the event
    organizer sets the global quest point value for quest stage 1B to 128 and announces this
    value to the players". ``on``: the card's attachments, for a caller that has them
    (:func:`stats_on`)."""
    own = stat(s, uid, which) if on is None else _stats(s, uid, (which,), on, None)[0]
    return own + other_groups(s, uid)


def threat_of(s: LcgState, uid: Uid) -> int:
    return stat(s, uid, "threat")


def engagement_cost(s: LcgState, uid: Uid) -> int:
    return stat(s, uid, "engagement_cost")


# -- players' cards ----------------------------------------------------------------------


def heroes(s: LcgState, seat: Seat) -> list[Uid]:
    return list(cards_in(s, seat_key(seat, "heroes")))


def characters(s: LcgState, seat: Seat) -> list[Uid]:
    zones = s.zones
    heroes = zones.get(seat_key(seat, "heroes"))
    allies = zones.get(seat_key(seat, "allies"))
    return (heroes if heroes is not None else []) + (allies if allies is not None else [])


def ready_characters(s: LcgState, seat: Seat) -> list[Uid]:
    cards = s.cards
    return [u for u in characters(s, seat) if not cards[u].exhausted]


def all_characters(s: LcgState) -> Iterator[Uid]:
    for seat in seats_in_turn(s):
        yield from characters(s, seat)


def committed(s: LcgState, seat: Seat | None = None) -> list[Uid]:
    seats = [seat] if seat else seats_in_turn(s)
    cards = s.cards
    return [u for p in seats for u in characters(s, p) if cards[u].committed]


def hand(s: LcgState, seat: Seat) -> list[Uid]:
    return list(cards_in(s, seat_key(seat, "hand")))


def owner_of(s: LcgState, uid: Uid) -> Seat:
    owner = s.cards[uid].owner
    if owner is None:
        raise ValueError(f"card {uid} has no owner")
    return owner


def attachments_on(s: LcgState, uid: Uid) -> list[Uid]:
    cards = s.cards
    return [a for a in cards_in(s, "attachments") if cards[a].attached_to == uid]


def is_in_play(s: LcgState, uid: Uid) -> bool:
    zone = s.cards[uid].zone
    return zone.rsplit(".", 1)[-1] in IN_PLAY_ZONES and not _eliminated_zone(s, zone)


def _eliminated_zone(s: LcgState, zone: str) -> bool:
    seat = zone.partition(".")[0]
    player = s.players.get(seat)
    return player is not None and player.eliminated


_HELD: Final = ("heroes", "allies", "engaged")
"""The zones of a seat whose cards it controls or is engaged with (``LcgState.controller``)."""


def holder(s: LcgState, uid: Uid) -> Seat | None:
    """The seat that controls a character, or is engaged with an enemy: ``s.controller(uid)``
    read here, compiled (the state's method is interpreted, and a view asks it of every
    hero's stats in a game with the ships' auras)."""
    seat, _, rest = s.cards[uid].zone.partition(".")
    return seat if seat in s.players and rest in _HELD else None


# -- the encounter side ------------------------------------------------------------------


def engaged(s: LcgState, seat: Seat) -> list[Uid]:
    """Enemies engaged with ``seat``, highest engagement cost first."""
    return sorted(cards_in(s, seat_key(seat, "engaged")), key=lambda u: -engagement_cost(s, u))


def staging(s: LcgState) -> list[Uid]:
    return list(cards_in(s, "staging"))


def staging_enemies(s: LcgState) -> list[Uid]:
    cards = s.cards
    return [u for u in cards_in(s, "staging") if definition_in(cards, u).type == "enemy"]


def enemies_in_play(s: LcgState) -> list[Uid]:
    out = staging_enemies(s)
    for seat in seats_in_turn(s):
        out += cards_in(s, seat_key(seat, "engaged"))
    return out


def active_location(s: LcgState) -> Uid | None:
    zone = cards_in(s, "active")
    return zone[0] if zone else None


def quest_card(s: LcgState) -> Uid | None:
    zone = cards_in(s, "quest")
    return zone[0] if zone else None


def shadows_of(s: LcgState, enemy: Uid) -> list[Uid]:
    cards = s.cards
    return [c for c in cards_in(s, "shadows") if cards[c].attached_to == enemy]


STAGING_AREA: Uid = 0
"""The target of modifiers to the total threat in the staging area (Under the Shadow)."""

NO_THREAT = "contributes-no-threat"
"""A lasting flag: the card does not contribute its threat to the staging area
(Radagast's Cunning, Secret Paths)."""


THREAT_AURAS: list[Callable[[LcgState], int]] = []
"""Texts that add threat to the staging area's total (Southron Sailor)."""

BLANKING: Final[list[Callable[[LcgState, Uid], bool]]] = []
"""Texts that blank other cards' text boxes for a while (Overworked: non-ship allies)."""


def blank(s: LcgState, uid: Uid) -> bool:
    """Whether the card's text box is blank now (its traits still count)."""
    if not BLANKING or not s.limits:
        return False
    code = s.cards[uid].code
    kind = CARDS[code].type
    for hook in BLANKING:
        scope = SCOPES.get(hook)
        # a text blanking cards of other types is not asked (Overworked's blanks allies: the
        # rules and the views asked it of every card with a passive stat or a trigger)
        if (scope is None or kind in scope or code in scope) and hook(s, uid):
            return True
    return False


QUEST_WITHOUT_EXHAUSTING: list[Callable[[LcgState, Uid], bool]] = []
"""Texts under which a character commits to the quest without exhausting."""

FORBIDS_READYING: set[str] = set()
"""Attachments (by code) whose host cannot ready (Grappled!)."""


def staging_threat(s: LcgState, known: dict[Uid, int] | None = None) -> int:
    """The threat of the enemies and locations in the staging area. An enemy considered engaged
    from there (Massive, Smaug the Magnificent) counts too: it does not actually engage, as only
    entering the player's area does (FAQ 1.50), and only engaged enemies count none (FAQ 1.20).
    ``known``: each staged card's :func:`threat_of`, for a caller that has read them all (a
    view)."""
    cards = s.cards
    total = sum(
        (threat_of(s, u) if known is None else known[u])
        for u in cards_in(s, "staging")
        if definition_in(cards, u).type in ("enemy", "location")
        and not (s.modifiers and s.modifier_total(u, NO_THREAT))
    ) + sum(aura(s) for aura in in_game(s, THREAT_AURAS))
    if s.modifiers:
        total += s.modifier_total(STAGING_AREA, "threat")
    return max(total, 0)


def cannot_ready(s: LcgState, uid: Uid) -> bool:
    if not FORBIDS_READYING:
        return False
    cards = s.cards
    return any(cards[a].code in FORBIDS_READYING for a in attachments_on(s, uid))


def cannot_attack(seat: Seat) -> str:
    """The lasting flag on an enemy that may not attack ``seat`` (Feint, Thicket of Spears)."""
    return f"cannot-attack:{seat}"


def can_attack(s: LcgState, enemy: Uid, seat: Seat) -> bool:
    return not (s.modifiers and s.modifier_total(enemy, cannot_attack(seat)))


def many_defenders(seat: Seat) -> str:
    """The lasting effect under which ``seat`` may declare any number of defenders
    against each attack (Stand Together)."""
    return f"many-defenders:{seat}"


def controlled_attachments(s: LcgState, seat: Seat, among: list[Uid] | None = None) -> list[Uid]:
    """Attachments ``seat`` controls: player cards it owns, and objectives it claimed (on its
    characters). An encounter condition (Caught in a Web) is controlled by nobody (FAQ 1.06).
    ``among``: only those of these cards of the attachments zone (in its order)."""
    out = []
    cards = s.cards
    for a in cards_in(s, "attachments") if among is None else among:
        card = cards[a]
        owner = card.owner
        if owner == seat:
            out.append(a)
        elif owner is None:
            host = card.attached_to
            if host is not None and CARDS[card.code].type == "objective":
                out += [a] if s.controller(host) == seat else []
    return out


def highest_threat_seats(s: LcgState) -> list[Seat]:
    seats = seats_in_turn(s)
    top = max(s.players[p].threat for p in seats)
    return [p for p in seats if s.players[p].threat == top]


def unique_in_play(s: LcgState, code: str) -> bool:
    """Whether a card with the same title as ``code`` is already in play (any player's
    characters, and attachments on anything)."""
    title = definition(code).name
    cards = s.cards
    if any(definition(cards[u].code).name == title for seat in seats_in_turn(s) for u in characters(s, seat)):
        return True
    return any(definition(cards[a].code).name == title for a in cards_in(s, "attachments") if is_in_play(s, a))


def may_enter_play(s: LcgState, uid: Uid) -> bool:
    """Rules: a unique card cannot enter play while a card of its title is in play."""
    d = definition_of(s, uid)
    return not (d.unique and unique_in_play(s, d.code))


def can_draw(s: LcgState) -> bool:
    """Whether players may draw: an active location's text can forbid it (Enchanted Stream)."""
    location = active_location(s)
    return location is None or "draw" not in text_of(s.cards[location].code).while_active
