"""The Erebor treasures of The Lonely Mountain (The Hobbit: On the Doorstep #20-24), played from
hand like attachments once a burgle attempt brought them there."""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.events import Event, Modifier, ModifierAdded
from domain.kernel.flow import Ask, Decide, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Action, Host, Trigger, text
from domain.lcg.effects import PLAYER, SELF, ability_used, card_var, choose, deal_damage, draw, emit, raise_threat, st
from domain.lcg.rules import combat, planning, table
from domain.lcg.state import LcgState, Seat, Uid


def _host(s: LcgState, uid: Uid) -> Uid | None:
    card = s.cards[uid]
    return card.attached_to if card.zone == "attachments" else None


ARKENSTONE = "otd-020"
DISCOUNT = "ally-discount"
"""The Arkenstone's discount waiting for its controller's next ally: a lasting modifier on the
Arkenstone (until the end of the phase), taken back as that ally is played."""


def _shares_sphere(s: LcgState, arkenstone: Uid, ally: Uid) -> bool:
    host = _host(s, arkenstone)
    d = table.defn(s, ally)
    return host is not None and d.type == "ally" and d.sphere is not None and d.sphere == table.defn(s, host).sphere


def _waiting(s: LcgState, seat: Seat) -> list[Uid]:
    """The Arkenstones of ``seat`` with a discount waiting."""
    if not s.modifiers:
        return []
    return [
        a
        for a in s.zone("attachments")
        if s.cards[a].code == ARKENSTONE and s.cards[a].owner == seat and s.modifier_total(a, DISCOUNT) > 0
    ]


def _ally_discount(s: LcgState, seat: Seat, uid: Uid) -> int:
    """The next ally ``seat`` plays that shares the attached hero's sphere costs X less."""
    return sum(s.modifier_total(a, DISCOUNT) for a in _waiting(s, seat) if _shares_sphere(s, a, uid))


planning.COST_REDUCTIONS.append(table.needs(_ally_discount, ARKENSTONE))


def _largest_x(s: LcgState, uid: Uid, seat: Seat) -> int:
    """X worth paying: up to the highest cost among the allies in hand sharing the sphere."""
    return max((table.defn(s, a).cost for a in table.hand(s, seat) if _shares_sphere(s, uid, a)), default=0)


def _arkenstone_usable(s: LcgState, uid: Uid, seat: Seat) -> bool:
    return _host(s, uid) is not None and not s.cards[uid].exhausted and _largest_x(s, uid, seat) > 0


def _ask_x(rt: Runtime) -> Ask:
    s, uid, seat = st(rt), SELF(rt), PLAYER(rt)
    options = [Option(str(x), f"X = {x}: raise your threat by {x}") for x in range(1, _largest_x(s, uid, seat) + 1)]
    return Ask(seat, "The Arkenstone: your next ally of the attached hero's sphere costs X less", options, about=uid)


def _x(rt: Runtime) -> int:
    return int(rt.env["x"])


def _discount(rt: Runtime) -> Event:
    return ModifierAdded(modifier=Modifier(SELF(rt), DISCOUNT, _x(rt), "phase", SELF(rt)))


def _used_up(s: LcgState, e: object, uid: Uid) -> bool:
    return (
        isinstance(e, ev.AllyPlayed)
        and s.cards[uid].owner == e.player
        and s.modifier_total(uid, DISCOUNT) > 0
        and _shares_sphere(s, uid, e.card)
    )


def _spent(rt: Runtime) -> Event:
    uid = SELF(rt)
    return ModifierAdded(modifier=Modifier(uid, DISCOUNT, -st(rt).modifier_total(uid, DISCOUNT), "phase", uid))


# The Arkenstone — "Attach to a hero. Action: exhaust The Arkenstone and raise your threat by X
# to reduce the cost of the next ally you play this phase that shares the attached hero's sphere
# by X." X is chosen from 1 to the highest cost among the allies in hand of that sphere. The
# Action is offered between the cards a player plays in the planning step (a special action
# window, Rules Reference 2.2), where the discount can be spent; the discount is gone once that
# ally is played, or at the end of the phase.
text(
    ARKENSTONE,
    actions=(
        Action(
            _arkenstone_usable,
            Seq(
                ability_used("action"),
                Decide(
                    _ask_x,
                    "x",
                    Seq(
                        emit(lambda rt: ev.CardsExhausted(cards=(SELF(rt),))),
                        raise_threat(PLAYER, _x),
                        emit(_discount),
                    ),
                    rule=f"{ARKENSTONE}.action",
                ),
            ),
            "exhaust, raise your threat by X: your next ally of the hero's sphere costs X less",
            planning=True,
        ),
    ),
    forced=(Trigger(ev.AllyPlayed, _used_up, emit(_spent)),),
)


# Mithril Shirt — "Attach to Bilbo Baggins. Attached hero gets +1 defense and +1 hit point."
text(
    "otd-021",
    host=Host(stat=lambda s, a, host, which: 1 if which in ("defense", "hit_points") else 0, steady=True),
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
    host=Host(stat=lambda s, a, host, which: 2 if which == "attack" else 0, steady=True),
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


table.KEYWORD_AURAS.append(table.needs(_bow_ranged, HUNTING_BOW))


def _ranged_attack(s: LcgState, a: Uid, host: Uid, which: str) -> int:
    """+2 attack while the attached hero attacks an enemy engaged with another player, in
    that player's attack or in one its own controller declares."""
    attack = s.attack
    if which != "attack" or attack is None or host not in attack.attackers:
        return 0
    controller = s.controller(host)
    return 2 if controller is not None and not combat.engaged_with(s, attack.enemy, controller) else 0


# Thrór's Hunting Bow — "Attach to a hero. Restricted. Attached hero gains Ranged. Attached hero
# gets +2 attack when making a ranged attack" (an attack on an enemy engaged with another player).
text(HUNTING_BOW, host=Host(stat=_ranged_attack, in_attacks=True))
