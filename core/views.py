from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from axes.helpers import get_cool_off
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.csrf import csrf_failure as django_csrf_failure
from django.views.decorators.csrf import csrf_exempt
from django.views.defaults import bad_request as django_bad_request

from core.errors import (
    SERVER_ERROR_MESSAGE,
    MethodNotAllowed,
    NotFound,
    PermissionDenied,
    ServerError,
    bad_request,
    database_unavailable,
    error_response,
)
from core.middleware import is_api_path

logger = logging.getLogger(__name__)


_HEALTH_METHODS = ("GET", "HEAD")


def _health_endpoint(
    view: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """GET and HEAD only; any other method gets the JSON 405 envelope with ``Allow``.

    CSRF-exempt: the endpoints change nothing, and without it a POST would meet Django's HTML
    CSRF page (a 403) instead of the 405.
    """

    @functools.wraps(view)
    def wrapper(request: HttpRequest) -> HttpResponse:
        if request.method not in _HEALTH_METHODS:
            return error_response(
                MethodNotAllowed(
                    f'Method "{request.method}" not allowed.',
                    headers={"Allow": ", ".join(_HEALTH_METHODS)},
                )
            )
        return view(request)

    return csrf_exempt(wrapper)


@_health_endpoint
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@_health_endpoint
def readyz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception:
        logger.warning("readiness: database unreachable", exc_info=True)
        checks["database"] = "unavailable"
    try:
        cache.set("readyz", "1", 5)
        checks["cache"] = "ok" if cache.get("readyz") == "1" else "unavailable"
    except Exception:
        logger.warning("readiness: cache unreachable", exc_info=True)
        checks["cache"] = "unavailable"
    ready = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks}, status=200 if ready else 503
    )


@csrf_exempt
def api_not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    """Unknown routes under the API prefixes: a JSON 404 whether or not a key was sent
    (docs/api.md, Errors)."""
    return error_response(NotFound(f"Unknown API route: {request.method} {request.path}"))


def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refuses before any view (a Host not in ALLOWED_HOSTS, ...)."""
    if is_api_path(request.path):
        return error_response(bad_request())
    return django_bad_request(request, exception)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api_path(request.path):
        return api_not_found(request)
    return render(request, "404.html", status=404)


def handler500(request: HttpRequest) -> HttpResponse:
    if is_api_path(request.path):
        # Django calls this inside its except block: a database outage raised outside a view
        # (in middleware) is still the 503 envelope.
        exc = sys.exc_info()[1]
        unavailable = database_unavailable(exc) if exc is not None else None
        if unavailable is not None:
            return error_response(unavailable)
        return error_response(ServerError(SERVER_ERROR_MESSAGE))
    return render(request, "500.html", status=500)


def _duration(delta: timedelta) -> str:
    """15 minutes, 1 hour, 1 hour 30 minutes, 45 seconds: how long a lock-out lasts."""
    seconds = max(0, round(delta.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [
        f"{count} {unit}{'' if count == 1 else 's'}"
        for count, unit in ((hours, "hour"), (minutes, "minute"), (seconds, "second"))
        if count
    ]
    return " ".join(parts) or "a moment"


def lockout(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """django-axes' answer once a login has failed too often (``AXES_LOCKOUT_CALLABLE``): a
    page saying how long the lock lasts, with the way back to the login page."""
    cool_off = get_cool_off(request)
    return render(
        request,
        "lockout.html",
        {
            "cooloff": _duration(cool_off) if cool_off else None,
            "failure_limit": settings.AXES_FAILURE_LIMIT,
        },
        status=getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429),
    )


def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """``/favicon.ico``, which browsers ask for whatever the page links: the SVG icon."""
    return HttpResponseRedirect(static("favicon.svg"))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if is_api_path(request.path):
        return error_response(PermissionDenied("CSRF verification failed."))
    return django_csrf_failure(request, reason=reason)
