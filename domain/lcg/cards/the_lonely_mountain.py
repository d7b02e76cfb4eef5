"""The Lonely Mountain (The Hobbit: On the Doorstep): Bilbo Baggins, the treasures under The
Lonely Mountain, the burgle effects and the quest (#71-74).

Burgle texts are declared with :func:`domain.lcg.rules.burgle.burgle` and read only by a
burgle attempt (:mod:`domain.lcg.rules.burgle`); they do nothing at any other time.
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.events import Event, GameEnded, LimitUsed, Modifier, ModifierAdded, Outcome
from domain.kernel.flow import Ask, Call, Case, Decide, ForEach, If, Let, Node, Seq, register
from domain.kernel.runtime import Runtime
from domain.kernel.zones import NewCard
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.cards import Action, Host, Trigger, text
from domain.lcg.cards.wilderland_hobbit import hidden_path_threat
from domain.lcg.effects import IMMUNE, ability_used, choose, chosen, each_player, emit, st
from domain.lcg.rules import ship_keywords, table
from domain.lcg.rules.burgle import (
    BILBO,
    BURGLES,
    THE_LONELY_MOUNTAIN,
    attempt,
    bilbo,
    burgle,
    mountain_action,
    mountain_available,
)
from domain.lcg.rules.combat import STAGING_ENGAGEMENTS
from domain.lcg.rules.constant import Constant, constant
from domain.lcg.rules.travel import TRAVEL_REFUSED
from domain.lcg.state import LcgState, Uid

SMAUG_THE_GOLDEN = "otd-040"
SMAUG_THE_MAGNIFICENT = "otd-041"
A_BARE_PATCH = "otd-039"
TREASURES = ("otd-020", "otd-021", "otd-022", "otd-023", "otd-024")
"""The five Erebor treasures, stacked face down under The Lonely Mountain at setup."""
TREASURE_ZONE = "treasures"
"""The treasures face down under The Lonely Mountain, top first (hidden from every seat)."""

# -- burgle effects ("Burgle: the first player shuffles their deck and reveals the top card;
# they may discard N cards from hand matching the revealed card's ...") ------------------
burgle("otd-042", 1, "sphere", "type")  # Croaking Crows
burgle("otd-044", 3, "type")  # Great Hall
burgle("otd-046", 2, "cost")  # Desolation of Smaug
burgle("otd-047", 2, "sphere")  # Western Slopes
burgle("otd-048", 2, "type")  # Pretending to Sleep
burgle("otd-049", 1, "sphere", "cost")  # Known to an Ounce
burgle("otd-050", 1, "type", "cost")  # Belching Fire


def find(s: LcgState, code: str, *zones: str) -> Uid | None:
    """The first card ``code`` in ``zones`` (all zones when none are named)."""
    for uid, card in s.cards.items():
        if card.code == code and (not zones or card.zone in zones):
            return uid
    return None


def _golden_in_play(s: LcgState) -> Uid | None:
    return find(s, SMAUG_THE_GOLDEN, "staging")


# -- the quest ---------------------------------------------------------------------------


def _created(rt: Runtime) -> Event:
    """Bilbo Baggins joins the first player's heroes (outside the hero limit); the five
    treasures are shuffled and stacked face down under The Lonely Mountain."""
    s = st(rt)
    uid = max(s.cards, default=0) + 1
    cards = [NewCard(uid, BILBO, f"{s.first}.heroes", s.first)]
    for i, code in enumerate(rt.shuffle(list(TREASURES))):
        cards.append(NewCard(uid + 1 + i, code, TREASURE_ZONE, s.first))
    return ev.CardsCreated(cards=tuple(cards))


def _search(code: str, to: str) -> Node:
    def make(rt: Runtime) -> Event | None:
        found = find(st(rt), code, "encounter.deck")
        return ev.CardMoved(card=found, to=to) if found is not None else None

    return emit(make)


def _current_stage_done(rt: Runtime) -> Event | None:
    current = table.quest_card(st(rt))
    return ev.QuestStageDefeated(card=current) if current is not None else None


def _advance_to(stage: int) -> Node:
    """The players go to ``stage`` (side A then B), from the quest deck or back from the
    defeated stages."""

    def args(rt: Runtime) -> dict[str, object]:
        s = st(rt)
        stages = (u for u, c in s.cards.items() if c.zone.startswith("quest") and table.defn(s, u).stage == stage)
        found = next(stages, None)
        if found is None:  # a dealt game holds every stage; only a position given by hand can lack one
            raise LookupError(
                f"the players must advance to stage {stage}, and no quest card of stage {stage} is in the game "
                "(not in the quest deck, the current quest or the defeated stages): a position that can "
                "advance to it lists it in quest.deck"
            )
        return {"card": found}

    return Seq(
        emit(_current_stage_done),
        Call("lcg.quest.reveal", args),
    )


# A Warm Welcome, 1A — "Setup: search the encounter deck for Smaug the Golden and The Lonely
# Mountain and add them to the staging area; set Smaug the Magnificent and A Bare Patch aside,
# out of play; shuffle the 5 Erebor treasures and put them face down under The Lonely
# Mountain." Bilbo Baggins comes into play here too, under the first player's control.
# 1B — "No quest phase is played. Forced: at the end of the round, advance to stage 2."
text(
    "otd-071",
    setup=Seq(
        emit(_created),
        _search(SMAUG_THE_GOLDEN, "staging"),
        _search(THE_LONELY_MOUNTAIN, "staging"),
        _search(SMAUG_THE_MAGNIFICENT, "set-aside"),
        _search(A_BARE_PATCH, "set-aside"),
    ),
    forced=(
        Trigger(
            xev.RoundEnded,
            lambda s, e, uid: s.cards[uid].zone == "quest" and s.cards[uid].face == "B",
            _advance_to(2),
        ),
    ),
)
constant("otd-071", Constant(skips_quest=True))


def _take_treasure(rt: Runtime) -> Event | None:
    s = st(rt)
    pile = s.zone(TREASURE_ZONE)
    return ev.CardMoved(card=pile[0], to=f"{s.first}.hand") if pile else None


def _ask_advance(rt: Runtime) -> Ask:
    # Yes and No, as the question names the stage: a seat not asked reads the answer as
    # "p1 chooses Yes" beside "p1 must decide ...", so the labels must be the words it shows.
    options = [Option("yes", "Yes"), Option("no", "No")]
    return Ask(st(rt).first, "Advance to stage 3 (Inside Information)?", options)


def _golden_progress(rt: Runtime) -> Event | None:
    smaug = _golden_in_play(st(rt))
    return ev.ProgressPlaced(card=smaug, amount=1) if smaug is not None else None


def _smaug_attacks(rt: Runtime) -> dict[str, object]:
    # an attack outside the combat phase: dealt a shadow card as it begins (FAQ 1.9, 1.28; rules/combat.py)
    return {"enemy": _golden_in_play(st(rt)), "player": st(rt).first, "from_staging": 1}


def _quest_succeeded(s: LcgState, e: Event, uid: Uid) -> bool:
    return (
        isinstance(e, ev.QuestResolved) and e.willpower > e.threat and s.cards[uid].zone == "quest" and s.over is None
    )


def _still_at_stage_2(rt: Runtime) -> bool:
    return st(rt).cards[int(rt.env["self"])].zone == "quest"


# The Burglar's Turn, 2B — "Forced: after the players quest successfully, place 1 progress
# on Smaug the Golden. Then the first player makes a burgle attempt. If it succeeds, the
# first player takes the first treasure under The Lonely Mountain into hand; then the players
# may advance to stage 3. Forced: after the first player's burgle attempt fails, Smaug the
# Golden attacks the first player."
# It resolves on QuestResolved, before the quest's progress is placed (FAQ 1.24, Questing
# Successfully); when it advances the quest, that progress is not placed (rules/quest.py).
# Sentence by sentence: when the progress on Smaug the Golden is his 6th, stage 4A replaces
# this stage and its burgle attempt is not made (FFG ruling by Caleb Grace, 2015).
text(
    "otd-072",
    forced=(
        Trigger(
            ev.QuestResolved,
            _quest_succeeded,
            Seq(
                emit(_golden_progress),
                If(
                    _still_at_stage_2,
                    rule="otd-072.forced",
                    then=attempt(
                        success=lambda: Seq(
                            emit(_take_treasure),
                            Decide(
                                _ask_advance,
                                "advance",
                                If(lambda rt: rt.env["advance"] == "yes", _advance_to(3)),
                                rule="otd-072.forced",
                            ),
                        ),
                        failure=lambda: If(
                            lambda rt: _golden_in_play(st(rt)) is not None,
                            Call("lcg.combat.enemy-attack", _smaug_attacks),
                        ),
                    ),
                ),
            ),
        ),
    ),
)


# -- Smaug the Golden ---------------------------------------------------------------------


def _golden_threat(s: LcgState, uid: Uid, which: str) -> int:
    """X: the number of characters committed to the quest without the Burglar trait."""
    if which != "threat":
        return 0
    return sum(1 for u in table.committed(s) if not table.has_trait(s, u, "Burglar"))


def _sixth_progress(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.ProgressPlaced) and e.card == uid and s.cards[uid].progress >= 6 and s.over is None


# Smaug the Golden — "Indestructible. Immune to player card effects. Cannot be engaged. X is
# the number of questing characters without the Burglar trait. Forced: when the 6th progress
# token is placed here, advance to stage 4A."
text(
    SMAUG_THE_GOLDEN,
    stat=_golden_threat,
    forced=(Trigger(ev.ProgressPlaced, _sixth_progress, _advance_to(4)),),
)
constant(SMAUG_THE_GOLDEN, Constant(cannot_be_engaged=True))


# -- Bilbo Baggins ------------------------------------------------------------------------


def _bilbo_left(s: LcgState, e: Event, uid: Uid) -> bool:
    return s.cards[uid].code == BILBO and not table.is_in_play(s, uid) and s.over is None


def _controller_out(s: LcgState, e: Event) -> dict[str, object] | None:
    """Bilbo Baggins's controller is eliminated: every card they control leaves the game
    (Core Set rulebook, Player Elimination), Bilbo Baggins with them."""
    assert isinstance(e, ev.PlayerEliminated)
    hobbit = next((u for u in s.zone(f"{e.player}.heroes") if s.cards[u].code == BILBO), None)
    return {"_card": hobbit} if hobbit is not None and s.over is None else None


def _deck_treasures(s: LcgState, seat: str) -> list[Uid]:
    return [u for u in s.zone(f"{seat}.deck") if table.defn(s, u).type == "treasure"]


def _shuffle_own_deck(rt: Runtime) -> Event:
    zone = f"{rt.env['player']}.deck"
    return ev.DeckShuffled(zone=zone, order=tuple(rt.shuffle(st(rt).zone(zone))))


def _lost(rt: Runtime) -> Event:
    return GameEnded(
        outcome=Outcome(
            result="lost",
            reason="bilbo-left-play",
        )
    )


def _not_a_treasure(s: LcgState, hero: Uid, source: Uid | None) -> bool:
    """Bilbo Baggins "cannot gain resources from non-treasure cards"."""
    return s.cards[hero].code == BILBO and source is not None and table.defn(s, source).type != "treasure"


table.RESOURCE_BANS.append(_not_a_treasure)


register(f"{BILBO}.left-play", emit(lambda rt: _lost(rt) if st(rt).over is None else None), rule=f"{BILBO}.forced")
ship_keywords.hook(ev.PlayerEliminated, f"{BILBO}.left-play", _controller_out, needs=(BILBO,))


# Bilbo Baggins — "The first player gains control of Bilbo Baggins. Action: spend 1 resource to
# search your deck for a treasure card and add it to your hand (then shuffle). If Bilbo Baggins
# leaves play, the players lose the game." In this scenario the treasures start under The
# Lonely Mountain, so the Action is offered only if a treasure ever is in the deck. He leaves
# play when he is destroyed, or with the cards of his controller when they are eliminated.
text(
    BILBO,
    forced=(
        Trigger(
            ev.CharacterDestroyed,
            lambda s, e, uid: isinstance(e, ev.CharacterDestroyed) and e.card == uid and _bilbo_left(s, e, uid),
            emit(_lost),
            zone="subject",
        ),
    ),
    actions=(
        Action(
            lambda s, uid, seat: s.cards[uid].resources >= 1 and bool(_deck_treasures(s, seat)),
            Seq(
                ability_used("action"),
                emit(lambda rt: ev.ResourcesPaid(payments=(ev.Payment(int(rt.env["self"]), 1),))),
                choose(
                    lambda rt: str(rt.env["player"]),
                    "Bilbo Baggins: take a treasure from your deck into your hand",
                    lambda rt: _deck_treasures(st(rt), str(rt.env["player"])),
                    "treasure",
                    emit(lambda rt: ev.CardMoved(card=int(rt.env["treasure"]), to=f"{rt.env['player']}.hand")),
                    rule="otd-001.action",
                ),
                emit(_shuffle_own_deck),
            ),
            "spend 1 resource: search your deck for a treasure",
        ),
    ),
)


# -- The Lonely Mountain -----------------------------------------------------------------


def _mountain_threat(s: LcgState, uid: Uid, which: str) -> int:
    """-2 threat for each card under it; halved, rounded up, while Secret Entrance is the
    active location."""
    if which != "threat":
        return 0
    printed = table.defn(s, uid).threat
    threat = max(0, printed - 2 * len(s.zone(TREASURE_ZONE)))
    active = table.active_location(s)
    if active is not None and s.cards[active].code == "otd-045":
        threat = (threat + 1) // 2
    return threat - printed + hidden_path_threat(s, uid, which)


# The Lonely Mountain — "While any card is under The Lonely Mountain it is immune to player
# card effects, cannot leave the staging area, and gets -2 threat for each card under it.
# Action: during a burgle attempt, the first player may spend 2 resources to put the revealed
# card into their hand and reveal the next card of their deck." (The Action is offered by the
# burgle attempt itself, domain/lcg/rules/burgle.py, paid from Bilbo Baggins's pool.) "Cannot
# leave the staging area" is a constant ability every way out consults (travel, exploring with
# enough progress, the shared discard and engage steps: domain/lcg/rules/constant.py); the
# immunity is a keyword aura (below).
# The Lonely Mountain — "Action: during a burgle attempt, the first player may spend 2
# resources to put the revealed card into their hand and reveal the next card of their deck."
# Offered in the burgle attempt's action window (domain/lcg/rules/burgle.py).
text(
    THE_LONELY_MOUNTAIN,
    stat=_mountain_threat,
    actions=(
        Action(
            mountain_available,
            mountain_action(),
            "spend 2 of Bilbo's resources to take the turned-up card and turn up the next",
            anyone=True,
        ),
    ),
)
constant(THE_LONELY_MOUNTAIN, Constant(stays_in_staging=lambda s, uid: bool(s.zone(TREASURE_ZONE))))


# -- The Lonely Mountain encounter set -----------------------------------------------------


def _smaug_progress(amount: int) -> Node:
    """Smaug the Golden gets (or, negative, loses) progress, if he is in the staging area."""

    def make(rt: Runtime) -> Event | None:
        smaug = _golden_in_play(st(rt))
        if smaug is None:
            return None
        if amount > 0:
            return ev.ProgressPlaced(card=smaug, amount=amount)
        lost = min(-amount, st(rt).cards[smaug].progress)
        return xev.ProgressRemoved(card=smaug, amount=lost) if lost else None

    return emit(make)


def _location_revealed(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.EncounterCardRevealed) and table.defn(s, e.card).type == "location"


# Croaking Crows — "Surge. Forced: after a location is revealed from the encounter deck, place
# 1 progress on Smaug the Golden." (Burgle: 1 card matching sphere and type, above.)
text("otd-042", forced=(Trigger(ev.EncounterCardRevealed, _location_revealed, _smaug_progress(1)),))


# Great Hall — "While Great Hall is the active location it gains: Forced: at the end of the
# round, place 1 progress on Smaug the Golden." (Burgle: 3 cards matching type, above.)
text(
    "otd-044",
    stat=hidden_path_threat,
    forced=(Trigger(xev.RoundEnded, lambda s, e, uid: s.cards[uid].zone == "active", _smaug_progress(1)),),
)


def _ask_slopes(rt: Runtime) -> Ask:
    options = [Option("draw", "The first player draws 2 cards"), Option("smaug", "Remove 1 progress from Smaug")]
    return Ask(st(rt).first, "Western Slopes was explored: choose one", [*options, Option("no", "Neither")])


# Western Slopes — "Response: after Western Slopes leaves play as an explored location, choose
# one: the first player draws 2 cards, or remove 1 progress token from Smaug the Golden."
# (Burgle: 2 cards matching sphere, above.)
text(
    "otd-047",
    stat=hidden_path_threat,
    responses=(
        Trigger(
            ev.LocationExplored,
            lambda s, e, uid: isinstance(e, ev.LocationExplored) and e.card == uid,
            Decide(
                _ask_slopes,
                "slopes",
                Case(
                    "slopes",
                    {
                        "draw": Call("lcg.draw", lambda rt: {"player": st(rt).first, "count": 2}),
                        "smaug": _smaug_progress(-1),
                    },
                ),
                rule="otd-047.response",
            ),
            zone="subject",
        ),
    ),
)


def _sleep_cost(rt: Runtime) -> int:
    smaug = _golden_in_play(st(rt))
    return st(rt).cards[smaug].progress if smaug is not None else 0


def _ask_sleep(rt: Runtime) -> Ask | None:
    s = st(rt)
    if table.quest_card(s) is None or table.defn(s, table.quest_card(s) or 0).stage != 2:
        return None
    x = _sleep_cost(rt)
    hobbit = bilbo(s)
    options = []
    if hobbit is not None and s.cards[hobbit].resources >= x:
        options.append(Option("pay", f"Spend {x} of Bilbo Baggins's resources"))
    options.append(Option("stage-4", "Advance to stage 4A (Thieves! Fire! Murder!)"))
    return Ask(s.first, f"Pretending to Sleep: pay {x} Baggins resources, or advance to stage 4A?", options)


def _pay_sleep(rt: Runtime) -> Event | None:
    hobbit = bilbo(st(rt))
    x = _sleep_cost(rt)
    return ev.ResourcesPaid(payments=(ev.Payment(hobbit, x),)) if hobbit is not None and x else None


# Pretending to Sleep — "Surge. When Revealed: place 1 progress on Smaug the Golden. Then the
# players must either spend X Baggins resources or advance to stage 4A, where X is the progress
# on Smaug the Golden." Only while the players are at stage 2 (Smaug the Golden in play): at
# stage 3 or 4 there is no stage 4A to advance to and Smaug the Golden is out of play.
# (Burgle: 2 cards matching type, above.)
text(
    "otd-048",
    when_revealed=Seq(
        _smaug_progress(1),
        Decide(
            _ask_sleep,
            "sleep",
            Case("sleep", {"pay": emit(_pay_sleep), "stage-4": _advance_to(4)}),
            rule="otd-048.when-revealed",
        ),
    ),
)


def _pick_two(rt: Runtime) -> dict[str, object]:
    """2 cards of the player's hand at random (the discard event records which)."""
    hand = st(rt).zone(f"{rt.env['player']}.hand")
    return {"picked": rt.pick(hand, min(2, len(hand))) if hand else []}


