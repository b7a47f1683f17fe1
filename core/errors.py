"""Nova's one error vocabulary and its JSON envelope (docs/api.md, Errors).

Services raise these exceptions; the chat gateway, DRF views, plain views, the middleware and
the 400/404/500 handlers all render them through :func:`error_response`, so every API error
has the same shape: ``{"error": {"message", "type", "param", "code"}}``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponseBase, JsonResponse
from psycopg_pool import PoolTimeout
from rest_framework import exceptions as drf_exceptions

logger = logging.getLogger(__name__)

SERVER_ERROR_MESSAGE = "The server had an error while processing your request."
DATABASE_UNAVAILABLE_MESSAGE = "The database is unavailable: try again shortly."


class ErrorBody(TypedDict):
    message: str
    type: str
    param: str | None
    code: str | None


class ErrorEnvelope(TypedDict):
    error: ErrorBody


class ApiError(Exception):
    status = 400
    type = "invalid_request_error"
    code: str | None = "invalid_value"

    def __init__(
        self,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        if code is not None:
            self.code = code
        self.headers: dict[str, str] = dict(headers or {})

    def envelope(self) -> ErrorEnvelope:
        return envelope(self.message, type=self.type, param=self.param, code=self.code)


class InvalidRequest(ApiError):
    pass


class AuthenticationError(ApiError):
    status = 401
    type = "authentication_error"
    code = "invalid_api_key"

    def __init__(self, message: str = "Invalid API key.", **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.headers.setdefault("WWW-Authenticate", "Bearer")


class InsufficientQuota(ApiError):
    status = 402
    type = "insufficient_quota"
    code = "insufficient_quota"


class PermissionDenied(ApiError):
    status = 403
    type = "permission_error"
    code = "permission_denied"


class NotFound(ApiError):
    status = 404
    type = "not_found_error"
    code = "not_found"


class MethodNotAllowed(ApiError):
    status = 405
    code = "method_not_allowed"


class UnsupportedMediaType(ApiError):
    status = 415
    code = "unsupported_media_type"


class PayloadTooLarge(ApiError):
    status = 413
    code = "request_too_large"


class UriTooLong(ApiError):
    """A request line longer than the server reads (``config.server``)."""

    status = 414
    code = "request_line_too_long"


class HeaderFieldsTooLarge(ApiError):
    """Request headers over the server's size or count limit (``config.server``)."""

    status = 431
    code = "request_headers_too_large"


