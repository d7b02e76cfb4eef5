"""The table of a War of the Ring card game: cards in zones, players in two teams, the path.

Seats are decks (``frodo``, ``witch-king``, ``aragorn``, ``saruman`` in the Trilogy); a
person may play several seats of one team. Zones are named by key:

- per seat: ``<seat>.deck``, ``.hand``, ``.cycle``, ``.eliminated``, ``.reserve``, and
  ``.aside`` (cards drawn by a "draw N, play some, cycle the rest" text, being looked at);
- location decks: ``paths.<n>`` (the path cards numbered n) and ``bg.free`` / ``bg.shadow``;
- active locations: ``path`` (at most one card) and ``battlegrounds``;
- ``at.<location code>``: the cards played on that location (``at.egladil``);
- scoring areas ``free.score`` and ``shadow.score``; ``out`` (a location nobody took);
- ``resolving``: an event card while its text resolves.

An item sits in its wielder's zone with ``wielder`` naming the character it is on.
"""

from __future__ import annotations

import msgspec

from domain.kernel.state import State
from domain.wotr.cards import CardDef

Uid = int
Seat = str
Team = str

FREE: Team = "free"
SHADOW: Team = "shadow"
TEAMS: tuple[Team, Team] = (FREE, SHADOW)


def other(team: Team) -> Team:
    return SHADOW if team == FREE else FREE


class Card(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One physical card at the table (a faction card or a location)."""

    uid: Uid
    code: str
    owner: Seat | None = None
    zone: str = ""
    wielder: Uid | None = None
    reserved: bool = False
    """Played to reserve this round: it cannot move until the next round."""
    attack_tokens: int = 0
    defense_tokens: int = 0
    ignore_defense: bool = False
    """A battleground reactivated out of the opposing team's scoring area."""
    known: bool = False
    """A card in a pile no person sees (``domain.wotr.moving.unseen_pile``) that some seat knows where it
    lies: one taken by name and shown, one that went there from where it could be seen (a
    card in reserve cycled by a Shadow bot), and not shuffled since. A take-back leaves it
    where it is (``wotr.take-back.redraw``)."""


BOT_UNSEEN = ("hand", "deck", "cycle")
"""A Shadow bot's piles that no person sees: its hand and cycle pile are drawn and cycled
unexamined, face down (seed 003, Setup and Random Shadow Hand), and every deck is face down."""


class Player(msgspec.Struct, kw_only=True, omit_defaults=True):
    seat: Seat
    team: Team
    ring: str = ""
    """The Ring token: ``ready``, ``used`` (for the game) or ``spent`` (this round); empty: none."""


class RuleOptions(msgspec.Struct, frozen=True, omit_defaults=True):
    """Readings of disputed rules (open_questions.md), fixed for a game in its first event."""

    excess_hand: str = "cycle"
    """Q1: a hand above the carryover limit at the end of the action step is cycled down to
    the limit (``cycle``, the owner chooses) or kept (``keep``)."""
    play_cost: str = "cycle"
    """Q2: the cost of playing a card: cycle another hand card, forsaking only with no other
    card (``cycle``), or cycle or forsake at the player's choice (``cycle-or-forsake``)."""
    empty_combat: str = "defender"
    """Q8: a combat where no card was played: the defender takes the location
    (``defender``), or nobody does (``nobody``)."""
    when_played_in_reserve: bool = False
    """Text "when played" resolves only for a card played onto a path or a battleground
    (seed 004: a card played to reserve does not resolve it); ``True`` resolves it in
    reserve too. Text that names the reserve resolves there either way."""


class DeckSetup(msgspec.Struct, frozen=True):
    """One seat's deck: its team, the factions it holds, its cards (codes)."""

    seat: Seat
    team: Team
    factions: tuple[str, ...]
    cards: tuple[str, ...]


class Options(msgspec.Struct, frozen=True, omit_defaults=True):
    """Everything a new game is made from, besides its seed."""

    scenario: str
    decks: tuple[DeckSetup, ...]
    rules: RuleOptions = RuleOptions()
    bots: tuple[Seat, ...] = ()
    """Against the Shadow: the Shadow seats the rules play (``domain/wotr/rules/bot.py``)."""
    difficulty: str = ""
    """With bots: ``standard`` (each bot draws 1 fewer card in the draw step, 2 fewer in
    the Two-Player Duel) or ``challenging`` (the scenario's count)."""
    bot_pool: str = ""
    """What stands in for the 51 unpublished bot cards: ``base`` (the base game's Shadow
    faction cards) or the name of the card file that replaced them."""
    bot_cards: tuple[CardDef, ...] = ()
    """The cards of a ``--bot-cards`` file, recorded so the game reloads anywhere."""


class Combat(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The combat being resolved on one location."""

    location: Uid
    kind: str
    """``path`` or ``battleground``."""
    attackers: Team
    attack: int
    defense: int
    """Printed defense icons (unless ignored) plus defense tokens of the location."""
    remaining: int
    """Attack icons still to cancel by the defenders' losses."""
    defenders: int = 0
    empty: bool = False
    supports: list[list[Uid]] = msgspec.field(default_factory=list)
    """``[character, army]`` pairs: which army supports which leader in this combat."""
    losses: list[Uid] = msgspec.field(default_factory=list)


class WotrState(State, kw_only=True, omit_defaults=True):
    options: Options | None = None
    cards: dict[Uid, Card] = msgspec.field(default_factory=dict)
    zones: dict[str, list[Uid]] = msgspec.field(default_factory=dict)
    players: dict[Seat, Player] = msgspec.field(default_factory=dict)
    order: list[Seat] = msgspec.field(default_factory=list)
    """Turn order positions (a seat may appear twice: Gandalf in the Three-Player Duel)."""
    start: int = 0
    """Position in ``order`` of the starting player."""
    turn: int = 0
    passes: int = 0
    round: int = 0
    step: str = ""
    path_number: int = 0
    """The number of the last path activated."""
    corruption: int = 0
    played: list[Uid] = msgspec.field(default_factory=list)
    """Cards played this round (no card may be played twice in a round)."""
    effects: list[str] = msgspec.field(default_factory=list)
    """Effects lasting until the end of the round (``red-arrow``, ``three-hunters``)."""
    combat: Combat | None = None

    # -- queries (pure; rules and projections share them) ----------------------------

    def zone(self, key: str) -> list[Uid]:
        return self.zones.get(key, [])

    def seats(self) -> list[Seat]:
        """Each seat once, in turn order from the first position."""
        out: list[Seat] = []
        for seat in self.order:
            if seat not in out:
                out.append(seat)
        return out

    def team_of(self, seat: Seat) -> Team:
        return self.players[seat].team

    def starting_seat(self) -> Seat:
        return self.order[self.start] if self.order else ""

    def seat_to_act(self) -> Seat:
        return self.order[self.turn]

    def is_bot(self, seat: Seat) -> bool:
        return self.options is not None and seat in self.options.bots
