"""Both games as a PettingZoo environment (AEC: agents act in turn), for agents trained elsewhere.

PettingZoo is the well-kept standard interface for multi-agent reinforcement learning;
an agent written for it (and the libraries that train such agents) plays Westmarch's rules
without touching the engine. Install it with ``pip install 'westmarch[rl]'``.

    from bots.aec import env
    game = env("lcg", scenario="passage-through-mirkwood", players=2)
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        mask = observation["action_mask"]
        game.step(None if terminated or truncated else my_policy(observation, mask))

**Agents** are the game's seats that people play (``p1``..``p4``; ``frodo``, ``witch-king``...),
less the seats handed to the built-in bots (``bots={"p2": "greedy"}``); War of the Ring's
Shadow bots (``against_the_shadow=True``) are part of the rules and never agents.

**Observation** (what the seat may see, never more: the same projection a seat's view has
over gRPC, so the same hidden-information guarantee). A dict:

- ``observation``: the UTF-8 bytes of a JSON object, zero-padded to ``OBSERVATION_BYTES``
  (uint8): ``{"seat", "version", "table": the seat's view of the table (the schema in
  proto/westmarch/v1/schema/<game>.table.json), "decision": the seat's pending decision or
  null, "chosen": the options already picked for it}``. :func:`read` turns it back into a dict.
- ``action_mask``: int8, 1 for each legal action now.

**Actions** are one ``Discrete(ACTIONS)`` space for both games, read against the decision
pending (every decision lists its options in the order the rules give them, which the
observation repeats):

- action ``k`` < ``MAX_OPTIONS``: the ``k``-th option of the decision (from 0). A choice of one
  option is one action. A choice of several (``kind`` ``many``) is one action per option, then
  ``DONE`` (action ``MAX_OPTIONS``), legal once at least ``min`` are picked; it ends by itself
  at ``max``. An order (``order``) is one action per option, first to last. A number
  (``number``, ``min`` to ``max``) is the action ``number - min``.
- The same decision is asked of the same agent until its answer is whole; ``chosen`` in the
  observation says what is picked so far.

**Rewards** come at the end: +1 to each agent whose side won, -1 to each whose side lost
(every LCG seat plays on the players' side), 0 when a game is cut short (``max_decisions``,
then truncated).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import partial
from typing import Any, ClassVar
from uuid import UUID

import gymnasium
import msgspec
import numpy as np
from pettingzoo import AECEnv

from bots import make_bot
from domain.game import Game
from domain.kernel.decisions import Choice, Decision, Kind, RuleError
from domain.kernel.events import Event
from domain.rulesets import ruleset
from projections.feed import projection

MAX_OPTIONS = 64
"""Options a decision may have for the action encoding (the most seen in play: 25)."""
DONE = MAX_OPTIONS
"""The action that ends a choice of several options."""
ACTIONS = MAX_OPTIONS + 1
OBSERVATION_BYTES = 1 << 18
"""Bytes of the observation's JSON, at most (a four-player LCG table is about 32 KB)."""

_NIL = UUID(int=0)


def env(game: str = "lcg", **options: Any) -> WestmarchEnv:
    """A new environment of ``game`` (``lcg`` or ``wotr``); ``options`` as :class:`WestmarchEnv`."""
    return WestmarchEnv(game, **options)


