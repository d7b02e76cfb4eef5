"""The War of the Ring table in a terminal, readable at a glance."""

from __future__ import annotations

from projections.wotr import CardView, LocationView, PlayerView, TableView


def _icons(c: CardView) -> str:
    parts = []
    if c.path:
        parts.append(f"path {c.path}")
    if c.bg_attack or c.bg_defense:
        parts.append(f"atk {c.bg_attack}/def {c.bg_defense}")
    if c.lead_attack or c.lead_defense:
        parts.append(f"lead ({c.lead_attack})/({c.lead_defense})")
    return ", ".join(parts)


def card_line(c: CardView) -> str:
    icons = _icons(c)
    line = f"{c.name} #{c.uid} [{c.faction} {c.type}{'; ' + icons if icons else ''}]"
    if c.owner:
        line += f" ({c.owner})"
    if c.reserved:
        line += " - played to reserve this round"
    for item in c.items:
        line += f" + {item.name} #{item.uid}" + (f" [{_icons(item)}]" if _icons(item) else "")
    return line


def location_line(loc: LocationView) -> str:
    if loc.kind == "path":
        head = f"Path {loc.number}: {loc.name} ({loc.vp} VP, defense {loc.defense})"
    else:
        head = (
            f"Battleground {loc.name} ({loc.deck} deck, {loc.vp} VP, defense {loc.defense}"
            f"{', printed defense ignored' if loc.ignore_defense else ''}; "
            f"defended by {'/'.join(loc.defending)}, attacked by {'/'.join(loc.attacking)})"
        )
    tokens = []
    if loc.attack_tokens:
        tokens.append(f"{loc.attack_tokens} attack token(s)")
    if loc.defense_tokens:
        tokens.append(f"{loc.defense_tokens} defense token(s)")
    return head + (f" - {', '.join(tokens)}" if tokens else "")


def _group(title: str, cards: list[CardView], indent: str = "    ") -> list[str]:
    if not cards:
        return []
    return [f"  {title}:"] + [indent + card_line(c) for c in cards]


def _player(p: PlayerView) -> list[str]:
    team = f"{p.team}, Shadow bot" if p.bot else p.team
    head = (
        f"{p.seat} ({team})  hand {p.hand_size}  deck {p.deck_size}  cycle {p.cycle_size}"
        f"  eliminated {p.eliminated_size}  carryover {p.carryover}"
    )
    if p.ring:
        head += f"  Ring token: {p.ring}"
    if p.starting:
        head += "  (starting player)"
    if p.to_act:
        head += "  <- to act"
    lines = [head]
    lines += _group("Reserve", p.reserve)
    if p.hand is not None:
        lines += _group("Hand", p.hand)
    if p.aside:
        lines += _group("Set aside (drawn, to play or cycle)", p.aside)
    if p.top_of_deck is not None:
        lines.append(f"  Top of deck (Mirror of Galadriel): {card_line(p.top_of_deck)}")
    if p.cycle:
        lines.append(f"  Cycle pile: {', '.join(c.name for c in p.cycle)}")
    if p.bot and p.eliminated:
        lines.append(f"  Eliminated pile: {', '.join(c.name for c in p.eliminated)}")
    return lines


def render(t: TableView) -> str:
    lines = [f"{t.scenario} - round {t.round} - {t.step or 'setup'} step - version {t.version} - viewing as {t.viewer}"]
    scores = "  ".join(f"{team.team} {team.score}" for team in t.teams)
    lines.append(f"Score: {scores}")
    for team in t.teams:
        scored = ", ".join(f"{loc.name} ({loc.vp})" for loc in team.scored) or "nothing"
        extra = f"; {team.face_down_paths} path(s) face down" if team.face_down_paths else ""
        extra += f"; {team.corruption} corruption" if team.corruption else ""
        lines.append(f"  {team.team} scoring area: {scored}{extra}")
    if t.effects:
        lines.append(f"This round: {', '.join(t.effects)}")
    for loc in ([t.path] if t.path else []) + t.battlegrounds:
        lines.append(location_line(loc))
        lines += ["    " + card_line(c) for c in loc.cards] or ["    (no cards)"]
    if t.combat is not None:
        lines.append(
            f"Combat: {t.combat.attack} attack against {t.combat.defense}; {t.combat.remaining} still to cancel"
        )
    for p in t.players:
        lines.append("")
        lines += _player(p)
    if t.outcome is not None:
        lines.append("")
        lines.append(f"GAME OVER: {t.outcome.result} wins ({t.outcome.reason})")
    return "\n".join(lines)
