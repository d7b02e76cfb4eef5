"""Combat phase: shadow cards, enemy attacks, then player attacks.

Rules (Core Set rulebook, combat phase):
- One shadow card, face down, is dealt to each engaged enemy, player by player from the
  first player, highest engagement cost first; none when the encounter deck is empty.
- Each player resolves the attacks of the enemies engaged with them, highest engagement
  cost first: declare one ready defender (exhausting it; another player's character may
  defend only with Sentinel) or leave the attack undefended; turn the shadow cards over
  and resolve them; a defended attack deals attack minus the defender's defense to the
  defender; an undefended attack deals all its attack to one hero of the defending
  player. "If a defending character leaves play or is removed from combat before damage
  is assigned, the attack is considered undefended" (rulebook p. 18).
- Then each player may attack each enemy engaged with them once, one attack at a time,
  in the order they choose: "After a player's first attack has resolved, he can declare
  another attack against any eligible enemy target that he has not yet attacked this
  round" (Core Set rulebook p. 20, Player Attacks). An attack declares its target, then
  its attackers (exhausting them; another player's character only with Ranged); the
  enemy takes their total attack minus its defense. With their Ranged characters a player
  may also attack an enemy engaged with another player (Ranged, :func:`attackers`).
- Ships (The Hunt for the Dreadnaught): who may defend against and attack which enemy,
  and who takes an undefended attack, is :mod:`domain.lcg.rules.ships`. A Massive enemy
  "is considered to be engaged with each player, and attacks each player in turn during
  the combat phase" (rulebook, Massive). Archery resolves at the beginning of the combat
  phase; Pillage after an enemy's attack (:mod:`domain.lcg.rules.ship_keywords`).
- The attacked (or attacking) player declares another player's Sentinel defender or
  Ranged attacker; its controller is not asked separately (seed 001: "Defender (exhaust)
  or undefended, by player: a ready character, own or another player's Sentinel").
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.decisions import Kind, Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Break, Call, Decide, ForEach, If, InChosenOrder, Let, Node, Repeat, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import encounter_events as xev
from domain.lcg import events as ev
from domain.lcg.effects import card_option, choose, each_player, emit, st
from domain.lcg.rules import caps, ships, table
from domain.lcg.rules.constant import cannot_fight
from domain.lcg.rules.procedures import end_of
from domain.lcg.rules.table import cards_in, seats_in_turn, text_of
from domain.lcg.rules.windows import window
from domain.lcg.state import LcgState, Seat, Uid


def _engaged_with(rt: Runtime) -> bool:
    """The enemy is engaged with the player, a Massive enemy in the staging area, or a card makes
    it attack them from the staging area (``from_staging``: Smaug the Golden, The Burglar's Turn;
    Belching Fire)."""
    if rt.env.get("from_staging"):
        return True
    return engaged_with(st(rt), int(rt.env["enemy"]), rt.env["player"])


def _massive_in_staging(s: LcgState, enemy: Uid) -> bool:
    """Massive (Hunt for the Dreadnaught rulebook): "cannot leave the staging area, is
    considered to be engaged with each player"."""
    return s.cards[enemy].zone == "staging" and table.has_keyword(s, enemy, "Massive")


STAGING_ENGAGEMENTS: list[Callable[[LcgState, Uid, Seat], bool]] = []
"""Card texts by which an enemy in the staging area is considered engaged with a player, as
Massive is with each player (Smaug the Magnificent: with the first player)."""


def engaged_from_staging(s: LcgState, enemy: Uid, seat: Seat) -> bool:
    """An enemy in the staging area considered engaged with ``seat`` (Massive, or its text)."""
    if _massive_in_staging(s, enemy):
        return True
    return s.cards[enemy].zone == "staging" and any(test(s, enemy, seat) for test in STAGING_ENGAGEMENTS)


def engaged_enemies(s: LcgState, seat: Seat) -> list[Uid]:
    """The enemies engaged with ``seat``, highest engagement cost first, then the enemies in
    the staging area considered engaged with them (Massive: with each player)."""
    return table.engaged(s, seat) + [u for u in table.staging_enemies(s) if engaged_from_staging(s, u, seat)]


# -- shadow cards ------------------------------------------------------------------------


def _deal_shadow(rt: Runtime) -> Event | None:
    s = st(rt)
    deck = cards_in(s, "encounter.deck")
    if not deck or not _engaged_with(rt):
        return None
    return ev.ShadowCardDealt(enemy=int(rt.env["enemy"]), card=deck[0])


