"""The web table's values of the answers (AnalyzeDecision through the Connect handler), in a real
headless Chromium: the seat deciding asks for them and sees a bar beside each option, the
referee from the seat's knowledge or with the true cards, the spectator has no button; the
page appends nothing to the game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from service.app import store_env
from service.commands import GameService
from service.rpc.server import ThreadedServer
from tests.rpc_support import threaded_server
from tests.test_analysis import LETHAL, position
from tests.test_web import browser, open_table, page_errors, text_of

__all__ = ["browser"]  # the module's Chromium (a fixture of tests/test_web.py)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ThreadedServer, str, dict[str, str]]]:
    folder: Path = tmp_path_factory.mktemp("web-analysis")
    with threaded_server(store_env(db=str(folder / "games.db")), web_port=0) as server:
        run, _ = position(LETHAL)
        server.app.store(run.game)
        access = GameService(server.app).issue_tokens(run.game.id)
        keys = dict(access.seats)
        keys["spectator"], keys["referee"] = access.spectator, access.referee
        yield server, str(run.game.id), keys


SEARCH_WAIT = 90.0
"""Seconds to wait for the values: the first analysis starts the search's process, then
searches 2 s of CPU, which a loaded machine can stretch."""


def values(browser: WebDriver) -> list[str]:
    WebDriverWait(browser, SEARCH_WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".value-list li"), "no values shown"
    )
    return [li.text for li in browser.find_elements(By.CSS_SELECTOR, ".value-list li")]


def test_the_seat_deciding_sees_a_bar_beside_each_option(
    served: tuple[ThreadedServer, str, dict[str, str]], browser: WebDriver
) -> None:
    server, game, keys = served
    before = server.app.version(UUID(game))
    open_table(browser, server, keys["p1"])
    asks = browser.find_elements(By.CSS_SELECTOR, "#decision button.value-ask")
    assert [b.text for b in asks] == ["Value the answers"]
    asks[0].click()
    shown = values(browser)
    assert re.match(r"100% \[\d+% – 100%\] \w+ \(p1\) \+ \w+ \(p1\)", shown[0]), shown
    assert any(line.startswith("0%") and line.endswith("Aragorn (p1)") for line in shown), shown
    assert "chance p1's side wins after each answer, from what p1 knows" in text_of(browser, ".value-note")
    # beside each option (a choice of attackers: each hero alone is an answer valued too)
    for name in ("Aragorn", "Gimli", "Legolas"):
        option = browser.find_element(By.XPATH, f"//*[@id='decision']//label[contains(., '{name} (p1)')]")
        assert option.find_elements(By.CSS_SELECTOR, ".value-bar"), name
    widths = browser.execute_script(
        "return [...document.querySelectorAll('.value-list .value-bar > span')].map((e) => e.style.width)"
    )
    assert widths[0] == "100%" and "0%" in widths
    # the decision drawn again (a new view from the stream) keeps its values and bars
    bars = "return [...document.querySelectorAll('#decision label .value-bar')].length"
    beside = browser.execute_script(bars)
    assert beside == 3, beside
    browser.execute_script("renderDecision()")
    assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, ".value-list li")] == shown
    assert browser.execute_script(bars) == beside
    assert not page_errors(browser)
    assert server.app.version(UUID(game)) == before


def test_the_referee_values_from_the_seats_knowledge_or_the_true_cards(
    served: tuple[ThreadedServer, str, dict[str, str]], browser: WebDriver
) -> None:
    server, _, keys = served
    open_table(browser, server, keys["referee"])
    # read in the page at once: the decision may be drawn again (the stream's first view)
    # between finding its buttons and reading them
    texts = "return [...document.querySelectorAll('#decision button.value-ask')].map((b) => b.innerText)"
    want = ["Value the answers (what p1 knows)", "Value with the true cards"]
    WebDriverWait(browser, 10).until(lambda d: d.execute_script(texts) == want, f"no {want}")
    # the decision drawn again while the search runs (the stream's first view can come then):
    # its answer still shows
    browser.execute_script("document.querySelectorAll('#decision button.value-ask')[1].click(); renderDecision()")
    assert values(browser)[0].startswith("100%")
    assert "with the true hidden cards" in text_of(browser, ".value-note")
    assert not page_errors(browser)


def test_the_spectator_has_no_values_to_ask_for(
    served: tuple[ThreadedServer, str, dict[str, str]], browser: WebDriver
) -> None:
    server, _, keys = served
    open_table(browser, server, keys["spectator"])
    assert not browser.find_elements(By.CSS_SELECTOR, "button.value-ask")
