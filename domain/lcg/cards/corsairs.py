"""The Hunt for the Dreadnaught: the Corsair enemies, the ship-enemies, the locations and
the treacheries (the encounter cards #20-46 of the pack)."""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.decisions import Option
from domain.kernel.events import Event, LimitUsed, Modifier, ModifierAdded
from domain.kernel.flow import Ask, Call, Case, Decide, ForEach, If, Let, Node, Repeat, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import CARDS, Action, Trigger, text
from domain.lcg.cards.hunt_for_the_dreadnaught import (
    BLACK_SAILS,
    COBAS_HAVEN,
    CORSAIR_WARSHIP,
    WICKED_COVE,
    corsair_with_shadow,
    flip,
    group_players,
)
from domain.lcg.effects import (
    FIRST_PLAYER,
    IMMUNE,
    PLAYER,
    SELF,
    ability_used,
    attacker,
    choose,
    chosen,
    deal_damage,
    defending_player,
    each_player,
    emit,
    exhaust,
    heal,
    modify,
    raise_threat,
    ready,
    reveal_encounter_card,
    spread_damage,
    st,
    undefended,
)
from domain.lcg.rules import caps, ship_keywords, ships, table
from domain.lcg.rules.any_group import in_any_group, other_groups, relayed, sent_amount
from domain.lcg.state import LcgState, Seat, Uid

BRASH_CORSAIR, PLUNDERER, BUCCANEER, MARAUDER, SOUTHRON_SAILOR, UMBAR_CAPTAIN = (f"thftd-{n:03}" for n in range(20, 26))
SKIFF, SKIRMISHER, RAMMING_SHIP, SLAVE_SHIP, WAR_GALLEY, SEA_MONSTER = (
    "thftd-027",
    "thftd-028",
    "thftd-030",
    "thftd-031",
    "thftd-032",
    "thftd-033",
)
BELFALAS, ISLE_OF_FORTUNE, MOUTHS_OF_ANDUIN, TOLFALAS = "thftd-034", "thftd-036", "thftd-037", "thftd-038"
BALLISTA, BOARDING_PARTY, GRAPPLED, OUT_OF_THE_MIST, OVERWORKED, TAKING_ON_WATER, TEMPEST = (
    f"thftd-{n:03}" for n in range(40, 47)
)


def _holder(rt: Runtime) -> Seat:
    return str(table.holder(st(rt), SELF(rt)) or st(rt).first)


def _engaged_self(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.EnemyEngaged) and e.enemy == uid


def _engaged_from_staging(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.EnemyEngaged) and e.enemy == uid and e.origin == "staging"


def _engaged_player(s: LcgState, e: Event, uid: Uid) -> dict[str, object]:
    return {"player": getattr(e, "player", "")}


# -- the Corsair deck ---------------------------------------------------------------------------


def _exhausted_by_player(e: Event) -> tuple[Uid, ...]:
    if isinstance(e, ev.CardsExhausted):
        return e.cards
    if isinstance(e, ev.CharactersCommitted):
        return e.cards
    return ()


def _ship_exhausted(s: LcgState, e: Event, uid: Uid) -> bool:
    seat = table.holder(s, uid)
    if seat is None or s.attack is not None:
        return False
    return any(ships.is_ship_objective(s, u) and table.holder(s, u) == seat for u in _exhausted_by_player(e))


# Brash Corsair — "Forced: after the engaged player exhausts a ship-objective they control,
# Brash Corsair makes an attack against that player." Reading: exhausting to quest or to
# pay a cost; not while an attack is being resolved (a ship declared as a defender or an
# attacker is part of that attack).
text(
    BRASH_CORSAIR,
    forced=(
        Trigger(
            (ev.CardsExhausted, ev.CharactersCommitted),
            _ship_exhausted,
            Call("lcg.combat.enemy-attack", lambda rt: {"enemy": SELF(rt), "player": _holder(rt)}),
        ),
    ),
)


def _pillaged(s: LcgState, e: Event, uid: Uid) -> bool:
    return ship_keywords.pillaged_event(s, e, uid)


def _your_attachments(rt: Runtime) -> list[Uid]:
    s = st(rt)
    seat = _holder(rt)
    return [a for a in s.zone("attachments") if s.cards[a].owner == seat]


# Corsair Plunderer — "Pillage 2. Forced: after Corsair Plunderer's Pillage discards an
# event, discard an attachment you control."
text(
    PLUNDERER,
    forced=(
        Trigger(
            ev.CardsDiscarded,
            _pillaged,
            choose(
                _holder,
                "Corsair Plunderer: discard an attachment you control",
                _your_attachments,
                "gone",
                emit(lambda rt: ev.CardsDiscarded(cards=tuple(chosen(rt, "gone")))),
            ),
        ),
    ),
)

