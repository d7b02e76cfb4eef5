"""The 28 Core Set player events: what their text does.

Each is played from hand as :mod:`domain.lcg.rules.playing_events` describes (cost from
heroes of its sphere, then the effect, then the discard pile). ``playable`` says when the
effect has something to act on: an event that could change nothing is not offered.
"""

from __future__ import annotations

from domain.kernel.decisions import Kind, Option
from domain.kernel.events import Event
from domain.kernel.flow import Ask, Call, Case, Decide, ForEach, Let, Node, Seq, register
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import text_of
from domain.lcg.effects import (
    IMMUNE,
    PLAYER,
    SELF,
    cancel,
    card_var,
    choose,
    choose_player,
    damage_each,
    deal_damage,
    draw,
    each_player,
    emit,
    exhaust,
    forbid_attack,
    heal_all,
    lasting,
    later,
    modify,
    place_progress,
    put_into_play,
    ready,
    reduce_threat,
    return_to_hand,
    return_to_staging,
    shuffle_into_deck,
    st,
)
from domain.lcg.rules import ships, table
from domain.lcg.rules.playing_events import Cost, action_event, response_event
from domain.lcg.state import LcgState, Seat, Uid


def _target_seat(rt: Runtime) -> Seat:
    return str(rt.env["target"])


def _all_characters(s: LcgState) -> list[Uid]:
    return list(table.all_characters(s))


def _exhausted_allies(s: LcgState) -> list[Uid]:
    cards = s.cards
    return [u for u in table.all_characters(s) if cards[u].exhausted and table.definition_in(cards, u).type == "ally"]


def _engaged_enemies(s: LcgState) -> list[Uid]:
    return [u for seat in table.seats_in_turn(s) for u in table.cards_in(s, table.seat_key(seat, "engaged"))]


# Ever Vigilant — "Action: choose an exhausted ally and ready it."
action_event(
    "core-020",
    choose(
        PLAYER,
        "Ever Vigilant: choose an ally to ready",
        lambda rt: _exhausted_allies(st(rt)),
        "ally",
        ready(lambda rt: [int(rt.env["ally"])]),
    ),
    "ready an ally",
    playable=lambda s, seat, uid: bool(_exhausted_allies(s)),
)


def _other_exhausted_heroes(rt: Runtime) -> list[Uid]:
    s = st(rt)
    paid = int(rt.env["paid"])
    return [h for seat in table.seats_in_turn(s) for h in table.heroes(s, seat) if h != paid and s.cards[h].exhausted]


# Common Cause — "Action: exhaust a hero you control to choose a different hero and ready it."
action_event(
    "core-021",
    choose(
        PLAYER,
        "Common Cause: exhaust a hero you control",
        lambda rt: [h for h in table.heroes(st(rt), PLAYER(rt)) if not st(rt).cards[h].exhausted],
        "paid",
        Seq(
            exhaust(lambda rt: [int(rt.env["paid"])]),
            choose(
                PLAYER,
                "Common Cause: choose a different hero to ready",
                _other_exhausted_heroes,
                "hero",
                ready(lambda rt: [int(rt.env["hero"])]),
            ),
        ),
    ),
    "exhaust a hero: ready another hero",
    playable=lambda s, seat, uid: (
        any(not s.cards[h].exhausted for h in table.heroes(s, seat))
        and any(s.cards[h].exhausted for p in table.seats_in_turn(s) for h in table.heroes(s, p))
    ),
)

# For Gondor! — "Action: until the end of the phase, every character in play gets +1
# Attack; Gondor characters also get +1 Defense."
action_event(
    "core-022",
    Seq(
        modify(lambda rt: _all_characters(st(rt)), "attack", 1, "phase"),
        modify(
            lambda rt: [u for u in _all_characters(st(rt)) if table.defn(st(rt), u).is_a("Gondor")],
            "defense",
            1,
            "phase",
        ),
    ),
    "+1 attack to every character, +1 defense to Gondor",
)


def _allies_to_sneak(s: LcgState, seat: Seat) -> list[Uid]:
    return [u for u in table.hand(s, seat) if table.definition_of(s, u).type == "ally" and table.may_enter_play(s, u)]


register("core-023.return", return_to_hand(card_var("ally")), rule="core-023.action")


