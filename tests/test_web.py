"""The web table (``serve --web-port``) in a real headless Chromium, and its Connect protocol.

One server (with its web handler) and one browser serve the whole module. Each browser test
plays through the page as a person would (click an option, drag the timeline, click an event,
fork), then checks every message the web handler sent during the test against the leak tests'
oracle (``tests/leak_support.py``): the page received no card hidden from its token's viewer.

The browser is the system's Chromium (Debian ``chromium`` and ``chromium-driver``, installed by
``.ci/run``), driven by Selenium through chromedriver's path (so Selenium Manager never runs and
nothing is downloaded).
"""

from __future__ import annotations

import asyncio
import http.client
import io
import json
import logging
import random
import re
import sqlite3
import ssl
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from google.protobuf.message import Message
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from bots import random_choice
from domain.kernel.decisions import Kind
from domain.lcg.state import LcgState
from service.app import store_env
from service.commands import GameService
from service.rpc import convert
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer, configure_logging
from service.web.http import WebOptions, WebServer
from tests.leak_support import Oracle, Secrets
from tests.rpc_support import ServeProcess, create, self_signed, stub_for, threaded_server, tokens
from tests.test_rpc_leaks import SECRETS as LCG_SECRETS
from tests.test_wotr_leaks import SECRETS as WOTR_SECRETS
from tools.fixtures import Run, load

FIXTURES = Path(__file__).parent / "fixtures"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 20.0


@dataclass
class Sent:
    """Every message the web handler sent (method, request, response), in order."""

    messages: list[tuple[str, Any, Message]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, method: str, request: Any, response: Message) -> None:
        with self.lock:
            self.messages.append((method, request, response))

    def since(self, mark: int) -> list[tuple[str, Any, Message]]:
        with self.lock:
            return list(self.messages[mark:])

    def mark(self) -> int:
        with self.lock:
            return len(self.messages)


@pytest.fixture(scope="module")
def sent() -> Sent:
    return Sent()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, sent: Sent) -> Iterator[ThreadedServer]:
    folder: Path = tmp_path_factory.mktemp("web")
    with threaded_server(store_env(db=str(folder / "games.db")), web_port=0) as running:
        running.web.on_sent = sent
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def page(server: ThreadedServer, token: str) -> str:
    return f"http://127.0.0.1:{server.web.port}/#token={token}"


def until(browser: WebDriver, what: Any, message: str) -> Any:
    def attempt(driver: WebDriver) -> Any:
        try:
            return what(driver)
        except StaleElementReferenceException:
            return False

    return WebDriverWait(browser, WAIT).until(attempt, message)


def text_of(browser: WebDriver, css: str) -> str:
    return " ".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, css))


def shown_version(browser: WebDriver) -> int:
    text = browser.find_element(By.ID, "version").text  # "version 12"
    return int(text.split()[-1]) if text else 0


def open_table(browser: WebDriver, server: ThreadedServer, token: str) -> None:
    browser.get("about:blank")  # a new page: nothing left of the last one
    page_errors(browser)
    browser.get(page(server, token))
    until(browser, lambda d: shown_version(d) > 0 and d.find_elements(By.CSS_SELECTOR, "#events li"), "no table")
    # the page draws the table from GetView, then again from the stream's first update and the
    # room's (its names): an element found before those is replaced under the test
    until(browser, lambda d: d.execute_script(SETTLED), "the stream's first update was not drawn")


SETTLED = "return S.streamed && (!R.watching || S.room !== null)"
"""Whether the page has drawn the stream's first update and, when it watches the room, the room's."""


def page_errors(browser: WebDriver) -> list[str]:
    """What the page logged as errors since last asked (script errors, failed requests)."""
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def check_nothing_hidden(
    server: ThreadedServer, access: pb.GameAccess, secrets: Secrets, messages: list[tuple[str, Any, Message]]
) -> int:
    """Every view and event the web handler sent for this game, checked against the oracle;
    returns how many were checked."""
    keys = tokens(access)
    viewer_of = {token: viewer for viewer, token in keys.items()}
    viewers = [v for v in keys if v != "referee"]
    oracle = Oracle(secrets, server.app.history(UUID(access.game_id)), viewers)
    checked = 0
    for method, request, response in messages:
        viewer = viewer_of.get(request.token)
        if viewer is None or viewer == "referee":
            continue
        where = f"the page of {viewer} ({method})"
        views: list[pb.View] = []
        events: list[pb.Event] = []
        if isinstance(response, pb.GetViewResponse | pb.SubmitDecisionResponse) and response.HasField("view"):
            views.append(response.view)
        if isinstance(response, pb.WatchResponse):
            views.append(response.view)
        if isinstance(response, pb.WatchResponse | pb.SubmitDecisionResponse | pb.GetHistoryResponse):
            events += response.events
        for view in views:
            assert view.viewer == viewer, where
            oracle.check_view(viewer, view.version, view.table, where)
            if view.HasField("decision"):
                assert view.decision.seat == viewer, f"{where}: another seat's decision"
        for event in events:
            oracle.check_event(viewer, event, where)
        if isinstance(response, pb.ExplainEventResponse):
            checked += _check_because(oracle, viewer, response.because, where)
        checked += len(views) + len(events)
    return checked