# Daring Buccaneer — "Pillage 3. Forced: after Daring Buccaneer's Pillage discards an
# event, deal 1 damage to a character you control."
text(
    BUCCANEER,
    forced=(
        Trigger(
            ev.CardsDiscarded,
            _pillaged,
            choose(
                _holder,
                "Daring Buccaneer: deal 1 damage to a character you control",
                lambda rt: table.characters(st(rt), _holder(rt)),
                "hit",
                deal_damage(lambda rt: int(rt.env["hit"]), 1),
            ),
        ),
    ),
)

# Fierce Marauder — "Pillage 3. Forced: after Fierce Marauder's Pillage discards an event,
# a hero you control loses 1 resource."
text(
    MARAUDER,
    forced=(
        Trigger(
            ev.CardsDiscarded,
            _pillaged,
            choose(
                _holder,
                "Fierce Marauder: a hero of yours loses 1 resource",
                lambda rt: [h for h in table.heroes(st(rt), _holder(rt)) if st(rt).cards[h].resources],
                "poorer",
                emit(lambda rt: ev.ResourcesLost(card=int(rt.env["poorer"]), amount=1)),
            ),
        ),
    ),
)


def _sailors_ships(s: LcgState) -> int:
    """Southron Sailor: "While Southron Sailor is engaged with you, each ship-enemy engaged
    with you contributes its threat to the total threat in the staging area"."""
    total = 0
    for seat in s.active_seats():
        engaged = s.zone(f"{seat}.engaged")
        if any(s.cards[u].code == SOUTHRON_SAILOR for u in engaged):
            total += sum(table.threat_of(s, u) for u in engaged if ships.is_ship_enemy(s, u))
    return total


table.THREAT_AURAS.append(table.needs(_sailors_ships, SOUTHRON_SAILOR))


def _umbar_captain(s: LcgState, seat: Seat, enemy: Uid) -> bool:
    """Umbar Captain: "While Umbar Captain is engaged with you, you cannot attack ship-enemies"."""
    return ships.is_ship_enemy(s, enemy) and any(s.cards[u].code == UMBAR_CAPTAIN for u in s.zone(f"{seat}.engaged"))


ships.ATTACK_BANS.append(table.needs(_umbar_captain, UMBAR_CAPTAIN))

# -- ship-enemies ---------------------------------------------------------------------------------


def _in_staging_value(code: str, keyword: str, amount: int) -> ship_keywords.ValueAura:
    def aura(s: LcgState, uid: Uid, name: str) -> int:
        card = s.cards[uid]
        return amount if name == keyword and card.code == code and card.zone == "staging" else 0

    return aura


ship_keywords.VALUE_AURAS.append(
    table.needs(("its own text", _in_staging_value(BLACK_SAILS, "Archery", 3)), BLACK_SAILS)
)
ship_keywords.VALUE_AURAS.append(
    table.needs(("its own text", _in_staging_value(CORSAIR_WARSHIP, "Archery", 4)), CORSAIR_WARSHIP)
)


def _return_flag(enemy: Uid) -> str:
    return f"return-after-attack:{enemy}"


def _flagged_return(s: LcgState, event: Event) -> dict[str, object] | None:
    assert isinstance(event, ev.AttackResolved)
    if (
        not event.by_enemy
        or event.cancelled
        or not s.limit_used(_return_flag(event.enemy))
        or s.cards[event.enemy].zone == "staging"
    ):
        return None
    return {"enemy": event.enemy}


def _back_to_staging(rt: Runtime) -> Event | None:
    return (
        ev.CardMoved(card=int(rt.env["enemy"]), to="staging")
        if table.is_in_play(st(rt), int(rt.env["enemy"]))
        else None
    )


register("thftd-026.return", emit(_back_to_staging), rule="thftd-026.shadow")
ship_keywords.hook(ev.AttackResolved, "thftd-026.return", _flagged_return, needs=(BLACK_SAILS,))

# Black Sails — "Boarding 2. Cannot have attachments. While Black Sails is in the staging
# area, it gains Archery 3. Shadow: if the attacking enemy is a Ship, return it to the
# staging area after this attack."
text(
    BLACK_SAILS,
    shadow=If(
        lambda rt: ships.is_ship(st(rt), attacker(rt)),
        emit(lambda rt: LimitUsed(key=_return_flag(attacker(rt)), until="phase")),
    ),
)


def _ask_threat_or_boarding(threat: int) -> Callable[[Runtime], Ask]:
    def ask(rt: Runtime) -> Ask:
        options = [Option("threat", f"Raise your threat by {threat}"), Option("boarding", "It gains Boarding 1")]
        return Ask(PLAYER(rt), f"{table.name(st(rt), SELF(rt))} engaged you: choose", options, about=SELF(rt))

    return ask


