"""``westmarch fixture capture GAME --at N``: the table at version N as a fixture file.

The file lays out the same position (every card in its zone, in order, with its tokens and
state; threats; round, phase and first player; players already eliminated; the lasting
effects, used limits and delayed effects running), starts it at the step of the round the
pending decision belongs to, and expects that decision to be asked again, so that
``westmarch fixture run`` passes on it as captured. A dispute becomes a test by adding the
``[[step]]`` answers and the ``[expect]`` that the rules should give.

Each card is labelled ``Name#uid`` (its uid in the captured game), so the labels in the
file are the names the game's log and table use. Chance after the position comes from
the captured game's seed, counted afresh: shuffles and random picks after it may differ
from the game's own.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.kernel.decisions import Decision
from domain.kernel.position import round_frames
from domain.kernel.ruleset import Ruleset, SetupError
from domain.kernel.state import State
from domain.lcg.cards import CARDS as LCG_CARDS
from domain.lcg.position import PLAYER_ZONES as LCG_PLAYER_ZONES
from domain.lcg.position import SHARED_ZONES as LCG_SHARED_ZONES
from domain.lcg.state import LcgState
from domain.wotr.cards import name_of
from domain.wotr.position import PLAYER_ZONES as WOTR_PLAYER_ZONES
from domain.wotr.position import SHARED_ZONES as WOTR_SHARED_ZONES
from domain.wotr.rules import table as wotr_table
from domain.wotr.state import TEAMS, WotrState


class CaptureError(Exception):
    """The position cannot be written as a fixture (a zone or step the format lacks)."""


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise CaptureError(f"cannot write {value!r} in a fixture")


def _key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else _toml(key)


def _table(name: str, values: Mapping[str, Any]) -> list[str]:
    lines = [f"[{name}]"]
    for k, v in values.items():
        if isinstance(v, list) and len(v) > 3:
            lines += [f"{_key(k)} = [", *(f"  {_toml(item)}," for item in v), "]"]
        else:
            lines.append(f"{_key(k)} = {_toml(v)}")
    return [*lines, ""]


_UID_IN_KEY = re.compile(r"(?<![\w])\d+(?![\w])")


def _lasting(state: State, label: Callable[[int], str]) -> dict[str, list[dict[str, Any]]]:
    """What is already running, as the position's ``modifiers``, ``limits`` and ``delayed``:
    cards by their labels (a limit's key names one as ``{label}``)."""

    def card(value: Any) -> Any:
        return label(value) if isinstance(value, int) and not isinstance(value, bool) and value in cards else value

    cards = getattr(state, "cards", {})
    out: dict[str, list[dict[str, Any]]] = {}
    for m in state.modifiers:
        entry = {"card": card(m.target), "stat": m.stat, "amount": m.amount, "until": m.until}
        out.setdefault("modifiers", []).append(entry | ({"source": card(m.source)} if m.source is not None else {}))
    for x in state.limits:
        key = _UID_IN_KEY.sub(lambda g: f"{{{label(int(g.group()))}}}" if int(g.group()) in cards else g.group(), x.key)
        out.setdefault("limits", []).append({"key": key, "until": x.until})
    for d in state.delayed:
        env = dict(d.env)
        own = env.pop("_card", env.get("self"))
        env.pop("self", None)
        if own is None:
            raise CaptureError(f"the delayed effect {d.node!r} names no card")
        entry = {"card": card(own), "program": d.node, "at": d.at}
        if "player" in env:
            entry["player"] = env.pop("player")
        if env:
            entry["bind"] = {name: card(value) for name, value in env.items()}
        out.setdefault("delayed", []).append(entry)
    return out


def start_step(game: str, round_program: str, rule: str) -> str:
    """The step of the round a decision of ``rule`` belongs to: the rule itself, or its
    longest prefix a position can start at (``lcg.quest.commit``, ``lcg.combat``...)."""
    parts = rule.split(".")
    for n in range(len(parts), 1, -1):
        candidate = ".".join(parts[:n])
        try:
            round_frames(game, round_program, candidate)
        except SetupError:
            continue
        return candidate
    return round_program


def _lcg_label(s: LcgState, uid: int) -> str:
    return f"{LCG_CARDS[s.cards[uid].code].name}#{uid}"


def _lcg_zones(s: LcgState) -> dict[str, list[Any]]:
    known = set(LCG_SHARED_ZONES) | {f"{seat}.{z}" for seat in s.players for z in LCG_PLAYER_ZONES}
    zones: dict[str, list[Any]] = {}
    for zone, uids in s.zones.items():
        if not uids:
            continue
        if zone not in known:
            raise CaptureError(f"the zone {zone!r} has no place in the fixture format")
        entries = []
        for uid in uids:
            card = s.cards[uid]
            entry: dict[str, Any] = {"card": card.code, "as": _lcg_label(s, uid)}
            seat = zone.partition(".")[0]
            if card.owner is not None and card.owner != (seat if seat in s.players else None):
                entry["owner"] = card.owner  # a player's attachment, a card in another's area
            for name in ("damage", "resources", "progress"):
                if getattr(card, name):
                    entry[name] = getattr(card, name)
            for name in ("exhausted", "committed", "shown"):
                if getattr(card, name):
                    entry[name] = True
            if LCG_CARDS[card.code].type == "quest" or card.face != "A":
                entry["face"] = card.face
            if card.attached_to is not None:
                entry["on"] = _lcg_label(s, card.attached_to)
            entries.append(entry)
        zones[zone] = entries
    return _hosts_first(zones)


def _hosts_first(zones: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Zones in the file's order: cards that others sit on before attachments and shadows."""
    later = ("attachments", "shadows")
    return {k: v for k, v in zones.items() if k not in later} | {k: zones[k] for k in later if k in zones}


def capture_lcg(s: LcgState, name: str) -> str:
    options = s.options
    if options is None:
        raise CaptureError("the game is not set up yet at that version")
    decision = s.pending
    at = start_step("lcg.game", "lcg.round", decision.rule) if decision is not None else "lcg.round"
    game = {
        "ruleset": "lcg",
        "scenario": options.scenario,
        "players": len(options.players),
        "heroes": [[LCG_CARDS[h].name for h in p.heroes] for p in options.players],
        "seed": s.seed,
        "difficulty": options.difficulty,
    }
    position = {
        "at": at,
        "round": max(1, s.round),
        "phase": s.phase,
        "first": s.first,
        "threat": {seat: p.threat for seat, p in s.players.items()},
    }
    eliminated = [seat for seat, p in s.players.items() if p.eliminated]
    if eliminated:
        position["eliminated"] = eliminated
    position |= _lasting(s, lambda uid: _lcg_label(s, uid))
    lines = [f"name = {_toml(name)}", 'source = "captured with westmarch fixture capture"', ""]
    lines += _table("game", game)
    lines += _table("position", position)
    lines += _table("position.zones", _lcg_zones(s))
    threats = {seat: {"threat": p.threat} for seat, p in s.players.items()}
    return "\n".join(lines + _expectations(lines, decision, threats)).rstrip() + "\n"


def _expectations(lines: list[str], decision: Decision | None, players: Mapping[str, Mapping[str, int]]) -> list[str]:
    """What the laid-out position must give: the captured decision asked again, and the
    captured threats or scores. A position starts at the beginning of a step, so a decision
    taken part way through one (the second player's commit, a Shadow bot's turn done before
    it) comes after the step's earlier part is played again: then the first decision the
    position asks is expected, a comment says which decision the game was at, and a value
    that playing the step again changes is left out with a comment saying so."""
    from tools.fixtures import Run

    run = Run(tomllib.loads("\n".join(lines)))
    asked = run.game.state.pending
    out = []
    if decision is not None and asked is not None and (asked.seat, asked.rule) != (decision.seat, decision.rule):
        out += [
            f"# The game was at {decision.seat}'s decision {decision.rule!r} ({decision.prompt});",
            "# a position starts at the beginning of a step of the round, so this file's position",
            "# starts at the step named by `at`, where the decision below comes first.",
        ]
    if asked is not None:
        out += _table("expect", {"decision": {"seat": asked.seat, "rule": asked.rule}})
    for who, values in players.items():
        kept = {name: v for name, v in values.items() if run.adapter.player_value(run.game.state, who, name) == v}
        for name in values.keys() - kept.keys():
            out.append(
                f"# {who} {name} was {values[name]} in the game; playing the step again from its start changes it."
            )
        if kept:
            out += _table(f"expect.players.{who}", kept)
    return out


def _wotr_label(s: WotrState, uid: int) -> str:
    return f"{name_of(s.cards[uid].code)}#{uid}"


def _wotr_zones(s: WotrState) -> dict[str, list[Any]]:
    seats = set(s.players)
    zones: dict[str, list[Any]] = {}
    for zone, uids in s.zones.items():
        if not uids:
            continue
        seat, _, rest = zone.partition(".")
        known = (seat in seats and rest in WOTR_PLAYER_ZONES) or zone in WOTR_SHARED_ZONES
        if not (known or zone.startswith(("at.", "paths."))):
            raise CaptureError(f"the zone {zone!r} has no place in the fixture format")
        # an item is listed after the character that wields it
        ordered = [u for u in uids if s.cards[u].wielder is None] + [u for u in uids if s.cards[u].wielder is not None]
        entries = []
        for uid in ordered:
            card = s.cards[uid]
            entry: dict[str, Any] = {"card": card.code, "as": _wotr_label(s, uid)}
            if card.owner is not None and card.owner != (seat if seat in seats else None):
                entry["owner"] = card.owner
            if card.reserved:
                entry["reserved"] = True
            for name in ("attack_tokens", "defense_tokens"):
                if getattr(card, name):
                    entry[name] = getattr(card, name)
            if card.ignore_defense:
                entry["ignore_defense"] = True
            if card.wielder is not None:
                entry["on"] = _wotr_label(s, card.wielder)
            entries.append(entry)
        zones[zone] = entries
    return zones


def capture_wotr(s: WotrState, name: str) -> str:
    options = s.options
    if options is None:
        raise CaptureError("the game is not set up yet at that version")
    decision = s.pending
    at = start_step("wotr.game", "wotr.round", decision.rule) if decision is not None else "wotr.round"
    rules = options.rules
    game = {
        "ruleset": "wotr",
        "scenario": options.scenario,
        "seed": s.seed,
        "rules": {
            "excess_hand": rules.excess_hand,
            "play_cost": rules.play_cost,
            "empty_combat": rules.empty_combat,
            "when_played_in_reserve": rules.when_played_in_reserve,
        },
    }
    if options.bots:
        if options.bot_cards:
            raise CaptureError("a game whose Shadow bots play a --bot-cards file cannot be captured")
        game["bots"] = list(options.bots)
        game["difficulty"] = options.difficulty
    position: dict[str, Any] = {
        "at": at,
        "round": max(1, s.round),
        "start": s.start,
        "turn": s.turn,
        "step": s.step,
        "path_number": s.path_number,
        "corruption": s.corruption,
        "rings": {seat: p.ring for seat, p in s.players.items() if p.ring},
        "played": [_wotr_label(s, u) for u in s.played],
        "effects": list(s.effects),
    }
    position |= _lasting(s, lambda uid: _wotr_label(s, uid))
    lines = [f"name = {_toml(name)}", 'source = "captured with westmarch fixture capture"', ""]
    lines += _table("game", game)
    lines += _table("position", position)
    lines += _table("position.zones", _wotr_zones(s))
    scores = {team: {"score": wotr_table.score(s, team), "corruption": s.corruption} for team in TEAMS}
    return "\n".join(lines + _expectations(lines, decision, scores)).rstrip() + "\n"


def capture(rules: Ruleset[Any], state: State, name: str) -> str:
    """The fixture file (TOML text) of ``state``."""
    if isinstance(state, LcgState):
        return capture_lcg(state, name)
    if isinstance(state, WotrState):
        return capture_wotr(state, name)
    raise CaptureError(f"capturing a {rules.name} position is not supported")
