"""Against the Shadow: the Shadow bots, played by the rules (seed 003).

- ``judgement``: who wins a combat now, "conceivably win", "usefully" (pure what-ifs);
- ``flowchart``: the bot's four-step flowchart for its turn in the action step;
- ``decisions``: every other decision a bot seat would be asked, answered by a bot rule;
- ``procedures``: the procedures a bot follows differently (forsake; draw until a Nazgûl).

A bot seat is never asked anything: the ruleset's ``played_by_rules`` hands each of its
decisions to :func:`decisions.answer`, which records the choice and its reason as a
``BotChose`` event (or hands a "choose" to the Free Peoples).
"""