def _check_because(oracle: Oracle, viewer: str, because: pb.Because, where: str) -> int:
    """An explanation names a card (the card whose text caused the event) only where the
    viewer could see it."""
    if because.card and (oracle.over_at is None or because.seq < oracle.over_at):
        uid = oracle.events[because.seq - 1].cause.card
        assert uid is not None, f"{where}: the explanation of event {because.seq} names a card its cause does not"
        hidden = oracle.hidden[because.seq - 1][viewer] & oracle.hidden[because.seq][viewer]
        assert uid not in hidden, f"{where}: the explanation of event {because.seq} names hidden card {uid}"
    return 1 + sum(_check_because(oracle, viewer, b, where) for b in because.led_by)


# -- a seat at the table ------------------------------------------------------------------------


def test_a_seat_plays_a_decision_and_sees_the_table_move(
    server: ThreadedServer, browser: WebDriver, sent: Sent
) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=2, seed=31)
        keys = tokens(access)
        mark = sent.mark()
        open_table(browser, server, keys["p1"])

        # the table: p1's heroes and hand as card frames with their text; p2's hand is a count
        mine = browser.find_element(By.CSS_SELECTOR, '.player[data-seat="p1"]')
        aragorn = mine.find_element(By.CSS_SELECTOR, '.card[data-name="Aragorn"]')
        assert "Response: after Aragorn commits to a quest" in aragorn.text
        assert "will" in aragorn.text and "hp" in aragorn.text
        hand = mine.find_element(By.CSS_SELECTOR, '[data-zone="Hand"]')
        assert len(hand.find_elements(By.CSS_SELECTOR, ".card")) == 6
        theirs = browser.find_element(By.CSS_SELECTOR, '.player[data-seat="p2"]')
        assert not theirs.find_elements(By.CSS_SELECTOR, '[data-zone="Hand"]')
        assert "6 cards in hand (face down)" in theirs.text
        assert "encounter deck (face down)" in text_of(browser, ".shared")

        # the pending decision, with its options; p1 keeps its hand
        assert "Keep your setup hand" in browser.find_element(By.ID, "decision").text
        before = shown_version(browser)
        browser.find_element(By.CSS_SELECTOR, '#decision button[data-option="keep"]').click()
        until(browser, lambda d: shown_version(d) > before, "the table did not move on after the answer")
        answered = f'#events li[data-seq="{before + 1}"][data-type="DecisionAnswered"]'
        until(browser, lambda d: "Keep this hand" in text_of(d, answered), "no answer in the timeline")
        assert "Waiting for p2" in browser.find_element(By.ID, "decision").text

        # another seat plays elsewhere: the page follows live (Watch), without reloading
        p2 = stub.GetView(pb.GetViewRequest(token=keys["p2"])).view
        decision = decision_from_pb(p2.decision)
        answer = pb.SubmitDecisionRequest(
            token=keys["p2"], decision_id=decision.id, choice=["mulligan"], command_id="web-1"
        )
        after = stub.SubmitDecision(answer).version
        until(browser, lambda d: shown_version(d) == after, "the page did not follow p2's move")
        assert "p2" in text_of(browser, f'#events li[data-seq="{decision.id + 1}"][data-type="DecisionAnswered"]')
        latest = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
        if latest.waiting_for == "p1":  # p1's turn again: the page offers its options
            until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#decision button.option"), "no options")
        else:
            waiting = f"Waiting for {latest.waiting_for}"
            until(browser, lambda d: waiting in d.find_element(By.ID, "decision").text, "not waiting")
        assert browser.find_element(By.ID, "live").text == "live"

        # a seat looks back too: its own draw explained, and the table as it saw it then
        drawn = browser.find_elements(By.CSS_SELECTOR, '#events li[data-type="CardsDrawn"]')[0]  # p1's hand
        seq = int(drawn.get_attribute("data-seq") or 0)
        drawn.click()
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#explain-tree li[data-seq="{seq}"]'), "no why")
        until(browser, lambda d: f"The table at version {seq} of" in d.find_element(By.ID, "past").text, "no past")
        hand = '[data-seat="p1"] [data-zone="Hand"] .card'
        until(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, hand)) == 6, "not p1's hand at the draw")
        assert not browser.find_element(By.ID, "fork").is_displayed()

    assert not page_errors(browser)
    checked = check_nothing_hidden(server, access, LCG_SECRETS, sent.since(mark))
    assert checked > 10