def _deal_extra_shadow(rt: Runtime) -> Event | None:
    """Used by texts that deal an attacking enemy another shadow card (Beastmaster)."""
    deck = cards_in(st(rt), "encounter.deck")
    return ev.ShadowCardDealt(enemy=int(rt.env["self"]), card=deck[0]) if deck else None


register("lcg.shadow.deal-extra", emit(_deal_extra_shadow), rule="lcg.combat.shadow")


def _deal_shadow_outside_combat(rt: Runtime) -> Event | None:
    """An enemy that attacks outside the combat phase (a card makes it attack: Smaug the
    Golden after a failed burgle, Out of the Mist, Brash Corsair) is still dealt a shadow card
    as its attack begins, turned over in that attack and discarded once it resolves (FAQ 1.9,
    (1.28) Enemy attacks outside of the combat phase). None when the card says to deal none
    (``no_shadow``: Belching Fire), when it already has its shadow cards for this attack
    (Hydraken's 2, a Massive enemy's), or with the encounter deck empty."""
    s = st(rt)
    if s.phase == "combat" or rt.env.get("no_shadow"):
        return None
    enemy = int(rt.env["enemy"])
    deck = cards_in(s, "encounter.deck")
    if not deck or table.shadows_of(s, enemy):
        return None
    return ev.ShadowCardDealt(enemy=enemy, card=deck[0])


def _deal_massive_shadow(rt: Runtime) -> Event | None:
    """A Massive enemy attacks each player in turn: it is dealt one shadow card for each
    of its attacks as that attack begins. Reading: the rulebook deals one shadow card to
    each engaged enemy per player; a Massive enemy is engaged with each player, and its
    card must belong to one attack, so it is dealt when the attack is declared. An attack a
    card makes at once from the staging area (``from_staging``: Belching Fire, The Burglar's
    Turn) is not a Massive attack: outside the combat phase it has the shadow card of
    :func:`_deal_shadow_outside_combat`, unless its card says to deal none."""
    if rt.env.get("from_staging"):
        return None
    s = st(rt)
    enemy = int(rt.env["enemy"])
    deck = cards_in(s, "encounter.deck")
    if not deck or not engaged_from_staging(s, enemy, rt.env["player"]) or table.shadows_of(s, enemy):
        return None
    return ev.ShadowCardDealt(enemy=enemy, card=deck[0])


# -- enemy attacks -----------------------------------------------------------------------


def defenders(s: LcgState, seat: Seat, enemy: Uid | None = None) -> list[Uid]:
    own = [u for u in table.ready_characters(s, seat) if not cannot_fight(s, u)]
    sentinels = [
        u
        for other in seats_in_turn(s)
        if other != seat
        for u in table.ready_characters(s, other)
        if table.has_keyword(s, u, "Sentinel") and not cannot_fight(s, u)
    ]
    if enemy is None:
        return own + sentinels
    return [u for u in own + sentinels if ships.may_defend(s, u, enemy)]


def _ask_defender(rt: Runtime) -> Ask:
    s = st(rt)
    seat = rt.env["player"]
    enemy = int(rt.env["enemy"])
    options = [card_option(s, u) for u in defenders(s, seat, enemy)]
    prompt = f"{table.name(s, enemy)} attacks (attack {table.attack(s, enemy)}): declare a defender"
    return Ask(seat, prompt, [*options, Option("undefended", "Leave it undefended")], about=enemy)


def _declared(rt: Runtime) -> Event:
    chosen = rt.env["defender"]
    return ev.DefenderDeclared(enemy=int(rt.env["enemy"]), defender=None if chosen == "undefended" else int(chosen))


def _attack_context(rt: Runtime) -> dict[str, object]:
    """What shadow effects read: the attacking enemy, the defender, undefended or not."""
    chosen = rt.env["defender"]
    return {
        "defending": rt.env["player"],
        "undefended": chosen == "undefended",
    }


def _shadow_program(rt: Runtime) -> str | None:
    card = st(rt).cards[int(rt.env["shadow"])]
    if card.cancelled or text_of(card.code).shadow is None:
        return None
    return f"{card.code}.shadow"


def _attacks(rt: Runtime) -> bool:
    """The enemy is engaged with the player and nothing forbids it to attack them (Feint,
    or an attachment: Forest Snare)."""
    s, enemy = st(rt), int(rt.env["enemy"])
    return (
        _engaged_with(rt)
        and table.can_attack(s, enemy, rt.env["player"])
        and not table.attachments_forbid_attack(s, enemy)
    )


