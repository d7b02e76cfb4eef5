"""gRPC's texts in the language a request asks for (a real server on a loopback port)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.app import store_env
from service.rpc.gen.westmarch.v1 import westmarch_pb2 as pb
from service.rpc.server import ThreadedServer
from tests.rpc_support import create, stub_for, threaded_server, tokens

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
"""Kana or kanji."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadedServer]:
    with threaded_server(store_env(db=str(tmp_path / "games.db"))) as running:
        yield running


def test_view_history_watch_and_explain_in_japanese(server: ThreadedServer) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=2, seed=11)
        keys = tokens(access)
        game = access.game_id
        english = stub.GetHistory(pb.GetHistoryRequest(game_id=game, token=keys["referee"])).events
        japanese = stub.GetHistory(pb.GetHistoryRequest(game_id=game, token=keys["referee"], language="ja")).events
        spanish = stub.GetHistory(pb.GetHistoryRequest(game_id=game, token=keys["referee"], language="es-ES")).events
        # a seat's own history (the other seat's hand hidden from it) is told in Japanese too
        seat_told = stub.GetHistory(pb.GetHistoryRequest(game_id=game, token=keys["p2"], language="ja")).events
        assert all(JAPANESE.search(e.text) for e in seat_told), [
            e.text for e in seat_told if not JAPANESE.search(e.text)
        ]
        # the same events, told three ways
        assert [e.body for e in english] == [e.body for e in japanese] == [e.body for e in spanish]
        assert [e.type for e in english] == [e.type for e in japanese]
        assert all(JAPANESE.search(e.text) for e in japanese), [e.text for e in japanese if not JAPANESE.search(e.text)]
        assert not any(JAPANESE.search(e.text) for e in english)
        assert any(e.text.startswith("se baraja") for e in spanish), [e.text for e in spanish][:10]
        assert english[0].text.startswith("a game of Passage through Mirkwood begins")
        # the seat that decides reads its question in Japanese; the option ids do not change
        seat = stub.GetView(pb.GetViewRequest(game_id=game, token=keys["referee"])).view.waiting_for
        plain = stub.GetView(pb.GetViewRequest(game_id=game, token=keys[seat])).view.decision
        asked = stub.GetView(pb.GetViewRequest(game_id=game, token=keys[seat], language="ja")).view.decision
        assert [o.id for o in asked.options] == [o.id for o in plain.options]
        assert JAPANESE.search(asked.prompt) and not JAPANESE.search(plain.prompt), (asked.prompt, plain.prompt)
        assert asked.prompt != plain.prompt
        # a watcher's first batch, in Japanese
        stream = stub.Watch(pb.WatchRequest(game_id=game, token=keys["referee"], language="ja"))
        first = next(iter(stream))
        stream.cancel()
        assert [e.text for e in first.events] == [e.text for e in japanese]
        assert JAPANESE.search(first.view.decision.prompt)
        # why an event happened, in Japanese
        why = stub.ExplainEvent(pb.ExplainEventRequest(game_id=game, token=keys["referee"], seq=3, language="ja"))
        assert JAPANESE.search(why.because.text)
        # the English after the Japanese is English still (the language is one call's)
        again = stub.GetHistory(pb.GetHistoryRequest(game_id=game, token=keys["referee"])).events
        assert [e.text for e in again] == [e.text for e in english]


def test_a_language_not_spoken_is_refused_and_says_which_are(server: ThreadedServer) -> None:
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=2)
        keys = tokens(access)
        for call in (
            lambda: stub.GetHistory(pb.GetHistoryRequest(game_id=access.game_id, token=keys["p1"], language="fr")),
            lambda: stub.GetView(pb.GetViewRequest(game_id=access.game_id, token=keys["p1"], language="klingon")),
        ):
            with pytest.raises(grpc.RpcError) as refused:
                call()
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "choose from en, es, ja" in str(refused.value.details())
        stream = stub.Watch(pb.WatchRequest(game_id=access.game_id, token=keys["p1"], language="fr"))
        with pytest.raises(grpc.RpcError) as refused:
            next(iter(stream))
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_an_empty_language_keeps_the_one_being_spoken() -> None:
    """The web page's handler serves a call in the page's language (its Accept-Language):
    a request that names no language is told in it; one that names a language, in that."""
    from projections.i18n import speaking
    from service.rpc.server import _language

    assert _language("") == "en"
    with speaking("es"):
        assert _language("") == "es"
        assert _language("ja-JP") == "ja"


