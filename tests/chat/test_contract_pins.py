"""Chat rules of docs/api.md that no other test holds down through the Django stack: the key and
the rate-limit headers on every method of a chat path, the paths themselves, the first chunk of
a stream that fails at once, and which conversations a chat may continue."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from billing.models import Balance, UsageRecord
from conversations.models import Conversation
from tests.chat.helpers import sse_events, streamed_body
from tests.conftest import FakeClock, client_for
from tests.conversations.helpers import make_conversation
from tests.factories import ApiKeyFactory
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

CHAT_PATHS = [
    f"{prefix}/{kind}chat/completions{slash}"
    for prefix in ("/v1", "/api/v1")
    for kind in ("", "agents/")
    for slash in ("", "/")
]
# One spelling of each chat endpoint under each prefix, the trailing slash on half of them.
SOME_CHAT_PATHS = [
    "/v1/chat/completions",
    "/v1/agents/chat/completions/",
    "/api/v1/chat/completions/",
    "/api/v1/agents/chat/completions",
]
HELLO = [{"role": "user", "content": "Hello"}]


def _rate_headers(response: Any) -> tuple[str, str, str]:
    return (
        response["X-RateLimit-Limit"],
        response["X-RateLimit-Remaining"],
        response["X-RateLimit-Reset"],
    )


# --- A key on every method, and the rate-limit headers with it ---


@pytest.mark.parametrize("method", ["get", "put", "delete", "options"])
@pytest.mark.parametrize("path", SOME_CHAT_PATHS)
def test_any_method_on_a_chat_path_without_a_key_is_401(
    anon_client: APIClient, path: str, method: str
) -> None:
    response = getattr(anon_client, method)(path)
    assert response.status_code == 401, response.content
    assert response["WWW-Authenticate"] == "Bearer"
    error = response.json()["error"]
    assert (error["type"], error["param"]) == ("authentication_error", None)


@pytest.mark.usefixtures("fresh_rate_window")
@pytest.mark.parametrize("path", SOME_CHAT_PATHS)
def test_a_wrong_method_with_a_key_is_405_and_counted(user: User, path: str) -> None:
    client = client_for(ApiKeyFactory.create(user=user, rpm_limit=3))
    response = client.get(path)
    assert response.status_code == 405
    assert response.json()["error"] == {
        "message": 'Method "GET" not allowed.',
        "type": "invalid_request_error",
        "param": None,
        "code": "method_not_allowed",
    }
    assert _rate_headers(response) == ("3", "2", "60")
    assert _rate_headers(client.options(path)) == ("3", "1", "60")


def test_the_schema_says_chat_needs_the_key(api_client: APIClient) -> None:
    paths = api_client.get("/api/schema/?format=json").json()["paths"]
    chat = {path: ops for path, ops in paths.items() if path.endswith("chat/completions/")}
    assert len(chat) == 4
    assert all(ops["post"].get("security") == [{"ApiKey": []}] for ops in chat.values())


@pytest.mark.usefixtures("upstream_catalog")
def test_chat_responses_count_down_the_rate_limit_then_429(
    funded_user: User, fake_upstream: FakeUpstream, fresh_rate_window: FakeClock
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, rpm_limit=3))
    fake_upstream.script(reply="Hi.", usage=(5, 2))
    plain = client.post(
        "/v1/chat/completions", {"model": "fake-gpt", "messages": HELLO}, format="json"
    )
    stream = client.post(
        "/v1/chat/completions",
        {"model": "fake-gpt", "messages": HELLO, "stream": True},
        format="json",
    )
    streamed_body(stream)
    invalid = client.post("/v1/agents/chat/completions", {"messages": HELLO}, format="json")
    assert [r.status_code for r in (plain, stream, invalid)] == [200, 200, 400]
    assert [_rate_headers(r) for r in (plain, stream, invalid)] == [
        ("3", "2", "60"),
        ("3", "1", "60"),
        ("3", "0", "60"),
    ]
    fresh_rate_window.advance(20.5)
    refused = client.post(
        "/v1/chat/completions", {"model": "fake-gpt", "messages": HELLO}, format="json"
    )
    assert refused.status_code == 429
    assert refused.json()["error"] == {
        "message": "Rate limit of 3 requests per minute exceeded for this API key.",
        "type": "rate_limit_error",
        "param": None,
        "code": "rate_limit_exceeded",
    }
    assert refused["Retry-After"] == "39"
    assert _rate_headers(refused) == ("3", "0", "39")
    assert len(fake_upstream.bodies) == 2


# --- Paths ---


@pytest.mark.parametrize("path", [p for p in CHAT_PATHS if "agents" not in p])
def test_general_chat_answers_under_both_prefixes_with_and_without_the_slash(
    funded_user: User, api_client: APIClient, path: str
) -> None:
    response = api_client.post(path, {"model": "nova-local", "messages": HELLO}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["object"], body["model"], body["persona"]) == (
        "chat.completion",
        "nova-local",
        None,
    )


# --- A stream whose provider fails before the first token ---


@pytest.mark.usefixtures("upstream_catalog")
def test_a_stream_that_fails_at_once_starts_with_the_role_and_charges_nothing(
    funded_user: User, api_key: ApiKey, api_client: APIClient, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(status=500)
    response = api_client.post(
        "/v1/chat/completions",
        {"model": "fake-gpt", "messages": HELLO, "stream": True},
        format="json",
    )
    assert response.status_code == 200
    role, error, done = sse_events(streamed_body(response))
    assert role["object"] == "chat.completion.chunk"
    assert role["choices"] == [
        {"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}
    ]
    assert set(error) == {"error"}
    assert (error["error"]["type"], error["error"]["code"]) == ("upstream_error", "upstream_error")
    assert done == "[DONE]"
    assert not UsageRecord.objects.exists()
    balance = Balance.objects.get(user=funded_user)
    assert (balance.amount, balance.reserved) == (Decimal("10"), Decimal("0"))


# --- Which conversations a chat continues ---

PERSONA_CHAT_MODES = ["agents", "personal", "api_agents"]
GENERAL_CHAT_MODES = ["chat", "api"]


def _continue(client: APIClient, conversation: Conversation, *, persona: bool) -> Any:
    body: dict[str, Any] = {"messages": HELLO, "conversation_id": conversation.pk}
    body.update({"persona_id": 1} if persona else {"model": "nova-local"})
    path = "/v1/agents/chat/completions" if persona else "/v1/chat/completions"
    return client.post(path, body, format="json")


@pytest.mark.parametrize("mode", PERSONA_CHAT_MODES + GENERAL_CHAT_MODES)
def test_persona_chat_continues_only_persona_modes_with_that_persona(
    funded_user: User, mode: str
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    conversation = make_conversation(funded_user, mode=mode)
    Conversation.objects.filter(pk=conversation.pk).update(persona_id=1)
    response = _continue(client, conversation, persona=True)
    if mode in PERSONA_CHAT_MODES:
        assert response.status_code == 200, response.content
        assert response.json()["conversation_id"] == conversation.pk
    else:
        assert response.status_code == 404
        assert response.json()["error"]["param"] == "conversation_id"


@pytest.mark.parametrize("mode", PERSONA_CHAT_MODES + GENERAL_CHAT_MODES)
def test_general_chat_continues_only_general_modes(funded_user: User, mode: str) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    conversation = make_conversation(funded_user, mode=mode)
    response = _continue(client, conversation, persona=False)
    if mode in GENERAL_CHAT_MODES:
        assert response.status_code == 200, response.content
        assert response.json()["conversation_id"] == conversation.pk
    else:
        assert response.status_code == 404
        assert response.json()["error"]["param"] == "conversation_id"
