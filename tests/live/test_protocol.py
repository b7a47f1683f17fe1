"""Against a real daphne process: what Twisted and daphne refuse before Django sees a request is
answered with the JSON error envelope (config/server.py; docs/api.md, Errors), status lines
carry their reason phrase, and a path ending in %0A names no resource."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from accounts.models import ApiKey
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

BODY_LIMIT = 65536


@pytest.fixture(scope="module")
def live(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    # One server for the module: none of these tests changes anything it holds in memory.
    with django_db_blocker.unblock(), running_nova({"MAX_REQUEST_BYTES": str(BODY_LIMIT)}) as url:
        yield url


@pytest.fixture
def key(db: None) -> ApiKey:
    return ApiKeyFactory.create(user=UserFactory.create(username="protocol-user"), rpm_limit=100)


def _exchange(base_url: str, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """Send raw bytes, read until the server closes: (status line, headers, body)."""
    address = urlsplit(base_url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (h.partition(":") for h in lines)}
    return status, headers, body


def _request(target: bytes = b"/v1/personas", headers: bytes = b"") -> bytes:
    return (
        b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + headers
        + b"\r\n"
    )  # fmt: skip


def _assert_json_error(
    reply: tuple[str, dict[str, str], bytes], status_line: str, code: str
) -> dict[str, Any]:
    status, headers, body = reply
    assert status == status_line, (status, body[:300])
    assert headers["content-type"] == "application/json"
    assert int(headers["content-length"]) == len(body)
    error: dict[str, Any] = json.loads(body)["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["type"] == "invalid_request_error"
    assert error["code"] == code
    assert error["param"] is None
    return error


def test_a_request_line_over_16_kib_is_414_json(live: str) -> None:
    reply = _exchange(live, _request(b"/v1/personas?q=" + b"a" * 20_000))
    error = _assert_json_error(reply, "HTTP/1.1 414 Request-URI Too Long", "request_line_too_long")
    assert error["message"] == "The request line is longer than 16384 bytes."


def test_a_header_line_over_16_kib_is_431_json(live: str) -> None:
    reply = _exchange(live, _request(headers=b"X-Big: " + b"a" * 20_000 + b"\r\n"))
    error = _assert_json_error(
        reply, "HTTP/1.1 431 Request Header Fields Too Large", "request_headers_too_large"
    )
    assert error["message"] == "The request headers are larger than 16384 bytes."


def test_headers_over_16_kib_together_are_431_json(live: str) -> None:
    many = b"".join(b"X-Part-%d: %s\r\n" % (i, b"a" * 1000) for i in range(20))
    _assert_json_error(
        _exchange(live, _request(headers=many)),
        "HTTP/1.1 431 Request Header Fields Too Large",
        "request_headers_too_large",
    )


def test_more_than_500_headers_are_431_json(live: str) -> None:
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(501))
    error = _assert_json_error(
        _exchange(live, _request(headers=many)),
        "HTTP/1.1 431 Request Header Fields Too Large",
        "request_headers_too_large",
    )
    assert error["message"] == "The request has more than 500 header fields."


@pytest.mark.parametrize(
    "request_bytes",
    [
        _request("/v1/personas/caf\u00e9".encode()),
        _request("/v1/personas?q=caf\u00e9".encode()),
        b"GET /v1/personas\r\n\r\n",  # no HTTP version
        _request(headers=b"No colon here\r\n"),
        _request(headers=b"Content-Length: -1\r\n"),
    ],
)
def test_a_request_twisted_cannot_parse_is_a_json_400(live: str, request_bytes: bytes) -> None:
    error = _assert_json_error(
        _exchange(live, request_bytes), "HTTP/1.1 400 Bad Request", "bad_request"
    )
    assert error["message"] == "The request is not valid HTTP/1.1."


def test_a_request_daphne_refuses_is_a_json_400(live: str) -> None:
    # Twisted lets a vertical tab through in a header value; daphne's basic_error refused it
    # with an HTML page.
    error = _assert_json_error(
        _exchange(live, _request(headers=b"X-Tab: a\x0bb\r\n")),
        "HTTP/1.1 400 Bad Request",
        "bad_request",
    )
    assert error["message"] == "Invalid header value."


@pytest.mark.usefixtures("fresh_wall_clock_window")
def test_a_429_status_line_carries_its_reason_phrase(live: str, db: None) -> None:
    limited = ApiKeyFactory.create(user=UserFactory.create(username="limited"), rpm_limit=1)
    headers = {"Authorization": f"Bearer {raw_key(limited)}"}
    assert httpx.get(live + "/v1/personas", headers=headers).status_code == 200
    response = httpx.get(live + "/v1/personas", headers=headers)
    assert response.status_code == 429
    assert response.reason_phrase == "Too Many Requests"
    assert response.json()["error"]["type"] == "rate_limit_error"


def test_a_persona_id_with_a_trailing_newline_is_404(live: str, key: ApiKey) -> None:
    headers = {"Authorization": f"Bearer {raw_key(key)}"}
    assert httpx.get(live + "/v1/personas/1", headers=headers).status_code == 200
    response = httpx.get(live + "/v1/personas/1%0A", headers=headers)
    assert response.status_code == 404, response.text
    assert response.json()["error"]["type"] == "not_found_error"


def test_a_chat_path_with_a_trailing_newline_is_not_chat(live: str) -> None:
    # Without a key: chat would answer 401; an unknown API route is 404 with or without one.
    response = httpx.post(live + "/v1/chat/completions%0A", json={})
    assert response.status_code == 404, response.text
    assert response.json()["error"]["type"] == "not_found_error"


def test_json_nested_5000_deep_is_400_on_the_chat_gateway(live: str, key: ApiKey) -> None:
    response = httpx.post(
        live + "/v1/chat/completions",
        content=b"[" * 5000 + b"]" * 5000,
        headers={"Authorization": f"Bearer {raw_key(key)}", "Content-Type": "application/json"},
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "invalid_json"


def test_a_body_over_the_limit_is_413_on_moderation(live: str, key: ApiKey) -> None:
    response = httpx.post(
        live + "/v1/moderation",
        json={"content": "x" * (BODY_LIMIT + 1)},
        headers={"Authorization": f"Bearer {raw_key(key)}"},
    )
    assert response.status_code == 413, response.text
    assert response.reason_phrase == "Request Entity Too Large"
    assert response.json()["error"] == {
        "message": f"The request body is larger than {BODY_LIMIT} bytes.",
        "type": "invalid_request_error",
        "param": None,
        "code": "request_too_large",
    }
