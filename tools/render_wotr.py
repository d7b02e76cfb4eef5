"""The War of the Ring table in a terminal, readable at a glance."""

from __future__ import annotations

from domain.kernel.decisions import Decision, Option
from domain.wotr.cards import CARDS
from projections.phrases_wotr import combat_working, outcome_text, round_effect, scenario_title
from projections.wotr import CardView, LocationView, PlayerView, TableView, printed_view
from tools.render_shared import about, every_card, group, seats_and_end

CARRYOVER = 2
"""Rules §4.2: the hand a player may always pass with (the carryover limit's floor)."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _icons(c: CardView) -> str:
    """Icons by name, so a count never reads like a path's number: ``2 path icons``."""
    parts = []
    if c.path:
        parts.append(_plural(c.path, "path icon"))
    if c.bg_attack or c.bg_defense:
        parts.append(f"{_plural(c.bg_attack, 'attack icon')}, {_plural(c.bg_defense, 'defense icon')}")
    if c.lead_attack or c.lead_defense:
        parts.append(f"leadership {c.lead_attack} attack/{c.lead_defense} defense")
    return ", ".join(parts)


def allowed_paths(c: CardView) -> str:
    """The paths a character may be played on, as the card lists them."""
    if c.type != "character":
        return ""
    if not c.paths:
        return "may go on no path"
    numbers = list(c.paths)
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        return f"may go on paths {numbers[0]} to {numbers[-1]}"
    return f"may go on path{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


def card_line(c: CardView) -> str:
    icons = "; ".join(part for part in (_icons(c), allowed_paths(c)) if part)
    line = f"{c.name} [{c.faction} {c.type}{'; ' + icons if icons else ''}]"
    if c.owner:
        line += f" ({c.owner})"
    if c.reserved:
        line += " - played to reserve this round"
    for item in c.items:
        line += f" + {item.name}" + (f" [{_icons(item)}]" if _icons(item) else "")
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
    return group(title, cards, card_line, indent)


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
    title = scenario_title(t.scenario)
    lines = [f"{title} - round {t.round} - {t.step or 'setup'} step - version {t.version} - viewing as {t.viewer}"]
    scores = "  ".join(f"{team.team} {team.score}" for team in t.teams)
    lines.append(f"Score: {scores}")
    for team in t.teams:
        scored = ", ".join(f"{loc.name} ({loc.vp})" for loc in team.scored) or "nothing"
        extra = f"; {team.face_down_paths} path(s) face down" if team.face_down_paths else ""
        extra += f"; {team.corruption} corruption" if team.corruption else ""
        lines.append(f"  {team.team} scoring area: {scored}{extra}")
    if t.effects:
        lines.append(f"This round: {', '.join(round_effect(e) for e in t.effects)}")
    for loc in ([t.path] if t.path else []) + t.battlegrounds:
        lines.append(location_line(loc))
        lines += ["    " + card_line(c) for c in loc.cards] or ["    (no cards)"]
    if t.combat is not None:
        lines.append(
            f"Combat: {t.combat.attack} attack against {t.combat.defense}; {t.combat.remaining} still to cancel"
        )
    end = outcome(t) or None
    lines += seats_and_end(t.players, _player, end)
    return "\n".join(lines)


# -- what the table says on demand: a card's whole text, aids beside a decision -----------


def cards(t: TableView) -> list[CardView]:
    """Every card the view shows, items included."""
    roots = [c for loc in ([t.path] if t.path else []) + t.battlegrounds for c in loc.cards]
    for p in t.players:
        roots += [*p.reserve, *(p.hand or []), *(p.aside or []), *(p.cycle or [])]
        if p.top_of_deck is not None:
            roots.append(p.top_of_deck)
    return every_card(roots, lambda c: c.items)


def card_text(c: CardView) -> str:
    lines = [f"{c.name} - {c.faction} {c.type}" + (f" ({c.owner})" if c.owner else "")]
    icons = _icons(c)
    if icons:
        lines.append(f"  Icons: {icons}")
    paths = allowed_paths(c)
    if paths:
        lines.append(f"  Paths: {paths}")
    if c.keywords:
        lines.append(f"  Keywords: {', '.join(c.keywords)}")
    lines.append(f"  Text: {c.text or '(no text)'}")
    if c.items:
        lines.append(f"  Now: wielding {', '.join(i.name for i in c.items)}")
    if c.reserved:
        lines.append("  Now: played to reserve this round")
    return "\n".join(lines)


def option_note(t: TableView, decision: Decision, option: Option) -> str:
    if option.card is None:
        return ""
    card = next((c for c in cards(t) if c.uid == option.card), None)
    if card is None:
        return ""
    paths = allowed_paths(card) if option.id.startswith("play.") else ""
    return "; ".join(part for part in (_icons(card), paths) if part)


def _card_names(t: TableView) -> dict[int, str]:
    return {c.uid: c.name for c in cards(t)}


def combat_preview(t: TableView, loc: LocationView) -> list[str]:
    """Who would take a location if it were fought as it stands, card by card: the count
    the combat step itself makes (``domain.wotr.rules.combat.tally``, carried by the view),
    so the preview and the combat cannot differ."""
    count = loc.count
    if count is None:
        return []
    names = _card_names(t)
    defenders = "free" if count.attackers == "shadow" else "shadow"
    total = count.defense + count.defenders
    if count.winner == defenders:
        lead = "the defenders hold"
    elif count.winner == count.attackers:
        lead = "the attackers are winning"
    else:
        lead = "neither side would take it"
    head = (
        f"  Combat preview at {loc.name}: {count.attackers} attack {count.attack} against {defenders} defense {total}"
        f" ({count.defense} before losses, {count.defenders} on the defending cards): {lead}"
    )
    working = combat_working(count, lambda uid: names.get(uid, "a card"), loc.name)
    return [head, *(f"    {line}" for line in working)]


def notes(t: TableView, decision: Decision) -> list[str]:
    _, out = about({c.uid: c for c in cards(t)}, decision)
    if decision.rule.startswith(("wotr.action", "wotr.combat")):
        for loc in ([t.path] if t.path else []) + t.battlegrounds:
            if loc.cards or loc.attack_tokens:
                out += combat_preview(t, loc)
    if decision.rule.startswith("wotr.action") and not any(o.id == "pass" for o in decision.options):
        me = next((p for p in t.players if p.seat == decision.seat), None)
        if me is not None:
            enemies = [p for p in t.players if p.team != me.team]
            hands = ", ".join(f"{p.seat} {p.hand_size}" for p in enemies)
            out.append(
                f"  Pass is not offered: you hold {me.hand_size} cards, more than your carryover limit"
                f" ({max(CARRYOVER, me.carryover)}), and not fewer than every enemy (hands: {hands}) - rules 4.2"
            )
    return out


def outcome(t: TableView) -> str:
    """How the game ended, as the story tells it ("" while it goes on)."""
    if t.outcome is None:
        return ""
    return outcome_text(t.outcome.result, t.outcome.reason, t.outcome.winner)


def score(t: TableView) -> str:
    return "Score: " + ", ".join(f"{team.team} {team.score}" for team in t.teams)


def printed(query: str) -> list[CardView]:
    """Faction cards whose name starts with ``query``, as printed (not in play)."""
    wanted = query.casefold()
    return [printed_view(code) for code, d in CARDS.items() if d.name.casefold().startswith(wanted)]
