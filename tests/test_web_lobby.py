"""The online table from the lobby to the end, in real headless Chromiums: two people in two
browsers create, join and play whole games with bots, talk, take a decision back, and a
referee window replays, explains, verifies and exports them.

Each person is a browser of their own (their own storage: "my games" is what their browser
holds). Every message the web handler sent to a seat's or the spectator's page is checked
against the leak tests' oracle (``tests/leak_support.py``) for each game it was about (the
game and the branch a take-back made), the room's talk against who may read each channel,
and no page that asked with its token was sent another viewer's token. The server's log of
the whole play holds no token.

The people decide by clicking their page; what they click is chosen to reach the end soon
(the first option, the fewest choices), with auto-pass on, as a player in a hurry would.
"""

from __future__ import annotations

import io
import logging
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from google.protobuf.message import Message
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from bots import is_action_window, random_choice
from domain.kernel.decisions import Decision, Kind
from domain.kernel.events import Created, Reseeded
from domain.record import verify_record as verify_record_lines
from domain.rulesets import ruleset
from service.app import Westmarch, store_env
from service.commands import GameService
from service.rpc.auth import game_of_token
from service.rpc.convert import decision_from_pb
from service.rpc.gen.westmarch.v1 import room_pb2 as rpb
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer, configure_logging
from tests.leak_support import Oracle, Secrets
from tests.rpc_support import ServeProcess, stub_for, threaded_server
from tests.test_rpc_leaks import SECRETS as LCG_SECRETS
from tests.test_wotr_leaks import SECRETS as WOTR_SECRETS

NOTHING = Decision(0, "", Kind.ONE, "", "")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 30.0
DECKS = Path(__file__).parent / "decks"


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
def log() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    configure_logging("info", stream)
    try:
        yield stream
    finally:
        logging.getLogger("westmarch").handlers.clear()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, sent: Sent, log: io.StringIO) -> Iterator[ThreadedServer]:
    folder: Path = tmp_path_factory.mktemp("lobby")
    with threaded_server(store_env(db=str(folder / "games.db")), web_port=0) as running:
        running.web.on_sent = sent
        yield running


def chromium(width: int = 1400, height: int = 1000) -> WebDriver:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


@pytest.fixture(scope="module")
def alice() -> Iterator[WebDriver]:
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def desk() -> Iterator[WebDriver]:
    """The referee's window."""
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def bob() -> Iterator[WebDriver]:
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


# -- driving a page -----------------------------------------------------------------------------


def until(browser: WebDriver, what: Callable[[WebDriver], Any], message: str, wait: float = WAIT) -> Any:
    def attempt(driver: WebDriver) -> Any:
        try:
            return what(driver)
        except (StaleElementReferenceException, WebDriverException):
            return False

    return WebDriverWait(browser, wait, poll_frequency=0.05).until(attempt, message)


def press(browser: WebDriver, css: str, message: str) -> None:
    """Click what ``css`` finds once it is there and enabled (found again if the page drew it
    anew first). The page disables the buttons under a decision while its answer is sent,
    and draws them anew with the table that follows: the server may have taken the answer
    before the page drew that table, and a click on a disabled button does nothing."""

    def attempt(driver: WebDriver) -> bool:
        found = [e for e in driver.find_elements(By.CSS_SELECTOR, css) if e.is_enabled()]
        if not found:
            return False
        found[0].click()
        return True

    until(browser, attempt, message)


def page_errors(browser: WebDriver) -> list[str]:
    """What the page logged as errors since last asked (script errors, failed requests). A decision
    refused as stale (409: another seat or a bot moved the game first) is the service's optimistic
    concurrency at work, which the page answers by reading the table anew: not an error of the page."""
    return [
        e["message"]
        for e in browser.get_log("browser")
        if e["level"] == "SEVERE" and not ("/SubmitDecision" in e["message"] and "status of 409" in e["message"])
    ]


def lobby(browser: WebDriver, server: ThreadedServer, name: str) -> None:
    browser.get("about:blank")
    page_errors(browser)
    browser.get(f"http://127.0.0.1:{server.web.port}/")
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#new-game option"), "no lobby")
    field_ = browser.find_element(By.ID, "lobby-name")
    field_.clear()
    field_.send_keys(name)


def seat_setup(browser: WebDriver, seat: str, group: int = 1) -> WebElement:
    found: WebElement = browser.find_element(
        By.CSS_SELECTOR, f'#new-seats .seat-setup[data-group="{group}"][data-seat="{seat}"]'
    )
    return found


def choose(element: WebElement, value: str) -> None:
    Select(element).select_by_value(value)


def set_number(browser: WebDriver, element_id: str, value: int) -> None:
    """A number typed into a field and the field left (its change then redraws the form)."""
    element = browser.find_element(By.ID, element_id)
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", element, str(value)
    )


def create(browser: WebDriver) -> dict[str, str]:
    """Create the game set up in the form; the links it shows, by viewer (``1/p1``... in an epic event)."""
    browser.find_element(By.ID, "new-create").click()
    until(browser, lambda d: d.find_element(By.ID, "created").is_displayed(), "nothing was created")
    links: dict[str, str] = {}
    for a in browser.find_elements(By.CSS_SELECTOR, "#created a.token-link"):
        key = a.get_attribute("data-viewer") or ""
        prefix = (a.find_element(By.XPATH, "..").text.rsplit(":", 1)[0]).strip()
        links[prefix if prefix.startswith("group") else key] = a.get_attribute("href") or ""
    return links


