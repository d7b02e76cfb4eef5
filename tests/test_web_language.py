"""The web page asks the server for its texts in its own language: every Connect call carries
the page's language (Accept-Language), the web handler serves it inside
``projections.i18n.speaking``, and the servicer's threads carry that context, so the story of
the events, the decision's question and its options come from the server in Japanese (names
aside), and in Spanish once Spanish is picked. The event log itself is the same."""

from __future__ import annotations

import http.client
import json
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from service.rpc.server import ThreadedServer
from tests.rpc_support import create, stub_for
from tests.test_web import until
from tests.test_web_i18n import browser, catalog_names, english_left, read, server, table_in_japanese

__all__ = ["browser", "server"]  # the Japanese Chromium and the server of tests/test_web_i18n.py

JAPANESE = r"[\u3040-\u30ff\u4e00-\u9fff]"
"""A kana or kanji."""
STORY = "return [...document.querySelectorAll('#events li .text')].map((e) => e.innerText)"
"""The story of the events as the timeline tells it."""


def test_the_server_tells_the_story_in_the_pages_language(server: ThreadedServer, browser: WebDriver) -> None:
    """The page asks for every text in its language (Accept-Language on each call, served
    inside ``speaking``): the story of the events comes from the server in Japanese, names
    aside, and in Spanish once Spanish is picked; the event log itself is the same."""
    channel, stub = stub_for(server.address)
    try:
        access = create(stub, players=1, seed=11)
    finally:
        channel.close()
    table_in_japanese(browser, server, access, "p1")
    names: set[str] = set(
        browser.execute_script("return [...document.querySelectorAll('[data-name]')].map((e) => e.dataset.name)")
    )
    names.update(s.seat for s in access.seats)
    names.update(catalog_names(server))
    story: list[str] = read(browser, STORY)
    assert len(story) >= 5
    left = english_left(" ".join(story), names)
    assert left == [], f"English left in the story the server told in Japanese: {left}"
    prompt, rule, options = read(
        browser,
        "const d = document.getElementById('decision');"
        "return [d.querySelector('.prompt').innerText, d.querySelector('.prompt .rule').innerText,"
        " [...d.querySelectorAll('.options button')].map((b) => b.innerText).join(' ')]",
    )
    for part, text in (("prompt", prompt.replace(rule, "")), ("options", options)):
        assert re.search(JAPANESE, text), part
        assert english_left(text, names) == [], f"English left in the {part} in Japanese: {text}"
    assert all(re.search(JAPANESE, line) for line in story), story
    Select(browser.find_element(By.ID, "language")).select_by_value("es")
    until(browser, lambda d: d.execute_script("return document.documentElement.lang") == "es", "not Spanish")
    until(browser, lambda d: len(read(d, STORY)) >= len(story), "no story")
    spanish = read(browser, STORY)[: len(story)]
    assert not any(re.search(JAPANESE, line) for line in spanish), spanish
    assert spanish != story


def test_a_refusal_comes_in_the_language_of_the_call(server: ThreadedServer) -> None:
    """A call the service refuses (a decision that is not pending) is refused in the language
    its Accept-Language asks for, English without one; nothing is appended."""
    channel, stub = stub_for(server.address)
    try:
        access = create(stub, players=1, seed=3)
    finally:
        channel.close()
    body = json.dumps({"token": access.seats[0].token, "decisionId": "99999", "choice": ["1"], "commandId": "c1"})
    said: dict[str | None, str] = {}
    for language in ("ja", "es-ES,es;q=0.9", None):
        connection = http.client.HTTPConnection("127.0.0.1", server.web.port, timeout=10)
        try:
            headers = {"content-type": "application/json"} | ({"accept-language": language} if language else {})
            connection.request("POST", "/westmarch.v1.GameService/SubmitDecision", body, headers)
            answer = connection.getresponse()
            assert answer.status == 400
            said[language] = json.loads(answer.read())["message"]
        finally:
            connection.close()
    assert said[None].startswith("decision 99999 is not pending")
    assert said["es-ES,es;q=0.9"].startswith("la decisión 99999 no está pendiente")
    assert re.search(JAPANESE, said["ja"]) and "99999" in said["ja"]
