"""The referee's desk: explain's arithmetic, fixture capture, the chain warnings, where games
came from, and taking back a decision with the invariants holding."""

from __future__ import annotations

import random
import re
import sqlite3
import tomllib
import uuid
from pathlib import Path

import pytest

from domain.game import Game
from domain.kernel.events import Event, ModifierAdded
from domain.kernel.runtime import fold
from domain.lcg import events as lcg_ev
from domain.lcg.ruleset import LCG
from domain.lcg.state import LcgState
from domain.verify import verify
from domain.wotr import events as wotr_ev
from domain.wotr.options import wotr_options
from domain.wotr.ruleset import WOTR
from projections.arithmetic import rulebook
from projections.explain import explain, lines
from projections.story import Namer
from service.app import Westmarch
from tests.conftest import new_lcg, play_randomly
from tools.capture import capture
from tools.cli import main
from tools.fixtures import Run, load, run_fixture
from tools.table import lineage, take_back


@pytest.fixture(scope="module")
def lcg_games() -> list[Game]:
    return [play_randomly(new_lcg(seed, players=2), random.Random(seed)) for seed in range(1, 7)]


def first(games: list[Game], wanted: type[Event], rule: str = "") -> tuple[Game, Event]:
    for game in games:
        for event in _events(game):
            if isinstance(event, wanted) and event.cause.rule.startswith(rule):
                return game, event
    raise AssertionError(f"no {wanted.__name__} ({rule}) in these games")


def _events(game: Game) -> list[Event]:
    return list(game.pending_events)


def test_an_engagement_check_shows_threat_against_engagement_cost(lcg_games: list[Game]) -> None:
    game, event = first(lcg_games, lcg_ev.EnemyEngaged, "lcg.encounter.engagement-check")
    assert isinstance(event, lcg_ev.EnemyEngaged)
    events = _events(game)
    text = "\n".join(lines(explain(game.rules, events, event.seq)))
    enemy = re.escape(_named(_before(game, event), event.enemy))
    found = re.search(rf"= {event.player}'s threat (\d+) against {enemy}'s engagement cost (\d+): ", text)
    assert found, text
    threat, cost = int(found.group(1)), int(found.group(2))
    before = fold(game.rules, events[: event.seq - 1])
    assert isinstance(before, LcgState)
    assert threat == before.players[event.player].threat and threat >= cost
    assert "Core Set rulebook, Phase 5: Encounter, Engagement Checks" in text


def test_a_failed_quest_links_to_willpower_against_threat(lcg_games: list[Game]) -> None:
    game, event = first(lcg_games, lcg_ev.ThreatRaised, "lcg.quest.failed")
    events = _events(game)
    text = "\n".join(lines(explain(game.rules, events, event.seq)))
    resolved = re.search(r"<- event (\d+): the quest: willpower (\d+) against threat (\d+)", text)
    assert resolved, text
    will, threat = int(resolved.group(2)), int(resolved.group(3))
    assert will < threat
    shares = re.search(rf"= willpower {will} = (.*)", text)
    staged = re.search(rf"= threat {threat} = (.*)", text)
    assert shares and staged
    assert sum(int(n) for n in re.findall(r" (\d+)(?: \+|$)", shares.group(1))) == will or will == 0
    assert sum(int(n) for n in re.findall(r" (\d+)(?: \+|$)", staged.group(1))) == threat
    assert f"{will} < {threat}: the quest fails, each player raises their threat by {threat - will}" in text
    assert "Phase 3: Quest, Step 3: Quest Resolution" in text


def test_a_war_of_the_ring_combat_shows_each_side_and_each_card() -> None:
    for seed in range(1, 10):
        game = Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options("trilogy", {}), seed))
        play_randomly(game, random.Random(seed))
        events = _events(game)
        began = [e for e in events if isinstance(e, wotr_ev.CombatBegan) and e.attack > 0 and not e.empty]
        if began:
            break
    event = began[0]
    text = "\n".join(lines(explain(game.rules, events, event.seq)))
    attack = re.search(rf"= the (?:Shadow|Free Peoples) attack {event.attack} = (.*)", text)
    assert attack, text
    shares = sum(int(n) for n in re.findall(r"(\d+)(?= \+| \(| while| attack token|$)", attack.group(1)))
    assert shares == event.attack
    assert re.search(rf"= the (?:Shadow|Free Peoples) defense {event.defense}, cancelling first = ", text)
    assert re.search(rf"= the (?:Shadow|Free Peoples) cards {event.defenders}, cancelling as they are lost = ", text)
    assert "War of the Ring rules, §6.1 Path combat" in text or "§6.2 Battleground combat" in text


