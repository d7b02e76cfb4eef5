"""The shapes of a viewer's LCG table view: what ``projections.lcg`` builds and a bot reads.

They are msgspec Structs (a view is encoded for the client as is), so they live apart from
the code that builds them (``projections/lcg_view.py``), which is compiled with the rules:
a module compiled with mypyc may not define a Struct class (domain/build.py).
"""

from __future__ import annotations

import msgspec

from domain.kernel.decisions import Decision
from domain.kernel.events import Outcome
from domain.lcg.state import Seat, Uid


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
