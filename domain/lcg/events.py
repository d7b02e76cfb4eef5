"""What can happen at a Lord of the Rings LCG table, and how each fact changes the state.

The apply functions only write down what the event says happened; every choice (which
card, how much) was made by the rule step before the event was emitted.
"""

from __future__ import annotations

import msgspec

from domain.kernel import zones
from domain.kernel.events import CardsRedrawn, Created, Event, PositionEvent
from domain.kernel.ruleset import Appliers, set_lasting
from domain.kernel.zones import NewCard
from domain.lcg import moving
from domain.lcg.state import Attack, Card, LcgState, Options, Player, Seat, Uid, face_down_pile

APPLIERS = Appliers()
on = APPLIERS.on


class Payment(msgspec.Struct, frozen=True, array_like=True):
    card: Uid
    amount: int


# -- setup -------------------------------------------------------------------------------


class GameCreated(Created, frozen=True, kw_only=True):
    """The game's seed, rules version and options; every rule that follows is computed from them."""

    options: Options
    seats: tuple[Seat, ...]


@on(GameCreated)
def _created(s: LcgState, e: GameCreated) -> None:
    s.seed = e.seed
    s.options = e.options
    s.order = list(e.seats)
    s.first = e.seats[0]
    s.players = {seat: Player(seat=seat) for seat in e.seats}


class CardsCreated(Event, frozen=True, kw_only=True):
    cards: tuple[NewCard, ...]


@on(CardsCreated)
def _cards(s: LcgState, e: CardsCreated) -> None:
    for c in e.cards:
        zones.add(s, Card(uid=c.uid, code=c.code, owner=c.owner, zone=c.zone))


class ThreatSet(Event, frozen=True, kw_only=True):
    """A player's starting threat: the total threat cost of their heroes."""

    player: Seat
    threat: int


@on(ThreatSet)
def _threat_set(s: LcgState, e: ThreatSet) -> None:
    s.players[e.player].threat = e.threat


class DeckShuffled(Event, frozen=True, kw_only=True):
    """``order`` lists the deck top first."""

    zone: str
    order: tuple[Uid, ...]


@on(DeckShuffled)
def _shuffled(s: LcgState, e: DeckShuffled) -> None:
    zones.shuffled(s, e.zone, e.order, _leaves_play)
    _forget_places(s, e.order)


def _forget_places(s: LcgState, order: tuple[Uid, ...]) -> None:
    """A shuffled pile: no seat knows where any of its cards lies any more."""
    for uid in order:
        s.cards[uid].known = False


class ShuffledIntoDeck(Event, frozen=True, kw_only=True):
    """``card`` left play and was shuffled into ``zone`` (``order`` lists the deck top first,
    ``card`` among them): Beorn at the end of the phase he used his Action."""

    card: Uid
    zone: str
    order: tuple[Uid, ...]


@on(ShuffledIntoDeck)
def _shuffled_in(s: LcgState, e: ShuffledIntoDeck) -> None:
    zones.shuffled(s, e.zone, e.order, _leaves_play)
    _forget_places(s, e.order)


class PositionSet(PositionEvent, frozen=True, kw_only=True):
    """The table was laid out exactly as given: a fixture, or a position under dispute."""

    cards: tuple[Card, ...]
    zones: dict[str, list[Uid]]
    players: tuple[Player, ...]
    first: Seat
    round: int = 0
    phase: str = ""
    attack: Attack | None = None
    """The attack being resolved, for a position taken part way through one (a capture)."""
    shared: dict[str, int] = msgspec.field(default_factory=dict)
    """A group of an epic event: what the other groups have contributed to each global value,
    as this group last learned it (see :class:`SharedValueLearned`)."""
    relays: int = 0
    """A group of an epic event: how many effects other groups sent here have arrived."""


@on(PositionSet)
def _position(s: LcgState, e: PositionSet) -> None:
    set_lasting(s, e)
    s.shared = dict(e.shared)
    s.relays = e.relays
    s.cards = {c.uid: msgspec.structs.replace(c) for c in e.cards}
    s.zones = {zone: list(uids) for zone, uids in e.zones.items()}
    s.players = {p.seat: msgspec.structs.replace(p) for p in e.players}
    s.first = e.first
    s.round = e.round
    s.phase = e.phase
    s.attack = msgspec.convert(msgspec.to_builtins(e.attack), Attack) if e.attack is not None else None


