"""The LCG events The Hunt for the Dreadnaught brought, in sentences (added to the LCG phrasebook)."""

from __future__ import annotations

from projections.story import Phrase, Said

_SIDES = {"B": "side B", "A": "side A"}


def card_flipped(said: Said) -> str:
    return f"{said.card('card')} flips to its {_SIDES.get(str(said.get('face')), str(said.get('face')))}"


def resources_lost(said: Said) -> str:
    return f"{said.card('card')} loses {said.get('amount')} resource(s)"


def shared_value_learned(said: Said) -> str:
    what = {"progress": "progress on Searching the High Seas", "damage": "damage on the Dreadnaught"}
    key = str(said.get("key"))
    return f"the event organizer reports {said.get('others')} {what.get(key, key)} from the other groups"


def effect_sent(said: Said) -> str:
    return f"the effect {said.get('effect')} ({said.get('amount')}) is sent to group {said.get('group')}"


def effect_arrived(said: Said) -> str:
    return (
        f"the event organizer relays the effect {said.get('effect')} ({said.get('amount')}) from group "
        f"{said.get('source_group')} (its event {said.get('source_event')})"
    )


PHRASES: dict[str, Phrase] = {
    "EffectSent": effect_sent,
    "EffectArrived": effect_arrived,
    "CardFlipped": card_flipped,
    "ResourcesLost": resources_lost,
    "SharedValueLearned": shared_value_learned,
}
