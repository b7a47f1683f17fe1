"""X-Request-Id on every response and every log line (docs/api.md, Request ids): through
Django's handler (the test client and its ASGI handler) and through the chat gateway."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import socket
import threading
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from chat.gateway import ChatGateway
from core.asyncdb import DB_THREADS, on_db_threads
from core.requestid import RequestIdFilter, current_request_id
from tests.chat.helpers import streamed_body
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

pytestmark = pytest.mark.django_db

NEW_ID = re.compile(r"req_[0-9a-f]{32}")
HELLO = [{"role": "user", "content": "Hello there"}]
VALID_IDS = ["abc", "0f8fad5b-d9cb-469f-a165-70867728950e", "trace:span.1_x-Y", "x" * 128]
INVALID_IDS = ["", "x" * 129, "has space", "semi;colon", "ünïcode", "a,b", "tab\tchar"]


def _is_new_id(value: str) -> bool:
    return NEW_ID.fullmatch(value) is not None


def _on_db_threads(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    """The records written on core.asyncdb's database threads."""
    return [r for r in records if (r.threadName or "").startswith("nova-db")]


def _ids(records: list[logging.LogRecord]) -> set[str]:
    return {getattr(r, "request_id", None) or "" for r in records}


@pytest.fixture
def id_on_records(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """caplog whose records carry ``request_id`` as the configured console handler's do."""
    request_id = RequestIdFilter()
    caplog.handler.addFilter(request_id)
    yield caplog
    caplog.handler.removeFilter(request_id)


@pytest.fixture
def db_threads(transactional_db: None) -> Iterator[None]:
    """For tests whose chats run on core.asyncdb's threads: afterwards each thread closes its
    connection, which later tests without database access must not find open."""
    yield
    barrier = threading.Barrier(DB_THREADS)

    def close() -> None:
        barrier.wait(timeout=30)  # one call per thread: each waits for all the others
        connections.close_all()

    async def close_all() -> None:
        await asyncio.gather(*(on_db_threads(close)() for _ in range(DB_THREADS)))

    asyncio.run(close_all())


# --- Through Django's handler (the test client) ---


def test_every_response_gets_a_new_id(api_client: APIClient) -> None:
    first = api_client.get("/v1/models")
    second = api_client.get("/v1/models")
    assert first.status_code == second.status_code == 200
    assert _is_new_id(first["X-Request-Id"]) and _is_new_id(second["X-Request-Id"])
    assert first["X-Request-Id"] != second["X-Request-Id"]


@pytest.mark.parametrize("request_id", VALID_IDS)
def test_a_valid_caller_id_is_echoed(api_client: APIClient, request_id: str) -> None:
    response = api_client.get("/v1/models", HTTP_X_REQUEST_ID=request_id)
    assert response["X-Request-Id"] == request_id


@pytest.mark.parametrize("request_id", INVALID_IDS)
def test_an_invalid_caller_id_is_replaced(api_client: APIClient, request_id: str) -> None:
    response = api_client.get("/v1/models", HTTP_X_REQUEST_ID=request_id)
    assert response.status_code == 200
    assert _is_new_id(response["X-Request-Id"])


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [
        ("get", "/v1/models", {}, 401),  # no key
        ("get", "/v1/no-such-route", {}, 404),  # JSON 404 of an unknown API route
        ("get", "/no-such-page", {}, 404),  # the dashboard's HTML 404
        ("delete", "/v1/models", {"HTTP_AUTHORIZATION": "Bearer sk-x"}, 401),
        ("get", "/v1/models", {"HTTP_HOST": "evil.example"}, 400),  # refused Host
        ("post", "/v1/chat/completions", {"data": "{", "content_type": "application/json"}, 401),
        ("get", "/healthz", {}, 200),
    ],
)
def test_errors_and_other_pages_carry_the_id(
    method: str, path: str, kwargs: dict[str, Any], status: int
) -> None:
    response = getattr(Client(), method)(path, HTTP_X_REQUEST_ID="err-1", **kwargs)
    assert response.status_code == status
    assert response["X-Request-Id"] == "err-1"