def fragment(link: str) -> dict[str, str]:
    from urllib.parse import parse_qsl

    return dict(parse_qsl(link.split("#", 1)[1]))


def shown_version(browser: WebDriver) -> int:
    text = browser.find_element(By.ID, "version").text  # "version 12"
    return int(text.split()[-1]) if text else 0


def open_link(browser: WebDriver, link: str) -> None:
    browser.get("about:blank")
    browser.get(link)
    until(browser, lambda d: shown_version(d) > 0 and d.find_elements(By.CSS_SELECTOR, "#seats li"), "no table")


def set_auto_pass(browser: WebDriver) -> None:
    press(browser, '#auto-pass[aria-pressed="false"]', "no auto-pass")
    until(browser, lambda d: d.find_element(By.ID, "auto-pass").get_attribute("aria-pressed") == "true", "not on")


def say(browser: WebDriver, text: str, channel: str = "") -> None:
    if channel:
        choose(browser.find_element(By.ID, "talk-channel"), channel)
    field_ = browser.find_element(By.ID, "talk-text")
    field_.send_keys(text)
    browser.find_element(By.CSS_SELECTOR, "#talk-form button[type=submit]").click()
    until(browser, lambda d: text in d.find_element(By.ID, "talk-list").text, "the message is not shown")


def heard(browser: WebDriver, text: str) -> None:
    until(browser, lambda d: text in d.find_element(By.ID, "talk-list").text, f"{text!r} did not arrive")


# -- the game as the server holds it ------------------------------------------------------------


@dataclass
class Table:
    """One game being played: its referee's token, the game play goes on in, and the people's pages."""

    server: ThreadedServer
    referee: str
    game_id: str
    pages: dict[str, WebDriver]
    games: list[str] = field(default_factory=list)
    """Every game played here: the first, then each branch a take-back made."""
    clicks: int = 0

    def __post_init__(self) -> None:
        self.games.append(self.game_id)

    def view(self) -> Now:
        """The game as the server holds it now (read in its process, as a referee would see it,
        without the server making and sending a whole table at every look)."""
        state = self.server.servicer.service.state(UUID(self.game_id))
        pending = state.pending
        return Now(state.version, state.over is not None, pending.seat if pending else "", pending)

    def moved(self) -> str:
        """The game play goes on in now (follows take-backs)."""
        room = self.server.servicer.service.rooms.room(UUID(self.game_id))
        while room is not None and room.moved is not None:
            self.game_id = str(room.moved.branch)
            if self.game_id not in self.games:
                self.games.append(self.game_id)
            room = self.server.servicer.service.rooms.room(UUID(self.game_id))
        return self.game_id

    def step(self, view: Now | None = None) -> bool:
        """One person's decision made in their page, if one is pending in ``view`` (the game as
        the server holds it now, if not given); False once the game is over."""
        view = view if view is not None else self.view()
        if view.over:
            return False
        seat = view.waiting_for
        browser = self.pages.get(seat)
        if browser is None or (view.decision is not None and is_action_window(view.decision)):
            time.sleep(0.02)  # a bot's, or an action window the server passes for the seat
            return True
        if decide(browser, view, lambda: answered(view, self.view())):
            self.clicks += 1
            until(browser, lambda d: answered(view, self.view()), "the answer was not taken")
        return True

    def play_until(self, reached: Callable[[Now], bool], what: str) -> Now:
        """Play on until the game as the server holds it has ``reached`` ``what``; that look.
        Each step acts on the look it was judged by, not on a second one: the bot seats play on
        threads of their own, and a bot moving between two looks (its keep of the setup hand,
        under load) made Alice answer the very decision the test was waiting to find (she took
        a ship, then played the game on to its end, lost with "no ship")."""
        while not reached(now := self.view()):
            if not self.step(now):
                outcome = self.server.servicer.service.state(UUID(self.game_id)).over
                raise AssertionError(f"the game ended before {what}: {outcome}")
        return now

    def to_the_end(self, limit: int = 400) -> None:
        for _ in range(limit * 20):
            if not self.step():
                return
        raise AssertionError(f"game {self.game_id} did not end")


@dataclass(frozen=True)
class Now:
    version: int
    over: bool
    waiting_for: str
    decision: Decision | None


def answered(before: Now, now: Now) -> bool:
    """Whether the decision pending ``before`` was answered by ``now`` (or is no longer asked:
    a fact told to an epic group withdraws it and asks it again, under a new id, or asks
    another first). Not merely a later version: the next step would answer it again."""
    return now.over or now.decision is None or before.decision is None or now.decision.id != before.decision.id


SHOWN = """
const box = document.getElementById("decision");
const version = Number((document.getElementById("version").textContent.match(/\\d+/) || [0])[0]);
return version >= arguments[0] && box.querySelector("strong") !== null
  && box.querySelector("strong").textContent.startsWith("Your decision");
"""
"""Whether the page shows the table at ``arguments[0]`` or later, with its own decision (one
call to the page rather than one per element looked at)."""


