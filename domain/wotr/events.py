"""What can happen at a War of the Ring card game table, and how each fact changes the state.

The apply functions only write down what the event says happened; every choice (which
card, where to) and every random outcome was settled by the rule step before the event
was emitted.
"""

from __future__ import annotations

import msgspec

from domain.kernel import zones
from domain.kernel.events import Created, Event, PositionEvent
from domain.kernel.ruleset import Appliers, set_lasting
from domain.kernel.zones import NewCard
from domain.wotr import moving
from domain.wotr.cards import CARDS
from domain.wotr.moving import to_pile, unseen_pile
from domain.wotr.state import Card, Combat, Options, Player, Seat, Team, Uid, WotrState

APPLIERS = Appliers()
on = APPLIERS.on


# -- setup -------------------------------------------------------------------------------


class GameCreated(Created, frozen=True, kw_only=True):
    """The game's seed, options (scenario, decks, rule readings) and turn order."""

    options: Options
    order: tuple[Seat, ...]
    rings: tuple[Seat, ...] = ()
    """Seats that start with a Ring token."""


@on(GameCreated)
def _created(s: WotrState, e: GameCreated) -> None:
    for card in e.options.bot_cards:
        # Card data from a --bot-cards file: definitions are data, registered once by code
        # (options validation refuses a code that clashes with another definition).
        CARDS.setdefault(card.code, card)
    s.seed = e.seed
    s.options = e.options
    s.order = list(e.order)
    s.players = {
        d.seat: Player(seat=d.seat, team=d.team, ring="ready" if d.seat in e.rings else "") for d in e.options.decks
    }


class CardsCreated(Event, frozen=True, kw_only=True):
    cards: tuple[NewCard, ...]


@on(CardsCreated)
def _cards(s: WotrState, e: CardsCreated) -> None:
    for c in e.cards:
        zones.add(s, Card(uid=c.uid, code=c.code, owner=c.owner, zone=c.zone))


class DeckShuffled(Event, frozen=True, kw_only=True):
    """``order`` lists the deck top first; cards not yet in the zone join it (a recycle)."""

    zone: str
    order: tuple[Uid, ...]


@on(DeckShuffled)
def _shuffled(s: WotrState, e: DeckShuffled) -> None:
    zones.shuffled(s, e.zone, e.order, to_pile)
    for uid in e.order:  # no seat knows where any of them lies any more
        s.cards[uid].known = False


class BotsSeated(Event, frozen=True, kw_only=True):
    """Against the Shadow: the rules play these Shadow seats, at this difficulty, with these
    cards (``substitution`` says what stands in for the unpublished bot cards)."""

    bots: tuple[Seat, ...]
    difficulty: str
    substitution: str


@on(BotsSeated)
def _bots(s: WotrState, e: BotsSeated) -> None:
    pass


class BotChose(Event, frozen=True, kw_only=True):
    """A Shadow bot's choice, made by the rules: ``step`` names the flowchart step or bot
    rule (``flowchart.3-move``, ``first-in-last-out``, ``random-hand``...), ``reason`` says
    why in words; ``cards`` and ``location`` are what it chose (hidden cards are redacted
    from the feed like any other card field)."""

    player: Seat
    step: str
    reason: str
    cards: tuple[Uid, ...] = ()
    location: Uid | None = None
    shown: bool = False
    """The cards are played face up right after: everyone may see them already."""


@on(BotChose)
def _bot_chose(s: WotrState, e: BotChose) -> None:
    pass


class PositionSet(PositionEvent, frozen=True, kw_only=True):
    """The table was laid out exactly as given: a fixture, or a position under dispute."""

    cards: tuple[Card, ...]
    zones: dict[str, list[Uid]]
    players: tuple[Player, ...]
    start: int = 0
    turn: int = 0
    round: int = 1
    step: str = ""
    path_number: int = 0
    corruption: int = 0
    played: tuple[Uid, ...] = ()
    effects: tuple[str, ...] = ()
    passes: int = 0
    combat: Combat | None = None
    """The combat being resolved, for a position taken part way through one (a capture)."""


@on(PositionSet)
def _position(s: WotrState, e: PositionSet) -> None:
    set_lasting(s, e)
    s.cards = {c.uid: msgspec.structs.replace(c) for c in e.cards}
    s.zones = {zone: list(uids) for zone, uids in e.zones.items()}
    s.players = {p.seat: msgspec.structs.replace(p) for p in e.players}
    s.start, s.turn, s.round, s.step = e.start, e.turn, e.round, e.step
    s.path_number, s.corruption = e.path_number, e.corruption
    s.played, s.effects = list(e.played), list(e.effects)
    s.passes = e.passes
    s.combat = msgspec.convert(msgspec.to_builtins(e.combat), Combat) if e.combat is not None else None


# -- moving cards ------------------------------------------------------------------------


# Moving a card (and the items it wields) is compiled: domain/wotr/moving.py.
_move = moving.move
_move_with_items = moving.move_with_items