def _threat_or_boarding(threat: int) -> Trigger:
    return Trigger(
        ev.EnemyEngaged,
        _engaged_from_staging,
        Decide(
            _ask_threat_or_boarding(threat),
            "choice",
            Case(
                "choice",
                {
                    "threat": raise_threat(PLAYER, threat),
                    "boarding": ship_keywords.gain(SELF, "Boarding", 1, "phase"),
                },
            ),
        ),
        bind=_engaged_player,
    )


# Corsair Skiff — "Surge. Cannot have attachments. Forced: after Corsair Skiff engages you
# from the staging area, either raise your threat by 3 or it gains Boarding 1."
text(SKIFF, forced=(_threat_or_boarding(3),))


def _skirmisher_destroyed(s: LcgState, e: Event, uid: Uid) -> bool:
    attack = s.attack
    if not isinstance(e, ev.EnemyDefeated) or e.enemy != uid or attack is None or attack.enemy != uid:
        return False
    return _crew_willpower(s, attack.player) >= 3


def _crew(s: LcgState, seat: Seat) -> list[Uid]:
    return [u for u in s.zone(f"{seat}.allies") if not ships.is_ship_objective(s, u)]


def _crew_willpower(s: LcgState, seat: Seat) -> int:
    return sum(table.willpower(s, u) for u in _crew(s, seat))


CREW = "crew-willpower"
"""The willpower of the allies discarded so far for Corsair Skirmisher's Response."""


def _crew_discarded(rt: Runtime) -> int:
    return st(rt).modifier_total(SELF(rt), CREW) if st(rt).modifiers else 0


def _taken_over(s: LcgState, uid: Uid, which: str) -> int:
    """A Corsair Skirmisher taken over as a ship-objective has willpower equal to its threat."""
    return table.defn(s, uid).threat if which == "willpower" and ships.is_ship_objective(s, uid) else 0


# Corsair Skirmisher — "Boarding 1. Immune to player card effects. Response: after Corsair
# Skirmisher is destroyed, the engaged player may discard allies they control with a total
# of at least 3 Willpower to take control of it as a ship-objective (its willpower equals
# its threat)." Reading: the engaged player is the one whose attack destroyed it (the
# Response needs an attack to know it); allies are discarded one at a time until their
# willpower reaches 3.
ships.TAKERS.add(SKIRMISHER)
text(
    SKIRMISHER,
    stat=_taken_over,
    responses=(
        Trigger(
            ev.EnemyDefeated,
            _skirmisher_destroyed,
            Seq(
                Repeat(
                    choose(
                        PLAYER,
                        "Corsair Skirmisher: discard an ally you control (3 willpower in all)",
                        lambda rt: _crew(st(rt), PLAYER(rt)),
                        "hand",
                        Seq(
                            emit(
                                lambda rt: ModifierAdded(
                                    modifier=Modifier(
                                        SELF(rt), CREW, table.willpower(st(rt), int(rt.env["hand"])), "phase", SELF(rt)
                                    )
                                )
                            ),
                            emit(lambda rt: ev.CardsDiscarded(cards=(int(rt.env["hand"]),))),
                        ),
                    ),
                    until=lambda rt: _crew_discarded(rt) >= 3 or not _crew(st(rt), PLAYER(rt)),
                ),
                If(
                    lambda rt: _crew_discarded(rt) >= 3,
                    Seq(
                        emit(lambda rt: ev.CardMoved(card=SELF(rt), to=f"{PLAYER(rt)}.allies")),
                        emit(lambda rt: LimitUsed(key=f"{ships.TAKEN}{SELF(rt)}", until="game")),
                    ),
                ),
            ),
            optional=True,
            prompt="Corsair Skirmisher destroyed: discard allies (3 willpower) to take it as a ship?",
            zone="subject",
            bind=lambda s, e, uid: {"player": s.attack.player if s.attack is not None else s.first},
        ),
    ),
)

# Corsair Warship — "Boarding 3. Cannot have attachments. While Corsair Warship is in the
# staging area, it cannot take damage and gains Archery 4."
caps.DAMAGE_CAPS[CORSAIR_WARSHIP] = lambda s, uid: 0 if s.cards[uid].zone == "staging" else 1 << 30

# Ramming Ship — "Forced: after Ramming Ship engages you, it gets +4 Attack until the end
# of the round. Shadow: put the top card of the Corsair deck into play engaged with you and
# deal it 1 shadow card."
text(
    RAMMING_SHIP,
    forced=(Trigger(ev.EnemyEngaged, _engaged_self, modify(lambda rt: [SELF(rt)], "attack", 4, "round")),),
    shadow=corsair_with_shadow(defending_player),
)