def _may_add_defender(rt: Runtime) -> bool:
    return rt.env["defender"] != "undefended" and st(rt).limit_used(table.many_defenders(rt.env["player"]))


def _ask_another_defender(rt: Runtime) -> Ask | None:
    """Stand Together: after the first defender, any number of further eligible ones."""
    s = st(rt)
    if not _engaged_with(rt):
        return None
    enemy = int(rt.env["enemy"])
    options = [card_option(s, u) for u in defenders(s, rt.env["player"], enemy)]
    if not options:
        return None
    prompt = f"{table.name(s, enemy)} attacks (attack {table.attack(s, enemy)}): declare another defender?"
    return Ask(rt.env["player"], prompt, [*options, Option("done", "No more defenders")], about=enemy)


def defenders_left(s: LcgState) -> list[Uid]:
    """The declared defenders of the attack still in play (Rules: a defender that leaves
    play before damage no longer defends; with none left the attack is undefended)."""
    attack = s.attack
    if attack is None:
        return []
    return [d for d in attack.defenders if table.holder(s, d) is not None and table.is_in_play(s, d)]


def _next_shadow(rt: Runtime) -> dict[str, Uid | None]:
    """The attacker's next face-down shadow card. Reading: shadow cards dealt to it while its
    shadow cards resolve (Massing at Night) are its shadow cards for this attack, turned over
    too (Core Set rulebook, Combat: each shadow card dealt to the attacker is resolved)."""
    s = st(rt)
    waiting = [c for c in table.shadows_of(s, int(rt.env["enemy"])) if not s.cards[c].shown]
    return {"shadow": waiting[0] if waiting else None}


def _shadow_resolved(rt: Runtime) -> Event | None:
    """A shadow card with a shadow effect has resolved (Nazgûl of Dol Guldur listens)."""
    card = st(rt).cards[int(rt.env["shadow"])]
    if text_of(card.code).shadow is None:
        return None
    return xev.ShadowEffectResolved(enemy=int(rt.env["enemy"]), card=card.uid)


def _defender_gone(rt: Runtime) -> bool:
    return rt.env["defender"] == "undefended" or not defenders_left(st(rt))


def defense_total(s: LcgState) -> int:
    """The defense an enemy's attack is resolved against: every defender left's (Stand Together)."""
    return sum(table.defense(s, d) for d in defenders_left(s))


def _choose_defender_hit(rt: Runtime) -> bool:
    """With several defenders the player assigns all the damage to one of them (Core Set FAQ,
    Stand Together: "all damage from the attack must be assigned to a single defender")."""
    s = st(rt)
    return len(defenders_left(s)) > 1 and table.attack(s, int(rt.env["enemy"])) > defense_total(s)


def _defended_damage(rt: Runtime) -> Event | None:
    s = st(rt)
    enemy = int(rt.env["enemy"])
    left = defenders_left(s)
    amount = table.attack(s, enemy) - defense_total(s)
    if amount <= 0 or not left:
        return None
    hit = int(rt.env["hit"]) if "hit" in rt.env else left[0]
    return ev.DamageDealt(card=hit, amount=amount)


def _undefended_damage(rt: Runtime) -> Event | None:
    s = st(rt)
    amount = table.attack(s, int(rt.env["enemy"]))
    if "hero" not in rt.env:
        return None
    hero = int(rt.env["hero"])
    return ev.DamageDealt(card=hero, amount=amount) if amount > 0 else None


def _shadows_discarded(rt: Runtime) -> Event | None:
    shadows = tuple(table.shadows_of(st(rt), int(rt.env["enemy"])))
    return ev.CardsDiscarded(cards=shadows) if shadows else None


