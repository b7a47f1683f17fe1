"""The request id: one per request, in the ``X-Request-Id`` response header and on every log
line written while the request is served (docs/api.md, Request ids).

The id lives in a context variable, so it follows the request wherever its work goes: into
asyncio tasks (which copy the context when created), ``sync_to_async`` and ``async_to_sync``
(asgiref carries the context across), and ``core.asyncdb``'s database threads (which run each
call in a copy of the caller's context). :class:`core.middleware.RequestIdMiddleware` sets it;
:class:`RequestIdFilter` puts it on log records.
"""

from __future__ import annotations

import logging
import re
import secrets
from contextvars import ContextVar, Token

__all__ = [
    "HEADER",
    "META_KEY",
    "NO_REQUEST_ID",
    "RequestIdFilter",
    "current_request_id",
    "new_request_id",
    "request_id_from_header",
    "request_id_of",
    "reset_request_id",
    "set_request_id",
]

HEADER = "X-Request-Id"
META_KEY = "HTTP_X_REQUEST_ID"  # the header in request.META
# What a log line outside any request shows in place of an id.
NO_REQUEST_ID = "-"
# A caller's id is kept when it is 1 to 128 of these characters (enough for UUIDs, OpenAI's
# "req_..." and trace ids); anything else could break a log line or a header, and is replaced.
_VALID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

_request_id: ContextVar[str | None] = ContextVar("nova_request_id", default=None)


def new_request_id() -> str:
    """A fresh id: ``req_`` and 32 random hex digits."""
    return f"req_{secrets.token_hex(16)}"


def request_id_from_header(value: str | None) -> str:
    """The caller's ``X-Request-Id`` when it is valid, else a new id."""
    if value is not None and _VALID.fullmatch(value):
        return value
    return new_request_id()


def set_request_id(request_id: str) -> Token[str | None]:
    """Make ``request_id`` the current one, for this context and what it starts from now on;
    the token gives the previous one back (:func:`reset_request_id`)."""
    return _request_id.set(request_id)


def reset_request_id(token: Token[str | None]) -> None:
    """The id before :func:`set_request_id` gave ``token``, again."""
    _request_id.reset(token)


def current_request_id() -> str | None:
    """The id of the request being served here, or None outside any request."""
    return _request_id.get()


def request_id_of(request: object) -> str:
    """The id of ``request``: its ``request_id`` (``core.middleware.RequestIdMiddleware``
    sets it), else the current one, else "" (a request built by hand, outside any)."""
    return getattr(request, "request_id", None) or current_request_id() or ""


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record it sees (``NO_REQUEST_ID`` outside a request), for
    formats that print ``%(request_id)s``. It runs in the thread that logs, so it reads that
    thread's context: the request's, wherever the request's work runs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id() or NO_REQUEST_ID
        return True