def _slave_ship_hits_ship(s: LcgState, e: Event, uid: Uid) -> bool:
    attack = s.attack
    return (
        isinstance(e, ev.DamageDealt)
        and attack is not None
        and attack.enemy == uid
        and not attack.attackers
        and ships.is_ship_objective(s, e.card)
    )


def _non_ships(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for u in table.characters(s, str(rt.env["defending"])) if not ships.is_ship_objective(s, u)]


# Slave Ship — "Boarding 1. Cannot have attachments. For each point of damage Slave Ship's
# attack deals to a ship-objective, the defending player deals 1 damage to a non-ship
# character they control."
text(
    SLAVE_SHIP,
    forced=(
        Trigger(
            ev.DamageDealt,
            _slave_ship_hits_ship,
            spread_damage(
                lambda rt: str(rt.env["defending"]),
                lambda rt: int(rt.env["amount"]),
                _non_ships,
                "Slave Ship: deal 1 damage to a non-ship character you control",
            ),
            bind=lambda s, e, uid: {
                "amount": getattr(e, "amount", 0),
                "defending": s.attack.player if s.attack is not None else s.first,
            },
        ),
    ),
)

# War Galley — "Archery 2. Boarding 1. Cannot have attachments. Forced: after War Galley
# engages you from the staging area, either raise your threat by 4 or it gains Boarding 1."
# (Gaining Boarding 1 it has Boarding 2: keyword values add, see rules/ship_keywords.py.)
text(WAR_GALLEY, forced=(_threat_or_boarding(4),))


def _ships_in_play(s: LcgState) -> list[Uid]:
    enemies = [u for u in table.enemies_in_play(s) if ships.is_ship_enemy(s, u)]
    return enemies + [u for p in s.active_seats() for u in ships.ship_objectives(s, p)]


def _weakest_ships(rt: Runtime) -> list[Uid]:
    s = st(rt)
    found = _ships_in_play(s)
    if not found:
        return []
    left = {u: table.hit_points(s, u) - s.cards[u].damage for u in found}
    low = min(left.values())
    return [u for u in found if left[u] == low]


ships.FIGHTS_SHIPS.add(SEA_MONSTER)

# Sea Monster — "Ship-objectives can attack and defend against Sea Monster. When Revealed:
# deal 4 damage to the ship (ship-enemy or ship-objective) with the fewest remaining hit
# points." On a tie the first player chooses (Core Set FAQ 1.03: the first player decides
# ties the players cannot settle).
text(
    SEA_MONSTER,
    when_revealed=choose(
        FIRST_PLAYER,
        "Sea Monster: which of the weakest ships takes 4 damage?",
        _weakest_ships,
        "ship",
        deal_damage(lambda rt: int(rt.env["ship"]), 4),
    ),
)

# -- locations ----------------------------------------------------------------------------------------


def _explored_self(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.LocationExplored) and e.card == uid


def _all_pools(s: LcgState) -> int:
    return sum(s.cards[h].resources for p in s.active_seats() for h in table.heroes(s, p))


def _fleet(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for p in s.active_seats() for u in ships.ship_objectives(s, p)]


def _ask_shipyard(rt: Runtime) -> Ask | None:
    s = st(rt)
    if _all_pools(s) < 5 or not (_fleet(rt) or other_groups(s)):
        return None
    options = [Option("yes", "Pay 5 resources together to repair and upgrade a ship"), Option("no", "Do not pay")]
    return Ask(s.first, "Belfalas Shipyard was explored: the players may pay 5 resources", options)


def _repair(ship: Callable[[Runtime], Uid]) -> Node:
    return Seq(heal(ship, 5), ready(lambda rt: [ship(rt)]), flip(ship))


relayed(
    "shipyard-repair",
    "Belfalas Shipyard (another group): heal 5 damage on a ship-objective here; it readies and flips to Upgraded",
    _fleet,
    lambda ship: Seq(heal(ship, sent_amount), ready(lambda rt: [ship(rt)]), flip(ship)),
)


def _pay_from_anyone(rt: Runtime) -> Event:
    return ev.ResourcesPaid(payments=(ev.Payment(int(rt.env["payer"]), 1),))


