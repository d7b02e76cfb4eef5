"""Action step (rules §4.2, §5, seed 004): in turn order from the starting player, each seat
takes one action or passes, until every position has passed in a row.

The actions: play a card from hand (paying its cost: cycle another card, or forsake when
it is the last), move a card from reserve onto an active location (not one played to
reserve this round), cycle a card, winnow (eliminate 2 cards from hand, draw 1), use the
action text of a card in play, use the Ring token. A seat may pass only with no more
cards in hand than its carryover limit, or with fewer than every enemy.

At the end of the step a hand above the carryover limit is cycled down to it (open
question 1; ``RuleOptions.excess_hand``).
"""

from __future__ import annotations

from functools import cache

from domain.kernel.decisions import Option
from domain.kernel.flow import Ask, Call, Case, Decide, ForEach, If, Let, Node, Repeat, Seq, register
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.effects import PLAYER, ability_used, choose, chosen, draw, emit, st
from domain.wotr.rules import table
from domain.wotr.rules.table import TEXTS, cards_in, text_of
from domain.wotr.state import Seat, Uid, WotrState


def _eliminated_by_text(rt: Runtime) -> dict[str, object]:
    """A card a rule or text eliminates goes through ``wotr.eliminate`` ("cycle instead")."""
    return {"card": rt.env["gone-card"], "how": "text"}


def _where(s: WotrState, uid: Uid, where: str) -> bool:
    if where == "reserve":
        return table.in_reserve(s, uid)
    if where == "path":
        return table.on_path(s, uid)
    if where == "location":
        return table.on_location(s, uid)
    return table.in_play(s, uid)


@cache
def _acting_codes() -> frozenset[str]:
    return frozenset(code for code, t in TEXTS.items() if t.actions)


def available_actions(s: WotrState, seat: Seat, in_play: list[Uid] | None = None) -> list[tuple[Uid, int, str]]:
    """The "use your action" texts ``seat`` may use now: (card, index, label)."""
    out = []
    codes = _acting_codes()
    for uid in table.in_play_cards(s) if in_play is None else in_play:
        code = s.cards[uid].code
        if code not in codes or table.controller(s, uid) != seat:
            continue
        acts = text_of(code).actions
        for i, act in enumerate(acts):
            if _where(s, uid, act.where) and (act.available is None or act.available(s, uid)):
                out.append((uid, i, act.label))
    return out


def options(s: WotrState, seat: Seat) -> list[Option]:
    out = []
    at = table.Table(s)
    for uid, dest in table.playable(s, seat, at):
        out.append(Option(f"play.{uid}.{dest}", f"Play {table.name(s, uid)} {table.dest_label(s, dest)}", uid))
    for uid, location in table.movable(s, seat, at):
        out.append(Option(f"move.{uid}.{location}", f"Move {table.name(s, uid)} onto {table.name(s, location)}", uid))
    for uid, i, label in available_actions(s, seat, at.in_play):
        out.append(Option(f"use.{uid}.{i}", f"{table.name(s, uid)}: {label}", uid))
    hand = len(cards_in(s, f"{seat}.hand"))
    if hand:
        out.append(Option("cycle", "Cycle a card from your hand"))
    if hand >= 2:
        out.append(Option("winnow", "Winnow: eliminate 2 cards from your hand, then draw 1"))
    if s.players[seat].ring == "ready":
        out.append(Option("ring", "Use your Ring token"))
    if table.can_pass(s, seat, at.in_play):
        out.append(Option("pass", "Pass"))
    return out


def _ask(rt: Runtime) -> Ask:
    s = st(rt)
    seat = PLAYER(rt)
    prompt = f"Round {s.round}, action step: take an action or pass"
    if s.is_bot(seat):
        # A Shadow bot's turn is its flowchart's (domain/wotr/bot), which may also move a card
        # played to reserve this round or cycle a card it may not play: never a forced choice.
        return Ask(seat, prompt, [Option("flowchart", "Follow the bot flowchart"), Option("pass", "Pass")])
    return Ask(seat, prompt, options(s, seat))