# Sneak Attack — "Action: put an ally from your hand into play; at the end of the phase,
# if it is still in play, return it to your hand."
action_event(
    "core-023",
    choose(
        PLAYER,
        "Sneak Attack: choose an ally in your hand to put into play",
        lambda rt: _allies_to_sneak(st(rt), PLAYER(rt)),
        "ally",
        Seq(
            put_into_play(card_var("ally"), PLAYER),
            later("phase", "core-023.return", lambda rt: {"ally": int(rt.env["ally"]), "_card": SELF(rt)}),
        ),
    ),
    "put an ally into play until the end of the phase",
    playable=lambda s, seat, uid: bool(_allies_to_sneak(s, seat)),
)


def _ally_left(s: LcgState, e: Event, uid: Uid) -> bool:
    if isinstance(e, ev.CharacterDestroyed | ev.CardReturnedToHand | ev.ShuffledIntoDeck | ev.CharacterDiscarded):
        return table.defn(s, e.card).type == "ally"
    return False


def _left_controller(s: LcgState, e: Event, uid: Uid) -> dict[str, object]:
    controller = e.controller if isinstance(e, ev.CharacterDestroyed | ev.CharacterDiscarded) else None
    card = getattr(e, "card", uid)
    return {"drawer": controller or s.cards[card].owner}


# Valiant Sacrifice — "Response: after an ally leaves play, its controller draws 2 cards."
# An ally leaves play destroyed, returned to hand, discarded (the Nazgûl of Dol Guldur) or
# shuffled into its owner's deck (Beorn at the end of the phase he used his Action).
response_event(
    "core-024",
    (ev.CharacterDestroyed, ev.CardReturnedToHand, ev.ShuffledIntoDeck, ev.CharacterDiscarded),
    _ally_left,
    draw(lambda rt: str(rt.env["drawer"]), 2),
    "an ally left play: its controller draws 2?",
    playable=lambda s, seat, uid: table.can_draw(s),
    bind=_left_controller,
)

# Grim Resolve — "Action: ready every character in play."
action_event(
    "core-025",
    ready(lambda rt: _all_characters(st(rt))),
    "ready every character",
    playable=lambda s, seat, uid: any(s.cards[u].exhausted for u in table.all_characters(s)),
)

# Blade Mastery — "Action: choose a character; it gets +1 Attack and +1 Defense until the
# end of the phase."
action_event(
    "core-032",
    choose(
        PLAYER,
        "Blade Mastery: choose a character",
        lambda rt: _all_characters(st(rt)),
        "hero",
        Seq(
            modify(lambda rt: [int(rt.env["hero"])], "attack", 1, "phase"),
            modify(lambda rt: [int(rt.env["hero"])], "defense", 1, "phase"),
        ),
    ),
    "+1 attack and +1 defense to a character",
)


def _ready_ranged(s: LcgState, seat: Seat) -> list[Uid]:
    return [u for u in table.ready_characters(s, seat) if table.defn(s, u).has("Ranged")]


# Rain of Arrows — "Action: exhaust a Ranged character you control to choose a player;
# deal 1 damage to each enemy engaged with that player."
action_event(
    "core-033",
    choose(
        PLAYER,
        "Rain of Arrows: exhaust a Ranged character you control",
        lambda rt: _ready_ranged(st(rt), PLAYER(rt)),
        "archer",
        Seq(
            exhaust(lambda rt: [int(rt.env["archer"])]),
            choose_player(
                PLAYER,
                "Rain of Arrows: choose a player; each enemy engaged with them takes 1 damage",
                "target",
                damage_each(lambda rt: list(table.cards_in(st(rt), table.seat_key(_target_seat(rt), "engaged"))), 1),
            ),
        ),
    ),
    "exhaust a Ranged character: 1 damage to each enemy engaged with a player",
    # the engaged enemies first: every action window asks it while Rain of Arrows is in hand and
    # paid for, mostly with no enemy engaged, where each ready character's card was read first
    playable=lambda s, seat, uid: bool(_engaged_enemies(s)) and bool(_ready_ranged(s, seat)),
)


