"""The LCG table in a terminal, readable at a glance."""

from __future__ import annotations

from collections.abc import Mapping

from domain.kernel.decisions import Decision, Option
from domain.lcg.cards import CARDS
from projections.lcg import CardView, PlayerView, TableView
from projections.phrases_lcg import outcome_text
from tools.render_shared import about, every_card, group, seats_and_end

VICTORY = {code: d.victory_points for code, d in CARDS.items() if d.victory_points}


def _stats(c: CardView) -> str:
    parts = []
    for label, value in (
        ("cost", c.cost),
        ("eng", c.engagement_cost),
        ("thr", c.threat),
        ("WP", c.willpower),
        ("ATK", c.attack),
        ("DEF", c.defense),
        ("HP", c.hit_points),
    ):
        if value is not None:
            parts.append(f"{label} {value}")
    if c.quest_points is not None:
        parts.append(f"progress {c.progress}/{c.quest_points}")
    return ", ".join(parts)


def card_line(c: CardView, names: Mapping[int, str] | None = None) -> str:
    """A card on one line, by name (``names``: the cards in sight by uid, for the objective
    an enemy guards)."""
    marks = []
    if c.damage:
        marks.append(f"{c.damage} damage")
    if c.resources:
        marks.append(f"{c.resources} resource{'s' if c.resources != 1 else ''}")
    if c.exhausted:
        marks.append("exhausted")
    if c.committed:
        marks.append("questing")
    if c.keywords:
        marks.append(" ".join(c.keywords))
    stats = _stats(c)
    line = c.name + (f" ({stats})" if stats else "")
    if marks:
        line += " - " + ", ".join(marks)
    for a in c.attachments:
        line += f" [attached: {a.name}{', exhausted' if a.exhausted else ''}]"
    if c.guarding is not None:
        line += f" [guarding {(names or {}).get(c.guarding, 'an objective')}]"
    if c.face_down_shadows:
        n = c.face_down_shadows
        line += f" [{n} face-down shadow card{'s' if n != 1 else ''}]"
    for s in c.shadows:
        line += f" [shadow: {s.name}]"
    return line


def _group(
    title: str, cards: list[CardView], indent: str = "    ", names: Mapping[int, str] | None = None
) -> list[str]:
    return group(title, cards, lambda c: card_line(c, names), indent)


def _player(p: PlayerView, names: Mapping[int, str] | None = None) -> list[str]:
    head = f"{p.seat}  threat {p.threat}  hand {p.hand_size}  deck {p.deck_size}"
    if p.first:
        head += "  (first player)"
    if p.eliminated:
        head += "  ELIMINATED"
    lines = [head]
    lines += _group("Heroes", p.heroes)
    lines += _group("Allies", p.allies)
    lines += _group("Engaged", p.engaged, names=names)
    lines += _group("Prisoner (face down, cannot be used)", p.prisoner)
    lines += _group("On top of the deck", p.deck_conditions)
    if p.hand is not None:
        lines += _group("Hand", p.hand)
    if p.discard:
        lines.append(f"  Discard: {', '.join(c.name for c in p.discard)}")
    return lines


def render(t: TableView) -> str:
    names = {c.uid: c.name for c in cards(t)}
    lines = [f"Round {t.round} - {t.phase or 'setup'} phase - version {t.version} - viewing as {t.viewer}"]
    if t.quest is not None:
        lines.append(f"Quest stage {t.quest_stage}: {t.quest.name} ({_stats(t.quest)})")
    if t.active_location is not None:
        lines.append(f"Active location: {card_line(t.active_location)}")
    threat = sum(c.threat or 0 for c in t.staging)
    lines.append(f"Staging area (threat {threat}):")
    lines += ["    " + card_line(c, names) for c in t.staging] or ["    (empty)"]
    points = sum(c.victory_points or 0 for c in t.victory)
    shown = ", ".join(c.name for c in t.victory) or "none"
    lines.append(
        f"Encounter deck {t.encounter_deck_size} cards - discard {len(t.encounter_discard)}"
        f" - victory display: {shown}" + (f" ({points} victory points)" if points else "")
    )
    if t.set_aside:
        lines.append(f"Set aside, out of play: {', '.join(card_line(c) for c in t.set_aside)}")
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


def card_text(c: CardView) -> str:
    """A card as its face reads: name, type, stats, traits, keywords, text, and its state."""
    kind = f"{c.sphere} {c.type}" if c.sphere else c.type
    lines = [f"{c.name} - {kind}"]
    stats = _stats(c)
    if stats:
        lines.append(f"  {stats}")
    if c.traits:
        lines.append(f"  Traits: {'. '.join(c.traits)}.")
    if c.keywords:
        lines.append(f"  Keywords: {', '.join(c.keywords)}")
    lines.append(f"  Text: {c.text or '(no text)'}")
    state = []
    if c.uid and c.hit_points is not None and c.type != "quest":
        state.append(f"{c.hit_points - c.damage} of {c.hit_points} hit points left")
    if c.resources:
        state.append(f"{c.resources} resource(s)")
    if c.exhausted:
        state.append("exhausted")
    if c.committed:
        state.append("committed to the quest")
    if c.attachments:
        state.append("attached: " + ", ".join(a.name for a in c.attachments))
    if state:
        lines.append(f"  Now: {'; '.join(state)}")
    return "\n".join(lines)


def _hit_points(c: CardView) -> str:
    return f"{c.hit_points - c.damage}/{c.hit_points} HP left" if c.hit_points is not None else ""


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
        return f"WP {card.willpower}" if card.willpower is not None else ""
    parts = []
    if card.type == "enemy" and rule.startswith("lcg.encounter"):
        parts.append(f"engagement cost {card.engagement_cost}, ATK {card.attack}")
    elif not (rule.startswith(("lcg.combat", "lcg.damage")) or "damage" in decision.prompt.lower()):
        return ""
    elif card.type in ("hero", "ally", "ship-objective"):
        parts.append(f"DEF {card.defense}" if "defend" in rule else f"ATK {card.attack}")
    elif card.type == "enemy":
        parts.append(f"DEF {card.defense}")
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
        out.append(f"    (ATK {subject.attack}, DEF {subject.defense}, {_hit_points(subject)})")
    if decision.rule.startswith("lcg.quest.commit"):
        committed = sum(c.willpower or 0 for p in t.players for c in (*p.heroes, *p.allies) if c.committed)
        threat = sum(c.threat or 0 for c in t.staging)
        out.append(f"  Willpower committed so far: {committed}; threat in the staging area: {threat}")
    if decision.rule.startswith("lcg.travel") and subject is None:
        for option in decision.options:
            card = shown.get(option.card) if option.card is not None else None
            if card is not None and card.text:
                out.append(f"  {card.name}: {card.text}")
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
    return (
        f"Score: {threat + dead + damage - victory} (threat {threat} + dead heroes {dead}"
        f" + damage on heroes {damage} - victory points {victory}; lower is better)"
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
