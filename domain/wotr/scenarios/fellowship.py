"""The Fellowship of the Ring: a short two-player game with fixed decks (rules digest §9.4).

The Balrog of Moria (Shadow, 30 cards) starts; Gandalf (Free Peoples, 30 cards). Both draw
7 and cycle 2; the draw step gives Gandalf 3 and the Balrog 4. No Ring tokens.
Battlegrounds come in a fixed order (round 1 Minas Morgul, 2 Rivendell, 3 Moria, 4 Lórien
and Dol Guldur, 5 Orthanc, 6 Morannon) and 13 paths are used, 1 to 6; the game ends
after path 6. Scoring, sudden death and the tie rule are the Trilogy's (open question 11;
the summary does not restate them).
"""

from __future__ import annotations

from domain.wotr.scenarios import SCENARIOS, Scenario, SeatDef, cards_named

NAZGUL = (
    "The Witch-king",
    "The Reaver",
    "The Beguiler",
    "The Hunter",
    "The Messenger",
    "The Black Easterling",
    "The Commander",
    "The Destroyer",
    "The Warrior",
)

BALROG = cards_named(
    # Monstrous (8)
    "Balrog of Moria",
    "Barrow-wights",
    "Caradhras the Cruel",
    "Cave-troll",
    "Flocks of Crebain",
    "Hill-troll",
    "Goblins of the Misty Mountains",
    "Goblins of the Misty Mountains",
    # Mordor (18)
    "Black Breath",
    "Black Rider's Mount",
    "Grishnákh",
    "Mordor Orcs",
    "Mordor Orcs",
    "Mordor Orcs",
    "Morgul Blade",
    "Nazgûl's Mantle",
    "The Ringwraiths Are Abroad",
    *NAZGUL,
    # Isengard (4)
    "Palantír of Orthanc",
    "Saruman",
    "Saruman's Staff",
    "Uglúk",
)

GANDALF = cards_named(
    # Dúnedain (3)
    "Blade of Westernesse",
    "Boromir",
    "Strider",
    # Dwarf (2)
    "Dwarven Axe",
    "Gimli",
    # Elf (13)
    "Arwen",
    "Bow of the Galadhrim",
    "Elrond",
    "Elven Cloak",
    "Galadriel",
    "High Elves",
    "High Elves",
    "Legolas",
    "Lembas",
    "Mirror of Galadriel",
    "Nenya, Ring of Adamant",
    "Phial of Galadriel",
    "Vilya, Ring of Air",
    # Hobbit (8)
    "Bilbo Baggins",
    "Fatty Bolger",
    "Frodo Baggins",
    "Merry Brandybuck",
    "Mithril Coat",
    "Pippin Took",
    "Sam Gamgee",
    "Sting",
    # Wizard (4)
    "Gandalf the Grey",
    "Narya, Ring of Fire",
    "Gandalf's Staff",
    "Glamdring",
)

FELLOWSHIP = Scenario(
    key="fellowship",
    title="The Fellowship of the Ring",
    seats=(
        SeatDef("balrog", "shadow", BALROG, 7, 2, 4),
        SeatDef("gandalf", "free", GANDALF, 7, 2, 3),
    ),
    order=("balrog", "gandalf"),
    last_path=6,
    paths=(
        "bucklebury-ferry",
        "gildors-encampment",
        "inn-of-the-prancing-pony",
        "the-old-forest",
        "fords-of-bruinen",
        "imladris",
        "caradhras",
        "khazad-dum",
        "the-doors-of-durin",
        "egladil",
        "dimrill-dale",
        "lothlorien",
        "amon-hen",
    ),
    schedule=(
        ("minas-morgul",),
        ("rivendell",),
        ("moria",),
        ("lorien", "dol-guldur"),
        ("orthanc",),
        ("morannon",),
    ),
)

SCENARIOS[FELLOWSHIP.key] = FELLOWSHIP