def _picked(rt: Runtime) -> list[Uid]:
    return [int(u) for u in rt.env["picked"]]


def _dragons(s: LcgState) -> list[Uid]:
    return [u for u in table.enemies_in_play(s) if table.has_trait(s, u, "Dragon")]


def _dragons_threat(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return _dragons(s) if any(table.defn(s, u).type == "event" for u in _picked(rt)) else []


def _threat_per_event(rt: Runtime) -> Event:
    s = st(rt)
    n = sum(1 for u in _picked(rt) if table.defn(s, u).type == "event")
    return ModifierAdded(modifier=Modifier(int(rt.env["dragon"]), "threat", n, "phase", rt.env.get("_card")))


# Known to an Ounce — "When Revealed: each player discards 2 cards from their hand at random.
# Each Dragon enemy in play gets +1 threat until the end of the phase for each event card
# discarded this way." (Burgle: 1 card matching sphere and cost, above.)
text(
    "otd-049",
    when_revealed=each_player(
        Let(
            _pick_two,
            Seq(
                emit(lambda rt: ev.CardsDiscarded(cards=tuple(_picked(rt))) if _picked(rt) else None),
                ForEach(_dragons_threat, "dragon", emit(_threat_per_event)),
            ),
        )
    ),
)


def _most_willpower(rt: Runtime) -> list[str]:
    s = st(rt)
    totals = {seat: sum(table.willpower(s, u) for u in table.committed(s, seat)) for seat in s.active_seats()}
    top = max(totals.values(), default=0)
    return [seat for seat, total in totals.items() if total == top]


def _staging_dragons(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for u in table.staging_enemies(s) if table.has_trait(s, u, "Dragon")]


# Belching Fire — "When Revealed: each Dragon enemy in the staging area makes an immediate
# attack against the player committing the most willpower to the quest (deal no shadow card)."
# On a tie the first player chooses among the tied players. Its "deal no shadow card" is the
# exception to an attack outside the combat phase being dealt one (``no_shadow``, rules/combat.py).
# (Burgle: 1 card matching type and cost, above.)
text(
    "otd-050",
    when_revealed=Decide(
        lambda rt: (
            Ask(st(rt).first, "Belching Fire: who is attacked?", [Option(p, p) for p in _most_willpower(rt)])
            if _staging_dragons(rt)
            else None
        ),
        "target",
        ForEach(
            _staging_dragons,
            "dragon",
            Call(
                "lcg.combat.enemy-attack",
                lambda rt: {"enemy": rt.env["dragon"], "player": rt.env["target"], "from_staging": 1, "no_shadow": 1},
            ),
        ),
        auto_single=True,
        rule="otd-050.when-revealed",
    ),
)


# -- stages 3 and 4, Smaug the Magnificent, A Bare Patch ---------------------------------


def _magnificent(s: LcgState) -> Uid | None:
    return find(s, SMAUG_THE_MAGNIFICENT, "staging")


def _move_named(code: str, frm: tuple[str, ...], to: str) -> Node:
    def make(rt: Runtime) -> Event | None:
        found = find(st(rt), code, *frm)
        return ev.CardMoved(card=found, to=to) if found is not None else None

    return emit(make)


def _golden_loses_all(rt: Runtime) -> Event | None:
    smaug = _golden_in_play(st(rt))
    n = st(rt).cards[smaug].progress if smaug is not None else 0
    return xev.ProgressRemoved(card=smaug, amount=n) if smaug is not None and n else None


def _remaining_hp(s: LcgState, uid: Uid) -> int:
    """Hit points left, never below none: Indestructible, he may hold more damage than his
    hit points (#41), and a stage without progress still has none more than he has left."""
    return max(0, table.hit_points(s, uid) - s.cards[uid].damage)


def _beyond_smaug(s: LcgState, e: Event, uid: Uid) -> bool:
    """The stage has more progress than Smaug the Magnificent's remaining hit points, after
    progress placed on it or damage dealt to him (either makes it so)."""
    smaug = _magnificent(s)
    if smaug is None or s.cards[uid].zone != "quest" or s.over is not None:
        return False
    placed = isinstance(e, ev.ProgressPlaced) and e.card == uid
    wounded = isinstance(e, ev.DamageDealt) and e.card == smaug
    return (placed or wounded) and s.cards[uid].progress > _remaining_hp(s, smaug)


# Inside Information, 3A — "When Revealed: set Smaug the Golden aside, out of play; add Smaug
# the Magnificent and A Bare Patch to the staging area." 3B — "The players cannot defeat this
# stage while Smaug the Magnificent is in play. Forced: when there is more progress here than
# Smaug the Magnificent's remaining hit points, remove him from play. If the players defeat this
# stage, they win (each treasure taken from under The Lonely Mountain is found)." The 3A text
# runs as the stage is revealed (the engine runs a stage's reveal text on its B side). The
# Forced answers damage dealt to Smaug as well as progress placed here: either one can make
# the progress exceed his remaining hit points (#73, "when there is more progress here").
text(
    "otd-073",
    when_revealed=Seq(
        _move_named(SMAUG_THE_GOLDEN, ("staging",), "set-aside"),
        _move_named(SMAUG_THE_MAGNIFICENT, ("set-aside",), "staging"),
        _move_named(A_BARE_PATCH, ("set-aside",), "staging"),
    ),
    can_defeat=lambda s, uid: _magnificent(s) is None,
    wins_when_defeated="inside-information",
    forced=(
        Trigger(
            (ev.ProgressPlaced, ev.DamageDealt),
            _beyond_smaug,
            Seq(
                emit(lambda rt: ev.CardMoved(card=_magnificent(st(rt)) or 0, to="removed")),
                Call("lcg.quest.advance", lambda rt: {"card": rt.env["self"]}),
            ),
        ),
    ),
)


def _seventh(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.ProgressPlaced) and e.card == uid and s.cards[uid].progress >= 7 and s.over is None


def _heal_magnificent(rt: Runtime) -> Event | None:
    smaug = _magnificent(st(rt))
    return (
        ev.DamageHealed(card=smaug, amount=st(rt).cards[smaug].damage) if smaug and st(rt).cards[smaug].damage else None
    )


def _back_to_2b(rt: Runtime) -> Event | None:
    s = st(rt)
    stage = next((u for u, c in s.cards.items() if c.zone.startswith("quest") and table.defn(s, u).stage == 2), None)
    return ev.QuestStageRevealed(card=stage, side="B") if stage is not None else None


# Thieves! Fire! Murder!, 4A — "When Revealed: remove all progress from Smaug the Golden and set
# him aside, out of play; add Smaug the Magnificent to the staging area." 4B — "Forced: when the
# 7th progress token is placed here, heal all damage on Smaug the Magnificent and set him aside,
# out of play; add Smaug the Golden to the staging area; return to stage 2B." This stage is
# never defeated: its 7th progress token sends the players back to stage 2B.
text(
    "otd-074",
    when_revealed=Seq(
        emit(_golden_loses_all),
        _move_named(SMAUG_THE_GOLDEN, ("staging",), "set-aside"),
        _move_named(SMAUG_THE_MAGNIFICENT, ("set-aside",), "staging"),
    ),
    can_defeat=lambda s, uid: False,
    forced=(
        Trigger(
            ev.ProgressPlaced,
            _seventh,
            Seq(
                emit(_heal_magnificent),
                _move_named(SMAUG_THE_MAGNIFICENT, ("staging",), "set-aside"),
                _move_named(SMAUG_THE_GOLDEN, ("set-aside",), "staging"),
                emit(_current_stage_done),
                emit(_back_to_2b),
            ),
        ),
    ),
)


def _bare_patch_on(s: LcgState, uid: Uid) -> bool:
    return any(s.cards[a].code == A_BARE_PATCH and s.cards[a].attached_to == uid for a in s.zone("attachments"))


def _magnificent_stat(s: LcgState, uid: Uid, which: str) -> int:
    """A Bare Patch attached: -3 defense."""
    return -3 if which == "defense" and _bare_patch_on(s, uid) else 0


def _with_first_player(s: LcgState, enemy: Uid, seat: str) -> bool:
    return s.cards[enemy].code == SMAUG_THE_MAGNIFICENT and seat == s.first


STAGING_ENGAGEMENTS.append(_with_first_player)

AGAIN_KEY = "smaug-the-magnificent.attacks-again"


def _burgle_shadow(s: LcgState, e: Event, uid: Uid) -> bool:
    return (
        isinstance(e, ev.AttackResolved)
        and e.enemy == uid
        and e.by_enemy
        and not e.cancelled
        and s.over is None
        and not s.limit_used(AGAIN_KEY)
        and any(table.defn(s, c).code in BURGLES for c in table.shadows_of(s, uid))
    )


# Smaug the Magnificent — "Indestructible. Immune to player card effects. Smaug the Magnificent
# cannot leave the staging area except by quest card effects, and is considered to be engaged
# with the first player. Forced: when Smaug the Magnificent is dealt a shadow card with a burgle
# effect, he attacks again after this attack." Engaged with the first player from the staging
# area as a Massive enemy is with each player: he is dealt a shadow card as his attack is
# declared, attacks in the first player's turn, and may be attacked by the first player. His
# second attack comes once, as the first attack resolves. Only the quest cards move him (they
# move him directly); the constant ability keeps him from every other way out. His 6 threat
# counts in the staging area: considered engaged is not engaged (FAQ 1.50, FAQ 1.20; rules/table.py).
text(
    SMAUG_THE_MAGNIFICENT,
    stat=_magnificent_stat,
    forced=(
        Trigger(
            ev.AttackResolved,
            _burgle_shadow,
            Seq(
                emit(lambda rt: LimitUsed(key=AGAIN_KEY, until="phase")),
                Call("lcg.combat.enemy-attack", lambda rt: {"enemy": rt.env["self"], "player": st(rt).first}),
            ),
        ),
    ),
)
constant(
    SMAUG_THE_MAGNIFICENT,
    Constant(stays_in_staging=lambda s, uid: True),
)


def _patch_attached(rt: Runtime) -> Event | None:
    s = st(rt)
    smaug = _magnificent(s)
    patch = int(rt.env["self"])
    return (
        ev.AttachmentAttached(card=patch, to=smaug) if smaug is not None and s.cards[patch].zone == "staging" else None
    )


def _ask_patch(rt: Runtime) -> Ask | None:
    s = st(rt)
    if _magnificent(s) is None or s.cards[int(rt.env["self"])].zone != "staging":
        return None
    options = [Option("yes", "Make a burgle attempt"), Option("no", "No")]
    return Ask(s.first, "A Bare Patch: make a burgle attempt to find Smaug's bare patch?", options)


# A Bare Patch — "Response: after the players quest successfully, the first player may make a
# burgle attempt. If it succeeds, attach A Bare Patch to Smaug the Magnificent. Attached: Smaug
# the Magnificent gets -3 defense."
# Offered on QuestResolved, after the Forced effects and before the quest's progress is placed
# (FAQ 1.09 and 1.24; a Response "after questing successfully" comes before that progress:
# To Catch an Orc 2B, The Voice of Isengard #63, cancels "all progress that would be placed").
text(
    A_BARE_PATCH,
    responses=(
        Trigger(
            ev.QuestResolved,
            lambda s, e, uid: isinstance(e, ev.QuestResolved) and e.willpower > e.threat and s.over is None,
            Decide(
                _ask_patch,
                "patch",
                If(lambda rt: rt.env["patch"] == "yes", attempt(success=lambda: emit(_patch_attached))),
                rule="otd-039.response",
            ),
        ),
    ),
)


DESOLATION_KEY = "desolation-of-smaug.first-treachery"


def _first_treachery(s: LcgState, e: Event, uid: Uid) -> bool:
    return (
        isinstance(e, ev.EncounterCardRevealed)
        and s.cards[uid].zone == "active"
        and table.defn(s, e.card).type == "treachery"
        and not s.limit_used(DESOLATION_KEY)
    )


# Desolation of Smaug — "While Desolation of Smaug is the active location, the first treachery
# card revealed each round gains surge." Counted from the moment it is active (a treachery
# revealed earlier in the round, before the players traveled here, is not remembered).
# (Burgle: 2 cards matching cost, above.)
text(
    "otd-046",
    stat=hidden_path_threat,
    forced=(
        Trigger(
            ev.EncounterCardRevealed,
            _first_treachery,
            Seq(
                emit(lambda rt: ev.SurgeGained(card=int(rt.env["revealed"]))),
                emit(lambda rt: LimitUsed(key=DESOLATION_KEY, until="round")),
            ),
            bind=lambda s, e, uid: {"revealed": getattr(e, "card", 0)},
        ),
    ),
)


CARD_TYPES = ("enemy", "location", "treachery", "objective")


def _ask_type(rt: Runtime) -> Ask:
    options = [Option(kind, kind.capitalize()) for kind in CARD_TYPES]
    return Ask(st(rt).first, "Secret Entrance: name a card type", options)


def _top_encounter(rt: Runtime) -> Uid | None:
    deck = st(rt).zone("encounter.deck")
    return deck[0] if deck else None


def _looked(rt: Runtime) -> Event | None:
    top = _top_encounter(rt)
    return ev.CardLookedAt(player=st(rt).first, card=top) if top is not None else None


def _wrong_type(rt: Runtime) -> bool:
    top = _top_encounter(rt)
    return top is None or table.defn(st(rt), top).type != rt.env["named"]


# Secret Entrance — "While Secret Entrance is the active location, The Lonely Mountain's threat
# is halved (rounded up). Travel: the first player must exhaust a hero and name a card type,
# then look at the top card of the encounter deck. If it is not of the named type, Secret
# Entrance stays in the staging area and the players cannot travel this round." Looked at, as
# one database prints it (the other says revealed): the first player alone sees it, and it
# stays on top of the encounter deck. An empty encounter deck matches no type.
text(
    "otd-045",
    stat=hidden_path_threat,
    travel=Seq(
        choose(
            lambda rt: st(rt).first,
            "Secret Entrance: exhaust a hero to travel",
            lambda rt: [h for h in table.heroes(st(rt), st(rt).first) if not st(rt).cards[h].exhausted],
            "hero",
            emit(lambda rt: ev.CardsExhausted(cards=tuple(chosen(rt, "hero")))),
        ),
        Decide(
            _ask_type,
            "named",
            Seq(
                emit(_looked),
                If(_wrong_type, emit(lambda rt: LimitUsed(key=TRAVEL_REFUSED, until="round"))),
            ),
            rule="otd-045.travel",
        ),
    ),
    can_travel=lambda s, uid: any(not s.cards[h].exhausted for h in table.heroes(s, s.first)),
)


DRAGON_SPELL = "otd-051"


def _spelled(s: LcgState, hero: Uid) -> bool:
    return any(s.cards[a].code == DRAGON_SPELL for a in table.attachments_on(s, hero))


def _richest(rt: Runtime) -> list[Uid]:
    s = st(rt)
    heroes = [h for seat in s.active_seats() for h in table.heroes(s, seat) if not _spelled(s, h)]
    if not heroes:
        return []
    most = max(s.cards[h].resources for h in heroes)
    return [h for h in heroes if s.cards[h].resources == most]


def _spell_host(s: LcgState, uid: Uid) -> Uid | None:
    card = s.cards[uid]
    return card.attached_to if card.zone == "attachments" else None


_SPENDING = (ev.ResourcesPaid, ev.AllyPlayed, ev.AttachmentPlayed, ev.EventPlayed)
"""The events that spend resources from heroes' pools (their ``payments``)."""


def _host_spent(s: LcgState, e: Event, uid: Uid) -> bool:
    host = _spell_host(s, uid)
    payments = getattr(e, "payments", ())
    return isinstance(e, _SPENDING) and host is not None and any(p.card == host for p in payments)


def _spent(rt: Runtime) -> int:
    return int(rt.env["spent"])


# Dragon-Spell — "When Revealed: attach to the hero with the most resources in their pool
# without a Dragon-Spell attached (the first player chooses on a tie). Attached hero gets -1
# willpower for each resource in their pool. Forced: after attached hero spends any number of
# resources, deal that much damage to it."
text(
    DRAGON_SPELL,
    when_revealed=choose(
        lambda rt: st(rt).first,
        "Dragon-Spell: which hero does it attach to?",
        _richest,
        "spelled",
        emit(lambda rt: ev.AttachmentAttached(card=int(rt.env["self"]), to=int(rt.env["spelled"]))),
        rule="otd-051.when-revealed",
    ),
    host=Host(stat=lambda s, a, host, which: -s.cards[host].resources if which == "willpower" else 0, steady=True),
    forced=(
        Trigger(
            _SPENDING,
            _host_spent,
            emit(lambda rt: ev.DamageDealt(card=int(rt.env["host"]), amount=_spent(rt)) if _spent(rt) else None),
            bind=lambda s, e, uid: {
                "host": _spell_host(s, uid),
                "spent": sum(p.amount for p in getattr(e, "payments", ()) if p.card == _spell_host(s, uid)),
            },
        ),
    ),
)


def _mountain_immune(s: LcgState, uid: Uid, keyword: str) -> bool:
    """The Lonely Mountain is immune to player card effects while any card is under it."""
    return keyword == IMMUNE and s.cards[uid].code == THE_LONELY_MOUNTAIN and bool(s.zone(TREASURE_ZONE))


table.KEYWORD_AURAS.append(table.needs(_mountain_immune, THE_LONELY_MOUNTAIN))
