"""What a Shadow bot judges before it acts (seed 003, "Shadow Bot Rules"): who would win a
combat now, whether the Shadow could conceivably win it, and whether a card or an action
is useful. Pure functions of the state; a what-if is a shallow copy of the state with some
cards moved (the real state is never touched).

"Conceivably win": if every Shadow card in reserve that could move to that location did
(the card being played included), would the Shadow win the fight? Free Peoples cards that
could move there, and the other combats, are not considered.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.wotr.cards import text_of
from domain.wotr.rules import table
from domain.wotr.rules.combat import defending_side, tally, winner_now
from domain.wotr.state import SHADOW, Seat, Uid, WotrState


def shadow_wins(s: WotrState, location: Uid) -> bool:
    """Would the Shadow take ``location`` if its combat were resolved now?"""
    return winner_now(s, location) == SHADOW


def moved_there(s: WotrState, location: Uid, uids: Iterable[Uid], attack: int = 0, defense: int = 0) -> WotrState:
    """A what-if copy of ``s``: ``location`` active (if it was not), ``uids`` (with their
    items) on it, ``attack``/``defense`` more tokens on it."""
    cards = dict(s.cards)
    zones = dict(s.zones)
    where = cards[location]
    if location not in table.active_locations(s):
        kind = table.loc(s, location).kind
        to = "path" if kind == "path" else "battlegrounds"
        zones[where.zone] = [u for u in zones.get(where.zone, []) if u != location]
        zones[to] = ([] if kind == "path" else list(zones.get(to, []))) + [location]
        # reactivated out of the other team's scoring area, its printed defense is ignored
        # (rules digest §6.2, as wotr.activate marks it)
        ignored = where.zone.endswith(".score") and where.zone != f"{table.loc(s, location).deck}.score"
        where = msgspec.structs.replace(where, zone=to, attack_tokens=0, defense_tokens=0, ignore_defense=ignored)
    if attack or defense:
        where = msgspec.structs.replace(
            where, attack_tokens=where.attack_tokens + attack, defense_tokens=where.defense_tokens + defense
        )
    cards[location] = where
    zone = table.location_zone(s, location)
    arriving = [u for uid in uids for u in table.unit(s, uid)]
    for uid in arriving:
        card = cards[uid]
        zones[card.zone] = [u for u in zones.get(card.zone, []) if u != uid]
        cards[uid] = msgspec.structs.replace(card, zone=zone, reserved=False)
    zones[zone] = list(zones.get(zone, [])) + arriving
    return msgspec.structs.replace(s, cards=cards, zones=zones)


def could_move(s: WotrState, location: Uid, leaving: Uid | None = None) -> list[Uid]:
    """The Shadow cards in reserve that could move to ``location`` (a bot may move a card
    played to reserve this round), besides ``leaving`` (a card that pays for the text)."""
    return [
        u
        for u in table.reserve_cards(s, SHADOW)
        if u != leaving and s.cards[u].wielder is None and _may_enter(s, u, location)
    ]


def _may_enter(s: WotrState, uid: Uid, location: Uid) -> bool:
    return table.defn(s, uid).type in ("army", "character") and table.may_enter(s, uid, location)


def conceivably_wins(
    s: WotrState,
    location: Uid,
    playing: Uid | None = None,
    attack: int = 0,
    defense: int = 0,
    leaving: Uid | None = None,
) -> bool:
    """Could the Shadow win on ``location`` if every Shadow card in reserve that could move
    there did (and ``playing``, the card being played, went there too)?"""
    cards = could_move(s, location, leaving)
    if playing is not None and playing not in cards:
        cards.append(playing)
    return shadow_wins(moved_there(s, location, cards, attack, defense), location)


def standing(s: WotrState, location: Uid, playing: Uid | None = None) -> str:
    """The counts behind "losing now, could conceivably win", in words (for the record)."""

    def count(state: WotrState) -> str:
        t = tally(state, location)
        if t.attackers == SHADOW:
            return f"Shadow attack {t.attack} against {t.defense} defense and {t.defenders} defending icons"
        return f"Shadow defense {t.defense} and {t.defenders} defending icons against attack {t.attack}"

    cards = could_move(s, location)
    if playing is not None and playing not in cards:
        cards.append(playing)
    played = " and the card played" if playing is not None else ""
    return f"now {count(s)}; with every Shadow card in reserve that could move there{played}: " + count(
        moved_there(s, location, cards)
    )


def strength(s: WotrState, location: Uid) -> int:
    """The Shadow's icons in the combat on ``location`` (attack or defending icons)."""
    counted = tally(s, location)
    return counted.attack if counted.attackers == SHADOW else counted.defenders


def adds_icons(s: WotrState, uid: Uid, location: Uid) -> bool:
    """Would card ``uid`` there add Shadow icons to the combat? (A card with only
    leadership icons adds none to a battleground without an army to support it.)"""
    return strength(moved_there(s, location, [uid]), location) > strength(s, location)


def at_the_last_path(s: WotrState, location: Uid) -> bool:
    """The current path is the highest the scenario allows (path 9 in the Trilogy)."""
    where = table.loc(s, location)
    return where.kind == "path" and where.number >= table.scenario_of(s).last_path


def worth_fighting(s: WotrState, location: Uid, playing: Uid | None = None) -> bool:
    """Flowchart steps 3 and 4: the Shadow could conceivably win there but is losing now
    (or it is the current path and the highest the scenario allows)."""
    if at_the_last_path(s, location):
        return True
    return not shadow_wins(s, location) and conceivably_wins(s, location, playing)


def useful_there(s: WotrState, uid: Uid, location: Uid) -> bool:
    """Is it useful to put card ``uid`` on ``location``? It adds icons (the location was
    chosen because the Shadow is losing there, or it is the last path), or its text forces
    the Free Peoples to forsake when it arrives."""
    if text_of(s.cards[uid].code).entered is not None:
        return True
    return adds_icons(s, uid, location)


def free_hand_above_carryover(s: WotrState, seat: Seat) -> bool:
    """Pass chain a: is any other player or bot above the carryover limit?"""
    return any(len(s.zone(f"{other}.hand")) > table.carryover(s, other) for other in s.seats() if other != seat)


def path_below_max(s: WotrState) -> bool:
    """Pass chain b: is the path number below the scenario's maximum?"""
    return s.path_number < table.scenario_of(s).last_path


def winning_everywhere(s: WotrState) -> bool:
    """Pass chain c: is the Shadow winning every combat?"""
    return all(shadow_wins(s, location) for location in table.active_locations(s))


def defends(s: WotrState, location: Uid) -> bool:
    return defending_side(s, location) == SHADOW
