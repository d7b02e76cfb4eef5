"""``westmarch fixture capture GAME --at N``: the table at version N as a fixture file.

The file lays out the same position (every card in its zone, in order, with its uid, tokens
and state; threats; round, phase and first player; players already eliminated; the lasting
effects, used limits and delayed effects running; the attack or combat being resolved),
the game's cursor as it stands (``stack``: every procedure and step part way through, so a
decision half-answered or shadow cards already dealt are where the game left them) and the
random draws already made (``rng``: chance after the position is the game's own). It
expects the pending decision to be asked again, so ``westmarch fixture run`` passes on it
as captured. A dispute becomes a test by adding the ``[[step]]`` answers and the
``[expect]`` that the rules should give.

Before the file is given out, it is loaded and the table it lays out is compared with the
captured one field by field: a position the format cannot state is refused with the
fields that differ (:class:`CaptureError`), never written as a file that tests another one.

Each card is labelled ``Name#uid`` and keeps its uid, so the labels in the file are the
names the game's log and table use.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

import msgspec

from domain.kernel.ruleset import Ruleset, SetupError
from domain.kernel.runtime import fold
from domain.kernel.state import State
from domain.lcg.cards import CARDS as LCG_CARDS
from domain.lcg.position import PLAYER_ZONES as LCG_PLAYER_ZONES
from domain.lcg.position import SHARED_ZONES as LCG_SHARED_ZONES
from domain.lcg.state import Attack, LcgState
from domain.wotr.cards import name_of
from domain.wotr.position import PLAYER_ZONES as WOTR_PLAYER_ZONES
from domain.wotr.position import SHARED_ZONES as WOTR_SHARED_ZONES
from domain.wotr.rules import table as wotr_table
from domain.wotr.state import TEAMS, Combat, WotrState
from tools.fixtures import FixtureError


class CaptureError(Exception):
    """The position cannot be written as a fixture (a zone, a value or a moment the format lacks)."""


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
    if value is None:
        raise CaptureError("a value bound to nothing inside a list or table has no place in the fixture format")
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


def _stack(state: State) -> list[dict[str, Any]]:
    """The cursor as the position's ``stack``: each frame's node, index, bindings (those
    bound to nothing under ``none``, TOML having no null) and loop items."""
    out = []
    for frame in state.stack:
        entry: dict[str, Any] = {"node": frame.node}
        if frame.i:
            entry["i"] = frame.i
        env = {k: v for k, v in frame.env.items() if v is not None}
        if env:
            entry["env"] = env
        none = [k for k, v in frame.env.items() if v is None]
        if none:
            entry["none"] = none
        if frame.items is not None:
            entry["items"] = list(frame.items)
        out.append(entry)
    return out


def _moment(state: State) -> None:
    """Refuse a version the position cannot be played on from: a game that is over."""
    if state.over is not None:
        raise CaptureError(
            f"the game is over at version {state.version} ({state.over.result}, {state.over.reason}): "
            "there is nothing left to play from it"
        )


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
            entry: dict[str, Any] = {"card": card.code, "as": _lcg_label(s, uid), "uid": uid}
            seat = zone.partition(".")[0]
            if card.owner is not None and card.owner != (seat if seat in s.players else None):
                entry["owner"] = card.owner  # a player's attachment, a card in another's area
            for name in ("damage", "resources", "progress"):
                if getattr(card, name):
                    entry[name] = getattr(card, name)
            for name in ("exhausted", "committed", "shown", "surge", "cancelled", "known"):
                if getattr(card, name):
                    entry[name] = True
            if card.claimed != (zone == "attachments" and LCG_CARDS[card.code].type == "objective"):
                entry["claimed"] = card.claimed
            if LCG_CARDS[card.code].type == "quest" or card.face != "A":
                entry["face"] = card.face
            if card.attached_to is not None:
                entry["on"] = _lcg_label(s, card.attached_to)
            entries.append(entry)
        zones[zone] = entries
    # Zones a position fills by default when left out are stated empty.
    for seat in s.players:
        zones.setdefault(f"{seat}.heroes", [])
    zones.setdefault("quest", [])
    return _hosts_first(zones)


def _hosts_first(zones: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Zones in the file's order: cards that others sit on before attachments and shadows."""
    later = ("attachments", "shadows")
    return {k: v for k, v in zones.items() if k not in later} | {k: zones[k] for k in later if k in zones}