# -- moving cards ------------------------------------------------------------------------


_move = moving.move
"""A card changes zones (domain/lcg/moving.py, compiled)."""
_leaves_play = moving.leaves_play
_in_play = moving.in_play_zone


class CardMoved(Event, frozen=True, kw_only=True):
    """A card changed zones (to the bottom, or to the top with ``top``)."""

    card: Uid
    to: str
    top: bool = False


@on(CardMoved)
def _moved(s: LcgState, e: CardMoved) -> None:
    _move(s, e.card, e.to, e.top)


class CardsDiscarded(Event, frozen=True, kw_only=True):
    """Cards went to their discard piles (a player's own, or the encounter discard)."""

    cards: tuple[Uid, ...]


DISCARD_PILES: dict[str, str] = {}
"""Encounter cards with a discard pile of their own, by code (The Hunt for the Dreadnaught:
"Whenever a non-Ship Corsair enemy would be placed in the discard pile, place it in the
Corsair discard pile instead")."""


def encounter_discard(code: str) -> str:
    return DISCARD_PILES.get(code, "encounter.discard")


@on(CardsDiscarded)
def _discarded(s: LcgState, e: CardsDiscarded) -> None:
    for uid in e.cards:
        card = s.cards[uid]
        _move(s, uid, f"{card.owner}.discard" if card.owner else encounter_discard(card.code))


class CharacterDiscarded(Event, frozen=True, kw_only=True):
    """A character in play was discarded (not destroyed) by a card effect and left play for its
    owner's discard pile (the Nazgûl of Dol Guldur's Forced effect); ``controller`` had it."""

    card: Uid
    controller: Seat


@on(CharacterDiscarded)
def _character_discarded(s: LcgState, e: CharacterDiscarded) -> None:
    _move(s, e.card, f"{s.cards[e.card].owner}.discard")


class CardsDrawn(Event, frozen=True, kw_only=True):
    player: Seat
    cards: tuple[Uid, ...]


@on(CardsDrawn)
def _drawn(s: LcgState, e: CardsDrawn) -> None:
    for uid in e.cards:
        _move(s, uid, f"{e.player}.hand")


# -- tokens and states -------------------------------------------------------------------


class ResourcesAdded(Event, frozen=True, kw_only=True):
    cards: tuple[Uid, ...]
    amount: int = 1


@on(ResourcesAdded)
def _resources(s: LcgState, e: ResourcesAdded) -> None:
    for uid in e.cards:
        s.cards[uid].resources += e.amount


class ResourcesPaid(Event, frozen=True, kw_only=True):
    payments: tuple[Payment, ...]


@on(ResourcesPaid)
def _paid(s: LcgState, e: ResourcesPaid) -> None:
    for p in e.payments:
        s.cards[p.card].resources -= p.amount


class DamageDealt(Event, frozen=True, kw_only=True):
    card: Uid
    amount: int


@on(DamageDealt)
def _damage(s: LcgState, e: DamageDealt) -> None:
    s.cards[e.card].damage += e.amount


class DamageHealed(Event, frozen=True, kw_only=True):
    card: Uid
    amount: int


@on(DamageHealed)
def _healed(s: LcgState, e: DamageHealed) -> None:
    s.cards[e.card].damage -= e.amount


class ProgressPlaced(Event, frozen=True, kw_only=True):
    card: Uid
    amount: int


@on(ProgressPlaced)
def _progress(s: LcgState, e: ProgressPlaced) -> None:
    s.cards[e.card].progress += e.amount


class CardsExhausted(Event, frozen=True, kw_only=True):
    cards: tuple[Uid, ...]


@on(CardsExhausted)
def _exhausted(s: LcgState, e: CardsExhausted) -> None:
    for uid in e.cards:
        s.cards[uid].exhausted = True


class CardsReadied(Event, frozen=True, kw_only=True):
    cards: tuple[Uid, ...]


@on(CardsReadied)
def _readied(s: LcgState, e: CardsReadied) -> None:
    for uid in e.cards:
        s.cards[uid].exhausted = False


class ThreatRaised(Event, frozen=True, kw_only=True):
    player: Seat
    amount: int


