"""The thirteen Core Set attachments: what their text does.

Every attachment's "Attach to ..." is printed data (``attach_to`` in
``core_set_player.toml``), checked when it is played (:mod:`domain.lcg.rules.attachments`);
what it does to its host is a :class:`~domain.lcg.cards.Host`, read by the table's stats,
traits and resource icons.
"""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Case, Decide, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Action, Host, Trigger, text
from domain.lcg.effects import (
    PLAYER,
    SELF,
    ability_used,
    choose,
    chosen,
    discard,
    emit,
    exhaust,
    gain_resources,
    heal,
    modify,
    progress_on_current_quest,
    ready,
    st,
    use_limit,
)
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Uid


def host_of(s: LcgState, attachment: Uid) -> Uid:
    host = s.cards[attachment].attached_to
    if host is None:
        raise ValueError(f"card {attachment} is attached to nothing")
    return host


def _host(rt: Runtime) -> Uid:
    return host_of(st(rt), SELF(rt))


def _gives(which: str, amount: int) -> Host:
    """A flat bonus to one stat of the host."""
    return Host(stat=lambda s, a, host, stat: amount if stat == which else 0, steady=True)


def _ready(s: LcgState, uid: Uid) -> bool:
    return not s.cards[uid].exhausted


# -- Leadership --------------------------------------------------------------------------

# Steward of Gondor — "Attach to a hero. Attached hero gains the Gondor trait. Action:
# exhaust Steward of Gondor to add 2 resources to the attached hero's pool."
text(
    "core-026",
    host=Host(traits=("Gondor",)),
    actions=(
        Action(
            lambda s, uid, seat: _ready(s, uid),
            Seq(
                ability_used("action"),
                exhaust(lambda rt: [SELF(rt)]),
                gain_resources(lambda rt: [_host(rt)], 2),
            ),
            "exhaust: add 2 resources to the attached hero's pool",
        ),
    ),
)


def _celebrian(s: LcgState, hero: Uid) -> tuple[str, ...]:
    return ("spirit",) if table.name(s, hero) == "Aragorn" else ()


# Celebrían's Stone — "Attach to a hero. Restricted. Attached hero gets +2 Willpower. If
# the attached hero is Aragorn, he also gains a Spirit resource icon." The icon lets
# Aragorn's resources pay for Spirit cards (Core Set rulebook, Resource match).
text("core-027", host=Host(stat=_gives("willpower", 2).stat, spheres=_celebrian, steady=True))

# -- Tactics -----------------------------------------------------------------------------


def _attacking_an_orc(s: LcgState, host: Uid) -> bool:
    attack = s.attack
    return (
        attack is not None
        and host in attack.attackers
        and table.is_in_play(s, attack.enemy)
        and table.has_trait(s, attack.enemy, "Orc")
    )


def _host_destroyed_an_enemy(s: LcgState, e: Event, uid: Uid) -> bool:
    return (
        isinstance(e, ev.EnemyDefeated)
        and s.attack is not None
        and e.enemy == s.attack.enemy
        and host_of(s, uid) in s.attack.attackers
    )


# Blade of Gondolin — "Attach to a hero. Restricted. Attached hero gets +1 Attack when
# attacking an Orc. Response: after the attached hero attacks and destroys an enemy, place
# 1 progress token on the current quest."
text(
    "core-039",
    host=Host(
        stat=lambda s, a, host, which: 1 if which == "attack" and _attacking_an_orc(s, host) else 0, in_attacks=True
    ),
    responses=(Trigger(ev.EnemyDefeated, _host_destroyed_an_enemy, progress_on_current_quest(1), optional=True),),
)

# Citadel Plate — "Attach to a hero. Restricted. Attached hero gets +4 Hit Points."
text("core-040", host=_gives("hit_points", 4))

# Dwarven Axe — "Attach to a hero. Restricted. Attached hero gets +1 Attack (+2 Attack
# instead if it is a Dwarf)."
text(
    "core-041",
    host=Host(
        stat=lambda s, a, host, which: (2 if table.has_trait(s, host, "Dwarf") else 1) if which == "attack" else 0,
        steady=True,
    ),
)

# Horn of Gondor — "Attach to a hero. Restricted. Response: after a character is
# destroyed, add 1 resource to the attached hero's pool." "Is destroyed" is errata (FAQ
# 1.8; the first printing said "leaves play"): an ally returned to a deck or discarded
# by a card's text does not count. The Horn's own hero takes the Horn with it.
text(
    "core-042",
    responses=(
        Trigger(
            ev.CharacterDestroyed,
            lambda s, e, uid: isinstance(e, ev.CharacterDestroyed),
            gain_resources(lambda rt: [_host(rt)]),
            optional=True,
            prompt="Horn of Gondor: add 1 resource to the attached hero's pool?",
        ),
    ),
)

