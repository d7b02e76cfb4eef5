"""The War of the Ring table in a terminal, readable at a glance."""

from __future__ import annotations

from domain.kernel.decisions import Decision, Option
from domain.wotr.cards import CARDS
from projections.i18n import N_, NP_, _, card_name, nsay, pgettext, say
from projections.phrases_wotr import combat_working, outcome_text, round_effect, scenario_title
from projections.wotr import CardView, LocationView, PlayerView, TableView, printed_view
from tools.render_shared import about, every_card, group, seats_and_end

CARRYOVER = 2
"""Rules §4.2: the hand a player may always pass with (the carryover limit's floor)."""


FACTIONS = {
    "dunedain": N_("dunedain"),
    "dwarf": N_("dwarf"),
    "elf": N_("elf"),
    "hobbit": N_("hobbit"),
    "isengard": N_("isengard"),
    "monstrous": N_("monstrous"),
    "mordor": N_("mordor"),
    "rohan": N_("rohan"),
    "southron": N_("southron"),
    "wizard": N_("wizard"),
}
STEPS = {
    "setup": NP_("step", "setup"),
    "draw": NP_("step", "draw"),
    "location": NP_("step", "location"),
    "action": NP_("step", "action"),
    "combat": NP_("step", "combat"),
    "victory": NP_("step", "victory"),
}
"""The steps as the table's first line names them (``round 2 - action step``)."""
TYPES = {"army": N_("army"), "character": N_("character"), "event": N_("event"), "item": N_("item")}


def _word(table: dict[str, str], key: str) -> str:
    return _(table[key]) if key in table else key


def _icons(c: CardView) -> str:
    """Icons by name, so a count never reads like a path's number: ``2 path icons``."""
    parts = []
    if c.path:
        parts.append(nsay("%(n)d path icon", "%(n)d path icons", c.path))
    if c.bg_attack or c.bg_defense:
        attack = nsay("%(n)d attack icon", "%(n)d attack icons", c.bg_attack)
        defense = nsay("%(n)d defense icon", "%(n)d defense icons", c.bg_defense)
        parts.append(f"{attack}, {defense}")
    if c.lead_attack or c.lead_defense:
        parts.append(
            say("leadership %(attack)s attack/%(defense)s defense", attack=c.lead_attack, defense=c.lead_defense)
        )
    return ", ".join(parts)


def allowed_paths(c: CardView) -> str:
    """The paths a character may be played on, as the card lists them."""
    if c.type != "character":
        return ""
    if not c.paths:
        return _("may go on no path")
    numbers = list(c.paths)
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        return say("may go on paths %(first)s to %(last)s", first=numbers[0], last=numbers[-1])
    return nsay(
        "may go on path %(paths)s", "may go on paths %(paths)s", len(numbers), paths=", ".join(map(str, numbers))
    )


def _kind(c: CardView) -> str:
    """``elf army``: the card's faction and type."""
    return say("%(faction)s %(type)s", faction=_word(FACTIONS, c.faction), type=_word(TYPES, c.type))


def card_line(c: CardView) -> str:
    icons = "; ".join(part for part in (_icons(c), allowed_paths(c)) if part)
    line = f"{card_name(c.name)} [{_kind(c)}{'; ' + icons if icons else ''}]"
    if c.owner:
        line += f" ({c.owner})"
    if c.reserved:
        line += " - " + _("played to reserve this round")
    for item in c.items:
        line += f" + {card_name(item.name)}" + (f" [{_icons(item)}]" if _icons(item) else "")
    return line


def location_line(loc: LocationView) -> str:
    if loc.kind == "path":
        head = say(
            "Path %(number)s: %(name)s (%(vp)s VP, defense %(defense)s)",
            number=loc.number,
            name=card_name(loc.name),
            vp=loc.vp,
            defense=loc.defense,
        )
    else:
        head = say(
            "Battleground %(name)s (%(deck)s deck, %(vp)s VP, defense %(defense)s%(ignored)s; "
            "defended by %(defending)s, attacked by %(attacking)s)",
            name=card_name(loc.name),
            deck=_team(loc.deck),
            vp=loc.vp,
            defense=loc.defense,
            ignored=_(", printed defense ignored") if loc.ignore_defense else "",
            defending="/".join(_word(FACTIONS, f) for f in loc.defending),
            attacking="/".join(_word(FACTIONS, f) for f in loc.attacking),
        )
    tokens = []
    if loc.attack_tokens:
        tokens.append(nsay("%(n)d attack token", "%(n)d attack tokens", loc.attack_tokens))
    if loc.defense_tokens:
        tokens.append(nsay("%(n)d defense token", "%(n)d defense tokens", loc.defense_tokens))
    return head + (f" - {', '.join(tokens)}" if tokens else "")


def _group(title: str, cards: list[CardView], indent: str = "    ") -> list[str]:
    return group(title, cards, card_line, indent)