def decide(browser: WebDriver, view: Now, gone: Callable[[], bool]) -> bool:
    """Answer the pending decision in the page as a player in a hurry would; False if it was
    ``gone`` from the game first (nothing clicked). The epic organizer may tell the group
    something meanwhile, and the page draws the table again: the question asked again (the
    clicks are then made again on it, which a click on a vanished button never reached), or
    set aside for another (an effect another group aimed here, its enemy picked by this
    seat, with other buttons than the question looked at): the step is over then, and the
    next one looks at the game again."""
    decision = view.decision
    assert decision is not None
    for _ in range(5):
        until(
            browser,
            lambda d: gone() or d.execute_script(SHOWN, view.version),
            f"the page of {decision.seat} does not show its decision {decision.id} ({decision.prompt})",
        )
        if gone():
            return False
        try:
            answer(browser.find_element(By.ID, "decision"), decision)
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            continue
    raise AssertionError(f"the decision {decision.id} kept being drawn again")


def answer(box: WebElement, decision: Decision) -> None:
    if decision.kind is Kind.ONE:
        box.find_element(By.CSS_SELECTOR, "button.option").click()
    elif decision.kind is Kind.MANY:
        for checkbox in box.find_elements(By.CSS_SELECTOR, "label.option input[type=checkbox]")[: decision.min]:
            checkbox.click()
        box.find_element(By.CSS_SELECTOR, "button.confirm").click()
    elif decision.kind is Kind.ORDER:
        for button in box.find_elements(By.CSS_SELECTOR, "button.option"):
            button.click()
        box.find_element(By.CSS_SELECTOR, "button.confirm").click()
    else:
        box.find_element(By.CSS_SELECTOR, "button.confirm").click()


# -- what the pages were sent -----------------------------------------------------------------


def chance_of(server: ThreadedServer, games: list[str]) -> str:
    """How chance went in each game, to play it again: the seed it was created with (a lobby
    game's is random) and each fresh seed a take-back told it (``Reseeded``), at its version."""
    told = []
    for game in games:
        history = server.app.history(UUID(game))
        created = next((e for e in history if isinstance(e, Created)), None)
        reseeds = ", ".join(f"reseeded {e.seed} at version {e.seq}" for e in history if isinstance(e, Reseeded))
        told.append(f"game {game}: seed {created.seed if created else '?'}{'; ' + reseeds if reseeds else ''}")
    return "; ".join(told)


def check_pages(
    server: ThreadedServer,
    secrets: Secrets,
    viewer_of: dict[str, str],
    games: list[str],
    messages: list[tuple[str, Any, Message]],
) -> int:
    """Every view, event and explanation sent to a seat's or the spectator's page, checked
    against the oracle of the game it was about; the room's talk against the channels its
    viewer reads; and no page that asked with its token was sent another viewer's token.
    Returns how many messages were checked. A failure names the games' seeds (see
    :func:`chance_of`), so the game can be played again."""
    try:
        return _check_pages(server, secrets, viewer_of, games, messages)
    except AssertionError as error:
        raise AssertionError(f"{error}\n(to play it again: {chance_of(server, games)})") from error


def _check_pages(
    server: ThreadedServer,
    secrets: Secrets,
    viewer_of: dict[str, str],
    games: list[str],
    messages: list[tuple[str, Any, Message]],
) -> int:
    oracles: dict[str, Oracle] = {}
    viewers = sorted({v for v in viewer_of.values() if v != "referee"})
    others = {token: [t for t in viewer_of if t != token] for token in viewer_of}
    checked = 0
    for method, request, response in messages:
        token = getattr(request, "token", "")
        viewer = viewer_of.get(token)
        if viewer is None:
            continue
        raw = response.SerializeToString()
        for other in others[token]:
            assert other.encode() not in raw, f"the page of {viewer} was sent another viewer's token ({method})"
        game = getattr(request, "game_id", "") or str(game_of_token(token))
        if game not in games or viewer == "referee":
            continue
        if game not in oracles:
            oracles[game] = Oracle(secrets, server.app.history(UUID(game)), viewers, views_at=set())
        oracle = oracles[game]
        where = f"the page of {viewer} in game {game[:8]} ({method})"
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
        if isinstance(response, rpb.WatchRoomResponse | rpb.GetRoomResponse):
            reads = {"spectator": {"watchers"}}.get(viewer, {"table", "epic"})
            assert {m.channel for m in response.room.messages} <= reads, f"{where}: talk it may not read"
        checked += 1 + len(views) + len(events)
    return checked


def verify_record(record: bytes, game: str) -> None:
    """A record exported from the page: its header names the game, and it re-executes offline."""
    checked = verify_record_lines(record.splitlines(keepends=True), ruleset)
    assert checked.verdict.ok, checked.verdict
    assert checked.header is not None and checked.header.game_id == game and checked.header.over