def _attacking_enemies(s: LcgState) -> list[Uid]:
    """Enemies engaged with a player that may still attack them."""
    return [
        u
        for seat in table.seats_in_turn(s)
        for u in table.cards_in(s, table.seat_key(seat, "engaged"))
        if table.can_attack(s, u, seat)
    ]


# Feint — "Combat Action: choose an enemy engaged with a player; it cannot attack that
# player this phase." (errata: "that player")
action_event(
    "core-034",
    choose(
        PLAYER,
        "Feint: choose an enemy engaged with a player",
        lambda rt: _attacking_enemies(st(rt)),
        "enemy",
        forbid_attack(lambda rt: [int(rt.env["enemy"])], lambda rt: str(table.holder(st(rt), int(rt.env["enemy"])))),
    ),
    "an enemy cannot attack this phase",
    playable=lambda s, seat, uid: bool(_attacking_enemies(s)),
    phase="combat",
)


def _strikes(s: LcgState, seat: Seat) -> list[tuple[Uid, Uid, int]]:
    """Quick Strike's choices: (attacker, enemy, attack bonus). Own engaged enemies; with
    Ranged, enemies engaged with other players; Dúnhere's text, enemies in the staging area."""
    own = list(table.cards_in(s, table.seat_key(seat, "engaged")))
    others = [u for p in table.seats_in_turn(s) if p != seat for u in table.cards_in(s, table.seat_key(p, "engaged"))]
    out: list[tuple[Uid, Uid, int]] = []
    for attacker in table.ready_characters(s, seat):
        out += [(attacker, e, 0) for e in own]
        if table.has_keyword(s, attacker, "Ranged"):
            out += [(attacker, e, 0) for e in others]
        bonus = text_of(s.cards[attacker].code).staging_attack_bonus
        if bonus is not None:
            out += [(attacker, e, bonus) for e in table.staging_enemies(s)]
    # Ships (Hunt for the Dreadnaught): who may attack which enemy, and texts that forbid it.
    return [(a, e, b) for a, e, b in out if ships.may_attack(s, a, e) and not ships.attack_banned(s, seat, e)]


def _can_strike(s: LcgState, seat: Seat) -> bool:
    """Whether Quick Strike has a choice now (``_strikes`` is not empty), read only as far as
    the first: every action window asks it while Quick Strike is in hand and a Tactics
    resource pays for it, mostly with no enemy to attack, where ``_strikes`` read every ready
    character's keywords all the same."""
    own = table.cards_in(s, table.seat_key(seat, "engaged"))
    others = [u for p in table.seats_in_turn(s) if p != seat for u in table.cards_in(s, table.seat_key(p, "engaged"))]
    staged: list[Uid] | None = None
    if not own and not others and not table.staging_enemies(s):
        return False
    for attacker in table.ready_characters(s, seat):
        targets = list(own)
        if others and table.has_keyword(s, attacker, "Ranged"):
            targets += others
        if text_of(s.cards[attacker].code).staging_attack_bonus is not None:
            if staged is None:
                staged = table.staging_enemies(s)
            targets += staged
        if any(ships.may_attack(s, attacker, e) and not ships.attack_banned(s, seat, e) for e in targets):
            return True
    return False


def _ask_strike(rt: Runtime) -> Ask | None:
    s = st(rt)
    options = [
        Option(f"{a}>{e}", f"{table.name(s, a)} attacks {table.name(s, e)}", a) for a, e, _ in _strikes(s, PLAYER(rt))
    ]
    if not options:
        return None
    return Ask(PLAYER(rt), "Quick Strike: exhaust a character to attack an enemy now", options)


def _strike(rt: Runtime) -> dict[str, object]:
    attacker, enemy = (int(x) for x in str(rt.env["strike"]).split(">"))
    bonus = next((b for a, e, b in _strikes(st(rt), PLAYER(rt)) if a == attacker and e == enemy), 0)
    return {"enemy": enemy, "player": PLAYER(rt), "solo": [attacker], "bonus": bonus}


# Quick Strike — "Action: exhaust a character you control to have it attack, alone and at
# once, an enemy it could attack."
action_event(
    "core-035",
    Decide(
        _ask_strike,
        "strike",
        Seq(
            exhaust(lambda rt: [int(str(rt.env["strike"]).split(">")[0])]),
            Call("lcg.combat.attack", _strike),
        ),
    ),
    "exhaust a character: it attacks an enemy now",
    playable=lambda s, seat, uid: _can_strike(s, seat),
)