def test_every_rule_step_names_its_rulebook_section(lcg_games: list[Game]) -> None:
    """Each rule reference a game produces stands for a rulebook section, except the text of a
    card (``core-074.when-revealed``, ``wotr.frodo-078.on-play``, a location's activation)."""
    wotr_game = Game.start(uuid.uuid4(), WOTR, WOTR.created(wotr_options("trilogy", {}), 2))
    play_randomly(wotr_game, random.Random(2))
    rules = {e.cause.rule for g in [*lcg_games, wotr_game] for e in _events(g)}
    card_text = re.compile(r"core-\d|wotr\.[a-z\-]+-\d|wotr\.[a-z\-]+\.activation")
    assert not [r for r in rules if not rulebook(r) and not card_text.match(r)]


def test_capture_round_trip(lcg_games: list[Game]) -> None:
    """Captured at every kind of decision of a game, each position runs and passes."""
    game = lcg_games[0]
    events = _events(game)
    rules_seen: set[str] = set()
    for event in events:
        if type(event).__name__ != "DecisionRequested":
            continue
        state = fold(game.rules, events[: event.seq])
        assert state.pending is not None
        if state.pending.rule in rules_seen:
            continue
        rules_seen.add(state.pending.rule)
        text = capture(game.rules, state, f"at {event.seq}")
        result = run_fixture(tomllib.loads(text))
        assert result.passed, (event.seq, result.failures, text)
    assert len(rules_seen) >= 8


@pytest.mark.parametrize("bots", [(), ("shadow",)], ids=["people", "against-the-shadow"])
def test_capture_round_trip_war_of_the_ring(bots: tuple[str, ...]) -> None:
    options = wotr_options("trilogy", {}, bots=bots, difficulty="standard" if bots else "")
    game = Game.start(uuid.uuid4(), WOTR, WOTR.created(options, 3))
    play_randomly(game, random.Random(3))
    events = _events(game)
    rules_seen: set[str] = set()
    for event in events:
        if type(event).__name__ != "DecisionRequested":
            continue
        state = fold(game.rules, events[: event.seq])
        assert state.pending is not None
        if state.pending.rule in rules_seen:
            continue
        rules_seen.add(state.pending.rule)
        text = capture(game.rules, state, f"at {event.seq}")
        result = run_fixture(tomllib.loads(text))
        assert result.passed, (event.seq, result.failures, text)
    assert len(rules_seen) >= 6