def referee_desk(
    browser: WebDriver,
    link: str,
    game: str,
    downloads: Path,
    explained: str = "ThreatSet",
    section: str = "(Core Set rulebook",
) -> None:
    """The referee's window: the game's end, the table at an earlier version, an event's
    arithmetic and its rulebook section, the verdict, and the record exported."""
    browser.get("about:blank")
    browser.get(link)
    until(
        browser,
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#events li") and "game over" in d.find_element(By.ID, "status").text
        ),
        "not at the end",
    )
    assert fragment(browser.current_url).get("game", game) == game
    # replay: the table at version 4, then an event's cause chain with its arithmetic
    slider = browser.find_element(By.ID, "slider")
    browser.execute_script("arguments[0].value = 4; arguments[0].dispatchEvent(new Event('input'))", slider)
    until(browser, lambda d: "The table at version 4 of" in d.find_element(By.ID, "past").text, "no replay")
    event = browser.find_elements(By.CSS_SELECTOR, f'#events li[data-type="{explained}"]')[0]
    seq = int(event.get_attribute("data-seq") or 0)
    event.click()
    until(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, f'#explain-tree li[data-seq="{seq}"] .working li'),
        "no working",
    )
    assert section in browser.find_element(By.ID, "explain-tree").text
    browser.find_element(By.ID, "verify").click()
    until(browser, lambda d: "hash chain intact" in d.find_element(By.ID, "verdict").text, "no verdict")
    assert "null" not in browser.find_element(By.ID, "verdict").text
    assert not browser.find_element(By.ID, "chain").is_displayed()
    browser.find_element(By.ID, "export").click()
    until(browser, lambda d: d.find_elements(By.ID, "record-link"), "no record")
    saved = downloads / f"{game}.jsonl"
    browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    browser.find_element(By.ID, "record-link").click()
    until(browser, lambda d: saved.exists() and saved.stat().st_size > 0, "the record was not saved")
    verify_record(saved.read_bytes(), game)


# -- the games ----------------------------------------------------------------------------------


def test_two_people_play_passage_through_mirkwood_with_a_bot(
    server: ThreadedServer,
    alice: WebDriver,
    bob: WebDriver,
    desk: WebDriver,
    sent: Sent,
    log: io.StringIO,
    tmp_path: Path,
) -> None:
    """Alice sets up three seats (hers with a RingsDB deck uploaded, one open to anyone with a
    ready-made deck, a greedy bot); Bob joins from the lobby; they play to the end with
    auto-pass, talk, and take one decision back with the other's consent."""
    started = time.monotonic()
    mark = sent.mark()
    lobby(alice, server, "Alice")
    choose(alice.find_element(By.ID, "new-game"), "lcg")
    choose(alice.find_element(By.ID, "new-scenario"), "passage-through-mirkwood")
    set_number(alice, "new-players", 3)
    mine = seat_setup(alice, "p1")
    choose(mine.find_element(By.CSS_SELECTOR, "select.deck"), "own")
    mine.find_element(By.CSS_SELECTOR, "input.deck-file").send_keys(str(DECKS / "aragorn-gimli-legolas.json"))
    until(
        alice,
        lambda d: "Aragorn, Gimli, Legolas" in seat_setup(d, "p1").find_element(By.CSS_SELECTOR, ".deck-check").text,
        "deck not read",
    )
    theirs = seat_setup(alice, "p2")
    choose(theirs.find_element(By.CSS_SELECTOR, "select.who"), "open")
    choose(theirs.find_element(By.CSS_SELECTOR, "select.deck"), "theodred-gloin-thalin")
    choose(seat_setup(alice, "p3").find_element(By.CSS_SELECTOR, "select.who"), "bot:greedy")
    links = create(alice)
    assert set(links) == {"p1", "p2", "p3", "spectator", "referee"} - {"p3"}  # a bot seat has no link
    game = fragment(links["p1"])["token"].split(".", 1)[0]
    referee = fragment(links["referee"])["token"]

    # Bob finds the open seat in the lobby and takes it under his name
    lobby(bob, server, "Bob")
    open_seat = f'.open-game[data-game="{game}"] button.join[data-seat="p2"]'
    until(bob, lambda d: d.find_elements(By.CSS_SELECTOR, open_seat), "the open seat is not listed")[0].click()
    until(
        bob,
        lambda d: shown_version(d) > 0 and "p2 · Bob (you)" in d.find_element(By.ID, "table").text,
        "Bob is not at the table",
    )
    bob_token = fragment(bob.current_url)["token"]
    open_link(alice, links["p1"])
    until(alice, lambda d: "p2 · Bob" in d.find_element(By.ID, "table").text, "Alice does not see Bob's name")
    assert "p3 · greedy bot" in alice.find_element(By.ID, "table").text
    for page in (alice, bob):
        set_auto_pass(page)

    table = Table(server, referee, game, {"p1": alice, "p2": bob})
    say(alice, "Shall we quest, Bob?")
    heard(bob, "Shall we quest, Bob?")
    say(bob, "Yes: into Mirkwood.")
    heard(alice, "Yes: into Mirkwood.")

    # a few decisions, then Alice takes her last one back and Bob agrees
    table.play_until(lambda now: table.clicks >= 6 and now.waiting_for != "p1", "six clicks")
    press(alice, "#take-back", "no take-back")
    until(alice, lambda d: "waiting for p2" in d.find_element(By.ID, "decision").text, "the ask is not shown")
    press(bob, '#asks button.agree[data-seat="p1"]', "Bob is not asked")
    branch = until(alice, lambda d: table.moved() != game and table.game_id, "no take-back happened")
    for page in (alice, bob):
        until(page, lambda d: fragment(d.current_url).get("game") == branch, "the page did not follow play")
        until(
            page, lambda d: "took back the decision" in d.find_element(By.ID, "moved").text, "no word of the take-back"
        )
    assert table.view().waiting_for == "p1"  # the decision taken back is asked again
    say(bob, "No harm done.")
    heard(alice, "No harm done.")

    table.to_the_end()
    for page in (alice, bob):
        until(page, lambda d: "Game over" in d.find_element(By.ID, "table").text, "the end is not shown")
        assert not page_errors(page)

    # the kept game is listed in Alice's games as where play goes on now
    lobby(alice, server, "Alice")
    until(
        alice,
        lambda d: d.find_elements(By.CSS_SELECTOR, f'.my-game[data-game="{branch}"][data-viewer="p1"]'),
        "no game",
    )
    ended = alice.find_element(By.CSS_SELECTOR, f'.my-game[data-game="{branch}"][data-viewer="p1"]').text
    assert "over: lost" in ended or "over: won" in ended  # the page's game has its own seed: either end

    referee_desk(desk, links["referee"], branch, tmp_path)
    seconds = time.monotonic() - started

    keys = {fragment(links["p1"])["token"]: "p1", bob_token: "p2", fragment(links["spectator"])["token"]: "spectator"}
    keys[referee] = "referee"
    assert check_pages(server, LCG_SECRETS, keys, table.games, sent.since(mark)) > 200
    for token in keys:
        assert token.split(".", 1)[1] not in log.getvalue()
    print(f"\nPassage through Mirkwood from the lobby to the referee's export: {seconds:.1f} s, {table.clicks} clicks")


