"""The web page in Spanish and Japanese: its catalogs (domain ``westmarch_web``) and the page
in a real headless Chromium whose browser asks for Japanese (``Accept-Language: ja``).

The catalogs: every text the page's scripts mark is translated in es and ja, none fuzzy,
each with the English text's placeholders; each committed ``.mo`` is the compilation of its
``.po``; the server reads the ``.mo`` as :mod:`gettext` does. The page: Accept-Language
chooses its first language, the picker another (kept in the browser), and no English is
left on it in Japanese but names (of cards, scenarios, games, decks and seats).
"""

from __future__ import annotations

import gettext
import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from projections import card_names
from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer
from service.web import i18n
from tests.rpc_support import create, stub_for, threaded_server
from tests.test_web import CHROMEDRIVER, CHROMIUM, until
from tools import i18n_web

TARGETS = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE]
PLURALS = {"es": "nplurals=2; plural=(n != 1);", "ja": "nplurals=1; plural=0;"}
"""Each catalog's Plural-Forms (the page's PLURAL_FORM table follows them)."""
FIXED = ("Westmarch", "English", "Español", "RingsDB", "OCTGN", ".o8d", "JSON Lines", "JSON", "3x Guard of the Citadel")
"""Words the page shows as they are in every language: the project's and languages' own names,
formats, the deck-list syntax's example."""
ENGLISH_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2,}(?![A-Za-z0-9])")
"""A word of two Latin letters or more (not a part of an id such as 3cdb12ef)."""


# -- the catalogs ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def template() -> Any:
    return i18n_web.template()


def test_the_page_marks_its_texts_and_the_template_holds_them(template: Any) -> None:
    texts = {m.id for m in template if m.id}
    assert len(texts) > 250
    assert "Open games" in texts and ("{n} card", "{n} cards") in texts
    with i18n_web.pot_path().open("rb") as handle:
        committed = {m.id for m in read_po(handle) if m.id}
    assert committed == texts, "run python -m tools.i18n_web: the template is not the page's texts"


@pytest.mark.parametrize("lang", TARGETS)
def test_every_text_is_translated_not_fuzzy_with_its_placeholders(template: Any, lang: str) -> None:
    assert i18n_web.problems(lang, template) == []


def test_the_check_finds_a_missing_a_fuzzy_and_a_broken_translation(template: Any) -> None:
    catalog = i18n_web.read("es")
    catalog["Open games"].string = ""
    catalog["Join as {seat}"].flags.add("fuzzy")
    catalog["waiting for {seat}"].string = "esperando"
    catalog[("{n} card", "{n} cards")].string = ("{n} carta", "")

    found = "\n".join(i18n_web.problems_of(catalog, template))
    assert "no translation of 'Open games'" in found
    assert "fuzzy translation of 'Join as {seat}'" in found
    assert "'esperando' has the places [], 'waiting for {seat}' has ['seat']" in found
    assert "no translation of '{n} card'" in found