ENEMY_ATTACK = register(
    "lcg.combat.enemy-attack",
    If(
        _attacks,
        Seq(
            emit(lambda rt: ev.AttackDeclared(enemy=int(rt.env["enemy"]), player=rt.env["player"])),
            emit(_deal_massive_shadow, rule="lcg.keyword.massive"),
            emit(_deal_shadow_outside_combat, rule="lcg.combat.shadow-outside-combat"),
            If(
                _attacks,
                Decide(
                    _ask_defender,
                    "defender",
                    Seq(
                        emit(_declared),
                        If(
                            _may_add_defender,
                            Repeat(
                                Decide(
                                    _ask_another_defender,
                                    "another",
                                    If(
                                        lambda rt: rt.env["another"] == "done",
                                        Break(),
                                        emit(
                                            lambda rt: ev.DefenderDeclared(
                                                enemy=int(rt.env["enemy"]), defender=int(rt.env["another"])
                                            )
                                        ),
                                    ),
                                    otherwise=Break(),
                                )
                            ),
                            rule="lcg.combat.declare-defenders",
                        ),
                        Let(
                            _attack_context,
                            Seq(
                                Repeat(
                                    Let(
                                        _next_shadow,
                                        If(
                                            lambda rt: rt.env["shadow"] is None or not _engaged_with(rt),
                                            Break(),
                                            Seq(
                                                emit(
                                                    lambda rt: ev.ShadowCardRevealed(
                                                        enemy=int(rt.env["enemy"]), card=int(rt.env["shadow"])
                                                    )
                                                ),
                                                Call(
                                                    _shadow_program,
                                                    lambda rt: {
                                                        "enemy": rt.env["enemy"],
                                                        "defending": rt.env["defending"],
                                                        "defender": rt.env["defender"],
                                                        "undefended": rt.env["undefended"],
                                                        "self": rt.env["shadow"],
                                                        "_card": rt.env["shadow"],
                                                    },
                                                ),
                                                emit(_shadow_resolved),
                                            ),
                                        ),
                                    ),
                                    rule="lcg.combat.shadow",
                                ),
                                If(
                                    _engaged_with,
                                    If(
                                        _defender_gone,
                                        choose(
                                            lambda rt: rt.env["player"],
                                            "Undefended attack: choose the hero who takes the damage",
                                            lambda rt: ships.undefended_targets(
                                                st(rt), rt.env["player"], int(rt.env["enemy"])
                                            ),
                                            "hero",
                                            emit(_undefended_damage),
                                            rule="lcg.combat.undefended-damage",
                                        ),
                                        If(
                                            _choose_defender_hit,
                                            choose(
                                                lambda rt: rt.env["player"],
                                                "Several defenders: choose the one who takes the damage",
                                                lambda rt: defenders_left(st(rt)),
                                                "hit",
                                                emit(_defended_damage),
                                            ),
                                            emit(_defended_damage),
                                            rule="lcg.combat.defended-damage",
                                        ),
                                    ),
                                ),
                                Call(
                                    "lcg.combat.attack-made",
                                    lambda rt: {"enemy": rt.env["enemy"], "player": rt.env["player"]},
                                ),
                                emit(lambda rt: ev.AttackResolved(enemy=int(rt.env["enemy"]), by_enemy=True)),
                                emit(_shadows_discarded),
                                end_of("attack"),
                            ),
                        ),
                    ),
                    auto_single=True,
                    rule="lcg.combat.declare-defender",
                ),
                # cancelled after it was declared (the Dreadnaught's, Destroy the Dreadnaught's
                # Response): the attack is over, so it no longer stands as the attack in progress
                otherwise=Seq(
                    emit(lambda rt: ev.AttackResolved(enemy=int(rt.env["enemy"]), by_enemy=True, cancelled=True)),
                    end_of("attack"),
                ),
            ),
        ),
    ),
    rule="lcg.combat.enemy-attack",
)

# -- player attacks ----------------------------------------------------------------------


def engaged_with(s: LcgState, enemy: Uid, seat: Seat) -> bool:
    """``enemy`` is engaged with ``seat``, or considered so from the staging area (Massive)."""
    return s.cards[enemy].zone == table.seat_key(seat, "engaged") or engaged_from_staging(s, enemy, seat)


def _ranged(s: LcgState, seat: Seat) -> list[Uid]:
    return [u for u in table.ready_characters(s, seat) if table.has_keyword(s, u, "Ranged") and not cannot_fight(s, u)]