# -- Spirit ------------------------------------------------------------------------------

# The Favor of the Lady — "Attach to a hero. Attached hero gets +1 Willpower."
text("core-055", host=_gives("willpower", 1))

# Power in the Earth — "Attach to a location. Attached location gets -1 Threat."
text("core-056", host=_gives("threat", -1))

# Unexpected Courage — "Attach to a hero. Action: exhaust Unexpected Courage to ready the
# attached hero."
text(
    "core-057",
    actions=(
        Action(
            lambda s, uid, seat: _ready(s, uid) and s.cards[host_of(s, uid)].exhausted,
            Seq(ability_used("action"), exhaust(lambda rt: [SELF(rt)]), ready(lambda rt: [_host(rt)])),
            "exhaust: ready the attached hero",
        ),
    ),
)

# -- Lore --------------------------------------------------------------------------------

# Forest Snare — "Attach to an enemy engaged with a player. Attached enemy cannot attack."
# It stays on the enemy if the enemy returns to the staging area; its shadow cards are
# discarded unresolved when it does not attack.
text("core-069", host=Host(cannot_attack=True))

PROTECTOR_USES = 3


def _protector_available(s: LcgState, uid: Uid, seat: str) -> bool:
    uses = sum(1 for limit in s.limits if limit.key == f"{uid}")
    return bool(table.hand(s, seat)) and uses < PROTECTOR_USES


def _protector_ask(rt: Runtime) -> Ask:
    return Ask(
        PLAYER(rt),
        "Protector of Lórien: the attached hero gets +1 until the end of the phase",
        [Option("defense", "+1 Defense"), Option("willpower", "+1 Willpower")],
    )


# Protector of Lórien — "Attach to a hero. Action: discard a card from your hand to give
# the attached hero +1 Defense or +1 Willpower until the end of the phase. (Limit 3 times
# per phase.)" The limit is errata (FAQ 1.7, Protector of Lorien CORE 70).
text(
    "core-070",
    actions=(
        Action(
            _protector_available,
            Seq(
                ability_used("action"),
                use_limit("{self}", "phase"),
                choose(
                    PLAYER,
                    "Protector of Lórien: discard a card from your hand",
                    lambda rt: table.hand(st(rt), PLAYER(rt)),
                    "discarded",
                    discard(lambda rt: chosen(rt, "discarded")),
                ),
                Decide(
                    _protector_ask,
                    "stat",
                    Case(
                        "stat",
                        {
                            "defense": modify(lambda rt: [_host(rt)], "defense", 1, "phase"),
                            "willpower": modify(lambda rt: [_host(rt)], "willpower", 1, "phase"),
                        },
                    ),
                ),
            ),
            "discard a card: +1 defense or willpower",
        ),
    ),
)


def _dealt_to_my_enemy(s: LcgState, e: Event, uid: Uid) -> bool:
    owner = s.cards[uid].owner
    return (
        isinstance(e, ev.ShadowCardDealt)
        and _ready(s, uid)
        and owner is not None
        and s.cards[e.enemy].zone == f"{owner}.engaged"
    )


# Dark Knowledge — "Attach to a hero. Attached hero gets -1 Willpower. Response: exhaust
# Dark Knowledge to look at 1 shadow card just dealt to an enemy attacking you." The
# enemies about to attack you are those engaged with you as shadow cards are dealt.
text(
    "core-071",
    host=_gives("willpower", -1),
    responses=(
        Trigger(
            ev.ShadowCardDealt,
            _dealt_to_my_enemy,
            Seq(
                exhaust(lambda rt: [SELF(rt)]),
                emit(lambda rt: ev.CardLookedAt(player=PLAYER(rt), card=int(rt.env["shadow"]))),
            ),
            optional=True,
            prompt="Dark Knowledge: exhaust it to look at the shadow card just dealt?",
            bind=lambda s, e, uid: {"shadow": e.card if isinstance(e, ev.ShadowCardDealt) else 0},
        ),
    ),
)

# Self Preservation — "Attach to a character. Action: exhaust Self Preservation to heal 2
# damage on the attached character."
text(
    "core-072",
    actions=(
        Action(
            lambda s, uid, seat: _ready(s, uid) and s.cards[host_of(s, uid)].damage > 0,
            Seq(ability_used("action"), exhaust(lambda rt: [SELF(rt)]), heal(_host, 2)),
            "exhaust: heal 2 damage on the attached character",
        ),
    ),
)
