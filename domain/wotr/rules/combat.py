"""Combat step (rules §4.3, §6, seed 004): the starting player chooses the order; every active
location is fought, even with no card on it.

Path combat: the Shadow attacks with the path icons of its cards on the path plus attack
tokens; the path's printed defense and defense tokens (and what Sting or the Phial add)
cancel first; the Free Peoples then cancel what is left by eliminating cards of theirs on
the path, one unit (a character with its items) at a time, until the eliminated icons
cover the attack or nothing is left; their other cards are cycled, every Shadow card there
is eliminated. All attack canceled: the Free Peoples take the path (its points); otherwise
the Shadow takes it face down with one corruption token per attack icon not canceled. In
a Duel the Free Peoples take the path only if their defense in all exceeds the attack; a
tie scores for nobody.

Battleground combat: the side whose deck the battleground came from defends; the attack
is the attackers' battleground attack icons plus the leadership of supported characters
plus attack tokens; the printed defense (ignored when reactivated out of the other
team's scoring area) and defense tokens cancel first, then the defenders' losses, as on
a path. Every attacker is eliminated, surviving defenders are cycled; the defender wins
if every attack icon was canceled, else the attacker; the winner scores the battleground.
"""

from __future__ import annotations

import msgspec

from domain.kernel.decisions import Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Call, Decide, ForEach, If, Node, Repeat, Seq, register
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.cards import program_of, text_of
from domain.wotr.effects import card_option, emit, st
from domain.wotr.rules import table
from domain.wotr.state import FREE, SHADOW, Combat, Seat, Team, Uid, WotrState, other


def defending_side(s: WotrState, location: Uid) -> Team:
    where = table.loc(s, location)
    return FREE if where.kind == "path" else where.deck


def loss_value(s: WotrState, combat: Combat, uid: Uid) -> int:
    """The attack icons a defending unit cancels when it is lost."""
    if combat.kind == "path":
        return table.unit_icons(s, uid, "path")
    value = table.unit_icons(s, uid, "bg_defense")
    for character, army in combat.supports:
        if character == uid:
            value += table.icons(s, character, "lead_defense")
        if army == uid:
            bonus = text_of(s.cards[army].code).support_bonus
            value += bonus(s, army, character) if bonus is not None else 0
    return value


def _location(rt: Runtime) -> Uid:
    return int(rt.env["location"])


class Share(msgspec.Struct, frozen=True, omit_defaults=True):
    """One contribution to a combat's count: ``value`` icons of ``what`` (``path`` icons,
    ``attack``/``defense`` battleground icons, ``leadership``, ``support`` (an army's bonus
    while supporting), ``text`` (defense a card's text gives the location), ``printed``
    defense, ``printed-ignored``, ``attack-tokens``, ``defense-tokens``) counted for
    ``part``: ``attack``, ``defense`` (what cancels first) or ``defenders`` (what the
    defending cards cancel when lost). ``card``: the card that gives it (none for the
    location's printed defense and tokens); ``by``: the army supporting a leader, the
    leader an army supports, or an item's wielder."""

    part: str
    what: str
    value: int
    card: Uid | None = None
    by: Uid | None = None


class Tally(msgspec.Struct, frozen=True, omit_defaults=True):
    """The icons of a combat as they stand, card by card: who attacks, the attack, the
    defense that cancels first, the defending cards' icons, which army supports which
    leader, and who would take the location if it were fought now (the defenders lose
    what they must) with the Shadow's corruption."""

    location: Uid
    kind: str
    attackers: Team
    attack: int
    defense: int
    defenders: int
    supports: tuple[tuple[Uid, Uid], ...] = ()
    shares: tuple[Share, ...] = ()
    empty: bool = False
    winner: Team | None = None
    corruption: int = 0


def _unit_shares(s: WotrState, unit: Uid, part: str, icon: str, what: str) -> list[Share]:
    """A unit's icons card by card: the character or army, then each item it wields."""
    out = []
    for u in table.unit(s, unit):
        value = table.icons(s, u, icon)
        if value:
            out.append(Share(part, what, value, u, unit if u != unit else None))
    return out


