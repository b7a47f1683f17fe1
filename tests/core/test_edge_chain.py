"""The edge middleware are one list, applied to Django's views and to the chat POSTs the ASGI
gateway serves outside Django's handler (docs/architecture.md, Middleware)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from typing import Any

import pytest
from django.conf import settings
from django.core.checks import Error
from django.http import HttpRequest, HttpResponseBase
from django.test import Client, override_settings

from chat.gateway import ChatGateway
from core.apps import check_edge_middleware

STAMP = "tests.core.test_edge_chain.StampMiddleware"


class StampMiddleware:
    """A middleware an operator might add: it marks every response."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.process_response(request, self.get_response(request))

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response["X-Edge-Stamp"] = request.method or ""
        return response


def _with_stamp() -> Any:
    edge = [*settings.EDGE_MIDDLEWARE, STAMP]
    return override_settings(EDGE_MIDDLEWARE=edge, MIDDLEWARE=[*edge, *settings.SITE_MIDDLEWARE])


async def _django_must_not_serve(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("the gateway passed a chat POST to Django")


def _gateway_post(path: str, body: bytes, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """One POST through ChatGateway as daphne would call it: status, headers and body."""
    gateway = ChatGateway(_django_must_not_serve)
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
        "method": "POST",
        "path": path,
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), *headers],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "scheme": "http",
    }
    asyncio.run(gateway(scope, receive, send))
    start = sent[0]
    return {
        "status": start["status"],
        "headers": {k.decode().lower(): v.decode() for k, v in start["headers"]},
        "body": b"".join(m.get("body", b"") for m in sent[1:]),
    }


def test_an_edge_middleware_applies_to_chat_served_by_the_gateway() -> None:
    with _with_stamp():
        answer = _gateway_post("/v1/chat/completions", b"{}", [])
    assert answer["status"] == 401
    assert answer["headers"]["x-edge-stamp"] == "POST"
    # The other edge middleware too, from the same list: security headers.
    assert answer["headers"]["x-content-type-options"] == "nosniff"
    assert answer["headers"]["x-frame-options"] == "DENY"
    assert json.loads(answer["body"])["error"]["code"] == "missing_api_key"


def test_without_it_listed_the_gateway_does_not_apply_it() -> None:
    answer = _gateway_post("/v1/chat/completions", b"{}", [])
    assert answer["status"] == 401
    assert "x-edge-stamp" not in answer["headers"]


@pytest.mark.django_db
def test_the_same_edge_middleware_applies_to_chat_through_django() -> None:
    with _with_stamp():
        response = Client().post("/v1/chat/completions", {}, content_type="application/json")
    assert response.status_code == 401
    assert response["X-Edge-Stamp"] == "POST"


def test_a_bad_host_is_the_json_400_through_the_gateway() -> None:
    gateway_answer = _gateway_post_with_host(b"evil.example")
    assert gateway_answer["status"] == 400
    assert json.loads(gateway_answer["body"])["error"]["code"] == "bad_request"


def _gateway_post_with_host(host: bytes) -> dict[str, Any]:
    gateway = ChatGateway(_django_must_not_serve)
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/v1/chat/completions",
        "query_string": b"",
        "headers": [(b"host", host)],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "scheme": "http",
    }
    asyncio.run(gateway(scope, receive, send))
    return {"status": sent[0]["status"], "body": b"".join(m.get("body", b"") for m in sent[1:])}


def test_middleware_listed_outside_the_two_groups_fails_the_system_check() -> None:
    assert check_edge_middleware(None) == []
    with override_settings(MIDDLEWARE=[STAMP, *settings.MIDDLEWARE]):
        errors = check_edge_middleware(None)
    assert [e.id for e in errors] == ["core.E001"]
    assert all(isinstance(e, Error) for e in errors)
