"""The War of the Ring table in the terminal: icons and allowed paths that cannot be misread,
why Pass is not offered, and a combat preview that agrees with the combat that follows."""

from __future__ import annotations

import random
import re
import uuid

import pytest

from domain.game import Game
from domain.kernel.events import Event
from domain.kernel.runtime import fold
from domain.wotr import events as ev
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from domain.wotr.state import WotrState
from projections.wotr import view
from tests.conftest import play_randomly
from tools import render_wotr
from tools.play import screen


@pytest.fixture(scope="module")
def played() -> list[Event]:
    events: list[Event] = []
    for seed in (1, 2, 3):
        game = Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options("trilogy", {}), seed))
        play_randomly(game, random.Random(seed))
        events += [e for e in game.pending_events]
        if any(isinstance(e, ev.CombatBegan) and e.attack and not e.empty for e in game.pending_events):
            return list(game.pending_events)
    raise AssertionError("no fought combat in three games")


def states(events: list[Event]) -> list[WotrState]:
    out, state = [], None
    for event in events:
        state = fold(WOTR, [event], state)
        assert isinstance(state, WotrState)
        if type(event).__name__ == "DecisionRequested":
            out.append(msgspec_copy(state))
    return out


def msgspec_copy(state: WotrState) -> WotrState:
    return WOTR.codec.decode_state(WOTR.codec.encode(state))  # type: ignore[return-value]


def test_icons_and_allowed_paths_read_unambiguously(played: list[Event]) -> None:
    state = fold(WOTR, played[:60])
    assert isinstance(state, WotrState)
    text = render_wotr.render(view(state, "referee"))
    assert re.search(r"\d+ path icons?", text)
    assert re.search(r"may go on paths? \d", text)
    bare = re.search(r"(?<!go on )path \d+[,;\]]", text.replace("Path ", ""))
    assert not bare, "a bare 'path N' reads like a path number"
    card = next(c for c in render_wotr.cards(view(state, "referee")) if c.type == "character" and c.paths)
    detail = render_wotr.card_text(card)
    assert "Paths: may go on path" in detail and "Text:" in detail


def test_why_pass_is_not_offered_and_the_combat_preview(played: list[Event]) -> None:
    shown = screen("wotr")
    no_pass = preview = 0
    for state in states(played):
        decision = state.pending
        assert decision is not None
        table = view(state, decision.seat)
        notes = "\n".join(shown.notes(table, decision))
        if decision.rule == "wotr.action.turn" and decision.option("pass") is None:
            me = next(p for p in table.players if p.seat == decision.seat)
            assert f"Pass is not offered: you hold {me.hand_size} cards" in notes
            no_pass += 1
        for found in re.finditer(r"Combat preview at (.+?): (\w+) attack (\d+) against (\w+) defense (\d+)", notes):
            preview += 1
            attack, defense = int(found.group(3)), int(found.group(5))
            verdict = "the defenders hold" if defense >= attack else "the attackers are winning"
            assert verdict in notes
    assert no_pass and preview


def test_the_preview_agrees_with_the_path_combat_it_foresees(played: list[Event]) -> None:
    """Just before a path combat, the preview's attack is the combat's attack."""
    checked = 0
    for i, event in enumerate(played):
        if isinstance(event, ev.CombatBegan) and event.kind == "path" and not event.empty:
            state = fold(WOTR, played[:i])
            assert isinstance(state, WotrState)
            table = view(state, "referee")
            path = table.path
            if path is None or path.uid != event.location:
                continue
            lines = "\n".join(render_wotr.combat_preview(table, path))
            found = re.search(r"shadow attack (\d+) against free defense (\d+)", lines)
            assert found, lines
            assert int(found.group(1)) == event.attack
            checked += 1
    assert checked


def test_a_decision_asked_by_a_card_shows_its_text(played: list[Event]) -> None:
    import io

    from domain.kernel.events import DecisionRequested
    from tools.play import show_decision

    shown = screen("wotr")
    told = 0
    state = None
    for event in played:
        state = fold(WOTR, [event], state)
        if not isinstance(event, DecisionRequested) or event.cause.card is None:
            continue
        assert isinstance(state, WotrState)
        table = view(state, event.decision.seat)
        card = next((c for c in shown.cards(table) if c.uid == event.cause.card), None)
        if card is None or not card.text:
            continue
        out = io.StringIO()
        show_decision(event.decision, out, table, shown, None, event.cause.card)
        assert f"{card.name}: {card.text}" in out.getvalue()
        told += 1
    assert told
