"""bots/aec.py, both games as a PettingZoo environment: PettingZoo's own API test, the action
encoding, and the hidden-information guarantee of every observation (the leak tests' oracle)."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import numpy as np
import pytest
from pettingzoo.test import api_test

from bots.aec import ACTIONS, DONE, OBSERVATION_BYTES, WestmarchEnv, env, read
from domain.kernel.decisions import Kind
from tests.leak_support import Oracle, Secrets

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("lcg", {"players": 1}),
    ("lcg", {"players": 2, "scenario": "journey-along-the-anduin"}),
    ("wotr", {"scenario": "two-player-duel"}),
    ("wotr", {"scenario": "fellowship", "against_the_shadow": True}),
]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[f"{g}-{o.get('scenario', o)}" for g, o in GAMES])
def test_pettingzoos_api_test(game: str, options: dict[str, Any]) -> None:
    api_test(env(game, **options), num_cycles=300)


def test_the_seats_are_the_agents_less_the_bots() -> None:
    assert env("lcg", players=3, bots={"p2": "greedy"}).possible_agents == ["p1", "p3"]
    assert env("wotr", scenario="trilogy", against_the_shadow=True).possible_agents == ["frodo", "aragorn"]
    with pytest.raises(ValueError, match="bots for p9: this game's seats are p1"):
        env("lcg", bots={"p9": "greedy"})
    with pytest.raises(ValueError, match="every seat is a bot's"):
        env("lcg", bots={"p1": "greedy"})


def play(game: WestmarchEnv, seed: int, steps: int, on_observe: Any = None) -> None:
    """Random legal actions from the masks, every observation shown to ``on_observe``."""
    rng = random.Random(seed)
    game.reset(seed=seed)
    for n, agent in enumerate(game.agent_iter()):
        observation, _, terminated, truncated, _ = game.last()
        if on_observe is not None:
            on_observe(agent, observation)
        if terminated or truncated:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(rng.choice(legal)))
        if n >= steps:
            break


def test_a_choice_of_several_is_one_action_per_option_then_done() -> None:
    game = env("lcg", players=1)
    game.reset(seed=3)
    for _ in range(400):
        decision = game.game.state.pending if game.game is not None else None
        if decision is not None and decision.kind is Kind.MANY and decision.min == 0 and len(decision.options) >= 2:
            break
        legal = np.flatnonzero(game.observe(game.agent_selection)["action_mask"])
        game.step(int(legal[0]))
    else:
        pytest.fail("no choice of several options came up")
    agent = game.agent_selection
    mask = game.observe(agent)["action_mask"]
    assert mask.shape == (ACTIONS,) and mask[DONE] == 1 and mask[: len(decision.options)].all()
    game.step(1)
    seen = read(game.observe(agent))
    assert seen["decision"]["id"] == decision.id and seen["chosen"] == [decision.options[1].id]
    assert game.observe(agent)["action_mask"][1] == 0  # an option is picked once
    with pytest.raises(ValueError, match="not legal"):
        game.step(1)
    game.step(DONE)
    assert game.game is not None and game.game.state.version > decision.id
    answered = [e for e in game.game.pending_events if getattr(e, "decision", None) == decision.id]
    assert answered and answered[-1].choice == (decision.options[1].id,)  # type: ignore[attr-defined]


def test_the_game_ends_with_rewards_for_each_side() -> None:
    game = env("wotr", scenario="two-player-duel")
    rewards: dict[str, float] = {}
    rng = random.Random(2)
    game.reset(seed=2)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        if terminated or truncated:
            rewards[agent] = reward
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert sorted(rewards.values()) == [-1.0, 1.0] and not game.agents


def secrets_of(name: str) -> Secrets:
    if name == "lcg":
        from tests.test_rpc_leaks import SECRETS
    else:
        from tests.test_wotr_leaks import SECRETS  # type: ignore[assignment]
    return SECRETS


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[f"{g}-{o.get('scenario', o)}" for g, o in GAMES])
def test_an_observation_never_shows_what_its_seat_may_not_see(game: str, options: dict[str, Any]) -> None:
    """Every observation of a game played by random agents, checked against the leak tests' own
    rule of what each seat may not see at that version (tests/leak_support.py)."""
    environment = env(game, **options)
    seen: list[tuple[str, int, bytes, Any]] = []

    def keep(agent: str, observation: dict[str, Any]) -> None:
        assert observation["observation"].shape == (OBSERVATION_BYTES,)
        body = read(observation)
        assert body["seat"] == agent
        seen.append((agent, body["version"], json.dumps(body["table"]).encode(), body["decision"]))

    play(environment, 5, 3000, keep)
    assert environment.game is not None
    events = list(environment.game.pending_events)
    oracle = Oracle(secrets_of(game), events, list(environment.possible_agents), {v for _, v, _, _ in seen})
    assert len(seen) > 20
    for agent, version, table, decision in seen:
        oracle.check_view(agent, version, table, f"{game} observation of {agent}")
        pending = oracle.pending[version]
        if decision is not None:
            assert pending is not None and pending.seat == agent
            assert msgspec.json.encode(pending) == msgspec.json.encode(decision)