def _seats_engaged(s: LcgState) -> list[Seat]:
    return [
        p
        for p in table.seats_in_turn(s)
        if any(table.can_attack(s, u, p) for u in table.cards_in(s, table.seat_key(p, "engaged")))
    ]


def _ask_thicket(rt: Runtime) -> Ask:
    seats = _seats_engaged(st(rt))
    return Ask(PLAYER(rt), "Thicket of Spears: choose a player", [Option(p, p) for p in seats])


# Thicket of Spears — "Its cost must be paid from the pools of 3 different heroes. Action:
# choose a player; the enemies engaged with that player cannot attack that player this
# phase." (errata: "that player")
action_event(
    "core-036",
    Decide(
        _ask_thicket,
        "target",
        forbid_attack(
            lambda rt: list(table.cards_in(st(rt), table.seat_key(_target_seat(rt), "engaged"))), _target_seat
        ),
        auto_single=True,
    ),
    "a player's engaged enemies cannot attack them this phase",
    playable=lambda s, seat, uid: bool(_seats_engaged(s)),
    cost=Cost(heroes_needed=3),
)

# Swift Strike — "Response: after a character is declared as a defender, deal 2 damage to
# the attacking enemy."
response_event(
    "core-037",
    ev.DefenderDeclared,
    # An enemy immune to player card effects cannot be its target (Hunt for the Dreadnaught rulebook).
    lambda s, e, uid: (
        isinstance(e, ev.DefenderDeclared) and e.defender is not None and not table.has_keyword(s, e.enemy, IMMUNE)
    ),
    deal_damage(card_var("attacker"), 2),
    "a defender was declared: deal 2 damage to the attacking enemy?",
    bind=lambda s, e, uid: {"attacker": getattr(e, "enemy", 0)},
    still=lambda rt: table.is_in_play(st(rt), int(rt.env["attacker"])),
)

# Stand Together — "Action: choose a player; this phase that player may declare any number
# of their eligible characters as defenders against each enemy attacking them."
action_event(
    "core-038",
    choose_player(
        PLAYER,
        "Stand Together: choose a player",
        "target",
        lasting(lambda rt: table.many_defenders(_target_seat(rt))),
    ),
    "a player may declare any number of defenders this phase",
    playable=lambda s, seat, uid: any(not s.limit_used(table.many_defenders(p)) for p in table.seats_in_turn(s)),
)


def _ask_greeting(rt: Runtime) -> Ask:
    s = st(rt)
    options = [Option(p, f"{p} lowers their threat by 6") for p in table.seats_in_turn(s) if s.players[p].threat]
    options.append(Option("each", "Each player lowers their threat by 2"))
    return Ask(PLAYER(rt), "The Galadhrim's Greeting", options)


def _each_player_threat(amount: int) -> Node:
    return each_player(reduce_threat(PLAYER, amount))


# The Galadhrim's Greeting — "Action: lower one player's threat by 6, or each player's
# threat by 2."
action_event(
    "core-046",
    Decide(
        _ask_greeting,
        "target",
        Case(
            "target",
            {"each": _each_player_threat(2)},
            reduce_threat(_target_seat, 6),
        ),
    ),
    "lower threat: one player by 6, or each by 2",
    playable=lambda s, seat, uid: any(s.players[p].threat for p in table.seats_in_turn(s)),
)


def _ready_spirit(s: LcgState, seat: Seat) -> list[Uid]:
    return [u for u in table.ready_characters(s, seat) if table.defn(s, u).sphere == "spirit"]


# Strength of Will — "Response: after you travel to a location, exhaust a Spirit character
# to place 2 progress on that location." The players travel as a group (Rules: Travel
# phase), so each of them may answer it.
response_event(
    "core-047",
    ev.LocationTraveled,
    lambda s, e, uid: isinstance(e, ev.LocationTraveled),
    choose(
        PLAYER,
        "Strength of Will: exhaust a Spirit character you control",
        lambda rt: _ready_spirit(st(rt), PLAYER(rt)),
        "spirit",
        Seq(exhaust(lambda rt: [int(rt.env["spirit"])]), place_progress(card_var("location"), 2)),
    ),
    "you traveled: exhaust a Spirit character to place 2 progress on the location?",
    playable=lambda s, seat, uid: bool(_ready_spirit(s, seat)),
    bind=lambda s, e, uid: {"location": getattr(e, "card", 0)},
    still=lambda rt: st(rt).cards[int(rt.env["location"])].zone == "active",
)


