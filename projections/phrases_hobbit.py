"""The LCG events of burgle attempts (The Lonely Mountain), in sentences (added to the LCG
phrasebook). Each sentence says the step and, for a failure, why."""

from __future__ import annotations

from projections.i18n import N_, _, say
from projections.story import Phrase, Said

_WHY = {
    "empty-deck": N_("no card is left in the deck to turn up"),
    "no-burgle-card": N_("no card of the encounter deck or its discard pile has a burgle effect"),
    "not-discarded": N_("the cards the burgle effect asks for were not discarded"),
}


def burgle_attempt_began(said: Said) -> str:
    return say("%(player)s makes a burgle attempt", player=said.get("player"))


def burgle_cards_discarded(said: Said) -> str:
    burgle = said.uid("burgle")
    found = said.namer.name(burgle) if burgle is not None else ""
    cards = said.cards("cards").text()
    if found:
        return say(
            "burgle, step 1: %(cards)s discarded from the encounter deck; %(card)s has a burgle effect",
            cards=cards,
            card=found,
        )
    return say("burgle, step 1: %(cards)s discarded from the encounter deck; none has a burgle effect", cards=cards)


def burgle_card_turned_up(said: Said) -> str:
    return say(
        "burgle, step 2: %(player)s turns up %(card)s from the top of their deck",
        player=said.get("player"),
        card=said.card("card"),
    )


def burgle_succeeded(said: Said) -> str:
    return say(
        "burgle, step 3: %(player)s discards %(cards)s matching %(revealed)s: the burgle attempt succeeds",
        player=said.get("player"),
        cards=said.cards("discarded").text(),
        revealed=said.card("revealed"),
    )


def burgle_failed(said: Said) -> str:
    reason = str(said.get("reason"))
    why = _(_WHY[reason]) if reason in _WHY else reason
    return say("the burgle attempt fails: %(why)s", why=why)


PHRASES: dict[str, Phrase] = {
    "BurgleAttemptBegan": burgle_attempt_began,
    "BurgleCardsDiscarded": burgle_cards_discarded,
    "BurgleCardTurnedUp": burgle_card_turned_up,
    "BurgleSucceeded": burgle_succeeded,
    "BurgleFailed": burgle_failed,
}