def test_two_people_play_the_war_of_the_ring_against_the_shadow_bots(
    server: ThreadedServer,
    alice: WebDriver,
    bob: WebDriver,
    desk: WebDriver,
    sent: Sent,
    log: io.StringIO,
    tmp_path: Path,
) -> None:
    """The Trilogy with both Shadow seats played by the rules: Alice and Bob (sent his seat's
    link) hold the Free Peoples; Bob asks to take a decision back and the referee allows it."""
    started = time.monotonic()
    mark = sent.mark()
    lobby(alice, server, "Alice")
    choose(alice.find_element(By.ID, "new-game"), "wotr")
    choose(alice.find_element(By.ID, "new-scenario"), "trilogy")
    assert alice.find_element(By.ID, "new-shadow").is_selected()
    assert "Shadow bot (the rules)" in seat_setup(alice, "witch-king").text
    choose(alice.find_element(By.ID, "new-difficulty"), "standard")
    links = create(alice)
    assert set(links) == {"frodo", "aragorn", "spectator", "referee"}
    game = fragment(links["frodo"])["token"].split(".", 1)[0]
    referee = fragment(links["referee"])["token"]
    print(f"\n{chance_of(server, [game])}")  # shown with any failure of this test (the seed is random)

    open_link(bob, links["aragorn"])  # Alice sent Bob his seat's link
    name = bob.find_element(By.ID, "seat-name")
    name.clear()
    name.send_keys("Bob")
    bob.find_element(By.ID, "seat-name-save").click()
    open_link(alice, links["frodo"])
    until(alice, lambda d: "aragorn · Bob" in d.find_element(By.ID, "table").text, "Alice does not see Bob's name")
    assert "witch-king · Shadow bot (the rules)" in alice.find_element(By.ID, "table").text
    for page in (alice, bob):
        set_auto_pass(page)
    open_link(desk, links["referee"])

    table = Table(server, referee, game, {"frodo": alice, "aragorn": bob})
    say(alice, "The Ring goes south.")
    heard(bob, "The Ring goes south.")
    say(desk, "The referee watches the Shadow.", "watchers")
    table.play_until(lambda now: table.clicks >= 8 and now.waiting_for != "aragorn", "eight clicks")
    press(bob, "#take-back", "no take-back")
    press(desk, '#asks button.allow[data-seat="aragorn"]', "the referee is not asked")
    branch = until(desk, lambda d: table.moved() != game and table.game_id, "no take-back happened")
    for page in (alice, bob, desk):
        until(page, lambda d: fragment(d.current_url).get("game") == branch, "the page did not follow play")
    assert table.view().waiting_for == "aragorn"
    desk.get("about:blank")  # the referee comes back at the end
    say(bob, "I hold Helm's Deep after all.")
    heard(alice, "I hold Helm's Deep after all.")
    assert "The referee watches" not in alice.find_element(By.ID, "talk-list").text  # not the watchers' channel

    table.to_the_end()
    for page in (alice, bob):
        until(page, lambda d: "Game over" in d.find_element(By.ID, "table").text, "the end is not shown")
        assert not page_errors(page)
    referee_desk(desk, links["referee"], branch, tmp_path, "CombatEnded", "War of the Ring rules")
    # the referee reads the seats' talk, the players do not read the watchers'
    assert "I hold Helm's Deep after all." in desk.find_element(By.ID, "talk-list").text
    seconds = time.monotonic() - started

    keys = {fragment(links[s])["token"]: s for s in ("frodo", "aragorn", "spectator", "referee")}
    assert check_pages(server, WOTR_SECRETS, keys, table.games, sent.since(mark)) > 200
    for token in keys:
        assert token.split(".", 1)[1] not in log.getvalue()
    print(f"\nWar of the Ring against the Shadow bots: {seconds:.1f} s, {table.clicks} clicks")


