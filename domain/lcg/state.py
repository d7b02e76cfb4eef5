"""The table of a Lord of the Rings LCG game: cards in zones, players, the quest.

Zones are named by key. Per-player zones are ``<seat>.<zone>`` (``p1.deck``,
``p1.hand``, ``p1.heroes``, ``p1.allies``, ``p1.discard``, ``p1.engaged``); shared ones
are ``staging``, ``encounter.deck``, ``encounter.discard``, ``revealed``, ``active``
(the active location), ``quest`` (the current stage), ``quest.deck``, ``victory``,
``set-aside``, ``shadows`` (face-down shadow cards; ``attached_to`` names the enemy)
and ``attachments`` (``attached_to`` names the host).
"""

from __future__ import annotations

from typing import Final

import msgspec

from domain.kernel.state import State

Uid = int
Seat = str

SET_ASIDE_FACE_UP: Final = "set-aside.face-up"
"""Cards set aside face up, out of play, whose text may still bring them in (Nazgûl of Dol
Guldur). Per player, ``<seat>.prisoner`` holds a hero turned face down as the prisoner,
``<seat>.shackles`` a condition on top of the deck, ``<seat>.under`` the player cards face
down under Orc Guards."""

IN_PLAY_ZONES = ("heroes", "allies", "engaged", "staging", "active", "attachments", "quest", "setup", "contract")
"""The zones (a player's by their last part) whose cards are in play."""


class Card(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One physical card at the table."""

    uid: Uid
    code: str
    owner: Seat | None = None
    zone: str = ""
    exhausted: bool = False
    damage: int = 0
    resources: int = 0
    progress: int = 0
    committed: bool = False
    attached_to: Uid | None = None
    face: str = "A"
    surge: bool = False
    shown: bool = False
    claimed: bool = False
    """An objective claimed by a player; it stays marked until it returns to the staging area."""
    cancelled: bool = False
    """Its When Revealed or shadow effect was cancelled (A Test of Will, Hasty Stroke)."""
    known: bool = False
    """A card in a face-down pile (:func:`face_down_pile`) that some seat knows where it lies:
    one it looked at, or one that went there from where it could be seen (put back on top of
    a deck from a hand or a burgle attempt) and has not been shuffled since. A take-back
    leaves it where it is (``lcg.take-back.redraw``)."""


FACE_DOWN_SHARED = ("encounter.deck", "shadows", "corsair.deck", "treasures")
"""The shared piles whose cards no seat sees and whose order chance decided: the encounter
deck and the shadow cards dealt from it, the Corsair deck, the treasures under The Lonely
Mountain. (The quest deck and the cards set aside face down are known by the scenario.)"""
FACE_DOWN_OWN = ("deck", "under")
"""A player's piles of the same kind: their deck, and the cards from it face down under Orc Guards."""


def face_down_pile(players: dict[Seat, Player], zone: str) -> bool:
    """Whether ``zone`` is one of :data:`FACE_DOWN_SHARED` or a player's :data:`FACE_DOWN_OWN`."""
    if zone in FACE_DOWN_SHARED:
        return True
    seat, _, rest = zone.partition(".")
    return rest in FACE_DOWN_OWN and seat in players


class Player(msgspec.Struct, kw_only=True, omit_defaults=True):
    seat: Seat
    threat: int = 0
    eliminated: bool = False


class HeroSetup(msgspec.Struct, frozen=True, omit_defaults=True):
    heroes: tuple[str, ...]
    deck: tuple[str, ...]
    contract: str = ""
    """A contract the player put into play with their heroes (A Perilous Voyage), by code."""


class Options(msgspec.Struct, frozen=True, omit_defaults=True):
    """Everything a new game is made from, besides its seed."""

    scenario: str
    players: tuple[HeroSetup, ...]
    difficulty: str = "standard"
    epic: str = ""
    """The Epic Multiplayer event this game is one group of (its id), if any."""
    epic_players: int = 0
    """Epic Multiplayer: the players among all groups at the start of the event, from which
    the global values are computed."""
    epic_group: int = 0
    """Epic Multiplayer: this group's number among the event's groups (1 to ``epic_groups``)."""
    epic_groups: int = 0
    """Epic Multiplayer: how many groups play the event (texts "in any group" may reach them)."""


class Attack(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The attack being resolved: an enemy's (``defender``) or the players' (``attackers``)."""

    enemy: Uid
    player: Seat
    defender: Uid | None = None
    attackers: list[Uid] = msgspec.field(default_factory=list)
    defenders: list[Uid] = msgspec.field(default_factory=list)
    """Every declared defender (several only with Stand Together); ``defender`` is the first."""
    outer: Attack | None = None
    """The attack this one interrupts (a Wolf Rider's attack during another enemy's), which
    goes on once this one is resolved."""


class LcgState(State, kw_only=True, omit_defaults=True):
    options: Options | None = None
    cards: dict[Uid, Card] = msgspec.field(default_factory=dict)
    zones: dict[str, list[Uid]] = msgspec.field(default_factory=dict)
    players: dict[Seat, Player] = msgspec.field(default_factory=dict)
    order: list[Seat] = msgspec.field(default_factory=list)
    first: Seat = ""
    round: int = 0
    phase: str = ""
    attack: Attack | None = None
    shared: dict[str, int] = msgspec.field(default_factory=dict)
    """Epic Multiplayer: what the other groups have contributed to each global value, as
    this group last learned it from the event organizer (a recorded event)."""
    relays: int = 0
    """Epic Multiplayer: how many effects sent from other groups have arrived here (each a
    recorded event, numbered by the event organizer per group)."""

    # -- queries (pure; rules and projections share them) ----------------------------

    def zone(self, key: str) -> list[Uid]:
        return self.zones.get(key, [])

    def card(self, uid: Uid) -> Card:
        return self.cards[uid]

    def active_seats(self) -> list[Seat]:
        """Seats still in the game, in turn order starting with the first player."""
        order = self.order
        start = order.index(self.first) if self.first in order else 0
        rotated = order[start:] + order[:start]
        return [s for s in rotated if not self.players[s].eliminated]

    def in_play(self, seat: Seat) -> list[Uid]:
        return self.zone(f"{seat}.heroes") + self.zone(f"{seat}.allies")

    def controller(self, uid: Uid) -> Seat | None:
        """The seat whose play area or engagement area holds the card."""
        zone = self.cards[uid].zone
        seat, _, rest = zone.partition(".")
        return seat if seat in self.players and rest in ("heroes", "allies", "engaged") else None