# Belfalas Shipyard — "Response: after Belfalas Shipyard is explored as the active location,
# the players may pay 5 resources (from any heroes' pools) to heal 5 damage on a
# ship-objective (in any group); it readies and flips to its Upgraded side. Shadow: the
# attacking enemy gets +1 Attack and gains Pillage 3 for this attack." The first player
# speaks for the table (seed: the first player decides disputes); the resources come one at
# a time from heroes of any player. In an epic event the first player picks the group of
# the ship first (they may pay with no ship of their own, for another group's).
text(
    BELFALAS,
    responses=(
        Trigger(
            ev.LocationExplored,
            _explored_self,
            Decide(
                _ask_shipyard,
                "pay",
                If(
                    lambda rt: rt.env["pay"] == "yes",
                    Seq(
                        ForEach(
                            lambda rt: [0, 1, 2, 3, 4],
                            "paid",
                            choose(
                                FIRST_PLAYER,
                                "Belfalas Shipyard: pay 1 resource from which hero's pool?",
                                lambda rt: [
                                    h
                                    for p in st(rt).active_seats()
                                    for h in table.heroes(st(rt), p)
                                    if st(rt).cards[h].resources
                                ],
                                "payer",
                                emit(_pay_from_anyone),
                            ),
                        ),
                        in_any_group(
                            FIRST_PLAYER,
                            "Belfalas Shipyard: repair and upgrade a ship-objective in which group?",
                            "shipyard-repair",
                            5,
                            _fleet,
                            lambda: choose(
                                FIRST_PLAYER,
                                "Belfalas Shipyard: which ship-objective is repaired and upgraded?",
                                _fleet,
                                "ship",
                                _repair(lambda rt: int(rt.env["ship"])),
                            ),
                        ),
                    ),
                ),
            ),
            zone="subject",
        ),
    ),
    shadow=Seq(
        modify(lambda rt: [attacker(rt)], "attack", 1, "attack"), ship_keywords.gain(attacker, "Pillage", 3, "attack")
    ),
)


def _cobas_haven(s: LcgState, uid: Uid, name: str) -> int:
    """Cobas Haven: "While Cobas Haven is the active location, each ship-enemy gets -1 Boarding"."""
    if name != "Boarding" or not ships.is_ship_enemy(s, uid):
        return 0
    return -sum(1 for a in s.zone("active") if s.cards[a].code == COBAS_HAVEN)


ship_keywords.VALUE_AURAS.append(table.needs(("Cobas Haven", _cobas_haven), COBAS_HAVEN))


def _entered_staging(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.CardMoved) and e.card == uid and e.to == "staging"


FORTUNE = "fortune"
"""The resources on Isle of Fortune, kept as a lasting count on the card: they must still be
known when it is explored and leaves play (its tokens leave with it)."""


def fortune(s: LcgState, uid: Uid) -> int:
    return s.modifier_total(uid, FORTUNE) if s.modifiers else 0


table.KEPT_RESOURCES.append(
    table.scoped(
        table.needs(lambda s, uid: fortune(s, uid) if s.cards[uid].code == ISLE_OF_FORTUNE else 0, ISLE_OF_FORTUNE),
        ISLE_OF_FORTUNE,
    )
)


def _ship_enemy_entered(s: LcgState, e: Event, uid: Uid) -> bool:
    if not fortune(s, uid) or s.cards[uid].zone not in ("staging", "active"):
        return False
    if isinstance(e, ev.CardMoved) and e.to == "staging":
        return e.card != uid and ships.is_ship_enemy(s, e.card) and e.card in s.zone("staging")
    return isinstance(e, ev.EnemyEngaged) and e.origin not in ("staging", "") and ships.is_ship_enemy(s, e.enemy)


def _heroes_of_all(rt: Runtime) -> list[Uid]:
    return [h for p in st(rt).active_seats() for h in table.heroes(st(rt), p)]


def _fortune_changed(amount: Callable[[Runtime], int]) -> Node:
    return emit(lambda rt: ModifierAdded(modifier=Modifier(SELF(rt), FORTUNE, amount(rt), "game", SELF(rt))))


# Isle of Fortune — "When Isle of Fortune enters play, place 1 resource on it per player.
# Forced: after a ship-enemy enters play, remove 1 resource from Isle of Fortune.
# Response: after Isle of Fortune is explored as the active location, move its resources
# to the pools of heroes (the first player places each one)."
text(
    ISLE_OF_FORTUNE,
    forced=(
        Trigger(
            ev.CardMoved,
            _entered_staging,
            _fortune_changed(lambda rt: group_players(st(rt)) - fortune(st(rt), SELF(rt))),
        ),
        Trigger((ev.CardMoved, ev.EnemyEngaged), _ship_enemy_entered, _fortune_changed(lambda rt: -1)),
    ),
    responses=(
        Trigger(
            ev.LocationExplored,
            lambda s, e, uid: _explored_self(s, e, uid) and fortune(s, uid) > 0,
            Seq(
                ForEach(
                    lambda rt: list(range(fortune(st(rt), SELF(rt)))),
                    "coin",
                    choose(
                        FIRST_PLAYER,
                        "Isle of Fortune: place 1 resource in which hero's pool?",
                        _heroes_of_all,
                        "hero",
                        emit(lambda rt: ev.ResourcesAdded(cards=(int(rt.env["hero"]),))),
                    ),
                ),
                _fortune_changed(lambda rt: -fortune(st(rt), SELF(rt))),
            ),
            zone="subject",
        ),
    ),
)


