"""Burgle attempts (The Hobbit: On the Doorstep, The Lonely Mountain rules insert).

"Burgle" effects on encounter cards are ignored except during a burgle attempt: nothing but
this module reads them (:data:`BURGLES`), so revealing, discarding or dealing such a card as
a shadow card never resolves its burgle text. To make a burgle attempt the first player:

1. discards cards from the top of the encounter deck until a card with a burgle effect is
   discarded, and resolves that effect (steps 2 and 3). Attempts are made in the quest phase
   (after the players quest successfully: The Burglar's Turn, A Bare Patch), where an empty
   encounter deck is reset at once (Rules Reference, Round Sequence 3.3) and an effect that
   needs the deck finishes resolving after the reset (FAQ, "When I reveal the last card of the
   encounter deck ..."): when the deck runs out first, its discard pile, the cards just
   discarded with it, is shuffled back and the discarding goes on. With no burgle effect in the
   reset deck either (none in the deck or its discard pile), there is no effect to resolve and
   the attempt fails, the deck staying reset;
2. shuffles their deck and turns up its top card; with no card left in the deck, the
   attempt fails at once;
3. discards from hand the number of cards the effect asks for matching the turned-up card's
   sphere, type or cost (or a combination): if they do, the attempt succeeds; if they
   cannot (or do not), it fails.

Between steps 2 and 3 the players may take actions (FAQ on burgle attempts: an action
window after the card is turned up, before the discard): ``lcg.burgle.window``. The Lonely
Mountain (#43): "Action: during a burgle attempt, the first player may spend 2 resources to
put the revealed card into their hand and reveal the next card of their deck", which becomes
the revealed card; it is one of the actions of that window (:func:`mountain_action`), and
the window opens again after it. The resources are Baggins resources, from Bilbo Baggins's
pool (Karl's example in the rules). Each step is an event or a decision of the first player
with its rule reference, so ``explain`` of the outcome walks back through them.

Rulings, both written in domain/lcg/open_questions.md: the turned-up card goes back on top
of the deck when the attempt ends (it was only turned up; the next attempt shuffles); an
encounter deck that runs out before a burgle effect is found is reset and the search goes on
(step 1 above), and a deck the burgle card emptied is reset once that card's burgle effect has
resolved, before what the attempt's success or failure sets off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Case, Decide, If, Let, Node, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg import hobbit_events as hev
from domain.lcg.effects import card_option, chosen, emit, st
from domain.lcg.rules import table
from domain.lcg.rules.procedures import encounter_deck_out, reset_encounter_deck
from domain.lcg.rules.table import cards_in
from domain.lcg.rules.windows import window
from domain.lcg.state import LcgState, Uid

BILBO = "otd-001"
THE_LONELY_MOUNTAIN = "otd-043"
MOUNTAIN_COST = 2


@dataclass(frozen=True)
class Burgle:
    """A burgle effect: discard ``count`` cards from hand matching the revealed card in
    every one of ``match`` ("sphere", "type", "cost")."""

    count: int
    match: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.count} card{'s' if self.count > 1 else ''} matching its {' and '.join(self.match)}"


BURGLES: dict[str, Burgle] = {}
"""Burgle effects by card code (registered by the cards' text modules)."""


def burgle(code: str, count: int, *match: str) -> None:
    assert set(match) <= {"sphere", "type", "cost"} and match, match
    BURGLES[code] = Burgle(count, tuple(match))


def matches(s: LcgState, revealed: Uid, candidate: Uid, effect: Burgle) -> bool:
    a, b = table.defn(s, revealed), table.defn(s, candidate)
    return all(getattr(a, which) == getattr(b, which) for which in effect.match)


def bilbo(s: LcgState) -> Uid | None:
    """Bilbo Baggins in play (controlled by the first player), if he is."""
    for seat in s.order:
        for uid in table.heroes(s, seat):
            if s.cards[uid].code == BILBO:
                return uid
    return None


def _revealed(s: LcgState) -> Uid | None:
    pile = cards_in(s, f"{s.first}.burgle")
    return pile[0] if pile else None


def _effect(rt: Runtime) -> Burgle:
    s = st(rt)
    return BURGLES[table.defn(s, int(rt.env["burgle"])).code]


def _matching(rt: Runtime) -> list[Uid]:
    s = st(rt)
    revealed = _revealed(s)
    if revealed is None:
        return []
    effect = _effect(rt)
    return [u for u in table.hand(s, s.first) if matches(s, revealed, u, effect)]


def _mountain_usable(s: LcgState) -> Uid | None:
    """The Lonely Mountain, if its action can be used now (it is in play and Bilbo has 2
    resources to spend)."""
    hobbit = bilbo(s)
    if hobbit is None or s.cards[hobbit].resources < MOUNTAIN_COST:
        return None
    for uid in table.staging(s) + cards_in(s, "active"):
        if s.cards[uid].code == THE_LONELY_MOUNTAIN:
            return uid
    return None


# -- the steps ----------------------------------------------------------------------------


def _begin(rt: Runtime) -> Event:
    return hev.BurgleAttemptBegan(player=st(rt).first)


def _first_burgle(rt: Runtime) -> dict[str, int | None]:
    s = st(rt)
    found = next((u for u in cards_in(s, "encounter.deck") if table.defn(s, u).code in BURGLES), None)
    return {"burgle": found}


def _discard_until(rt: Runtime) -> Event | None:
    s = st(rt)
    deck = cards_in(s, "encounter.deck")
    target = rt.env.get("burgle")
    cards = tuple(deck[: deck.index(int(target)) + 1]) if target is not None else tuple(deck)
    return hev.BurgleCardsDiscarded(cards=cards, burgle=target) if cards or target is not None else None


def _discard_until_found(rt: Runtime) -> Event | None:
    """Step 1 in the reset deck: discarding stops at the burgle effect; with none in it, the
    attempt fails here rather than discarding the reset deck again (and again)."""
    return _discard_until(rt) if rt.env.get("burgle") is not None else None


def _deck_ran_out(rt: Runtime) -> bool:
    """The encounter deck ran out (during the quest phase) before a burgle effect."""
    return rt.env.get("burgle") is None and _quest_phase_deck_out(rt)


def _quest_phase_deck_out(rt: Runtime) -> bool:
    return st(rt).phase == "quest" and encounter_deck_out(rt)


def _reset() -> Node:
    """Rules Reference, Round Sequence 3.3: "If the encounter deck is ever empty during the quest
    phase, the encounter discard pile is shuffled and reset back into the encounter deck"."""
    return emit(reset_encounter_deck, rule="lcg.encounter-deck.reshuffle")


def _shuffle(rt: Runtime) -> Event | None:
    zone = f"{st(rt).first}.deck"
    deck = cards_in(st(rt), zone)
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(deck))) if deck else None