def attackers(s: LcgState, seat: Seat, enemy: Uid | None = None) -> list[Uid]:
    """Who may attack ``enemy`` in an attack ``seat`` declares: against an enemy engaged with
    them, their ready characters and the other players' ready Ranged ones; against an enemy
    engaged with another player, Ranged characters only, none of that player's ("A character
    with the ranged keyword can be declared by its controller as an attacker against enemies
    that are engaged with other players. A character can declare ranged attacks against these
    targets while its owner is declaring attacks, or it can participate in attacks that are
    declared by other players", Core Set rulebook, Ranged)."""
    own = [u for u in table.ready_characters(s, seat) if not cannot_fight(s, u)]
    others = [other for other in seats_in_turn(s) if other != seat]
    if enemy is None:
        return own + [u for other in others for u in _ranged(s, other)]
    if ships.attack_banned(s, seat, enemy):
        return []
    if engaged_with(s, enemy, seat):
        able = own + [u for other in others for u in _ranged(s, other)]
    else:
        able = _ranged(s, seat) + [
            u for other in others if not engaged_with(s, enemy, other) for u in _ranged(s, other)
        ]
    return [u for u in able if ships.may_attack(s, u, enemy)]


def _ask_attackers(rt: Runtime) -> Ask | None:
    s = st(rt)
    seat = rt.env["player"]
    enemy = int(rt.env["enemy"])
    options = [card_option(s, u) for u in attackers(s, seat, enemy)]
    if not options:
        return None
    d = table.defense(s, enemy)
    left = table.hit_points(s, enemy) - s.cards[enemy].damage
    prompt = f"Attack {table.name(s, enemy)} (defense {d}, {left} hit points left)? Choose attackers"
    most = ships.attacker_limit(s, enemy)
    if most == 0:
        return None
    return Ask(
        seat, prompt, options, Kind.MANY, 0, len(options) if most is None else min(most, len(options)), about=enemy
    )


def attack_targets(s: LcgState, seat: Seat) -> list[Uid]:
    """The enemies ``seat`` may declare attacks against: those engaged with them (highest
    engagement cost first, then the staging area's considered engaged with them), then those
    engaged with each other player in turn, for their Ranged characters."""
    targets = engaged_enemies(s, seat)
    for other in seats_in_turn(s):
        if other != seat:
            targets += [u for u in engaged_enemies(s, other) if u not in targets]
    return targets


def attackable(s: LcgState, seat: Seat, enemy: Uid) -> bool:
    """``seat`` can declare an attack against ``enemy`` now (the attackers question would be
    asked): engaged with them, some character may attack it; engaged with another player,
    one of their own Ranged characters may (the attack is theirs to declare)."""
    if ships.attacker_limit(s, enemy) == 0:
        return False
    able = attackers(s, seat, enemy)
    if engaged_with(s, enemy, seat):
        return bool(able)
    return any(u in able for u in _ranged(s, seat))


def _may_attack_next(rt: Runtime, enemy: Uid) -> bool:
    return attackable(st(rt), rt.env["player"], enemy)


def _target_option(s: LcgState, seat: Seat, enemy: Uid) -> Option:
    if engaged_with(s, enemy, seat):
        return card_option(s, enemy)
    player = next((p for p in seats_in_turn(s) if engaged_with(s, enemy, p)), None)
    return Option(str(enemy), f"{table.name(s, enemy)} (engaged with {player}; Ranged only)", enemy)


def _ask_target(rt: Runtime, enemies: list[Uid]) -> Ask:
    """Two or more enemies the player may still attack: which one next, or no more attacks."""
    s = st(rt)
    options = [_target_option(s, rt.env["player"], u) for u in enemies]
    return Ask(
        rt.env["player"],
        "Player attacks: choose the enemy to attack next",
        [*options, Option("done", "Make no more attacks")],
    )


def _declare_attack(rt: Runtime, enemy: Uid, by: str | None) -> tuple[str, dict[str, object]]:
    return "lcg.combat.player-attack", {"enemy": enemy, "player": rt.env["player"]}


def player_attacks() -> InChosenOrder:
    """The player's attacks, one at a time against the target they declare: each enemy
    engaged with them at the start of the step at most once (Core Set rulebook p. 20,
    Player Attacks), and each enemy engaged with another player that their Ranged
    characters may attack (``attackable``). A single enemy left to attack is attacked
    without asking which (its attackers question lets the player decline); between several
    the player chooses the next one, or to make no more attacks. Which enemies may be
    attacked is checked as each attack is declared, since an attack can destroy or exhaust
    what another needed."""
    return InChosenOrder(
        lambda rt: attack_targets(st(rt), rt.env["player"]),
        _may_attack_next,
        _ask_target,
        str,
        _declare_attack,
        rule="lcg.combat.attack-target",
    )