def test_an_epic_event_of_two_groups(
    server: ThreadedServer,
    alice: WebDriver,
    bob: WebDriver,
    desk: WebDriver,
    sent: Sent,
    log: io.StringIO,
    tmp_path: Path,
) -> None:
    """The Hunt for the Dreadnaught as an Epic Multiplayer event: Alice and a bot in group 1,
    Bob and a bot in group 2. They talk across the groups, Alice picks her ship from cards
    shown with their text, takes a decision back (alone in her group, at once: the organizer
    follows her group's new game), and both play to the end; the organizer's sheet shows both,
    and the organizer talks with both groups on the event's channel."""
    started = time.monotonic()
    mark = sent.mark()
    lobby(alice, server, "Alice")
    choose(alice.find_element(By.ID, "new-game"), "lcg")
    choose(alice.find_element(By.ID, "new-scenario"), "hunt-for-the-dreadnaught")
    alice.find_element(By.ID, "new-epic").click()
    until(alice, lambda d: d.find_elements(By.CSS_SELECTOR, '#new-seats fieldset.group[data-group="2"]'), "no groups")
    choose(alice.find_element(By.ID, "new-difficulty"), "easy")
    for group in (1, 2):
        choose(seat_setup(alice, "p2", group).find_element(By.CSS_SELECTOR, "select.who"), "bot:greedy")
    links = create(alice)
    assert {"group 1: p1", "group 2: p1", "group 1: referee", "group 2: referee"} <= set(links)
    organizer = alice.find_element(By.CSS_SELECTOR, "#created a.organizer-link").get_attribute("href") or ""
    first = fragment(links["group 1: p1"])["token"].split(".", 1)[0]
    second = fragment(links["group 2: p1"])["token"].split(".", 1)[0]

    open_link(bob, links["group 2: p1"])
    name = bob.find_element(By.ID, "seat-name")
    name.clear()
    name.send_keys("Bob")
    bob.find_element(By.ID, "seat-name-save").click()
    open_link(alice, links["group 1: p1"])
    for page in (alice, bob):
        set_auto_pass(page)
        assert "p2 · greedy bot" in page.find_element(By.ID, "table").text
    say(alice, "Group 1 has sighted the Dreadnaught.", "epic")
    heard(bob, "Group 1 has sighted the Dreadnaught.")
    say(bob, "Group 2 is on its way.", "epic")
    heard(alice, "Group 2 is on its way.")
    say(alice, "(a note for my own table)", "table")

    ones = Table(server, fragment(links["group 1: referee"])["token"], first, {"p1": alice})
    twos = Table(server, fragment(links["group 2: referee"])["token"], second, {"p1": bob})
    # the fleet: the ship-objectives offered with their text, though the table does not lay them out
    fleet = ones.play_until(
        lambda now: (now.decision or NOTHING).rule == "thftd.setup.fleet" and now.waiting_for == "p1", "p1's fleet"
    )
    until(alice, lambda d: d.execute_script(SHOWN, fleet.version), "no fleet")
    offered = alice.find_elements(By.CSS_SELECTOR, '#decision [data-zone="Offered"] .card')
    assert len(offered) == 6 and all(card.find_element(By.CSS_SELECTOR, ".text").text for card in offered)
    assert ones.step(fleet)  # Alice takes the first ship
    press(alice, "#take-back", "no take-back")  # alone in her group: at once
    branch = until(alice, lambda d: ones.moved() != first and ones.game_id, "no take-back happened")
    until(alice, lambda d: fragment(d.current_url).get("game") == branch, "the page did not follow play")
    assert (ones.view().decision or NOTHING).rule == "thftd.setup.fleet"  # the ship is chosen again

    over = [False, False]
    while not all(over):
        for i, table in enumerate((ones, twos)):
            if not over[i]:
                over[i] = not table.step()
    for page in (alice, bob):
        until(page, lambda d: "Game over" in d.find_element(By.ID, "table").text, "the end is not shown")
        assert "(a note for my own table)" not in bob.find_element(By.ID, "talk-list").text
        assert not page_errors(page)

    desk.get("about:blank")
    desk.get(organizer)  # the organizer's sheet: both groups (the first in its new game), each ended
    until(desk, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sheet-body li[data-game]")) == 2, "no sheet")
    groups = [li.get_attribute("data-game") for li in desk.find_elements(By.CSS_SELECTOR, "#sheet-body li[data-game]")]
    assert groups == [branch, second]
    until(
        desk,
        lambda d: sum(d.find_element(By.ID, "sheet-body").text.count(end) for end in (", lost", ", won")) == 2,
        "the ends are not shown",
    )
    # the organizer reads the groups' talk beside the sheet, and speaks to both groups
    heard(desk, "Group 2 is on its way.")
    assert "(a note for my own table)" not in desk.find_element(By.ID, "talk-list").text
    say(desk, "Well sailed, both groups.")
    for page in (alice, bob):
        heard(page, "Well sailed, both groups.")
    referee_desk(desk, links["group 1: referee"], branch, tmp_path)
    seconds = time.monotonic() - started

    keys = {fragment(links[f"group 1: {v}"])["token"]: v for v in ("p1", "spectator", "referee")}
    second_keys = {fragment(links[f"group 2: {v}"])["token"]: v for v in ("p1", "spectator", "referee")}
    messages = sent.since(mark)
    checked = check_pages(server, LCG_SECRETS, keys, ones.games, messages)
    checked += check_pages(server, LCG_SECRETS, second_keys, twos.games, messages)
    assert checked > 200
    for token in [*keys, *second_keys]:
        assert token.split(".", 1)[1] not in log.getvalue()
    print(f"\nan epic event of two groups: {seconds:.1f} s, {ones.clicks + twos.clicks} clicks")


def test_a_decision_is_answered_when_another_is_pending_not_when_the_game_moves_on() -> None:
    """The step's wait: a fact told to the game (a later version) leaves the question pending."""
    asked = Decision(7, "p1", Kind.ONE, "Keep your setup hand?", "lcg.setup.mulligan")
    before = Now(7, False, "p1", asked)
    assert not answered(before, Now(8, False, "p1", asked))  # told what the other group did
    assert answered(before, Now(8, False, "p1", Decision(8, "p1", Kind.ONE, "Play a card?", "lcg.action")))
    assert answered(before, Now(8, False, "p2", None))
    assert answered(before, Now(9, True, "", None))


# -- refusals, restarts, phones and the fixes ---------------------------------------------------


def stored_rows(server: ThreadedServer) -> int:
    """Every row of the store: games, their records, rooms."""
    with sqlite3.connect(server.app.env["SQLITE_DBNAME"]) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM stored_events").fetchone()
    db.close()
    return int(count)


def refused(browser: WebDriver, words: str) -> str:
    browser.find_element(By.ID, "new-create").click()
    until(browser, lambda d: words in d.find_element(By.ID, "new-error").text, f"not refused: {words}")
    text: str = browser.find_element(By.ID, "new-error").text
    assert text.startswith("Nothing was created:")
    return text


def test_the_lobby_refuses_a_bad_deck_an_illegal_seat_and_an_unknown_scenario(
    server: ThreadedServer, alice: WebDriver
) -> None:
    """Each refusal names its part, the page marks that part and says why, and nothing is
    appended to the store."""
    lobby(alice, server, "Alice")
    choose(alice.find_element(By.ID, "new-game"), "lcg")
    set_number(alice, "new-players", 3)
    before = stored_rows(server)

    # a deck with a card no one makes: its problem shows as it is typed, and the create is refused
    mine = seat_setup(alice, "p1")
    choose(mine.find_element(By.CSS_SELECTOR, "select.deck"), "own")
    mine.find_element(By.CSS_SELECTOR, "textarea.deck-text").send_keys("Heroes: Aragorn\n3x Gaurd of the Citadel")
    shown = "unknown card 'Gaurd of the Citadel'"
    until(alice, lambda d: shown in seat_setup(d, "p1").find_element(By.CSS_SELECTOR, ".deck-check").text, "no check")
    refused(alice, "player 1's deck is refused")
    part = seat_setup(alice, "p1")
    assert "refused-part" in (part.get_attribute("class") or "")
    assert shown in part.find_element(By.CSS_SELECTOR, ".part-error").text
    choose(part.find_element(By.CSS_SELECTOR, "select.deck"), "")

    # a seat the game does not have (the form's seat renamed behind its back)
    choose(seat_setup(alice, "p3").find_element(By.CSS_SELECTOR, "select.who"), "bot:greedy")
    alice.execute_script("arguments[0].dataset.seat = 'p7'", seat_setup(alice, "p3"))
    refused(alice, "the game has no seat 'p7'")
    assert "refused-part" in (seat_setup(alice, "p7").get_attribute("class") or "")
    alice.execute_script("arguments[0].dataset.seat = 'p3'", seat_setup(alice, "p7"))

    # a scenario the server does not know (a stale page's list)
    alice.execute_script(
        "const s = document.getElementById('new-scenario');"
        "s.append(new Option('The Dead Marshes', 'the-dead-marshes')); s.value = 'the-dead-marshes';"
    )
    refused(alice, "the-dead-marshes")
    assert "refused-part" in (alice.find_element(By.ID, "new-scenario-row").get_attribute("class") or "")
    assert stored_rows(server) == before
    assert not alice.find_element(By.ID, "created").is_displayed()


def test_a_page_reconnects_after_a_server_restart_and_its_bot_plays_on(tmp_path: Path, alice: WebDriver) -> None:
    """A seat's page, live, loses its server: it says so, and when a server is back on the
    same port it follows the game again, the bot seat (kept with the game) played by the new
    server from where the game was left waiting for it."""
    database = str(tmp_path / "games.db")

    def serve(web_port: int) -> tuple[ServeProcess, int]:
        served = ServeProcess(["--db", database, "--web-port", str(web_port)])
        assert served.proc.stdout is not None
        line = served.proc.stdout.readline()
        return served, int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])

    served, port = serve(0)
    with served:
        channel, stub = stub_for(served.address)
        with channel:
            seating = [pb.SeatPlan(seat="p1", name="Ann"), pb.SeatPlan(seat="p2", bot="greedy")]
            request = pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup()] * 2, seating=seating, seed=12)
            access = stub.CreateGame(request).access
        token = access.seats[0].token
        open_link(alice, f"http://127.0.0.1:{port}/#token={token}")
        until(alice, lambda d: d.find_element(By.ID, "live").text == "live", "not live")
        assert served.terminate() == 0
    until(alice, lambda d: d.find_element(By.ID, "live").text in ("reconnecting", "stream ended"), "still live")

    # meanwhile p1 answers until the game waits for its bot, with no server to play it
    app = Westmarch(store_env(db=database))
    service = GameService(app)
    game_id = UUID(access.game_id)
    while (pending := service.state(game_id).pending) is not None and pending.seat == "p1":
        service.submit_as(game_id, "p1", 0, pending.id, (pending.options[0].id,), f"away-{pending.id}")
    waiting = service.state(game_id).version
    app.close()

    served, again = serve(port)
    with served:
        assert again == port
        until(alice, lambda d: d.find_element(By.ID, "live").text == "live", "the page did not reconnect", 40)
        until(alice, lambda d: shown_version(d) > waiting, "the bot did not play on after the restart", 40)
        assert served.terminate() == 0


