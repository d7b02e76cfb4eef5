"""The effect vocabulary: the closed set of steps card texts and rules are written in.

Each function returns a program node. Arguments that depend on the table are
functions of the runtime (``Get``); plain values are accepted where a text prints a
number. Names bound by earlier steps are read with :func:`var` and :func:`card_var`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from domain.kernel.choices import card_question
from domain.kernel.choices import chosen as chosen
from domain.kernel.decisions import Option
from domain.kernel.events import Delayed, DelayedEffectScheduled, Env, Event, LimitUsed, Modifier, ModifierAdded
from domain.kernel.flow import Ask, Call, Decide, Do, ForEach, If, Node, Seq
from domain.kernel.runtime import Runtime

# The game-agnostic steps, re-exported: card texts import their whole vocabulary from here.
from domain.kernel.steps import Get, resolve
from domain.kernel.steps import card_var as card_var
from domain.kernel.steps import emit as emit
from domain.kernel.steps import var as var
from domain.lcg import events as ev
from domain.lcg.rules import caps, table
from domain.lcg.rules.constant import cannot_leave_staging, may_be_engaged
from domain.lcg.rules.table import cards_in, definition, seats_in_turn
from domain.lcg.state import LcgState, Seat, Uid


def st(rt: Runtime) -> LcgState:
    """The LCG state the runtime is running."""
    return cast(LcgState, rt.state)


SELF: Get[Uid] = card_var("self")
PLAYER: Get[Seat] = var("player")
FIRST_PLAYER: Get[Seat] = lambda rt: st(rt).first  # noqa: E731


def card_option(s: LcgState, uid: Uid) -> Option:
    card = s.cards[uid]
    label = definition(card.code).name
    owner = card.owner
    if owner:
        label += f" ({owner})"
    return Option(str(uid), label, uid)


IMMUNE = "Immune to player card effects"


def shielded(rt: Runtime, uid: Uid) -> bool:
    """Whether the card is immune to the effect running now: "Cards with the text 'Immune
    to player card effects' ignore the effects of all player cards, and cannot be chosen
    as targets of player card effects" (Hunt for the Dreadnaught rulebook; FAQ 1.47: no
    damage, progress, engagement, moving or discarding by a player card, nor its target)."""
    source = rt.env.get("_card")
    if source is None or source == uid:
        return False
    s = st(rt)
    return table.defn(s, int(source)).encounter_set is None and table.has_keyword(s, uid, IMMUNE)


def choose(
    seat: Get[Seat],
    prompt: str,
    candidates: Callable[[Runtime], Iterable[Uid]],
    bind: str,
    then: Node | None,
    *,
    count: int | Get[int] = 1,
    optional: bool = False,
    rule: str | None = None,
) -> Decide:
    """``seat`` chooses ``count`` of ``candidates`` (fewer if fewer exist).

    With ``optional`` the seat may choose none. Nothing is asked when there is no
    candidate; a forced choice of the only candidate is taken without asking.
    """

    ask = card_question(
        seat,
        prompt,
        lambda rt: [u for u in candidates(rt) if not shielded(rt, u)],
        lambda rt, u: card_option(st(rt), u),
        count,
        optional,
    )
    return Decide(ask, bind, then, auto_single=True, rule=rule)


def each_player(body: Node, rule: str | None = None) -> ForEach:
    """Run ``body`` for each player still in the game, from the first player on."""
    return ForEach(lambda rt: seats_in_turn(st(rt)), "player", body, rule)


# -- the steps cards use -----------------------------------------------------------------


def deal_damage(target: Get[Uid | None], amount: int | Get[int]) -> Do:
    def make(rt: Runtime) -> Event | None:
        uid = target(rt)
        if uid is None or not table.is_in_play(st(rt), uid) or shielded(rt, uid):
            return None
        n = caps.damage_allowed(st(rt), uid, resolve(amount, rt))
        return ev.DamageDealt(card=uid, amount=n) if n > 0 else None

    return emit(make)


def damage_each(targets: Callable[[Runtime], Iterable[Uid]], amount: int | Get[int]) -> ForEach:
    return ForEach(lambda rt: list(targets(rt)), "target", deal_damage(card_var("target"), amount))


def spread_damage(
    seat: Get[Seat], count: int | Get[int], candidates: Callable[[Runtime], Iterable[Uid]], prompt: str
) -> ForEach:
    """``seat`` deals ``count`` damage divided as it chooses: one point at a time, each to a
    card of ``candidates`` (Archery, Ballista Barrage, Varjax's excess damage). The count is
    fixed as the damage begins."""
    return ForEach(
        lambda rt: list(range(resolve(count, rt))),
        "point",
        choose(seat, prompt, candidates, "hit", deal_damage(lambda rt: int(rt.env["hit"]), 1)),
    )


def heal(target: Get[Uid | None], amount: int | Get[int]) -> Do:
    def make(rt: Runtime) -> Event | None:
        uid = target(rt)
        if uid is None:
            return None
        n = min(resolve(amount, rt), st(rt).cards[uid].damage)
        return ev.DamageHealed(card=uid, amount=n) if n > 0 else None

    return emit(make)


def raise_threat(seat: Get[Seat], amount: int | Get[int]) -> Do:
    def make(rt: Runtime) -> Event | None:
        n = resolve(amount, rt)
        return ev.ThreatRaised(player=seat(rt), amount=n) if n > 0 else None

    return emit(make)


def exhaust(targets: Callable[[Runtime], Iterable[Uid]]) -> Do:
    def make(rt: Runtime) -> Event | None:
        s = st(rt)
        uids = tuple(u for u in targets(rt) if not s.cards[u].exhausted)
        return ev.CardsExhausted(cards=uids) if uids else None

    return emit(make)


def ready(targets: Callable[[Runtime], Iterable[Uid]]) -> Do:
    def make(rt: Runtime) -> Event | None:
        s = st(rt)
        uids = tuple(u for u in targets(rt) if s.cards[u].exhausted and not table.cannot_ready(s, u))
        return ev.CardsReadied(cards=uids) if uids else None

    return emit(make)


def modify(targets: Callable[[Runtime], Iterable[Uid]], stat: str, amount: int, until: str) -> ForEach:
    """Each target gets ``amount`` to ``stat`` until the end of ``until``."""

    def make(rt: Runtime) -> Event:
        source = rt.env.get("_card")
        return ModifierAdded(modifier=Modifier(int(rt.env["target"]), stat, amount, until, source))

    return ForEach(lambda rt: list(targets(rt)), "target", emit(make))


def place_progress(target: Get[Uid | None], amount: int | Get[int]) -> Do:
    """Progress on a card: none from a player card on a card immune to player card effects
    (Northern Tracker's progress "on each location" skips The Lonely Mountain)."""

    def make(rt: Runtime) -> Event | None:
        uid = target(rt)
        n = resolve(amount, rt)
        return ev.ProgressPlaced(card=uid, amount=n) if uid is not None and n > 0 and not shielded(rt, uid) else None

    return emit(make)


def gain_resources(heroes: Callable[[Runtime], Iterable[Uid]], amount: int | Get[int] = 1) -> Do:
    """The running card's text adds resources to heroes' pools, not to a hero that may gain
    none from it (Bilbo Baggins: only from treasures)."""

    def make(rt: Runtime) -> Event | None:
        s, source = st(rt), rt.env.get("_card")
        cards = tuple(u for u in heroes(rt) if table.may_gain_resources(s, u, source))
        n = resolve(amount, rt)
        return ev.ResourcesAdded(cards=cards, amount=n) if cards and n > 0 else None

    return emit(make)


def progress_on_current_quest(amount: int | Get[int]) -> Call:
    """Progress "on the current quest": the active location takes it first (FAQ 1.27)."""
    return Call("lcg.progress.current-quest", lambda rt: {"amount": resolve(amount, rt)})


def draw(seat: Get[Seat], count: int | Get[int]) -> Call:
    return Call("lcg.draw", lambda rt: {"player": seat(rt), "count": resolve(count, rt)})


def reveal_encounter_card() -> Call:
    return Call("lcg.reveal")


def engage(enemy: Get[Uid], seat: Get[Seat]) -> Do:
    def make(rt: Runtime) -> Event | None:
        uid = enemy(rt)
        zone = st(rt).cards[uid].zone
        if zone == "staging" and table.has_keyword(st(rt), uid, "Massive"):
            return None  # Massive: "cannot leave the staging area" (Hunt for the Dreadnaught rulebook)
        if not may_be_engaged(st(rt), uid):
            return None
        return ev.EnemyEngaged(enemy=uid, player=seat(rt), origin=zone)

    return emit(make)


def discard(cards: Callable[[Runtime], Iterable[Uid]]) -> Do:
    """Discard the cards (not one a constant ability keeps in the staging area)."""

    def make(rt: Runtime) -> Event | None:
        uids = tuple(u for u in cards(rt) if not cannot_leave_staging(st(rt), u))
        return ev.CardsDiscarded(cards=uids) if uids else None

    return emit(make)


def offer(prompt: str, effect: Node, in_play: bool = True) -> Decide:
    """Ask the controller whether to use an optional ability, then run it.

    A card that left play in the meantime no longer offers its response. A response its
    controller already picked among several (``accepted``) is used without asking again.
    """

    def ask(rt: Runtime) -> Ask | None:
        s = st(rt)
        uid = SELF(rt)
        if s.players[PLAYER(rt)].eliminated or (in_play and not table.is_in_play(s, uid)):
            return None
        question = prompt or f"Use the response of {table.name(s, uid)}?"
        if rt.env.get("accepted"):
            return Ask(PLAYER(rt), question, [Option("yes", "Yes", uid)])
        return Ask(PLAYER(rt), question, [Option("yes", "Yes", uid), Option("no", "No")])

    then = If(lambda rt: rt.env["use"] == "yes", Seq(ability_used("response"), effect))
    return Decide(ask, "use", then, auto_single=True)


def ability_used(name: str) -> Do:
    """Record that the controller used this card's ability (the cause of what follows)."""
    return emit(lambda rt: ev.AbilityTriggered(card=SELF(rt), ability=name, player=PLAYER(rt)))


def use_limit(key: str, until: str = "round") -> Do:
    """Mark a limited ability used; ``key`` may name ``{self}`` and ``{player}``."""
    return emit(lambda rt: LimitUsed(key=key.format(self=rt.env.get("self"), player=rt.env.get("player")), until=until))


def undefended(rt: Runtime) -> bool:
    return bool(rt.env.get("undefended"))


def defending_player(rt: Runtime) -> Seat:
    return cast(Seat, rt.env["defending"])


def attacker(rt: Runtime) -> Uid:
    return int(rt.env["enemy"])


# -- steps the event cards brought (general: any card text may use them) ------------------


def choose_player(seat: Get[Seat], prompt: str, bind: str, then: Node, rule: str | None = None) -> Decide:
    """``seat`` chooses a player still in the game (bound to ``bind`` by seat name)."""

    def ask(rt: Runtime) -> Ask:
        return Ask(seat(rt), prompt, [Option(p, p) for p in seats_in_turn(st(rt))])

    return Decide(ask, bind, then, auto_single=True, rule=rule)


def reduce_threat(seat: Get[Seat], amount: int | Get[int]) -> Do:
    """Lower a player's threat by ``amount`` (a threat never goes below 0)."""

    def make(rt: Runtime) -> Event | None:
        player = seat(rt)
        allowed = caps.threat_reduction_allowed(st(rt), player, rt.env.get("_card"))
        n = min(resolve(amount, rt), st(rt).players[player].threat, allowed)
        return ev.ThreatReduced(player=player, amount=n) if n > 0 else None

    return emit(make)


def heal_all(targets: Callable[[Runtime], Iterable[Uid]]) -> ForEach:
    """Heal every damage on each target."""
    return ForEach(
        lambda rt: [u for u in targets(rt) if st(rt).cards[u].damage],
        "healed",
        heal(card_var("healed"), lambda rt: st(rt).cards[int(rt.env["healed"])].damage),
    )


def put_into_play(card: Get[Uid], seat: Get[Seat]) -> Do:
    """Put a character into play (not played: no cost) under ``seat``'s control.

    Rules: a unique card cannot enter play while a card of its title is in play.
    """

    def make(rt: Runtime) -> Event | None:
        s = st(rt)
        uid = card(rt)
        if table.is_in_play(s, uid) or not table.may_enter_play(s, uid):
            return None
        zone = "heroes" if table.defn(s, uid).type == "hero" else "allies"
        return ev.CardPutIntoPlay(player=seat(rt), card=uid, to=f"{seat(rt)}.{zone}")

    return emit(make)


ENTERS_PLAY = (ev.AllyPlayed, ev.CardPutIntoPlay)
"""The events after which a card has entered play: played from hand, or put into play."""


def entered_play(event: Event, uid: Uid) -> bool:
    """Whether ``event`` brought card ``uid`` into play ("after X enters play")."""
    return isinstance(event, ENTERS_PLAY) and event.card == uid


def return_to_hand(card: Get[Uid]) -> Do:
    """A card in play goes back to its owner's hand (nothing if it already left play)."""

    def make(rt: Runtime) -> Event | None:
        uid = card(rt)
        return ev.CardReturnedToHand(card=uid) if table.is_in_play(st(rt), uid) else None

    return emit(make)


def return_to_staging(enemy: Get[Uid]) -> Seq:
    """An engaged enemy goes back to the staging area; shadow cards dealt to it leave
    with it, unresolved (it no longer attacks this phase)."""

    def shadows(rt: Runtime) -> Event | None:
        dealt = tuple(table.shadows_of(st(rt), enemy(rt)))
        return ev.CardsDiscarded(cards=dealt) if dealt else None

    return Seq(emit(lambda rt: ev.CardMoved(card=enemy(rt), to="staging")), emit(shadows))


def cancel(card: Get[Uid], effect: str) -> Do:
    """Cancel the ``effect`` (``when-revealed`` or ``shadow``) of a card about to resolve it."""
    return emit(lambda rt: ev.EffectCancelled(card=card(rt), effect=effect))


def forbid_attack(enemies: Callable[[Runtime], Iterable[Uid]], seat: Get[Seat], until: str = "phase") -> ForEach:
    """Each enemy cannot attack ``seat`` until the end of ``until``."""

    def make(rt: Runtime) -> Event | None:
        if shielded(rt, int(rt.env["enemy"])):
            return None
        stat = table.cannot_attack(seat(rt))
        return ModifierAdded(modifier=Modifier(int(rt.env["enemy"]), stat, 1, until, rt.env.get("_card")))

    return ForEach(lambda rt: list(enemies(rt)), "enemy", emit(make))


def lasting(key: Callable[[Runtime], str], until: str = "phase") -> Do:
    """A lasting effect that is no card's stat ("that player may declare any number of
    defenders this phase"): a flag under ``key`` until ``until`` ends. The kernel keeps it
    with the limits, which have the same shape (a key, and when it lapses)."""
    return emit(lambda rt: LimitUsed(key=key(rt), until=until))


def shuffle_into_deck(seat: Get[Seat], cards: Callable[[Runtime], Iterable[Uid]]) -> Do:
    """Shuffle ``cards`` into the deck of ``seat`` (the order is recorded in the event)."""

    def make(rt: Runtime) -> Event | None:
        zone = f"{seat(rt)}.deck"
        joining = list(cards(rt))
        if not joining:
            return None
        return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle([*cards_in(st(rt), zone), *joining])))

    return emit(make)


def later(at: str, node: str, env: Callable[[Runtime], Env] | None = None) -> Do:
    """ "At the end of the phase/round, ...": schedule the registered program ``node`` for
    the end of the ``at`` ("phase" or "round"), bound to ``env`` (default: this card, as
    ``self`` and as the cause, and its controller as ``player``)."""

    def scheduled(rt: Runtime) -> Event:
        bound = env(rt) if env is not None else {"self": SELF(rt), "player": PLAYER(rt), "_card": SELF(rt)}
        return DelayedEffectScheduled(delayed=Delayed(at=at, node=node, env=bound))

    return emit(scheduled)
