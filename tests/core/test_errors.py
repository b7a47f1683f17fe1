"""Every API error is the JSON envelope, with the right status and param (docs/api.md, Errors)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.core.urls_for_tests import ERRORS

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.core.urls_for_tests")]

# Every API operation that exists: (method, path). {persona} and {item} are the caller's own
# persona and training-data item, so ownership never decides the status before the body does.
API_OPERATIONS: list[tuple[str, str]] = [
    ("get", "/v1/_probe/whoami"),
    ("get", "/nova-api/v1/conversations"),
    ("get", "/nova-api/v1/conversations/conv_1"),
    ("delete", "/nova-api/v1/conversations/conv_1"),
    ("get", "/v1/personas"),
    ("get", "/v1/personas/{persona}"),
    ("get", "/v1/personas/{persona}/training-data"),
    ("post", "/v1/personas/{persona}/training-data"),
    ("get", "/v1/personas/{persona}/training-data/{item}"),
    ("patch", "/v1/personas/{persona}/training-data/{item}"),
    ("put", "/v1/personas/{persona}/training-data/{item}"),
    ("delete", "/v1/personas/{persona}/training-data/{item}"),
    ("post", "/v1/moderation"),
    ("post", "/v1/moderations"),
    ("post", "/v1/chat/completions"),
    ("post", "/v1/agents/chat/completions"),
    ("get", "/v1/models"),
]
REAL_OPERATIONS = [op for op in API_OPERATIONS if not op[1].startswith("/v1/_probe")]
BODY_OPERATIONS = [op for op in REAL_OPERATIONS if op[0] in ("post", "patch", "put")]
_METHODS = ("get", "post", "put", "patch", "delete")


def _allowed(path: str) -> set[str]:
    return {method for method, other in API_OPERATIONS if other == path}


WRONG_METHOD_OPERATIONS = sorted(
    {(next(m for m in _METHODS if m not in _allowed(path)), path) for _, path in REAL_OPERATIONS}
)


def assert_envelope(
    response: Any, status: int, type_: str, code: str | None = None
) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"message", "type", "param", "code"}
    assert body["error"]["type"] == type_
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code
    error: dict[str, Any] = body["error"]
    return error


@pytest.mark.parametrize("prefix", ["", "/api"])
@pytest.mark.parametrize(("method", "path"), REAL_OPERATIONS)
def test_missing_key_is_401_with_bearer_challenge(
    anon_client: APIClient, method: str, path: str, prefix: str
) -> None:
    url = prefix + path.format(persona=1, item=1)
    if method in ("get", "delete"):
        response = getattr(anon_client, method)(url)
    else:
        response = getattr(anon_client, method)(url, "{}", content_type="application/json")
    error = assert_envelope(response, 401, "authentication_error")
    assert response["WWW-Authenticate"] == "Bearer"
    assert error["param"] is None


@pytest.mark.parametrize("prefix", ["", "/api"])
@pytest.mark.parametrize(("method", "path"), BODY_OPERATIONS)
def test_malformed_json_is_400_on_every_body_operation(
    funded_user: Any,
    api_client: APIClient,
    own_ids: dict[str, int],
    method: str,
    path: str,
    prefix: str,
) -> None:
    url = prefix + path.format(**own_ids)
    response = getattr(api_client, method)(url, '{"broken": ', content_type="application/json")
    error = assert_envelope(response, 400, "invalid_request_error", "invalid_json")
    assert error["param"] is None


@pytest.mark.parametrize(("method", "path"), BODY_OPERATIONS)
def test_wrong_content_type_is_415_on_every_body_operation(
    funded_user: Any, api_client: APIClient, own_ids: dict[str, int], method: str, path: str
) -> None:
    url = path.format(**own_ids)
    response = getattr(api_client, method)(url, "<xml/>", content_type="text/xml")
    assert_envelope(response, 415, "invalid_request_error", "unsupported_media_type")


@pytest.mark.parametrize(("method", "path"), WRONG_METHOD_OPERATIONS)
def test_wrong_method_is_405_on_every_path(
    api_client: APIClient, own_ids: dict[str, int], method: str, path: str
) -> None:
    response = getattr(api_client, method)(path.format(**own_ids))
    assert_envelope(response, 405, "invalid_request_error", "method_not_allowed")


@pytest.mark.parametrize(
    "header",
    [
        "Bearer sk-unknownkeyunknownkeyunknownkeyunknownkey123",
        "Bearer not-a-key",
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "sk-missing-scheme-missing-scheme-missing-scheme",
    ],
)
def test_malformed_or_unknown_key_is_401(anon_client: APIClient, header: str) -> None:
    response = anon_client.get("/v1/_probe/whoami", HTTP_AUTHORIZATION=header)
    assert_envelope(response, 401, "authentication_error")
    assert response["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("path", ["/v1/nope", "/api/v1/nope", "/nova-api/v1/nope", "/api/x", "/v1"])
def test_unknown_route_is_json_404_with_or_without_key(
    anon_client: APIClient, api_client: APIClient, path: str
) -> None:
    for client in (anon_client, api_client):
        assert_envelope(client.get(path), 404, "not_found_error", "not_found")
        assert_envelope(
            client.post(path, "{", content_type="application/json"), 404, "not_found_error"
        )


def test_malformed_json_is_400_invalid_json(api_client: APIClient) -> None:
    response = api_client.post("/v1/_probe/whoami", "{not json", content_type="application/json")
    error = assert_envelope(response, 400, "invalid_request_error", "invalid_json")
    assert error["param"] is None


def test_wrong_content_type_is_415(api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/_probe/whoami", "a=1", content_type="application/x-www-form-urlencoded"
    )
    assert_envelope(response, 415, "invalid_request_error", "unsupported_media_type")


def test_wrong_method_is_405(api_client: APIClient) -> None:
    response = api_client.delete("/v1/_probe/whoami")
    assert_envelope(response, 405, "invalid_request_error", "method_not_allowed")


def test_unhandled_exception_in_api_view_is_500_without_internals(api_client: APIClient) -> None:
    api_client.raise_request_exception = False
    response = api_client.get("/v1/_probe/boom")
    error = assert_envelope(response, 500, "server_error")
    assert "secret" not in response.content.decode()
    assert "Traceback" not in response.content.decode()
    assert error["code"] == "internal_error"


def test_unhandled_exception_in_plain_api_view_is_json_500(client: Any) -> None:
    client.raise_request_exception = False
    response = client.get("/v1/_probe/plain-boom")
    assert_envelope(response, 500, "server_error")
    assert "secret" not in response.content.decode()


@pytest.mark.parametrize(
    ("status", "type_"),
    [
        (402, "insufficient_quota"),
        (403, "permission_error"),
        (502, "upstream_error"),
        (503, "server_error"),
        (504, "upstream_error"),
    ],
)
def test_service_errors_render_the_envelope(api_client: APIClient, status: int, type_: str) -> None:
    error = assert_envelope(api_client.get(f"/v1/_probe/raise/{status}"), status, type_)
    assert error["message"] == ERRORS[status].message


def test_dashboard_404_stays_html(client: Any) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
