"""Questions the rules ask about the table: icons, who controls what, where a card may go.

Pure functions of the state; rules, bots and projections share them. Current icons are
printed values plus the card's own text (Knights of Dol Amroth on Dol Amroth) plus what
cards in reserve grant it (Arwen), plus its items when it counts as a unit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Final

from domain.wotr import cards as _cards
from domain.wotr.cards import CardDef, LocationDef, Text
from domain.wotr.moving import items_on
from domain.wotr.scenarios import Scenario, SeatDef, scenario
from domain.wotr.state import FREE, SHADOW, Seat, Team, Uid, WotrState, other

CARRYOVER = 2
"""Rules §4.2: the carryover limit starts at 2."""
SUDDEN_DEATH = 10
"""Rules §4.4: a lead of 10 or more at a victory check wins at once."""

# The card registries, Final: the compiled core reads a Final name from a C static, an
# imported one from the module's dict (the rules read a definition or a text several times
# an event).
CARDS: Final = _cards.CARDS
LOCATIONS: Final = _cards.LOCATIONS
ROUND_EFFECTS: Final = _cards.ROUND_EFFECTS
TEXTS: Final = _cards.TEXTS


def text_of(code: str) -> Text:
    """``cards.text_of`` compiled, as the LCG rules have it: a call from compiled code into an
    interpreted function costs a Python frame."""
    found = TEXTS.get(code)
    return found if found is not None else _cards.NO_TEXT


# -- definitions -------------------------------------------------------------------------


def cards_in(s: WotrState, key: str) -> list[Uid]:
    """``s.zone(key)``, for the compiled rules: the state's methods stay interpreted (it is a
    msgspec Struct), and a call from compiled code into one costs a Python frame, while this
    is a native call (about 5,000 calls a game). The empty list is made only when the zone
    is missing (``get(key, [])`` would make one every call)."""
    found = s.zones.get(key)
    return found if found is not None else []


def defn(s: WotrState, uid: Uid) -> CardDef:
    return CARDS[s.cards[uid].code]


def loc(s: WotrState, uid: Uid) -> LocationDef:
    return LOCATIONS[s.cards[uid].code]


def name(s: WotrState, uid: Uid) -> str:
    code = s.cards[uid].code
    return CARDS[code].name if code in CARDS else LOCATIONS[code].name


def dest_label(s: WotrState, dest: str) -> str:
    """Where a card is played, as an option says it: ``to your reserve``, ``(event)``,
    ``onto <location>`` (``L<uid>``) or ``on <character>`` (an item's wielder)."""
    if dest == "reserve":
        return "to your reserve"
    if dest == "event":
        return "(event)"
    target = int(dest[1:])
    return f"{'onto' if dest[0] == 'L' else 'on'} {name(s, target)}"


def scenario_of(s: WotrState) -> Scenario:
    assert s.options is not None
    return scenario(s.options.scenario)


def seat_def(s: WotrState, seat: Seat) -> SeatDef:
    return scenario_of(s).seat(seat)


def is_a(s: WotrState, uid: Uid, type_: str) -> bool:
    code = s.cards[uid].code
    return code in CARDS and CARDS[code].type == type_


def named(s: WotrState, uid: Uid, *names: str) -> bool:
    return name(s, uid) in names


# -- where cards are ---------------------------------------------------------------------


def zone_seat(zone: str) -> tuple[str, str]:
    seat, _, rest = zone.partition(".")
    return seat, rest


def in_reserve(s: WotrState, uid: Uid) -> bool:
    return s.cards[uid].zone.endswith(".reserve")


def on_location(s: WotrState, uid: Uid) -> bool:
    return s.cards[uid].zone.startswith("at.")


def in_play(s: WotrState, uid: Uid) -> bool:
    return in_reserve(s, uid) or on_location(s, uid)


def location_zone(s: WotrState, location: Uid) -> str:
    return f"at.{s.cards[location].code}"


def active_path(s: WotrState) -> Uid | None:
    zone = cards_in(s, "path")
    return zone[0] if zone else None


def active_battlegrounds(s: WotrState) -> list[Uid]:
    return list(cards_in(s, "battlegrounds"))


def active_locations(s: WotrState) -> list[Uid]:
    path = active_path(s)
    return ([path] if path is not None else []) + active_battlegrounds(s)


def location_of(s: WotrState, uid: Uid) -> Uid | None:
    """The active location a card is on, if any."""
    zone = s.cards[uid].zone
    if not zone.startswith("at."):
        return None
    code = zone[3:]
    for location in active_locations(s):
        if s.cards[location].code == code:
            return location
    return None


def on_path(s: WotrState, uid: Uid) -> bool:
    path = active_path(s)
    return path is not None and s.cards[uid].zone == location_zone(s, path)


def cards_at(s: WotrState, location: Uid) -> list[Uid]:
    return list(cards_in(s, location_zone(s, location)))


def owner(s: WotrState, uid: Uid) -> Seat:
    seat = s.cards[uid].owner
    assert seat is not None, f"card {uid} has no owner"
    return seat


def team(s: WotrState, uid: Uid) -> Team:
    return s.players[owner(s, uid)].team


def controller(s: WotrState, uid: Uid) -> Seat:
    """The seat whose area holds the card: its reserve's seat; on a location, the seat that
    played it (an item: its wielder's)."""
    card = s.cards[uid]
    seat, _ = zone_seat(card.zone)
    if seat in s.players:
        return seat
    if card.wielder is not None:
        return owner(s, card.wielder)
    return owner(s, uid)


def items_of(s: WotrState, uid: Uid) -> list[Uid]:
    return items_on(s, uid)


def unit(s: WotrState, uid: Uid) -> list[Uid]:
    """A card with the items it wields: they leave play together."""
    return [uid, *items_on(s, uid)]


def units_at(s: WotrState, location: Uid, side: Team) -> list[Uid]:
    """The armies and characters of ``side`` on a location (items go with their wielders)."""
    return [u for u in cards_at(s, location) if s.cards[u].wielder is None and team(s, u) == side]


def reserve_cards(s: WotrState, side: Team | None = None) -> list[Uid]:
    out: list[Uid] = []
    for seat, player in s.players.items():
        if side is None or player.team == side:
            out += cards_in(s, f"{seat}.reserve")
    return out


def in_play_cards(s: WotrState) -> list[Uid]:
    out = reserve_cards(s)
    for location in active_locations(s):
        out += cards_at(s, location)
    return out


MIRROR = "Mirror of Galadriel"


def mirror_in_play(s: WotrState, seat: Seat) -> bool:
    """Whether ``seat`` has its Mirror of Galadriel in play: it may look at the top card of
    its draw deck (the card's text), so that card is known to it."""
    return any(named(s, u, MIRROR) and s.cards[u].owner == seat for u in in_play_cards(s))


def find(s: WotrState, *names: str, zones: tuple[str, ...] | None = None) -> list[Uid]:
    """Cards with one of ``names``, anywhere (or in the given zones)."""
    codes = {c.code for c in CARDS.values() if c.name in names}
    if zones is None:
        return [u for u, c in s.cards.items() if c.code in codes]
    return [u for z in zones for u in cards_in(s, z) if s.cards[u].code in codes]


def gandalf_in_play(s: WotrState) -> bool:
    return any(named(s, u, "Gandalf the Grey", "Gandalf the White") for u in in_play_cards(s))


# -- icons -------------------------------------------------------------------------------


@cache
def _aura_codes() -> frozenset[str]:
    return frozenset(code for code, t in TEXTS.items() if t.boosts is not None)


@cache
def _grant_codes() -> frozenset[str]:
    return frozenset(code for code, t in TEXTS.items() if t.grants is not None)


def _givers(s: WotrState, codes: frozenset[str]) -> list[Uid]:
    """Cards in any reserve whose code is one of ``codes``."""
    cards = s.cards
    return [u for seat in s.players for u in cards_in(s, f"{seat}.reserve") if cards[u].code in codes]


def icons(s: WotrState, uid: Uid, icon: str) -> int:
    """A card's current ``icon`` (``path``, ``bg_attack``, ``bg_defense``, ``lead_attack``,
    ``lead_defense``), never below zero."""
    code = s.cards[uid].code
    value: int = getattr(CARDS[code], icon)
    hook = text_of(code).icons
    if hook is not None:
        value += hook(s, uid, icon)
    for giver in _givers(s, _aura_codes()):
        boost = text_of(s.cards[giver].code).boosts
        assert boost is not None
        value += boost(s, giver, uid, icon)
    return max(0, value)


def unit_icons(s: WotrState, uid: Uid, icon: str) -> int:
    """A card's icons together with its items' (they cancel attack as one unit)."""
    return sum(icons(s, u, icon) for u in unit(s, uid))


# -- leadership and support --------------------------------------------------------------


def can_support(s: WotrState, army: Uid, character: Uid) -> bool:
    """Rules §6.3: an army supports a character of its own faction; texts widen this."""
    if team(s, army) != team(s, character):
        return False
    if defn(s, army).faction == defn(s, character).faction:
        return True
    own = text_of(s.cards[character].code).supported_by
    if own is not None and own(s, character, army):
        return True
    for effect in s.effects:
        allow = ROUND_EFFECTS[effect].supports if effect in ROUND_EFFECTS else None
        if allow is not None and allow(s, army, character):
            return True
    return False


def support_value(s: WotrState, character: Uid, army: Uid, lead: str) -> int:
    """What supporting ``character`` with ``army`` adds: its leadership (plus any bonus the
    army's own text gives while supporting)."""
    value = icons(s, character, lead)
    bonus = text_of(s.cards[army].code).support_bonus
    if bonus is not None:
        value += bonus(s, army, character)
    return value


def supports(s: WotrState, location: Uid, side: Team, lead: str) -> list[tuple[Uid, Uid]]:
    """Which army supports which character of ``side`` here: the pairing that counts the
    most icons (one army supports at most one character, open question 14)."""
    units = units_at(s, location, side)
    leaders = [u for u in units if is_a(s, u, "character")]
    armies = [u for u in units if is_a(s, u, "army")]
    edges = {(c, a): support_value(s, c, a, lead) for c in leaders for a in armies if can_support(s, a, c)}
    edges = {k: v for k, v in edges.items() if v > 0}
    if not edges:
        return []
    leaders = [c for c in leaders if any(k[0] == c for k in edges)]
    armies = [a for a in armies if any(k[1] == a for k in edges)]
    best: dict[tuple[int, int], tuple[int, tuple[tuple[Uid, Uid], ...]]] = {}

    def solve(i: int, used: int) -> tuple[int, tuple[tuple[Uid, Uid], ...]]:
        if i == len(leaders):
            return 0, ()
        key = (i, used)
        if key in best:
            return best[key]
        result = solve(i + 1, used)
        for j, army in enumerate(armies):
            value = edges.get((leaders[i], army))
            if value is None or used & (1 << j):
                continue
            rest, pairs = solve(i + 1, used | (1 << j))
            if rest + value > result[0]:
                result = (rest + value, ((leaders[i], army), *pairs))
        best[key] = result
        return result

    return list(solve(0, 0)[1])


# -- placement ---------------------------------------------------------------------------


def may_enter(s: WotrState, uid: Uid, location: Uid, givers: list[Uid] | None = None) -> bool:
    """Whether an army or character may be played or moved onto an active location
    (``givers``: the reserve cards that grant entry, if already known)."""
    d = defn(s, uid)
    return _enters(
        s,
        uid,
        d,
        text_of(d.code).may_enter,
        location,
        _allows(s),
        _grants(s, _givers(s, _grant_codes()) if givers is None else givers),
    )


EnterHook = Callable[[WotrState, Uid, Uid], bool | None]
Allow = Callable[[WotrState, Uid, Uid], bool]
Grant = Callable[[WotrState, Uid, Uid, Uid], bool]


def _allows(s: WotrState) -> list[Allow]:
    """The entry permissions this round's lasting effects give (Red Arrow and the like)."""
    out: list[Allow] = []
    for effect in s.effects:
        allow = ROUND_EFFECTS[effect].may_enter if effect in ROUND_EFFECTS else None
        if allow is not None:
            out.append(allow)
    return out


def _grants(s: WotrState, givers: list[Uid]) -> list[tuple[Uid, Grant]]:
    """The entry grants of ``givers`` (reserve cards), each with its card."""
    out: list[tuple[Uid, Grant]] = []
    for giver in givers:
        grant = text_of(s.cards[giver].code).grants
        if grant is not None:
            out.append((giver, grant))
    return out


def _enters(
    s: WotrState,
    uid: Uid,
    d: CardDef,
    own: EnterHook | None,
    location: Uid,
    allows: list[Allow],
    grants: list[tuple[Uid, Grant]],
) -> bool:
    """:func:`may_enter` with what does not depend on the location looked up once: the
    card's definition and text hook, the effects' and the givers' permissions. The checks
    run in the same order, so a text hook is asked exactly when it was before."""
    where = loc(s, location)
    verdict = own(s, uid, location) if own is not None else None
    if verdict is not None:
        return verdict
    if where.kind == "path":
        return d.type == "character" and where.number in d.paths
    if d.faction in where.factions:
        return True
    for allow in allows:
        if allow(s, uid, location):
            return True
    return any(grant(s, giver, uid, location) for giver, grant in grants)


def can_wield(s: WotrState, item: Uid, character: Uid) -> bool:
    d = defn(s, item)
    c = defn(s, character)
    if c.type != "character" or team(s, item) != team(s, character) or not in_play(s, character):
        return False
    return _fits(s, d, c, character)


def _wielders(s: WotrState, item: Uid, d: CardDef, side: Team, candidates: list[Uid]) -> list[Uid]:
    """The characters of ``side`` among ``candidates`` that may wield ``item`` (``d``): what
    ``is_a(c, "character") and team(c) == side and can_wield(item, c)`` keeps, with the
    item's definition and team looked up once (its team when the first candidate is met,
    as can_wield would)."""
    out: list[Uid] = []
    cards = s.cards
    item_team: Team | None = None
    for character in candidates:
        c = CARDS.get(cards[character].code)
        if c is None or c.type != "character" or team(s, character) != side:
            continue
        if item_team is None:
            item_team = team(s, item)
        if item_team == side and in_play(s, character) and _fits(s, d, c, character):
            out.append(character)
    return out


def _fits(s: WotrState, d: CardDef, c: CardDef, character: Uid) -> bool:
    """:func:`can_wield` past its first checks: the item ``d`` names the character ``c``
    among its wielders, and no item it already wields excludes it."""
    fits = any(
        spec == c.name
        or (spec.startswith("faction:") and c.faction == spec[8:])
        or (spec.startswith("keyword:") and c.has(spec[8:]))
        for spec in d.wielders
    )
    if not fits:
        return False
    for held in items_on(s, character):
        h = defn(s, held)
        if any(t.excludes and y.has(t.excludes) for t, y in ((text_of(d.code), h), (text_of(h.code), d))):
            return False
    return True


class Table:
    """What the placement questions of one decision share, computed once: the active
    locations, the cards in play, the reserve cards granting entry and the grants and
    lasting effects' permissions :func:`may_enter` would otherwise look up for every card
    and location (the action step asks it for every card in hand and reserve)."""

    __slots__ = ("allows", "givers", "grants", "in_play", "locations")

    def __init__(self, s: WotrState) -> None:
        self.locations = active_locations(s)
        # in_play_cards(s), with the reserve part read once for the givers as well
        in_play = reserve_cards(s)
        codes = _grant_codes()
        cards = s.cards
        self.givers = [u for u in in_play if cards[u].code in codes]
        for location in self.locations:
            in_play += cards_in(s, location_zone(s, location))
        self.in_play = in_play
        self.allows = _allows(s)
        self.grants = _grants(s, self.givers)


def locations_for(s: WotrState, uid: Uid, at: Table | None = None) -> list[Uid]:
    at = at or Table(s)
    d = defn(s, uid)
    own = text_of(d.code).may_enter
    return [location for location in at.locations if _enters(s, uid, d, own, location, at.allows, at.grants)]


def play_destinations(s: WotrState, seat: Seat, uid: Uid, at: Table | None = None) -> list[str]:
    """Where a card from ``seat``'s hand may be played: ``reserve``, ``event``, ``L<uid>`` (a
    location) or ``W<uid>`` (onto a wielder)."""
    d = defn(s, uid)
    if d.type == "event":
        return ["event"]
    at = at or Table(s)
    if d.type == "item":
        side = s.team_of(seat)
        # only a character wields (can_wield's first test), asked first: it is the cheapest
        return [f"W{c}" for c in _wielders(s, uid, d, side, at.in_play)]
    return ["reserve", *(f"L{location}" for location in locations_for(s, uid, at))]


def playable(s: WotrState, seat: Seat, at: Table | None = None) -> list[tuple[Uid, str]]:
    """Every (card, destination) ``seat`` may play now (never the same card twice a round)."""
    at = at or Table(s)
    out: list[tuple[Uid, str]] = []
    for uid in cards_in(s, f"{seat}.hand"):
        if uid in s.played:
            continue
        out += [(uid, dest) for dest in play_destinations(s, seat, uid, at)]
    return out


def movable(s: WotrState, seat: Seat, at: Table | None = None) -> list[tuple[Uid, Uid]]:
    """Every (card, location) a reserve card of ``seat`` may move to (not if played to
    reserve this round)."""
    at = at or Table(s)
    out: list[tuple[Uid, Uid]] = []
    for uid in cards_in(s, f"{seat}.reserve"):
        card = s.cards[uid]
        if card.wielder is None and not card.reserved:
            out += [(uid, location) for location in locations_for(s, uid, at)]
    return out


def destination_zone(s: WotrState, seat: Seat, dest: str) -> tuple[str, Uid | None]:
    """The zone a play destination puts the card in, and its wielder."""
    if dest == "reserve":
        return f"{seat}.reserve", None
    if dest == "event":
        return "resolving", None
    if dest.startswith("L"):
        return location_zone(s, int(dest[1:])), None
    wielder = int(dest[1:])
    return s.cards[wielder].zone, wielder


# -- players -----------------------------------------------------------------------------


def seats_of(s: WotrState, side: Team) -> list[Seat]:
    return [seat for seat in s.seats() if s.players[seat].team == side]


def each_player(s: WotrState, side: Team) -> list[Seat]:
    """Who resolves "each <team> player": every seat of the team, and in a Duel a team
    with a single deck resolves it twice (rules §9.2; three-player reading: open question 10)."""
    seats = seats_of(s, side)
    return seats * 2 if scenario_of(s).duel and len(seats) == 1 else seats


def faction_player(s: WotrState, faction: str) -> Seat | None:
    """ "The <faction> player": the seat whose deck holds that faction (rules §2.1)."""
    assert s.options is not None
    for deck in s.options.decks:
        if faction in deck.factions:
            return deck.seat
    return None


def enemies(s: WotrState, seat: Seat) -> list[Seat]:
    return seats_of(s, other(s.team_of(seat)))


@cache
def _carryover_codes() -> frozenset[str]:
    return frozenset(code for code, t in TEXTS.items() if t.carryover)


def carryover(s: WotrState, seat: Seat, in_play: list[Uid] | None = None) -> int:
    """Rules §4.2: 2, raised by cards (Elrond in reserve, the Staffs in play)."""
    limit = CARRYOVER
    codes = _carryover_codes()
    for uid in in_play_cards(s) if in_play is None else in_play:
        code = s.cards[uid].code
        if code not in codes:
            continue
        t = text_of(code)
        if controller(s, uid) == seat and (t.carryover_where == "play" or in_reserve(s, uid)):
            limit += t.carryover
    return limit


def can_pass(s: WotrState, seat: Seat, in_play: list[Uid] | None = None) -> bool:
    """Rules §4.2: pass with no more cards than the carryover limit, or fewer than every enemy."""
    hand = len(cards_in(s, f"{seat}.hand"))
    if hand <= CARRYOVER or hand <= carryover(s, seat, in_play):
        return True
    return all(hand < len(cards_in(s, f"{enemy}.hand")) for enemy in enemies(s, seat))


def can_draw(s: WotrState, seat: Seat) -> bool:
    return bool(cards_in(s, f"{seat}.deck") or cards_in(s, f"{seat}.cycle"))


# -- scoring -----------------------------------------------------------------------------


def score(s: WotrState, side: Team, final: bool = False) -> int:
    """Rules §8: battlegrounds and (Free Peoples) paths in the scoring area, corruption for
    the Shadow, and at the end each unused once-a-game Ring token."""
    total = 0
    for uid in cards_in(s, f"{side}.score"):
        where = loc(s, uid)
        if where.kind == "battleground" or side == FREE:
            total += where.vp
    if side == SHADOW:
        total += s.corruption
    if final:
        for seat in seats_of(s, side):
            if s.players[seat].ring == "ready" and seat_def(s, seat).ring == "game":
                total += 1
    return total