def _player(p: PlayerView) -> list[str]:
    side = say("%(team)s, Shadow bot", team=_team(p.team)) if p.bot else _team(p.team)
    head = say(
        "%(seat)s (%(team)s)  hand %(hand)s  deck %(deck)s  cycle %(cycle)s  eliminated %(eliminated)s"
        "  carryover %(carryover)s",
        seat=p.seat,
        team=side,
        hand=p.hand_size,
        deck=p.deck_size,
        cycle=p.cycle_size,
        eliminated=p.eliminated_size,
        carryover=p.carryover,
    )
    if p.ring:
        head += "  " + say("Ring token: %(ring)s", ring=_(RINGS.get(p.ring, p.ring)) if p.ring in RINGS else p.ring)
    if p.starting:
        head += "  " + _("(starting player)")
    if p.to_act:
        head += "  " + _("<- to act")
    lines = [head]
    lines += _group(_("Reserve"), p.reserve)
    if p.hand is not None:
        lines += _group(_("Hand"), p.hand)
    if p.aside:
        lines += _group(_("Set aside (drawn, to play or cycle)"), p.aside)
    if p.top_of_deck is not None:
        lines.append("  " + say("Top of deck (Mirror of Galadriel): %(card)s", card=card_line(p.top_of_deck)))
    if p.cycle:
        lines.append("  " + say("Cycle pile: %(cards)s", cards=", ".join(card_name(c.name) for c in p.cycle)))
    if p.bot and p.eliminated:
        lines.append("  " + say("Eliminated pile: %(cards)s", cards=", ".join(card_name(c.name) for c in p.eliminated)))
    return lines


RINGS = {"ready": N_("ready"), "spent": N_("spent"), "used": N_("used")}


def _team(key: str) -> str:
    """``free`` and ``shadow`` as the table names the teams."""
    return pgettext("team", SIDES[key]) if key in SIDES else key


SIDES = {"free": NP_("team", "free"), "shadow": NP_("team", "shadow")}


def render(t: TableView) -> str:
    title = scenario_title(t.scenario)
    lines = [
        say(
            "%(title)s - round %(round)s - %(step)s step - version %(version)s - viewing as %(viewer)s",
            title=title,
            round=t.round,
            step=pgettext("step", STEPS[t.step or "setup"]) if (t.step or "setup") in STEPS else t.step,
            version=t.version,
            viewer=t.viewer,
        )
    ]
    scores = "  ".join(f"{_team(side.team)} {side.score}" for side in t.teams)
    lines.append(say("Score: %(scores)s", scores=scores))
    for side in t.teams:
        scored = ", ".join(f"{card_name(loc.name)} ({loc.vp})" for loc in side.scored) or _("nothing")
        extra = (
            "; " + nsay("%(n)d path face down", "%(n)d paths face down", side.face_down_paths)
            if side.face_down_paths
            else ""
        )
        extra += "; " + say("%(n)s corruption", n=side.corruption) if side.corruption else ""
        lines.append("  " + say("%(team)s scoring area: %(scored)s", team=_team(side.team), scored=scored) + extra)
    if t.effects:
        lines.append(say("This round: %(effects)s", effects=", ".join(round_effect(e) for e in t.effects)))
    for loc in ([t.path] if t.path else []) + t.battlegrounds:
        lines.append(location_line(loc))
        lines += ["    " + card_line(c) for c in loc.cards] or ["    " + _("(no cards)")]
    if t.combat is not None:
        lines.append(
            say(
                "Combat: %(attack)s attack against %(defense)s; %(remaining)s still to cancel",
                attack=t.combat.attack,
                defense=t.combat.defense,
                remaining=t.combat.remaining,
            )
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
    lines = [f"{card_name(c.name)} - {_kind(c)}" + (f" ({c.owner})" if c.owner else "")]
    icons = _icons(c)
    if icons:
        lines.append("  " + say("Icons: %(icons)s", icons=icons))
    paths = allowed_paths(c)
    if paths:
        lines.append("  " + say("Paths: %(paths)s", paths=paths))
    if c.keywords:
        lines.append("  " + say("Keywords: %(keywords)s", keywords=", ".join(c.keywords)))
    lines.append("  " + say("Text: %(text)s", text=c.text or _("(no text)")))
    if c.items:
        lines.append("  " + say("Now: wielding %(items)s", items=", ".join(card_name(i.name) for i in c.items)))
    if c.reserved:
        lines.append("  " + say("Now: %(state)s", state=_("played to reserve this round")))
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
        lead = _("the defenders hold")
    elif count.winner == count.attackers:
        lead = _("the attackers are winning")
    else:
        lead = _("neither side would take it")
    head = "  " + say(
        "Combat preview at %(location)s: %(attackers)s attack %(attack)s against %(defenders)s defense %(total)s"
        " (%(defense)s before losses, %(cards)s on the defending cards): %(lead)s",
        location=card_name(loc.name),
        attackers=_team(count.attackers),
        attack=count.attack,
        defenders=_team(defenders),
        total=total,
        defense=count.defense,
        cards=count.defenders,
        lead=lead,
    )
    working = combat_working(count, lambda uid: card_name(names.get(uid, "")) or _("a card"), card_name(loc.name))
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
                "  "
                + say(
                    "Pass is not offered: you hold %(hand)s cards, more than your carryover limit (%(limit)s),"
                    " and not fewer than every enemy (hands: %(hands)s) - rules 4.2",
                    hand=me.hand_size,
                    limit=max(CARRYOVER, me.carryover),
                    hands=hands,
                )
            )
    return out


def outcome(t: TableView) -> str:
    """How the game ended, as the story tells it ("" while it goes on)."""
    if t.outcome is None:
        return ""
    return outcome_text(t.outcome.result, t.outcome.reason, t.outcome.winner)


def score(t: TableView) -> str:
    return say("Score: %(scores)s", scores=", ".join(f"{_team(side.team)} {side.score}" for side in t.teams))


def printed(query: str) -> list[CardView]:
    """Faction cards whose name starts with ``query``, as printed (not in play)."""
    wanted = query.casefold()
    return [printed_view(code) for code, d in CARDS.items() if d.name.casefold().startswith(wanted)]
