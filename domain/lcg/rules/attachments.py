"""Attachments: what they may be attached to, Restricted, and leaving play with their host.

Rules (Core Set rulebook, Attachments and Keywords):
- An attachment is played onto the card its text names ("Attach to a hero."); it cannot be
  played without a legal target. It stays attached while its host moves between in-play
  areas (an enemy returned to the staging area, an ally given to another player).
- When the host leaves play, its attachments are discarded to their owners' discard piles
  (encounter attachments to the encounter discard pile).
- Restricted: a character may have at most two Restricted attachments; if a third is
  attached, its controller chooses and discards one of them until two remain.
"""

from __future__ import annotations

from typing import Final

from domain.kernel.events import Event
from domain.kernel.flow import register
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.effects import choose, chosen, discard, emit, st
from domain.lcg.rules import constant, table
from domain.lcg.rules.table import cards_in, seats_in_turn
from domain.lcg.state import LcgState, Seat, Uid

RESTRICTED_LIMIT = 2

_KINDS = ("hero", "character", "location", "engaged enemy")


def _candidates(s: LcgState, kind: str) -> list[Uid]:
    if kind == "hero":
        return [u for seat in seats_in_turn(s) for u in table.heroes(s, seat)]
    if kind == "character":
        return list(table.all_characters(s))
    if kind == "location":
        active = table.active_location(s)
        staged = [u for u in table.staging(s) if table.defn(s, u).type == "location"]
        return ([active] if active is not None else []) + staged
    if kind == "engaged enemy":
        return [u for seat in seats_in_turn(s) for u in cards_in(s, f"{seat}.engaged")]
    raise ValueError(f"unknown attachment target {kind!r}; known: {', '.join(_KINDS)}")


def targets(s: LcgState, uid: Uid) -> list[Uid]:
    """The cards attachment ``uid`` may be attached to now, by its printed restriction.

    ``attach_to`` is a kind (``hero``, ``character``, ``location``, ``engaged enemy``),
    optionally led by a trait the target must have (``Noble hero``).
    """
    spec = table.defn(s, uid).attach_to
    if spec and not any(spec == k or spec.endswith(f" {k}") for k in _KINDS):
        # A character named by title ("Attach to Bilbo Baggins.": The Hobbit's treasures).
        return [u for u in table.all_characters(s) if table.defn(s, u).name == spec]
    kind = next((k for k in _KINDS if spec == k or spec.endswith(f" {k}")), spec)
    trait = spec[: -len(kind)].strip()
    # FAQ 1.9 errata (Core 102): "No attachments can be played on Nazgûl of Dol Guldur".
    found = [u for u in _candidates(s, kind) if not constant.of(s, u).no_attachments]
    return [u for u in found if table.has_trait(s, u, trait)] if trait else found


def restricted_on(s: LcgState, host: Uid) -> list[Uid]:
    return [a for a in table.attachments_on(s, host) if table.defn(s, a).has("Restricted")]


def _chooser(rt: Runtime) -> Seat:
    s = st(rt)
    host = int(rt.env["host"])
    return s.controller(host) or table.owner_of(s, host)


register(
    "lcg.keyword.restricted",
    choose(
        _chooser,
        "Restricted: the character has more than two Restricted attachments; discard one",
        lambda rt: restricted_on(st(rt), int(rt.env["host"])),
        "discarded",
        discard(lambda rt: chosen(rt, "discarded")),
        count=lambda rt: len(restricted_on(st(rt), int(rt.env["host"]))) - RESTRICTED_LIMIT,
    ),
    rule="lcg.keyword.restricted",
)


def check_restricted(rt: Runtime, event: Event) -> None:
    """After an attachment (or a claimed objective) is attached: a third Restricted one must go.

    Ruling (Core Set rulebook, Keywords: Restricted; Rules Reference, Restricted): a third
    Restricted attachment may be attached, a claimed objective included; then one of the
    character's Restricted attachments, the new one included, goes to its owner's discard pile
    at once (a claimed objective returns to the staging area instead).
    """
    assert isinstance(event, ev.AttachmentPlayed | ev.AttachmentAttached | xev.ObjectiveClaimed)
    if len(restricted_on(st(rt), event.to)) > RESTRICTED_LIMIT:
        rt.call("lcg.keyword.restricted", {"host": event.to, "_by": event.seq}, caller={})


def orphans(s: LcgState) -> tuple[Uid, ...]:
    """Attachments whose host has left play."""
    return tuple(
        a
        for a in cards_in(s, "attachments")
        if (host := s.cards[a].attached_to) is None or not table.is_in_play(s, host)
    )


register(
    "lcg.attachment.leaves-with-host",
    emit(lambda rt: ev.CardsDiscarded(cards=orphans(st(rt))) if orphans(st(rt)) else None),
    rule="lcg.attachment.leaves-with-host",
)

HOST_MAY_LEAVE: Final[frozenset[type[Event]]] = frozenset(
    {
        ev.CardMoved,
        ev.CardsDiscarded,
        ev.CharacterDestroyed,
        ev.EnemyDefeated,
        ev.LocationExplored,
        ev.DeckShuffled,
        ev.ShuffledIntoDeck,
        ev.CharacterDiscarded,
        ev.PlayerEliminated,
    }
)
"""Events after which a host may be out of play (checked only when attachments are in play)."""


def check_orphans(rt: Runtime, event: Event) -> None:
    """After a card leaves play, the attachments on it are discarded."""
    if orphans(st(rt)):
        rt.call("lcg.attachment.leaves-with-host", {"_by": event.seq}, caller={})