def _turn_up(rt: Runtime) -> Event | None:
    s = st(rt)
    deck = cards_in(s, f"{s.first}.deck")
    return hev.BurgleCardTurnedUp(player=s.first, card=deck[0]) if deck else None


def _failed(reason: str) -> Node:
    def make(rt: Runtime) -> Event:
        s = st(rt)
        target = rt.env.get("burgle")
        return hev.BurgleFailed(
            player=s.first, reason=reason, burgle=int(target) if target is not None else None, revealed=_revealed(s)
        )

    return emit(make, rule=f"lcg.burgle.fails.{reason}")


def _succeeded(rt: Runtime) -> Event:
    s = st(rt)
    revealed = _revealed(s)
    assert revealed is not None
    return hev.BurgleSucceeded(
        player=s.first, burgle=int(rt.env["burgle"]), revealed=revealed, discarded=tuple(chosen(rt, "discarded"))
    )


def _ask(rt: Runtime) -> Ask:
    s = st(rt)
    revealed = _revealed(s)
    assert revealed is not None
    effect = _effect(rt)
    d = table.defn(s, revealed)
    seen = f"{d.name} ({d.type}, {d.sphere or 'no sphere'}, cost {d.cost})"
    options = []
    if len(_matching(rt)) >= effect.count:
        options.append(Option("discard", f"Discard {effect.describe()}: the attempt succeeds"))
    options.append(Option("fail", "Discard nothing: the attempt fails"))
    return Ask(s.first, f"Burgle: {seen} is turned up; discard {effect.describe()}?", options)


