"""The LCG table in a terminal, readable at a glance."""

from __future__ import annotations

from collections.abc import Mapping

from domain.kernel.decisions import Decision, Option
from domain.lcg.cards import CARDS
from projections.i18n import N_, _, card_name, language, nsay, say
from projections.lcg import CardView, PlayerView, TableView
from projections.phrases_lcg import outcome_text
from projections.phrases_lcg_events import keyword_word
from tools.render_shared import about, every_card, group, seats_and_end

PHASES = {
    "setup": N_("setup"),
    "resource": N_("resource"),
    "planning": N_("planning"),
    "quest": N_("quest"),
    "travel": N_("travel"),
    "encounter": N_("encounter"),
    "combat": N_("combat"),
    "refresh": N_("refresh"),
}
"""The phases as the table's first line names them (``Round 2 - combat phase``)."""

VICTORY = {code: d.victory_points for code, d in CARDS.items() if d.victory_points}


def _stats(c: CardView) -> str:
    parts = []
    for label, value in (
        (N_("cost"), c.cost),
        (N_("eng"), c.engagement_cost),
        (N_("thr"), c.threat),
        (N_("WP"), c.willpower),
        (N_("ATK"), c.attack),
        (N_("DEF"), c.defense),
        (N_("HP"), c.hit_points),
    ):
        if value is not None:
            parts.append(f"{_(label)} {value}")
    if c.quest_points is not None:
        parts.append(say("progress %(progress)s/%(points)s", progress=c.progress, points=c.quest_points))
    if c.other_groups:  # Epic Multiplayer: counted toward the global value with this card's own
        if c.hit_points is not None:
            parts.append(say("%(count)s damage by the other groups", count=c.other_groups))
        else:
            parts.append(say("%(count)s progress by the other groups", count=c.other_groups))
    return ", ".join(parts)


def card_line(c: CardView, names: Mapping[int, str] | None = None) -> str:
    """A card on one line, by name (``names``: the cards in sight by uid, for the objective
    an enemy guards)."""
    marks = []
    if c.damage:
        marks.append(say("%(n)s damage", n=c.damage))
    if c.resources:
        marks.append(nsay("%(n)d resource", "%(n)d resources", c.resources))
    if c.exhausted:
        marks.append(_("exhausted"))
    if c.committed:
        marks.append(_("questing"))
    if c.keywords:
        marks.append(" ".join(keyword_word(k) for k in c.keywords))
    stats = _stats(c)
    line = card_name(c.name) + (f" ({stats})" if stats else "")
    if marks:
        line += " - " + ", ".join(marks)
    for a in c.attachments:
        if a.exhausted:
            line += " " + say("[attached: %(card)s, exhausted]", card=card_name(a.name))
        else:
            line += " " + say("[attached: %(card)s]", card=card_name(a.name))
    if c.guarding is not None:
        guarded = (names or {}).get(c.guarding)
        line += " " + say("[guarding %(card)s]", card=card_name(guarded) if guarded else _("an objective"))
    if c.face_down_shadows:
        n = c.face_down_shadows
        line += " " + nsay("[%(n)d face-down shadow card]", "[%(n)d face-down shadow cards]", n)
    for s in c.shadows:
        line += " " + say("[shadow: %(card)s]", card=card_name(s.name))
    return line


def _group(
    title: str, cards: list[CardView], indent: str = "    ", names: Mapping[int, str] | None = None
) -> list[str]:
    return group(title, cards, lambda c: card_line(c, names), indent)


def _player(p: PlayerView, names: Mapping[int, str] | None = None) -> list[str]:
    head = say(
        "%(seat)s  threat %(threat)s  hand %(hand)s  deck %(deck)s",
        seat=p.seat,
        threat=p.threat,
        hand=p.hand_size,
        deck=p.deck_size,
    )
    if p.first:
        head += "  " + _("(first player)")
    if p.eliminated:
        head += "  " + _("ELIMINATED")
    lines = [head]
    lines += _group(_("Heroes"), p.heroes)
    lines += _group(_("Allies"), p.allies)
    lines += _group(_("Engaged"), p.engaged, names=names)
    lines += _group(_("Prisoner (face down, cannot be used)"), p.prisoner)
    lines += _group(_("On top of the deck"), p.deck_conditions)
    if p.hand is not None:
        lines += _group(_("Hand"), p.hand)
    if p.discard:
        lines.append("  " + say("Discard: %(cards)s", cards=", ".join(card_name(c.name) for c in p.discard)))
    return lines