@on(ThreatRaised)
def _threat(s: LcgState, e: ThreatRaised) -> None:
    s.players[e.player].threat += e.amount


class SurgeGained(Event, frozen=True, kw_only=True):
    """A revealed encounter card gained the Surge keyword (it reveals one more card)."""

    card: Uid


@on(SurgeGained)
def _surge(s: LcgState, e: SurgeGained) -> None:
    s.cards[e.card].surge = True


# -- the round ---------------------------------------------------------------------------


class RoundBegan(Event, frozen=True, kw_only=True):
    round: int


@on(RoundBegan)
def _round(s: LcgState, e: RoundBegan) -> None:
    s.round = e.round


class PhaseBegan(Event, frozen=True, kw_only=True):
    phase: str


@on(PhaseBegan)
def _phase(s: LcgState, e: PhaseBegan) -> None:
    s.phase = e.phase


class AllyPlayed(Event, frozen=True, kw_only=True):
    """An ally went into play from hand (or from where a card text lets it be played: A
    Perilous Voyage, the deck), its cost paid from heroes' resource pools."""

    player: Seat
    card: Uid
    payments: tuple[Payment, ...] = ()


@on(AllyPlayed)
def _ally(s: LcgState, e: AllyPlayed) -> None:
    for p in e.payments:
        s.cards[p.card].resources -= p.amount
    _move(s, e.card, f"{e.player}.allies")


class CharactersCommitted(Event, frozen=True, kw_only=True):
    """Characters exhausted and committed to the quest (those in ``ready`` commit without
    exhausting: A Perilous Voyage, side B)."""

    player: Seat
    cards: tuple[Uid, ...]
    ready: tuple[Uid, ...] = ()


@on(CharactersCommitted)
def _committed(s: LcgState, e: CharactersCommitted) -> None:
    for uid in e.cards:
        card = s.cards[uid]
        card.committed = True
        card.exhausted = card.exhausted or uid not in e.ready


class RemovedFromQuest(Event, frozen=True, kw_only=True):
    card: Uid


@on(RemovedFromQuest)
def _removed(s: LcgState, e: RemovedFromQuest) -> None:
    s.cards[e.card].committed = False


class QuestResolved(Event, frozen=True, kw_only=True):
    """Willpower of the committed characters against the threat in the staging area."""

    willpower: int
    threat: int


@on(QuestResolved)
def _quest_resolved(s: LcgState, e: QuestResolved) -> None:
    for card in s.cards.values():
        card.committed = False


class QuestProgressCancelled(Event, frozen=True, kw_only=True):
    """The progress of a successful quest was not placed: ``stage``, the stage it was made
    against, stopped being the current quest before the progress was placed (an effect of
    questing successfully advanced the quest). It goes neither on the active location nor on
    the new stage."""

    stage: Uid
    amount: int


@on(QuestProgressCancelled)
def _quest_progress_cancelled(s: LcgState, e: QuestProgressCancelled) -> None:
    pass


class EncounterCardRevealed(Event, frozen=True, kw_only=True):
    card: Uid


@on(EncounterCardRevealed)
def _revealed(s: LcgState, e: EncounterCardRevealed) -> None:
    _move(s, e.card, "revealed")


class QuestStageRevealed(Event, frozen=True, kw_only=True):
    """A quest card became the current quest, showing ``side``."""

    card: Uid
    side: str


@on(QuestStageRevealed)
def _stage(s: LcgState, e: QuestStageRevealed) -> None:
    card = s.cards[e.card]
    if card.zone != "quest":
        for old in list(s.zone("quest")):
            _move(s, old, "quest.done")
        _move(s, e.card, "quest")
    card.face = e.side


class LocationTraveled(Event, frozen=True, kw_only=True):
    card: Uid


@on(LocationTraveled)
def _traveled(s: LcgState, e: LocationTraveled) -> None:
    _move(s, e.card, "active")


class LocationExplored(Event, frozen=True, kw_only=True):
    """The location's progress reached its quest points; it left play."""

    card: Uid
    to: str


@on(LocationExplored)
def _explored(s: LcgState, e: LocationExplored) -> None:
    _move(s, e.card, e.to)


