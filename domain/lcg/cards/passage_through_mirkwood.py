"""The Passage through Mirkwood encounter set (Core Set #96-100) and its quest (#119-122)."""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.events import Event, GameEnded, Outcome
from domain.kernel.flow import If, Seq
from domain.kernel.runtime import Runtime
from domain.lcg import events as ev
from domain.lcg.cards import Trigger, text
from domain.lcg.effects import (
    FIRST_PLAYER,
    PLAYER,
    SELF,
    attacker,
    choose,
    chosen,
    defending_player,
    discard,
    draw,
    each_player,
    emit,
    modify,
    raise_threat,
    ready,
    st,
    undefended,
)
from domain.lcg.rules import table
from domain.lcg.state import LcgState, Uid

UNGOLIANTS_SPAWN = "core-076"


def _engaged_self(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.EnemyEngaged) and e.enemy == uid


def _owned_attachments(rt: Runtime) -> list[Uid]:
    # Reading: an encounter condition (Caught in a Web) is controlled by no player, so it is
    # never "an attachment he controls" (Core Set rulebook, Attachments: control).
    seat = defending_player(rt)
    return [a for a in st(rt).zone("attachments") if st(rt).cards[a].owner == seat]


# Forest Spider — "Forced: after Forest Spider engages a player, it gets +1 Attack until
# the end of the round. Shadow: the defending player chooses and discards 1 attachment
# he controls."
text(
    "core-096",
    forced=(Trigger(ev.EnemyEngaged, _engaged_self, modify(lambda rt: [SELF(rt)], "attack", 1, "round")),),
    shadow=choose(
        defending_player,
        "Forest Spider: discard an attachment you control",
        _owned_attachments,
        "attachment",
        discard(lambda rt: chosen(rt, "attachment")),
    ),
)

# East Bight Patrol — "Shadow: the attacking enemy gets +1 Attack; if the attack is
# undefended, also raise the defending player's threat by 3."
text(
    "core-097",
    shadow=Seq(
        modify(lambda rt: [attacker(rt)], "attack", 1, "attack"),
        If(undefended, raise_threat(defending_player, 3)),
    ),
)

# Black Forest Bats — "When Revealed: each player chooses 1 character committed to a
# quest and removes it from the quest (it does not ready)." Reading: each player chooses
# among the questing characters he controls; the removed one stays exhausted and its
# willpower no longer counts when the quest resolves.
text(
    "core-098",
    when_revealed=each_player(
        choose(
            PLAYER,
            "Black Forest Bats: remove one of your questing characters from the quest",
            lambda rt: table.committed(st(rt), PLAYER(rt)),
            "removed",
            emit(lambda rt: ev.RemovedFromQuest(card=int(rt.env["removed"]))),
        )
    ),
)


def _traveled_here(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.LocationTraveled) and e.card == uid


# Old Forest Road — "Response: after you travel to Old Forest Road, the first player may
# choose and ready 1 character he controls."
text(
    "core-099",
    responses=(
        Trigger(
            ev.LocationTraveled,
            _traveled_here,
            choose(
                FIRST_PLAYER,
                "Old Forest Road: ready one of your characters?",
                lambda rt: [u for u in table.characters(st(rt), st(rt).first) if st(rt).cards[u].exhausted],
                "readied",
                ready(lambda rt: chosen(rt, "readied")),
                optional=True,
            ),
        ),
    ),
)

# Forest Gate — "Response: after you travel to Forest Gate, the first player may draw 2
# cards."
text(
    "core-100",
    responses=(
        Trigger(
            ev.LocationTraveled,
            _traveled_here,
            draw(FIRST_PLAYER, 2),
            optional=True,
            prompt="Forest Gate: draw 2 cards?",
        ),
    ),
)


# -- the quest ---------------------------------------------------------------------------