def _support_shares(s: WotrState, character: Uid, army: Uid, part: str, lead: str) -> list[Share]:
    """What supporting ``character`` with ``army`` adds (``table.support_value``, item by
    item): the leader's leadership icons, and any bonus the army's text gives."""
    out = []
    value = table.icons(s, character, lead)
    if value:
        out.append(Share(part, "leadership", value, character, army))
    bonus = text_of(s.cards[army].code).support_bonus
    extra = bonus(s, army, character) if bonus is not None else 0
    if extra:
        out.append(Share(part, "support", extra, army, character))
    return out


def tally(s: WotrState, uid: Uid) -> Tally:
    """Count the icons on location ``uid``, card by card: the one count of a combat. The
    combat step's count (``CombatBegan``), the Shadow bots' "if combat were resolved now"
    and "conceivably win", the table's combat preview and the referee's explanation all
    read it.

    Which icons count (rules digest §6.1-6.3; seed 004, 戦闘 and its 注): on a path the
    Shadow's path icons attack and the Free Peoples' path icons cancel, with the path's
    printed defense, tokens and what card texts add (Sting, the Phial); on a battleground
    the attackers' battleground attack icons and the defenders' battleground defense icons
    count, and a character's leadership icons only while an army of its faction there
    supports it (one army per character); a location's printed defense does not count when
    it was reactivated out of the other team's scoring area."""
    where = table.loc(s, uid)
    card = s.cards[uid]
    defenders = defending_side(s, uid)
    attackers = other(defenders)
    shares: list[Share] = []
    pairs: list[tuple[Uid, Uid]] = []
    if where.kind == "path":
        for u in table.units_at(s, uid, SHADOW):
            shares += _unit_shares(s, u, "attack", "path", "path")
        if where.defense:
            shares.append(Share("defense", "printed", where.defense))
        for u in table.cards_at(s, uid):
            hook = text_of(s.cards[u].code).location_defense
            if table.team(s, u) == FREE and hook is not None and (value := hook(s, u)):
                shares.append(Share("defense", "text", value, u))
        for u in table.units_at(s, uid, FREE):
            shares += _unit_shares(s, u, "defenders", "path", "path")
    else:
        pairs_attack = table.supports(s, uid, attackers, "lead_attack")
        pairs_defense = table.supports(s, uid, defenders, "lead_defense")
        for u in table.units_at(s, uid, attackers):
            shares += _unit_shares(s, u, "attack", "bg_attack", "attack")
        for c, a in pairs_attack:
            shares += _support_shares(s, c, a, "attack", "lead_attack")
        if card.ignore_defense:
            shares.append(Share("defense", "printed-ignored", 0))
        elif where.defense:
            shares.append(Share("defense", "printed", where.defense))
        for u in table.units_at(s, uid, defenders):
            shares += _unit_shares(s, u, "defenders", "bg_defense", "defense")
        for c, a in pairs_defense:
            shares += _support_shares(s, c, a, "defenders", "lead_defense")
        pairs = pairs_attack + pairs_defense
    if card.attack_tokens:
        shares.append(Share("attack", "attack-tokens", card.attack_tokens))
    if card.defense_tokens:
        shares.append(Share("defense", "defense-tokens", card.defense_tokens))
    attack, defense, total = (
        sum(x.value for x in shares if x.part == part) for part in ("attack", "defense", "defenders")
    )
    empty = not table.cards_at(s, uid)
    winner, corruption = decide(
        s, where.kind, attackers, attack, defense, total, empty, max(0, attack - defense - total)
    )
    return Tally(
        uid, where.kind, attackers, attack, defense, total, tuple(pairs), tuple(shares), empty, winner, corruption
    )


def _begin(rt: Runtime) -> Event:
    s = st(rt)
    uid = _location(rt)
    counted = tally(s, uid)
    return ev.CombatBegan(
        location=uid,
        kind=counted.kind,
        attackers=counted.attackers,
        attack=counted.attack,
        defense=counted.defense,
        defenders=counted.defenders,
        supports=counted.supports,
        empty=counted.empty,
    )


