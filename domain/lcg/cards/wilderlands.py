"""The Wilderlands encounter set (Core Set #81-88)."""

from __future__ import annotations

from domain.kernel.events import Delayed, DelayedEffectScheduled, Event, Modifier, ModifierAdded
from domain.kernel.flow import Call, If, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.cards import Trigger, text, text_of
from domain.lcg.cards.encounter_steps import remove_progress
from domain.lcg.effects import (
    PLAYER,
    SELF,
    attacker,
    card_var,
    choose,
    deal_damage,
    defending_player,
    each_player,
    emit,
    modify,
    place_progress,
    raise_threat,
    st,
    undefended,
)
from domain.lcg.rules import table
from domain.lcg.rules.constant import Constant, constant
from domain.lcg.state import LcgState, Uid


def _wolf_rider_returns(rt: Runtime) -> Event | None:
    uid = SELF(rt)
    if not table.is_in_play(st(rt), uid):
        return None
    return ev.CardMoved(card=uid, to="encounter.deck", top=True)


register("core-081.return", emit(_wolf_rider_returns), rule="core-081.shadow")


def _wolf_rider_attacks(rt: Runtime) -> Event:
    return ev.CardMoved(card=SELF(rt), to=f"{defending_player(rt)}.engaged")


# Wolf Rider — "Surge. Shadow: Wolf Rider attacks the defending player, who may declare 1
# character as a defender; deal it its own shadow card; after combat, return Wolf Rider to
# the top of the encounter deck." Reading: it joins the defending player's engaged enemies
# for the rest of the combat phase (so it can be attacked back), attacks once at once, and
# goes back on top of the encounter deck at the end of the combat phase if still in play.
text(
    "core-081",
    shadow=Seq(
        emit(_wolf_rider_attacks),
        Call("lcg.shadow.deal-extra", lambda rt: {"self": SELF(rt)}),
        emit(
            lambda rt: DelayedEffectScheduled(
                delayed=Delayed(at="phase", node="core-081.return", env={"self": SELF(rt), "_card": SELF(rt)})
            )
        ),
        Call("lcg.combat.enemy-attack", lambda rt: {"enemy": SELF(rt), "player": defending_player(rt)}),
    ),
)


def _troll_excess(s: LcgState, e: Event, uid: Uid) -> bool:
    """Combat damage of this Hill Troll's attack that went beyond the character's hit points."""
    if not isinstance(e, ev.DamageDealt) or s.attack is None or s.attack.enemy != uid or s.attack.attackers:
        return False
    if e.cause.rule not in ("lcg.combat.defended-damage", "lcg.combat.undefended-damage"):
        return False
    return s.cards[e.card].damage > table.hit_points(s, e.card)


# Hill Troll — "Excess combat damage dealt by Hill Troll (damage beyond the remaining hit
# points of the character damaged by its attack) raises the defending player's threat
# instead." The excess is the damage past the character's remaining hit points as the
# damage is dealt; shadow damage during its attack is not its combat damage.
text(
    "core-082",
    forced=(
        Trigger(
            ev.DamageDealt,
            _troll_excess,
            raise_threat(lambda rt: str(rt.env["victim"]), lambda rt: int(rt.env["excess"])),
            bind=lambda s, e, uid: {
                "victim": s.attack.player if s.attack else s.first,
                "excess": s.cards[getattr(e, "card", 0)].damage - table.hit_points(s, getattr(e, "card", 0)),
            },
        ),
    ),
)


def _alone_in_staging(s: LcgState, uid: Uid) -> bool:
    return all(u == uid for u in table.staging_enemies(s))


# Goblin Sniper — "During the encounter phase, players cannot optionally engage Goblin
# Sniper while other enemies are in the staging area. Forced: if Goblin Sniper is in the
# staging area at the end of the combat phase, each player deals 1 damage to 1 character
# he controls."
constant("core-083", Constant(optional_engagement=_alone_in_staging))
text(
    "core-083",
    forced=(
        Trigger(
            xev.PhaseEnded,
            lambda s, e, uid: isinstance(e, xev.PhaseEnded) and e.phase == "combat" and s.cards[uid].zone == "staging",
            each_player(
                choose(
                    PLAYER,
                    "Goblin Sniper: deal 1 damage to one of your characters",
                    lambda rt: table.characters(st(rt), PLAYER(rt)),
                    "target",
                    deal_damage(card_var("target"), 1),
                )
            ),
        ),
    ),
)

# Marsh Adder — "Forced: each time Marsh Adder attacks you, raise your threat by 1."
text(
    "core-084",
    forced=(
        Trigger(
            ev.AttackDeclared,
            lambda s, e, uid: isinstance(e, ev.AttackDeclared) and e.enemy == uid,
            raise_threat(lambda rt: str(rt.env["attacked"]), 1),
            bind=lambda s, e, uid: {"attacked": getattr(e, "player", "")},
        ),
    ),
)


def _shadow_without_effect(s: LcgState, e: Event, uid: Uid) -> bool:
    if not (isinstance(e, ev.AttackResolved) and e.by_enemy and not e.cancelled and e.enemy == uid):
        return False
    return any(text_of(s.cards[c].code).shadow is None for c in table.shadows_of(s, uid))


# Wargs — "Forced: if Wargs is dealt a shadow card with no effect, return Wargs to the
# staging area after it attacks. Shadow: the attacking enemy gets +1 Attack (+2 if the
# attack is undefended)."
text(
    "core-085",
    forced=(
        Trigger(
            ev.AttackResolved,
            _shadow_without_effect,
            If(
                lambda rt: table.is_in_play(st(rt), SELF(rt)),
                emit(lambda rt: ev.CardMoved(card=SELF(rt), to="staging")),
            ),
        ),
    ),
    shadow=If(
        undefended,
        modify(lambda rt: [attacker(rt)], "attack", 2, "attack"),
        modify(lambda rt: [attacker(rt)], "attack", 1, "attack"),
    ),
)


def _ignore_defense(rt: Runtime) -> Event | None:
    chosen = rt.env.get("defender")
    if chosen in (None, "undefended"):
        return None
    target = int(str(chosen))
    d = table.defense(st(rt), target)
    return ModifierAdded(modifier=Modifier(target, "defense", -d, "attack", SELF(rt))) if d > 0 else None


# Despair — "When Revealed: remove 4 progress tokens from the current quest card (all of
# them if it has fewer). Shadow: the defending character does not count its Defense for
# this attack."
text(
    "core-086",
    when_revealed=emit(lambda rt: remove_progress(rt, 4)),
    shadow=emit(_ignore_defense),
)

# The Brown Lands — "Forced: after the players travel to The Brown Lands, place 1
# progress token on it." With 1 quest point it is explored at once.
text(
    "core-087",
    forced=(
        Trigger(
            ev.LocationTraveled,
            lambda s, e, uid: isinstance(e, ev.LocationTraveled) and e.card == uid,
            place_progress(SELF, 1),
        ),
    ),
)

# The East Bight — "When the players may travel and there is no active location, they
# must travel to The East Bight." (travel.py offers no "do not travel" then.)
constant("core-088", Constant(must_travel=True))