def _shadow_pending(rt: Runtime) -> bool:
    card = st(rt).cards[int(rt.env["shadow"])]
    return card.zone == "shadows" and card.shown and not card.cancelled


# Hasty Stroke — "Response: cancel a shadow effect just triggered in combat."
response_event(
    "core-048",
    ev.ShadowCardRevealed,
    lambda s, e, uid: isinstance(e, ev.ShadowCardRevealed) and text_of(s.cards[e.card].code).shadow is not None,
    cancel(card_var("shadow"), "shadow"),
    "cancel this shadow effect?",
    bind=lambda s, e, uid: {"shadow": getattr(e, "card", 0)},
    still=_shadow_pending,
)


def _discards(s: LcgState, seat: Seat, event: Uid) -> list[Uid]:
    return [u for u in table.cards_in(s, table.seat_key(seat, "discard")) if u != event]


def _ask_west(rt: Runtime) -> Ask:
    s = st(rt)
    seats = [p for p in table.seats_in_turn(s) if _discards(s, p, SELF(rt))]
    return Ask(PLAYER(rt), "Will of the West: choose a player", [Option(p, p) for p in seats])


# Will of the West — "Action: choose a player; shuffle their discard pile into their deck.
# Then remove Will of the West from the game." (errata: it removes itself)
action_event(
    "core-049",
    Seq(
        Decide(
            _ask_west,
            "target",
            shuffle_into_deck(_target_seat, lambda rt: _discards(st(rt), _target_seat(rt), SELF(rt))),
            auto_single=True,
        ),
        emit(lambda rt: ev.CardMoved(card=SELF(rt), to="removed")),
    ),
    "shuffle a player's discard pile into their deck",
    playable=lambda s, seat, uid: any(_discards(s, p, uid) for p in table.seats_in_turn(s)),
)


def _revealed_pending(rt: Runtime) -> bool:
    card = st(rt).cards[int(rt.env["revealed"])]
    return card.zone == "revealed" and not card.cancelled


# A Test of Will — "Response: cancel the When Revealed effects of a card just revealed from
# the encounter deck."
response_event(
    "core-050",
    ev.EncounterCardRevealed,
    lambda s, e, uid: (
        isinstance(e, ev.EncounterCardRevealed) and text_of(s.cards[e.card].code).when_revealed is not None
    ),
    cancel(card_var("revealed"), "when-revealed"),
    "cancel its When Revealed effects?",
    bind=lambda s, e, uid: {"revealed": getattr(e, "card", 0)},
    still=_revealed_pending,
)


def _fallen_allies(s: LcgState) -> list[Uid]:
    """Allies in any player's discard pile that could enter play. Not neutral ones (FAQ
    1.7, Stand and Fight CORE 51: it cannot return neutral allies)."""
    return [
        u
        for p in table.seats_in_turn(s)
        for u in table.cards_in(s, table.seat_key(p, "discard"))
        if table.defn(s, u).type == "ally" and table.defn(s, u).sphere != "neutral" and table.may_enter_play(s, u)
    ]


# Stand and Fight — "Cost X. Action: choose an ally with printed cost X in any player's
# discard pile and put it into play under your control (any sphere)."
action_event(
    "core-051",
    choose(
        PLAYER,
        "Stand and Fight: choose an ally to put into play",
        lambda rt: [u for u in _fallen_allies(st(rt)) if table.defn(st(rt), u).cost == int(rt.env["x"])],
        "ally",
        put_into_play(card_var("ally"), PLAYER),
    ),
    "put an ally of cost X from a discard pile into play",
    playable=lambda s, seat, uid: bool(_fallen_allies(s)),
    cost=Cost(x=lambda s, seat, uid: sorted({table.defn(s, u).cost for u in _fallen_allies(s)})),
)

