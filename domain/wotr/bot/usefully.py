"""When a Shadow bot may use a card's "use an action" text: its usefulness test (seed 003,
"Usefully": "The Shadow will never ... voluntarily use text on a card that is not useful").

Every action a Shadow card's text registers (``domain.wotr.cards``) needs a verdict here,
given with :func:`useful_when` (a test of the table) or :func:`always_useful` (the text
always does one of the things the rulebook calls useful, with the reason). There is no
default: :func:`action_is_useful` refuses an action without a verdict, and
:func:`without_verdict` lists them (a test holds it empty), so a card's action cannot be
used by a bot without its test having been written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain.wotr.cards import CARDS, load_texts, text_of
from domain.wotr.state import SHADOW, Seat, Uid, WotrState

Test = Callable[[WotrState, Seat, Uid], bool]
"""Is using the action of card ``uid`` useful now, for the bot in ``seat``?"""


@dataclass(frozen=True)
class Verdict:
    test: Test
    why: str
    """The rule the test follows, in words."""


VERDICTS: dict[tuple[str, int], Verdict] = {}
"""The verdict on each (card code, action index) a Shadow bot may use."""


def _register(codes: tuple[str, ...], action: int, verdict: Verdict) -> None:
    for code in codes:
        if code not in CARDS:
            raise KeyError(f"{code} is not a known card")
        if (code, action) in VERDICTS:
            raise ValueError(f"the action {action} of {code} has two usefulness tests")
        VERDICTS[code, action] = verdict


def useful_when(*codes: str, why: str, action: int = 0) -> Callable[[Test], Test]:
    """Decorator: ``test`` says whether the action (``action``: its index among the card's
    actions) of each card in ``codes`` is useful now."""

    def register(test: Test) -> Test:
        _register(codes, action, Verdict(test, why))
        return test

    return register


def always_useful(*codes: str, why: str, action: int = 0) -> None:
    """The action of each card in ``codes`` is useful whenever it can be used (``why``: what
    it does that the rulebook calls useful)."""
    _register(codes, action, Verdict(lambda s, seat, uid: True, why))


def bot_actions() -> list[tuple[str, int]]:
    """Every action a Shadow bot may use: each "use an action" text of a Shadow card, the
    base cards (a bot's substitute pool, or a card file giving a base card) and the printed
    bot cards."""
    load_texts()
    return [
        (code, i) for code, card in CARDS.items() if card.side == SHADOW for i, _ in enumerate(text_of(code).actions)
    ]


def without_verdict() -> list[tuple[str, int]]:
    """The actions a Shadow bot may use that have no usefulness test (none, or a test fails)."""
    return [key for key in bot_actions() if key not in VERDICTS]


def action_is_useful(s: WotrState, seat: Seat, uid: Uid, action: int) -> bool:
    """Whether the bot in ``seat`` would usefully use action ``action`` of card ``uid``."""
    code = s.cards[uid].code
    verdict = VERDICTS.get((code, action))
    if verdict is None:
        raise LookupError(f"the action {action} of {code} has no usefulness test (domain/wotr/bot/usefully.py)")
    return verdict.test(s, seat, uid)
