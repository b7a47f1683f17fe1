"""OpenAPI pieces shared by every API: the error envelope as one schema component.

Use ``responses={200: FooSerializer, **error_responses(400, 401, 404, 429)}`` in
``@extend_schema`` so each operation documents the errors it can return, all pointing at the
same ``ErrorResponse`` component.

Importing this module also registers the ``Bearer`` security scheme for
``accounts.auth.ApiKeyAuthentication``, so every key-protected operation documents it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers

__all__ = [
    "ApiKeyAuthenticationScheme",
    "ErrorBodySerializer",
    "ErrorResponseSerializer",
    "error_responses",
]


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """API keys are sent as ``Authorization: Bearer sk-...``."""

    target_class = "accounts.auth.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key from the dashboard: `Authorization: Bearer sk-...`.",
        }


class ErrorBodySerializer(serializers.Serializer[Any]):
    message = serializers.CharField(help_text="Human-readable description of the error.")
    type = serializers.CharField(
        help_text="invalid_request_error, authentication_error, insufficient_quota, "
        "permission_error, not_found_error, rate_limit_error, server_error or upstream_error."
    )
    param = serializers.CharField(
        allow_null=True,
        help_text="The offending field as a path (temperature, metadata.question, "
        "messages[0].content), or null.",
    )
    code = serializers.CharField(allow_null=True, help_text="Machine-readable error code.")


class ErrorResponseSerializer(serializers.Serializer[Any]):
    error = ErrorBodySerializer()


_ERRORS: dict[int, tuple[str, str, str, str | None, str]] = {
    # status: (description, message, type, param, code)
    400: (
        "Invalid request: a parameter is missing or invalid (param names it).",
        "content must be at most 10,000 characters (got 10,001).",
        "invalid_request_error",
        "content",
        "invalid_value",
    ),
    401: (
        "Missing, malformed, unknown or revoked API key (WWW-Authenticate: Bearer).",
        "Invalid API key.",
        "authentication_error",
        None,
        "invalid_api_key",
    ),
    402: (
        "The account balance is not positive.",
        "Your balance is too low: top up to continue.",
        "insufficient_quota",
        None,
        "insufficient_quota",
    ),
    403: (
        "The caller may see the resource but not change it.",
        "Only the persona's owner can read or change its training data.",
        "permission_error",
        None,
        "permission_denied",
    ),
    404: (
        "No such resource, or it is private to someone else.",
        "No persona with id '42'.",
        "not_found_error",
        None,
        "not_found",
    ),
    405: (
        "Method not allowed on this path.",
        'Method "DELETE" not allowed.',
        "invalid_request_error",
        None,
        "method_not_allowed",
    ),
    415: (
        "The body is not application/json.",
        "Unsupported content type: send the body as application/json.",
        "invalid_request_error",
        None,
        "unsupported_media_type",
    ),
    429: (
        "Rate limit exceeded for this API key (Retry-After gives the seconds to wait).",
        "Rate limit of 60 requests per minute exceeded for this API key.",
        "rate_limit_error",
        None,
        "rate_limit_exceeded",
    ),
    500: (
        "Unexpected server error.",
        "The server had an error while processing your request.",
        "server_error",
        None,
        "internal_error",
    ),
    503: (
        "A dependency (database or cache) is unavailable.",
        "Database unavailable.",
        "server_error",
        None,
        "service_unavailable",
    ),
    502: (
        "The model provider failed.",
        "The model provider returned HTTP 500.",
        "upstream_error",
        None,
        "upstream_error",
    ),
    504: (
        "The model provider timed out.",
        "The model provider timed out.",
        "upstream_error",
        None,
        "upstream_timeout",
    ),
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """``responses=`` entries for these statuses, each the error envelope with an example."""
    responses: dict[int, OpenApiResponse] = {}
    for status in statuses:
        description, message, type_, param, code = _ERRORS[status]
        example = {"error": {"message": message, "type": type_, "param": param, "code": code}}
        responses[status] = OpenApiResponse(
            response=ErrorResponseSerializer,
            description=description,
            examples=[
                OpenApiExample(
                    f"Error {status}", value=example, response_only=True, status_codes=[status]
                )
            ],
        )
    return responses


COMMON_ERROR_STATUSES = (401, 405, 415, 429, 500, 503)


def add_common_error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular post-processing hook: every operation documents the errors any API
    request can meet, whether or not its view listed them."""
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for status in COMMON_ERROR_STATUSES:
                if str(status) in responses:
                    continue
                description, message, type_, param, code = _ERRORS[status]
                example = {
                    "error": {"message": message, "type": type_, "param": param, "code": code}
                }
                responses[str(status)] = {
                    "description": description,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/ErrorResponse"},
                            "example": example,
                        }
                    },
                }
    return result