def _combat(s: WotrState) -> Combat:
    assert s.combat is not None
    return s.combat


def eligible(s: WotrState) -> list[tuple[Uid, int]]:
    """Defending units that can still be lost, with the icons each would cancel."""
    combat = _combat(s)
    side = other(combat.attackers)
    out = []
    for uid in table.units_at(s, combat.location, side):
        if uid in combat.losses:
            continue
        value = loss_value(s, combat, uid)
        if value > 0:
            out.append((uid, value))
    return out


def _done(rt: Runtime) -> bool:
    s = st(rt)
    return _combat(s).remaining <= 0 or not eligible(s)


def _forced(rt: Runtime) -> bool:
    """Losing every unit that can cancel does not cover the attack: no choice to make."""
    s = st(rt)
    return sum(v for _, v in eligible(s)) <= _combat(s).remaining


def chooser(s: WotrState, side: Team, cards: list[Uid]) -> Seat:
    """Who decides for a team: its first seat in turn order, from the starting player, that
    controls one of ``cards``."""
    n = len(s.order)
    positions = [s.order[(s.start + i) % n] for i in range(n)]
    owners = {table.controller(s, u) for u in cards}
    for seat in positions:
        if s.team_of(seat) == side and seat in owners:
            return seat
    return next(seat for seat in positions if s.team_of(seat) == side)


def _ask_loss(rt: Runtime) -> Ask:
    s = st(rt)
    combat = _combat(s)
    units = eligible(s)
    seat = chooser(s, other(combat.attackers), [u for u, _ in units])
    options = []
    for uid, value in units:
        base = card_option(s, uid)
        items = table.items_of(s, uid)
        extra = f" with {', '.join(table.name(s, i) for i in items)}" if items else ""
        options.append(Option(base.id, f"{base.label}{extra}: cancels {value}", uid))
    prompt = f"{table.name(s, combat.location)}: {combat.remaining} attack icon(s) to cancel; choose a card to lose"
    return Ask(seat, prompt, options, about=combat.location)


def _lose_all(rt: Runtime) -> Event:
    units = eligible(st(rt))
    return ev.LossTaken(cards=tuple(u for u, _ in units), icons=sum(v for _, v in units))


def _lose_one(rt: Runtime) -> Event:
    s = st(rt)
    uid = int(rt.env["loss"])
    return ev.LossTaken(cards=(uid,), icons=loss_value(s, _combat(s), uid))


def losses() -> Repeat:
    """The defenders lose units until the attack is covered (or they have none left)."""
    return Repeat(
        If(
            _forced,
            emit(_lose_all),
            Decide(_ask_loss, "loss", emit(_lose_one), auto_single=True, rule="wotr.combat.losses"),
        ),
        until=_done,
        rule="wotr.combat.losses",
    )


def _still_here(rt: Runtime, uid: Uid) -> bool:
    return st(rt).cards[uid].zone == table.location_zone(st(rt), _location(rt))


def _eliminate_each(cards: str, how: str) -> ForEach:
    def items(rt: Runtime) -> list[Uid]:
        s = st(rt)
        if cards == "losses":
            return list(_combat(s).losses)
        return table.units_at(s, _location(rt), _combat(s).attackers)

    return ForEach(
        items,
        "doomed",
        If(
            lambda rt: _still_here(rt, int(rt.env["doomed"])),
            Call("wotr.eliminate", lambda rt: {"card": rt.env["doomed"], "how": how}),
        ),
    )


def _survivors(rt: Runtime) -> Event | None:
    s = st(rt)
    side = other(_combat(s).attackers)
    cards = tuple(u for u in table.cards_at(s, _location(rt)) if table.team(s, u) == side)
    return ev.CardsCycled(cards=cards) if cards else None


def outcome(s: WotrState) -> tuple[Team | None, int]:
    """Who takes the location, and how many corruption tokens the Shadow gains."""
    combat = _combat(s)
    return decide(
        s,
        combat.kind,
        combat.attackers,
        combat.attack,
        combat.defense,
        combat.defenders,
        combat.empty,
        combat.remaining,
    )


