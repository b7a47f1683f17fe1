"""The chat-completion POSTs served straight from ASGI, outside Django's request cycle.

Under daphne, ``config.asgi`` puts :class:`ChatGateway` in front of Django. A POST to a
chat-completion path is answered here; every other request goes to Django unchanged.

Why: for an async view, Django's ASGI handler costs more than Nova's whole chat pipeline. Each
request gets a thread of its own (``ThreadSensitiveContext``), the request_started and
request_finished signals each cross to it, and every ``MiddlewareMixin`` middleware crosses to
it twice (``process_request`` and ``process_response``): about twenty thread hops per request
that Bearer-key JSON never needed (see README, Performance).

What stays the same as through Django: the request object (an ``ASGIRequest`` built from the
same scope and body), the view code (``chat.api.serve_chat``), the error envelope
(``core.middleware.api_exception_response``), the rate-limit headers, host validation, and the
security headers with the HTTPS redirect (the hooks of the ``HEADER_MIDDLEWARE`` below, which
do no I/O). What is skipped: sessions, CSRF, dashboard authentication, messages, the login
throttle and the Content-Security-Policy (none apply to a key-authenticated JSON POST), URL
resolution, and the request signals (no
database connection is opened on the event loop: the work runs on ``core.asyncdb``'s threads).
The Django view at the same URL still serves the test client and any server without this
wrapper, through the same ``serve_chat``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import aclosing, suppress
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponseBase, StreamingHttpResponse
from django.utils.module_loading import import_string

from chat.api import serve_chat
from core.errors import bad_request, error_response, request_too_large
from core.middleware import add_api_headers, api_exception_response

__all__ = ["ChatGateway"]

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[..., Awaitable[None]]

# chat/urls.py under config/urls.py's two prefixes, with or without the trailing slash.
# Group 1 is set for persona chat (persona_id required).
# "\Z", not "$": "$" also matches before a final newline ("/v1/chat/completions%0A").
CHAT_PATH = re.compile(r"^/(?:api/)?v1/(agents/)?chat/completions/?\Z")

# Middleware of settings.MIDDLEWARE whose hooks only read the request and set headers, so they
# can run on the event loop; applied in settings order. (The Content-Security-Policy governs
# HTML pages; these responses are JSON and event streams.)
HEADER_MIDDLEWARE = (
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
)


class _Disconnected(Exception):
    pass


def _unexpected_response(request: Any) -> HttpResponseBase:
    raise AssertionError("header middleware must not call the view")


class ChatGateway:
    """ASGI app: chat-completion POSTs served here, everything else by ``app`` (Django)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.header_middleware = [
            import_string(path)(_unexpected_response)
            for path in settings.MIDDLEWARE
            if path in HEADER_MIDDLEWARE
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            path = scope["path"]
            root = scope.get("root_path", "")
            if root and path.startswith(root):
                path = path[len(root) :]
            match = CHAT_PATH.match(path)
            if match is not None:
                await self.serve(scope, receive, send, persona_required=bool(match.group(1)))
                return
        await self.app(scope, receive, send)

    async def serve(
        self, scope: Scope, receive: Receive, send: Send, *, persona_required: bool
    ) -> None:
        try:
            body = await _read_body(receive)
        except _Disconnected:
            return
        request = ASGIRequest(scope, io.BytesIO(body or b""))
        processing = asyncio.create_task(
            self._respond(request, body, send, persona_required=persona_required)
        )
        listening = asyncio.create_task(_wait_for_disconnect(receive))
        # The same disconnect handling as Django's: a client that leaves cancels the request,
        # and a stream's own clean-up (charging what was generated) runs in its finally.
        await asyncio.wait((processing, listening), return_when=asyncio.FIRST_COMPLETED)
        for task in (listening, processing):
            if not task.done():
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
            elif task is processing:
                task.result()

    async def _respond(
        self, request: ASGIRequest, body: bytes | None, send: Send, *, persona_required: bool
    ) -> None:
        response = self._before(request, body)
        if response is None:
            try:
                response = await serve_chat(request, persona_required=persona_required)
            except Exception as exc:
                response = api_exception_response(request, exc)
        response = add_api_headers(request, response)
        for middleware in reversed(self.header_middleware):
            if hasattr(middleware, "process_response"):
                response = middleware.process_response(request, response)
        with suppress(asyncio.CancelledError):
            await _send_response(response, send)

    def _before(self, request: ASGIRequest, body: bytes | None) -> HttpResponseBase | None:
        """What Django checks before any view: the body size, the Host header, HTTPS."""
        if body is None:
            return error_response(request_too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))
        try:
            request.get_host()  # CommonMiddleware's check: DisallowedHost outside ALLOWED_HOSTS
        except DisallowedHost:
            return error_response(bad_request())
        for middleware in self.header_middleware:
            if hasattr(middleware, "process_request"):
                early: HttpResponseBase | None = middleware.process_request(request)
                if early is not None:  # the HTTPS redirect
                    return early
        return None


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body; None when it exceeds DATA_UPLOAD_MAX_MEMORY_SIZE."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        if message["type"] != "http.request":
            continue
        chunk = message.get("body", b"")
        size += len(chunk)
        if limit is not None and size > limit:
            # Answer at once; the rest of the body is never read into memory.
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


async def _wait_for_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _send_response(response: HttpResponseBase, send: Send) -> None:
    headers = [(name.encode("ascii"), value.encode("latin-1")) for name, value in response.items()]
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    if not isinstance(response, StreamingHttpResponse):
        await send({"type": "http.response.body", "body": response.content})  # type: ignore[attr-defined]
        return
    async with aclosing(aiter(response)) as content:  # type: ignore[type-var]
        async for part in content:
            await send({"type": "http.response.body", "body": part, "more_body": True})
    await send({"type": "http.response.body"})
