"""The keywords of The Hunt for the Dreadnaught, and the Corsair deck: Archery, Boarding,
Pillage, Massive (Doomed and Guarded, which act as a card is revealed, are in
:mod:`domain.lcg.rules.keywords`).

Rules (The Hunt for the Dreadnaught rulebook, Keywords):
- Archery X: "at the beginning of each combat phase" players deal damage equal to the total
  archery value of the cards in play to characters in play, under any player's control,
  divided as they see fit; "if there is disagreement ..., the first player makes the final
  decision". Here the first player assigns each point (the final say is theirs). Several
  cards with Archery are cumulative.
- Boarding X: "after a ship-enemy with the Boarding keyword engages a player from the
  staging area, reveal the top X cards from the Corsair deck and put the revealed enemies
  into play, engaged with that player"; it does not resolve when the enemy engages from
  another player's play area, the encounter deck or the discard pile.
- Pillage X: "after an enemy with Pillage X attacks a player, that player discards the top
  X cards of their deck".
- Massive: the combat and encounter rules read it (:mod:`domain.lcg.rules.combat`,
  :mod:`domain.lcg.rules.encounter`).
- "X per player": X times the number of players in the group who started the scenario.
- A keyword a text gives a card for a while is a lasting modifier ``keyword:<Name>`` on it
  (its value, or 1); a card that gains a keyword it has adds the values (War Galley gaining
  Boarding 1 has Boarding 2).
- The Corsair deck: "when the Corsair deck runs out of cards, immediately shuffle the
  Corsair discard pile back into the Corsair deck".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from domain.kernel.events import Event, Modifier, ModifierAdded
from domain.kernel.flow import Call, ForEach, Let, Node, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.effects import FIRST_PLAYER, emit, spread_damage, st
from domain.lcg.rules import caps, table, triggers
from domain.lcg.rules.table import cards_in
from domain.lcg.state import LcgState, Seat, Uid

CORSAIR_DECK = "corsair.deck"
CORSAIR_DISCARD = "corsair.discard"

SIDE_B_KEYWORDS: dict[str, tuple[str, ...]] = {}
"""The keywords printed on side B of double-sided cards in play (the Damaged Dreadnaught)."""

ValueAura = Callable[[LcgState, Uid, str], int]
VALUE_AURAS: list[tuple[str, ValueAura]] = []
"""Texts that change a keyword's value on a card, each with the words that name the text
where it applies (Black Sails: Archery 3 while in the staging area, "its own text"; Cobas
Haven: Boarding values -1 while it is the active location)."""

_KEYWORD = re.compile(r"^(?P<name>[A-Za-z ]+?) (?P<x>\d+)(?P<per> per player)?$")


_GAINED = "keyword:"


_GAINED_STATS: dict[str, str] = {}
""":func:`gained` of each keyword asked, made once (a stat built on every read is a new
string, allocated and hashed where it is compared)."""


def gained(keyword: str) -> str:
    """The modifier stat under which a card holds a keyword a text gave it."""
    found = _GAINED_STATS.get(keyword)
    if found is None:
        found = _GAINED_STATS[keyword] = f"{_GAINED}{keyword}"
    return found


def gained_keyword(stat: str) -> str | None:
    """The keyword a modifier stat gives (:func:`gained`), or None for another stat."""
    return stat[len(_GAINED) :] if stat.startswith(_GAINED) else None


def printed_keywords(s: LcgState, uid: Uid) -> tuple[str, ...]:
    card = s.cards[uid]
    if card.face == "B" and card.code in SIDE_B_KEYWORDS:
        return SIDE_B_KEYWORDS[card.code]
    return table.definition_of(s, uid).keywords


def players_who_started(s: LcgState) -> int:
    """The per-player multiplier: players in this group who started the scenario."""
    return len(s.order)


def value_parts(s: LcgState, uid: Uid, name: str) -> list[tuple[str, int]]:
    """What :func:`value` adds up, each part with where it comes from, for the referee's
    arithmetic (as :func:`domain.lcg.rules.table.stat_parts` is for stats)."""
    parts: list[tuple[str, int]] = []
    value(s, uid, name, parts)
    return parts


def value(s: LcgState, uid: Uid, name: str, parts: list[tuple[str, int]] | None = None) -> int:
    """The card's current ``name`` X (0 without it): printed on its side, per player,
    plus what texts give it or take from it; with ``parts``, each term is also put there."""
    total = 0
    for keyword in printed_keywords(s, uid):
        m = _KEYWORD.match(keyword)
        if m and m["name"] == name:
            x = int(m["x"]) * (players_who_started(s) if m["per"] else 1)
            total += x
            if parts is not None:
                parts.append((f"printed {m['x']} per player" if m["per"] else "printed", x))
    if s.modifiers:
        if parts is None:
            total += s.modifier_total(uid, gained(name))
        else:
            for modifier in s.modifiers:
                if modifier.target == uid and modifier.stat == gained(name):
                    total += modifier.amount
                    parts.append((table.modifier_source(s, modifier.source, uid), modifier.amount))
    for where, aura in table.in_game(s, VALUE_AURAS):
        extra = aura(s, uid, name)
        total += extra
        if parts is not None and extra:
            parts.append((where, extra))
    return max(0, total)


def _side_or_gained(s: LcgState, uid: Uid, keyword: str) -> bool:
    card = s.cards[uid]
    if card.face == "B" and keyword in SIDE_B_KEYWORDS.get(card.code, ()):
        return True
    return bool(s.modifiers) and s.modifier_total(uid, gained(keyword)) > 0


table.KEYWORD_AURAS.append(_side_or_gained)


def gain(target: Callable[[Runtime], Uid], keyword: str, amount: int, until: str) -> Node:
    """The card gains ``keyword`` (with value ``amount``) until the end of ``until``."""

    def make(rt: Runtime) -> Event:
        modifier = Modifier(target(rt), gained(keyword), amount, until, rt.env.get("_card"))
        return ModifierAdded(modifier=modifier)

    return emit(make)


def _check(program: str, args: Callable[[LcgState, Event], dict[str, object] | None]) -> triggers.Check:
    def check(rt: Runtime, event: Event) -> None:
        found = args(st(rt), event)
        if found is not None:
            rt.call(program, {**found, "_by": event.seq}, caller={})

    return check


def hook(
    on: type[Event] | tuple[type[Event], ...],
    program: str,
    args: Callable[[LcgState, Event], dict[str, object] | None],
    needs: tuple[str, ...] = (),
) -> None:
    """Run ``program`` after each event of type ``on`` for which ``args`` gives its bindings.
    ``needs``: codes one of which must be in the game for ``args`` ever to give any (the card
    whose text it is): in the other games it is never asked (``table.needs``)."""
    for kind in on if isinstance(on, tuple) else (on,):
        check = _check(program, args)
        triggers.HOOKS.setdefault(kind, []).append(table.needs(check, *needs) if needs else check)


# -- Archery -------------------------------------------------------------------------------


def archers(s: LcgState) -> list[Uid]:
    """The cards whose Archery counts: enemies in play and locations in the staging area."""
    return table.enemies_in_play(s) + [
        u for u in cards_in(s, "staging") if table.definition_of(s, u).type == "location"
    ]


def archery_total(s: LcgState) -> int:
    return sum(value(s, u, "Archery") for u in archers(s))


register(
    "lcg.keyword.archery",
    spread_damage(
        FIRST_PLAYER,
        lambda rt: archery_total(st(rt)),
        lambda rt: list(table.all_characters(st(rt))),
        "Archery: choose a character to take 1 damage (the first player decides)",
    ),
    rule="lcg.keyword.archery",
)

# -- the Corsair deck, and Boarding --------------------------------------------------------


def corsair_reshuffle(rt: Runtime) -> Event | None:
    s = st(rt)
    if cards_in(s, CORSAIR_DECK) or not cards_in(s, CORSAIR_DISCARD):
        return None
    return ev.DeckShuffled(zone=CORSAIR_DECK, order=tuple(rt.shuffle(cards_in(s, CORSAIR_DISCARD))))


CORSAIR_RESHUFFLE = register("lcg.corsair.reshuffle", emit(corsair_reshuffle), rule="lcg.corsair-deck.reshuffle")


def _corsair_ran_out(s: LcgState, event: Event) -> dict[str, object] | None:
    return {} if not cards_in(s, CORSAIR_DECK) and cards_in(s, CORSAIR_DISCARD) else None


hook(
    (ev.EnemyEngaged, ev.CardMoved, ev.CardsDiscarded, ev.EnemyDefeated, ev.CharacterDestroyed),
    "lcg.corsair.reshuffle",
    _corsair_ran_out,
)


def engage_from_corsair_deck(seat: Callable[[Runtime], Seat]) -> Node:
    """The top card of the Corsair deck comes into play engaged with ``seat``."""

    def make(rt: Runtime) -> Event | None:
        deck = cards_in(st(rt), CORSAIR_DECK)
        return ev.EnemyEngaged(enemy=deck[0], player=seat(rt), origin=CORSAIR_DECK) if deck else None

    return Seq(emit(corsair_reshuffle), emit(make))


def _boarding(s: LcgState, event: Event) -> dict[str, object] | None:
    """The engagement Boarding follows; its X is read as it resolves, after the enemy's own
    Forced effects on engaging (a ship that gains Boarding as it engages boards with it)."""
    assert isinstance(event, ev.EnemyEngaged)
    if event.origin != "staging" or s.players[event.player].eliminated:
        return None
    return {"player": event.player, "enemy": event.enemy, "_card": event.enemy}


register(
    "lcg.keyword.boarding",
    Let(
        lambda rt: {"boarders": list(range(value(st(rt), int(rt.env["enemy"]), "Boarding")))},
        ForEach(lambda rt: list(rt.env["boarders"]), "boarder", engage_from_corsair_deck(lambda rt: rt.env["player"])),
    ),
    rule="lcg.keyword.boarding",
)
hook(ev.EnemyEngaged, "lcg.keyword.boarding", _boarding)

# -- Pillage, after an enemy's attack --------------------------------------------------------


def _pillage(rt: Runtime) -> Event | None:
    s = st(rt)
    enemy, seat = int(rt.env["enemy"]), str(rt.env["player"])
    x = value(s, enemy, "Pillage")
    top = tuple(cards_in(s, f"{seat}.deck")[:x])
    return ev.CardsDiscarded(cards=top) if top and not s.players[seat].eliminated else None


register(
    "lcg.combat.attack-made",
    Let(lambda rt: {"_card": int(rt.env["enemy"])}, emit(_pillage, rule="lcg.keyword.pillage")),
    rule="lcg.combat.attack-made",
)


def pillaged_event(s: LcgState, event: Event, enemy: Uid) -> bool:
    """Whether ``event`` is ``enemy``'s Pillage discarding at least one event card."""
    return (
        isinstance(event, ev.CardsDiscarded)
        and event.cause.rule == "lcg.keyword.pillage"
        and event.cause.card == enemy
        and any(table.definition_of(s, u).type == "event" for u in event.cards)
    )


