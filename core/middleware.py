"""The middleware: request ids, JSON errors and rate-limit headers on API paths, and the
edge chain.

``settings.MIDDLEWARE`` is ``EDGE_MIDDLEWARE`` followed by ``SITE_MIDDLEWARE``. The edge
middleware apply to every request, the chat completions that ``chat.gateway`` serves outside
Django's handler included: :class:`EdgeChain` runs exactly that list there. So a middleware that
must apply to chat (headers, host validation, redirects) goes into ``EDGE_MIDDLEWARE`` and
applies to chat without further code; the site middleware (sessions, CSRF, login, messages, the
Content-Security-Policy) serve the browser pages. docs/architecture.md, Middleware.

An edge middleware provides Django's hooks (``process_request``, ``process_response``,
``process_exception``) and does no I/O in them: :class:`EdgeChain` calls them on the event loop.
``core.apps`` checks both rules at start-up.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import Token
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.module_loading import import_string
from whitenoise.middleware import WhiteNoiseMiddleware

from core.errors import (
    DATABASE_UNAVAILABLE_MESSAGE,
    ServiceUnavailable,
    error_response,
    is_pool_timeout,
)
from core.ratelimit import REQUEST_ATTRIBUTE
from core.requestid import (
    HEADER,
    META_KEY,
    request_id_from_header,
    reset_request_id,
    set_request_id,
)

logger = logging.getLogger(__name__)

API_PREFIXES = ("/v1/", "/api/", "/nova-api/")

View = Callable[[HttpRequest], Awaitable[HttpResponseBase]]


def is_api_path(path: str) -> bool:
    return path.startswith(API_PREFIXES) or path in ("/v1", "/api", "/nova-api")


def add_api_headers(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """The rate-limit headers of this request (``core.ratelimit``), when it was counted."""
    state = getattr(request, REQUEST_ATTRIBUTE, None)
    if state is not None:
        for name, value in state.headers().items():
            response[name] = value
    return response


class RequestIdMiddleware:
    """Gives every request an id (docs/api.md, Request ids): the caller's valid
    ``X-Request-Id``, else a new one. It is ``request.request_id``, the current id for logging
    (``core.requestid``), and the ``X-Request-Id`` header of the response, whatever answered it.

    First in ``EDGE_MIDDLEWARE``, so its ``process_response`` runs last and also marks the
    answers of the middleware after it (a refused Host, the HTTPS redirect, an error).

    Under ASGI (daphne: Django's handler and ``chat.gateway`` alike) the id is set and left
    set: each request is served in an asyncio task of its own, whose context ends with it, and
    a streamed body is produced after the middleware returned, its log lines (the charge at
    its end) included. Django's sync handler (the test client) serves requests one after the
    other on one thread, so there the previous id comes back once the response is built: a
    body streamed after that logs without it rather than under a stale one.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self.__acall__(request)
        token = self._begin(request)
        try:
            return self.process_response(request, self.get_response(request))
        finally:
            reset_request_id(token)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        self._begin(request)
        response = await self.get_response(request)
        return self.process_response(request, response)

    def process_request(self, request: HttpRequest) -> None:
        self._begin(request)

    def _begin(self, request: HttpRequest) -> Token[str | None]:
        request_id = request_id_from_header(request.META.get(META_KEY))
        request.request_id = request_id  # type: ignore[attr-defined]
        return set_request_id(request_id)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response[HEADER] = request.request_id  # type: ignore[attr-defined]
        return response


class ApiErrorMiddleware:
    """API paths: any exception as the JSON error envelope, and the rate-limit headers.

    Sync and async capable, so async views are not pushed through a thread; an edge middleware
    (its hooks do no I/O).
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self.__acall__(request)
        return self.process_response(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        response = await self.get_response(request)
        return self.process_response(request, response)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        return add_api_headers(request, response)

    def process_exception(self, request: HttpRequest, exception: Exception) -> JsonResponse | None:
        if not is_api_path(request.path):
            return None
        if is_pool_timeout(exception):
            # A 503 the client may retry. One line, with the path, no traceback: under a burst
            # it is logged for every request turned away.
            logger.warning(
                "No database connection from the pool for %s: %s", request.path, exception
            )
            return error_response(ServiceUnavailable(DATABASE_UNAVAILABLE_MESSAGE))
        return error_response(exception)


def _not_a_view(request: HttpRequest) -> HttpResponseBase:
    raise RuntimeError("EdgeChain calls an edge middleware's hooks, never its get_response")


class EdgeChain:
    """``settings.EDGE_MIDDLEWARE`` around an async view, with Django's semantics: the
    ``process_request`` hooks in order until one answers, the view, the ``process_exception``
    hooks in reverse until one answers, then the ``process_response`` hooks of the middleware
    whose ``process_request`` ran, in reverse. An exception a hook raises is answered as Django
    answers it on API paths, by ``core.errors.error_response``.
    """

    def __init__(self) -> None:
        self.middleware = [import_string(path)(_not_a_view) for path in settings.EDGE_MIDDLEWARE]

    async def __call__(self, request: HttpRequest, view: View) -> HttpResponseBase:
        response: HttpResponseBase | None = None
        ran = 0
        try:
            for middleware in self.middleware:
                ran += 1
                if hasattr(middleware, "process_request"):
                    response = middleware.process_request(request)
                    if response is not None:
                        break
            if response is None:
                response = await self._view(request, view)
        except Exception as exc:
            response = error_response(exc)
        for middleware in reversed(self.middleware[:ran]):
            if hasattr(middleware, "process_response"):
                try:
                    response = middleware.process_response(request, response)
                except Exception as exc:
                    response = error_response(exc)
        return response

    async def _view(self, request: HttpRequest, view: View) -> HttpResponseBase:
        try:
            return await view(request)
        except Exception as exc:
            for middleware in reversed(self.middleware):
                if hasattr(middleware, "process_exception"):
                    answer: HttpResponseBase | None = middleware.process_exception(request, exc)
                    if answer is not None:
                        return answer
            return error_response(exc)


class StaticFilesMiddleware(WhiteNoiseMiddleware):  # type: ignore[misc]  # untyped
    """WhiteNoise, able to run in an async middleware chain.

    WhiteNoise's middleware is sync-only, and one sync-only middleware makes Django wrap the
    whole chain below it in ``async_to_sync``: under daphne every request, async views
    included, then holds a thread for its whole life. This subclass serves static files
    exactly as WhiteNoise does (the file work in a thread) and passes everything else straight
    down the async chain. Use it in ``MIDDLEWARE`` in place of
    ``whitenoise.middleware.WhiteNoiseMiddleware``.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if self.autorefresh:
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            response: HttpResponseBase = await sync_to_async(self.serve)(static_file, request)
            return response
        response = await self.get_response(request)
        return response
