"""Card texts "in any group" across the groups of an epic event, through the event organizer.

Sources: The Hunt for the Dreadnaught — Easy and Standard Mode side B (Quest Action, 10
damage), Eithiliant (6 progress), Golden Wing (6 damage), Belfalas Shipyard (repair a ship);
rulebook, Epic Multiplayer Mode. The acting group records the effect sent (a fixture of each
card shows that side: ``tests/fixtures/lcg/hunt-for-the-dreadnaught/cards/*epic-event*``);
here the organizer relays it, the target group records its arrival with its cause, and that
group's first player picks the card there. Each relayed effect resolves once, however often
the organizer follows, and every group's game verifies from its own log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from uuid import UUID, uuid4

import pytest

from domain.game import Game
from domain.lcg import epic as organizer
from domain.lcg import events as ev
from domain.lcg.position import build
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.verify import verify
from service.app import Westmarch, store_env
from service.commands import GameService
from service.epic import EpicService
from service.organizer import Saved

HEROES = [["Aragorn", "Gimli", "Legolas"]]
SHIPYARD_HEROES = {
    "p1.heroes": [
        {"card": "Aragorn", "resources": 5, "committed": True, "exhausted": True},
        {"card": "Gimli", "committed": True, "exhausted": True},
        {"card": "Legolas", "damage": 2},
    ]
}


@dataclass
class Table:
    game_id: UUID
    labels: dict[str, int]


@dataclass
class EpicTables:
    epics: EpicService
    epic_id: UUID
    groups: list[Table]

    @property
    def app(self) -> Westmarch:
        return self.epics.app

    def state(self, group: int) -> LcgState:
        return cast(LcgState, self.app.state_at(self.groups[group - 1].game_id))

    def log(self, group: int) -> list[Any]:
        return self.app.history(self.groups[group - 1].game_id)

    def answer(self, group: int, *wanted: str) -> None:
        """Answer group ``group``'s pending decision with the options named (ids, labels or
        card labels), then let the organizer follow, as a command through the service does."""
        table = self.groups[group - 1]
        decision = self.state(group).pending
        assert decision is not None
        choice = []
        for want in wanted:
            card = table.labels.get(want)
            found = [o.id for o in decision.options if o.id == want or o.label == want or (card and o.card == card)]
            assert found, f"{want!r} is not an option of {decision.prompt!r}: {[o.label for o in decision.options]}"
            choice.append(found[0])
        self.app.submit(table.game_id, decision.seat, decision.id, tuple(choice))
        self.epics.follow(self.epic_id, [table.game_id])


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cross.db")


def _open(db: str, *positions: Mapping[str, Any], difficulty: str = "standard") -> EpicTables:
    """An epic event whose groups (one player each) start at the positions given."""
    epics = EpicService(GameService(Westmarch(store_env(db=db))))
    epic_id = uuid4()
    tables = []
    for number, position in enumerate(positions, start=1):
        epic = {"id": str(epic_id), "players": len(positions), "group": number, "groups": len(positions)}
        game_spec = {"scenario": "hunt-for-the-dreadnaught", "players": 1, "heroes": HEROES, "epic": epic}
        placed = build({**game_spec, "difficulty": difficulty}, position)
        game = Game.start_at(uuid4(), LCG, placed.created, placed.placed, list(placed.frames))
        epics.app.store(game)
        tables.append(Table(game.id, placed.labels))
    opened = organizer.Epic.open(epic_id, [organizer.Group(t.game_id, 1, difficulty) for t in tables])
    epics.organizer.save(Saved(opened, list(opened.collect_events())))
    return EpicTables(epics, epic_id, tables)


def _planning(zones: Mapping[str, Any]) -> dict[str, Any]:
    """A group waiting at the start of its quest phase: its player commits characters."""
    return {"at": "lcg.quest", "phase": "planning", "zones": {"p1.allies": ["Eithiliant"], **zones}}


def _arrived_once(event: EpicTables, target: int, source: int, effect: str) -> ev.EffectArrived:
    """The target's log has the effect's arrival exactly once, caused by the source's event."""
    arrived = [e for e in event.log(target) if isinstance(e, ev.EffectArrived)]
    assert len(arrived) == 1, arrived
    sent = [e for e in event.log(source) if isinstance(e, ev.EffectSent)]
    assert len(sent) == 1
    (a,) = arrived
    assert (a.effect, a.source_group, a.source_event) == (effect, source, sent[0].seq)
    assert a.cause.rule == "lcg.epic.relayed-effect"
    return a