# A Light in the Dark — "Action: choose an enemy engaged with a player and return it to the
# staging area."
action_event(
    "core-052",
    choose(
        PLAYER,
        "A Light in the Dark: choose an enemy engaged with a player",
        lambda rt: _engaged_enemies(st(rt)),
        "enemy",
        return_to_staging(card_var("enemy")),
    ),
    "return an engaged enemy to the staging area",
    playable=lambda s, seat, uid: bool(_engaged_enemies(s)),
)


def _spirit_discards(s: LcgState, seat: Seat, event: Uid) -> list[Uid]:
    return [u for u in _discards(s, seat, event) if table.defn(s, u).sphere == "spirit"]


# Dwarven Tomb — "Action: return a Spirit card from your discard pile to your hand."
action_event(
    "core-053",
    choose(
        PLAYER,
        "Dwarven Tomb: choose a Spirit card in your discard pile",
        lambda rt: _spirit_discards(st(rt), PLAYER(rt), SELF(rt)),
        "card",
        emit(lambda rt: ev.CardMoved(card=int(rt.env["card"]), to=f"{PLAYER(rt)}.hand")),
    ),
    "return a Spirit card from your discard pile to your hand",
    playable=lambda s, seat, uid: bool(_spirit_discards(s, seat, uid)),
)


def _fallen_heroes(s: LcgState) -> list[Uid]:
    return [
        u
        for p in table.seats_in_turn(s)
        for u in table.cards_in(s, table.seat_key(p, "discard"))
        if table.defn(s, u).type == "hero" and table.may_enter_play(s, u)
    ]


# Fortune or Fate — "Action: choose a hero in any player's discard pile and put it into
# play under its owner's control."
action_event(
    "core-054",
    choose(
        PLAYER,
        "Fortune or Fate: choose a hero to put back into play",
        lambda rt: _fallen_heroes(st(rt)),
        "hero",
        put_into_play(card_var("hero"), lambda rt: table.owner_of(st(rt), int(rt.env["hero"]))),
    ),
    "put a hero from a discard pile back into play",
    playable=lambda s, seat, uid: bool(_fallen_heroes(s)),
)


def _damaged(s: LcgState) -> list[Uid]:
    return [u for u in table.all_characters(s) if s.cards[u].damage]


# Lore of Imladris — "Action: choose a character and heal all damage on it."
action_event(
    "core-063",
    choose(
        PLAYER,
        "Lore of Imladris: choose a character to heal",
        lambda rt: _damaged(st(rt)),
        "healed_one",
        heal_all(lambda rt: [int(rt.env["healed_one"])]),
    ),
    "heal all damage on a character",
    playable=lambda s, seat, uid: bool(_damaged(s)),
)

# Lórien's Wealth — "Action: choose a player; that player draws 3 cards."
action_event(
    "core-064",
    choose_player(PLAYER, "Lórien's Wealth: choose a player to draw 3 cards", "target", draw(_target_seat, 3)),
    "a player draws 3 cards",
    playable=lambda s, seat, uid: table.can_draw(s),
)


def _staged(s: LcgState, kind: str) -> list[Uid]:
    """Cards of ``kind`` in the staging area these events may choose (not one that is immune
    to player card effects: it "cannot be chosen as a target")."""
    return [
        u
        for u in table.staging(s)
        if table.defn(s, u).type == kind
        and not s.modifier_total(u, table.NO_THREAT)
        and not table.has_keyword(s, u, IMMUNE)
    ]


def _no_threat(name: str, kind: str) -> Node:
    return choose(
        PLAYER,
        f"{name}: choose {'an enemy' if kind == 'enemy' else 'a location'} in the staging area",
        lambda rt: _staged(st(rt), kind),
        "staged",
        modify(lambda rt: [int(rt.env["staged"])], table.NO_THREAT, 1, "phase"),
    )


# Radagast's Cunning — "Quest Action: choose an enemy in the staging area; until the end of
# the phase it does not contribute its threat."
action_event(
    "core-065",
    _no_threat("Radagast's Cunning", "enemy"),
    "an enemy in the staging area contributes no threat this phase",
    playable=lambda s, seat, uid: bool(_staged(s, "enemy")),
    phase="quest",
)

