"""Every decision a Shadow bot seat would be asked, answered by the rules (seed 003).

A bot seat is never asked anything: :func:`answer` turns the decision into a rule step,
recorded as a ``BotChose`` event with its cause (the flowchart step or bot rule) before
the game goes on, and every random choice comes from the game's recorded chance:

- its turn in the action step: the flowchart (``flowchart.py``);
- losses in combat: First In, Last Out, the right-most card first, even if inefficient;
- the order of combats: the right-most location first ("all things otherwise equal,
  choose the right-most");
- a choice among face-down cards (its own hand, deck, cycle pile, cards drawn; the path
  and battleground decks): at random ("Random Shadow Hand");
- "you may" texts: yes (a bot uses a card's text if it is even partially useful);
- a card that draws and lets it play some of the drawn cards: the first drawn that can be
  played, where step 4 of the flowchart would play it;
- a text that says "choose" (or "of your choice"): the Free Peoples choose for the bot
  ("Choose": not the best choice for the bot, but for yourself) — the first Free Peoples
  seat in turn order from the starting player is asked;
- any other choice among cards or locations that meet a requirement: the right-most
  (First In, Last Out).
"""

from __future__ import annotations

from domain.kernel.decisions import Kind, Option
from domain.kernel.flow import Ask, Played
from domain.kernel.runtime import Runtime
from domain.wotr import events as ev
from domain.wotr.bot import flowchart
from domain.wotr.bot.judgement import conceivably_wins
from domain.wotr.cards import LOCATIONS
from domain.wotr.effects import st
from domain.wotr.rules import table
from domain.wotr.state import FREE, Seat, Uid, WotrState

HIDDEN = ("hand", "deck", "cycle", "aside")

CHOOSE_TEXTS = frozenset(
    {
        "wotr.ats-grima-wormtongue.action",  # "... and choose: ..."
        "wotr.saruman-112.on-play",  # Threats and Promises: "an Isengard battleground of your choice"
        "wotr.witch-king-163.on-play",  # The Black Captain: "a Mordor battleground of your choice"
    }
)
"""The texts of the bots' cards that say "choose": the Free Peoples choose for the bot."""


def _chose(
    seat: Seat,
    choice: tuple[str, ...],
    step: str,
    reason: str,
    cards: tuple[Uid, ...] = (),
    location: Uid | None = None,
    shown: bool = False,
) -> Played:
    event = ev.BotChose(player=seat, step=step, reason=reason, cards=cards, location=location, shown=shown)
    return Played(choice, event, f"wotr.bot.{step}")


def _turn(rt: Runtime, ask: Ask) -> Played:
    s = st(rt)
    move = flowchart.turn(rt, s, ask.seat)
    shown = move.choice.startswith("play.")
    return _chose(ask.seat, (move.choice,), move.step, move.reason, move.cards, move.location, shown)


def _last(ask: Ask, step: str, reason: str, locations: bool = False) -> Played:
    """The right-most option: options list cards (or locations) left to right."""
    option = ask.options[-1]
    if locations:
        return _chose(ask.seat, (option.id,), step, reason, (), option.card)
    return _chose(ask.seat, (option.id,), step, reason, (option.card,) if option.card is not None else ())


def _own_hidden(s: WotrState, seat: Seat, option: Option) -> bool:
    """A face-down card of the bot's own: in its hand, deck, cycle pile or drawn cards."""
    if option.card is None or option.card not in s.cards:
        return False
    owner, rest = table.zone_seat(s.cards[option.card].zone)
    return owner == seat and rest in HIDDEN


def _in_location_deck(s: WotrState, option: Option) -> bool:
    """A face-down path or battleground card not yet activated."""
    if option.card is None or option.card not in s.cards:
        return False
    zone = s.cards[option.card].zone
    return zone.startswith("paths.") or zone in ("bg.free", "bg.shadow")


def _at_random(rt: Runtime, ask: Ask) -> Played:
    real = [o for o in ask.options if o.id != "none"]
    count = 1 if ask.kind is Kind.ONE else max(ask.min, min(ask.max, len(real)))
    picked = rt.pick(real, count)
    cards = tuple(o.card for o in picked if o.card is not None)
    reason = "a random one of the face-down cards it may choose"
    return _chose(ask.seat, tuple(o.id for o in picked), "random-hand", reason, cards)


