"""The Erebor treasures of The Lonely Mountain (The Hobbit: On the Doorstep #20-24), played from
hand like attachments once a burgle attempt brought them there."""

from __future__ import annotations

from domain.kernel.flow import Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Action, Host, Trigger, text
from domain.lcg.effects import PLAYER, SELF, ability_used, card_var, choose, deal_damage, draw, emit, st
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Uid


def _host(s: LcgState, uid: Uid) -> Uid | None:
    card = s.cards[uid]
    return card.attached_to if card.zone == "attachments" else None


# Mithril Shirt — "Attach to Bilbo Baggins. Attached hero gets +1 defense and +1 hit point."
text(
    "otd-021",
    host=Host(stat=lambda s, a, host, which: 1 if which in ("defense", "hit_points") else 0),
)


def _axe_kill(s: LcgState, e: object, uid: Uid) -> bool:
    host = _host(s, uid)
    return (
        isinstance(e, ev.EnemyDefeated)
        and host is not None
        and s.attack is not None
        and host in s.attack.attackers
        and s.attack.enemy == e.enemy
    )


def _other_engaged(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for u in table.engaged(s, PLAYER(rt)) if u != int(rt.env.get("killed", -1))]


# Thrór's Battle Axe — "Attach to a hero. Restricted. Attached hero gets +2 attack. Response:
# after attached hero's attack destroys an enemy, deal 1 damage to a different enemy engaged
# with you."
text(
    "otd-022",
    host=Host(stat=lambda s, a, host, which: 2 if which == "attack" else 0),
    responses=(
        Trigger(
            ev.EnemyDefeated,
            _axe_kill,
            choose(
                PLAYER,
                "Thrór's Battle Axe: deal 1 damage to another enemy engaged with you",
                _other_engaged,
                "axed",
                deal_damage(card_var("axed"), 1),
                rule="otd-022.response",
            ),
            optional=True,
            prompt="Use Thrór's Battle Axe: 1 damage to another enemy engaged with you?",
            bind=lambda s, e, uid: {"killed": getattr(e, "enemy", -1)},
        ),
    ),
)


# Thrór's Golden Cup — "Attach to a hero. Action: put Thrór's Golden Cup in the victory display
# to draw 3 cards." (3 victory points: they count once it is in the victory display.)
text(
    "otd-024",
    actions=(
        Action(
            lambda s, uid, seat: _host(s, uid) is not None,
            Seq(
                ability_used("action"),
                emit(lambda rt: ev.CardMoved(card=SELF(rt), to="victory")),
                draw(PLAYER, 3),
            ),
            "put it in the victory display: draw 3 cards",
        ),
    ),
)


HUNTING_BOW = "otd-023"


def _bow_on(s: LcgState, host: Uid) -> bool:
    return any(s.cards[a].code == HUNTING_BOW for a in table.attachments_on(s, host))


def _bow_ranged(s: LcgState, uid: Uid, keyword: str) -> bool:
    return keyword == "Ranged" and _bow_on(s, uid)


table.KEYWORD_AURAS.append(_bow_ranged)


def _ranged_attack(s: LcgState, a: Uid, host: Uid, which: str) -> int:
    """+2 attack while the attached hero attacks an enemy engaged with another player."""
    attack = s.attack
    if which != "attack" or attack is None or host not in attack.attackers:
        return 0
    return 2 if s.controller(host) != attack.player else 0


# Thrór's Hunting Bow — "Attach to a hero. Restricted. Attached hero gains Ranged. Attached hero
# gets +2 attack when making a ranged attack" (an attack on an enemy engaged with another player).
text(HUNTING_BOW, host=Host(stat=_ranged_attack))