def test_a_bad_token_after_a_good_one_shows_no_table(server: ThreadedServer, bob: WebDriver) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = stub.CreateGame(pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup()], seed=3)).access
    open_link(bob, f"http://127.0.0.1:{server.web.port}/#token={access.seats[0].token}")
    until(bob, lambda d: d.find_element(By.ID, "live").text == "live", "not live")
    bob.execute_script("location.hash = 'token=' + arguments[0]", access.seats[0].token[:-4] + "AAAA")
    until(bob, lambda d: "unauthenticated" in d.find_element(By.ID, "error").text, "no refusal")
    assert bob.find_element(By.ID, "live").text != "live"
    assert not bob.find_elements(By.CSS_SELECTOR, "#table .card, #decision button, #events li")
    assert bob.find_element(By.ID, "version").text == ""


def test_on_a_phone_the_decision_stays_in_view(server: ThreadedServer, desk: WebDriver) -> None:
    """At 400 px wide the decision stays on the screen wherever the page is scrolled, and the
    timeline, folded until asked for, is above the table rather than thousands of pixels under it."""
    channel, stub = stub_for(server.address)
    with channel:
        request = pb.CreateGameRequest(
            game="lcg", scenario="hunt-for-the-dreadnaught", players=[pb.PlayerSetup()] * 2, seed=5
        )
        access = stub.CreateGame(request).access
    desk.set_window_size(400, 800)
    try:
        open_link(desk, f"http://127.0.0.1:{server.web.port}/#token={access.seats[0].token}")
        assert not desk.find_element(By.ID, "events").is_displayed()  # on a phone, the timeline when asked
        desk.find_element(By.CSS_SELECTOR, "#replay > summary").click()
        until(desk, lambda d: d.find_element(By.ID, "events").is_displayed(), "the timeline does not open")
        for where in ("0", "document.body.scrollHeight / 2", "document.body.scrollHeight"):
            desk.execute_script(f"window.scrollTo(0, {where})")
            box = desk.execute_script(
                "const r = document.getElementById('decision').getBoundingClientRect();"
                "return [r.top, r.bottom, window.innerHeight, r.height];"
            )
            assert box[3] > 40 and box[0] >= 0 and box[1] <= box[2] + 1, (where, box)
        assert "Your decision" in desk.find_element(By.ID, "decision").text
        top = desk.execute_script("return document.getElementById('replay').getBoundingClientRect().top + scrollY")
        assert top < 1500, top
    finally:
        desk.set_window_size(1400, 1000)