def _resolved_once(event: EpicTables, target: int, kind: type[Any]) -> Any:
    """The effect resolved in the target group once, as a rule step caused by the arrival."""
    resolved = [e for e in event.log(target) if isinstance(e, kind) and e.cause.rule == "lcg.epic.relayed-effect"]
    assert len(resolved) == 1, resolved
    return resolved[0]


def _followed_again_changes_nothing(event: EpicTables, db: str) -> None:
    """Following again, from this process and from a new one, relays nothing twice."""
    versions = [event.app.version(t.game_id) for t in event.groups]
    event.epics.follow(event.epic_id)
    EpicService(GameService(Westmarch(store_env(db=db)))).follow(event.epic_id)
    assert [event.app.version(t.game_id) for t in event.groups] == versions
    relayed = [
        e
        for e in (event.app.mapper.to_domain_event(s) for s in event.app.recorder.select_events(event.epic_id))
        if isinstance(e, organizer.EffectRelayed)
    ]
    assert len(relayed) == 1, "the effect was relayed once"
    for number in range(1, len(event.groups) + 1):
        assert verify(LCG, event.log(number)).ok, f"group {number} does not verify alone"


@pytest.fixture
def three_groups(db: str) -> Iterator[EpicTables]:
    """Group 1 is about to flip Golden Wing at Belfalas Shipyard; groups 2 and 3 wait."""
    acting = {
        "at": "lcg.quest.resolve",
        "phase": "quest",
        "zones": {
            "active": [{"card": "Belfalas Shipyard", "progress": 5}],
            **SHIPYARD_HEROES,
            "p1.allies": [{"card": "Golden Wing", "damage": 6, "exhausted": True}],
            "staging": ["Sea Monster"],
        },
    }
    waiting = _planning({"staging": ["Sea Monster", "Brash Corsair"]})
    yield _open(db, acting, waiting, _planning({"staging": ["Brash Corsair"]}))


def test_golden_wing_deals_its_6_damage_to_an_enemy_of_another_group(three_groups: EpicTables, db: str) -> None:
    event = three_groups
    event.answer(1, "yes")  # Belfalas Shipyard: pay
    event.answer(1, "here")  # ... for Golden Wing, this group's ship
    event.answer(1, "yes")  # Golden Wing's Response
    event.answer(1, "2")  # ... its 6 damage to group 2
    arrived = _arrived_once(event, 2, 1, "golden-wing-damage")
    assert arrived.amount == 6
    # group 2's first player picks the enemy: the decision was theirs, with both enemies offered
    decision = event.state(2).pending
    assert decision is not None and decision.seat == "p1" and len(decision.options) == 2
    event.answer(2, "Brash Corsair")
    damage = _resolved_once(event, 2, ev.DamageDealt)
    assert damage.card == event.groups[1].labels["Brash Corsair"] and damage.amount == 6
    assert damage.cause.by == arrived.seq, "the damage follows from the arrival"
    assert not [e for e in event.log(3) if isinstance(e, ev.EffectArrived)], "group 3 was not the target"
    assert not [e for e in event.log(1) if isinstance(e, ev.DamageDealt) and e.amount == 6]
    _followed_again_changes_nothing(event, db)