class CardsDrawn(Event, frozen=True, kw_only=True):
    """Cards from the top of the draw deck into the hand (``aside``: set aside to look at)."""

    player: Seat
    cards: tuple[Uid, ...]
    aside: bool = False


@on(CardsDrawn)
def _drawn(s: WotrState, e: CardsDrawn) -> None:
    zone = f"{e.player}.{'aside' if e.aside else 'hand'}"
    for uid in e.cards:
        _move(s, uid, zone)


class CardsCycled(Event, frozen=True, kw_only=True):
    """Cards went face down onto their owners' cycle piles."""

    cards: tuple[Uid, ...]


@on(CardsCycled)
def _cycled(s: WotrState, e: CardsCycled) -> None:
    for uid in e.cards:
        _move(s, uid, f"{s.cards[uid].owner}.cycle")


class CardsEliminated(Event, frozen=True, kw_only=True):
    """Cards went face down onto their owners' eliminated piles, never to return."""

    cards: tuple[Uid, ...]


@on(CardsEliminated)
def _eliminated(s: WotrState, e: CardsEliminated) -> None:
    for uid in e.cards:
        _move(s, uid, f"{s.cards[uid].owner}.eliminated")


class CardTaken(Event, frozen=True, kw_only=True):
    """A named card was taken into the hand from a deck or a pile (and shown)."""

    player: Seat
    card: Uid


@on(CardTaken)
def _taken(s: WotrState, e: CardTaken) -> None:
    _move(s, e.card, f"{e.player}.hand")
    card = s.cards[e.card]
    card.known = unseen_pile(s, card.zone)  # shown as it was taken: a bot's hand holds it, known


class CardsLookedAt(Event, frozen=True, kw_only=True):
    """A seat looked at face-down cards of its own (only it learns what they are)."""

    player: Seat
    cards: tuple[Uid, ...]


@on(CardsLookedAt)
def _looked(s: WotrState, e: CardsLookedAt) -> None:
    for uid in e.cards:
        card = s.cards[uid]
        card.known = card.known or unseen_pile(s, card.zone)


class CardPlayed(Event, frozen=True, kw_only=True):
    """A card was played: to ``<seat>.reserve``, onto a location (``at.<code>``), onto a
    wielder (``wielder``, in the wielder's zone), or as an event (``resolving``)."""

    player: Seat
    card: Uid
    to: str
    wielder: Uid | None = None


@on(CardPlayed)
def _played(s: WotrState, e: CardPlayed) -> None:
    _move(s, e.card, e.to)
    card = s.cards[e.card]
    card.wielder = e.wielder
    card.reserved = e.to.endswith(".reserve") and e.wielder is None
    s.played.append(e.card)


class CardMoved(Event, frozen=True, kw_only=True):
    """A card in reserve moved onto a location; its items went with it."""

    player: Seat
    card: Uid
    to: str


@on(CardMoved)
def _moved(s: WotrState, e: CardMoved) -> None:
    _move_with_items(s, e.card, e.to)
    s.cards[e.card].reserved = False


# -- the round ---------------------------------------------------------------------------


class RoundBegan(Event, frozen=True, kw_only=True):
    round: int


@on(RoundBegan)
def _round(s: WotrState, e: RoundBegan) -> None:
    s.round = e.round


class StepBegan(Event, frozen=True, kw_only=True):
    """``location``, ``action``, ``combat``, ``victory`` or ``draw``."""

    step: str


@on(StepBegan)
def _step(s: WotrState, e: StepBegan) -> None:
    s.step = e.step
    if e.step == "action":
        s.turn, s.passes = s.start, 0


class TurnEnded(Event, frozen=True, kw_only=True):
    """A seat took its action (or passed); the turn goes to the next position."""

    player: Seat
    passed: bool = False


@on(TurnEnded)
def _turn(s: WotrState, e: TurnEnded) -> None:
    s.passes = s.passes + 1 if e.passed else 0
    s.turn = (s.turn + 1) % len(s.order)


class RingTokenUsed(Event, frozen=True, kw_only=True):
    """``spent``: flipped until the next round; otherwise used up for the game."""

    player: Seat
    spent: bool = False


@on(RingTokenUsed)
def _ring(s: WotrState, e: RingTokenUsed) -> None:
    s.players[e.player].ring = "spent" if e.spent else "used"


class AbilityUsed(Event, frozen=True, kw_only=True):
    """A seat used a card's text as its action; what the text does follows as events."""

    card: Uid
    player: Seat
    ability: str = "action"


@on(AbilityUsed)
def _ability(s: WotrState, e: AbilityUsed) -> None:
    pass


class RoundEffectBegan(Event, frozen=True, kw_only=True):
    """An effect that lasts until the end of the round (The Red Arrow, The Three Hunters)."""

    effect: str


@on(RoundEffectBegan)
def _effect(s: WotrState, e: RoundEffectBegan) -> None:
    s.effects.append(e.effect)


class RoundEnded(Event, frozen=True, kw_only=True):
    """Reserve cards may move again, round effects lapse, flipped Ring tokens turn back."""

    round: int


