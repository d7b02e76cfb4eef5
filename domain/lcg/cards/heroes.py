"""The twelve Core Set heroes: what their text does.

Leadership and Tactics heroes are the core of the starting decks; the Spirit and Lore
heroes are here so that three and four players can each field three heroes without
breaking uniqueness (Rules: no two copies of a unique card in play at once).
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Call, Decide, If, Let, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Action, Trigger, text
from domain.lcg.effects import (
    PLAYER,
    SELF,
    ability_used,
    card_var,
    choose,
    choose_player,
    chosen,
    discard,
    draw,
    emit,
    exhaust,
    gain_resources,
    heal,
    modify,
    progress_on_current_quest,
    ready,
    reveal_encounter_card,
    shielded,
    st,
    use_limit,
)
from domain.lcg.rules import table
from domain.lcg.rules.keywords import doomed_program
from domain.lcg.rules.procedures import surges
from domain.lcg.state import LcgState, Uid


def _ready_and_unused(s: LcgState, uid: Uid, key: str) -> bool:
    return not s.cards[uid].exhausted and not s.limit_used(key)


# Aragorn — "Response: after Aragorn commits to a quest, spend 1 resource from his pool
# to ready him."
text(
    "core-001",
    responses=(
        Trigger(
            ev.CharactersCommitted,
            lambda s, e, uid: isinstance(e, ev.CharactersCommitted) and uid in e.cards,
            Seq(
                emit(lambda rt: ev.ResourcesPaid(payments=(ev.Payment(SELF(rt), 1),))),
                ready(lambda rt: [SELF(rt)]),
            ),
            optional=True,
            prompt="Aragorn committed: spend 1 of his resources to ready him?",
            condition=lambda s, uid: s.cards[uid].resources >= 1,
        ),
    ),
)

# Théodred — "Response: after Théodred commits to a quest, choose a hero committed to
# that quest; add 1 resource to its pool."
text(
    "core-002",
    responses=(
        Trigger(
            ev.CharactersCommitted,
            lambda s, e, uid: isinstance(e, ev.CharactersCommitted) and uid in e.cards,
            choose(
                PLAYER,
                "Théodred: choose a questing hero to gain 1 resource",
                lambda rt: [
                    u
                    for u in table.committed(st(rt))
                    if table.defn(st(rt), u).type == "hero" and table.may_gain_resources(st(rt), u, SELF(rt))
                ],
                "hero",
                gain_resources(lambda rt: [int(rt.env["hero"])]),
            ),
            optional=True,
        ),
    ),
)

# Glóin — "Response: after Glóin suffers damage, add 1 resource to his pool for each
# point of damage he just suffered."
text(
    "core-003",
    responses=(
        Trigger(
            ev.DamageDealt,
            lambda s, e, uid: isinstance(e, ev.DamageDealt) and e.card == uid,
            emit(lambda rt: ev.ResourcesAdded(cards=(SELF(rt),), amount=int(rt.env["amount"]))),
            optional=True,
            bind=lambda s, e, uid: {"amount": e.amount if isinstance(e, ev.DamageDealt) else 0},
        ),
    ),
)

# Gimli — "Gimli gets +1 Attack for each damage token on him."
text("core-004", stat=lambda s, uid, which: s.cards[uid].damage if which == "attack" else 0, steady_stat=True)

# Legolas — "Response: after Legolas takes part in an attack that destroys an enemy,
# place 2 progress tokens on the current quest." The progress goes on the active location
# first, if there is one (FAQ, Legolas CORE 5; FAQ 1.27).
text(
    "core-005",
    responses=(
        Trigger(
            ev.EnemyDefeated,
            lambda s, e, uid: (
                isinstance(e, ev.EnemyDefeated)
                and s.attack is not None
                and e.enemy == s.attack.enemy
                and uid in s.attack.attackers
            ),
            progress_on_current_quest(2),
            optional=True,
        ),
    ),
)


def _damage_revealed(rt: Runtime) -> Event | None:
    """1 damage to the enemy being revealed, while it is still in the revealed zone.

    ``deal_damage`` only hits cards in play, and a card being revealed is not yet in the
    staging area; the damage stays on it when it gets there.
    """
    uid = card_var("revealed")(rt)
    if shielded(rt, uid):
        return None  # no damage to an enemy immune to player card effects (FAQ 1.47: "dealing damage to an enemy")
    return ev.DamageDealt(card=uid, amount=1) if st(rt).cards[uid].zone == "revealed" else None


# Thalin — "While Thalin is committed to a quest, deal 1 damage to each enemy as it is
# revealed by the encounter deck." The damage is dealt as the enemy is revealed, before
# its keywords and before it enters the staging area (FAQ 1.1, Thalin CORE 6).
text(
    "core-006",
    forced=(
        Trigger(
            ev.EncounterCardRevealed,
            lambda s, e, uid: (
                isinstance(e, ev.EncounterCardRevealed)
                and s.cards[uid].committed
                and table.defn(s, e.card).type == "enemy"
            ),
            emit(_damage_revealed),
            bind=lambda s, e, uid: {"revealed": getattr(e, "card", 0)},
        ),
    ),
)

# Éowyn — "Action: discard 1 card from your hand to give Éowyn +1 Willpower until the
# end of the phase. Each player may trigger this once each round."
text(
    "core-007",
    actions=(
        Action(
            lambda s, uid, seat: bool(table.hand(s, seat)) and not s.limit_used(f"{uid}:{seat}"),
            Seq(
                ability_used("action"),
                use_limit("{self}:{player}"),
                choose(
                    PLAYER,
                    "Éowyn: discard a card from your hand",
                    lambda rt: table.hand(st(rt), PLAYER(rt)),
                    "discarded",
                    discard(lambda rt: chosen(rt, "discarded")),
                ),
                modify(lambda rt: [SELF(rt)], "willpower", 1, "phase"),
            ),
            "discard a card: +1 willpower",
            anyone=True,
        ),
    ),
)


# Eleanor — "Response: exhaust Eleanor to cancel the when-revealed effects of a
# treachery card just revealed by the encounter deck; discard it and reveal the next
# encounter card in its place." Only its When Revealed is cancelled: its keywords are not
# When Revealed effects, so its Doomed and Surge still resolve, before the replacement card
# is revealed (FAQ 1.9, Eleanor CORE 8: the replacement is revealed following the standard
# rules; keywords resolve as the card is revealed, Rulebook "Keywords").
def _eleanor_treachery(rt: Runtime) -> Uid:
    return int(rt.env["treachery"])


def _treachery_surges(rt: Runtime) -> dict[str, int | bool]:
    """The treachery, and whether it surges, read before it is discarded (a discarded card
    loses what it gained)."""
    uid = _eleanor_treachery(rt)
    return {"card": uid, "surges": surges(st(rt), uid)}


text(
    "core-008",
    responses=(
        Trigger(
            ev.EncounterCardRevealed,
            lambda s, e, uid: isinstance(e, ev.EncounterCardRevealed) and table.defn(s, e.card).type == "treachery",
            Seq(
                exhaust(lambda rt: [SELF(rt)]),
                Let(
                    _treachery_surges,
                    Seq(
                        Call(doomed_program, lambda rt: {"card": rt.env["card"], "_card": rt.env["card"]}),
                        discard(lambda rt: [_eleanor_treachery(rt)]),
                        If(lambda rt: bool(rt.env["surges"]), reveal_encounter_card(), rule="lcg.keyword.surge"),
                        reveal_encounter_card(),
                    ),
                ),
            ),
            optional=True,
            prompt="Eleanor: exhaust her to cancel this treachery?",
            bind=lambda s, e, uid: {"treachery": getattr(e, "card", 0)},
            condition=lambda s, uid: not s.cards[uid].exhausted,
        ),
    ),
)

# Dúnhere — "Dúnhere may attack an enemy in the staging area when he attacks alone; he
# gets +1 Attack when doing so."
text("core-009", staging_attack_bonus=1)


def _denethor_ask(rt: Runtime) -> Ask | None:
    s = st(rt)
    deck = s.zone("encounter.deck")
    if not deck:
        return None
    top = deck[0]
    return Ask(
        PLAYER(rt),
        f"Denethor: the top encounter card is {table.name(s, top)}",
        [Option("keep", "Leave it on top", top), Option("bottom", "Move it to the bottom", top)],
    )


# Denethor — "Action: exhaust Denethor to look at the top card of the encounter deck;
# you may move it to the bottom."
text(
    "core-010",
    actions=(
        Action(
            lambda s, uid, seat: not s.cards[uid].exhausted and bool(s.zone("encounter.deck")),
            Seq(
                ability_used("action"),
                exhaust(lambda rt: [SELF(rt)]),
                emit(lambda rt: ev.CardLookedAt(player=PLAYER(rt), card=st(rt).zone("encounter.deck")[0])),
                Decide(
                    _denethor_ask,
                    "where",
                    emit(
                        lambda rt: (
                            ev.CardMoved(card=st(rt).zone("encounter.deck")[0], to="encounter.deck")
                            if rt.env["where"] == "bottom"
                            else None
                        )
                    ),
                ),
            ),
            "look at the top encounter card",
        ),
    ),
)

# Glorfindel — "Action: pay 1 resource from Glorfindel's pool to heal 1 damage on any
# character. (Limit once per round.)"
text(
    "core-011",
    actions=(
        Action(
            lambda s, uid, seat: (
                s.cards[uid].resources >= 1
                and not s.limit_used(f"{uid}")
                and any(s.cards[c].damage for c in table.all_characters(s))
            ),
            Seq(
                ability_used("action"),
                use_limit("{self}"),
                emit(lambda rt: ev.ResourcesPaid(payments=(ev.Payment(SELF(rt), 1),))),
                choose(
                    PLAYER,
                    "Glorfindel: heal 1 damage on a character",
                    lambda rt: [c for c in table.all_characters(st(rt)) if st(rt).cards[c].damage],
                    "healed",
                    heal(card_var("healed"), 1),
                ),
            ),
            "pay 1: heal 1 damage",
        ),
    ),
)


# Beravor — "Action: exhaust Beravor to choose a player; that player draws 2 cards.
# (Limit once per round.)" The limit is errata (FAQ 1.6 on): readied, she still cannot
# use it again that round.
text(
    "core-012",
    actions=(
        Action(
            lambda s, uid, seat: _ready_and_unused(s, uid, f"{uid}"),
            Seq(
                ability_used("action"),
                use_limit("{self}"),
                exhaust(lambda rt: [SELF(rt)]),
                choose_player(
                    PLAYER,
                    "Beravor: choose a player to draw 2 cards",
                    "target",
                    draw(lambda rt: str(rt.env["target"]), 2),
                ),
            ),
            "exhaust: a player draws 2",
        ),
    ),
)