def test_eithiliant_places_its_6_progress_on_a_location_of_another_group(db: str) -> None:
    acting = {
        "at": "lcg.quest.resolve",
        "phase": "quest",
        "zones": {
            "active": [{"card": "Belfalas Shipyard", "progress": 5}],
            **SHIPYARD_HEROES,
            "p1.allies": [{"card": "Eithiliant", "damage": 6, "exhausted": True}],
            "p1.discard": ["Guard of the Citadel"],
            "staging": ["Isle of Fortune"],
        },
    }
    event = _open(db, _planning({"staging": ["Isle of Fortune", "Mouths of Anduin"]}), acting)
    event.answer(2, "yes")
    event.answer(2, "here")
    event.answer(2, "yes")
    event.answer(2, "Guard of the Citadel")
    event.answer(2, "1")  # the progress goes to a location of group 1
    _arrived_once(event, 1, 2, "eithiliant-progress")
    event.answer(1, "Mouths of Anduin")
    progress = _resolved_once(event, 1, ev.ProgressPlaced)
    assert progress.card == event.groups[0].labels["Mouths of Anduin"] and progress.amount == 6
    explored = [e for e in event.log(1) if isinstance(e, ev.LocationExplored) and e.card == progress.card]
    assert explored, "6 progress explore Mouths of Anduin, in the staging area too (FAQ 1.18)"
    _followed_again_changes_nothing(event, db)


def test_belfalas_shipyard_repairs_and_upgrades_a_ship_of_another_group(db: str) -> None:
    acting = {
        "at": "lcg.quest.resolve",
        "phase": "quest",
        "zones": {
            "active": [{"card": "Belfalas Shipyard", "progress": 5}],
            **SHIPYARD_HEROES,
            "p1.allies": [{"card": "Pride of Lebennin"}],
        },
    }
    damaged = _planning({"p1.allies": [{"card": "Swan Ship of Dol Amroth", "damage": 7, "exhausted": True}]})
    event = _open(db, acting, damaged)
    event.answer(1, "yes")
    event.answer(1, "2")  # the players of group 1 pay for group 2's ship
    _arrived_once(event, 2, 1, "shipyard-repair")
    swan = event.groups[1].labels["Swan Ship of Dol Amroth"]
    healed = _resolved_once(event, 2, ev.DamageHealed)  # the only ship: picked without asking
    assert healed.card == swan and healed.amount == 5
    ship = event.state(2).cards[swan]
    assert (ship.damage, ship.exhausted, ship.face) == (2, False, "B")
    assert _resolved_once(event, 2, ev.CardFlipped).card == swan
    assert event.state(1).cards[event.groups[0].labels["Pride of Lebennin"]].face == "A"
    _followed_again_changes_nothing(event, db)


@pytest.mark.parametrize("mode", ["easy", "standard"])
def test_the_quest_action_deals_10_damage_to_an_engaged_enemy_of_another_group(db: str, mode: str) -> None:
    card = "Easy Mode" if mode == "easy" else "Standard Mode"
    acting = {"at": "lcg.quest", "phase": "travel", "zones": {"setup": [{"card": card, "face": "B"}]}}
    engaged = {"p1.engaged": ["Umbar Captain", "Brash Corsair", "Captain of the Haven"]}
    event = _open(
        db, {**acting, "zones": {**acting["zones"], "p1.allies": ["Eithiliant"]}}, _planning(engaged), difficulty=mode
    )
    event.answer(1)  # commit nobody
    event.answer(1, f"{card}: deal 10 damage to a non-unique engaged enemy (once per game)")
    # no enemy is engaged in group 1: group 2, the only other group, is the target without asking
    _arrived_once(event, 2, 1, "quest-action-damage")
    decision = event.state(2).pending
    assert decision is not None
    offered = {o.card for o in decision.options}
    labels = event.groups[1].labels
    assert offered == {labels["Umbar Captain"], labels["Brash Corsair"]}, "only the non-unique engaged enemies"
    event.answer(2, "Umbar Captain")
    damage = _resolved_once(event, 2, ev.DamageDealt)
    assert damage.card == labels["Umbar Captain"] and damage.amount == 10
    assert event.state(1).limit_used("thftd.setup.quest-action"), "the limit is the acting group's"
    assert not event.state(2).limit_used("thftd.setup.quest-action")
    _followed_again_changes_nothing(event, db)