def _lcg_attack(s: LcgState, attack: Attack) -> dict[str, Any]:
    out: dict[str, Any] = {"enemy": _lcg_label(s, attack.enemy), "player": attack.player}
    if attack.defender is not None:
        out["defender"] = _lcg_label(s, attack.defender)
    if attack.attackers:
        out["attackers"] = [_lcg_label(s, u) for u in attack.attackers]
    if attack.defenders:
        out["defenders"] = [_lcg_label(s, u) for u in attack.defenders]
    if attack.outer is not None:
        out["outer"] = _lcg_attack(s, attack.outer)
    return out


def capture_lcg(s: LcgState, name: str) -> str:
    options = s.options
    if options is None:
        raise CaptureError("the game is not set up yet at that version")
    _moment(s)
    game: dict[str, Any] = {
        "ruleset": "lcg",
        "scenario": options.scenario,
        "players": len(options.players),
        "heroes": [[LCG_CARDS[h].name for h in p.heroes] for p in options.players],
        "seed": s.seed,
        "difficulty": options.difficulty,
    }
    if any(p.contract for p in options.players):  # chosen at setup (rulebook, Contracts)
        game["contracts"] = [LCG_CARDS[p.contract].name if p.contract else "" for p in options.players]
    position: dict[str, Any] = {
        "round": s.round,
        "phase": s.phase,
        "first": s.first,
        "threat": {seat: p.threat for seat, p in s.players.items()},
        "rng": s.rng,
    }
    eliminated = [seat for seat, p in s.players.items() if p.eliminated]
    if eliminated:
        position["eliminated"] = eliminated
    if s.shared:  # a group of an epic event: the other groups' part, as it last learned it
        position["shared"] = dict(s.shared)
    if s.relays:
        position["relays"] = s.relays
    position |= _lasting(s, lambda uid: _lcg_label(s, uid))
    position["stack"] = _stack(s)
    lines = [f"name = {_toml(name)}", 'source = "captured with westmarch fixture capture"', ""]
    lines += _table("game", game)
    if options.epic:
        epic = {
            "id": options.epic,
            "players": options.epic_players,
            "group": options.epic_group,
            "groups": options.epic_groups,
        }
        lines += _table("game.epic", epic)
    lines += _table("position", position)
    if s.attack is not None:
        lines += _table("position.attack", _lcg_attack(s, s.attack))
    lines += _table("position.zones", _lcg_zones(s))
    threats = {seat: {"threat": p.threat} for seat, p in s.players.items()}
    return "\n".join(lines + _expectations(lines, s, threats)).rstrip() + "\n"


SETUP_ONLY = {"lcg": ("deck", "contract"), "wotr": ("cards",)}
"""What a player's deck was made of before setup (``options.players`` / ``options.decks``):
only setup reads it, and a position lays out every card where setup and play put it, so it
is not part of the table compared (the fixture format's ``[game]`` names no deck list)."""


def table_of(state: State) -> dict[str, Any]:
    """The table, field by field, as compared between a captured game and its fixture: the
    whole state but the bookkeeping of the log it was folded from (version, hash chain, the
    pending decision's id: its number in that log) and empty zones."""
    out: dict[str, Any] = _plain(state)
    for key in ("version", "head"):
        out.pop(key, None)
    if isinstance(out.get("pending"), dict):
        out["pending"].pop("id", None)
    out["zones"] = {k: v for k, v in out.get("zones", {}).items() if v}
    options = out.get("options")
    if isinstance(options, dict):
        for key, fields in (("players", SETUP_ONLY["lcg"]), ("decks", SETUP_ONLY["wotr"])):
            for setup in options.get(key, []):
                for f in fields:
                    setup.pop(f, None)
    return out


def _plain(value: Any) -> Any:
    """A value as plain data, every field of a struct given (a default left out of the
    encoding on one side only is no difference)."""
    if isinstance(value, msgspec.Struct):
        return {f.name: _plain(getattr(value, f.name)) for f in msgspec.structs.fields(value)}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two tables (:func:`table_of`) differ: each field's path and both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in list(a) + [k for k in b if k not in a]:
            out += differences(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} in the game, {b!r} laid out"]