def test_a_seat_chooses_several_options(server: ThreadedServer, browser: WebDriver, sent: Sent) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=35)
        keys = tokens(access)
        rng = random.Random(35)
        for n in range(200):  # on to a decision of several options (committing characters to the quest)
            decision = decision_from_pb(stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.decision)
            if decision.kind is Kind.MANY and decision.max >= 1:
                break
            answer = list(random_choice(decision, rng))
            stub.SubmitDecision(
                pb.SubmitDecisionRequest(token=keys["p1"], decision_id=decision.id, choice=answer, command_id=f"m{n}")
            )
        assert decision.kind is Kind.MANY
        mark = sent.mark()
        open_table(browser, server, keys["p1"])
        boxes = browser.find_elements(By.CSS_SELECTOR, "#decision label.option input[type=checkbox]")
        assert len(boxes) == len(decision.options)
        boxes[0].click()
        before = shown_version(browser)
        browser.find_element(By.CSS_SELECTOR, "#decision button.confirm").click()
        until(browser, lambda d: shown_version(d) > before, "the choice of several was not taken")
        answered = stub.GetHistory(pb.GetHistoryRequest(token=keys["referee"], after_version=before)).events[0]
        assert answered.type == "DecisionAnswered"
        assert json.loads(answered.body)["choice"] == [decision.options[0].id]

    assert not page_errors(browser)
    assert check_nothing_hidden(server, access, LCG_SECRETS, sent.since(mark)) > 3


def test_a_seat_puts_cards_in_order(server: ThreadedServer, browser: WebDriver, sent: Sent) -> None:
    """Gandalf's Search: the cards looked at go back on the deck in the order the page is given."""
    fixture = FIXTURES / "lcg" / "cards" / "events" / "gandalfs-search-look-take-one-order-the-rest.toml"
    run = Run(load(fixture))
    game = run.game
    for wanted in (["Gandalf's Search"], ["3"], ["Beorn"]):  # play it, X = 3, Beorn to the hand
        decision = game.state.pending
        assert decision is not None
        game.answer(decision.seat, decision.id, run.choice(decision, wanted))
    assert game.state.pending is not None and game.state.pending.kind is Kind.ORDER
    server.app.commit(game, 0)
    access = convert.access_pb(GameService(server.app).issue_tokens(game.id))
    keys = tokens(access)
    mark = sent.mark()
    open_table(browser, server, keys["p1"])
    for name in ("Guard of the Citadel", "Faramir"):
        browser.find_element(By.XPATH, f'//*[@id="decision"]//button[normalize-space()="{name}"]').click()
    assert browser.find_element(By.CSS_SELECTOR, "#decision ol.order").text.splitlines() == [
        "Guard of the Citadel",
        "Faramir",
    ]
    before = shown_version(browser)
    browser.find_element(By.CSS_SELECTOR, "#decision button.confirm").click()
    until(browser, lambda d: shown_version(d) > before, "the order was not taken")
    channel, stub = stub_for(server.address)
    with channel:
        table = json.loads(stub.GetView(pb.GetViewRequest(token=keys["referee"])).view.table)
    deck = [c["name"] for c in table["players"][0]["deck"]]
    assert deck[:3] == ["Guard of the Citadel", "Faramir", "Snowbourn Scout"]
    assert not page_errors(browser)
    assert check_nothing_hidden(server, access, LCG_SECRETS, sent.since(mark)) > 3


SLOW_ANSWERS = """
const fetched = window.fetch;
window.fetch = async (...call) => {
  const response = await fetched(...call);
  if (String(call[0]).endsWith("/SubmitDecision")) await new Promise((done) => setTimeout(done, 3000));
  return response;
};
"""
"""The replies to SubmitDecision held back in the page for three seconds (a slow network's),
while the Watch stream still brings the table as it moves."""


