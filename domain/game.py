"""The ``Game`` aggregate: one game of any ruleset, whose state is the fold of its events.

``Game`` follows the aggregate protocol of the ``eventsourcing`` library (``id``,
``version``, ``collect_events``) so an ``Application`` can save it and its
``Repository`` can load it; the events it collects are :class:`Recorded` envelopes
around kernel events. Commands validate before they change anything: a refused
command leaves the game as it was and collects nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel.decisions import Choice, RuleError
from domain.kernel.events import Event, Frame, Reseeded
from domain.kernel.flow import program
from domain.kernel.ruleset import Ruleset
from domain.kernel.runtime import Runtime, Watcher, check_chained, fold
from domain.kernel.state import State
from domain.rulesets import ruleset


class Recorded(msgspec.Struct, frozen=True):
    """A game event as the event store keeps it: which game, which version, when."""

    originator_id: UUID
    originator_version: int
    ruleset: str
    event: Event
    timestamp: datetime | None = None


class GameSnapshot(msgspec.Struct, frozen=True):
    """The whole state of a game at one version, to load it without folding from 1."""

    originator_id: UUID
    originator_version: int
    ruleset: str
    state: msgspec.Raw
    timestamp: datetime | None = None

    @classmethod
    def take(cls, game: Game) -> GameSnapshot:
        return cls(
            originator_id=game.id,
            originator_version=game.version,
            ruleset=game.rules.name,
            state=msgspec.Raw(game.rules.codec.encode(game.state)),
        )


class BrokenGame(Exception):
    """A rule step failed mid-command; the in-memory game must be reloaded."""


class Game:
    def __init__(self, id: UUID, rules: Ruleset[Any], state: State) -> None:
        check_chained(state)  # a rollout's state (its events neither chained nor kept) is no game's
        self.id = id
        self.rules = rules
        self.state = state
        self._new: list[Event] = []
        self._broken = False

    @property
    def version(self) -> int:
        return self.state.version

    # -- commands --------------------------------------------------------------------

    @classmethod
    def start(cls, id: UUID, rules: Ruleset[Any], created: Event) -> Game:
        """A new game: ``created`` (which carries the seed and options) starts the root program."""
        game = cls(id, rules, rules.new_state())
        rt = Runtime(rules, game.state, game._new)
        rt.push(program(rules.root), {})

        def boot() -> None:
            rt.begin(f"{rules.name}.game.create")
            rt.emit(created)
            rt.run()

        game._guarded(boot)
        return game

    @classmethod
    def start_at(cls, id: UUID, rules: Ruleset[Any], created: Event, placed: Event, frames: Sequence[Frame]) -> Game:
        """A new game set at an exact position (``placed``), starting at the step ``frames`` name."""
        game = cls(id, rules, rules.new_state())
        rt = Runtime(rules, game.state, game._new)

        def boot() -> None:
            rt.begin(f"{rules.name}.game.create")
            rt.emit(created)
            rt.begin(f"{rules.name}.position")
            game.state.stack.extend(frames)
            rt.emit(placed)
            rt.run()

        game._guarded(boot)
        return game

    def answer(self, seat: str, decision_id: int, choice: Choice, watcher: Watcher | None = None) -> list[Event]:
        """Answer the pending decision and run the rules to the next one; ``watcher``
        sees each new event applied (a viewer's feed projecting them as they come).

        Raises :class:`~domain.kernel.decisions.RuleError` and appends nothing when the
        seat may not answer or the choice is not legal.
        """
        if self._broken:
            raise BrokenGame(f"game {self.id} must be reloaded")
        start = len(self._new)
        rt = Runtime(self.rules, self.state, self._new, watcher)
        self._guarded(lambda: rt.answer(seat, decision_id, tuple(choice)))
        return self._new[start:]

    def tell(self, event: Event) -> list[Event]:
        """Record ``event``, a fact from outside the game's rules (see ``Ruleset.told_rule``),
        and run the rules on. The fact is in the game's own log, so the game replays, forks
        and verifies alone."""
        if self._broken:
            raise BrokenGame(f"game {self.id} must be reloaded")
        rule = self.rules.told_rule(type(event))
        if rule is None:
            raise TypeError(f"{self.rules.name} games are not told {type(event).__name__}")
        start = len(self._new)
        rt = Runtime(self.rules, self.state, self._new)
        self._guarded(lambda: rt.tell(event, rule))
        return self._new[start:]

    def reseed(self, seed: int) -> list[Event]:
        """A take-back's fresh chance: tell the game :class:`~domain.kernel.events.Reseeded`,
        which draws afresh what no seat has seen and asks the pending decision again."""
        return self.tell(Reseeded(seed=seed))

    def resume(self) -> list[Event]:
        """Run the rules on from a version that stopped between two rule steps.

        A game folded from a prefix of another game's events (``fork``, or a reload at
        any version) continues exactly as the original did.
        """
        start = len(self._new)
        if self.state.pending is None and self.state.over is None:
            rt = Runtime(self.rules, self.state, self._new)
            self._guarded(rt.run)
        return self._new[start:]

    def _guarded(self, fn: Any) -> None:
        # RuleError is imported at the top: an import statement here ran on every command,
        # and ``from`` a plain module looks up its ``__path__``, failing with a formatted
        # AttributeError each time (some 1.4 % of a random game's instructions)
        try:
            fn()
        except RuleError:
            raise
        except (KeyboardInterrupt, SystemExit):
            self._broken = True  # stopped part way (Ctrl-C): this copy is not trusted, the stop goes on
            raise
        except BaseException as error:
            self._broken = True
            raise BrokenGame(f"game {self.id}: a rule step failed: {error!r}") from error

    # -- the aggregate protocol ------------------------------------------------------

    def collect_events(self) -> list[Recorded]:
        new, self._new = self._new, []
        name = self.rules.name
        return [Recorded(self.id, e.seq, name, e) for e in new]

    @property
    def pending_events(self) -> Sequence[Event]:
        return tuple(self._new)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        codec = self.rules.codec
        state = codec.decode_state(codec.encode(self.state))
        return Game(self.id, self.rules, state)

    # -- loading ---------------------------------------------------------------------

    @classmethod
    def forked(cls, id: UUID, rules: Ruleset[Any], history: Sequence[Event]) -> Game:
        """A new game whose first events are ``history`` (copied from another game)."""
        game = cls(id, rules, fold(rules, list(history)))
        game._new.extend(history)
        return game

    @classmethod
    def replay(cls, id: UUID, rules: Ruleset[Any], events: Iterable[Event], state: State | None = None) -> Game:
        return cls(id, rules, fold(rules, list(events), state))


def project_game(game: Game | None, items: Iterable[Recorded | GameSnapshot]) -> Game | None:
    """The projector the library's repository uses: snapshot, then events, folded."""
    batch: list[Event] = []
    for item in items:
        if isinstance(item, GameSnapshot):
            rules = ruleset(item.ruleset)
            game = Game(item.originator_id, rules, rules.codec.decode_state(bytes(item.state)))
            batch.clear()
            continue
        if game is None:
            rules = ruleset(item.ruleset)
            game = Game(item.originator_id, rules, rules.new_state())
        batch.append(item.event)
    if game is not None and batch:
        fold(game.rules, batch, game.state)
    return game
