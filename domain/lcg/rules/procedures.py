"""Shared procedures: the recurring rule steps that phases and card texts call by name.

``lcg.draw``, ``lcg.reveal`` (reveal an encounter card), ``lcg.destroy`` (a character or
enemy with lethal damage leaves play), ``lcg.explore`` (a location's progress reaches
its quest points), ``lcg.progress.current-quest`` (progress on the current quest),
``lcg.quest.advance`` (the stage is defeated), ``lcg.eliminate`` (a player is out of the
game), ``lcg.end-phase``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel.decisions import Option
from domain.kernel.events import Event, GameEnded, Outcome, ScopeEnded
from domain.kernel.flow import Ask, Call, Do, ForEach, Hold, If, InChosenOrder, Let, Node, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.effects import emit, st
from domain.lcg.rules import caps, table
from domain.lcg.rules.constant import cannot_leave_staging, draw_replacement
from domain.lcg.rules.keywords import doomed_program, guard_placed, guarded_program
from domain.lcg.rules.table import cards_in, seats_in_turn, text_of
from domain.lcg.state import LcgState, Uid

# -- draw --------------------------------------------------------------------------------


def _draw(rt: Runtime) -> Event | None:
    """Draw from the top of the deck; an empty deck simply gives no card."""
    s = st(rt)
    seat = rt.env["player"]
    if s.players[seat].eliminated or not table.can_draw(s):
        return None
    shackles = draw_replacement(s, seat)
    if shackles is not None:
        return ev.CardsDiscarded(cards=(shackles,))
    cards = tuple(cards_in(s, f"{seat}.deck")[: int(rt.env["count"])])
    return ev.CardsDrawn(player=seat, cards=cards) if cards else None


register("lcg.draw", emit(_draw), rule="lcg.draw")

# -- reveal an encounter card ------------------------------------------------------------


def reset_encounter_deck(rt: Runtime) -> Event:
    """Rules: an empty encounter deck is rebuilt by shuffling its discard pile ("If the
    encounter deck is ever empty during the quest phase, the encounter discard pile is shuffled
    and reset back into the encounter deck": Rules Reference, Round Sequence 3.3)."""
    pile = cards_in(st(rt), "encounter.discard")
    return ev.DeckShuffled(zone="encounter.deck", order=tuple(rt.shuffle(pile)))


def _top_card(rt: Runtime) -> dict[str, int | None]:
    deck = cards_in(st(rt), "encounter.deck")
    return {"card": deck[0] if deck else None}


def _still_revealed(rt: Runtime) -> bool:
    return st(rt).cards[int(rt.env["card"])].zone == "revealed"


def surges(s: LcgState, uid: Uid) -> bool:
    """A revealed card with Surge, printed or gained, that is still revealed."""
    card = s.cards[uid]
    return card.zone == "revealed" and (card.surge or table.defn(s, uid).has("Surge"))


def _surges(rt: Runtime) -> bool:
    return surges(st(rt), int(rt.env["card"]))


def _resolve_revealed(rt: Runtime) -> Event | None:
    """Enemies, locations and objectives enter the staging area; treacheries go to the
    discard pile."""
    s = st(rt)
    uid = int(rt.env["card"])
    if s.cards[uid].zone != "revealed":
        return None
    if table.defn(s, uid).type in ("enemy", "location", "objective"):
        return ev.CardMoved(card=uid, to="staging")
    return ev.CardsDiscarded(cards=(uid,))


def _when_revealed(rt: Runtime) -> str | None:
    s = st(rt)
    card = s.cards[int(rt.env["card"])]
    if card.zone != "revealed" or card.cancelled or text_of(card.code).when_revealed is None:
        return None
    return f"{card.code}.when-revealed"


def encounter_deck_out(rt: Runtime) -> bool:
    """The encounter deck is empty and its discard pile is not: the deck can be reset."""
    return not cards_in(st(rt), "encounter.deck") and bool(cards_in(st(rt), "encounter.discard"))


def _entered() -> tuple[Node, ...]:
    """The revealed card takes its place; a guard starts guarding; an objective with
    Guarded gets its guard (and, revealed as a guard itself, the next card guards the
    objective it came up for)."""
    return (
        emit(_resolve_revealed),
        emit(guard_placed, rule="lcg.keyword.guarded"),
        Call(
            guarded_program,
            lambda rt: {"card": rt.env["card"], "also": rt.env.get("guarding"), "_card": rt.env["card"]},
        ),
    )


register(
    "lcg.reveal",
    Seq(
        # A reveal from an empty deck (a surge off its last card) resets it first.
        If(encounter_deck_out, emit(reset_encounter_deck, rule="lcg.encounter-deck.reshuffle")),
        Let(
            _top_card,
            If(
                lambda rt: rt.env["card"] is not None,
                Seq(
                    emit(lambda rt: ev.EncounterCardRevealed(card=int(rt.env["card"]))),
                    Call(doomed_program, lambda rt: {"card": rt.env["card"], "_card": rt.env["card"]}),
                    Call(_when_revealed, lambda rt: {"self": rt.env["card"], "_card": rt.env["card"]}),
                    If(
                        _surges,
                        Seq(*_entered(), Call("lcg.reveal"), rule="lcg.keyword.surge"),
                        Seq(*_entered()),
                    ),
                ),
            ),
        ),
        # The deck resets once the card that emptied it has resolved, When Revealed
        # included (FAQ, "When I reveal the last card of the encounter deck ...").
        If(encounter_deck_out, emit(reset_encounter_deck, rule="lcg.encounter-deck.reshuffle")),
    ),
    rule="lcg.encounter.reveal",
)

# -- lethal damage -----------------------------------------------------------------------


def _lethal(rt: Runtime) -> bool:
    s = st(rt)
    uid = int(rt.env["card"])
    in_play = table.is_in_play(s, uid) or s.cards[uid].zone == "revealed"
    # Indestructible (The Hobbit: On the Doorstep rules): "an enemy with Indestructible cannot
    # be destroyed by damage, even when the damage on it equals its hit points".
    if table.defn(s, uid).has("Indestructible"):
        return False
    return in_play and s.cards[uid].damage >= table.hit_points(s, uid)


def _attached_leave(rt: Runtime) -> Event | None:
    """Attachments and shadow cards leave play with the card they are on."""
    s = st(rt)
    uid = int(rt.env["card"])
    gone = tuple(table.attachments_on(s, uid) + table.shadows_of(s, uid))
    return ev.CardsDiscarded(cards=gone) if gone else None


def _destroyed(rt: Runtime) -> Event:
    s = st(rt)
    uid = int(rt.env["card"])
    d = table.defn(s, uid)
    if d.is_character:
        controller = s.controller(uid)
        return ev.CharacterDestroyed(card=uid, controller=controller if controller != s.cards[uid].owner else None)
    return ev.EnemyDefeated(enemy=uid, to="victory" if d.victory_points else ev.encounter_discard(d.code))


register(
    "lcg.destroy",
    If(_lethal, Seq(emit(_attached_leave), emit(_destroyed))),
    rule="lcg.damage.destroy",
)

# -- exploring locations and defeating quest stages --------------------------------------


def explorable(s: LcgState, uid: Uid) -> bool:
    """A location with as many progress tokens as quest points is explored, whether it is
    the active location or in the staging area (FAQ 1.18, explored locations leaving play),
    unless it cannot leave the staging area (The Lonely Mountain): then its progress stays."""
    card = s.cards[uid]
    d = table.defn(s, uid)
    return (
        card.zone in ("active", "staging")
        and d.type == "location"
        and card.progress >= table.quest_points(s, uid)
        and not cannot_leave_staging(s, uid)
    )


def _explored(rt: Runtime) -> Event | None:
    s = st(rt)
    uid = int(rt.env["card"])
    if not explorable(s, uid):
        return None
    return ev.LocationExplored(card=uid, to="victory" if table.defn(s, uid).victory_points else "encounter.discard")


register("lcg.explore", emit(_explored), rule="lcg.location.explore")


def _split_progress(rt: Runtime) -> dict[str, int]:
    """The active location takes what it needs to be explored; the rest goes on the stage."""
    s = st(rt)
    amount = int(rt.env["amount"])
    location = table.active_location(s)
    to_location = 0
    if location is not None:
        room = table.quest_points(s, location) - s.cards[location].progress
        to_location = min(amount, max(0, room))
    return {"to_location": to_location, "to_quest": amount - to_location}


def _on_location(rt: Runtime) -> Event | None:
    location = table.active_location(st(rt))
    n = int(rt.env["to_location"])
    return ev.ProgressPlaced(card=location, amount=n) if location is not None and n else None


def _on_stage(rt: Runtime) -> Event | None:
    stage = table.quest_card(st(rt))
    n = caps.progress_allowed(st(rt), stage, int(rt.env["to_quest"]))
    return ev.ProgressPlaced(card=stage, amount=n) if stage is not None and n else None


# Progress placed on the current quest goes on the active location first, by questing or
# by a card effect (FAQ 1.27 and its Legolas entry: "Always place progress tokens on an
# active location instead of the quest" unless the text says to bypass it). Placing it is
# one step: when it explores the location and defeats the stage, the next stage and its
# When Revealed come first, then the location's Responses (FAQ, explored location and
# stage at once).
register(
    "lcg.progress.current-quest",
    Let(_split_progress, Hold(Seq(emit(_on_location), emit(_on_stage)))),
    rule="lcg.progress.current-quest",
)


def stage_defeatable(s: LcgState, uid: Uid) -> bool:
    """A stage falls when its progress reaches its quest points and its text allows it.

    A stage printed with 0 quest points cannot be defeated by progress (Don't Leave the
    Path!: the players win by other means).
    """
    printed = table.defn(s, uid).quest_points
    points = table.quest_points(s, uid)
    card = s.cards[uid]
    if card.zone != "quest" or printed <= 0 or card.progress < points:
        return False
    allow = text_of(card.code).can_defeat
    return allow is None or allow(s, uid)


def _next_stage(rt: Runtime) -> dict[str, int | None]:
    deck = cards_in(st(rt), "quest.deck")
    return {"next": deck[0] if deck else None}


def _victory_reason(rt: Runtime) -> str | None:
    return text_of(st(rt).cards[int(rt.env["card"])].code).wins_when_defeated


def _won(reason: str) -> Event:
    return GameEnded(outcome=Outcome(result="won", reason=reason, winner="players"))


def _stage_defeated() -> Node:
    """The stage is defeated: the players win, or the next stage is revealed."""
    return Seq(
        emit(lambda rt: ev.QuestStageDefeated(card=int(rt.env["card"]))),
        If(
            lambda rt: _victory_reason(rt) is not None,
            emit(lambda rt: _won(str(_victory_reason(rt)))),
            Let(
                _next_stage,
                If(
                    lambda rt: rt.env["next"] is not None,
                    Call("lcg.quest.reveal", lambda rt: {"card": rt.env["next"]}),
                ),
            ),
        ),
    )


register(
    "lcg.quest.advance",
    If(lambda rt: stage_defeatable(st(rt), int(rt.env["card"])), _stage_defeated()),
    rule="lcg.quest.advance",
)
# A stage whose own text says when it advances (Searching the High Seas: "only at the end of
# the quest phase") is defeated by that text, not whenever its progress is enough.
register("lcg.quest.defeat", _stage_defeated(), rule="lcg.quest.advance")


def _stage_program(side: str) -> Callable[[Runtime], str | None]:
    """Side A of a stage may have Setup text; side B When Revealed text."""
    ability = "setup" if side == "A" else "when-revealed"

    def name(rt: Runtime) -> str | None:
        code = st(rt).cards[int(rt.env["card"])].code
        t = text_of(code)
        return f"{code}.{ability}" if (t.setup if side == "A" else t.when_revealed) else None

    return name


register(
    "lcg.quest.reveal",
    Seq(
        emit(lambda rt: ev.QuestStageRevealed(card=int(rt.env["card"]), side="A")),
        Call(_stage_program("A"), lambda rt: {"self": rt.env["card"], "_card": rt.env["card"]}),
        emit(lambda rt: ev.QuestStageRevealed(card=int(rt.env["card"]), side="B")),
        Call(_stage_program("B"), lambda rt: {"self": rt.env["card"], "_card": rt.env["card"]}),
    ),
    rule="lcg.quest.reveal",
)

# -- players leaving the game ------------------------------------------------------------


def _next_first(rt: Runtime) -> Event | None:
    s = st(rt)
    if s.first != rt.env["player"]:
        return None
    seats = seats_in_turn(s)
    return ev.FirstPlayerPassed(player=seats[0]) if seats else None


def _returned_shadows(rt: Runtime) -> Event | None:
    """An enemy back in the staging area no longer attacks this phase: the shadow cards
    dealt to it are discarded unresolved (Core Set rulebook, Combat phase: shadow cards
    belong to the attacks of engaged enemies), not left to join a later attack."""
    shadows = tuple(table.shadows_of(st(rt), int(rt.env["enemy"])))
    return ev.CardsDiscarded(cards=shadows) if shadows else None


def _all_out(rt: Runtime) -> Event | None:
    s = st(rt)
    if seats_in_turn(s):
        return None
    return GameEnded(outcome=Outcome(result="lost", reason=str(rt.env["reason"])))


register(
    "lcg.eliminate",
    If(
        lambda rt: not st(rt).players[rt.env["player"]].eliminated,
        Seq(
            emit(lambda rt: ev.PlayerEliminated(player=rt.env["player"], reason=rt.env["reason"])),
            ForEach(
                lambda rt: list(cards_in(st(rt), f"{rt.env['player']}.engaged")),
                "enemy",
                Seq(
                    emit(lambda rt: ev.CardMoved(card=int(rt.env["enemy"]), to="staging")),
                    emit(_returned_shadows),
                ),
                rule="lcg.elimination.enemies-return",
            ),
            emit(_next_first),
            emit(_all_out, rule="lcg.end.all-players-eliminated"),
        ),
    ),
    rule="lcg.elimination",
)

# -- the end of a phase ------------------------------------------------------------------


def delayed_effects(scope: str) -> InChosenOrder:
    """Run the delayed effects due when ``scope`` ends. Several due together resolve in the
    order the first player chooses (FAQ 1.02, simultaneous effect timing, whose example is
    two effects due at the end of a phase)."""

    def due(rt: Runtime) -> list[list[object]]:
        return [[f"delayed-{i}", d.node, d.env] for i, d in enumerate(st(rt).delayed) if d.at == scope]

    def ask(rt: Runtime, items: list[Any]) -> Ask:
        s = st(rt)
        options = []
        for key, node, env in items:
            card = env.get("_card")  # the card whose text made it
            name = table.name(s, card) if isinstance(card, int) else "an effect"
            options.append(Option(str(key), f"{name} ({node})", card if isinstance(card, int) else None))
        prompt = f"Effects due at the end of the {scope}: the first player chooses which resolves next"
        return Ask(s.first, prompt, options)

    return InChosenOrder(due, lambda rt, d: True, ask, lambda d: str(d[0]), lambda rt, d, by: (str(d[1]), dict(d[2])))


def end_of(scope: str) -> Do:
    """Durations that last until the end of ``scope`` lapse (one event, if any lapse)."""

    def step(rt: Runtime) -> None:
        s = st(rt)
        lapsing = (
            any(m.until == scope for m in s.modifiers)
            or any(x.until == scope for x in s.limits)
            or any(d.at == scope for d in s.delayed)
        )
        if lapsing:
            rt.emit(ScopeEnded(scope=scope))

    return Do(step)


register("lcg.end-phase", Seq(delayed_effects("phase"), end_of("phase")), rule="lcg.phase.end")
register("lcg.end-round", Seq(delayed_effects("round"), end_of("round")), rule="lcg.round.end")