def render(t: TableView) -> str:
    names = {c.uid: c.name for c in cards(t)}
    lines = [
        say(
            "Round %(round)s - %(phase)s phase - version %(version)s - viewing as %(viewer)s",
            round=t.round,
            phase=_(PHASES.get(t.phase or "setup", t.phase or "setup")),
            version=t.version,
            viewer=t.viewer,
        )
    ]
    if t.quest is not None:
        lines.append(
            say(
                "Quest stage %(stage)s: %(card)s (%(stats)s)",
                stage=t.quest_stage,
                card=card_name(t.quest.name),
                stats=_stats(t.quest),
            )
        )
    if t.active_location is not None:
        lines.append(say("Active location: %(card)s", card=card_line(t.active_location)))
    lines.append(say("Staging area (threat %(threat)s):", threat=t.staging_threat))
    lines += ["    " + card_line(c, names) for c in t.staging] or ["    " + _("(empty)")]
    points = sum(c.victory_points or 0 for c in t.victory)
    shown = ", ".join(card_name(c.name) for c in t.victory) or _("none")
    lines.append(
        say(
            "Encounter deck %(deck)s cards - discard %(discard)s - victory display: %(shown)s",
            deck=t.encounter_deck_size,
            discard=len(t.encounter_discard),
            shown=shown,
        )
        + (" " + nsay("(%(n)d victory point)", "(%(n)d victory points)", points) if points else "")
    )
    if t.set_aside:
        lines.append(say("Set aside, out of play: %(cards)s", cards=", ".join(card_line(c) for c in t.set_aside)))
    end = outcome(t) or None
    lines += seats_and_end(t.players, lambda p: _player(p, names), end)
    return "\n".join(lines)


# -- what the table says on demand: a card's whole text, aids beside a decision -----------


def cards(t: TableView) -> list[CardView]:
    """Every card the view shows, attachments and shadow cards included."""
    roots = [
        *([t.quest] if t.quest else []),
        *([t.active_location] if t.active_location else []),
        *t.staging,
        *t.revealed,
        *t.victory,
        *t.encounter_discard,
        *t.set_aside,  # a ship-objective to choose at setup (? N tells its text)
    ]
    for p in t.players:
        roots += [*p.heroes, *p.allies, *p.engaged, *(p.hand or []), *p.discard]
    return every_card(roots, lambda c: (*c.attachments, *c.shadows))


SPHERES = {
    "baggins": N_("baggins"),
    "leadership": N_("leadership"),
    "lore": N_("lore"),
    "neutral": N_("neutral"),
    "spirit": N_("spirit"),
    "tactics": N_("tactics"),
}
TYPES = {
    "ally": N_("ally"),
    "attachment": N_("attachment"),
    "contract": N_("contract"),
    "enemy": N_("enemy"),
    "event": N_("event"),
    "hero": N_("hero"),
    "location": N_("location"),
    "objective": N_("objective"),
    "quest": N_("quest"),
    "setup": N_("setup"),
    "ship-objective": N_("ship-objective"),
    "treachery": N_("treachery"),
    "treasure": N_("treasure"),
}
"""A card's sphere and type as its text names them (``tactics ally``)."""


def card_text(c: CardView) -> str:
    """A card as its face reads: name, type, stats, traits, keywords, text, and its state."""
    kind_of = _(TYPES[c.type]) if c.type in TYPES else c.type
    sphere = _(SPHERES[c.sphere]) if c.sphere in SPHERES else c.sphere
    kind = say("%(sphere)s %(type)s", sphere=sphere, type=kind_of) if c.sphere else kind_of
    lines = [f"{card_name(c.name)} - {kind}"]
    stats = _stats(c)
    if stats:
        lines.append(f"  {stats}")
    if c.traits:
        lines.append("  " + say("Traits: %(traits)s.", traits=". ".join(c.traits)))
    if c.keywords:
        lines.append("  " + say("Keywords: %(keywords)s", keywords=", ".join(keyword_word(k) for k in c.keywords)))
    lines.append("  " + say("Text: %(text)s", text=c.text or _("(no text)")))
    state = []
    if c.uid and c.hit_points is not None and c.type != "quest":
        state.append(say("%(left)s of %(all)s hit points left", left=c.hit_points - c.damage, all=c.hit_points))
    if c.resources:
        state.append(
            nsay("%(n)d resource", "%(n)d resources", c.resources)
            if language() != "en"
            else f"{c.resources} resource(s)"
        )
    if c.exhausted:
        state.append(_("exhausted"))
    if c.committed:
        state.append(_("committed to the quest"))
    if c.attachments:
        state.append(say("attached: %(cards)s", cards=", ".join(card_name(a.name) for a in c.attachments)))
    if state:
        lines.append("  " + say("Now: %(state)s", state="; ".join(state)))
    return "\n".join(lines)


