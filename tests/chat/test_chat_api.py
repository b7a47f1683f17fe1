"""Persona chat and general chat, non-streamed: the response body, the models used and what is
charged (docs/api.md, Chat completions)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from billing.models import LedgerEntry, UsageRecord
from billing.selectors import get_balance
from conversations.models import Conversation, Message
from tests.chat.helpers import CANARY, make_persona
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import SECRET_IN_ERROR_BODY, FakeUpstream

pytestmark = pytest.mark.django_db

PREFIXES = ["/v1", "/api/v1"]


def ask(text: str = "Hello there") -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("slash", ["", "/"])
def test_persona_chat_with_builtin_persona_and_local_model(
    funded_user: User, api_client: APIClient, prefix: str, slash: str
) -> None:
    response = api_client.post(
        f"{prefix}/agents/chat/completions{slash}",
        {"persona_id": 1, "messages": ask("How do I write a unit test?")},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {
        "id",
        "object",
        "created",
        "model",
        "context_left",
        "context_total",
        "persona",
        "choices",
        "usage",
        "conversation_id",
    }
    assert body["id"].startswith("chatcmpl-")
    assert body["object"] == "chat.completion"
    assert body["model"] == "nova-local"
    assert body["persona"]["id"] == 1 and set(body["persona"]) == {"id", "name", "description"}
    choice = body["choices"][0]
    assert choice["index"] == 0
    assert choice["finish_reason"] == "stop"
    assert choice["message"]["role"] == "assistant"
    assert choice["message"]["content"].strip()
    assert choice["message"]["tool_calls"] is None
    assert choice["message"]["reasoning_content"] is None
    usage = body["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert body["context_total"] == 8192
    assert body["context_left"] == 8192 - usage["total_tokens"]
    assert body["conversation_id"] is None  # Detailed Logging is off by default


def test_upstream_receives_sampling_fields_and_persona_prompt(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    persona = make_persona(
        funded_user,
        prompt="You are Ada, a compiler expert.",
        items=[("qa_pair", "Use -O2 for release builds.", {"question": "Which flag for release?"})],
    )
    fake_upstream.script(reply="Use -O2.", usage=(40, 5))
    payload = {
        "persona_id": persona.pk,
        "messages": ask("Which flag for release?"),
        "temperature": 0.3,
        "max_tokens": 50,
        "top_k": 40,
        "min_p": 0.05,
        "repetition_penalty": 1.1,
        "seed": 7,
        "stop": ["END"],
        "reasoning": {"effort": "high", "max_tokens": 100},
        "some_unknown_field": "ignored",
    }
    response = api_client.post("/v1/agents/chat/completions", payload, format="json")
    assert response.status_code == 200, response.content
    sent = fake_upstream.bodies[-1]
    assert sent["model"] == "fake"
    assert sent["temperature"] == 0.3
    assert sent["max_tokens"] == 50
    assert sent["top_k"] == 40
    assert sent["min_p"] == 0.05
    assert sent["repetition_penalty"] == 1.1
    assert sent["seed"] == 7
    assert sent["stop"] == ["END"]
    assert sent["reasoning"] == {"effort": "high", "max_tokens": 100}
    assert "some_unknown_field" not in sent and "persona_id" not in sent
    assert sent["messages"][0]["role"] == "system"
    assert "You are Ada, a compiler expert." in sent["messages"][0]["content"]
    assert "Use -O2 for release builds." in sent["messages"][0]["content"]
    assert "Which flag for release?" in sent["messages"][0]["content"]
    assert sent["messages"][1:] == [{"role": "user", "content": "Which flag for release?"}]
    assert fake_upstream.requests[-1].headers["authorization"] == "Bearer sk-upstream-test-key"
    body = response.json()
    assert body["model"] == "fake-gpt"
    assert body["usage"] == {
        "prompt_tokens": 40,
        "completion_tokens": 5,
        "total_tokens": 45,
        "cost": "0.00005000",  # 40 x $1/M + 5 x $2/M
    }
    assert body["choices"][0]["message"]["content"] == "Use -O2."


def test_fields_not_given_are_not_sent_upstream_but_persona_temperature_is(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    persona = make_persona(funded_user)
    api_client.post(
        "/v1/agents/chat/completions", {"persona_id": persona.pk, "messages": ask()}, format="json"
    )
    sent = fake_upstream.bodies[-1]
    assert sent["temperature"] == 0.5  # the persona's default
    for name in ("max_tokens", "top_k", "min_p", "repetition_penalty", "seed", "stop", "reasoning"):
        assert name not in sent


def test_reasoning_effort_is_converted_and_reasoning_mapped_back(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    fake_upstream.script(reply="42", reasoning="thinking hard", reasoning_field="reasoning")
    response = api_client.post(
        "/v1/chat/completions",
        {"model": "fake-gpt", "messages": ask(), "reasoning_effort": "low"},
        format="json",
    )
    assert fake_upstream.bodies[-1]["reasoning"] == {"effort": "low"}
    assert "reasoning_effort" not in fake_upstream.bodies[-1]
    assert response.json()["choices"][0]["message"]["reasoning_content"] == "thinking hard"
    assert response.json()["persona"] is None


def test_reasoning_exclude_hides_reasoning(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    fake_upstream.script(reply="42", reasoning="secret chain")
    response = api_client.post(
        "/v1/chat/completions",
        {"model": "fake-gpt", "messages": ask(), "reasoning": {"exclude": True}},
        format="json",
    )
    assert response.json()["choices"][0]["message"]["reasoning_content"] is None


def test_general_chat_accepts_system_and_developer_roles(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    messages = [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
    ]
    response = api_client.post(
        "/v1/chat/completions", {"model": "fake-gpt", "messages": messages}, format="json"
    )
    assert response.status_code == 200
    assert fake_upstream.bodies[-1]["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
    ]


def test_charge_is_the_exact_catalog_cost(
    funded_user: User,
    api_key: ApiKey,
    api_client: APIClient,
    fake_upstream: FakeUpstream,
    upstream_catalog: Any,
) -> None:
    fake_upstream.script(reply="ok", usage=(1234, 567))
    api_client.post(
        "/v1/chat/completions", {"model": "fake-text", "messages": ask()}, format="json"
    )
    # 1234 x $3/M + 567 x $15/M = 0.003702 + 0.008505
    expected = Decimal("0.01220700")
    usage = UsageRecord.objects.get()
    assert usage.cost == expected
    assert (usage.prompt_tokens, usage.completion_tokens) == (1234, 567)
    assert usage.api_key == api_key and usage.model_id == "fake-text"
    assert get_balance(funded_user) == Decimal("10") - expected
    assert LedgerEntry.objects.get(kind="charge").amount == -expected


def test_zero_balance_is_402_without_calling_upstream(
    user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    response = api_client.post(
        "/v1/chat/completions", {"model": "fake-gpt", "messages": ask()}, format="json"
    )
    assert response.status_code == 402
    assert response.json()["error"]["type"] == "insufficient_quota"
    assert fake_upstream.bodies == []
    assert not UsageRecord.objects.exists()


@pytest.mark.parametrize(
    ("script", "status", "code"),
    [
        ({"status": 500}, 502, "upstream_error"),
        ({"raw_body": "<html>not json</html>"}, 502, "upstream_error"),
        ({"hang": 5}, 504, "upstream_timeout"),
    ],
)
def test_upstream_failures_are_502_504_and_charge_nothing(
    funded_user: User,
    api_client: APIClient,
    fake_upstream: FakeUpstream,
    upstream_catalog: Any,
    script: dict[str, Any],
    status: int,
    code: str,
) -> None:
    key = ApiKeyFactory.create(user=funded_user, detailed_logging=True)
    fake_upstream.script(**script)
    response = client_for(key).post(
        "/v1/chat/completions", {"model": "fake-gpt", "messages": ask()}, format="json"
    )
    assert response.status_code == status
    error = response.json()["error"]
    assert error["type"] == "upstream_error" and error["code"] == code
    assert SECRET_IN_ERROR_BODY not in response.content.decode()
    assert "sk-upstream-test-key" not in response.content.decode()
    assert not UsageRecord.objects.exists()
    assert not Conversation.objects.exists()
    assert get_balance(funded_user) == Decimal("10")


def test_upstream_429_is_a_429_with_retry_after_and_charges_nothing(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    # An upstream rate limit that outlasts the retries keeps its meaning (docs/api.md, Errors).
    fake_upstream.script(status=429)
    response = api_client.post(
        "/v1/chat/completions", {"model": "fake-gpt", "messages": ask()}, format="json"
    )
    assert response.status_code == 429
    assert response.json()["error"]["type"] == "rate_limit_error"
    assert int(response["Retry-After"]) >= 1
    assert SECRET_IN_ERROR_BODY not in response.content.decode()
    assert not UsageRecord.objects.exists()
    assert get_balance(funded_user) == Decimal("10")


def test_private_persona_of_another_user_is_404_and_never_leaks(
    funded_user: User, api_client: APIClient, other_user: User
) -> None:
    persona = make_persona(
        other_user,
        model="nova-local",
        prompt=f"Secret {CANARY}",
        items=[("text", f"hidden {CANARY}", {})],
    )
    for prefix in PREFIXES:
        response = api_client.post(
            f"{prefix}/agents/chat/completions",
            {"persona_id": persona.pk, "messages": ask(CANARY)},
            format="json",
        )
        assert response.status_code == 404
        assert response.json()["error"]["type"] == "not_found_error"
        assert CANARY not in response.content.decode().replace(f'"{CANARY}"', "")


def test_public_persona_of_another_user_is_usable(
    funded_user: User, api_client: APIClient, other_user: User
) -> None:
    persona = make_persona(other_user, model="nova-local", public=True)
    response = api_client.post(
        "/v1/agents/chat/completions", {"persona_id": persona.pk, "messages": ask()}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["persona"]["id"] == persona.pk


def test_general_chat_with_persona_id_is_persona_chat(
    funded_user: User, api_client: APIClient
) -> None:
    response = api_client.post(
        "/v1/chat/completions", {"persona_id": 1, "messages": ask()}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["persona"]["id"] == 1
    bad = api_client.post(
        "/v1/chat/completions",
        {"persona_id": 1, "messages": [{"role": "system", "content": "x"}]},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["param"] == "messages[0].role"


def test_models_list(api_client: APIClient, upstream_catalog: Any) -> None:
    for path in ("/v1/models", "/api/v1/models/", "/v1/agents/models"):
        body = api_client.get(path).json()
        assert body["object"] == "list"
        by_id = {m["id"]: m for m in body["data"]}
        assert by_id["fake-gpt"] == {
            "id": "fake-gpt",
            "object": "model",
            "context_window": 8192,
            "pricing": {"input_per_mtok": "1.00", "output_per_mtok": "2.00", "currency": "USD"},
            "vision": True,
            "reasoning": True,
            "tools": True,
            "structured_outputs": True,
            "created": 0,
            "owned_by": "nova",
        }
        catalog = ["nova-local", "fake-gpt", "fake-text"]
        if "/agents/" in path:  # the personas the caller may use follow the catalog
            assert list(by_id)[:3] == catalog
            assert all(model_id.startswith("persona/") for model_id in list(by_id)[3:])
        else:
            assert list(by_id) == catalog


def test_image_parts_are_sent_to_vision_models_and_stored_as_placeholders(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    image = "data:image/png;base64,iVBORw0KGgo="
    content = [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": image}},
    ]
    response = client.post(
        "/v1/chat/completions",
        {"model": "fake-gpt", "messages": [{"role": "user", "content": content}]},
        format="json",
    )
    assert response.status_code == 200
    assert fake_upstream.bodies[-1]["messages"][-1]["content"][1]["image_url"]["url"] == image
    stored = Message.objects.get(role="user").content
    assert "iVBORw0KGgo" not in stored and "[image]" in stored