def test_a_seat_is_told_it_has_a_response(server: ThreadedServer, bob: WebDriver) -> None:
    """When the decision pending is a card's Response the seat may use, the page says so above it."""
    channel, stub = stub_for(server.address)
    with channel:
        access = stub.CreateGame(pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup()], seed=40)).access
        token = access.seats[0].token
        rng = random.Random(40)
        for n in range(400):  # on to a Response of one of p1's cards
            decision = decision_from_pb(stub.GetView(pb.GetViewRequest(token=token)).view.decision)
            if decision.rule.endswith(".response"):
                break
            choice = list(random_choice(decision, rng))
            stub.SubmitDecision(
                pb.SubmitDecisionRequest(token=token, decision_id=decision.id, choice=choice, command_id=f"r{n}")
            )
        assert decision.rule.endswith(".response")
    open_link(bob, f"http://127.0.0.1:{server.web.port}/#token={token}")
    banner = until(bob, lambda d: d.find_elements(By.CSS_SELECTOR, "#decision .response"), "no word of the response")[0]
    assert banner.text == f"You have a response: {decision.prompt}"


def test_my_games_say_whose_turn_it_is(server: ThreadedServer, bob: WebDriver) -> None:
    """A browser that opened two seats' links of one game lists both under "My games": the seat
    the game waits for says "waiting for you" (and is marked as the player's turn), the other
    whom it waits for."""
    channel, stub = stub_for(server.address)
    with channel:
        seating = [pb.SeatPlan(seat="p1", name="Ann"), pb.SeatPlan(seat="p2", name="Bo")]
        request = pb.CreateGameRequest(game="lcg", players=[pb.PlayerSetup()] * 2, seating=seating, seed=21)
        access = stub.CreateGame(request).access
        keys = {s.seat: s.token for s in access.seats}
        waiting = stub.GetView(pb.GetViewRequest(token=keys["p1"])).view.decision.seat
    other = "p2" if waiting == "p1" else "p1"
    bob.get(f"http://127.0.0.1:{server.web.port}/")
    bob.execute_script("localStorage.clear()")  # this browser's games: these two alone
    for seat in (waiting, other):
        open_link(bob, f"http://127.0.0.1:{server.web.port}/#token={keys[seat]}")
    lobby(bob, server, "Bob")

    def state_of(seat: str) -> str:
        found = bob.find_elements(By.CSS_SELECTOR, f"{row(seat)} .state")
        return found[0].text if found else ""

    def row(seat: str) -> str:
        return f'.my-game[data-game="{access.game_id}"][data-viewer="{seat}"]'

    until(bob, lambda d: state_of(waiting) == "waiting for you", "the seat waited for is not told so")
    assert state_of(other) == f"waiting for {waiting}"
    assert "yours" in (bob.find_element(By.CSS_SELECTOR, row(waiting)).get_attribute("class") or "")
    assert "yours" not in (bob.find_element(By.CSS_SELECTOR, row(other)).get_attribute("class") or "")