def _hit_points(c: CardView) -> str:
    """What is left of the hit points shown: an epic event's global value (the Dreadnaught's)
    less the other groups' damage too, as the rules destroy it when its own damage reaches
    its own count (``CardView.other_groups``)."""
    if c.hit_points is None:
        return ""
    return say("%(left)s/%(all)s HP left", left=max(0, c.hit_points - c.damage - c.other_groups), all=c.hit_points)


def option_note(t: TableView, decision: Decision, option: Option) -> str:
    """What a player needs beside an option: a character's willpower while committing, an
    enemy's engagement cost when engaging, defence or attack and the hit points left
    wherever damage, an attack or a target is chosen."""
    if option.card is None or option.id in ("yes", "no"):
        return ""
    card = next((c for c in cards(t) if c.uid == option.card), None)
    if card is None or card.type not in ("hero", "ally", "ship-objective", "enemy", "location"):
        return ""
    rule = decision.rule
    if rule.startswith("lcg.quest.commit"):
        return f"{_('WP')} {card.willpower}" if card.willpower is not None else ""
    parts = []
    if card.type == "enemy" and rule.startswith("lcg.encounter"):
        parts.append(say("engagement cost %(cost)s, ATK %(attack)s", cost=card.engagement_cost, attack=card.attack))
    elif not (rule.startswith(("lcg.combat", "lcg.damage")) or "damage" in decision.prompt.lower()):
        return ""
    elif card.type in ("hero", "ally", "ship-objective"):
        parts.append(f"{_('DEF')} {card.defense}" if "defend" in rule else f"{_('ATK')} {card.attack}")
    elif card.type == "enemy":
        parts.append(f"{_('DEF')} {card.defense}")
    hp = _hit_points(card)
    if hp:
        parts.append(hp)
    return ", ".join(parts)


def notes(t: TableView, decision: Decision) -> list[str]:
    """Lines shown under a decision's prompt: the card that caused it, with its text, and
    the totals the decision turns on."""
    shown = {c.uid: c for c in cards(t)}
    subject, out = about(shown, decision)
    if subject is not None and subject.type == "enemy":
        out.append(
            "    "
            + say(
                "(ATK %(attack)s, DEF %(defense)s, %(hp)s)",
                attack=subject.attack,
                defense=subject.defense,
                hp=_hit_points(subject),
            )
        )
    if decision.rule.startswith("lcg.quest.commit"):
        out.append(
            "  "
            + say(
                "Willpower committed so far: %(committed)s; threat in the staging area: %(threat)s",
                committed=t.committed_willpower,
                threat=t.staging_threat,
            )
        )
    if decision.rule.startswith("lcg.travel") and subject is None:
        for option in decision.options:
            card = shown.get(option.card) if option.card is not None else None
            if card is not None and card.text:
                out.append(f"  {card_name(card.name)}: {card.text}")
    return out


def outcome(t: TableView) -> str:
    """How the game ended, as the story tells it ("" while it goes on)."""
    if t.outcome is None:
        return ""
    return outcome_text(t.outcome.result, t.outcome.reason)


def score(t: TableView) -> str:
    """The Core Set rulebook's score ("Scoring"): final threat, plus the threat cost of dead
    heroes, plus damage on heroes in play, minus victory points; lower is better."""
    threat = sum(p.threat for p in t.players)
    dead = sum(CARDS[c.code].threat_cost for p in t.players for c in p.discard if c.type == "hero")
    damage = sum(c.damage for p in t.players for c in p.heroes)
    victory = sum(VICTORY.get(c.code, 0) for c in t.victory)
    return say(
        "Score: %(score)s (threat %(threat)s + dead heroes %(dead)s + damage on heroes %(damage)s"
        " - victory points %(victory)s; lower is better)",
        score=threat + dead + damage - victory,
        threat=threat,
        dead=dead,
        damage=damage,
        victory=victory,
    )


def printed(query: str) -> list[CardView]:
    """Cards of the card pool whose name starts with ``query``, as printed (not in play)."""
    wanted = query.casefold()
    found = []
    for code, d in CARDS.items():
        if d.type == "quest" or not d.name.casefold().startswith(wanted):
            continue
        card = CardView(uid=0, code=code, name=d.name, type=d.type, sphere=d.sphere, text=d.text)
        card.keywords, card.traits = d.keywords, d.traits
        if d.is_character:
            card.willpower, card.attack, card.defense, card.hit_points = d.willpower, d.attack, d.defense, d.hit_points
            card.cost = d.cost if d.type == "ally" else None
        elif d.type == "enemy":
            card.attack, card.defense, card.hit_points = d.attack, d.defense, d.hit_points
            card.threat, card.engagement_cost = d.threat, d.engagement_cost
        elif d.type == "location":
            card.threat, card.quest_points = d.threat, d.quest_points
        elif d.type in ("event", "attachment"):
            card.cost = d.cost
        found.append(card)
    return found