def test_bad_request_bodies_carry_the_id(api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/chat/completions", "{", content_type="application/json", HTTP_X_REQUEST_ID="bad-1"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"
    assert response["X-Request-Id"] == "bad-1"


def test_a_stream_carries_the_id(funded_user: User, api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/chat/completions",
        {"model": "nova-local", "messages": HELLO, "stream": True},
        format="json",
        HTTP_X_REQUEST_ID="stream-1",
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["X-Request-Id"] == "stream-1"
    assert streamed_body(response).rstrip().endswith(b"data: [DONE]")


def test_a_log_line_written_during_a_chat_carries_the_id(
    funded_user: User,
    api_client: APIClient,
    fake_upstream: FakeUpstream,
    upstream_catalog: Any,
    id_on_records: pytest.LogCaptureFixture,
) -> None:
    # The provider warns about a failing upstream from the event loop running the pipeline
    # (async_to_sync's, under the test client).
    fake_upstream.script(status=500)
    response = api_client.post(
        "/v1/chat/completions",
        {"model": "fake-gpt", "messages": HELLO},
        format="json",
        HTTP_X_REQUEST_ID="chat-1",
    )
    assert response.status_code == 502
    assert response["X-Request-Id"] == "chat-1"
    warnings = [r for r in id_on_records.records if r.name == "llm.providers.openai"]
    assert warnings
    assert _ids(warnings) == {"chat-1"}


def test_the_console_log_lines_print_the_id(
    funded_user: User,
    api_client: APIClient,
    fake_upstream: FakeUpstream,
    upstream_catalog: Any,
) -> None:
    """settings.LOGGING: the console handler stamps and prints every line's request id."""
    console = next(h for h in logging.getLogger().handlers if h.name == "console")
    assert isinstance(console, logging.StreamHandler)
    fake_upstream.script(status=500)
    output = io.StringIO()
    previous = console.setStream(output)
    try:
        api_client.post(
            "/v1/chat/completions",
            {"model": "fake-gpt", "messages": HELLO},
            format="json",
            HTTP_X_REQUEST_ID="console-1",
        )
        # After the response, this thread is outside any request again.
        asyncio.run(_log_outside_a_request())
    finally:
        console.setStream(previous)
    lines = output.getvalue().splitlines()
    assert any(
        " llm.providers.openai [console-1] Upstream fake-gpt answered HTTP 500" in line
        for line in lines
    ), lines
    assert any(" tests.outside [-] no request here" in line for line in lines), lines


async def _log_outside_a_request() -> None:
    assert current_request_id() is None
    logging.getLogger("tests.outside").warning("no request here")


# --- Through ASGI: the gateway (chat POSTs) and Django's ASGI handler (the rest) ---


def _asgi(
    method: str,
    path: str,
    *,
    body: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
    host: bytes = b"testserver",
) -> dict[str, Any]:
    """One request through the application daphne serves: the chat gateway in front of
    Django's ASGI handler. Status, headers (lower-case names) and the whole body."""
    app = ChatGateway(ASGIHandler())
    sent: list[MutableMapping[str, Any]] = []
    requests = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if requests:
            return requests.pop()
        await asyncio.sleep(3600)  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", host),
            (b"content-length", str(len(body)).encode()),
            *(headers or []),
        ],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "scheme": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
    }
    asyncio.run(app(scope, receive, send))
    start = sent[0]
    return {
        "status": start["status"],
        "headers": {k.decode().lower(): v.decode() for k, v in start["headers"]},
        "body": b"".join(m.get("body", b"") for m in sent[1:]),
    }


def _chat_body(**fields: Any) -> bytes:
    return json.dumps({"model": "nova-local", "messages": HELLO, **fields}).encode()


def _auth(key: ApiKey) -> tuple[bytes, bytes]:
    return (b"authorization", f"Bearer {raw_key(key)}".encode())


JSON = (b"content-type", b"application/json")


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"body": b"{}"}, 401),  # no key
        ({"body": b"{}", "host": b"evil.example"}, 400),  # refused Host
        ({"body": b"x" * 2048}, 413),  # over the body limit
    ],
)
def test_gateway_errors_carry_the_id(settings: Any, kwargs: dict[str, Any], status: int) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    echoed = _asgi("POST", "/v1/chat/completions", headers=[(b"x-request-id", b"gw-err")], **kwargs)
    assert echoed["status"] == status
    assert json.loads(echoed["body"])["error"]
    assert echoed["headers"]["x-request-id"] == "gw-err"
    fresh = _asgi("POST", "/v1/agents/chat/completions", **kwargs)
    assert fresh["status"] == status
    assert _is_new_id(fresh["headers"]["x-request-id"])


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize(
    ("path", "status"),
    [("/v1/models", 200), ("/v1/no-such-route", 404), ("/v1/models/nope", 404)],
)
def test_django_asgi_responses_carry_the_id(user: User, path: str, status: int) -> None:
    # Transactional: Django's ASGI handler runs the view on a thread of its own.
    api_key = ApiKeyFactory.create(user=user)
    answer = _asgi("GET", path, headers=[_auth(api_key), (b"x-request-id", b"dj-1")])
    assert answer["status"] == status
    assert answer["headers"]["x-request-id"] == "dj-1"
    replaced = _asgi("GET", path, headers=[_auth(api_key), (b"x-request-id", b"bad id")])
    assert _is_new_id(replaced["headers"]["x-request-id"])


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.usefixtures("db_threads")
def test_gateway_chat_carries_the_id_to_the_database_threads(
    settings: Any,
    funded_user: User,
    id_on_records: pytest.LogCaptureFixture,
    stream: bool,
) -> None:
    """The gateway's database work runs on core.asyncdb's threads: their log lines (here the
    SQL Django logs in DEBUG) carry the request's id, the charge after the stream's end too."""
    key = ApiKeyFactory.create(user=funded_user)
    settings.DEBUG = True
    id_on_records.set_level(logging.DEBUG, logger="django.db.backends")
    answer = _asgi(
        "POST",
        "/v1/chat/completions",
        body=_chat_body(stream=stream),
        headers=[_auth(key), JSON, (b"x-request-id", b"db-thread-1")],
    )
    assert answer["status"] == 200, answer["body"]
    assert answer["headers"]["x-request-id"] == "db-thread-1"
    if stream:
        assert answer["headers"]["content-type"].startswith("text/event-stream")
        assert answer["body"].rstrip().endswith(b"data: [DONE]")
    on_db_threads = _on_db_threads(id_on_records.records)
    assert on_db_threads, "the chat's queries ran on the database threads"
    assert _ids(on_db_threads) == {"db-thread-1"}
    # The charge, the last write of the request, is among them.
    assert any("INSERT" in r.getMessage() and "ledger" in r.getMessage() for r in on_db_threads)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.usefixtures("db_threads")