def _in_staging(s: LcgState, uid: Uid) -> bool:
    return s.cards[uid].zone == "staging"


# Mouths of Anduin — "While Mouths of Anduin is in the staging area, it gains: 'Forced:
# after a When Revealed effect is canceled, reveal the top card of the encounter deck.'
# Shadow: if this attack is undefended, reveal the top card of the encounter deck."
text(
    MOUTHS_OF_ANDUIN,
    forced=(
        Trigger(
            ev.EffectCancelled,
            lambda s, e, uid: _in_staging(s, uid) and isinstance(e, ev.EffectCancelled) and e.effect == "when-revealed",
            reveal_encounter_card(),
        ),
    ),
    shadow=If(undefended, reveal_encounter_card()),
)


def _player_card_draw(s: LcgState, e: Event, uid: Uid) -> bool:
    if not _in_staging(s, uid) or not isinstance(e, ev.CardsDrawn):
        return False
    source = e.cause.card
    return source is not None and source in s.cards and table.defn(s, source).encounter_set is None


# Tolfalas Landing — "While Tolfalas Landing is in the staging area, it gains: 'Forced:
# after a player card effect causes a player to draw N cards, that player raises their
# threat by N.' Shadow: raise your threat by 1 (by 3 if you have 5 or more cards in hand)."
text(
    TOLFALAS,
    forced=(
        Trigger(
            ev.CardsDrawn,
            _player_card_draw,
            emit(lambda rt: ev.ThreatRaised(player=str(rt.env["drew"]), amount=int(rt.env["n"]))),
            bind=lambda s, e, uid: {"drew": getattr(e, "player", ""), "n": len(getattr(e, "cards", ()))},
        ),
    ),
    shadow=raise_threat(defending_player, lambda rt: 3 if len(table.hand(st(rt), defending_player(rt))) >= 5 else 1),
)


def _cove_shelters(s: LcgState, uid: Uid, keyword: str) -> bool:
    """Wicked Cove: "Locations in the staging area are immune to player card effects"."""
    if keyword != IMMUNE or s.cards[uid].zone != "staging" or table.defn(s, uid).type != "location":
        return False
    return any(s.cards[u].code == WICKED_COVE for u in s.zone("staging") + s.zone("active"))


table.KEYWORD_AURAS.append(table.needs(_cove_shelters, WICKED_COVE))

# Wicked Cove — "Locations in the staging area are immune to player card effects. Shadow:
# until the end of the round, the attacking enemy gains 'Immune to player card effects'
# and gets +2 Defense."
text(
    WICKED_COVE,
    shadow=Seq(
        ship_keywords.gain(attacker, IMMUNE, 1, "round"), modify(lambda rt: [attacker(rt)], "defense", 2, "round")
    ),
)

# -- treacheries -------------------------------------------------------------------------------------


def _distribute(seat: Callable[[Runtime], Seat], count: Callable[[Runtime], int], prompt: str) -> ForEach:
    """``seat`` deals ``count`` damage, one at a time, among the characters it controls."""
    return spread_damage(seat, count, lambda rt: table.characters(st(rt), seat(rt)), prompt)


def _ship_enemies(rt: Runtime) -> list[Uid]:
    return [u for u in table.enemies_in_play(st(rt)) if ships.is_ship_enemy(st(rt), u)]


# Ballista Barrage — "Doomed 1. When Revealed: until the end of the round, each ship-enemy
# gains Archery 2. Shadow: deal 2 damage divided as you choose among characters you
# control (3 if your discard pile has 10 or more cards)."
text(
    BALLISTA,
    when_revealed=ForEach(
        _ship_enemies, "ship", ship_keywords.gain(lambda rt: int(rt.env["ship"]), "Archery", 2, "round")
    ),
    shadow=_distribute(
        defending_player,
        lambda rt: 3 if len(st(rt).zone(f"{defending_player(rt)}.discard")) >= 10 else 2,
        "Ballista Barrage: deal 1 damage to a character you control",
    ),
)


def _ship_exhausted_of(rt: Runtime) -> bool:
    s = st(rt)
    return any(s.cards[u].exhausted for u in ships.ship_objectives(s, defending_player(rt)))


# Boarding Party — "When Revealed: each player puts the top card of the Corsair deck into
# play engaged with them. Shadow: the attacking enemy gets +1 Attack (+2 instead if a
# ship-objective you control is exhausted)."
text(
    BOARDING_PARTY,
    when_revealed=each_player(ship_keywords.engage_from_corsair_deck(PLAYER)),
    shadow=If(
        _ship_exhausted_of,
        modify(lambda rt: [attacker(rt)], "attack", 2, "attack"),
        modify(lambda rt: [attacker(rt)], "attack", 1, "attack"),
    ),
)


