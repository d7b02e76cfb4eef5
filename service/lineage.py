"""Where a game came from: forks and take-backs, recorded beside the new game.

A fork and a take-back both start a new game whose history is the first ``at`` events of
another; the source is never changed, so both games fold, reload and verify on their own.
The new game's :class:`~service.records.GameForked` record says which game and version it
came from and why, and is saved in the same transaction as its first events.

A take-back goes back to the question the seat's last decision answered: the new game is
the source's events up to and including that question, then a fresh seed (``Reseeded``) and
what it draws afresh, then the question asked again. The answer taken back stays in the
source game, which is kept, listed and shown as it was played.

Every take-back draws afresh, not only one a seat could exploit: whether anything hidden
was shown between the question and the take-back (a card drawn, a shadow card turned, a
bot's choice that tells what it holds) is not something to judge case by case, and no seat
can tell a redrawn pile from the one it replaces, since what is redrawn is what none has
seen. A fork (a "what if" of the referee, or of anyone once the game is over) keeps the
source's chance, so a position can be replayed as it was.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, Protocol
from uuid import UUID, uuid4

from bots import is_action_window
from domain.game import Game
from domain.kernel.decisions import RuleError
from domain.kernel.events import DecisionAnswered, DecisionRequested
from service.app import Westmarch
from service.records import GameForked, Record, forked_id

TAKE_BACK = "take-back"


class Branching(Protocol):
    """What must hear of a take-back that moves a game's play to a new game (the epic
    organizer, which follows each group's game): asked first, told after."""

    def before_branch(self, game_id: UUID, at: int) -> None:
        """Raise (a RuleError naming why) if play cannot go on from version ``at`` elsewhere."""

    def after_branch(self, game_id: UUID, branch: UUID, at: int) -> None:
        """Play went on in ``branch``, the game's events up to ``at``."""


class NothingToTakeBack(RuleError):
    def __init__(self, seat: str) -> None:
        super().__init__(f"{seat} has made no decision in this game yet")


def last_decision(app: Westmarch, game_id: UUID, seat: str, passes: bool = True) -> int:
    """The version at which the seat's last answered decision was asked; with ``passes``
    false, its last one that was not a pass in an action window (a seat on auto-pass has
    its windows passed again at once: taking one back would change nothing)."""
    events = app.history(game_id)
    for event in reversed(events):
        if isinstance(event, DecisionAnswered) and event.seat == seat:
            asked = events[event.decision - 1]
            if passes or event.choice != ("pass",) or not isinstance(asked, DecisionRequested):
                return event.decision
            if not is_action_window(asked.decision):
                return event.decision
    raise NothingToTakeBack(seat)


def fork_recorded(
    app: Westmarch,
    game_id: UUID,
    at: int,
    why: str = "fork",
    seat: str = "",
    new_id: UUID | None = None,
    also: Sequence[Any] = (),
) -> Game:
    """A new game with the first ``at`` events of another, and the record of where it came from."""
    new_id = new_id or uuid4()
    record = GameForked(originator_id=forked_id(new_id), game_id=new_id, source=game_id, at=at, why=why, seat=seat)
    reseed = secrets.randbelow(2**63) if why == TAKE_BACK else None
    return app.fork(game_id, at, new_id, also=[Record(record), *also], reseed=reseed)


def lineage(app: Westmarch, game_id: UUID) -> GameForked | None:
    """Where the game came from, if it was forked or taken back."""
    found = app.record(forked_id(game_id))
    return found if isinstance(found, GameForked) else None