def _first_in_deck(code: str) -> Callable[[Runtime], Event | None]:
    def make(rt: Runtime) -> Event | None:
        s = st(rt)
        found = [u for u in s.zone("encounter.deck") if s.cards[u].code == code]
        return ev.CardMoved(card=found[0], to="staging") if found else None

    return make


def _shuffle_encounter(rt: Runtime) -> Event:
    return ev.DeckShuffled(zone="encounter.deck", order=tuple(rt.shuffle(st(rt).zone("encounter.deck"))))


# Flies and Spiders, 1A — "Setup: search the encounter deck for 1 Forest Spider and 1 Old
# Forest Road and add them to the staging area; shuffle the encounter deck."
text(
    "core-119",
    setup=Seq(
        emit(_first_in_deck("core-096")),
        emit(_first_in_deck("core-099")),
        emit(_shuffle_encounter),
    ),
)


def _set_aside_other_path(rt: Runtime) -> Event | None:
    """The stage 3 card not picked leaves the game; the picked one is next in the deck."""
    s = st(rt)
    paths = [u for u in s.zone("quest.deck") if table.defn(s, u).stage == 3]
    if len(paths) < 2:
        return None
    keep = rt.pick(paths)[0]
    other = next(u for u in paths if u != keep)
    return ev.CardMoved(card=other, to="quest.unused")


# A Fork in the Road, 2B — "Forced: when this stage is defeated, the next stage is chosen
# at random between the two stage 3 cards (A Chosen Path)."
text(
    "core-120",
    forced=(
        Trigger(
            ev.QuestStageDefeated,
            lambda s, e, uid: isinstance(e, ev.QuestStageDefeated) and e.card == uid,
            emit(_set_aside_other_path),
        ),
    ),
)


def _spiders(rt: Runtime) -> list[Uid]:
    s = st(rt)
    piles = s.zone("encounter.deck") + s.zone("encounter.discard")
    return [u for u in piles if table.defn(s, u).is_a("Spider")]


def _ungoliant_defeated_here(s: LcgState, e: Event, uid: Uid) -> bool:
    return isinstance(e, ev.EnemyDefeated) and s.cards[e.enemy].code == UNGOLIANTS_SPAWN and s.cards[uid].face == "B"


# Don't Leave the Path!, 3B — "When Revealed: each player searches the encounter deck and
# discard pile for 1 Spider card of his choice and adds it to the staging area. The
# players must find and defeat Ungoliant's Spawn to win." With 0 quest points this stage
# cannot be defeated by progress; defeating Ungoliant's Spawn while it is the current
# stage wins the game (seed 001: "Don't Leave the Path and Ungoliant's Spawn defeated").
text(
    "core-121",
    when_revealed=Seq(
        each_player(
            choose(
                PLAYER,
                "Don't Leave the Path!: add a Spider card to the staging area",
                _spiders,
                "spider",
                emit(lambda rt: ev.CardMoved(card=int(rt.env["spider"]), to="staging")),
            )
        ),
        emit(_shuffle_encounter),
    ),
    forced=(
        Trigger(
            ev.EnemyDefeated,
            _ungoliant_defeated_here,
            emit(
                lambda rt: GameEnded(
                    outcome=Outcome(result="won", reason="ungoliants-spawn-defeated", winner="players")
                )
            ),
        ),
    ),
)


def _ungoliant_gone(s: LcgState, uid: Uid) -> bool:
    return not any(s.cards[u].code == UNGOLIANTS_SPAWN for u in table.enemies_in_play(s))


# Beorn's Path, 3B — "The players cannot defeat this stage while Ungoliant's Spawn is in
# play. If the players defeat this stage, they win." Reading: progress keeps piling up
# while Ungoliant's Spawn holds the stage back, and the stage falls the moment it leaves
# play with 10 or more progress on it (Core Set rulebook, Quest phase: a stage with
# progress equal to its quest points is defeated at once; the text only forbids it while
# its condition lasts). The check is triggers._defeated, after each EnemyDefeated.
text("core-122", can_defeat=_ungoliant_gone, wins_when_defeated="beorns-path")