class EnemyEngaged(Event, frozen=True, kw_only=True):
    """``origin`` is where the enemy engaged from, when a card text moved it (the engagement
    steps of the encounter phase always take enemies from the staging area)."""

    enemy: Uid
    player: Seat
    origin: str = ""


@on(EnemyEngaged)
def _engaged(s: LcgState, e: EnemyEngaged) -> None:
    _move(s, e.enemy, f"{e.player}.engaged")


class ShadowCardDealt(Event, frozen=True, kw_only=True):
    enemy: Uid
    card: Uid


@on(ShadowCardDealt)
def _shadow(s: LcgState, e: ShadowCardDealt) -> None:
    _move(s, e.card, "shadows")
    s.cards[e.card].attached_to = e.enemy


class AttackDeclared(Event, frozen=True, kw_only=True):
    """An enemy attacks a player (enemy attacks) or is attacked (player attacks)."""

    enemy: Uid
    player: Seat


@on(AttackDeclared)
def _attack(s: LcgState, e: AttackDeclared) -> None:
    s.attack = Attack(enemy=e.enemy, player=e.player, outer=s.attack)


class DefenderDeclared(Event, frozen=True, kw_only=True):
    """``defender`` is exhausted to defend; ``None`` leaves the attack undefended."""

    enemy: Uid
    defender: Uid | None = None


@on(DefenderDeclared)
def _defender(s: LcgState, e: DefenderDeclared) -> None:
    if e.defender is not None:
        s.cards[e.defender].exhausted = True
    attack = s.attack
    if attack is not None:
        if attack.defender is None:
            attack.defender = e.defender
        if e.defender is not None:
            attack.defenders.append(e.defender)


class ShadowCardRevealed(Event, frozen=True, kw_only=True):
    enemy: Uid
    card: Uid


@on(ShadowCardRevealed)
def _shadow_revealed(s: LcgState, e: ShadowCardRevealed) -> None:
    s.cards[e.card].shown = True


class AttackersDeclared(Event, frozen=True, kw_only=True):
    enemy: Uid
    player: Seat
    attackers: tuple[Uid, ...]


@on(AttackersDeclared)
def _attackers(s: LcgState, e: AttackersDeclared) -> None:
    for uid in e.attackers:
        s.cards[uid].exhausted = True
    s.attack = Attack(enemy=e.enemy, player=e.player, attackers=list(e.attackers))


class AttackResolved(Event, frozen=True, kw_only=True):
    """The attack is over; ``by_enemy`` tells an enemy's attack from the players' attack;
    ``cancelled``: the enemy's attack was cancelled after it was declared (the Dreadnaught's, by
    Destroy the Dreadnaught's Response), so it did not attack and no "after it attacks" text
    follows."""

    enemy: Uid
    by_enemy: bool = False
    cancelled: bool = False


@on(AttackResolved)
def _attack_resolved(s: LcgState, e: AttackResolved) -> None:
    s.attack = s.attack.outer if s.attack is not None else None


class QuestStageDefeated(Event, frozen=True, kw_only=True):
    card: Uid


@on(QuestStageDefeated)
def _stage_defeated(s: LcgState, e: QuestStageDefeated) -> None:
    pass


class CharacterDestroyed(Event, frozen=True, kw_only=True):
    """A character left play to its owner's discard pile; ``controller`` is given when
    another player controlled it (an ally put into play with Stand and Fight)."""

    card: Uid
    controller: Seat | None = None


@on(CharacterDestroyed)
def _destroyed(s: LcgState, e: CharacterDestroyed) -> None:
    card = s.cards[e.card]
    _move(s, e.card, f"{card.owner}.discard" if card.owner else encounter_discard(card.code))


class EnemyDefeated(Event, frozen=True, kw_only=True):
    """An enemy's damage reached its hit points; it left play to ``to``."""

    enemy: Uid
    to: str


@on(EnemyDefeated)
def _defeated(s: LcgState, e: EnemyDefeated) -> None:
    _move(s, e.enemy, e.to)


class AttachmentAttached(Event, frozen=True, kw_only=True):
    card: Uid
    to: Uid


@on(AttachmentAttached)
def _attached(s: LcgState, e: AttachmentAttached) -> None:
    _move(s, e.card, "attachments")
    s.cards[e.card].attached_to = e.to