def test_the_next_decision_is_answered_before_the_last_answers_reply_comes(
    server: ThreadedServer, browser: WebDriver, sent: Sent
) -> None:
    """The stream shows the seat its next decision before the reply to its last answer arrives:
    a click on the new decision is sent at once, not lost while the old answer is on its way,
    and the old reply, when it comes, leaves the newer table shown."""
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=36)
        keys = tokens(access)
        mark = sent.mark()
        open_table(browser, server, keys["p1"])
        browser.execute_script(SLOW_ANSWERS)
        first = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.decision
        browser.find_element(By.CSS_SELECTOR, "#decision button.option").click()
        until(browser, lambda d: shown_version(d) > first.id, "the stream did not bring the table on")
        second = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view
        assert second.decision.seat == "p1" and second.decision.kind == pb.KIND_ONE  # p1 decides again
        until(browser, lambda d: d.execute_script(SHOWN_ENABLED), "the next decision is not offered")
        browser.find_element(By.CSS_SELECTOR, "#decision button.option").click()
        until(
            browser,
            lambda d: stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.version > second.version,
            "the click on the next decision was lost",
        )
        answered = stub.GetHistory(pb.GetHistoryRequest(token=keys["referee"], after_version=second.version)).events
        assert json.loads(answered[0].body)["decision"] == second.decision.id
        latest = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.version
        until(browser, lambda d: shown_version(d) == latest, "the page did not follow the second answer")
        browser.execute_script("return new Promise((done) => setTimeout(done, 3500))")  # both replies in
        assert shown_version(browser) == latest  # the late replies did not take the table back

    assert not page_errors(browser)
    assert check_nothing_hidden(server, access, LCG_SECRETS, sent.since(mark)) > 3


def test_an_answer_to_a_game_ended_meanwhile_shows_the_end(server: ThreadedServer, browser: WebDriver) -> None:
    """The page stopped following the game (its stream cut), which another client then played
    to its end: the seat's answer to the question it still shows is refused (no decision is
    pending), and the page reads the table anew rather than offering that question again."""
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=38)
        keys = tokens(access)
        open_table(browser, server, keys["p1"])
        browser.execute_script("S.watching.abort(); S.watching = null;")  # the stream cut, not resumed
        rng = random.Random(38)
        for n in range(3000):  # another client plays the game to its end
            view = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
            if view.over:
                break
            decision = decision_from_pb(view.decision)
            choice = list(random_choice(decision, rng))
            seat_token = keys[decision.seat]
            request = pb.SubmitDecisionRequest(
                token=seat_token, decision_id=decision.id, choice=choice, command_id=f"o{n}"
            )
            stub.SubmitDecision(request)
        assert view.over
    browser.find_element(By.CSS_SELECTOR, "#decision button.option").click()
    until(browser, lambda d: "Game over" in d.find_element(By.ID, "table").text, "the end is not shown")
    assert not browser.find_elements(By.CSS_SELECTOR, "#decision button.option")
    assert "game is over" in browser.find_element(By.ID, "error").text


SHOWN_ENABLED = """
const buttons = document.querySelectorAll("#decision button.option");
return buttons.length > 0 && [...buttons].every((b) => !b.disabled);
"""
"""Whether the page offers a decision whose options can be clicked."""


# -- the referee's desk -------------------------------------------------------------------------