def decide(
    s: WotrState, kind: str, attackers: Team, attack: int, defense: int, defenders: int, empty: bool, remaining: int
) -> tuple[Team | None, int]:
    """The outcome of a combat from its count and the attack still uncanceled."""
    assert s.options is not None
    if empty and s.options.rules.empty_combat == "nobody":
        return None, 0
    if kind == "battleground":
        return (other(attackers), 0) if remaining <= 0 else (attackers, 0)
    if table.scenario_of(s).duel:
        total = defense + defenders
        if total > attack:
            return FREE, 0
        if total == attack:
            return None, 0
        return SHADOW, attack - total
    return (FREE, 0) if remaining <= 0 else (SHADOW, remaining)


def winner_now(s: WotrState, uid: Uid) -> Team | None:
    """Who would take location ``uid`` if its combat were resolved now: the defenders
    cancel what the defense leaves by losing cards, as many icons as they have."""
    return tally(s, uid).winner


def _ended(rt: Runtime) -> Event:
    s = st(rt)
    winner, corruption = outcome(s)
    return ev.CombatEnded(
        location=_location(rt),
        to=f"{winner}.score" if winner else "out",
        winner=winner,
        corruption=corruption,
    )


def _before_losses(rt: Runtime) -> list[list[object]]:
    """Texts that act when their card is about to be eliminated after a battleground combat."""
    s = st(rt)
    combat = _combat(s)
    doomed = list(combat.losses) + table.units_at(s, combat.location, combat.attackers)
    out: list[list[object]] = []
    for uid in doomed:
        program = program_of(s.cards[uid].code, "battleground-losses")
        if program is not None:
            out.append([program, uid, table.controller(s, uid)])
    return out


register(
    "wotr.combat.path",
    Seq(
        emit(_begin),
        losses(),
        Seq(
            _eliminate_each("losses", "path-combat"),
            _eliminate_each("attackers", "path-combat"),
            emit(_survivors),
            rule="wotr.combat.path.casualties",
        ),
        emit(_ended, rule="wotr.combat.path.outcome"),
    ),
    rule="wotr.combat.path",
)

register(
    "wotr.combat.battleground",
    Seq(
        emit(_begin),
        losses(),
        Seq(
            ForEach(
                _before_losses,
                "text",
                Call(
                    lambda rt: str(rt.env["text"][0]),
                    lambda rt: {
                        "self": rt.env["text"][1],
                        "player": rt.env["text"][2],
                        "location": rt.env["location"],
                        "doomed": list(_combat(st(rt)).losses)
                        + table.units_at(st(rt), _location(rt), _combat(st(rt)).attackers),
                        "_card": rt.env["text"][1],
                    },
                ),
            ),
            _eliminate_each("losses", "battleground-combat"),
            _eliminate_each("attackers", "battleground-combat"),
            emit(_survivors),
            rule="wotr.combat.battleground.casualties",
        ),
        emit(_ended, rule="wotr.combat.battleground.outcome"),
    ),
    rule="wotr.combat.battleground",
)

register(
    "wotr.combat.resolve",
    If(
        lambda rt: table.loc(st(rt), _location(rt)).kind == "path",
        Call("wotr.combat.path", lambda rt: {"location": rt.env["location"]}),
        Call("wotr.combat.battleground", lambda rt: {"location": rt.env["location"]}),
    ),
    rule="wotr.combat",
)


def _ask_order(rt: Runtime) -> Ask:
    s = st(rt)
    locations = table.active_locations(s)
    options = [Option(str(u), f"Fight on {table.name(s, u)}", u) for u in locations]
    return Ask(s.starting_seat(), "Combat step: choose where to fight next", options)


def body() -> list[Node]:
    return [
        emit(lambda rt: ev.StepBegan(step="combat")),
        Repeat(
            Decide(
                _ask_order,
                "location",
                Call("wotr.combat.resolve", lambda rt: {"location": int(rt.env["location"])}),
                auto_single=True,
                rule="wotr.combat.order",
            ),
            until=lambda rt: not table.active_locations(st(rt)),
            rule="wotr.combat.order",
        ),
    ]