@on(RoundEnded)
def _round_ended(s: WotrState, e: RoundEnded) -> None:
    s.played.clear()
    s.effects.clear()
    for card in s.cards.values():
        card.reserved = False
    for player in s.players.values():
        if player.ring == "spent":
            player.ring = "ready"


class StartingPlayerPassed(Event, frozen=True, kw_only=True):
    """The starting-player token went to the next position in turn order."""

    player: Seat
    start: int


@on(StartingPlayerPassed)
def _start(s: WotrState, e: StartingPlayerPassed) -> None:
    s.start = e.start


# -- locations, tokens, combat -----------------------------------------------------------


class LocationActivated(Event, frozen=True, kw_only=True):
    """A location became active (``to`` is ``path`` or ``battlegrounds``).

    ``number`` is a path's number; ``ignore_defense`` marks a battleground reactivated out
    of the opposing team's scoring area.
    """

    location: Uid
    to: str
    number: int = 0
    reactivated: bool = False
    ignore_defense: bool = False


@on(LocationActivated)
def _activated(s: WotrState, e: LocationActivated) -> None:
    _move(s, e.location, e.to)
    card = s.cards[e.location]
    card.attack_tokens = card.defense_tokens = 0
    card.ignore_defense = e.ignore_defense
    if e.number:
        s.path_number = e.number


class TokensAdded(Event, frozen=True, kw_only=True):
    """Combat tokens placed on a location: attack tokens for its attackers, defense tokens
    for its defenders."""

    location: Uid
    attack: int = 0
    defense: int = 0


@on(TokensAdded)
def _tokens(s: WotrState, e: TokensAdded) -> None:
    card = s.cards[e.location]
    card.attack_tokens += e.attack
    card.defense_tokens += e.defense


class CorruptionChanged(Event, frozen=True, kw_only=True):
    """Corruption tokens added to (or removed from) the Shadow's scoring area."""

    amount: int


@on(CorruptionChanged)
def _corruption(s: WotrState, e: CorruptionChanged) -> None:
    s.corruption += e.amount


class CombatBegan(Event, frozen=True, kw_only=True):
    """The icons counted: ``attack`` against the location's ``defense``; which army supports
    which leader (``supports``, pairs of character and army)."""

    location: Uid
    kind: str
    attackers: Team
    attack: int
    defense: int
    defenders: int = 0
    """The defending cards' icons, all together (the Duel path rule compares totals)."""
    supports: tuple[tuple[Uid, Uid], ...] = ()
    empty: bool = False
    """No card was played on the location."""


@on(CombatBegan)
def _combat(s: WotrState, e: CombatBegan) -> None:
    s.combat = Combat(
        location=e.location,
        kind=e.kind,
        attackers=e.attackers,
        attack=e.attack,
        defense=e.defense,
        remaining=max(0, e.attack - e.defense),
        defenders=e.defenders,
        supports=[[c, a] for c, a in e.supports],
        empty=e.empty,
    )


class LossTaken(Event, frozen=True, kw_only=True):
    """Defending cards chosen to cancel ``icons`` attack icons; they will be eliminated."""

    cards: tuple[Uid, ...]
    icons: int


@on(LossTaken)
def _loss(s: WotrState, e: LossTaken) -> None:
    combat = s.combat
    if combat is not None:
        combat.losses.extend(e.cards)
        combat.remaining = max(0, combat.remaining - e.icons)


class CombatEnded(Event, frozen=True, kw_only=True):
    """The location went to a scoring area (``free.score``, ``shadow.score``) or ``out``,
    with ``corruption`` tokens for the Shadow."""

    location: Uid
    to: str
    winner: Team | None = None
    corruption: int = 0


@on(CombatEnded)
def _combat_ended(s: WotrState, e: CombatEnded) -> None:
    _move(s, e.location, e.to)
    card = s.cards[e.location]
    card.attack_tokens = card.defense_tokens = 0
    card.ignore_defense = False
    s.corruption += e.corruption
    s.combat = None


class ScoresCounted(Event, frozen=True, kw_only=True):
    """The victory check: each team's score (``final``: with unused Ring tokens)."""

    free: int
    shadow: int
    final: bool = False


@on(ScoresCounted)
def _scores(s: WotrState, e: ScoresCounted) -> None:
    pass


EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    BotsSeated,
    BotChose,
    PositionSet,
    CardsCreated,
    DeckShuffled,
    CardsDrawn,
    CardsCycled,
    CardsEliminated,
    CardTaken,
    CardsLookedAt,
    CardPlayed,
    CardMoved,
    RoundBegan,
    StepBegan,
    TurnEnded,
    RingTokenUsed,
    AbilityUsed,
    RoundEffectBegan,
    RoundEnded,
    StartingPlayerPassed,
    LocationActivated,
    TokensAdded,
    CorruptionChanged,
    CombatBegan,
    LossTaken,
    CombatEnded,
    ScoresCounted,
)