def test_the_referee_replays_explains_and_forks(server: ThreadedServer, browser: WebDriver, sent: Sent) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=2, seed=32)
        keys = tokens(access)
        for n in range(6):  # a few decisions, so the timeline has a story
            referee = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
            seat = referee.waiting_for
            decision = decision_from_pb(stub.GetView(pb.GetViewRequest(token=keys[seat])).view.decision)
            stub.SubmitDecision(
                pb.SubmitDecisionRequest(
                    token=keys[seat], decision_id=decision.id, choice=[decision.options[0].id], command_id=f"r{n}"
                )
            )
        latest = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view.version
        mark = sent.mark()
        open_table(browser, server, keys["spectator"])  # the public table: no hand, no options
        assert not browser.find_elements(By.CSS_SELECTOR, '[data-zone="Hand"]')
        assert not browser.find_elements(By.CSS_SELECTOR, "#decision .option")
        assert "Waiting for" in browser.find_element(By.ID, "decision").text
        open_table(browser, server, keys["p2"])
        assert not browser.find_element(By.ID, "fork").is_displayed(), "a seat is offered to fork a game in progress"

        open_table(browser, server, keys["referee"])
        assert browser.find_element(By.ID, "slider-value").text == f"{latest} / {latest}"
        # the referee sees every hand
        assert browser.find_elements(By.CSS_SELECTOR, '.player[data-seat="p2"] [data-zone="Hand"] .card')

        # the slider: back to the start, then a step on; the table is the one of that version
        slider = browser.find_element(By.ID, "slider")
        slider.click()
        slider.send_keys(Keys.HOME)
        until(browser, lambda d: "The table at version 1 of" in d.find_element(By.ID, "past").text, "no past")
        until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-zone="Heroes"] .card'), "not version 1")
        slider.send_keys(Keys.ARROW_RIGHT)  # event 2 brings the heroes to the table
        until(browser, lambda d: "The table at version 2 of" in d.find_element(By.ID, "past").text, "not at 2")
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-zone="Heroes"] .card'), "no heroes at 2")
        assert not browser.find_elements(By.CSS_SELECTOR, "#decision button.option")  # no deciding in the past
        slider.send_keys(Keys.END)
        until(browser, lambda d: d.find_element(By.ID, "past").get_attribute("hidden") is not None, "not back")
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-zone="Heroes"] .card'), "no heroes now")

        # an event's cause chain: the hand drawn at setup, back to the rule that dealt it
        drawn = browser.find_elements(By.CSS_SELECTOR, '#events li[data-type="CardsDrawn"]')[1]  # p2's hand
        seq = int(drawn.get_attribute("data-seq") or 0)
        drawn.click()
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#explain-tree li[data-seq="{seq}"]'), "no why")
        tree = browser.find_element(By.ID, "explain-tree").text
        assert f"event {seq}" in tree and "lcg." in tree
        assert f"The table at version {seq} of" in browser.find_element(By.ID, "past").text
        # a numeric step shows its arithmetic and the rulebook section, as ExplainEvent gives them
        threat = browser.find_elements(By.CSS_SELECTOR, '#events li[data-type="ThreatSet"]')[0]
        at = int(threat.get_attribute("data-seq") or 0)
        threat.click()
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#explain-tree li[data-seq="{at}"]'), "no why")
        tree = browser.find_element(By.ID, "explain-tree").text
        assert re.search(r"p1's starting threat (\d+) = .+ \(the heroes' threat costs\)", tree), tree
        assert "(Core Set rulebook, Setup)" in tree

        # the chain verified, in one click
        browser.find_element(By.ID, "verify").click()
        until(browser, lambda d: "hash chain intact" in d.find_element(By.ID, "verdict").text, "no verdict")

        # fork there: the new game's tokens open a game with the first `seq` events
        browser.find_element(By.ID, "fork").click()
        link = until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#forked a[data-viewer="referee"]'), "no fork")
        token = (link[0].get_attribute("href") or "").split("#token=", 1)[1]
        forked = stub.GetView(pb.GetViewRequest(token=token)).view
        assert forked.game_id != access.game_id and forked.version >= seq
        kept = stub.GetHistory(pb.GetHistoryRequest(token=token, to_version=seq)).events
        original = stub.GetHistory(pb.GetHistoryRequest(token=keys["referee"], to_version=seq)).events
        assert [e.hash for e in kept] == [e.hash for e in original]

    assert not page_errors(browser)
    checked = check_nothing_hidden(server, access, LCG_SECRETS, sent.since(mark))
    assert checked > 10  # the spectator's page and p2's


def test_a_broken_chain_is_shown_with_its_first_bad_event(server: ThreadedServer, browser: WebDriver) -> None:
    """A game whose stored event 5 was edited is not served (DATA_LOSS, issue 22): the page says
    it is damaged and where, stops retrying, and Verify names the first bad event."""
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=37)
    game = access.game_id.replace("-", "")
    with sqlite3.connect(server.app.env["SQLITE_DBNAME"]) as db:  # someone edits event 5 in the store
        (state,) = db.execute(
            "SELECT state FROM stored_events WHERE originator_id=? AND originator_version=5", (game,)
        ).fetchone()
        text = bytes(state).decode()
        at = text.index('"hash":"') + len('"hash":"')
        edited = text[:at] + ("0" if text[at] != "0" else "1") + text[at + 1 :]
        db.execute(
            "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=5", (edited.encode(), game)
        )
    db.close()
    browser.get("about:blank")
    page_errors(browser)
    browser.get(page(server, tokens(access)["p1"]))
    # the server streams no damaged log: the page says so, naming the game's damage, and stops
    until(browser, lambda d: d.find_element(By.ID, "live").text == "damaged", "not marked damaged")
    assert "is damaged at version 5" in browser.find_element(By.ID, "error").text
    # and without a click: a banner over the page, its game's chain checked as it opened
    until(browser, lambda d: "does not verify: FAILED at event 5" in d.find_element(By.ID, "chain").text, "no banner")
    page_errors(browser)  # the refused GetView, logged by the browser as a failed request
    browser.find_element(By.ID, "verify").click()
    until(browser, lambda d: d.find_element(By.ID, "verdict").text.startswith("FAILED"), "no verdict")
    assert "FAILED at event 5: the hash chain is broken" in browser.find_element(By.ID, "verdict").text
    assert not page_errors(browser)