class AttachmentPlayed(Event, frozen=True, kw_only=True):
    """An attachment went from hand (or the deck: A Perilous Voyage) onto ``to``, its cost
    paid from heroes' resource pools."""

    player: Seat
    card: Uid
    to: Uid
    payments: tuple[Payment, ...] = ()


@on(AttachmentPlayed)
def _attachment_played(s: LcgState, e: AttachmentPlayed) -> None:
    for p in e.payments:
        s.cards[p.card].resources -= p.amount
    _move(s, e.card, "attachments")
    s.cards[e.card].attached_to = e.to


class ControlGiven(Event, frozen=True, kw_only=True):
    """A character in play passed to ``player``'s control; it keeps its tokens and attachments."""

    card: Uid
    player: Seat


@on(ControlGiven)
def _control_given(s: LcgState, e: ControlGiven) -> None:
    _move(s, e.card, f"{e.player}.allies")


class AbilityTriggered(Event, frozen=True, kw_only=True):
    """A player used a card's Action or Response; what it does follows as events."""

    card: Uid
    ability: str
    player: Seat


@on(AbilityTriggered)
def _ability(s: LcgState, e: AbilityTriggered) -> None:
    pass


class FirstPlayerPassed(Event, frozen=True, kw_only=True):
    player: Seat


@on(FirstPlayerPassed)
def _first(s: LcgState, e: FirstPlayerPassed) -> None:
    s.first = e.player


class PlayerEliminated(Event, frozen=True, kw_only=True):
    """``reason`` is ``threat`` (50 or more) or ``heroes`` (every hero destroyed)."""

    player: Seat
    reason: str


@on(PlayerEliminated)
def _eliminated(s: LcgState, e: PlayerEliminated) -> None:
    s.players[e.player].eliminated = True


class CardLookedAt(Event, frozen=True, kw_only=True):
    """A player looked at a face-down card (only they learn what it is)."""

    player: Seat
    card: Uid


@on(CardLookedAt)
def _looked(s: LcgState, e: CardLookedAt) -> None:
    card = s.cards[e.card]
    card.known = face_down_pile(s.players, card.zone)  # where it lies is known, while it lies there


@on(CardsRedrawn)
def _redrawn(s: LcgState, e: CardsRedrawn) -> None:
    """What else belongs to a place goes with it: a shadow card's enemy, an Orc Guard's card."""
    hosts = {uid: s.cards[uid].attached_to for uid in e.places}
    for card, old in zones.redrawn(s, e.places, e.cards):
        card.attached_to = hosts[old.uid]


# -- event cards -------------------------------------------------------------------------


class EventPlayed(Event, frozen=True, kw_only=True):
    """An event card was played from hand (or the deck: A Perilous Voyage): its cost paid
    from heroes' pools (``x`` when the printed cost is X), it goes to its owner's discard
    pile as its effect resolves."""

    player: Seat
    card: Uid
    payments: tuple[Payment, ...] = ()
    x: int | None = None


@on(EventPlayed)
def _event_played(s: LcgState, e: EventPlayed) -> None:
    for p in e.payments:
        s.cards[p.card].resources -= p.amount
    owner = s.cards[e.card].owner
    _move(s, e.card, f"{owner}.discard")


class ThreatReduced(Event, frozen=True, kw_only=True):
    """A player's threat went down (never below 0: ``amount`` is what it actually fell)."""

    player: Seat
    amount: int


@on(ThreatReduced)
def _threat_reduced(s: LcgState, e: ThreatReduced) -> None:
    s.players[e.player].threat -= e.amount


class CardPutIntoPlay(Event, frozen=True, kw_only=True):
    """A card entered play without being played (no cost paid), into ``to``: a
    character zone of the player who controls it now."""

    player: Seat
    card: Uid
    to: str


@on(CardPutIntoPlay)
def _put_into_play(s: LcgState, e: CardPutIntoPlay) -> None:
    _move(s, e.card, e.to)


class CardReturnedToHand(Event, frozen=True, kw_only=True):
    """A card in play went back to its owner's hand (it left play)."""

    card: Uid


@on(CardReturnedToHand)
def _returned_to_hand(s: LcgState, e: CardReturnedToHand) -> None:
    _move(s, e.card, f"{s.cards[e.card].owner}.hand")