# Secret Paths — "Quest Action: choose a location in the staging area; until the end of the
# phase it does not contribute its threat."
action_event(
    "core-066",
    _no_threat("Secret Paths", "location"),
    "a location in the staging area contributes no threat this phase",
    playable=lambda s, seat, uid: bool(_staged(s, "location")),
    phase="quest",
)


def _decks(s: LcgState) -> list[Seat]:
    return [p for p in table.seats_in_turn(s) if table.cards_in(s, table.seat_key(p, "deck"))]


def _top(rt: Runtime) -> list[Uid]:
    return list(table.cards_in(st(rt), table.seat_key(_target_seat(rt), "deck"))[: int(rt.env["x"])])


def _ask_search_deck(rt: Runtime) -> Ask | None:
    seats = _decks(st(rt))
    if not seats:
        return None
    return Ask(PLAYER(rt), "Gandalf's Search: whose deck?", [Option(p, f"{p}'s deck") for p in seats])


def _ask_order(rt: Runtime) -> Ask | None:
    s = st(rt)
    rest = [u for u in _looked(rt) if s.cards[u].zone.endswith(".deck")]
    if len(rest) < 2:
        return None
    options = [Option(str(u), table.name(s, u), u) for u in rest]
    return Ask(
        PLAYER(rt),
        "Gandalf's Search: put the rest back on top, top card first",
        options,
        Kind.ORDER,
        len(options),
        len(options),
    )


def _looked(rt: Runtime) -> list[Uid]:
    return [int(u) for u in rt.env["looked"]]


def _back_on_top(rt: Runtime) -> list[Uid]:
    """The order chosen, bottom-most first: each goes on top in turn."""
    s = st(rt)
    order = [int(u) for u in rt.env.get("order") or []] or [u for u in _looked(rt) if s.cards[u].zone.endswith(".deck")]
    return list(reversed(order))


def _back(rt: Runtime) -> Event:
    return ev.CardMoved(card=int(rt.env["card"]), to=f"{_target_seat(rt)}.deck", top=True)


register(
    "core-067.search",
    Let(
        lambda rt: {"looked": _top(rt)},
        Seq(
            ForEach(
                lambda rt: list(rt.env["looked"]),
                "card",
                emit(lambda rt: ev.CardLookedAt(player=PLAYER(rt), card=int(rt.env["card"]))),
            ),
            choose(
                PLAYER,
                "Gandalf's Search: add one of them to its owner's hand",
                _looked,
                "taken",
                emit(
                    lambda rt: ev.CardMoved(
                        card=int(rt.env["taken"]), to=f"{table.owner_of(st(rt), int(rt.env['taken']))}.hand"
                    )
                ),
            ),
            Decide(
                _ask_order,
                "order",
                ForEach(_back_on_top, "card", emit(_back)),
                otherwise=ForEach(_back_on_top, "card", emit(_back)),
            ),
        ),
    ),
    rule="core-067.action",
)

# Gandalf's Search — "Cost X. Action: look at the top X cards of any player's deck; add
# one of them to its owner's hand and put the rest back on top in any order."
action_event(
    "core-067",
    Decide(
        _ask_search_deck,
        "target",
        Call(
            "core-067.search",
            lambda rt: {"target": rt.env["target"], "x": rt.env["x"], "player": PLAYER(rt), "self": SELF(rt)},
        ),
        auto_single=True,
    ),
    "look at the top X cards of a deck, take one",
    playable=lambda s, seat, uid: bool(_decks(s)),
    cost=Cost(
        x=lambda s, seat, uid: list(
            range(1, max((len(table.cards_in(s, table.seat_key(p, "deck"))) for p in _decks(s)), default=0) + 1)
        )
    ),
)


def _damaged_heroes(s: LcgState) -> list[Seat]:
    return [p for p in table.seats_in_turn(s) if any(s.cards[h].damage for h in table.heroes(s, p))]


# Beorn's Hospitality — "Action: choose a player; heal all damage on each hero that player
# controls."
action_event(
    "core-068",
    choose_player(
        PLAYER,
        "Beorn's Hospitality: choose a player whose heroes are healed",
        "target",
        heal_all(lambda rt: table.heroes(st(rt), _target_seat(rt))),
    ),
    "heal all damage on a player's heroes",
    playable=lambda s, seat, uid: bool(_damaged_heroes(s)),
)