def test_a_contract_is_shown_beside_its_players_heroes(server: ThreadedServer, browser: WebDriver) -> None:
    """A Perilous Voyage, chosen in CreateGame, is on the table beside p2's heroes, with its
    side A text; p1, who chose none, has no contract zone."""
    from tests.test_hunt_for_the_dreadnaught import _hundred_card_deck

    channel, stub = stub_for(server.address)
    with channel:
        players = [pb.PlayerSetup(), pb.PlayerSetup(deck=_hundred_card_deck(), contract="A Perilous Voyage")]
        request = pb.CreateGameRequest(game="lcg", scenario="hunt-for-the-dreadnaught", players=players, seed=5)
        access = stub.CreateGame(request).access
    open_table(browser, server, tokens(access)["p1"])
    theirs = browser.find_element(By.CSS_SELECTOR, '.player[data-seat="p2"] [data-zone="Contract"]')
    voyage = theirs.find_element(By.CSS_SELECTOR, '.card[data-name="A Perilous Voyage"]')
    assert "Your threat cannot be reduced by player card effects" in voyage.text
    assert not browser.find_elements(By.CSS_SELECTOR, '.player[data-seat="p1"] [data-zone="Contract"]')


def test_an_epic_groups_dreadnaught_shows_its_global_hit_points_and_the_other_groups_damage(
    server: ThreadedServer, browser: WebDriver
) -> None:
    """The card as a group of a six-player epic event is sent it (the projection's own view of
    a fixture position) drawn by the page: its global 90 hit points, the other group's 40
    damage beside this group's 4, and the 46 left among all groups (rulebook, Global Values)."""
    import msgspec

    from projections.lcg import view
    from tools.fixtures import Run, load

    hunt = Path(__file__).parent / "fixtures" / "lcg" / "hunt-for-the-dreadnaught" / "cards"
    run = Run(load(hunt / "dreadnaught-in-an-epic-event-shows-its-global-hit-points-and-the-other-groups-damage.toml"))
    state = run.game.state
    assert isinstance(state, LcgState)
    card = msgspec.to_builtins(view(state, "p1").staging[0])
    browser.get(f"http://127.0.0.1:{server.web.port}/")
    drawn = browser.execute_script("return lcgCard(arguments[0]).textContent", card)
    assert "90 hp" in drawn and "4 damage" in drawn and "40 damage by the other groups" in drawn, drawn
    assert "46 hp left" in drawn, drawn


def test_the_timeline_tells_a_run_of_the_same_line_once(server: ThreadedServer, browser: WebDriver) -> None:
    """The Corsair deck is built card by card, an event each; the timeline shows the run as one
    line, in the words the server sends with each event of it (Event.run_text)."""
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=5, scenario="hunt-for-the-dreadnaught")
        keys = tokens(access)
        decision = decision_from_pb(stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.decision)
        request = pb.SubmitDecisionRequest(token=keys["p1"], decision_id=decision.id, choice=["keep"], command_id="k")
        stub.SubmitDecision(request)
        events = list(stub.GetHistory(pb.GetHistoryRequest(token=keys["p1"])).events)
    told = [e for e in events if e.run_text == "13 cards are put at the bottom of the Corsair deck"]
    assert len(told) == 1
    last = told[0].seq
    first = next(e.seq for e in events if e.seq < last and "Corsair deck" in e.text and not e.run_text)
    assert last - first == 12
    open_table(browser, server, keys["p1"])
    line = until(
        browser,
        lambda d: [li for li in d.find_elements(By.CSS_SELECTOR, "#events li") if "Corsair deck" in li.text],
        "no Corsair deck line",
    )[0]
    assert line.text == f"{first}–{last} 13 cards are put at the bottom of the Corsair deck"
    assert "is put at the bottom of the Corsair deck" not in text_of(browser, "#events li")
    line.click()  # the run's line stands for its last event: the table after it, and its cause
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#explain-tree li[data-seq="{last}"]'), "no why")
    assert not page_errors(browser)


# -- War of the Ring --------------------------------------------------------------------------