def read(observation: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON object an observation's bytes hold."""
    raw = bytes(np.asarray(observation["observation"], dtype=np.uint8))
    found: dict[str, Any] = json.loads(raw.rstrip(b"\0"))
    return found


def reward(state: Any, seat: str) -> float:
    """+1 if ``seat``'s side won the game that is over, -1 if it lost."""
    over = state.over
    if over.result in ("won", "lost"):  # a cooperative game: the players won or lost together
        return 1.0 if over.result == "won" else -1.0
    return 1.0 if state.players[seat].team == over.winner else -1.0


class WestmarchEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    metadata: ClassVar[dict[str, Any]] = {
        "name": "westmarch_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "lcg",
        *,
        scenario: str = "",
        players: int = 1,
        difficulty: str = "",
        against_the_shadow: bool = False,
        bots: Mapping[str, str] | None = None,
        max_decisions: int = 20_000,
        render_mode: str | None = None,
    ) -> None:
        """``scenario`` (the game's default if empty), ``players`` (LCG), ``difficulty``,
        ``against_the_shadow`` (War of the Ring: the Shadow seats played by the rules' bots),
        ``bots`` (seats played by the built-in ``random`` or ``greedy`` bots), ``max_decisions``
        (a game still going after this many answers is truncated)."""
        super().__init__()
        self.rules = ruleset(game)
        self.scenario, self.players, self.difficulty = scenario, players, difficulty
        self.against_the_shadow = against_the_shadow
        self.bot_kinds = dict(bots or {})
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        seats = self.rules.played_by_people(self._start(0).state)
        unknown = sorted(set(self.bot_kinds) - set(seats))
        if unknown:
            raise ValueError(f"bots for {', '.join(unknown)}: this game's seats are {', '.join(seats)}")
        self.possible_agents = [s for s in seats if s not in self.bot_kinds]
        if not self.possible_agents:
            raise ValueError("every seat is a bot's: leave at least one to an agent")
        box = gymnasium.spaces.Box
        space = gymnasium.spaces.Dict(
            {
                "observation": box(0, 255, (OBSERVATION_BYTES,), np.uint8),
                "action_mask": box(0, 1, (ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(ACTIONS) for a in self.possible_agents}
        self.game: Game | None = None
        self.chosen: list[str] = []
        self.answered = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- a game ------------------------------------------------------------------------------

    def _created(self, seed: int) -> Event:
        if self.rules.name == "wotr":
            from domain.wotr.options import wotr_options
            from domain.wotr.ruleset import WOTR

            bots = ["shadow"] if self.against_the_shadow else []
            return WOTR.created(wotr_options(self.scenario or "trilogy", None, bots, self.difficulty), seed)
        from domain.lcg.lineups import lcg_options
        from domain.lcg.ruleset import LCG

        scenario = self.scenario or "passage-through-mirkwood"
        return LCG.created(lcg_options(scenario, self.players, None, self.difficulty or "standard"), seed)

    def _start(self, seed: int) -> Game:
        return Game.start(_NIL, self.rules, self._created(seed))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = seed if seed is not None else random.SystemRandom().getrandbits(31)
        self.game = self._start(seed)
        self.bots = {s: make_bot(k, seed + n, self.rules.name) for n, (s, k) in enumerate(self.bot_kinds.items())}
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.chosen, self.answered = [], 0
        self.agent_selection = self.agents[0]
        self._run_on()

    def _run_on(self) -> None:
        """Let the built-in bots answer until an agent must decide, then select it; at the end
        of the game, give each agent its reward and end it."""
        game = self.game
        assert game is not None
        state = game.state
        view = projection(self.rules.name).view
        while state.pending is not None and state.pending.seat in self.bots:
            d = state.pending
            game.answer(d.seat, d.id, self.bots[d.seat].choose(d, partial(view, state, d.seat)))
        if state.over is not None:
            for agent in self.agents:
                self.rewards[agent] = reward(state, agent)
                self.terminations[agent] = True
        elif self.answered >= self.max_decisions:
            for agent in self.agents:
                self.truncations[agent] = True
        else:
            assert state.pending is not None
            self.agent_selection = state.pending.seat

    # -- observing and acting ----------------------------------------------------------------

    def _pending(self, agent: str) -> Decision | None:
        state = self.game.state if self.game is not None else None
        pending = state.pending if state is not None else None
        return pending if pending is not None and pending.seat == agent else None

    def observe(self, agent: str) -> dict[str, Any]:
        game = self.game
        assert game is not None, "reset() first"
        decision = self._pending(agent)
        table = projection(self.rules.name).view(game.state, agent)
        body = msgspec.json.encode(
            {
                "seat": agent,
                "version": game.state.version,
                "table": table,
                "decision": decision,
                "chosen": self.chosen if decision is not None else [],
            }
        )
        if len(body) > OBSERVATION_BYTES:
            raise ValueError(f"the observation of {agent} is {len(body)} bytes, above OBSERVATION_BYTES")
        data = np.zeros(OBSERVATION_BYTES, dtype=np.uint8)
        data[: len(body)] = np.frombuffer(body, dtype=np.uint8)
        return {"observation": data, "action_mask": self.mask(agent)}

    def mask(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal actions of ``agent`` now (none when it is not its turn)."""
        mask = np.zeros(ACTIONS, dtype=np.int8)
        decision = self._pending(agent)
        if decision is None or self.terminations.get(agent) or self.truncations.get(agent):
            return mask
        ids = [o.id for o in decision.options]
        if len(ids) > MAX_OPTIONS or (decision.kind is Kind.NUMBER and decision.max - decision.min >= MAX_OPTIONS):
            raise ValueError(
                f"decision {decision.id} ({decision.rule}) has more answers than the action encoding holds"
            )
        if decision.kind is Kind.NUMBER:
            mask[: decision.max - decision.min + 1] = 1
            return mask
        if decision.kind is Kind.ONE:
            mask[: len(ids)] = 1
            return mask
        picked = set(self.chosen)
        room = decision.kind is Kind.ORDER or len(picked) < decision.max
        for k, option in enumerate(ids):
            mask[k] = int(room and option not in picked)
        if decision.kind is Kind.MANY and len(picked) >= decision.min:
            mask[DONE] = 1
        return mask

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self._pending(agent)
        assert decision is not None and self.game is not None
        if action is None or not self.mask(agent)[int(action)]:
            raise ValueError(f"action {action!r} is not legal for {agent} now (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        answer = self._answer(decision, int(action))
        if answer is not None:
            self.chosen = []
            try:
                self.game.answer(agent, decision.id, answer)
            except RuleError as error:
                self.infos[agent] = {"refused": str(error)}  # the same decision is asked again
            else:
                self.infos[agent] = {}
                self.answered += 1
                self._run_on()
        self._accumulate_rewards()

    def _answer(self, decision: Decision, action: int) -> Choice | None:
        """The whole answer once ``action`` completes it, else None (it is remembered)."""
        if decision.kind is Kind.NUMBER:
            return (str(decision.min + action),)
        ids = [o.id for o in decision.options]
        if decision.kind is Kind.ONE:
            return (ids[action],)
        if action != DONE:
            self.chosen.append(ids[action])
        done = action == DONE or len(self.chosen) == (len(ids) if decision.kind is Kind.ORDER else decision.max)
        return tuple(self.chosen) if done else None

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        state = self.game.state
        decision = state.pending
        if decision is None:
            return f"version {state.version}: {state.over}"
        options = "; ".join(f"{k}: {o.label}" for k, o in enumerate(decision.options))
        return f"version {state.version}: {decision.seat}: {decision.prompt} ({options})"

    def close(self) -> None:
        self.game = None
