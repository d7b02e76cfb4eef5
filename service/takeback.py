"""Taking back a decision on the service: with every seat's consent, or the referee's word.

A seat asks to take back its own last decision (``TakeBack`` with its token); every other
seat consents by asking the same (``TakeBack`` with their token, naming that seat); the
referee's word alone is enough. Each ask is a record (:class:`TakeBackAsked`); when the
last seat needed has asked, the take-back happens: a new game, the source's events up to
the question that decision answered, saved with :class:`GameForked` (``take-back``) and
:class:`TakeBackDone` in one transaction, so it happens once. The source game is not
changed: it stays readable, verifiable and listed, with the answer that was taken back.

The new game keeps the source's tokens (the same hashes), so every seat, the spectator
and the referee go on with the tokens they have, naming the new game's id; asking again
tells that id to anyone who has not heard it. The game's room tells it too
(:class:`~service.records.PlayMoved`, after each ask a :class:`~service.records.TakeBackNoted`),
and the new game's room keeps everyone in their seats, its bots playing on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID, uuid4

from domain.kernel.decisions import RuleError
from projections.i18n import gettext, say
from service.app import ConcurrentUpdate
from service.commands import GameService
from service.errors import BadRequest, PermissionDenied
from service.lineage import TAKE_BACK, fork_recorded, last_decision
from service.records import (
    PlayMoved,
    Record,
    SeatsAssigned,
    TakeBackAsked,
    TakeBackDone,
    TakeBackNoted,
    room_id,
    seats_id,
    take_back_asked_id,
    take_back_done_id,
)
from service.room import carried
from service.rpc.auth import REFEREE, SPECTATOR


@dataclass(frozen=True)
class TakeBackResult:
    seat: str
    at: int
    """The version at which the decision taken back was asked."""
    branch: UUID | None = None
    """The game play goes on in, once the take-back happened."""
    waiting_for: list[str] = field(default_factory=list)
    """The seats whose consent is still needed."""


def take_back(service: GameService, game_id: UUID, token: str, seat: str = "") -> TakeBackResult:
    """Ask (or consent) that ``seat`` (default: the token's seat) take back its last decision."""
    app = service.app
    viewer = service.tokens.viewer(game_id, token)
    if viewer == SPECTATOR:
        raise PermissionDenied(gettext("the spectator cannot take back decisions"))
    seat = seat or viewer
    seats = [v for v in service.tokens.hashes(game_id) if v not in (SPECTATOR, REFEREE)]
    if seat not in seats:
        raise BadRequest(
            say("no seat %(seat)s in this game; its seats are %(seats)s", seat=repr(seat), seats=", ".join(seats))
        )
    service.sound(game_id, thorough=True)  # a damaged game is refused (DamagedGame) before anything is saved
    if app.game(game_id).state.over is not None:
        raise PermissionDenied(gettext("the game is over: fork it to play another way"))
    room = service.rooms.room(game_id)
    at = last_decision(app, game_id, seat, passes=room is None or seat not in room.auto_pass)
    done = app.record(take_back_done_id(game_id, seat, at))
    if isinstance(done, TakeBackDone):
        return TakeBackResult(seat, at, done.branch)
    if viewer != REFEREE:
        asked = TakeBackAsked(
            originator_id=take_back_asked_id(game_id, seat, at, viewer), game_id=game_id, seat=seat, at=at, by=viewer
        )
        if app.record(asked.originator_id) is None:
            try:
                app.save(Record(asked))
            except Exception:
                if app.record(asked.originator_id) is None:
                    raise
                # else the same viewer asked twice at once: once is enough
            else:
                _note(service, game_id, seat, at, viewer)
        waiting = [s for s in seats if app.record(take_back_asked_id(game_id, seat, at, s)) is None]
        if waiting:
            return TakeBackResult(seat, at, None, waiting)
    return _branch(service, game_id, seat, at)


def _branch(service: GameService, game_id: UUID, seat: str, at: int) -> TakeBackResult:
    app = service.app
    hashes = service.tokens.hashes(game_id)
    branch_id = uuid4()
    same_tokens = SeatsAssigned(
        originator_id=seats_id(branch_id),
        game_id=branch_id,
        hashes=dict(hashes),
        unlisted=not service.tokens.listed(game_id),
    )
    done = TakeBackDone(
        originator_id=take_back_done_id(game_id, seat, at), game_id=game_id, seat=seat, at=at, branch=branch_id
    )
    for told in service.branching:
        told.before_branch(game_id, at)
    room = carried(service.rooms.room(game_id), branch_id, keep_names=True)  # everyone keeps their seat
    also = [Record(same_tokens), Record(done), *([Record(room)] if room is not None else [])]
    try:
        game = fork_recorded(app, game_id, at, TAKE_BACK, seat, branch_id, also=also)
    except ConcurrentUpdate:
        found = app.record(done.originator_id)  # another ask made it happen first
        if isinstance(found, TakeBackDone):
            return TakeBackResult(seat, at, found.branch)
        raise RuleError(gettext("the take-back could not be saved; ask again")) from None
    service.tokens.remember(branch_id, Record(same_tokens))
    if room is not None:
        service.rooms.opened(room)
    for told in service.branching:
        told.after_branch(game_id, branch_id, at)
    service.rooms.append(
        game_id,
        lambda version: PlayMoved(
            originator_id=room_id(game_id),
            originator_version=version,
            game_id=game_id,
            seat=seat,
            at=at,
            branch=branch_id,
        ),
    )
    service._committed(branch_id, game.version)
    return TakeBackResult(seat, at, branch_id)


def _note(service: GameService, game_id: UUID, seat: str, at: int, by: str) -> None:
    """Tell the game's room that ``by`` asked (or agreed): every page shows who waits for whom."""
    service.rooms.append(
        game_id,
        lambda version: TakeBackNoted(
            originator_id=room_id(game_id), originator_version=version, game_id=game_id, seat=seat, at=at, by=by
        ),
    )