class EffectCancelled(Event, frozen=True, kw_only=True):
    """A card's ``effect`` (``when-revealed`` or ``shadow``) was cancelled: it will not
    resolve this time. The card stays face up where it is."""

    card: Uid
    effect: str


@on(EffectCancelled)
def _cancelled(s: LcgState, e: EffectCancelled) -> None:
    s.cards[e.card].cancelled = True


class CardFlipped(Event, frozen=True, kw_only=True):
    """A double-sided card in play turned to ``face`` (a ship to its Upgraded side, the
    Dreadnaught to its Damaged side, a contract to side B); its tokens stay on it."""

    card: Uid
    face: str


@on(CardFlipped)
def _flipped(s: LcgState, e: CardFlipped) -> None:
    s.cards[e.card].face = e.face


class ResourcesLost(Event, frozen=True, kw_only=True):
    """Resources a card loses to an encounter effect (not a payment)."""

    card: Uid
    amount: int


@on(ResourcesLost)
def _resources_lost(s: LcgState, e: ResourcesLost) -> None:
    s.cards[e.card].resources -= e.amount


class SharedValueLearned(Event, frozen=True, kw_only=True):
    """Epic Multiplayer: the event organizer told this group what the other groups have
    contributed to a global value (``key``: ``progress`` on stage 1B, ``damage`` on the
    Dreadnaught). ``organizer_version`` is the organizer's event that this reports."""

    key: str
    others: int
    organizer_version: int = 0


@on(SharedValueLearned)
def _learned(s: LcgState, e: SharedValueLearned) -> None:
    s.shared[e.key] = e.others
    s.pending = None  # the decision it interrupted is asked again once what it triggers has run


class EffectSent(Event, frozen=True, kw_only=True):
    """Epic Multiplayer: a card text "in any group" was aimed at another group (``group``,
    its number in the event); the event organizer relays ``effect`` (a name from the
    scenario's relayed effects) with ``amount`` to it, where its first player picks the card."""

    group: int
    effect: str
    amount: int


@on(EffectSent)
def _sent(s: LcgState, e: EffectSent) -> None:
    """Nothing changes at this table: the effect resolves at the other group's."""


class EffectArrived(Event, frozen=True, kw_only=True):
    """Epic Multiplayer: the event organizer relayed an effect another group sent here (its
    cause: group number ``source_group`` and that group's event ``source_event``). ``relay``
    numbers the effects sent to this group, so each arrives once."""

    relay: int
    source_group: int
    source_event: int
    effect: str
    amount: int


@on(EffectArrived)
def _arrived(s: LcgState, e: EffectArrived) -> None:
    s.relays = e.relay
    s.pending = None  # the decision it interrupted is asked again once the effect has resolved


EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    PositionSet,
    CardsCreated,
    ThreatSet,
    DeckShuffled,
    ShuffledIntoDeck,
    CharacterDiscarded,
    CardMoved,
    CardsDiscarded,
    CardsDrawn,
    ResourcesAdded,
    ResourcesPaid,
    DamageDealt,
    DamageHealed,
    ProgressPlaced,
    CardsExhausted,
    CardsReadied,
    ThreatRaised,
    SurgeGained,
    RoundBegan,
    PhaseBegan,
    AllyPlayed,
    CharactersCommitted,
    RemovedFromQuest,
    QuestResolved,
    EncounterCardRevealed,
    QuestStageRevealed,
    QuestStageDefeated,
    LocationTraveled,
    LocationExplored,
    EnemyEngaged,
    ShadowCardDealt,
    AttackDeclared,
    DefenderDeclared,
    ShadowCardRevealed,
    AttackersDeclared,
    AttackResolved,
    CharacterDestroyed,
    EnemyDefeated,
    AttachmentAttached,
    AttachmentPlayed,
    ControlGiven,
    AbilityTriggered,
    FirstPlayerPassed,
    PlayerEliminated,
    CardLookedAt,
    EventPlayed,
    ThreatReduced,
    CardPutIntoPlay,
    CardReturnedToHand,
    EffectCancelled,
    CardFlipped,
    ResourcesLost,
    SharedValueLearned,
    EffectSent,
    EffectArrived,
    QuestProgressCancelled,
)
