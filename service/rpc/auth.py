"""Access tokens: one per seat, one for spectators, one for the referee.

A token is the game's id, a dot, and ``secrets.token_urlsafe(32)`` (256 random bits), so a
client needs only the token to find its game (game ids are not secret). The server keeps only its
SHA-256 hash, in the game's :class:`~service.records.SeatsAssigned` record (saved with the
game's first events, so every server process on the same database knows it), and checks
a presented token by comparing hashes with :func:`hmac.compare_digest` against every
viewer of the game (constant time, no early exit).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from uuid import UUID

from service.app import UnknownGame, Westmarch
from service.errors import Unauthenticated
from service.records import Record, SeatsAssigned, TokenRotated, seats_id

REFEREE = "referee"
SPECTATOR = "spectator"
MAX_TOKEN = 256
_CACHE = 16_384
"""Games whose token hashes are kept in memory (least recently used out first)."""
_CHECKED = 4096


def new_token(game_id: UUID) -> str:
    return f"{game_id}.{secrets.token_urlsafe(32)}"


def game_of_token(token: str) -> UUID | None:
    """The game a token was issued for (its prefix), or None if it has none."""
    prefix, dot, _ = token.partition(".")
    if not dot:
        return None
    try:
        return UUID(prefix)
    except ValueError:
        return None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def derived_token(game_id: UUID, viewer: str, request_id: str) -> str:
    """The token of ``viewer`` in a game created with ``request_id``: HMAC-SHA256 keyed by
    the request id, so a retried create can give the same tokens without storing them."""
    mac = hmac.new(request_id.encode(), f"{game_id}/{viewer}".encode(), hashlib.sha256).digest()
    return f"{game_id}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def issue(
    game_id: UUID, seats: list[str], request_id: str = "", request: str = "", unlisted: bool = False
) -> tuple[dict[str, str], Record]:
    """Tokens for every seat, the spectator and the referee (random, or derived from the
    create request's id), and the record of their hashes (and whether the game is listed)."""
    viewers = [*seats, SPECTATOR, REFEREE]
    if request_id:
        tokens = {viewer: derived_token(game_id, viewer, request_id) for viewer in viewers}
    else:
        tokens = {viewer: new_token(game_id) for viewer in viewers}
    hashes = {viewer: token_hash(token) for viewer, token in tokens.items()}
    record = SeatsAssigned(
        originator_id=seats_id(game_id), game_id=game_id, hashes=hashes, request=request, unlisted=unlisted
    )
    return tokens, Record(record)


class Tokens:
    """Checks tokens against the stored hashes. The hashes are cached with the version of
    the seats record they were read at; each check first reads the record's last version
    (one indexed read), so a token rotated through any server process is refused at once."""

    def __init__(self, app: Westmarch) -> None:
        self.app = app
        self._cache: OrderedDict[UUID, tuple[int, dict[str, str]]] = OrderedDict()
        self._lock = threading.Lock()
        self._unlisted: set[UUID] = set()
        """Of the games in ``_cache``, those kept out of the public listing."""
        self._checked: OrderedDict[tuple[UUID, int, str], str] = OrderedDict()
        """Hashes of tokens checked lately at a version of the seats record, and their
        viewers (a token's viewer changes only when the record does)."""

    def remember(self, game_id: UUID, record: Record) -> None:
        event = record.pending_event
        assert isinstance(event, SeatsAssigned)
        self._put(game_id, event.originator_version, dict(event.hashes), event.unlisted)

    def listed(self, game_id: UUID) -> bool:
        """Whether the game may be shown in the public listing: not if it was created
        unlisted; a game without tokens (made by ``westmarch new``) is listed."""
        try:
            self.current(game_id, fresh=False)
        except Unauthenticated:
            return True
        with self._lock:
            return game_id not in self._unlisted

    def hashes(self, game_id: UUID) -> dict[str, str]:
        """Each viewer's token hash, as the seats record says now."""
        return dict(self.current(game_id)[1])

    def current(self, game_id: UUID, fresh: bool = True) -> tuple[int, dict[str, str]]:
        """The seats record's last version and the hashes it holds; ``fresh=False`` trusts
        the cache (for what a rotation does not change: the viewers, whether listed)."""
        version = self.app.record_version(seats_id(game_id)) if fresh else -1
        with self._lock:
            found = self._cache.get(game_id)
            if found is not None and (found[0] == version or not fresh):
                self._cache.move_to_end(game_id)
                return found
        return self._load(game_id)

    def _load(self, game_id: UUID) -> tuple[int, dict[str, str]]:
        record = self.app.records(seats_id(game_id))
        if not record or not isinstance(record[0], SeatsAssigned):
            self.app.version(game_id)  # UnknownGame if there is no such game
            raise Unauthenticated(f"game {game_id} was not created through the service: it has no tokens")
        first = record[0]
        hashes = dict(first.hashes)
        for later in record[1:]:
            if isinstance(later, TokenRotated):
                hashes[later.viewer] = later.hash
        version = record[-1].originator_version
        self._put(game_id, version, hashes, first.unlisted)
        return version, hashes

    def _put(self, game_id: UUID, version: int, hashes: dict[str, str], unlisted: bool) -> None:
        with self._lock:
            self._cache[game_id] = (version, hashes)
            if unlisted:
                self._unlisted.add(game_id)
            while len(self._cache) > _CACHE:
                dropped, _ = self._cache.popitem(last=False)
                self._unlisted.discard(dropped)

    def viewer(self, game_id: UUID, token: str) -> str:
        """The viewer ``token`` stands for in game ``game_id``; Unauthenticated otherwise."""
        if not token:
            raise Unauthenticated("a token is required (the seat, spectator or referee token of the game)")
        version, hashes = self.current(game_id)
        if len(token) > MAX_TOKEN:
            return self._check(game_id, token, hashes)
        key = (game_id, version, token_hash(token))
        with self._lock:
            known = self._checked.get(key)
        if known is not None:
            return known
        found = self._check(game_id, token, hashes)
        with self._lock:
            self._checked[key] = found
            while len(self._checked) > _CHECKED:
                self._checked.popitem(last=False)
        return found

    def _check(self, game_id: UUID, token: str, hashes: dict[str, str]) -> str:
        if not token:
            raise Unauthenticated("a token is required (the seat, spectator or referee token of the game)")
        if len(token) > MAX_TOKEN:
            raise Unauthenticated(f"the token is not valid for game {game_id}")
        digest = token_hash(token)
        found = ""
        for viewer, stored in hashes.items():
            if hmac.compare_digest(stored, digest):
                found = viewer
        if not found:
            raise Unauthenticated(f"the token is not valid for game {game_id}")
        return found

    def forget(self, game_id: UUID) -> None:
        with self._lock:
            self._cache.pop(game_id, None)


__all__ = ["REFEREE", "SPECTATOR", "Tokens", "UnknownGame", "game_of_token", "issue", "new_token", "token_hash"]
