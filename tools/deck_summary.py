"""What ``simulate lcg`` says about each deck: how its games went and where they were lost.

One summary per seat (a seat plays the same deck in every game of a run): the games won, the
games lost and why (the threat reached 50, every hero dead, or the quest itself: a scenario's
own way to lose, such as the Dreadnaught's ship never found), how often this deck's player
was eliminated and why, and per game the heroes it lost, its threat at the end, the quest
stages the table defeated, and the allies, attachments and events it played.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from domain.game import Game
from domain.lcg import events as ev
from domain.lcg.cards import CARDS
from domain.lcg.state import LcgState
from projections.i18n import N_, _, card_name, nsay, say

PLAYER_LOSSES = {"threat": N_("threat reached 50"), "heroes": N_("every hero dead")}
"""How a player is eliminated (and, when every player is, how the game is lost)."""


@dataclass
class DeckTally:
    seat: str
    heroes: tuple[str, ...]
    cards: int
    games: int = 0
    won: int = 0
    lost: Counter[str] = field(default_factory=Counter)
    """Games lost, by how: ``threat``, ``heroes``, or ``quest: REASON``."""
    eliminated: Counter[str] = field(default_factory=Counter)
    """This deck's player eliminated, by reason (the game may have gone on without it)."""
    heroes_lost: list[int] = field(default_factory=list)
    threat: list[int] = field(default_factory=list)
    stages: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    allies: list[int] = field(default_factory=list)
    attachments: list[int] = field(default_factory=list)
    events: list[int] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The seat, its heroes (by their names in the language spoken) and its deck's size."""
        cards = nsay("%(n)d card", "%(n)d cards", self.cards)
        return f"{self.seat}: {', '.join(card_name(h) for h in self.heroes)} ({cards})"

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "heroes": list(self.heroes),
            "cards": self.cards,
            "games": self.games,
            "won": self.won,
            "lost": dict(self.lost.most_common()),
            "eliminated": dict(self.eliminated.most_common()),
            "per_game": {
                "heroes_lost": _mean(self.heroes_lost),
                "final_threat": _mean(self.threat),
                "stages_defeated": _mean(self.stages),
                "rounds": _mean(self.rounds),
                "allies_played": _mean(self.allies),
                "attachments_played": _mean(self.attachments),
                "events_played": _mean(self.events),
            },
        }

    def text(self) -> str:
        """The deck's summary in the language spoken."""
        lost = sum(self.lost.values())
        lines = [say("deck %(name)s: won %(won)s of %(games)s", name=self.name, won=self.won, games=self.games)]
        if lost:
            why = ", ".join(f"{_how(reason)} {n}" for reason, n in self.lost.most_common())
            lines.append("  " + say("lost %(n)s: %(why)s", n=lost, why=why))
        if self.eliminated:
            why = ", ".join(
                f"{_(PLAYER_LOSSES[r]) if r in PLAYER_LOSSES else r} {n}" for r, n in self.eliminated.most_common()
            )
            lines.append("  " + say("this player eliminated: %(why)s", why=why))
        d = self.as_dict()["per_game"]
        lines.append(
            "  "
            + say(
                "per game: %(heroes)s heroes lost, threat %(threat)s at the end, %(stages)s quest stages defeated in "
                "%(rounds)s rounds; played %(allies)s allies, %(attachments)s attachments, %(events)s events",
                heroes=d["heroes_lost"],
                threat=d["final_threat"],
                stages=d["stages_defeated"],
                rounds=d["rounds"],
                allies=d["allies_played"],
                attachments=d["attachments_played"],
                events=d["events_played"],
            )
        )
        return "\n".join(lines)


def _mean(values: list[int]) -> float:
    return round(statistics.fmean(values), 2) if values else 0.0


def _how(reason: str) -> str:
    if reason in PLAYER_LOSSES:
        return _(PLAYER_LOSSES[reason])
    if reason.startswith("quest: "):
        return say("the quest (%(how)s)", how=reason.removeprefix("quest: "))
    return reason


def tally(decks: dict[str, DeckTally], game: Game) -> None:
    """Count one finished LCG game into the summary of each seat's deck."""
    state = game.state
    assert isinstance(state, LcgState)
    setups = state.options.players if state.options is not None else ()
    seats = list(state.players)
    over = state.over
    events = game.pending_events
    hero_uids = {u for u, c in state.cards.items() if CARDS[c.code].type == "hero"}
    owner = {u: c.owner for u, c in state.cards.items()}
    stages = sum(1 for e in events if isinstance(e, ev.QuestStageDefeated))
    rounds = sum(1 for e in events if isinstance(e, ev.RoundBegan))
    for n, seat in enumerate(seats):
        setup = setups[n] if n < len(setups) else None
        heroes = tuple(CARDS[h].name for h in setup.heroes) if setup else ()
        deck = decks.setdefault(seat, DeckTally(seat, heroes, len(setup.deck) if setup else 0))
        deck.games += 1
        if over is not None and over.result == "won":
            deck.won += 1
        elif over is not None:
            deck.lost[over.reason if over.reason in PLAYER_LOSSES else f"quest: {over.reason}"] += 1
        else:
            deck.lost["unfinished"] += 1
        deck.eliminated.update(e.reason for e in events if isinstance(e, ev.PlayerEliminated) and e.player == seat)
        deck.heroes_lost.append(
            sum(
                1
                for e in events
                if isinstance(e, ev.CharacterDestroyed) and e.card in hero_uids and owner.get(e.card) == seat
            )
        )
        deck.threat.append(state.players[seat].threat)
        deck.stages.append(stages)
        deck.rounds.append(rounds)
        deck.allies.append(sum(1 for e in events if isinstance(e, ev.AllyPlayed) and e.player == seat))
        deck.attachments.append(sum(1 for e in events if isinstance(e, ev.AttachmentPlayed) and e.player == seat))
        deck.events.append(sum(1 for e in events if isinstance(e, ev.EventPlayed) and e.player == seat))
