"""The LCG table in a terminal, readable at a glance."""

from __future__ import annotations

from projections.lcg import CardView, PlayerView, TableView


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


def card_line(c: CardView) -> str:
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
    line = f"{c.name} #{c.uid} ({_stats(c)})"
    if marks:
        line += " - " + ", ".join(marks)
    for a in c.attachments:
        line += f" [attached: {a.name} #{a.uid}{', exhausted' if a.exhausted else ''}]"
    if c.face_down_shadows:
        n = c.face_down_shadows
        line += f" [{n} face-down shadow card{'s' if n != 1 else ''}]"
    for s in c.shadows:
        line += f" [shadow: {s.name}]"
    return line


def _group(title: str, cards: list[CardView], indent: str = "    ") -> list[str]:
    if not cards:
        return []
    return [f"  {title}:"] + [indent + card_line(c) for c in cards]


def _player(p: PlayerView) -> list[str]:
    head = f"{p.seat}  threat {p.threat}  hand {p.hand_size}  deck {p.deck_size}"
    if p.first:
        head += "  (first player)"
    if p.eliminated:
        head += "  ELIMINATED"
    lines = [head]
    lines += _group("Heroes", p.heroes)
    lines += _group("Allies", p.allies)
    lines += _group("Engaged", p.engaged)
    if p.hand is not None:
        lines += _group("Hand", p.hand)
    if p.discard:
        lines.append(f"  Discard: {', '.join(c.name for c in p.discard)}")
    return lines


def render(t: TableView) -> str:
    lines = [f"Round {t.round} - {t.phase or 'setup'} phase - version {t.version} - viewing as {t.viewer}"]
    if t.quest is not None:
        lines.append(f"Quest stage {t.quest_stage}: {t.quest.name} ({_stats(t.quest)})")
    if t.active_location is not None:
        lines.append(f"Active location: {card_line(t.active_location)}")
    threat = sum(c.threat or 0 for c in t.staging)
    lines.append(f"Staging area (threat {threat}):")
    lines += ["    " + card_line(c) for c in t.staging] or ["    (empty)"]
    lines.append(
        f"Encounter deck {t.encounter_deck_size} cards - discard {len(t.encounter_discard)}"
        f" - victory display: {', '.join(c.name for c in t.victory) or 'none'}"
    )
    for p in t.players:
        lines.append("")
        lines += _player(p)
    if t.outcome is not None:
        lines.append("")
        lines.append(f"GAME OVER: {t.outcome.result} ({t.outcome.reason})")
    return "\n".join(lines)