class RateLimited(ApiError):
    status = 429
    type = "rate_limit_error"
    code = "rate_limit_exceeded"

    def __init__(self, message: str, *, retry_after: int, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.headers.setdefault("Retry-After", str(max(1, int(retry_after))))


class ServerError(ApiError):
    status = 500
    type = "server_error"
    code = "internal_error"


class ServiceUnavailable(ApiError):
    status = 503
    type = "server_error"
    code = "service_unavailable"


class UpstreamError(ApiError):
    status = 502
    type = "upstream_error"
    code = "upstream_error"


class UpstreamTimeout(UpstreamError):
    status = 504
    code = "upstream_timeout"


def request_too_large(limit: int) -> PayloadTooLarge:
    """A body over DATA_UPLOAD_MAX_MEMORY_SIZE (``limit`` bytes)."""
    return PayloadTooLarge(f"The request body is larger than {limit} bytes.")


def bad_request() -> InvalidRequest:
    """A request Django refuses before any view (SuspiciousOperation: a bad Host, ...)."""
    return InvalidRequest("Bad request.", code="bad_request")


# Code points no UTF-8 encoder accepts: a JSON string escape such as "\\ud800" decodes to one.
_SURROGATES = re.compile("[\ud800-\udfff]")


def _renderable(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD: messages and params echo what the
    client sent, and DRF's JSONRenderer writes UTF-8, which cannot encode them (a 500)."""
    return _SURROGATES.sub("\ufffd", str(text))


def envelope(
    message: str, *, type: str, param: str | None = None, code: str | None = None
) -> ErrorEnvelope:
    """The error body. Every error response is built here, so none fails to render."""
    return {
        "error": {
            "message": _renderable(message),
            "type": type,
            "param": None if param is None else _renderable(param),
            "code": code,
        }
    }


def error_response(error: ApiError | BaseException) -> JsonResponse:
    """The one renderer of API errors: the envelope of ``error`` (an ApiError, or any raised
    exception, translated by :func:`api_error`) as compact UTF-8 JSON, with its headers.

    Used by the chat gateway, the middleware, the DRF exception handler and the 400/404/500
    handlers, so every API error has the same body and headers wherever it was raised.
    """
    if not isinstance(error, ApiError):
        error = api_error(error)
    response = JsonResponse(
        error.envelope(),
        status=error.status,
        json_dumps_params={"separators": (",", ":"), "ensure_ascii": False},
    )
    for name, value in error.headers.items():
        response[name] = value
    return response


def api_error(exc: BaseException) -> ApiError:
    """The ApiError a raised exception is answered with; an unknown one is a logged 500."""
    error = known_error(exc)
    if error is None:
        logger.exception("Unhandled error while serving an API request", exc_info=exc)
        return ServerError(SERVER_ERROR_MESSAGE)
    return error


def answered_error(exc: BaseException) -> ApiError:
    """:func:`api_error` without logging: what the client is (or would be) answered with for
    ``exc``, for a record of the request (the renderer logs unknown errors)."""
    return known_error(exc) or ServerError(SERVER_ERROR_MESSAGE)


def _first_error(detail: Any, path: str = "") -> tuple[str | None, str, str | None]:
    """Walk DRF's nested error detail to its first leaf: (param path, message, code)."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            if key == "non_field_errors":
                _, message, code = _first_error(value, "")
                return (path or None), message, code
            if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
                child = f"{path}[{key}]"
            else:
                child = f"{path}.{key}" if path else str(key)
            return _first_error(value, child)
        return (path or None), "Invalid request.", "invalid_value"
    if isinstance(detail, Sequence) and not isinstance(detail, str):
        for index, value in enumerate(detail):
            if isinstance(value, Mapping | list) and value:
                return _first_error(value, f"{path}[{index}]")
            if isinstance(value, Mapping | list):
                continue
            return _first_error(value, path)
        return (path or None), "Invalid request.", "invalid_value"
    code = getattr(detail, "code", None)
    return (path or None), str(detail), _normalise_code(code)


_CODE_MAP = {
    "required": "missing_required_parameter",
    "null": "invalid_value",
    "blank": "invalid_value",
    "invalid": "invalid_value",
    "max_length": "invalid_value",
    "min_length": "invalid_value",
    "max_value": "invalid_value",
    "min_value": "invalid_value",
    "invalid_choice": "invalid_value",
    "not_a_list": "invalid_type",
    "not_a_dict": "invalid_type",
    "empty": "invalid_value",
    "does_not_exist": "invalid_value",
    "incorrect_type": "invalid_type",
}


def _normalise_code(code: str | None) -> str:
    if not code:
        return "invalid_value"
    return _CODE_MAP.get(code, code)


def is_pool_timeout(exc: BaseException) -> bool:
    """No pool connection within DB_POOL_TIMEOUT (every one busy, or the database down), raw
    or as Django raises it: its OperationalError caused by the pool's."""
    return isinstance(exc, PoolTimeout) or isinstance(exc.__cause__, PoolTimeout)


def database_unavailable(exc: BaseException) -> ServiceUnavailable | None:
    """A lost or refused database connection is a 503 the client may retry, not a 500.

    Django wraps the driver's connection failures (refused, reset, timed out, server gone)
    as OperationalError or InterfaceError; the message is fixed so no host or DSN leaks.
    """
    if is_pool_timeout(exc):
        # One line, no traceback: under a burst it is logged for every request turned away.
        logger.warning("No database connection from the pool: %s", exc)
        return ServiceUnavailable(DATABASE_UNAVAILABLE_MESSAGE)
    if not isinstance(exc, OperationalError | InterfaceError):
        return None
    logger.error("Database unavailable: %s", exc.__class__.__name__, exc_info=exc)
    return ServiceUnavailable(DATABASE_UNAVAILABLE_MESSAGE)


def known_error(exc: BaseException) -> ApiError | None:
    """Translate DRF's and Django's exceptions into ours; None for unknown ones."""
    if isinstance(exc, ApiError):
        return exc
    if (unavailable := database_unavailable(exc)) is not None:
        return unavailable
    if isinstance(exc, RequestDataTooBig):
        # Raised by request.body past DATA_UPLOAD_MAX_MEMORY_SIZE.
        return request_too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exc, SuspiciousOperation):
        # A Host outside ALLOWED_HOSTS and the like: Django refuses it before any view.
        return bad_request()
    if isinstance(exc, drf_exceptions.ValidationError):
        param, message, code = _first_error(exc.detail)
        if param and not message.lower().startswith(param.split(".")[-1].split("[")[0].lower()):
            message = f"{param}: {message}"
        return InvalidRequest(message, param=param, code=code)
    if isinstance(exc, drf_exceptions.ParseError):
        return InvalidRequest(
            "The request body is not valid JSON.", code="invalid_json", param=None
        )
    if isinstance(exc, drf_exceptions.UnsupportedMediaType):
        return UnsupportedMediaType(
            "Unsupported content type: send the body as application/json.",
            param=None,
        )
    if isinstance(exc, drf_exceptions.MethodNotAllowed):
        return MethodNotAllowed(str(exc.detail))
    if isinstance(exc, drf_exceptions.NotAuthenticated):
        return AuthenticationError(
            "Missing API key: send it as 'Authorization: Bearer sk-...'.",
            code="missing_api_key",
        )
    if isinstance(exc, drf_exceptions.AuthenticationFailed):
        return AuthenticationError(str(exc.detail))
    if isinstance(exc, drf_exceptions.PermissionDenied):
        return PermissionDenied(str(exc.detail))
    if isinstance(exc, drf_exceptions.NotFound | Http404):
        return NotFound("Not found.")
    if isinstance(exc, drf_exceptions.Throttled):
        return RateLimited("Rate limit exceeded.", retry_after=int(getattr(exc, "wait", None) or 1))
    if isinstance(exc, drf_exceptions.APIException):
        error = ApiError(str(exc.detail), code=exc.default_code)
        error.status = exc.status_code
        if exc.status_code >= 500:
            return ServerError(SERVER_ERROR_MESSAGE)
        return error
    return None


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> HttpResponseBase:
    """DRF EXCEPTION_HANDLER: DRF's own handling first (rollback, headers), then the envelope."""
    # Imported here: rest_framework.views imports the authentication classes, which import us.
    from rest_framework.views import exception_handler as drf_exception_handler
    from rest_framework.views import set_rollback

    drf_response = drf_exception_handler(exc, dict(context))
    set_rollback()
    response = error_response(exc)
    if drf_response is not None:
        for name in ("WWW-Authenticate", "Retry-After", "Allow"):
            if name in drf_response and name not in response:
                response[name] = drf_response[name]
    return response