def test_capture_at_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db, out = str(tmp_path / "g.db"), tmp_path / "dispute.toml"
    assert main(["new", "lcg", "--seed", "4", "--db", db]) == 0
    game = capsys.readouterr().out.strip()
    assert main(["play", game, "--bot", "p1=greedy", "--db", db]) == 0
    assert main(["fixture", "capture", game, "--at", "60", "-o", str(out), "--db", db]) == 0
    data = tomllib.loads(out.read_text())
    assert data["game"]["heroes"] == [["Aragorn", "Gimli", "Legolas"]] and data["position"]["zones"]
    capsys.readouterr()
    assert main(["fixture", "run", str(out)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().err


def test_log_and_state_warn_when_the_chain_is_broken(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert main(["new", "lcg", "--seed", "3", "--db", db]) == 0
    game = capsys.readouterr().out.strip()
    assert main(["log", game, "--db", db]) == 0
    assert "WARNING" not in capsys.readouterr().err
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "UPDATE stored_events SET state = CAST(replace(CAST(state AS TEXT), '\"seed\":3', '\"seed\":4') AS BLOB) "
            "WHERE originator_id = ? AND originator_version = 1",
            (game.replace("-", ""),),
        )
    conn.close()
    for command in ("log", "state"):
        assert main([command, game, "--db", db]) == 0
        err = capsys.readouterr().err
        assert f"westmarch: WARNING: game {game} does not verify: FAILED at event 1: the hash chain is broken" in err


def test_games_show_outcome_players_and_forks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert main(["new", "lcg", "--players", "2", "--seed", "3", "--db", db]) == 0
    game = capsys.readouterr().out.strip()
    assert main(["play", game, "--bot", "p1=greedy", "--bot", "p2=greedy", "--db", db]) == 0
    assert main(["fork", game, "--at", "40", "--db", db]) == 0
    fork = capsys.readouterr().out.strip().splitlines()[-1]
    assert main(["games", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert re.search(rf"{game} .* over: (won|lost) \([a-z-]+\)", listing)
    assert "players: p1 Aragorn, Gimli, Legolas; p2 Théodred, Glóin, Thalin" in listing
    assert f"forked from {game} at event 40" in listing
    assert f"forked at event 40 into {fork}" in listing


def test_take_back_keeps_every_invariant(sqlite_app: Westmarch) -> None:
    app = sqlite_app
    game = new_lcg(11, players=2)
    app.store(game)
    rng = random.Random(11)
    from bots import random_choice

    for _ in range(30):
        decision = app.game(game.id).state.pending
        assert decision is not None
        app.submit(game.id, decision.seat, decision.id, random_choice(decision, rng))
    source_before = app.history(game.id)
    taken = take_back(app, game.id, "p1")
    # the source is untouched and still verifies; the branch is a prefix of it
    assert app.history(game.id) == source_before
    assert verify(app.rules_of(game.id), source_before).ok
    record = lineage(app, taken.id)
    assert record is not None and record.source == game.id and record.why == "take-back"
    branch = app.history(taken.id)
    assert branch[: record.at] == source_before[: record.at]
    pending = app.game(taken.id).state.pending
    assert pending is not None and pending.seat == "p1" and pending.id == len(branch)  # asked again
    # play on differently: fold, reload and verify hold on the new branch
    while (decision := app.game(taken.id).state.pending) is not None:
        app.submit(taken.id, decision.seat, decision.id, random_choice(decision, rng))
    events = app.history(taken.id)
    assert verify(app.rules_of(taken.id), events).ok
    encode = app.rules_of(taken.id).codec.encode
    assert encode(fold(app.rules_of(taken.id), events)) == encode(app.game(taken.id).state)
    middle = len(events) // 2
    assert encode(app.state_at(taken.id, middle)) == encode(fold(app.rules_of(taken.id), events[:middle]))


def _explained(game: Game, event: Event) -> str:
    return "\n".join(lines(explain(game.rules, _events(game), event.seq)))


def _before(game: Game, event: Event) -> LcgState:
    state = fold(game.rules, _events(game)[: event.seq - 1])
    assert isinstance(state, LcgState)
    return state


def _named(state: LcgState, uid: int) -> str:
    """A card as the explanation names it: its name, as a sentence of the table says it."""
    return Namer(LCG, state).name(uid)


def test_defended_combat_damage_is_attack_minus_defense_with_each_part(lcg_games: list[Game]) -> None:
    from domain.lcg.rules import combat, table

    game, event = first(lcg_games, lcg_ev.DamageDealt, "lcg.combat.defended-damage")
    assert isinstance(event, lcg_ev.DamageDealt)
    text, before = _explained(game, event), _before(game, event)
    assert before.attack is not None
    attack, defense = table.attack(before, before.attack.enemy), combat.defense_total(before)
    assert attack - defense == event.amount
    enemy, defender = (re.escape(_named(before, u)) for u in (before.attack.enemy, before.attack.defenders[0]))
    assert re.search(rf"= attack {attack} = {enemy} {attack}\b", text), text
    assert re.search(rf"= defense {defense} = {defender} ", text), text
    assert f"{attack} - {defense} = {event.amount} damage to " in text
    hit = re.escape(_named(before, event.card))
    assert re.search(rf"{hit}: \d+ \+ {event.amount} = \d+ damage against \d+.* hit points", text), text
    assert "Core Set rulebook, Phase 6: Combat, Resolve Enemy Attacks" in text


def test_undefended_and_player_attack_damage_show_their_numbers(lcg_games: list[Game]) -> None:
    from domain.lcg.rules import table

    game, event = first(lcg_games, lcg_ev.DamageDealt, "lcg.combat.undefended-damage")
    assert isinstance(event, lcg_ev.DamageDealt)
    before = _before(game, event)
    assert before.attack is not None
    assert f"'s attack {table.attack(before, before.attack.enemy)}" in _explained(game, event)
    game, event = first(lcg_games, lcg_ev.DamageDealt, "lcg.combat.attack-damage")
    assert isinstance(event, lcg_ev.DamageDealt)
    before = _before(game, event)
    assert before.attack is not None
    total = sum(table.attack(before, u) for u in before.attack.attackers)
    text = _explained(game, event)
    assert f"attack {total} = " in text and f"defense {_named(before, event.card)} " in text
    assert f"{total} - {table.defense(before, event.card)} = " in text


def test_a_destroyed_character_or_defeated_enemy_shows_damage_against_hit_points(lcg_games: list[Game]) -> None:
    from domain.lcg.rules import table

    for wanted in (lcg_ev.CharacterDestroyed, lcg_ev.EnemyDefeated):
        game, event = first(lcg_games, wanted)
        uid = event.card if isinstance(event, lcg_ev.CharacterDestroyed) else event.enemy  # type: ignore[attr-defined]
        before = _before(game, event)
        damage, hp = before.cards[uid].damage, table.hit_points(before, uid)
        assert f"{_named(before, uid)}: {damage} damage >= {hp}" in _explained(game, event)


def test_progress_and_threat_raised_show_their_sums(lcg_games: list[Game]) -> None:
    from domain.lcg.rules import table

    game, event = first(lcg_games, lcg_ev.ProgressPlaced)
    assert isinstance(event, lcg_ev.ProgressPlaced)
    before = _before(game, event)
    have = before.cards[event.card].progress
    text = _explained(game, event)
    assert f"{_named(before, event.card)}: {have} + {event.amount} = {have + event.amount} progress of " in text
    assert f"{table.quest_points(before, event.card)}" in text
    game, raised = first(lcg_games, lcg_ev.ThreatRaised)
    assert isinstance(raised, lcg_ev.ThreatRaised)
    threat = _before(game, raised).players[raised.player].threat
    assert f"{raised.player}'s threat {threat} + {raised.amount}" in _explained(game, raised)


def test_a_stats_parts_add_up_to_the_stat_the_rules_read() -> None:
    """The parts explain shows are the rules' own sum (table.stat_parts is table.stat's
    computation, keeping its terms): checked on every card of played positions, the
    Dreadnaught's auras and attachments included."""
    from domain.lcg.rules import table

    for scenario in ("passage-through-mirkwood", "hunt-for-the-dreadnaught"):
        game = play_randomly(new_lcg(5, players=2, scenario=scenario), random.Random(5))
        events = _events(game)
        for n in range(50, len(events), max(1, len(events) // 12)):
            s = fold(game.rules, events[:n])
            assert isinstance(s, LcgState)
            for uid in s.cards:
                for which in ("willpower", "attack", "defense", "hit_points", "threat"):
                    if getattr(table.defn(s, uid), which) is None:
                        continue
                    parts = table.stat_parts(s, uid, which)
                    assert max(0, sum(p for _, p in parts)) == table.stat(s, uid, which), (uid, which, parts)


def test_archery_shows_its_total_card_by_card() -> None:
    game = play_randomly(new_lcg(2, players=1, scenario="hunt-for-the-dreadnaught"), random.Random(2))
    _, event = first([game], lcg_ev.DamageDealt, "lcg.keyword.archery")
    text = _explained(game, event)
    found = re.search(r"= archery (\d+) = (.+): dealt 1 at a time", text)
    assert found, text
    assert sum(int(n) for n in re.findall(r" (\d+)(?: \+|$)", found.group(2))) == int(found.group(1))


def test_a_keywords_parts_add_up_to_the_value_the_keyword_rules_read() -> None:
    """Archery and Boarding as explain shows them are the keyword rules' own count
    (ship_keywords.value_parts is value's computation, keeping its terms)."""
    from domain.lcg.rules import ship_keywords

    game = play_randomly(new_lcg(12, players=3, scenario="hunt-for-the-dreadnaught"), random.Random(12))
    events = _events(game)
    seen = 0
    for n in range(40, len(events), max(1, len(events) // 15)):
        s = fold(game.rules, events[:n])
        assert isinstance(s, LcgState)
        for uid in s.cards:
            for name in ("Archery", "Boarding", "Pillage"):
                parts = ship_keywords.value_parts(s, uid, name)
                assert max(0, sum(p for _, p in parts)) == ship_keywords.value(s, uid, name), (uid, name, parts)
                seen += bool(parts)
    assert seen


# -- the arithmetic of the Dreadnaught's rules: shadow effects, Massive, Boarding, caps ----------

HUNT = Path(__file__).parent / "fixtures" / "lcg" / "hunt-for-the-dreadnaught"


def _fixture_game(path: Path) -> tuple[Run, list[Event]]:
    """A fixture's position played through its steps, and its log."""
    data = load(path)
    run = Run(data)
    for step in data.get("step", []):
        decision = run.game.state.pending
        assert decision is not None, path
        run.game.answer(decision.seat, decision.id, run.choice(decision, step["choose"]))
    return run, run.log


def _working(run: Run, log: list[Event], wanted: type[Event], rule: str = "") -> list[str]:
    event = next(e for e in log if isinstance(e, wanted) and e.cause.rule.startswith(rule))
    return explain(run.rules, log, event.seq, depth=0).working


def test_a_shadow_effect_shows_its_card_its_attack_and_the_stat_it_changes() -> None:
    """Boarding Party's shadow effect: +2 attack (an exhausted ship of the defending player);
    explain names the shadow card, the attack it was dealt to (defended or not), the attack
    before and after with its parts, and the combat damage counts that part."""
    run, log = _fixture_game(HUNT / "cards" / "boarding-party-shadow-plus-2-with-an-exhausted-ship.toml")
    assert _working(run, log, ModifierAdded, "thftd-041.shadow") == [
        "the shadow effect of Boarding Party, dealt to Brash Corsair, on its attack against p1 (defended by Gimli)",
        "Brash Corsair's attack: 3 before, 5 (printed 3 + Boarding Party 2) now",
    ]
    damage = _working(run, log, lcg_ev.DamageDealt, "lcg.combat.defended-damage")
    assert damage[0] == "attack 5 = Brash Corsair 5 (printed 3 + Boarding Party 2)"
    assert damage[2] == "5 - 2 = 3 damage to Gimli"
    # a shadow effect that deals damage itself: its card and the hit points it is counted against
    run, log = _fixture_game(HUNT / "cards" / "gondorian-warship-shadow-deals-5-damage-to-the-attacker.toml")
    assert _working(run, log, lcg_ev.DamageDealt, "thftd-012.shadow") == [
        "the shadow effect of Gondorian Warship, dealt to Black Sails, on its attack against p1 "
        "(defended by Gondorian Warship)",
        "Black Sails: 0 + 5 = 5 damage against 10 hit points: 5 left",
    ]


def test_a_ship_enemys_attack_and_massive_show_their_rules() -> None:
    """The Damaged Dreadnaught (Massive) attacks each player from the staging area, dealt a
    shadow card as each attack begins; only a ship-objective defends against a ship-enemy;
    its attack is its Damaged side's printed 5."""
    run, log = _fixture_game(HUNT / "rules" / "massive-never-leaves-the-staging-area-attacks-each-player.toml")
    assert _working(run, log, lcg_ev.AttackDeclared, "lcg.combat.enemy-attack") == [
        "Dreadnaught is Massive: from the staging area it is engaged with each player and attacks each in turn, here p1"
    ]
    assert _working(run, log, lcg_ev.ShadowCardDealt, "lcg.keyword.massive") == [
        "Dreadnaught is Massive: it is dealt 1 shadow card as each of its attacks begins, its attack against p1"
    ]
    assert _working(run, log, lcg_ev.DamageDealt, "lcg.combat.defended-damage")[:2] == [
        "Dreadnaught is a ship-enemy: only a ship-objective may defend against it",
        "attack 5 = Dreadnaught 5",
    ]
    run, log = _fixture_game(HUNT / "rules" / "ship-enemy-undefended-damage-to-a-ship-objective.toml")
    working = _working(run, log, lcg_ev.DamageDealt, "lcg.combat.undefended-damage")
    assert working[0].endswith("is a ship-enemy: its undefended attack is assigned to a ship-objective"), working


def test_boarding_shows_its_value_with_each_part() -> None:
    run, log = _fixture_game(HUNT / "cards" / "cobas-haven-active-boarding-minus-1.toml")
    assert _working(run, log, lcg_ev.EnemyEngaged, "lcg.keyword.boarding") == [
        "Boarding 1 (printed 2 - Cobas Haven 1) of Black Sails, which engaged p1 from the staging area: "
        "the top 1 card(s) of the Corsair deck engage p1, this one among them"
    ]
    run, log = _fixture_game(HUNT / "cards" / "war-galley-engaged-threat-or-boarding.toml")
    assert _working(run, log, ModifierAdded) == ["War Galley's Boarding: 1 before, 2 (printed 1 + its own text 1) now"]
    # an engagement by a text, from the encounter deck: no engagement check, no Boarding
    run, log = _fixture_game(HUNT / "rules" / "boarding-not-when-a-ship-engages-from-the-encounter-deck.toml")
    assert _working(run, log, lcg_ev.EnemyEngaged) == [
        "Black Sails engages p1 from the encounter deck, by a card's text: no engagement check compares threat and cost"
    ]


def test_a_capped_card_shows_its_cap_and_what_it_took_this_round() -> None:
    run, log = _fixture_game(HUNT / "cards" / "dreadnaught-damage-capped-5-per-player-each-round.toml")
    assert _working(run, log, lcg_ev.DamageDealt, "lcg.combat.attack-damage") == [
        "attack 13 = Aragorn 3 + Gimli 2 + Legolas 3 + Golden Wing 5; defense Dreadnaught 4",
        "Dreadnaught may receive at most 5 damage each round; 0 already this round, so at most 5 more",
        "13 - 4 = 9; 5 dealt, the most it may take now",
        "Dreadnaught: 2 + 5 = 7 damage against 15 hit points: 8 left",
    ]
    run, log = _fixture_game(HUNT / "cards" / "searching-the-high-seas-progress-capped-5-per-player.toml")
    working = _working(run, log, lcg_ev.ProgressPlaced)
    assert working[0].startswith("Searching the High Seas may receive at most 5 progress each round; "), working


def test_doomed_and_a_failed_quest_say_why_each_player_raises_their_threat() -> None:
    run, log = _fixture_game(HUNT / "rules" / "doomed-raises-each-players-threat-when-revealed.toml")
    working = _working(run, log, lcg_ev.ThreatRaised, "lcg.keyword.doomed")
    assert working[0].startswith("Doomed 1 of Ballista Barrage: each player raises their threat by 1"), working


def test_progress_a_card_text_counts_is_shown_without_quest_points() -> None:
    """Smaug the Golden counts the progress on him (his 6th sends the players to stage 4A); he
    has no quest points to compare it with."""
    path = Path(__file__).parent / "fixtures" / "lcg" / "scenario"
    run, log = _fixture_game(path / "lonely-mountain-smaug-the-golden-sixth-progress-goes-to-stage-4.toml")
    assert _working(run, log, lcg_ev.ProgressPlaced) == ["Smaug the Golden: 5 + 1 = 6 progress"]


def test_progress_in_an_epic_group_is_counted_against_the_global_value_with_the_other_groups() -> None:
    """A group of an epic event: explain says the stage's quest points as the organizer
    announced them (48 among six players), the other group's 30 counted with this group's own
    progress, as the view shows them (rulebook, Global Values)."""
    cards = HUNT / "cards"
    run, log = _fixture_game(
        cards / "searching-the-high-seas-in-an-epic-event-counts-what-the-other-groups-placed-three-players.toml"
    )
    assert _working(run, log, lcg_ev.ProgressPlaced)[-1] == (
        "Searching the High Seas: 15 + 2 = 17 progress of 48 quest points (a global value); "
        "with 30 by the other groups, 47"
    )
    run, log = _fixture_game(
        cards / "searching-the-high-seas-in-an-epic-event-counts-what-the-other-groups-placed-one-player.toml"
    )
    assert _working(run, log, lcg_ev.ProgressPlaced)[-1] == (
        "Searching the High Seas: 4 + 2 = 6 progress of 16 quest points (a global value); "
        "with 10 by the other groups, 16: enough to advance"
    )