def _expectations(lines: list[str], state: State, players: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Check the position laid out against the captured table, then what it must give: the
    captured decision asked again, and the captured threats or scores."""
    from tools.fixtures import Run

    try:
        run = Run(tomllib.loads("\n".join(lines)))
    except (SetupError, FixtureError) as error:
        raise CaptureError(f"the position cannot be laid out: {error}") from None
    laid = run.game.state
    # At a decision, the position asks it again: the table then is the captured one. Part
    # way through a rule step, the table the position event lays out is (the rules then
    # run on from the captured cursor to the next decision).
    placed = laid if state.pending is not None else fold(run.rules, run.log[:2])
    diff = differences(table_of(state), table_of(placed))
    if diff:
        more = f" (and {len(diff) - 3} more)" if len(diff) > 3 else ""
        raise CaptureError(
            "the fixture format cannot state this position; laid out, it differs in " + "; ".join(diff[:3]) + more
        )
    out = []
    if state.pending is None:
        out.append(f"# The game was part way through a rule step at version {state.version}; the position runs on")
        out.append("# from there to what follows below, as the rules then go on.")
    decision = laid.pending
    expect: dict[str, Any] = {"decision": {"seat": decision.seat, "rule": decision.rule} if decision else False}
    if laid.over is not None:
        expect |= {"result": laid.over.result, "reason": laid.over.reason}
    out += _table("expect", expect)
    for who, values in players.items():
        read = {name: run.adapter.player_value(laid, who, name) for name in values}
        out += _table(f"expect.players.{who}", read)
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
        entries = []
        for uid in uids:  # in the game's order (an item's wielder is found wherever it is listed)
            card = s.cards[uid]
            entry: dict[str, Any] = {"card": card.code, "as": _wotr_label(s, uid), "uid": uid}
            # outside a seat's own zones, the owner a position gives by default may not be the game's
            if card.owner is not None and (seat not in seats or card.owner != seat):
                entry["owner"] = card.owner
            if card.reserved:
                entry["reserved"] = True
            for name in ("attack_tokens", "defense_tokens"):
                if getattr(card, name):
                    entry[name] = getattr(card, name)
            for name in ("ignore_defense", "known"):
                if getattr(card, name):
                    entry[name] = True
            if card.wielder is not None:
                entry["on"] = _wotr_label(s, card.wielder)
            entries.append(entry)
        zones[zone] = entries
    return zones


def _wotr_combat(s: WotrState, combat: Combat) -> dict[str, Any]:
    out: dict[str, Any] = {
        "location": _wotr_label(s, combat.location),
        "kind": combat.kind,
        "attackers": combat.attackers,
        "attack": combat.attack,
        "defense": combat.defense,
        "remaining": combat.remaining,
        "defenders": combat.defenders,
        "empty": combat.empty,
    }
    if combat.supports:
        out["supports"] = [[_wotr_label(s, u) for u in pair] for pair in combat.supports]
    if combat.losses:
        out["losses"] = [_wotr_label(s, u) for u in combat.losses]
    return out


def capture_wotr(s: WotrState, name: str) -> str:
    options = s.options
    if options is None:
        raise CaptureError("the game is not set up yet at that version")
    _moment(s)
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
        "round": s.round,
        "start": s.start,
        "turn": s.turn,
        "passes": s.passes,
        "step": s.step,
        "path_number": s.path_number,
        "corruption": s.corruption,
        "rings": {seat: p.ring for seat, p in s.players.items()},
        "played": [_wotr_label(s, u) for u in s.played],
        "effects": list(s.effects),
        "rng": s.rng,
    }
    position |= _lasting(s, lambda uid: _wotr_label(s, uid))
    position["stack"] = _stack(s)
    lines = [f"name = {_toml(name)}", 'source = "captured with westmarch fixture capture"', ""]
    lines += _table("game", game)
    lines += _table("position", position)
    if s.combat is not None:
        lines += _table("position.combat", _wotr_combat(s, s.combat))
    lines += _table("position.zones", _wotr_zones(s))
    scores = {team: {"score": wotr_table.score(s, team), "corruption": s.corruption} for team in TEAMS}
    return "\n".join(lines + _expectations(lines, s, scores)).rstrip() + "\n"


def capture(rules: Ruleset[Any], state: State, name: str) -> str:
    """The fixture file (TOML text) of ``state``; :class:`CaptureError` says why not."""
    if isinstance(state, LcgState):
        return capture_lcg(state, name)
    if isinstance(state, WotrState):
        return capture_wotr(state, name)
    raise CaptureError(f"capturing a {rules.name} position is not supported")