def _all_ships(rt: Runtime) -> list[Uid]:
    s = st(rt)
    return [u for p in s.active_seats() for u in ships.ship_objectives(s, p)]


def _attach_to(var: str) -> Node:
    return emit(lambda rt: ev.AttachmentAttached(card=SELF(rt), to=int(rt.env[var])))


def _defender_ship(rt: Runtime) -> bool:
    d = rt.env.get("defender")
    return d not in (None, "undefended") and ships.is_ship_objective(st(rt), int(d))


def _host_controller_may_exhaust(s: LcgState, uid: Uid, seat: Seat) -> bool:
    return len(table.ready_characters(s, seat)) >= 3


def _condition(code: str, when_revealed_prompt: str, extra: tuple[Trigger, ...] = ()) -> None:
    """Grappled! and Taking on Water: a condition on a ship-objective, discarded by an
    Action any player may take (exhaust 3 characters they control: an encounter condition is
    controlled by nobody, FAQ 1.06); as a shadow card it attaches to a ship-objective that
    defends."""
    text(
        code,
        when_revealed=choose(FIRST_PLAYER, when_revealed_prompt, _all_ships, "ship", _attach_to("ship")),
        shadow=If(_defender_ship, emit(lambda rt: ev.AttachmentAttached(card=SELF(rt), to=int(rt.env["defender"])))),
        forced=extra,
        actions=(
            Action(
                _host_controller_may_exhaust,
                Seq(
                    ability_used("action"),
                    choose(
                        PLAYER,
                        f"{CARDS[code].name}: exhaust 3 characters you control to discard it",
                        lambda rt: table.ready_characters(st(rt), PLAYER(rt)),
                        "tired",
                        Seq(
                            exhaust(lambda rt: chosen(rt, "tired")),
                            emit(lambda rt: ev.CardsDiscarded(cards=(SELF(rt),))),
                        ),
                        count=3,
                    ),
                ),
                "exhaust 3 characters you control to discard it",
                anyone=True,
            ),
        ),
    )


# Grappled! — "When Revealed: attach to a ship-objective (the first player chooses).
# Condition. Attached ship-objective cannot ready. Action: exhaust 3 characters you control
# to discard Grappled!. Shadow: if the defending character is a ship-objective, attach
# Grappled! to it."
table.FORBIDS_READYING.add(GRAPPLED)
_condition(GRAPPLED, "Grappled!: attach it to a ship-objective")


def _host_exhausted(s: LcgState, e: Event, uid: Uid) -> bool:
    host = s.cards[uid].attached_to
    if host is None or s.cards[uid].zone != "attachments":
        return False
    if isinstance(e, ev.CardsExhausted | ev.CharactersCommitted):
        return host in e.cards
    if isinstance(e, ev.AttackersDeclared):
        return host in e.attackers
    return isinstance(e, ev.DefenderDeclared) and e.defender == host


# Taking on Water — "When Revealed: attach to a ship-objective (the first player chooses).
# Condition. Forced: after attached ship-objective exhausts, deal 2 damage to it. Action:
# exhaust 3 characters you control to discard Taking on Water. Shadow: if the defending
# character is a ship-objective, attach Taking on Water to it."
_condition(
    TAKING_ON_WATER,
    "Taking on Water: attach it to a ship-objective",
    (
        Trigger(
            (ev.CardsExhausted, ev.CharactersCommitted, ev.AttackersDeclared, ev.DefenderDeclared),
            _host_exhausted,
            deal_damage(lambda rt: st(rt).cards[SELF(rt)].attached_to, 2),
        ),
    ),
)


def _mist_enemies(rt: Runtime) -> list[Uid]:
    s = st(rt)
    able = [u for u in table.staging_enemies(s) if not table.has_keyword(s, u, "Massive")]
    if not able:
        return []
    top = max(table.engagement_cost(s, u) for u in able)
    return [u for u in able if table.engagement_cost(s, u) == top]


def _again_flag(enemy: Uid) -> str:
    return f"attacks-again:{enemy}"


def _flagged_again(s: LcgState, event: Event) -> dict[str, object] | None:
    assert isinstance(event, ev.AttackResolved)
    if not event.by_enemy or event.cancelled or not s.limit_used(_again_flag(event.enemy)):
        return None
    seat = table.holder(s, event.enemy)
    return {"enemy": event.enemy, "player": seat} if seat is not None else None


register(
    "thftd-043.again",
    Seq(
        emit(lambda rt: ModifierAdded(modifier=Modifier(int(rt.env["enemy"]), "attacked-again", 1, "phase"))),
        Call("lcg.combat.enemy-attack", lambda rt: {"enemy": rt.env["enemy"], "player": rt.env["player"]}),
    ),
    rule="thftd-043.shadow",
)
ship_keywords.hook(
    ev.AttackResolved,
    "thftd-043.again",
    lambda s, e: (
        _flagged_again(s, e)
        if not (s.modifiers and s.modifier_total(getattr(e, "enemy", 0), "attacked-again"))
        else None
    ),
    needs=(OUT_OF_THE_MIST,),
)


