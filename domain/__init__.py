"""The rules of the games, as event-sourced rulesets over a shared kernel."""

from domain.build import install

install()