def _ask_discards(rt: Runtime) -> Ask | None:
    s = st(rt)
    from domain.kernel.steps import ask_to_choose

    uids = _matching(rt)
    n = _effect(rt).count
    return ask_to_choose(s.first, "Which cards do you discard?", [card_option(s, u) for u in uids], n, False)


def _pay(rt: Runtime) -> Event:
    hobbit = bilbo(st(rt))
    assert hobbit is not None
    return ev.ResourcesPaid(payments=(ev.Payment(hobbit, MOUNTAIN_COST),))


def _to_hand(rt: Runtime) -> Event:
    s = st(rt)
    revealed = _revealed(s)
    assert revealed is not None
    return ev.CardMoved(card=revealed, to=f"{s.first}.hand")


def _nothing_turned_up(rt: Runtime) -> bool:
    return _revealed(st(rt)) is None


def mountain_available(s: LcgState, uid: Uid, seat: str) -> bool:
    """The Lonely Mountain's Action: the first player's, during a burgle attempt (a card is
    turned up), with 2 of Bilbo's resources to spend."""
    return seat == s.first and _revealed(s) is not None and _mountain_usable(s) == uid


def mountain_action() -> Node:
    """The Lonely Mountain's Action: the turned-up card goes to hand, the next is turned up."""
    return Seq(
        emit(lambda rt: ev.AbilityTriggered(card=int(rt.env["self"]), ability="action", player=st(rt).first)),
        emit(_pay),
        emit(_to_hand),
        emit(_turn_up),
    )


def _window_prompt(s: LcgState) -> str:
    revealed = _revealed(s)
    shown = table.name(s, revealed) if revealed is not None else "a card"
    return f"Burgle attempt: {shown} is turned up; use an Action before the discard, or pass"


def attempt(success: Callable[[], Node] | None = None, failure: Callable[[], Node] | None = None) -> Node:
    """A burgle attempt by the first player; then what ``success`` or ``failure`` makes runs,
    in the caller's bindings (``burgle`` names the encounter card whose effect resolved).
    They are factories: the attempt can end at several points, each with its own copy."""

    def reset_after() -> Node:
        # The burgle card emptied the deck: it resets once that card's effect has resolved.
        return If(_quest_phase_deck_out, _reset())

    def win() -> Node:
        return Seq(emit(_succeeded, rule="lcg.burgle.succeeds"), reset_after(), *([success()] if success else []))

    def lose(reason: str) -> Node:
        return Seq(_failed(reason), reset_after(), *([failure()] if failure else []))

    def resolve() -> Node:
        return Decide(
            _ask,
            "choice",
            Case(
                "choice",
                {
                    "discard": Decide(_ask_discards, "discarded", win(), auto_single=True, rule="lcg.burgle.step-3"),
                    "fail": lose("not-discarded"),
                },
            ),
            rule="lcg.burgle.step-3",
        )

    def found() -> Node:
        """Steps 2 and 3, once step 1 has discarded a burgle effect (or found none)."""
        return If(
            lambda rt: rt.env.get("burgle") is None,
            lose("no-burgle-card"),
            Seq(
                emit(_shuffle, rule="lcg.burgle.step-2"),
                emit(_turn_up, rule="lcg.burgle.step-2"),
                If(
                    _nothing_turned_up,
                    lose("empty-deck"),
                    Seq(
                        window("lcg.burgle.window", _window_prompt),
                        # The Lonely Mountain's action took the last card of the deck
                        If(_nothing_turned_up, lose("empty-deck"), resolve()),
                    ),
                ),
            ),
        )

    return Seq(
        emit(_begin, rule="lcg.burgle.attempt"),
        Let(
            _first_burgle,
            Seq(
                emit(_discard_until, rule="lcg.burgle.step-1"),
                If(
                    _deck_ran_out,
                    Seq(
                        _reset(),
                        Let(_first_burgle, Seq(emit(_discard_until_found, rule="lcg.burgle.step-1"), found())),
                    ),
                    found(),
                ),
            ),
        ),
        rule="lcg.burgle",
    )
