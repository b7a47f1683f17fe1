"""JSON errors outside DRF for API paths, and the rate-limit headers on every API response."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase, JsonResponse

from core.errors import SERVER_ERROR_MESSAGE, ApiError, ServerError, error_response
from core.ratelimit import REQUEST_ATTRIBUTE

logger = logging.getLogger(__name__)

API_PREFIXES = ("/v1/", "/api/", "/nova-api/")


def is_api_path(path: str) -> bool:
    return path.startswith(API_PREFIXES) or path in ("/v1", "/api", "/nova-api")


def _finish(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
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
        return _finish(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        response = await self.get_response(request)
        return _finish(request, response)

    def process_exception(self, request: HttpRequest, exception: Exception) -> JsonResponse | None:
        if not is_api_path(request.path):
            return None
        if isinstance(exception, ApiError):
            return error_response(exception)
        logger.exception("Unhandled error on %s", request.path, exc_info=exception)
        return error_response(ServerError(SERVER_ERROR_MESSAGE))
