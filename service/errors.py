"""Errors of the game service, besides the rule errors of the domain and the application.

Each names what was wrong, and never names a card or anything else the caller may not see.
The gRPC servicer maps them to status codes (see ``service/rpc/server.py``).
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of the service's own errors. Nothing is appended when one is raised."""


class BadRequest(ServiceError, ValueError):
    """The request is malformed: a field is missing, out of range or not of its form."""


class Unauthenticated(ServiceError):
    """No token, or a token that is not one of this game's."""


class PermissionDenied(ServiceError):
    """The token is valid, but its viewer may not do this."""


class AlreadyExists(ServiceError):
    """A create request id already made a game from a different request."""


class OutOfRange(ServiceError):
    """A version or event number beyond the game's history."""
