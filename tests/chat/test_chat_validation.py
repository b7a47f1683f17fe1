"""One test per validation rule of a chat request (docs/api.md, Chat completions), and the
order of the checks (docs/api.md, Errors)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from tests.chat.helpers import make_persona
from tests.conftest import client_for
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

OK_MESSAGES = [{"role": "user", "content": "Hi"}]
PNG = "data:image/png;base64,iVBORw0KGgo="

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("persona_id missing", {"messages": OK_MESSAGES}, "persona_id"),
    ("persona_id string", {"persona_id": "1", "messages": OK_MESSAGES}, "persona_id"),
    ("persona_id boolean", {"persona_id": True, "messages": OK_MESSAGES}, "persona_id"),
    ("persona_id float", {"persona_id": 1.5, "messages": OK_MESSAGES}, "persona_id"),
    ("messages missing", {"persona_id": 1}, "messages"),
    ("messages empty", {"persona_id": 1, "messages": []}, "messages"),
    ("messages not array", {"persona_id": 1, "messages": "hi"}, "messages"),
    ("message not object", {"persona_id": 1, "messages": ["hi"]}, "messages[0]"),
    (
        "system role",
        {"persona_id": 1, "messages": [{"role": "system", "content": "x"}]},
        "messages[0].role",
    ),
    (
        "unknown role",
        {"persona_id": 1, "messages": [*OK_MESSAGES, {"role": "tool", "content": "x"}]},
        "messages[1].role",
    ),
    (
        "blank content",
        {"persona_id": 1, "messages": [{"role": "user", "content": "  "}]},
        "messages[0].content",
    ),
    (
        "content number",
        {"persona_id": 1, "messages": [{"role": "user", "content": 5}]},
        "messages[0].content",
    ),
    ("content missing", {"persona_id": 1, "messages": [{"role": "user"}]}, "messages[0].content"),
    (
        "bad part type",
        {"persona_id": 1, "messages": [{"role": "user", "content": [{"type": "audio"}]}]},
        "messages[0].content[0].type",
    ),
    (
        "blank text part",
        {
            "persona_id": 1,
            "messages": [{"role": "user", "content": [{"type": "text", "text": ""}]}],
        },
        "messages[0].content[0].text",
    ),
    (
        "image not data url",
        {
            "persona_id": 1,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
                    ],
                }
            ],
        },
        "messages[0].content[0].image_url.url",
    ),
    (
        "image bad base64",
        {
            "persona_id": 1,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": "data:image/png;base64,@@@"}}
                    ],
                }
            ],
        },
        "messages[0].content[0].image_url.url",
    ),
    (
        "image bad mime",
        {
            "persona_id": 1,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "image_url",
                            "image_url": {"url": "data:image/tiff;base64,iVBORw0KGgo="},
                        }
                    ],
                }
            ],
        },
        "messages[0].content[0].image_url.url",
    ),
    (
        "image for non-vision model",
        {
            "persona_id": 1,
            "messages": [
                {"role": "user", "content": [{"type": "image_url", "image_url": {"url": PNG}}]}
            ],
        },
        "messages",
    ),
    (
        "temperature above 2",
        {"persona_id": 1, "messages": OK_MESSAGES, "temperature": 2.1},
        "temperature",
    ),
    (
        "temperature below 0",
        {"persona_id": 1, "messages": OK_MESSAGES, "temperature": -0.1},
        "temperature",
    ),
    (
        "temperature boolean",
        {"persona_id": 1, "messages": OK_MESSAGES, "temperature": True},
        "temperature",
    ),
    (
        "temperature string",
        {"persona_id": 1, "messages": OK_MESSAGES, "temperature": "1"},
        "temperature",
    ),
    ("max_tokens zero", {"persona_id": 1, "messages": OK_MESSAGES, "max_tokens": 0}, "max_tokens"),
    (
        "max_tokens float",
        {"persona_id": 1, "messages": OK_MESSAGES, "max_tokens": 1.5},
        "max_tokens",
    ),
    ("top_k negative", {"persona_id": 1, "messages": OK_MESSAGES, "top_k": -1}, "top_k"),
    ("min_p above 1", {"persona_id": 1, "messages": OK_MESSAGES, "min_p": 1.5}, "min_p"),
    (
        "repetition_penalty zero",
        {"persona_id": 1, "messages": OK_MESSAGES, "repetition_penalty": 0},
        "repetition_penalty",
    ),
    ("seed string", {"persona_id": 1, "messages": OK_MESSAGES, "seed": "7"}, "seed"),
    ("stop empty string", {"persona_id": 1, "messages": OK_MESSAGES, "stop": ""}, "stop"),
    (
        "stop five",
        {"persona_id": 1, "messages": OK_MESSAGES, "stop": ["a", "b", "c", "d", "e"]},
        "stop",
    ),
    ("stop empty item", {"persona_id": 1, "messages": OK_MESSAGES, "stop": ["a", ""]}, "stop[1]"),
    ("stop number", {"persona_id": 1, "messages": OK_MESSAGES, "stop": 5}, "stop"),
    (
        "reasoning effort",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": {"effort": "extreme"}},
        "reasoning.effort",
    ),
    (
        "reasoning max_tokens",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": {"max_tokens": 0}},
        "reasoning.max_tokens",
    ),
    (
        "reasoning exclude",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": {"exclude": "yes"}},
        "reasoning.exclude",
    ),
    (
        "reasoning enabled",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": {"enabled": 1}},
        "reasoning.enabled",
    ),
    (
        "reasoning not object",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning": "high"},
        "reasoning",
    ),
    (
        "legacy reasoning_effort",
        {"persona_id": 1, "messages": OK_MESSAGES, "reasoning_effort": "max"},
        "reasoning_effort",
    ),
    ("stream string", {"persona_id": 1, "messages": OK_MESSAGES, "stream": "true"}, "stream"),
    (
        "include_usage",
        {"persona_id": 1, "messages": OK_MESSAGES, "stream_options": {"include_usage": 1}},
        "stream_options.include_usage",
    ),
    (
        "conversation_id not an id",
        {"persona_id": 1, "messages": OK_MESSAGES, "conversation_id": "chat-1"},
        "conversation_id",
    ),
    ("unknown model", {"persona_id": 1, "messages": OK_MESSAGES, "model": "gpt-99"}, "model"),
    ("model not string", {"persona_id": 1, "messages": OK_MESSAGES, "model": 5}, "model"),
]


@pytest.mark.parametrize(("case", "payload", "param"), CASES, ids=[c[0] for c in CASES])
def test_persona_chat_rejects_invalid_body(
    funded_user: User, api_client: APIClient, case: str, payload: dict[str, Any], param: str
) -> None:
    response = api_client.post("/v1/agents/chat/completions", payload, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param
    assert error["message"]


def test_general_chat_requires_a_model(funded_user: User, api_client: APIClient) -> None:
    response = api_client.post("/v1/chat/completions", {"messages": OK_MESSAGES}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "model"


def test_body_must_be_an_object(funded_user: User, api_client: APIClient) -> None:
    response = api_client.post("/v1/agents/chat/completions", [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"


def test_conversation_id_without_detailed_logging_is_400(
    funded_user: User, api_client: APIClient
) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "messages": OK_MESSAGES, "conversation_id": 5},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "conversation_id"


# --- Check order: 401, 429, 400, 404, 402 ---


def test_401_before_400(anon_client: APIClient) -> None:
    response = anon_client.post("/v1/agents/chat/completions", {"temperature": 9}, format="json")
    assert response.status_code == 401


@pytest.mark.usefixtures("fresh_rate_window")
def test_429_before_400(funded_user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, rpm_limit=1))
    client.post("/v1/agents/chat/completions", {}, format="json")
    response = client.post("/v1/agents/chat/completions", {"temperature": 9}, format="json")
    assert response.status_code == 429


def test_400_before_404(funded_user: User, api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 999, "messages": OK_MESSAGES, "temperature": 3},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "temperature"


def test_404_before_402(user: User, api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions", {"persona_id": 999, "messages": OK_MESSAGES}, format="json"
    )
    assert response.status_code == 404


def test_unknown_conversation_404_before_402(user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=user, detailed_logging=True))
    response = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "messages": OK_MESSAGES, "conversation_id": 999},
        format="json",
    )
    assert response.status_code == 404
    assert response.json()["error"]["param"] == "conversation_id"


def test_402_for_valid_request_at_zero_balance(user: User, api_client: APIClient) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions", {"persona_id": 1, "messages": OK_MESSAGES}, format="json"
    )
    assert response.status_code == 402


def test_image_for_explicit_non_vision_model_400_before_persona_404(
    funded_user: User, api_client: APIClient
) -> None:
    content = [{"type": "image_url", "image_url": {"url": PNG}}]
    response = api_client.post(
        "/v1/agents/chat/completions",
        {
            "persona_id": 999,
            "model": "nova-local",
            "messages": [{"role": "user", "content": content}],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "messages"


def test_private_persona_of_other_user_404_even_at_zero_balance(
    user: User, other_user: User, api_client: APIClient
) -> None:
    persona = make_persona(other_user, model="nova-local")
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona.pk, "messages": OK_MESSAGES},
        format="json",
    )
    assert response.status_code == 404
