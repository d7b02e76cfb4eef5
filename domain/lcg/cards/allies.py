"""Core Set Leadership and Tactics allies: what their text does.

Guard of the Citadel, Silverlode Archer (Ranged), Veteran Axehand and Horseback Archer
(Ranged) have no text beyond their keywords.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.events import Event
from domain.kernel.flow import Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Action, Trigger, TriggerTest, text
from domain.lcg.effects import (
    ENTERS_PLAY,
    PLAYER,
    SELF,
    ability_used,
    card_var,
    choose,
    choose_player,
    damage_each,
    deal_damage,
    emit,
    engage,
    entered_play,
    exhaust,
    later,
    modify,
    place_progress,
    st,
    use_limit,
)
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Uid


def _entered_play(s: LcgState, e: Event, uid: Uid) -> bool:
    return entered_play(e, uid)


# Faramir — "Action: exhaust Faramir to choose a player; each character that player
# controls gets +1 Willpower until the end of the phase."
text(
    "core-014",
    actions=(
        Action(
            lambda s, uid, seat: not s.cards[uid].exhausted,
            Seq(
                ability_used("action"),
                exhaust(lambda rt: [SELF(rt)]),
                choose_player(
                    PLAYER,
                    "Faramir: choose a player",
                    "target",
                    modify(lambda rt: table.characters(st(rt), str(rt.env["target"])), "willpower", 1, "phase"),
                ),
            ),
            "exhaust: a player's characters get +1 willpower",
        ),
    ),
)


def _enemies_to_engage(s: LcgState, seat: str) -> list[Uid]:
    others = [u for other in s.active_seats() if other != seat for u in s.zone(f"{other}.engaged")]
    return table.staging_enemies(s) + others


def _entered_with_target(targets: Callable[[LcgState, str], list[Uid]]) -> TriggerTest:
    """Entered play, and there is something for the response to act on (else it is not offered)."""

    def test(s: LcgState, e: Event, uid: Uid) -> bool:
        owner = s.cards[uid].owner
        return _entered_play(s, e, uid) and owner is not None and bool(targets(s, owner))

    return test


# Son of Arnor — "Response: after Son of Arnor enters play, choose an enemy in the
# staging area or engaged with another player; engage it."
text(
    "core-015",
    responses=(
        Trigger(
            ENTERS_PLAY,
            _entered_with_target(_enemies_to_engage),
            choose(
                PLAYER,
                "Son of Arnor: choose an enemy to engage",
                lambda rt: _enemies_to_engage(st(rt), PLAYER(rt)),
                "enemy",
                engage(card_var("enemy"), PLAYER),
            ),
            optional=True,
        ),
    ),
)


def _locations(s: LcgState, seat: str = "") -> list[Uid]:
    staged = [u for u in table.staging(s) if table.defn(s, u).type == "location"]
    active = table.active_location(s)
    return ([active] if active is not None else []) + staged


# Snowbourn Scout — "Response: after Snowbourn Scout enters play, choose a location;
# place 1 progress token on it."
text(
    "core-016",
    responses=(
        Trigger(
            ENTERS_PLAY,
            _entered_with_target(_locations),
            choose(
                PLAYER,
                "Snowbourn Scout: place 1 progress on a location",
                lambda rt: _locations(st(rt)),
                "location",
                place_progress(card_var("location"), 1),
            ),
            optional=True,
        ),
    ),
)


def _orcs(s: LcgState, seat: str = "") -> list[Uid]:
    return [u for u in table.enemies_in_play(s) if table.defn(s, u).is_a("Orc")]


# Longbeard Orc Slayer — "Response: after Longbeard Orc Slayer enters play, deal 1
# damage to each Orc enemy in play."
text(
    "core-018",
    responses=(
        Trigger(
            ENTERS_PLAY,
            _entered_with_target(_orcs),
            damage_each(lambda rt: _orcs(st(rt)), 1),
            optional=True,
        ),
    ),
)


def _dwarf_hero_left(s: LcgState, e: Event, uid: Uid) -> bool:
    """Destroyed or discarded from play (the Nazgûl of Dol Guldur): either way he left play."""
    if not isinstance(e, ev.CharacterDestroyed | ev.CharacterDiscarded):
        return False
    gone = table.defn(s, e.card)
    return (
        gone.type == "hero"
        and gone.is_a("Dwarf")
        and s.cards[e.card].owner == s.cards[uid].owner
        and not table.unique_in_play(s, s.cards[uid].code)
    )


# Brok Ironfist — "Response: after a Dwarf hero you control leaves play, put Brok
# Ironfist into play from your hand." Put into play, he is not played: no cost is paid
# (FAQ 1.1, "put into play").
text(
    "core-019",
    responses=(
        Trigger(
            (ev.CharacterDestroyed, ev.CharacterDiscarded),
            _dwarf_hero_left,
            emit(lambda rt: ev.CardMoved(card=SELF(rt), to=f"{PLAYER(rt)}.allies")),
            zone="hand",
            optional=True,
            prompt="Brok Ironfist: put him into play from your hand?",
        ),
    ),
)

# Gondorian Spearman — "Response: after Gondorian Spearman is declared as a defender,
# deal 1 damage to the attacking enemy."
text(
    "core-029",
    responses=(
        Trigger(
            ev.DefenderDeclared,
            lambda s, e, uid: isinstance(e, ev.DefenderDeclared) and e.defender == uid,
            deal_damage(card_var("attacker"), 1),
            optional=True,
            bind=lambda s, e, uid: {"attacker": getattr(e, "enemy", 0)},
        ),
    ),
)


def _shuffle_back(rt: Runtime) -> Event | None:
    s = st(rt)
    beorn = SELF(rt)
    if not table.is_in_play(s, beorn):
        return None
    zone = f"{table.owner_of(s, beorn)}.deck"
    return ev.ShuffledIntoDeck(card=beorn, zone=zone, order=tuple(rt.shuffle([*s.zone(zone), beorn])))


register("core-031.shuffle-back", emit(_shuffle_back), rule="core-031.action")


# Beorn — "Action: Beorn gets +5 Attack until the end of the phase; at the end of that
# phase, shuffle Beorn back into your deck. (Limit once per round.)"
text(
    "core-031",
    actions=(
        Action(
            lambda s, uid, seat: not s.limit_used(f"{uid}"),
            Seq(
                ability_used("action"),
                use_limit("{self}"),
                modify(lambda rt: [SELF(rt)], "attack", 5, "phase"),
                later("phase", "core-031.shuffle-back"),
            ),
            "+5 attack until the end of the phase, then shuffle him into your deck",
        ),
    ),
)