def test_a_war_of_the_ring_table(server: ThreadedServer, browser: WebDriver, sent: Sent) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = stub.CreateGame(pb.CreateGameRequest(game="wotr", scenario="trilogy", seed=33)).access
        keys = tokens(access)
        rng = random.Random(33)
        for n in range(300):  # on to the first action step: a path and battlegrounds on the table
            referee = stub.GetView(pb.GetViewRequest(token=keys["referee"])).view
            if json.loads(referee.table)["step"] == "action":
                break
            decision = decision_from_pb(referee.decision)
            choice = list(random_choice(decision, rng))
            answer = pb.SubmitDecisionRequest(
                token=keys[decision.seat], decision_id=decision.id, choice=choice, command_id=f"w{n}"
            )
            stub.SubmitDecision(answer)
        seat = referee.waiting_for
        mark = sent.mark()
        open_table(browser, server, keys[seat])
        assert browser.find_elements(By.CSS_SELECTOR, ".location"), "no path or battleground drawn"
        assert "FREE PEOPLES: 0 VP" in text_of(browser, ".teams").upper()
        mine = browser.find_element(By.CSS_SELECTOR, f'.player[data-seat="{seat}"]')
        cards = mine.find_elements(By.CSS_SELECTOR, '[data-zone="Hand"] .card')
        assert cards and all(c.find_element(By.CSS_SELECTOR, ".name").text for c in cards)
        others = [p for p in access.seats if p.seat != seat]
        for other in others:
            section = browser.find_element(By.CSS_SELECTOR, f'.player[data-seat="{other.seat}"]')
            assert not section.find_elements(By.CSS_SELECTOR, '[data-zone="Hand"]')
        before = shown_version(browser)
        browser.find_elements(By.CSS_SELECTOR, "#decision button.option, #decision button.confirm")[0].click()
        until(browser, lambda d: shown_version(d) > before, "the War of the Ring table did not move on")

    assert not page_errors(browser)
    checked = check_nothing_hidden(server, access, WOTR_SECRETS, sent.since(mark))
    assert checked > 5


# -- the Connect protocol, without a browser ------------------------------------------------------


def _post(server: ThreadedServer, method: str, body: bytes, kind: str) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.web.port, timeout=10)
    try:
        connection.request("POST", f"/westmarch.v1.GameService/{method}", body, {"content-type": kind})
        response = connection.getresponse()
        return response.status, response.getheader("content-type") or "", response.read()
    finally:
        connection.close()


def _envelopes(data: bytes) -> list[tuple[int, bytes]]:
    out = []
    while data:
        flags, length = struct.unpack_from(">BI", data)
        out.append((flags, data[5 : 5 + length]))
        data = data[5 + length :]
    return out