def _attack_damage(rt: Runtime) -> Event | None:
    s = st(rt)
    enemy = int(rt.env["enemy"])
    if not table.is_in_play(s, enemy):
        return None
    total = sum(table.attack(s, u) for u in s.attack.attackers) if s.attack else 0
    total += int(rt.env.get("bonus", 0))
    amount = caps.damage_allowed(s, enemy, total - table.defense(s, enemy))
    return ev.DamageDealt(card=enemy, amount=amount) if amount > 0 else None


def _player_attack(attackers_var: str) -> Node:
    """Declared attackers (bound to ``attackers_var``) attack the enemy bound to ``enemy``."""
    return Seq(
        emit(
            lambda rt: ev.AttackersDeclared(
                enemy=int(rt.env["enemy"]),
                player=rt.env["player"],
                attackers=tuple(int(u) for u in rt.env[attackers_var]),
            )
        ),
        emit(_attack_damage, rule="lcg.combat.attack-damage"),
        emit(lambda rt: ev.AttackResolved(enemy=int(rt.env["enemy"]))),
        end_of("attack"),
    )


def _engaged_with_anyone(rt: Runtime) -> bool:
    s, enemy = st(rt), int(rt.env["enemy"])
    return any(engaged_with(s, enemy, seat) for seat in seats_in_turn(s))


PLAYER_ATTACK = register(
    "lcg.combat.player-attack",
    If(
        _engaged_with_anyone,
        Decide(
            _ask_attackers,
            "attackers",
            If(lambda rt: bool(rt.env["attackers"]), _player_attack("attackers")),
        ),
    ),
    rule="lcg.combat.player-attack",
)


register("lcg.combat.attack", _player_attack("solo"), rule="lcg.combat.player-attack")
"""An attack made at once by a card's text (Quick Strike): ``solo`` attacks ``enemy``."""


def _staging_attackers(s: LcgState, seat: Seat) -> list[Uid]:
    return [
        u
        for u in table.ready_characters(s, seat)
        if text_of(s.cards[u].code).staging_attack_bonus is not None and not cannot_fight(s, u)
    ]


def _ask_staging_attack(rt: Runtime) -> Ask | None:
    """Dúnhere may attack an enemy in the staging area, alone, with a bonus."""
    s = st(rt)
    seat = rt.env["player"]
    enemies = table.staging_enemies(s)
    options = [
        Option(f"{a}>{e}", f"{table.name(s, a)} attacks {table.name(s, e)} in the staging area", e)
        for a in _staging_attackers(s, seat)
        for e in enemies
    ]
    if not options:
        return None
    return Ask(seat, "Attack an enemy in the staging area?", [*options, Option("skip", "No")])


def _split_staging_attack(rt: Runtime) -> dict[str, object]:
    attacker, enemy = str(rt.env["target"]).split(">")
    bonus = text_of(st(rt).cards[int(attacker)].code).staging_attack_bonus or 0
    return {"enemy": int(enemy), "solo": [int(attacker)], "bonus": bonus}


def staging_attack() -> Node:
    return Decide(
        _ask_staging_attack,
        "target",
        If(lambda rt: rt.env["target"] != "skip", Let(_split_staging_attack, _player_attack("solo"))),
        rule="lcg.combat.staging-attack",
    )


def _leftover_shadows(rt: Runtime) -> Event | None:
    """Shadow cards still dealt once every attack is over belong to enemies that did not
    attack (Feint, Thicket of Spears, Forest Snare): they are discarded unresolved at the end of the
    combat phase, as each attack's shadow cards are after it resolves."""
    left = tuple(cards_in(st(rt), "shadows"))
    return ev.CardsDiscarded(cards=left) if left else None


def body() -> list[Node]:
    return [
        Call("lcg.keyword.archery", rule="lcg.keyword.archery"),
        each_player(
            ForEach(lambda rt: table.engaged(st(rt), rt.env["player"]), "enemy", emit(_deal_shadow)),
            rule="lcg.combat.deal-shadows",
        ),
        window("lcg.combat.window.shadows"),
        each_player(
            ForEach(
                lambda rt: engaged_enemies(st(rt), rt.env["player"]),
                "enemy",
                Call("lcg.combat.enemy-attack", lambda rt: {"enemy": rt.env["enemy"], "player": rt.env["player"]}),
            ),
            rule="lcg.combat.enemy-attacks",
        ),
        window("lcg.combat.window.enemy-attacks"),
        each_player(
            Seq(player_attacks(), staging_attack()),
            rule="lcg.combat.player-attacks",
        ),
        emit(_leftover_shadows, rule="lcg.combat.shadows-discarded"),
    ]
