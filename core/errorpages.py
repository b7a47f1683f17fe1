"""The dashboard's styled 404 and 500 pages while DEBUG is on.

With DEBUG off Django already answers with ``core.views.handler404``/``handler500``. With DEBUG
on it shows its own pages instead: a 404 that lists every URL pattern of the site and a 500
with the traceback. Those are for a developer who asks for them (``DEBUG_PAGES=true``); without
it the dashboard shows the same pages as in production. API paths are left alone: their errors
are the JSON envelope either way (``core.middleware.ApiErrorMiddleware``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

from core.middleware import is_api_path
from core.views import handler404, handler500

# Django logs a 500 it handles on this logger; a 500 answered here is logged the same way.
request_logger = logging.getLogger("django.request")

# Answered by Django's non-debug handlers even with DEBUG on (403), or a client's mistake
# that Django reports with its own 400 page: not a 500.
_LEFT_TO_DJANGO = (PermissionDenied, BadRequest, SuspiciousOperation)


def _replaces_debug_pages(request: HttpRequest) -> bool:
    return bool(settings.DEBUG) and not settings.DEBUG_PAGES and not is_api_path(request.path)


class ErrorPagesMiddleware(MiddlewareMixin):
    """While DEBUG is on and DEBUG_PAGES off: a view's Http404 or uncaught exception, and a
    URL that matches no route, get the styled pages rather than Django's debug pages."""

    get_response: Callable[[HttpRequest], HttpResponseBase]

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not _replaces_debug_pages(request):
            return None
        if isinstance(exception, Http404):
            return handler404(request, exception)
        if isinstance(exception, _LEFT_TO_DJANGO):
            return None
        request_logger.error(
            "Internal Server Error: %s",
            request.path,
            exc_info=exception,
            extra={"request": request},
        )
        return handler500(request)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        # A path no route matches never reaches a view, so process_exception does not see it:
        # Django's debug 404 comes back here with no resolver match on the request.
        if (
            response.status_code == 404
            and getattr(request, "resolver_match", None) is None
            and _replaces_debug_pages(request)
        ):
            return handler404(request)
        return response