def test_the_maintainers_check_passes_on_the_committed_catalogs(capsys: pytest.CaptureFixture[str]) -> None:
    assert i18n_web.main(["check"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("lang", TARGETS)
def test_each_mo_is_its_po_compiled_and_reads_as_gettext_reads_it(lang: str) -> None:
    mo = i18n_web.po_path(lang).with_suffix(".mo")
    assert mo.read_bytes() == i18n_web.compiled(lang), "run python -m tools.i18n_web compile"
    messages, header = i18n.catalog(lang)
    assert header["Plural-Forms"] == PLURALS[lang]
    with mo.open("rb") as handle:
        reference = gettext.GNUTranslations(handle)
    catalog = i18n_web.read(lang)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            one, other = message.id
            forms = messages[one]
            assert isinstance(forms, list)
            for n in range(0, 12):
                index = min(gettext.c2py(PLURALS[lang].split("plural=")[1].rstrip(";"))(n), len(forms) - 1)
                assert forms[index] == reference.ngettext(one, other, n)
        else:
            assert messages[message.id] == reference.gettext(message.id)


def test_accept_language_chooses_a_spoken_language() -> None:
    assert i18n.preferred("ja,en;q=0.8") == "ja"
    assert i18n.preferred("fr-FR, es-419;q=0.7, ja;q=0.9") == "ja"
    assert i18n.preferred("fr, es;q=0.5") == "es"
    assert i18n.preferred("de-DE,de;q=0.9") == "en"
    assert i18n.preferred("ja;q=0, es") == "es"
    assert i18n.preferred("") == "en"
    assert i18n.preferred(None) == "en"


# -- the server ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    folder: Path = tmp_path_factory.mktemp("web-i18n")
    with threaded_server(store_env(db=str(folder / "games.db")), web_port=0) as running:
        yield running


def fetch(server: ThreadedServer, path: str, language: str | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.web.port, timeout=10)
    try:
        connection.request("GET", path, headers={"accept-language": language} if language else {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def test_the_server_serves_the_page_in_the_browsers_language_and_each_catalog(server: ThreadedServer) -> None:
    for language, lang in (("ja,en;q=0.5", "ja"), ("es-ES", "es"), ("de", "en"), (None, "en")):
        status, headers, body = fetch(server, "/", language)
        assert status == 200
        assert f'<html lang="{lang}">'.encode() in body
        assert headers["vary"] == "accept-language"
    status, headers, body = fetch(server, "/locale/ja.json")
    assert status == 200 and headers["content-type"].startswith("application/json")
    served = json.loads(body)
    assert served["plural_forms"] == PLURALS["ja"]
    assert served["messages"]["Open games"] == "参加できるゲーム"
    assert served["messages"]["{n} card"] == ["{n} 枚"]
    spanish_answer = json.loads(fetch(server, "/locale/es.json")[2])
    spanish = spanish_answer["messages"]
    assert spanish["{n} card"] == ["{n} carta", "{n} cartas"]
    assert spanish_answer["card_names"]["Guard of the Citadel"] == "Guardia de La Ciudadela"
    assert "Aragorn" not in spanish_answer["card_names"]  # named alike: nothing to send
    assert served["card_names"] == {} and served["traits"] == {}  # Japanese keeps the English names
    assert spanish_answer["traits"]["Warrior"] == "Guerrero" and "Noble" not in spanish_answer["traits"]
    assert json.loads(fetch(server, "/locale/en.json")[2])["messages"] == {}
    assert fetch(server, "/locale/fr.json")[0] == 404


# -- the page in Chromium ------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    """A Chromium whose person reads Japanese first: it sends ``Accept-Language: ja,en``."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "ja,en"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def fresh(browser: WebDriver, server: ThreadedServer, fragment: str = "") -> None:
    """The page opened anew with nothing kept from before (no language picked)."""
    browser.get(f"http://127.0.0.1:{server.web.port}/locale/en.json")
    browser.execute_script("localStorage.clear()")
    browser.get("about:blank")
    browser.get(f"http://127.0.0.1:{server.web.port}/{fragment}")


def shown_words(browser: WebDriver, skip: tuple[str, ...] = ()) -> str:
    """Every word a person sees on the page (and hears from its labels): the rendered text,
    and the placeholders, titles and aria-labels of the elements shown; ``skip``: selectors
    of parts left out."""
    script = """
      const skip = arguments[0];
      const copy = document.body.cloneNode(true);
      const parts = [];
      const shown = (el) => el.getClientRects().length > 0;
      for (const el of document.body.querySelectorAll("[placeholder], [title], [aria-label]")) {
        if (!shown(el) || skip.some((s) => el.closest(s))) continue;
        for (const a of ["placeholder", "title", "aria-label"]) if (el.getAttribute(a)) parts.push(el.getAttribute(a));
      }
      for (const s of skip) for (const el of document.body.querySelectorAll(s)) el.dataset.skipped = "1";
      const text = [];
      const walk = (el) => {
        if (el.dataset && el.dataset.skipped) return;
        if (el.nodeType === 3) { if (el.parentElement && shown(el.parentElement)) text.push(el.textContent); return; }
        if (el.nodeType === 1 && el.tagName === "SELECT") {
          if (shown(el)) for (const o of el.options) if (el.id !== "language") text.push(o.textContent);
          return;
        }
        for (const child of el.childNodes) walk(child);
      };
      walk(document.body);
      for (const el of document.body.querySelectorAll("[data-skipped]")) delete el.dataset.skipped;
      return text.join(" \\n ") + " \\n " + parts.join(" \\n ");
    """
    text: str = browser.execute_script(script, list(skip))
    return text


def english_left(text: str, names: set[str]) -> list[str]:
    """The English words left in ``text`` once the names (longest first) are taken out."""
    for name in sorted(names | set(FIXED), key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    return ENGLISH_WORD.findall(text)


def catalog_names(server: ThreadedServer) -> set[str]:
    """The names the lobby shows as they are: games, scenarios, decks, heroes, contracts,
    seats (names of the published games and of their cards)."""
    channel, stub = stub_for(server.address)
    try:
        games = stub.GetCatalog(pb.GetCatalogRequest()).games
    finally:
        channel.close()
    names: set[str] = set()
    for game in games:
        names.add(game.title)
        for scenario in game.scenarios:
            names.update([scenario.title, *scenario.seats, *scenario.shadow_seats])
        for deck in game.decks:
            names.update([deck.title, *deck.heroes])
        names.update(c.title for c in game.contracts)
    return names


ARAGORNS_TRAITS = "return document.querySelector('#table .card[data-name=\"Aragorn\"] .traits').innerText"


def read(browser: WebDriver, script: str) -> Any:
    """What ``script`` reads from the page, in one go (the table may be drawn anew at any
    moment as the live stream brings it)."""
    return browser.execute_script(script)


def lobby_ready(browser: WebDriver) -> None:
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#new-game option"), "no lobby")


def test_accept_language_chooses_japanese_and_the_lobby_has_no_english_left(
    server: ThreadedServer, browser: WebDriver
) -> None:
    fresh(browser, server)
    lobby_ready(browser)
    assert browser.execute_script("return document.documentElement.lang") == "ja"
    assert browser.find_element(By.CSS_SELECTOR, "#new h2").text == "新しいゲーム"
    assert Select(browser.find_element(By.ID, "language")).first_selected_option.get_attribute("value") == "ja"
    names = catalog_names(server)
    for game in ("lcg", "wotr"):  # each game's part of the form (the War of the Ring's Shadow bots too)
        Select(browser.find_element(By.ID, "new-game")).select_by_value(game)
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#new-seats *"), "no seats")
        left = english_left(shown_words(browser), names)
        assert left == [], f"English left on the {game} lobby in Japanese: {left}"
    assert "三部作" in [o.text for o in Select(browser.find_element(By.ID, "new-scenario")).options]
    difficulty = Select(browser.find_element(By.ID, "new-difficulty"))
    assert {o.text for o in difficulty.options} <= {"標準", "チャレンジ", "イージー", "ハード"}


def test_a_game_created_from_the_lobby_in_japanese(server: ThreadedServer, browser: WebDriver) -> None:
    """The lobby after a game is made in it: the links shown once, the browser's games and the
    open games (with the seat left to anyone) have no English left but names."""
    fresh(browser, server)
    lobby_ready(browser)
    name = browser.find_element(By.ID, "lobby-name")
    name.clear()
    name.send_keys("Alice")
    Select(browser.find_element(By.ID, "new-game")).select_by_value("lcg")
    browser.execute_script(
        "const f = document.getElementById('new-players'); f.value = '2'; f.dispatchEvent(new Event('change'))"
    )
    seat = browser.find_element(By.CSS_SELECTOR, '#new-seats .seat-setup[data-seat="p2"] select.who')
    Select(seat).select_by_value("open")
    browser.find_element(By.ID, "new-create").click()
    until(browser, lambda d: d.find_element(By.ID, "created").is_displayed(), "nothing was created")
    browser.find_element(By.ID, "open-refresh").click()
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#open-games-list .open-game"), "no open game")
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#my-games-list li"), "no game of mine")
    created = read(browser, "return document.getElementById('created').innerText")
    assert "作成しました" in created and "観戦者" in created and "審判" in created
    names = catalog_names(server) | {"Alice"}
    left = english_left(shown_words(browser), names)
    assert left == [], f"English left on the lobby in Japanese after a game was created: {left}"
    assert "として参加" in read(browser, "return document.getElementById('open-games-list').innerText")  # Join as


def test_the_picker_switches_the_language_and_the_browser_keeps_it(server: ThreadedServer, browser: WebDriver) -> None:
    fresh(browser, server)
    lobby_ready(browser)
    Select(browser.find_element(By.ID, "language")).select_by_value("es")
    until(browser, lambda d: d.execute_script("return document.documentElement.lang") == "es", "not Spanish")
    lobby_ready(browser)
    assert browser.find_element(By.CSS_SELECTOR, "#new h2").text == "Nueva partida"
    assert browser.find_element(By.ID, "open-token").get_attribute("placeholder") == "ficha de acceso"
    # counted texts take the Spanish plural forms
    one, two = browser.execute_script("return [t('zone.hand.count', {n: 1}), t('combat.attack-tokens', {n: 2})]")
    assert (one, two) == ("1 carta", "2 fichas de ataque")
    # keywords in the Spanish edition's words (seed 002), their numbers kept; others as printed
    words = browser.execute_script(
        "return ['Doomed 1', 'Surge', 'Archery 1 per player', 'Sentinel.', 'Nazgul'].map(keywordWords)"
    )
    assert words == ["Maldito 1", "Oleada", "Arquería 1 por jugador", "Centinela", "Nazgul"]
    # kept: the browser still asks for Japanese, the page stays in Spanish
    browser.refresh()
    lobby_ready(browser)
    assert browser.execute_script("return document.documentElement.lang") == "es"
    assert browser.find_element(By.CSS_SELECTOR, "#new h2").text == "Nueva partida"
    # and back to English
    Select(browser.find_element(By.ID, "language")).select_by_value("en")
    until(browser, lambda d: d.execute_script("return document.documentElement.lang") == "en", "not English")
    lobby_ready(browser)
    assert browser.find_element(By.CSS_SELECTOR, "#new h2").text == "New game"
    browser.execute_script("localStorage.clear()")


def test_the_pages_plural_rules_are_the_catalogs(server: ThreadedServer, browser: WebDriver) -> None:
    fresh(browser, server)
    lobby_ready(browser)
    for lang in ("en", *TARGETS):
        rule = gettext.c2py(PLURALS.get(lang, "plural=(n != 1);").split("plural=")[1].rstrip(";"))
        page = browser.execute_script(f"return [...Array(30).keys()].map((n) => PLURAL_FORM['{lang}'](n))")
        assert page == [rule(n) for n in range(30)], lang


SERVERS_WORDS = (
    "#events",  # the story of each event: the server's
    "#decision .prompt",  # the prompt and its rule: the server's, after the page's "Your decision"
    "#decision .options",  # the options' labels: the server's
    ".card .text",  # the cards' texts: the server's
    ".location .text",
    ".card .trait-names",  # the cards' printed traits (War of the Ring's: its keywords, Nazgul, Ent)
)
"""The parts of a table the page does not word itself."""


def table_in_japanese(browser: WebDriver, server: ThreadedServer, access: pb.GameAccess, seat: str) -> str:
    """The English words of the page's own left on ``seat``'s table, shown in Japanese."""
    fresh(browser, server, f"#token={next(s.token for s in access.seats if s.seat == seat)}")
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#events li"), "no table")
    until(browser, lambda d: d.find_element(By.ID, "version").text.startswith("バージョン"), "no version")
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#decision .prompt strong"), "no decision")
    names: set[str] = set(
        browser.execute_script("return [...document.querySelectorAll('[data-name]')].map((e) => e.dataset.name)")
    )
    names.update(s.seat for s in access.seats)
    names.update(catalog_names(server))
    return " ".join(english_left(shown_words(browser, SERVERS_WORDS), names))


def test_an_lcg_table_in_japanese_has_no_english_of_the_pages_own(server: ThreadedServer, browser: WebDriver) -> None:
    """A seat's LCG table: the page's own words (bar, zones, piles, stats, buttons, the
    timeline's) are Japanese; what the server words (the story of each event, the decision's
    prompt and options, the cards' texts) and the cards' names are left out here."""
    channel, stub = stub_for(server.address)
    try:
        access = create(stub, players=1, seed=7)
    finally:
        channel.close()
    left = table_in_japanese(browser, server, access, "p1")
    assert left == "", f"English of the page's own left on an LCG table in Japanese: {left}"
    assert read(browser, "return document.querySelector('#decision .prompt strong').innerText") == "あなたの決定："
    zones = read(browser, "return document.getElementById('table').innerText")
    assert "ステージングエリア" in zones and "ヒーロー" in zones and "意志" in zones
    aragorn = read(browser, ARAGORNS_TRAITS)
    assert aragorn == "歩哨. Dúnedain. Noble. Ranger."  # the keyword in Japanese, the printed traits as they are
    assert browser.find_element(By.ID, "to-live").text == "現在に戻る"
    assert browser.find_element(By.ID, "game").text.startswith("指輪物語カードゲーム")


def test_a_war_of_the_ring_table_in_japanese_has_no_english_of_the_pages_own(
    server: ThreadedServer, browser: WebDriver
) -> None:
    channel, stub = stub_for(server.address)
    try:
        access = stub.CreateGame(pb.CreateGameRequest(game="wotr", scenario="trilogy", seed=33)).access
        seat = stub.GetView(pb.GetViewRequest(token=access.referee_token)).view.waiting_for
    finally:
        channel.close()
    left = table_in_japanese(browser, server, access, seat)
    assert left == "", f"English of the page's own left on a War of the Ring table in Japanese: {left}"
    teams = read(browser, "return document.querySelector('.teams').innerText")
    assert "自由軍" in teams and "暗黒軍" in teams and "勝利点" in teams


def test_a_table_in_spanish_names_the_cards_as_the_spanish_edition(server: ThreadedServer, browser: WebDriver) -> None:
    """The Core Set's cards the Spanish edition's names are known for are shown by them (each
    keeps its English name as its data-name); the others by their English names."""
    channel, stub = stub_for(server.address)
    try:
        access = create(stub, players=1, seed=5)
    finally:
        channel.close()
    fresh(browser, server)
    lobby_ready(browser)
    Select(browser.find_element(By.ID, "language")).select_by_value("es")
    until(browser, lambda d: d.execute_script("return document.documentElement.lang") == "es", "not Spanish")
    lobby_ready(browser)
    browser.get("about:blank")
    browser.get(f"http://127.0.0.1:{server.web.port}/#token={access.seats[0].token}")
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#table .card .name"), "no table")
    spanish = dict(card_names.names("es"))
    shown = {
        (english, name)
        for english, name in read(
            browser,
            "return [...document.querySelectorAll('#table .card[data-name]')]"
            ".map((e) => [e.dataset.name, e.querySelector('.name').innerText])",
        )
    }
    renamed = {english: name for english, name in shown if english != name}
    assert renamed, f"no card of the Spanish edition's names on this table: {sorted(shown)}"
    assert all(spanish[english] == name for english, name in renamed.items())
    assert all(spanish.get(english, english) == name for english, name in shown)
    aragorn = read(browser, ARAGORNS_TRAITS)
    assert aragorn == "Centinela. Dúnedain. Noble. Montaraz."  # keyword and traits as the Spanish edition
    browser.execute_script("localStorage.clear()")