# -- per-round caps: what a capped card received this round -------------------------------------


def _tally(stat: str) -> Callable[[Runtime], Event | None]:
    def make(rt: Runtime) -> Event:
        return ModifierAdded(modifier=Modifier(int(rt.env["card"]), stat, int(rt.env["amount"]), "round"))

    return make


register("lcg.caps.progress", emit(_tally(caps.RECEIVED_PROGRESS)), rule="lcg.caps.progress")
register("lcg.caps.damage", emit(_tally(caps.RECEIVED_DAMAGE)), rule="lcg.caps.damage")


def _capped(registry: dict[str, caps.Cap]) -> Callable[[LcgState, Event], dict[str, object] | None]:
    def args(s: LcgState, event: Event) -> dict[str, object] | None:
        assert isinstance(event, ev.ProgressPlaced | ev.DamageDealt)
        if s.cards[event.card].code not in registry:
            return None
        return {"card": event.card, "amount": event.amount}

    return args


hook(ev.ProgressPlaced, "lcg.caps.progress", _capped(caps.PROGRESS_CAPS))
hook(ev.DamageDealt, "lcg.caps.damage", _capped(caps.DAMAGE_CAPS))

# -- the end of the round --------------------------------------------------------------------------

END_OF_ROUND: list[tuple[Callable[[LcgState], bool], str]] = []
"""Forced effects "at the end of the round": (whether it applies now, its program)."""


def _round_over(s: LcgState, event: Event) -> dict[str, object] | None:
    return {} if any(applies(s) for applies, _ in END_OF_ROUND) else None


register(
    "lcg.round.forced-at-end",
    ForEach(
        lambda rt: [program for applies, program in END_OF_ROUND if applies(st(rt))],
        "program",
        Call(lambda rt: str(rt.env["program"])),
    ),
    rule="lcg.round.forced-at-end",
)
hook(xev.RoundEnded, "lcg.round.forced-at-end", _round_over)
