"""JSON errors outside DRF for API paths, and the rate-limit headers on every API response."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from whitenoise.middleware import WhiteNoiseMiddleware

from core.errors import (
    DATABASE_UNAVAILABLE_MESSAGE,
    SERVER_ERROR_MESSAGE,
    ApiError,
    ServerError,
    ServiceUnavailable,
    bad_request,
    database_unavailable,
    error_response,
    is_pool_timeout,
    request_too_large,
)
from core.ratelimit import REQUEST_ATTRIBUTE

logger = logging.getLogger(__name__)

API_PREFIXES = ("/v1/", "/api/", "/nova-api/")


def is_api_path(path: str) -> bool:
    return path.startswith(API_PREFIXES) or path in ("/v1", "/api", "/nova-api")


def api_exception_response(request: HttpRequest, exception: Exception) -> JsonResponse:
    """The contract §3 envelope for an exception raised while serving an API request."""
    if isinstance(exception, ApiError):
        return error_response(exception)
    if isinstance(exception, RequestDataTooBig):
        return error_response(request_too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))
    if isinstance(exception, SuspiciousOperation):
        return error_response(bad_request())
    if is_pool_timeout(exception):
        # A 503 the client may retry. One line, with the path, no traceback: under a burst it
        # is logged for every request turned away.
        logger.warning("No database connection from the pool for %s: %s", request.path, exception)
        return error_response(ServiceUnavailable(DATABASE_UNAVAILABLE_MESSAGE))
    if (unavailable := database_unavailable(exception)) is not None:
        return error_response(unavailable)
    logger.exception("Unhandled error on %s", request.path, exc_info=exception)
    return error_response(ServerError(SERVER_ERROR_MESSAGE))


def add_api_headers(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """The rate-limit headers of this request (``core.ratelimit``), when it was counted."""
    state = getattr(request, REQUEST_ATTRIBUTE, None)
    if state is not None:
        for name, value in state.headers().items():
            response[name] = value
    return response


class ApiErrorMiddleware:
    """Sync and async capable, so async views are not pushed through a thread."""

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
        return add_api_headers(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        response = await self.get_response(request)
        return add_api_headers(request, response)

    def process_exception(self, request: HttpRequest, exception: Exception) -> JsonResponse | None:
        if not is_api_path(request.path):
            return None
        return api_exception_response(request, exception)


class StaticFilesMiddleware(WhiteNoiseMiddleware):
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