def _parse(rt: Runtime) -> dict[str, object]:
    verb, _, rest = str(rt.env["act"]).partition(".")
    card, _, dest = rest.partition(".")
    return {"verb": verb, "card": int(card) if card else None, "dest": dest}


def _use_args(rt: Runtime) -> dict[str, object]:
    uid = int(rt.env["card"])
    return {"self": uid, "player": PLAYER(rt), "index": int(str(rt.env["dest"])), "_card": uid}


register(
    "wotr.use",
    Seq(
        ability_used(),
        Call(
            lambda rt: f"wotr.{st(rt).cards[int(rt.env['self'])].code}.action.{rt.env['index']}",
            lambda rt: {"self": rt.env["self"], "player": rt.env["player"]},
        ),
    ),
    rule="wotr.action.use",
)

WINNOW = Seq(
    choose(
        PLAYER,
        "Winnow: eliminate 2 cards from your hand",
        lambda rt: cards_in(st(rt), f"{PLAYER(rt)}.hand"),
        "gone",
        ForEach(lambda rt: chosen(rt, "gone"), "gone-card", Call("wotr.eliminate", _eliminated_by_text)),
        count=2,
    ),
    draw(PLAYER, 1),
    rule="wotr.action.winnow",
)

DISPATCH = Let(
    _parse,
    Case(
        "verb",
        {
            "play": Call(
                "wotr.play",
                lambda rt: {
                    "player": PLAYER(rt),
                    "card": rt.env["card"],
                    "dest": rt.env["dest"],
                    "cost": not st(rt).is_bot(PLAYER(rt)),
                },
                rule="wotr.action.play",
            ),
            "move": Call(
                "wotr.move",
                lambda rt: {"player": PLAYER(rt), "card": rt.env["card"], "location": int(str(rt.env["dest"]))},
                rule="wotr.action.move",
            ),
            "use": Call("wotr.use", _use_args, rule="wotr.action.use"),
            "cycle": Call(
                "wotr.cycle-from-hand", lambda rt: {"player": PLAYER(rt), "count": 1}, rule="wotr.action.cycle"
            ),
            "winnow": WINNOW,
            "bot-cycle": emit(
                lambda rt: ev.CardsCycled(cards=(int(rt.env["card"]),)),
                rule="wotr.bot.cannot-play",
            ),
            "ring": Call("wotr.ring", lambda rt: {"player": PLAYER(rt)}, rule="wotr.action.ring"),
        },
    ),
)


def _excess(rt: Runtime) -> int:
    s = st(rt)
    seat = PLAYER(rt)
    return len(cards_in(s, f"{seat}.hand")) - table.carryover(s, seat)


def _cycles_excess(rt: Runtime) -> bool:
    s = st(rt)
    assert s.options is not None
    return s.options.rules.excess_hand == "cycle" and _excess(rt) > 0


def body() -> list[Node]:
    return [
        emit(lambda rt: ev.StepBegan(step="action")),
        Repeat(
            Let(
                lambda rt: {"player": st(rt).seat_to_act()},
                Decide(
                    _ask,
                    "act",
                    Seq(
                        DISPATCH,
                        emit(lambda rt: ev.TurnEnded(player=PLAYER(rt), passed=rt.env["act"] == "pass")),
                    ),
                    auto_single=True,
                ),
            ),
            until=lambda rt: st(rt).passes >= len(st(rt).order),
            rule="wotr.action.turn",
        ),
        ForEach(
            lambda rt: st(rt).seats(),
            "player",
            If(
                _cycles_excess,
                Call("wotr.cycle-from-hand", lambda rt: {"player": PLAYER(rt), "count": _excess(rt)}),
            ),
            rule="wotr.action.carryover",
        ),
    ]
