"""What the terminal table keeps beside a game, in the same store: who sits where, and
where a game came from (a fork, or a take-back).

A take-back never edits a log. The seat's last decision is taken back by starting a new
game whose history is the source's events up to (and including) the question that
decision answered; the source game stays whole, readable and verifiable, and the new one
records where it came from (:class:`~service.records.GameForked` with ``why="take-back"``).
Both games' logs are prefixes of the same played history, so each folds, reloads and
verifies on its own, and `westmarch games` shows the branch that was taken back.
"""

from __future__ import annotations

from uuid import UUID

from domain.game import Game
from domain.lcg.cards import CARDS as LCG_CARDS
from projections.i18n import say
from service.app import Westmarch
from service.lineage import TAKE_BACK, fork_recorded, last_decision, lineage
from service.records import GameForked, Record, TableSeated, table_id


def _latest(app: Westmarch, record_id: UUID) -> object | None:
    found = app.recorder.select_events(record_id, desc=True, limit=1)
    return app.mapper.to_domain_event(found[0]) if found else None


def seating(app: Westmarch, game_id: UUID) -> TableSeated | None:
    """The latest seating saved for the game, if any."""
    found = _latest(app, table_id(game_id))
    return found if isinstance(found, TableSeated) else None


def seat_table(
    app: Westmarch, game_id: UUID, bots: dict[str, str], seats: tuple[str, ...], auto_pass: bool, seed: int
) -> TableSeated:
    """Save a seating for the game unless it is the one saved last."""
    last = seating(app, game_id)
    new = TableSeated(
        originator_id=table_id(game_id),
        originator_version=(last.originator_version + 1) if last else 1,
        game_id=game_id,
        bots=dict(sorted(bots.items())),
        seats=tuple(sorted(seats)),
        auto_pass=auto_pass,
        seed=seed,
    )
    if last is not None and (last.bots, last.seats, last.auto_pass, last.seed) == (
        new.bots,
        new.seats,
        new.auto_pass,
        new.seed,
    ):
        return last
    app.save(Record(new))
    return new


def take_back(app: Westmarch, game_id: UUID, seat: str) -> Game:
    """A new game at the seat's last decision, asked again; the seating moves with it."""
    at = last_decision(app, game_id, seat)
    game = fork_recorded(app, game_id, at, TAKE_BACK, seat)
    seated = seating(app, game_id)
    if seated is not None:
        seat_table(app, game.id, seated.bots, seated.seats, seated.auto_pass, seated.seed)
    return game


def who_plays(created: object) -> str:
    """The players of a game as its first event sets them up: heroes per seat (LCG), decks
    per seat (War of the Ring)."""
    options = getattr(created, "options", None)
    players = getattr(options, "players", None)
    if players is not None:
        return "; ".join(
            f"p{i} {', '.join(LCG_CARDS[h].name if h in LCG_CARDS else h for h in p.heroes)}"
            for i, p in enumerate(players, start=1)
        )
    decks = getattr(options, "decks", None)
    if decks is not None:
        scenario = getattr(options, "scenario", "")
        return f"{scenario}: " + ", ".join(f"{d.seat} ({d.team})" for d in decks)
    return ""


def origin(forked: GameForked) -> str:
    """Where a game came from, in words."""
    if forked.why == TAKE_BACK:
        return say(
            "%(seat)s took back a decision of %(source)s: this game is its first %(at)s events, "
            "then what no one had seen drawn afresh",
            seat=forked.seat,
            source=forked.source,
            at=forked.at,
        )
    return say("forked from %(source)s at event %(at)s", source=forked.source, at=forked.at)


def branch(forked: GameForked) -> str:
    """What became of a game a branch was taken from, in words."""
    if forked.why == TAKE_BACK:
        return say(
            "%(seat)s took back the decision asked at version %(at)s; play went on in %(game)s"
            " (this game is kept as it was played)",
            seat=forked.seat,
            at=forked.at,
            game=forked.game_id,
        )
    return say("forked at event %(at)s into %(game)s", at=forked.at, game=forked.game_id)


__all__ = ["fork_recorded", "lineage", "origin", "seat_table", "seating", "take_back", "who_plays"]