def test_concurrent_gateway_chats_keep_their_own_ids(
    funded_user: User, id_on_records: pytest.LogCaptureFixture, settings: Any
) -> None:
    key = ApiKeyFactory.create(user=funded_user)
    settings.DEBUG = True
    id_on_records.set_level(logging.DEBUG, logger="django.db.backends")
    app = ChatGateway(ASGIHandler())

    async def one(request_id: bytes) -> str:
        sent: list[MutableMapping[str, Any]] = []
        body = _chat_body(stream=True)
        requests = [{"type": "http.request", "body": body}]

        async def receive() -> dict[str, Any]:
            if requests:
                return requests.pop()
            await asyncio.sleep(3600)
            raise AssertionError("unreachable")

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": "POST",
            "path": "/v1/chat/completions",
            "query_string": b"",
            "headers": [
                (b"host", b"testserver"),
                (b"content-length", str(len(body)).encode()),
                _auth(key),
                JSON,
                (b"x-request-id", request_id),
            ],
            "server": ("testserver", 80),
            "client": ("127.0.0.1", 5000),
            "scheme": "http",
        }
        await app(scope, receive, send)
        assert sent[0]["status"] == 200
        return str({k.lower(): v for k, v in sent[0]["headers"]}[b"x-request-id"].decode())

    async def both() -> list[str]:
        return list(await asyncio.gather(one(b"left"), one(b"right")))

    assert asyncio.run(both()) == ["left", "right"]
    assert _ids(_on_db_threads(id_on_records.records)) == {"left", "right"}