def _first_of_watch(server: ThreadedServer, request: bytes, kind: str) -> tuple[int, bytes]:
    """The first envelope of a Watch; then the client goes away (the server ends the call)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.web.port, timeout=10)
    try:
        body = struct.pack(">BI", 0, len(request)) + request
        connection.request("POST", "/westmarch.v1.GameService/Watch", body, {"content-type": kind})
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("content-type") == kind
        flags, length = struct.unpack(">BI", response.read(5))
        return flags, response.read(length)
    finally:
        connection.close()


def test_the_connect_protocol(server: ThreadedServer) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=34)
    keys = tokens(access)

    # unary, JSON and binary: the same view as over gRPC
    status, kind, body = _post(server, "GetView", json.dumps({"token": keys["p1"]}).encode(), "application/json")
    assert status == 200 and kind == "application/json"
    assert json.loads(body)["view"]["viewer"] == "p1"
    request = pb.GetViewRequest(token=keys["spectator"]).SerializeToString()
    status, kind, body = _post(server, "GetView", request, "application/proto")
    assert status == 200 and kind == "application/proto"
    assert pb.GetViewResponse.FromString(body).view.viewer == "spectator"

    # errors: the status code's Connect name and HTTP status, with the service's message
    errors = [
        ("GetView", {"token": "nope"}, 400, "invalid_argument"),
        ("GetView", {"token": keys["p1"][:-4] + "AAAA"}, 401, "unauthenticated"),
        ("GetView", {"token": keys["p1"], "version": "999"}, 400, "out_of_range"),
        ("ForkGame", {"token": keys["p1"], "at": "3"}, 403, "permission_denied"),
        ("GetView", {"token": keys["p1"], "colour": "red"}, 400, "invalid_argument"),
        ("Nothing", {}, 501, "unimplemented"),
    ]
    for method, message, http_status, code in errors:
        status, _, body = _post(server, method, json.dumps(message).encode(), "application/json")
        assert (status, json.loads(body)["code"]) == (http_status, code), (method, message, body)
    status, _, body = _post(server, "GetView", b"\xff\x00", "application/proto")
    assert status == 400 and "malformed GetViewRequest" in json.loads(body)["message"]
    assert _post(server, "GetView", b"{}", "text/plain")[0] == 415

    # a stream: enveloped updates, then the end of the stream (with its error if it failed)
    payload = json.dumps({"token": keys["p1"], "fromVersion": "0"}).encode()
    flags, first = _first_of_watch(server, payload, "application/connect+json")
    update = json.loads(first)
    assert flags == 0 and update["view"]["viewer"] == "p1"
    assert [e["seq"] for e in update["events"]][:3] == ["1", "2", "3"]
    binary = pb.WatchRequest(token=keys["spectator"]).SerializeToString()
    flags, first = _first_of_watch(server, binary, "application/connect+proto")
    watched = pb.WatchResponse.FromString(first)
    assert flags == 0 and watched.view.viewer == "spectator" and watched.events[0].seq == 1

    bad = json.dumps({"token": keys["p1"], "fromVersion": "999"}).encode()
    status, kind, body = _post(server, "Watch", struct.pack(">BI", 0, len(bad)) + bad, "application/connect+json")
    assert status == 200 and kind == "application/connect+json"
    [(flags, end)] = _envelopes(body)
    assert flags == 2 and json.loads(end)["error"]["code"] == "out_of_range"

    # the page itself, from the package, with a policy that allows nothing from elsewhere
    connection = http.client.HTTPConnection("127.0.0.1", server.web.port, timeout=10)
    connection.request("GET", "/")
    response = connection.getresponse()
    assert response.status == 200 and b"/app.js" in response.read()
    assert "default-src 'none'" in (response.getheader("content-security-policy") or "")
    connection.request("GET", "/../pyproject.toml")
    response = connection.getresponse()
    assert response.status == 404
    response.read()
    connection.close()


@pytest.mark.parametrize("processes", [1, 2])
def test_serve_web_port_from_the_command_line(tmp_path: Path, processes: int) -> None:
    help_text = subprocess.run(
        [sys.executable, "-m", "tools.cli", "serve", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--web-port" in help_text
    arguments = ["--db", str(tmp_path / "games.db"), "--web-port", "0", "--processes", str(processes)]
    with ServeProcess(arguments) as served:
        assert served.proc.stdout is not None
        line = served.proc.stdout.readline()
        assert "the web page is at http://127.0.0.1:" in line, line
        port = int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/app.js")
        response = connection.getresponse()
        assert response.status == 200 and b"Connect protocol" in response.read()
        connection.close()
        assert served.terminate() == 0


def test_the_page_over_https(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    env = store_env(db=str(tmp_path / "games.db"))
    with threaded_server(env, tls_cert=str(cert), tls_key=str(key), web_port=0) as served:
        trusted = ssl.create_default_context(cafile=str(cert))
        connection = http.client.HTTPSConnection("127.0.0.1", served.web.port, timeout=10, context=trusted)
        connection.request("POST", "/westmarch.v1.GameService/ListGames", b"{}", {"content-type": "application/json"})
        response = connection.getresponse()
        assert response.status == 200 and json.loads(response.read()) == {}
        connection.request("GET", "/")
        assert connection.getresponse().status == 200
        connection.close()
        plain = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10)
        with pytest.raises((ConnectionError, http.client.HTTPException)):
            plain.request("GET", "/")
            plain.getresponse()
        plain.close()


def test_web_calls_are_logged_like_grpc_calls_without_their_tokens(server: ThreadedServer) -> None:
    stream = io.StringIO()
    configure_logging("info", stream)
    try:
        channel, stub = stub_for(server.address)
        with channel:
            access = create(stub, players=1, seed=36)
        token = tokens(access)["p1"]
        assert _post(server, "GetView", json.dumps({"token": token}).encode(), "application/json")[0] == 200
        _post(server, "GetView", json.dumps({"token": token, "version": "-1"}).encode(), "application/json")
        _post(server, "GetView", b"{not json", "application/json")
    finally:
        logging.getLogger("westmarch").handlers.clear()
    assert token not in stream.getvalue() and token.split(".", 1)[1] not in stream.getvalue()
    calls = [json.loads(line) for line in stream.getvalue().splitlines()]
    views = [c for c in calls if c.get("rpc") == "GetView"]
    assert [(c["outcome"], c.get("seat")) for c in views] == [
        ("OK", "p1"),
        ("INVALID_ARGUMENT", "p1"),
        ("INVALID_ARGUMENT", None),
    ]
    assert views[0]["game"] == access.game_id


def test_connections_over_the_limit_are_refused() -> None:
    async def main() -> None:
        web = WebServer({}, WebOptions(max_connections=2))
        try:
            port = await web.start()
            held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            answer = await asyncio.wait_for(reader.read(), 10)
            assert answer.startswith(b"HTTP/1.1 503 ") and answer.endswith(b"too many connections; try again later")
            writer.close()
            for _, kept in held:
                kept.write(f"GET /app.js HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n\r\n".encode())
            for got, _ in held:
                assert (await asyncio.wait_for(got.readline(), 10)).startswith(b"HTTP/1.1 200 ")
            for _, kept in held:
                kept.close()
        finally:
            await web.stop()

    asyncio.run(main())
