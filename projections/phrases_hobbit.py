"""The LCG events of burgle attempts (The Lonely Mountain), in sentences (added to the LCG
phrasebook). Each sentence says the step and, for a failure, why."""

from __future__ import annotations

from projections.story import Phrase, Said

_WHY = {
    "empty-deck": "no card is left in the deck to turn up",
    "no-burgle-card": "the encounter deck ran out before a burgle effect",
    "not-discarded": "the cards the burgle effect asks for were not discarded",
}


def burgle_attempt_began(said: Said) -> str:
    return f"{said.get('player')} makes a burgle attempt"


def burgle_cards_discarded(said: Said) -> str:
    found = said.card("burgle", "") if said.get("burgle") is not None else ""
    cards = said.cards("cards").text()
    tail = f"; {found} has a burgle effect" if found else "; none has a burgle effect"
    return f"burgle, step 1: {cards} discarded from the encounter deck{tail}"


def burgle_card_turned_up(said: Said) -> str:
    return f"burgle, step 2: {said.get('player')} turns up {said.card('card')} from the top of their deck"


def burgle_succeeded(said: Said) -> str:
    return (
        f"burgle, step 3: {said.get('player')} discards {said.cards('discarded').text()} matching "
        f"{said.card('revealed')}: the burgle attempt succeeds"
    )


def burgle_failed(said: Said) -> str:
    why = _WHY.get(str(said.get("reason")), str(said.get("reason")))
    return f"the burgle attempt fails: {why}"


PHRASES: dict[str, Phrase] = {
    "BurgleAttemptBegan": burgle_attempt_began,
    "BurgleCardsDiscarded": burgle_cards_discarded,
    "BurgleCardTurnedUp": burgle_card_turned_up,
    "BurgleSucceeded": burgle_succeeded,
    "BurgleFailed": burgle_failed,
}