def test_a_decision_is_submitted_and_refused_in_the_language_asked_for(server: ThreadedServer) -> None:
    """SubmitDecision's ``language``: the events it returns, the next question and the view
    are told in it, and so is a refusal's message; the command is the same in every language."""
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=11)  # the seat that answers decides next
        keys = tokens(access)
        game = access.game_id
        seat = stub.GetView(pb.GetViewRequest(game_id=game, token=keys["referee"])).view.waiting_for
        decision = stub.GetView(pb.GetViewRequest(game_id=game, token=keys[seat])).view.decision
        request = pb.SubmitDecisionRequest(
            game_id=game,
            token=keys[seat],
            decision_id=decision.id,
            choice=[decision.options[0].id],
            command_id="first",
            include_view=True,
            language="ja",
        )
        done = stub.SubmitDecision(request)
        assert done.events and all(JAPANESE.search(e.text) for e in done.events), [e.text for e in done.events]
        assert JAPANESE.search(done.decision.prompt), done.decision.prompt
        assert JAPANESE.search(done.view.decision.prompt), done.view.decision.prompt
        # the same command again, asked in Spanish: the first result, told in Spanish
        request.language = "es"
        again = stub.SubmitDecision(request)
        assert again.replayed and [e.body for e in again.events] == [e.body for e in done.events]
        assert not any(JAPANESE.search(e.text) for e in again.events)
        assert any(e.text.startswith("p") and " elige " in e.text for e in again.events), [e.text for e in again.events]
        # the English history holds the same events: the language was the call's only
        english = stub.GetHistory(pb.GetHistoryRequest(game_id=game, token=keys["referee"])).events
        assert not any(JAPANESE.search(e.text) for e in english)
        # a stale answer is refused in the language asked for, and in English when none is
        stale = pb.SubmitDecisionRequest(
            game_id=game, token=keys[seat], decision_id=decision.id, choice=[decision.options[0].id], command_id="2"
        )
        refusals = {}
        for lang in ("", "es", "ja"):
            stale.language = lang
            with pytest.raises(grpc.RpcError) as refused:
                stub.SubmitDecision(stale)
            assert refused.value.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED)
            refusals[lang] = str(refused.value.details())
        assert f"decision {decision.id}" in refusals[""], refusals
        assert f"decisión {decision.id}" in refusals["es"], refusals
        assert JAPANESE.search(refusals["ja"]) and not JAPANESE.search(refusals[""]), refusals
        stale.language = "fr"
        with pytest.raises(grpc.RpcError) as refused:
            stub.SubmitDecision(stale)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "choose from en, es, ja" in str(refused.value.details())


def test_every_calls_refusal_is_said_in_the_language_it_asks_for(server: ThreadedServer) -> None:
    """A request's ``language`` says its refusal too (the service's own words, not only the
    rules'): a game id that is no UUID, a version out of range."""
    channel, stub = stub_for(server.address)
    with channel:
        access = create(stub, players=1, seed=2)
        keys = tokens(access)
        said = {}
        for lang in ("", "es", "ja"):
            with pytest.raises(grpc.RpcError) as refused:
                stub.GetHistory(pb.GetHistoryRequest(game_id="nope", token=keys["p1"], language=lang))
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            with pytest.raises(grpc.RpcError) as out_of_range:
                stub.GetView(pb.GetViewRequest(game_id=access.game_id, token=keys["p1"], version=999, language=lang))
            said[lang] = (str(refused.value.details()), str(out_of_range.value.details()))
        assert said[""] == ("game id 'nope' is not a UUID", "version 999 is out of range: the game has versions 1 to 7")
        assert said["es"] == (
            "el id de partida 'nope' no es un UUID",
            "la versión 999 está fuera de rango: la partida tiene las versiones 1 a 7",
        )
        assert all(JAPANESE.search(text) for text in said["ja"]), said["ja"]