def _draw_play(rt: Runtime, ask: Ask) -> Played:
    """The first drawn card that can be played, where the flowchart's step 4 would play it."""
    s = st(rt)
    by_card: dict[int, list[str]] = {}
    for option in ask.options:
        if option.card is not None:
            by_card.setdefault(option.card, []).append(option.id.split(".", 1)[1])
    for uid in s.zone(f"{ask.seat}.aside"):
        if uid not in by_card:
            continue
        placed = flowchart.placement(s, ask.seat, uid, by_card[uid])
        if placed is not None:
            dest, why = placed
            location = int(dest[1:]) if dest.startswith("L") else None
            return _chose(
                ask.seat,
                (f"{uid}.{dest}",),
                "draw-and-play",
                f"the first drawn card it can play: {why}",
                (uid,),
                location,
                True,
            )
    return _chose(ask.seat, ("none",), "draw-and-play", "none of the drawn cards can be played usefully")


def free_chooser(s: WotrState) -> Seat:
    """Who chooses for the bots: the first Free Peoples seat in turn order from the starting player."""
    n = len(s.order)
    return next(s.order[(s.start + i) % n] for i in range(n) if s.team_of(s.order[(s.start + i) % n]) == FREE)


def answer(rt: Runtime, ask: Ask) -> Played | Ask:
    """The rules' answer for a bot seat (or the decision handed to the Free Peoples)."""
    s = st(rt)
    rule = rt.rule
    ids = {o.id for o in ask.options}
    if rule == "wotr.action.turn":
        return _turn(rt, ask)
    if rule == "wotr.combat.losses":
        return _last(ask, "first-in-last-out", "the right-most of its cards that can cancel attack icons is lost")
    if rule == "wotr.combat.order":
        return _last(
            ask, "right-most-location", "all things otherwise equal, the right-most location is fought first", True
        )
    if rule == "wotr.draw-play" and "none" in ids:
        return _draw_play(rt, ask)
    if ids == {"yes", "no"}:
        return _chose(ask.seat, ("yes",), "usefully", "a bot uses a card's text when it is even partially useful")
    if ask.options and all(_own_hidden(s, ask.seat, o) or o.id == "none" for o in ask.options):
        return _at_random(rt, ask)
    if rule in CHOOSE_TEXTS or any(o.card is None and o.id != "none" for o in ask.options):
        chooser = free_chooser(s)
        prompt = f"Choose for {ask.seat} (Shadow bot), a possible and useful choice: {ask.prompt}"
        return Ask(chooser, prompt, useful_choices(s, ask.options), ask.kind, ask.min, ask.max, ask.about)
    if all(_in_location_deck(s, o) or o.id == "none" for o in ask.options):
        return _at_random(rt, ask)
    return _right_most(ask)


def useful_choices(s: WotrState, options: tuple[Option, ...]) -> list[Option]:
    """The options the Free Peoples may choose for a bot: a battleground only where the
    Shadow could conceivably win ("your choice must be a useful choice for the Shadow"),
    unless none is (a possible choice must still be made)."""
    useful = [
        o
        for o in options
        if o.card is None
        or o.card not in s.cards
        or s.cards[o.card].code not in LOCATIONS
        or table.loc(s, o.card).kind != "battleground"
        or conceivably_wins(s, o.card)
    ]
    return useful or list(options)


def _right_most(ask: Ask) -> Played:
    """First In, Last Out: the right-most of the cards or locations that qualify (options
    list them left to right); as many as the text asks for."""
    real = [o for o in ask.options if o.id != "none"]
    count = 1 if ask.kind is Kind.ONE else max(ask.min, min(ask.max, len(real)))
    picked = real[len(real) - count :]
    cards = tuple(o.card for o in picked if o.card is not None)
    reason = "of the cards or locations that qualify, the right-most"
    return _chose(ask.seat, tuple(o.id for o in picked), "first-in-last-out", reason, cards)