def _ask_mist_shadow(rt: Runtime) -> Ask:
    options = [Option("threat", "Raise your threat by 4"), Option("again", "The attacking enemy attacks you again")]
    return Ask(defending_player(rt), "Out of the Mist (shadow): choose", options)


def _made_no_attack(rt: Runtime) -> bool:
    return not st(rt).limit_used(f"mist-attacked:{SELF(rt)}")


# Out of the Mist — "When Revealed: the enemy in the staging area with the highest
# engagement cost engages the first player and makes an attack against them. If no attack
# is made this way, Out of the Mist gains surge. Shadow: either raise your threat by 4, or
# after this attack the attacking enemy makes another attack against you." A tie for the
# highest cost is settled by the first player (Core Set rulebook, engagement checks: the
# engaged player chooses among tied enemies).
text(
    OUT_OF_THE_MIST,
    when_revealed=Seq(
        choose(
            FIRST_PLAYER,
            "Out of the Mist: which enemy engages you?",
            _mist_enemies,
            "mist",
            Seq(
                emit(lambda rt: ev.EnemyEngaged(enemy=int(rt.env["mist"]), player=st(rt).first, origin="staging")),
                Call("lcg.combat.enemy-attack", lambda rt: {"enemy": rt.env["mist"], "player": st(rt).first}),
                emit(lambda rt: LimitUsed(key=f"mist-attacked:{SELF(rt)}", until="phase")),
            ),
        ),
        If(_made_no_attack, emit(lambda rt: ev.SurgeGained(card=SELF(rt)))),
    ),
    shadow=Decide(
        _ask_mist_shadow,
        "mist",
        Case(
            "mist",
            {
                "threat": raise_threat(defending_player, 4),
                "again": emit(lambda rt: LimitUsed(key=_again_flag(attacker(rt)), until="phase")),
            },
        ),
    ),
)


def _allies(s: LcgState, seat: Seat) -> int:
    return len(s.zone(f"{seat}.allies"))


def _seven_allies(s: LcgState) -> bool:
    return any(_allies(s, p) >= 7 for p in s.active_seats())


OVERWORKED_FLAG = "overworked"


def _overworked(s: LcgState, uid: Uid) -> bool:
    """Overworked: until the end of the round, non-ship allies have blank text boxes (their
    Responses, Forced effects, Actions and passive stats do nothing)."""
    return s.limit_used(OVERWORKED_FLAG) and table.defn(s, uid).type == "ally"


table.BLANKING.append(table.scoped(table.needs(_overworked, OVERWORKED), "ally"))

# Overworked — "When Revealed: until the end of the round, each non-ship ally has a blank
# text box (Traits still count). If a player controls 7 or more allies, Overworked gains
# surge. Shadow: the attacking enemy gets +1 Attack (+3 if you control 7 or more allies)."
# Ship-objectives are of their own card type, so "ally" here is every non-ship ally.
text(
    OVERWORKED,
    when_revealed=Seq(
        emit(lambda rt: LimitUsed(key=OVERWORKED_FLAG, until="round")),
        If(lambda rt: _seven_allies(st(rt)), emit(lambda rt: ev.SurgeGained(card=SELF(rt)))),
    ),
    shadow=If(
        lambda rt: _allies(st(rt), defending_player(rt)) >= 7,
        modify(lambda rt: [attacker(rt)], "attack", 3, "attack"),
        modify(lambda rt: [attacker(rt)], "attack", 1, "attack"),
    ),
)


def _exhausted_count(rt: Runtime) -> int:
    s = st(rt)
    return sum(1 for u in table.characters(s, PLAYER(rt)) if s.cards[u].exhausted)


def _defended_by(rt: Runtime) -> Uid | None:
    d = rt.env.get("defender")
    return None if d in (None, "undefended") else int(d)


# Violent Tempest — "When Revealed: deal 1 damage to each enemy in play. Then each player
# deals X damage divided among characters they control, where X is the number of exhausted
# characters they control. Shadow: deal 1 damage to the defending character."
text(
    TEMPEST,
    when_revealed=Seq(
        ForEach(lambda rt: table.enemies_in_play(st(rt)), "enemy", deal_damage(lambda rt: int(rt.env["enemy"]), 1)),
        each_player(
            Let(
                lambda rt: {"x": _exhausted_count(rt)},
                _distribute(
                    PLAYER, lambda rt: int(rt.env["x"]), "Violent Tempest: deal 1 damage to a character you control"
                ),
            )
        ),
    ),
    shadow=deal_damage(_defended_by, 1),
)
