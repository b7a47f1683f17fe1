"""The chat-completion POSTs served straight from ASGI, outside Django's request handler.

Under daphne, ``config.asgi`` puts :class:`ChatGateway` in front of Django. A POST to a
chat-completion path is answered here; every other request goes to Django unchanged.

Why: for an async view, Django's ASGI handler costs more than Nova's whole chat pipeline. Each
request gets a thread of its own (``ThreadSensitiveContext``), the request_started and
request_finished signals each cross to it, and every ``MiddlewareMixin`` middleware crosses to
it twice: about twenty thread hops per request that Bearer-key JSON never needed (README,
Performance).

What stays the same as through Django, by construction: the request object (an ``ASGIRequest``
built from the same scope and body), the pipeline (``chat.pipeline.serve``, which the Django
view at the same URL runs too), the error renderer (``core.errors.error_response``) and the edge
middleware (``settings.EDGE_MIDDLEWARE``: security headers, the HTTPS redirect, the Host check,
the rate-limit headers), run by ``core.middleware.EdgeChain`` from that one list. The body limit
is Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, enforced while reading. What differs is I/O only:
database work runs on ``core.asyncdb``'s threads, and a stream's first chunk is awaited before
the status line, so a provider that fails at once is a JSON 502/504. Skipped: the site
middleware (sessions, CSRF, login, messages, the Content-Security-Policy), URL resolution and
the request signals.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import aclosing, suppress
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse

from chat.pipeline import serve
from core.asyncdb import on_db_threads
from core.errors import request_too_large
from core.middleware import EdgeChain

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


class _Disconnected(Exception):
    pass


class ChatGateway:
    """ASGI app: chat-completion POSTs served here, everything else by ``app`` (Django)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.edge = EdgeChain()

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
        opened: list[_OpenedBody] = []

        async def view(request: HttpRequest) -> HttpResponseBase:
            if body is None:
                raise request_too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
            response = await serve(
                request, persona_required=persona_required, db=on_db_threads, committed=False
            )
            if isinstance(response, StreamingHttpResponse):
                opened.append(await _OpenedBody.of(response))
            return response

        try:
            response = await self.edge(request, view)
            with suppress(asyncio.CancelledError):
                await _send_response(response, send, opened[0] if opened else None)
        finally:
            # A stream's generator closes (and charges what it generated) however this ended:
            # sent to the end (a no-op then), the client gone, or the response replaced.
            for stream in opened:
                await stream.close()


@dataclass
class _OpenedBody:
    """A streamed body whose first chunk already arrived: it is awaited before the status line
    is sent, so an error raised before it (the provider failed at once) is answered as JSON
    rather than inside a 200 stream."""

    first: bytes | None
    rest: AsyncIterator[bytes]

    @classmethod
    async def of(cls, response: StreamingHttpResponse) -> _OpenedBody:
        chunks = aiter(response.streaming_content)  # type: ignore[arg-type]
        try:
            first = await anext(chunks)
        except StopAsyncIteration:
            first = None
        except BaseException:
            await chunks.aclose()  # type: ignore[attr-defined]
            raise
        return cls(first=first, rest=chunks)

    async def close(self) -> None:
        await self.rest.aclose()  # type: ignore[attr-defined]


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


async def _send_response(
    response: HttpResponseBase, send: Send, opened: _OpenedBody | None
) -> None:
    headers = [(name.encode("ascii"), value.encode("latin-1")) for name, value in response.items()]
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    if not isinstance(response, StreamingHttpResponse):
        await send({"type": "http.response.body", "body": response.content})  # type: ignore[attr-defined]
        return
    if opened is None:  # a streamed error page; never from the pipeline, which is opened
        opened = await _OpenedBody.of(response)
    async with aclosing(opened.rest) as rest:  # type: ignore[type-var]
        if opened.first is not None:
            await send({"type": "http.response.body", "body": opened.first, "more_body": True})
        async for part in rest:
            await send({"type": "http.response.body", "body": part, "more_body": True})
    await send({"type": "http.response.body"})
