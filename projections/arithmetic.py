"""The arithmetic behind a rule step, for the referee: the numbers a result was decided by.

``working(rules, event, before)`` gives the lines that show how ``event`` came out, from
the state just before it: an engagement check compares the player's threat with the
enemy's engagement cost; a quest compares the committed willpower (each character's
share) with the threat in the staging area (each card's share); a War of the Ring combat
counts each side's icons card by card. ``rulebook(rule)`` names the rulebook section a
rule reference stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.kernel.events import DecisionAnswered, DecisionRequested, Event, ModifierAdded
from domain.kernel.state import State
from domain.lcg import events as lcg_ev
from domain.lcg.rules import caps, ship_keywords, ships
from domain.lcg.rules import combat as lcg_combat
from domain.lcg.rules import setup as lcg_setup
from domain.lcg.rules import table as lcg
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.wotr import events as wotr_ev
from domain.wotr.rules import combat
from domain.wotr.rules import table as wotr
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from projections import phrases_lcg
from projections.i18n import N_, _, card_name, say
from projections.phrases_lcg_events import keyword_word
from projections.phrases_wotr import combat_working, takes
from projections.story import join, possessive

RULEBOOK: dict[str, str] = {
    "lcg.setup": "Core Set rulebook, Setup",
    "lcg.round": "Core Set rulebook, Game Round",
    "lcg.resource": "Core Set rulebook, Phase 1: Resource",
    "lcg.planning": "Core Set rulebook, Phase 2: Planning",
    "lcg.quest": "Core Set rulebook, Phase 3: Quest",
    "lcg.quest.commit": "Core Set rulebook, Phase 3: Quest, Step 1: Commit Characters",
    "lcg.quest.staging": "Core Set rulebook, Phase 3: Quest, Step 2: Staging",
    "lcg.quest.reveal": "Core Set rulebook, Phase 3: Quest, Step 2: Staging",
    "lcg.quest.progress": "Core Set rulebook, Phase 3: Quest, Step 3: Quest Resolution; FAQ 1.24",
    "lcg.quest.resolve": "Core Set rulebook, Phase 3: Quest, Step 3: Quest Resolution",
    "lcg.quest.failed": "Core Set rulebook, Phase 3: Quest, Step 3: Quest Resolution",
    "lcg.quest.threat": "Core Set rulebook, Phase 3: Quest, Step 3: Quest Resolution",
    "lcg.quest.advance": "Core Set rulebook, Questing Successfully / Quest Cards",
    "lcg.progress": "Core Set rulebook, Progress Tokens; FAQ 1.27 (the active location first)",
    "lcg.travel": "Core Set rulebook, Phase 4: Travel",
    "lcg.encounter": "Core Set rulebook, Phase 5: Encounter",
    "lcg.encounter.optional-engagement": "Core Set rulebook, Phase 5: Encounter, Player Engagement",
    "lcg.encounter.engagement-check": "Core Set rulebook, Phase 5: Encounter, Engagement Checks",
    "lcg.combat": "Core Set rulebook, Phase 6: Combat",
    "lcg.combat.deal-shadows": "Core Set rulebook, Phase 6: Combat, Deal Shadow Cards",
    "lcg.combat.enemy-attack": "Core Set rulebook, Phase 6: Combat, Resolve Enemy Attacks",
    "lcg.combat.shadow-outside-combat": "FAQ 1.9, (1.28) Enemy attacks outside of the combat phase",
    "lcg.combat.player-attack": "Core Set rulebook, Phase 6: Combat, Attack Enemies",
    "lcg.combat.attack-target": "Core Set rulebook, Phase 6: Combat, Attack Enemies (declare the target, p. 20)",
    "lcg.combat.defended-damage": "Core Set rulebook, Phase 6: Combat, Resolve Enemy Attacks (determine combat damage)",
    "lcg.combat.undefended-damage": "Core Set rulebook, Phase 6: Combat, Resolve Enemy Attacks (undefended attacks)",
    "lcg.combat.attack-damage": "Core Set rulebook, Phase 6: Combat, Attack Enemies (determine combat damage)",
    "lcg.refresh": "Core Set rulebook, Phase 7: Refresh",
    "lcg.damage": "Core Set rulebook, Damage and Hit Points",
    "lcg.elimination": "Core Set rulebook, Player Elimination",
    "lcg.end": "Core Set rulebook, Winning and Losing",
    "lcg.game": "Core Set rulebook, Game Round",
    "lcg.phase": "Core Set rulebook, Game Round",
    "lcg.draw": "Core Set rulebook, Phase 1: Resource",
    "lcg.event": "Core Set rulebook, Events",
    "lcg.response": "Core Set rulebook, Responses; FAQ 1.02 (effects due at once, in the order chosen)",
    "lcg.forced": "Core Set rulebook, Forced Effects; FAQ 1.02 and 1.09 (before Responses to the same moment)",
    "lcg.attachment": "Core Set rulebook, Attachments",
    "lcg.location": "Core Set rulebook, Phase 4: Travel",
    "lcg.shadow": "Core Set rulebook, Phase 6: Combat, Deal Shadow Cards",
    "lcg.destroy": "Core Set rulebook, Damage and Hit Points",
    "lcg.eliminate": "Core Set rulebook, Player Elimination",
    "lcg.explore": "Core Set rulebook, Progress Tokens",
    "lcg.reveal": "Core Set rulebook, Phase 3: Quest, Step 2: Staging",
    "lcg.keyword.doomed": "The Hobbit: On the Doorstep rules, Keywords: Doomed X",
    "lcg.keyword.surge": "The Hobbit: On the Doorstep rules, Keywords: Surge",
    "lcg.keyword.guarded": "Core Set rulebook, Guarded",
    "lcg.keyword.restricted": "Core Set rulebook, Keywords: Restricted",
    "lcg.keyword.archery": "The Hunt for the Dreadnaught rulebook, Keywords: Archery X",
    "lcg.keyword.boarding": "The Hunt for the Dreadnaught rulebook, Keywords: Boarding X",
    "lcg.keyword.pillage": "The Hunt for the Dreadnaught rulebook, Keywords: Pillage X",
    "lcg.keyword.massive": "The Hunt for the Dreadnaught rulebook, Keywords: Massive",
    "lcg.corsair": "The Hunt for the Dreadnaught rulebook, the Corsair deck",
    "lcg.corsair-deck": "The Hunt for the Dreadnaught rulebook, the Corsair deck",
    "lcg.epic": "The Hunt for the Dreadnaught rulebook, Epic Multiplayer Mode",
    "lcg.burgle": "The Hobbit: On the Doorstep rules, Burgle",
    "lcg.burgle.step-1": "The Hobbit: On the Doorstep rules, Burgle, step 1",
    "lcg.burgle.step-2": "The Hobbit: On the Doorstep rules, Burgle, step 2",
    "lcg.burgle.step-3": "The Hobbit: On the Doorstep rules, Burgle, step 3",
    "lcg.burgle.window": "The Hobbit: On the Doorstep rules, Burgle; FAQ (actions during a burgle attempt)",
    "lcg.encounter-deck.reshuffle": "Core Set rulebook, Phase 3: Quest, Step 2: Staging",
    "wotr.game": "War of the Ring rules, §4 Round structure",
    "wotr.setup": "War of the Ring rules, §3 Setup",
    "wotr.round": "War of the Ring rules, §4 Round structure",
    "wotr.location": "War of the Ring rules, §4.1 Location step",
    "wotr.action": "War of the Ring rules, §4.2 Action step",
    "wotr.move": "War of the Ring rules, §4.2 Action step",
    "wotr.combat": "War of the Ring rules, §4.3 Combat step and §6 Combat",
    "wotr.combat.path": "War of the Ring rules, §6.1 Path combat",
    "wotr.combat.battleground": "War of the Ring rules, §6.2 Battleground combat",
    "wotr.victory": "War of the Ring rules, §4.4 Victory check and §8 Scoring",
    "wotr.draw-step": "War of the Ring rules, §4.5 Draw step",
    "wotr.play": "War of the Ring rules, §5 Playing cards",
    "wotr.play.cost": "War of the Ring rules, §5.1 The cost of playing",
    "wotr.cycle": "War of the Ring rules, §7 Procedures",
    "wotr.eliminate": "War of the Ring rules, §7 Procedures",
    "wotr.forsake": "War of the Ring rules, §7 Procedures",
    "wotr.draw": "War of the Ring rules, §7 Procedures",
    "wotr.draw-play": "War of the Ring rules, §7 Procedures",
    "wotr.search": "War of the Ring rules, §7 Procedures",
    "wotr.take": "War of the Ring rules, §7 Procedures",
    "wotr.ring": "War of the Ring rules, §9 Scenarios (Ring tokens)",
    "wotr.bot": "Against the Shadow rulebook, the Shadow bot's flowchart",
}


def rulebook(rule: str) -> str:
    """The rulebook section a rule reference stands for (its longest known prefix), or ""
    (a card's own text, ``core-074.when-revealed``, is the card)."""
    parts = rule.split(".")
    for n in range(len(parts), 0, -1):
        found = RULEBOOK.get(".".join(parts[:n]))
        if found is not None:
            return found
    return ""


def _lcg_name(s: LcgState, uid: int) -> str:
    """A card as a sentence names it (the quest card by the side it shows)."""
    return card_name(phrases_lcg.name(s, uid) or LCG.card_name(s, uid))


PARTS = {"printed": N_("printed"), "base": N_("base")}
"""The parts of a stat that are not cards, as the working names them."""


def _part(where: str) -> str:
    return _(PARTS[where]) if where in PARTS else card_name(where)


def _terms(parts: list[tuple[str, int]], value: int) -> str:
    """A value and its parts: ``3 (printed 2 + Dwarven Axe 1)``, or ``2`` alone."""
    if len(parts) <= 1:
        return str(value)
    head, *rest = parts
    said = " ".join(f"{'+' if n >= 0 else '-'} {_part(where)} {abs(n)}" for where, n in rest)
    below = " " + _("(never below 0)") if sum(n for _where, n in parts) < 0 else ""
    return f"{value} ({_part(head[0])} {head[1]} {said}){below}"


def _parts(s: LcgState, uid: int, which: str) -> str:
    """A stat's value and its parts, from the function the rules read it with."""
    return _terms(lcg.stat_parts(s, uid, which), lcg.stat(s, uid, which))


def _keyword(s: LcgState, uid: int, name: str) -> str:
    """A keyword's value (Archery 3, Boarding 2) and its parts, as the keyword rules count it."""
    return _terms(ship_keywords.value_parts(s, uid, name), ship_keywords.value(s, uid, name))


def _shadow(event: Event, s: LcgState) -> list[str]:
    """An event a shadow effect produced: which shadow card, on which attack, defended or not
    (what a shadow effect's "if this attack is undefended" reads)."""
    card, fight = event.cause.card, s.attack
    if not event.cause.rule.endswith(".shadow") or card is None or card not in s.cards or fight is None:
        return []
    left = lcg_combat.defenders_left(s)
    how = say("defended by %(cards)s", cards=join([_lcg_name(s, d) for d in left])) if left else _("undefended")
    return [
        say(
            "the shadow effect of %(card)s, dealt to %(enemy)s, on its attack against %(player)s (%(how)s)",
            card=_lcg_name(s, card),
            enemy=_lcg_name(s, fight.enemy),
            player=fight.player,
            how=how,
        )
    ]


def _ship_attack(s: LcgState, enemy: int, target: int, undefended: bool) -> list[str]:
    """A ship-enemy's attack: only ship-objectives defend against it, and undefended it is
    assigned to a ship-objective of the defending player (The Hunt for the Dreadnaught rulebook, Ships)."""
    if not ships.is_ship_enemy(s, enemy):
        return []
    if undefended and ships.is_ship_objective(s, target):
        return [
            say(
                "%(enemy)s is a ship-enemy: its undefended attack is assigned to a ship-objective",
                enemy=_lcg_name(s, enemy),
            )
        ]
    if not undefended:
        return [
            say("%(enemy)s is a ship-enemy: only a ship-objective may defend against it", enemy=_lcg_name(s, enemy))
        ]
    return []


def _capped(s: LcgState, uid: int, room: tuple[int, int] | None, what: str) -> list[str]:
    """A card that may receive only so much each round (the Dreadnaught's damage, the stage's progress)."""
    if room is None:
        return []
    cap, received = room
    return [
        say(
            "%(card)s may receive at most %(cap)s %(what)s each round; %(received)s already this round, "
            "so at most %(more)s more",
            card=_lcg_name(s, uid),
            cap=cap,
            what=_(what),
            received=received,
            more=max(0, cap - received),
        )
    ]


def _damage(event: lcg_ev.DamageDealt, s: LcgState) -> list[str]:
    """Combat damage as attack minus defense, archery's total, and the hit points the damage
    is counted against: each value from the table functions the combat step itself reads."""
    rule, target = event.cause.rule, _lcg_name(s, event.card)
    lines: list[str] = _shadow(event, s)
    fight = s.attack
    if rule.startswith("lcg.combat.defended-damage") and fight is not None:
        attack = lcg.attack(s, fight.enemy)
        defense = lcg_combat.defense_total(s)
        defenders = " + ".join(f"{_lcg_name(s, d)} {_parts(s, d, 'defense')}" for d in lcg_combat.defenders_left(s))
        lines += _ship_attack(s, fight.enemy, event.card, undefended=False)
        lines += [
            say(
                "attack %(attack)s = %(enemy)s %(parts)s",
                attack=attack,
                enemy=_lcg_name(s, fight.enemy),
                parts=_parts(s, fight.enemy, "attack"),
            ),
            say("defense %(defense)s = %(defenders)s", defense=defense, defenders=defenders),
            say(
                "%(attack)s - %(defense)s = %(amount)s damage to %(target)s",
                attack=attack,
                defense=defense,
                amount=event.amount,
                target=target,
            ),
        ]
    elif rule.startswith("lcg.combat.undefended-damage") and fight is not None:
        lines += _ship_attack(s, fight.enemy, event.card, undefended=True)
        enemy = _lcg_name(s, fight.enemy)
        lines.append(
            say(
                "undefended: all of %(enemy_s)s attack %(parts)s = %(amount)s damage to %(target)s",
                enemy_s=possessive(enemy),
                enemy=enemy,
                parts=_parts(s, fight.enemy, "attack"),
                amount=event.amount,
                target=target,
            )
        )
    elif rule.startswith("lcg.combat.attack-damage") and fight is not None:
        total = sum(lcg.attack(s, u) for u in fight.attackers)
        attackers = " + ".join(f"{_lcg_name(s, u)} {_parts(s, u, 'attack')}" for u in fight.attackers)
        defense = lcg.defense(s, event.card)
        line = say(
            "attack %(total)s = %(attackers)s; defense %(target)s %(parts)s",
            total=total,
            attackers=attackers or _("no attacker"),
            target=target,
            parts=_parts(s, event.card, "defense"),
        )
        lines.append(line)
        room = caps.damage_room(s, event.card)
        lines += _capped(s, event.card, room, N_("damage"))
        values = {"total": total, "defense": defense, "amount": event.amount, "target": target}
        if event.amount == total - defense:
            lines.append(say("%(total)s - %(defense)s = %(amount)s damage to %(target)s", **values))
        elif room is not None and event.amount == caps.damage_allowed(s, event.card, total - defense):
            lines.append(
                say(
                    "%(total)s - %(defense)s = %(left)s; %(amount)s dealt, the most it may take now",
                    left=total - defense,
                    **values,
                )
            )
        else:
            lines.append(
                say(
                    "%(total)s - %(defense)s = %(left)s; %(amount)s dealt, as the cards' texts allow",
                    left=total - defense,
                    **values,
                )
            )
    elif rule.startswith("lcg.keyword.archery"):
        said = " + ".join(
            f"{_lcg_name(s, u)} {_keyword(s, u, 'Archery')}"
            for u in ship_keywords.archers(s)
            if ship_keywords.value(s, u, "Archery")
        )
        lines.append(
            say(
                "archery %(total)s = %(said)s: dealt 1 at a time, this 1 to %(target)s "
                "(Archery X: the players deal X damage to characters in play)",
                total=ship_keywords.archery_total(s),
                said=said,
                target=target,
            )
        )
    if lcg.defn(s, event.card).hit_points is not None:
        hp = lcg.hit_points(s, event.card)
        after = s.cards[event.card].damage + event.amount
        verdict = _("destroyed") if after >= hp else say("%(left)s left", left=hp - after)
        others = lcg.other_groups(s, event.card)
        if others:  # Epic Multiplayer: the global value whole, the other groups' damage counted in
            told = say(
                "%(target)s: %(had)s + %(amount)s = %(after)s damage against %(whole)s hit points (a global value),"
                " with %(others)s by the other groups (%(total)s): %(verdict)s",
                target=target,
                had=s.cards[event.card].damage,
                amount=event.amount,
                after=after,
                whole=lcg.global_value(s, event.card, "hit_points"),
                others=others,
                total=after + others,
                verdict=verdict,
            )
        else:
            told = say(
                "%(target)s: %(had)s + %(amount)s = %(after)s damage against %(parts)s hit points: %(verdict)s",
                target=target,
                had=s.cards[event.card].damage,
                amount=event.amount,
                after=after,
                parts=_parts(s, event.card, "hit_points"),
                verdict=verdict,
            )
        lines.append(told)
    return lines


_STATS = {
    "willpower": N_("willpower"),
    "attack": N_("attack"),
    "defense": N_("defense"),
    "hit_points": N_("hit points"),
}
_STATS |= {"threat": N_("threat"), "engagement_cost": N_("engagement cost")}


def _modified(event: ModifierAdded, s: LcgState, after: LcgState | None) -> list[str]:
    """A lasting effect on a stat or a keyword's value: the value before and after, with the
    parts the rules add up."""
    m = event.modifier
    if after is None or m.target not in s.cards:
        return []
    card = _lcg_name(s, m.target)
    if m.stat in _STATS:
        now = _parts(after, m.target, m.stat)
        return [
            say(
                "%(card_s)s %(stat)s: %(before)s before, %(now)s now",
                card_s=possessive(card),
                card=card,
                stat=_(_STATS[m.stat]),
                before=lcg.stat(s, m.target, m.stat),
                now=now,
            )
        ]
    keyword = ship_keywords.gained_keyword(m.stat)
    if keyword is not None:
        before, now = ship_keywords.value(s, m.target, keyword), _keyword(after, m.target, keyword)
        if before or ship_keywords.value(after, m.target, keyword):
            return [
                say(
                    "%(card_s)s %(stat)s: %(before)s before, %(now)s now",
                    card_s=possessive(card),
                    card=card,
                    stat=keyword_word(keyword),
                    before=before,
                    now=now,
                )
            ]
    return []


def _engaged(event: lcg_ev.EnemyEngaged, s: LcgState) -> list[str]:
    threat = s.players[event.player].threat
    enemy = _lcg_name(s, event.enemy)
    rule = event.cause.rule
    if rule.startswith("lcg.encounter.engagement-check"):
        cost = lcg.engagement_cost(s, event.enemy)
        return [
            say(
                "%(player)s's threat %(threat)s against %(enemy_s)s engagement cost %(cost)s: "
                "%(threat)s >= %(cost)s, so it engages %(player)s",
                player=event.player,
                threat=threat,
                enemy_s=possessive(enemy),
                enemy=enemy,
                cost=cost,
            )
        ]
    if rule.startswith("lcg.encounter.optional-engagement"):
        cost = lcg.engagement_cost(s, event.enemy)
        return [
            say(
                "%(player)s's threat %(threat)s, %(enemy_s)s engagement cost %(cost)s (an engagement the player chose)",
                player=event.player,
                threat=threat,
                enemy_s=possessive(enemy),
                enemy=enemy,
                cost=cost,
            )
        ]
    ship = event.cause.card
    if rule.startswith("lcg.keyword.boarding") and ship is not None and ship in s.cards:
        x = ship_keywords.value(s, ship, "Boarding")
        return [
            say(
                "Boarding %(value)s of %(ship)s, which engaged %(player)s from the staging area: the top %(x)s "
                "card(s) of the Corsair deck engage %(player)s, this one among them",
                value=_keyword(s, ship, "Boarding"),
                ship=_lcg_name(s, ship),
                player=event.player,
                x=x,
            )
        ]
    origin = phrases_lcg.zone(event.origin) if event.origin else _("where it was")
    if ship is not None and ship in s.cards:
        by = say("the text of %(card)s", card=_lcg_name(s, ship))
    else:
        by = _("a card's text")
    return [
        say(
            "%(enemy)s engages %(player)s from %(origin)s, by %(by)s: no engagement check compares threat and cost",
            enemy=enemy,
            player=event.player,
            origin=origin,
            by=by,
        )
    ]


def _massive(event: Event, s: LcgState) -> list[str]:
    """Massive (The Hunt for the Dreadnaught rulebook): in the staging area, engaged with each
    player, attacking each in turn, with a shadow card dealt as each of its attacks begins."""
    enemy = _lcg_name(s, event.enemy) if isinstance(event, lcg_ev.ShadowCardDealt | lcg_ev.AttackDeclared) else ""
    if isinstance(event, lcg_ev.ShadowCardDealt) and event.cause.rule.startswith("lcg.keyword.massive"):
        if s.attack is not None:
            return [
                say(
                    "%(enemy)s is Massive: it is dealt 1 shadow card as each of its attacks begins, "
                    "its attack against %(player)s",
                    enemy=enemy,
                    player=s.attack.player,
                )
            ]
        return [say("%(enemy)s is Massive: it is dealt 1 shadow card as each of its attacks begins", enemy=enemy)]
    massive = (
        isinstance(event, lcg_ev.AttackDeclared)
        and event.cause.rule.startswith("lcg.combat.enemy-attack")
        and s.cards[event.enemy].zone == "staging"
        and lcg.has_keyword(s, event.enemy, "Massive")
    )
    if massive and isinstance(event, lcg_ev.AttackDeclared):
        return [
            say(
                "%(enemy)s is Massive: from the staging area it is engaged with each player "
                "and attacks each in turn, here %(player)s",
                enemy=enemy,
                player=event.player,
            )
        ]
    return []


def _threat(event: lcg_ev.ThreatRaised, s: LcgState) -> list[str]:
    threat = s.players[event.player].threat
    card = event.cause.card
    why = f" ({_lcg_name(s, card)})" if card is not None and card in s.cards else ""
    lines = _shadow(event, s)
    rule = event.cause.rule
    if rule.startswith("lcg.keyword.doomed") and card is not None and card in s.cards:
        lines.append(
            say(
                "Doomed %(amount)s of %(card)s: each player raises their threat by %(amount)s",
                amount=event.amount,
                card=_lcg_name(s, card),
            )
        )
    elif rule.startswith(("lcg.quest.threat", "lcg.quest.failed")):
        lines.append(
            say("the quest failed by %(amount)s: each player raises their threat by %(amount)s", amount=event.amount)
        )
    lines.append(
        say(
            "%(player)s's threat %(threat)s + %(amount)s%(why)s = %(now)s",
            player=event.player,
            threat=threat,
            amount=event.amount,
            why=why,
            now=threat + event.amount,
        )
    )
    return lines


def _lcg(event: Event, s: State, after: State | None = None) -> list[str]:
    assert isinstance(s, LcgState) and (after is None or isinstance(after, LcgState))
    if isinstance(event, lcg_ev.DamageDealt) and event.card in s.cards:
        return _damage(event, s)
    if isinstance(event, lcg_ev.CharacterDestroyed | lcg_ev.EnemyDefeated):
        uid = event.card if isinstance(event, lcg_ev.CharacterDestroyed) else event.enemy
        damage, hp = s.cards[uid].damage, lcg.hit_points(s, uid)
        if damage >= hp:
            return [
                say(
                    "%(card)s: %(damage)s damage >= %(parts)s hit points",
                    card=_lcg_name(s, uid),
                    damage=damage,
                    parts=_parts(s, uid, "hit_points"),
                )
            ]
        return []
    if isinstance(event, lcg_ev.ThreatSet):
        costs = " + ".join(f"{_lcg_name(s, h)} {c}" for h, c in lcg_setup.threat_costs(s, event.player))
        return [
            say(
                "%(player)s's starting threat %(threat)s = %(costs)s (the heroes' threat costs)",
                player=event.player,
                threat=event.threat,
                costs=costs,
            )
        ]
    if isinstance(event, lcg_ev.ThreatRaised):
        return _threat(event, s)
    if isinstance(event, ModifierAdded):
        return _shadow(event, s) + _modified(event, s, after)
    if isinstance(event, lcg_ev.ProgressPlaced) and event.card in s.cards:
        have = s.cards[event.card].progress
        after_progress = have + event.amount
        kind = lcg.defn(s, event.card).type
        values = {"card": _lcg_name(s, event.card), "have": have, "amount": event.amount, "after": after_progress}
        if kind not in ("location", "quest"):  # progress a card's text counts (Smaug the Golden)
            return [say("%(card)s: %(have)s + %(amount)s = %(after)s progress", **values)]
        points = lcg.quest_points(s, event.card)
        others = lcg.other_groups(s, event.card)
        if others:  # Epic Multiplayer: the global value whole, the other groups' progress counted in
            told = say(
                "%(card)s: %(have)s + %(amount)s = %(after)s progress of %(whole)s quest points (a global value);"
                " with %(others)s by the other groups, %(total)s",
                whole=lcg.global_value(s, event.card, "quest_points"),
                others=others,
                total=after_progress + others,
                **values,
            )
        else:
            told = say(
                "%(card)s: %(have)s + %(amount)s = %(after)s progress of %(parts)s quest points",
                parts=_parts(s, event.card, "quest_points"),
                **values,
            )
        if after_progress >= points:
            told += ": " + (_("explored") if kind == "location" else _("enough to advance"))
        return [*_capped(s, event.card, caps.progress_room(s, event.card), N_("progress")), told]
    if isinstance(event, lcg_ev.EnemyEngaged):
        return _engaged(event, s)
    if isinstance(event, lcg_ev.ShadowCardDealt | lcg_ev.AttackDeclared):
        return _massive(event, s)
    if isinstance(event, lcg_ev.QuestResolved):
        shares = [(uid, lcg.willpower(s, uid)) for uid in lcg.committed(s)]
        threats = [
            (uid, lcg.threat_of(s, uid))
            for uid in s.zone("staging")
            if lcg.defn(s, uid).type in ("enemy", "location") and not s.modifier_total(uid, lcg.NO_THREAT)
        ]
        will = " + ".join(f"{_lcg_name(s, u)} {w}" for u, w in shares) or _("nobody committed")
        staged = " + ".join(f"{_lcg_name(s, u)} {t}" for u, t in threats) or _("no card")
        # the rules' total (table.staging_threat) also counts effects on the staging area as a
        # whole and cards outside it (Southron Sailor's ships), and is never below 0: what
        # the cards listed do not make up is named as such, so the sum shown is the rules'
        rest = event.threat - sum(t for _uid, t in threats)
        if rest:
            staged += f" {'+' if rest > 0 else '-'} " + say("other effects %(n)s", n=abs(rest))
        lines = [
            say("willpower %(willpower)s = %(will)s", willpower=event.willpower, will=will),
            say("threat %(threat)s = %(staged)s", threat=event.threat, staged=staged),
        ]
        values = {"willpower": event.willpower, "threat": event.threat}
        if event.willpower > event.threat:
            lines.append(
                say(
                    "%(willpower)s > %(threat)s: %(progress)s progress",
                    progress=event.willpower - event.threat,
                    **values,
                )
            )
        elif event.willpower < event.threat:
            lines.append(
                say(
                    "%(willpower)s < %(threat)s: the quest fails, each player raises their threat by %(by)s",
                    by=event.threat - event.willpower,
                    **values,
                )
            )
        else:
            lines.append(say("%(willpower)s = %(threat)s: no progress and no threat", **values))
        return lines
    return []


def _wotr_name(s: WotrState, uid: int) -> str:
    return card_name(WOTR.card_name(s, uid))


def _wotr(event: Event, s: State, after: State | None = None) -> list[str]:
    """A War of the Ring combat card by card, from the count the combat step made
    (``combat.tally``, the same the table's preview and the Shadow bots read)."""
    assert isinstance(s, WotrState)
    if isinstance(event, wotr_ev.CombatBegan):
        counted = combat.tally(s, event.location)
        return combat_working(counted, lambda uid: _wotr_name(s, uid), _wotr_name(s, event.location))
    if isinstance(event, wotr_ev.LossTaken) and s.combat is not None:
        lost = " + ".join(
            f"{_wotr_name(s, u)} {combat.loss_value(s, s.combat, u)}" for u in event.cards if u in s.cards
        )
        left = s.combat.remaining - event.icons
        tail = say("%(left)s still to cancel", left=left) if left > 0 else _("every attack icon is canceled")
        return [
            say(
                "%(remaining)s attack icon(s) to cancel; lost: %(lost)s = %(icons)s; %(tail)s",
                remaining=s.combat.remaining,
                lost=lost or _("nothing"),
                icons=event.icons,
                tail=tail,
            )
        ]
    if isinstance(event, wotr_ev.CombatEnded) and s.combat is not None:
        fought = s.combat
        where = _wotr_name(s, event.location)
        if event.winner:
            taken = say("%(takes)s %(location)s", takes=takes(event.winner), location=where)
        else:
            taken = say("nobody takes %(location)s", location=where)
        if event.corruption:
            taken += say(", %(amount)s corruption for the Shadow", amount=event.corruption)
        if fought.kind == "path" and wotr.scenario_of(s).duel:
            total = fought.defense + fought.defenders
            return [
                say(
                    "a Duel's path goes to the Free Peoples only if their defense and cards exceed the attack: "
                    "%(defense)s + %(cards)s = %(total)s against attack %(attack)s: %(taken)s",
                    defense=fought.defense,
                    cards=fought.defenders,
                    total=total,
                    attack=fought.attack,
                    taken=taken,
                )
            ]
        left = max(0, fought.remaining)
        by_losses = max(0, fought.attack - fought.defense - fought.remaining)
        return [
            say(
                "attack %(attack)s, defense %(defense)s, %(losses)s canceled by losses, "
                "%(left)s attack icon(s) not canceled: %(taken)s",
                attack=fought.attack,
                defense=fought.defense,
                losses=by_losses,
                left=left,
                taken=taken,
            )
        ]
    return []


COMPARISONS: dict[str, type[Event]] = {
    "lcg.quest.failed": lcg_ev.QuestResolved,
    "lcg.quest.threat": lcg_ev.QuestResolved,
    "lcg.quest.progress": lcg_ev.QuestResolved,
    "wotr.combat.losses": wotr_ev.CombatBegan,
    "wotr.combat.path.": wotr_ev.CombatBegan,
    "wotr.combat.battleground.": wotr_ev.CombatBegan,
}
"""Rule steps whose result follows from a comparison made by an earlier event, and that event's type."""


def comparison(events: Sequence[Event], seq: int) -> int | None:
    """The event whose arithmetic decided event ``seq`` (the quest's willpower against its
    threat, a combat's icons), when its cause does not link it already."""
    event = events[seq - 1]
    rule = event.cause.rule
    wanted = next((t for prefix, t in COMPARISONS.items() if rule.startswith(prefix)), None)
    if wanted is None or isinstance(event, (wanted, DecisionRequested, DecisionAnswered)):
        return None
    for earlier in range(seq - 1, 0, -1):
        if isinstance(events[earlier - 1], wanted):
            return earlier
    return None


WORKINGS: dict[str, Callable[[Event, State, State | None], list[str]]] = {"lcg": _lcg, "wotr": _wotr}


def working(rules: Any, event: Event, before: State, after: State | None = None) -> list[str]:
    """How ``event`` came out, from the state just before it ([] if there is no arithmetic);
    ``after``, the state just after it, gives the value a lasting effect leaves."""
    show = WORKINGS.get(rules.name)
    return show(event, before, after) if show is not None else []


__all__ = ["RULEBOOK", "comparison", "rulebook", "working"]
