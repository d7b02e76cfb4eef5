"""The LCG events The Hunt for the Dreadnaught brought, in sentences (added to the LCG phrasebook)."""

from __future__ import annotations

from projections.i18n import N_, _, nsay, say
from projections.story import Phrase, Said

_SIDES = {"B": N_("its side B"), "A": N_("its side A")}
_SHARED = {"progress": N_("progress on Searching the High Seas"), "damage": N_("damage on the Dreadnaught")}


def card_flipped(said: Said) -> str:
    face = str(said.get("face"))
    return say("%(card)s flips to %(side)s", card=said.card("card"), side=_(_SIDES[face]) if face in _SIDES else face)


def resources_lost(said: Said) -> str:
    amount = int(said.get("amount", 0) or 0)
    return nsay("%(card)s loses %(n)d resource", "%(card)s loses %(n)d resources", amount, card=said.card("card"))


def shared_value_learned(said: Said) -> str:
    key = str(said.get("key"))
    return say(
        "the event organizer reports %(amount)s %(what)s from the other groups",
        amount=said.get("others"),
        what=_(_SHARED[key]) if key in _SHARED else key,
    )


def effect_sent(said: Said) -> str:
    return say(
        "the effect %(effect)s (%(amount)s) is sent to group %(group)s",
        effect=said.get("effect"),
        amount=said.get("amount"),
        group=said.get("group"),
    )


def effect_arrived(said: Said) -> str:
    return say(
        "the event organizer relays the effect %(effect)s (%(amount)s) from group %(group)s (its event %(seq)s)",
        effect=said.get("effect"),
        amount=said.get("amount"),
        group=said.get("source_group"),
        seq=said.get("source_event"),
    )


PHRASES: dict[str, Phrase] = {
    "EffectSent": effect_sent,
    "EffectArrived": effect_arrived,
    "CardFlipped": card_flipped,
    "ResourcesLost": resources_lost,
    "SharedValueLearned": shared_value_learned,
}
