"""The Wilderland encounter set of The Hobbit: On the Doorstep (#35-38), part of The Lonely
Mountain (not the Core Set's Wilderlands)."""

from __future__ import annotations

from domain.kernel.decisions import Option
from domain.kernel.events import Event, LimitUsed
from domain.kernel.flow import Ask, Decide, ForEach, If, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Host, Trigger, text
from domain.lcg.effects import PLAYER, SELF, attacker, emit, modify, raise_threat, st, undefended
from domain.lcg.rules import ship_keywords, table
from domain.lcg.rules.burgle import bilbo
from domain.lcg.state import LcgState, Uid

SPHERES = ("leadership", "tactics", "spirit", "lore", "baggins")
HIDDEN_PATH_COST = 2


def _pay_two(rt: Runtime) -> Event | None:
    hobbit = bilbo(st(rt))
    return ev.ResourcesPaid(payments=(ev.Payment(hobbit, HIDDEN_PATH_COST),)) if hobbit is not None else None


def _bilbo_can_pay(s: LcgState, uid: Uid) -> bool:
    hobbit = bilbo(s)
    return hobbit is not None and s.cards[hobbit].resources >= HIDDEN_PATH_COST


HIDDEN_PATH = "otd-035"


def hidden_path_threat(s: LcgState, uid: Uid, which: str) -> int:
    """-1 threat to a location in the staging area while Hidden Path is the active location.
    Every location of The Lonely Mountain's encounter deck counts it in its own stat."""
    if which != "threat" or s.cards[uid].zone != "staging":
        return 0
    active = table.active_location(s)
    return -1 if active is not None and s.cards[active].code == HIDDEN_PATH else 0


# Hidden Path — "While Hidden Path is the active location, each location in the staging area
# gets -1 threat. Travel: spend 2 Baggins resources to travel here."
text(HIDDEN_PATH, travel=emit(_pay_two), can_travel=_bilbo_can_pay, stat=hidden_path_threat)


def _ask_sphere(rt: Runtime) -> Ask:
    return Ask(st(rt).first, "Fighting Among Friends: name a sphere", [Option(s, s.capitalize()) for s in SPHERES])


def _outside_sphere(rt: Runtime) -> list[Uid]:
    s = st(rt)
    named = str(rt.env["sphere"])
    return [u for u in table.committed(s) if named not in table.spheres(s, u) and "baggins" not in table.spheres(s, u)]


# Fighting Among Friends — "When Revealed: the first player names a sphere. Each character
# committed to the quest without that sphere's icon, except Baggins characters, is removed from
# the quest. Shadow: attacking enemy gets +1 attack (+2 instead if undefended)."
text(
    "otd-037",
    when_revealed=Decide(
        _ask_sphere,
        "sphere",
        ForEach(_outside_sphere, "leaving", emit(lambda rt: ev.RemovedFromQuest(card=int(rt.env["leaving"])))),
        rule="otd-037.when-revealed",
    ),
    shadow=If(
        undefended,
        modify(lambda rt: [attacker(rt)], "attack", 2, "attack"),
        modify(lambda rt: [attacker(rt)], "attack", 1, "attack"),
    ),
)


def _exhausted_characters(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for u in table.all_characters(s) if s.cards[u].exhausted]


WEIGHED_DOWN = "otd-038"


def _weighed_key(defender: Uid) -> str:
    return f"weighed-down:{defender}"


def _defenders(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return list(s.attack.defenders) if s.attack is not None and not undefended(rt) else []


def _weighed_defender_destroyed(s: LcgState, e: Event) -> dict[str, object] | None:
    """A defender marked by Weighed Down's shadow effect was destroyed during this attack:
    its controller (when the attack destroyed it) raises their threat."""
    assert isinstance(e, ev.CharacterDestroyed)
    if not s.limits or not s.limit_used(_weighed_key(e.card)):
        return None
    seat = e.controller or s.cards[e.card].owner
    if seat is None or s.players[seat].eliminated:
        return None
    enemy = s.attack.enemy if s.attack is not None else None
    shadow = next((u for u in table.shadows_of(s, enemy) if s.cards[u].code == WEIGHED_DOWN), None) if enemy else None
    return {"player": seat, "_card": shadow}


register(f"{WEIGHED_DOWN}.threat", raise_threat(PLAYER, 5), rule=f"{WEIGHED_DOWN}.shadow")
ship_keywords.hook(ev.CharacterDestroyed, f"{WEIGHED_DOWN}.threat", _weighed_defender_destroyed, needs=(WEIGHED_DOWN,))


# Weighed Down — "When Revealed: until the end of the round, each exhausted character gets -1
# willpower, -1 attack and -1 defense. Shadow: if the defending character is destroyed by this
# attack, its controller raises their threat by 5." The shadow effect marks each defender for
# this attack (until the attack ends); an undefended attack has no defending character.
text(
    WEIGHED_DOWN,
    when_revealed=Seq(
        modify(_exhausted_characters, "willpower", -1, "round"),
        modify(_exhausted_characters, "attack", -1, "round"),
        modify(_exhausted_characters, "defense", -1, "round"),
    ),
    shadow=ForEach(
        _defenders,
        "marked",
        emit(lambda rt: LimitUsed(key=_weighed_key(int(rt.env["marked"])), until="attack")),
    ),
)


_BATS = Host(stat=lambda s, a, host, which: -1 if which in ("willpower", "attack", "defense") else 0, steady=True)


def _bats_damaged(s: LcgState, e: object, uid: Uid) -> bool:
    return (
        isinstance(e, ev.DamageDealt)
        and s.attack is not None
        and s.attack.enemy == uid
        and not s.attack.attackers
        and table.is_in_play(s, e.card)
        and table.defn(s, e.card).is_character
        and s.cards[uid].zone.endswith(".engaged")
    )


def _defender(rt: Runtime) -> Uid | None:
    s = st(rt)
    return s.attack.defender if s.attack is not None else None


# Dark Bats — "Forced: after Dark Bats damages a character, attach it to that character as a
# Condition: the attached character gets -1 willpower, -1 attack and -1 defense. Shadow: attach
# Dark Bats to the defending character (same Condition)." Attached, it is no longer an enemy in
# play; an undefended attack has no defending character, so the shadow effect then does nothing.
text(
    "otd-036",
    host=_BATS,
    forced=(
        Trigger(
            ev.DamageDealt,
            _bats_damaged,
            emit(lambda rt: ev.AttachmentAttached(card=SELF(rt), to=int(rt.env["damaged"]))),
            bind=lambda s, e, uid: {"damaged": getattr(e, "card", 0)},
        ),
    ),
    shadow=emit(
        lambda rt: ev.AttachmentAttached(card=SELF(rt), to=_defender(rt) or 0) if _defender(rt) is not None else None
    ),
)