def test_the_next_request_in_the_same_thread_does_not_reuse_the_id(
    api_client: APIClient, user: User
) -> None:
    other = client_for(ApiKeyFactory.create(user=user))
    first = api_client.get("/v1/models", HTTP_X_REQUEST_ID="one")
    second = other.get("/v1/models")
    assert first["X-Request-Id"] == "one"
    assert _is_new_id(second["X-Request-Id"])


# --- Through a live daphne: the protocol's own refusals too ---


@pytest.fixture
def live(upstream_catalog: Path) -> Iterator[str]:
    with running_nova({"MODELS_FILE": str(upstream_catalog)}) as base_url:
        yield base_url


def _raw_exchange(base_url: str, request: bytes) -> tuple[str, dict[str, str]]:
    """Raw bytes to the server, read until it closes: the status line and headers."""
    address = urlsplit(base_url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head = received.partition(b"\r\n\r\n")[0].decode("latin-1")
    status, *lines = head.split("\r\n")
    return status, {n.lower(): v.strip() for n, _, v in (h.partition(":") for h in lines)}


@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_every_response_of_a_live_server_carries_the_id(live: str, funded_user: User) -> None:
    key = ApiKeyFactory.create(user=funded_user)
    auth = {"Authorization": f"Bearer {raw_key(key)}"}
    with httpx.Client(base_url=live, timeout=10) as client:
        for method, path, body, status in [
            ("GET", "/v1/models", None, 200),
            ("GET", "/v1/no-such-route", None, 404),
            ("POST", "/v1/chat/completions", {"messages": HELLO}, 400),
            ("POST", "/v1/chat/completions", {"model": "nova-local", "messages": HELLO}, 200),
        ]:
            echoed = client.request(
                method, path, json=body, headers={**auth, "X-Request-Id": "live-1"}
            )
            assert echoed.status_code == status, (path, echoed.text)
            assert echoed.headers["x-request-id"] == "live-1"
            fresh = client.request(method, path, json=body, headers=auth)
            assert _is_new_id(fresh.headers["x-request-id"])
        stream_body = {"model": "nova-local", "messages": HELLO, "stream": True}
        headers = {**auth, "X-Request-Id": "live-stream"}
        with client.stream("POST", "/v1/chat/completions", json=stream_body, headers=headers) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            assert r.headers["x-request-id"] == "live-stream"
            assert "".join(r.iter_text()).rstrip().endswith("data: [DONE]")
    # Refused by the HTTP parser before any header was read: a new id.
    status_line, refused = _raw_exchange(
        live, b"GET /v1/models?" + b"a" * 20_000 + b" HTTP/1.1\r\n\r\n"
    )
    assert status_line.startswith("HTTP/1.1 414")
    assert _is_new_id(refused["x-request-id"])
    # Refused by daphne after the headers were read: the caller's id.
    status_line, refused = _raw_exchange(
        live,
        b"GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        b"X-Request-Id: proto-1\r\nX-Tab: a\x0bb\r\n\r\n",
    )
    assert status_line.startswith("HTTP/1.1 400")
    assert refused["x-request-id"] == "proto-1"
