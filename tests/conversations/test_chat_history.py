"""Chats saved by the chat endpoints, read back through the history API.

A persona's system prompt and training data stay its owner's: another user's conversation with
it stores only a system message naming it (docs/conversations.md, What is stored).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from billing.services import top_up
from tests.chat.helpers import CANARY, make_persona, sse_events, streamed_body
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

LIST = "/nova-api/v1/conversations"


def _logging_client(user: User) -> APIClient:
    return client_for(ApiKeyFactory.create(user=user, detailed_logging=True))


def _persona_chat(client: APIClient, persona_id: int, content: str = "Hello") -> dict[str, Any]:
    """A persona chat that succeeds; its response body."""
    response = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona_id, "messages": [{"role": "user", "content": content}]},
        format="json",
    )
    assert response.status_code == 200, response.content
    return dict(response.json())


def test_persona_chat_with_detailed_logging_shows_up_as_api_agents(funded_user: User) -> None:
    client = _logging_client(funded_user)
    body = _persona_chat(client, 1, "How do I write a test?")
    conversation_id = body["conversation_id"]
    assert isinstance(conversation_id, int)
    reply = body["choices"][0]["message"]["content"]

    listed = client.get(LIST).json()
    assert listed["total"] == 1
    entry = listed["data"][0]
    assert entry["id"] == f"conv_{conversation_id}"
    assert entry["mode"] == "api_agents"
    assert entry["title"] == "How do I write a test?"
    assert [m["role"] for m in entry["messages"]] == ["assistant"]
    assert entry["messages"][0]["content"] == reply
    assert entry["messages"][0]["model"] == "nova-local"
    assert client.get(LIST, {"mode": "api_agents"}).json()["total"] == 1
    assert client.get(LIST, {"mode": "api"}).json()["total"] == 0

    for path in (f"{LIST}/conv_{conversation_id}", f"{LIST}/{conversation_id}"):
        body = client.get(path).json()
        assert body["id"] == f"conv_{conversation_id}"
        assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant"]
        system, user_message, assistant = body["messages"]
        # A built-in persona is nobody's: the system message names it and holds no prompt.
        assert "Conversation with the persona" in system["content"]
        assert "model" not in system and "model" not in user_message
        assert user_message["content"] == "How do I write a test?"
        assert assistant == {**assistant, "content": reply, "model": "nova-local"}


def test_general_chat_with_detailed_logging_is_mode_api(funded_user: User) -> None:
    client = _logging_client(funded_user)
    response = client.post(
        "/v1/chat/completions",
        {"model": "nova-local", "messages": [{"role": "user", "content": "Hi"}]},
        format="json",
    )
    assert response.status_code == 200, response.content
    conversation_id = response.json()["conversation_id"]
    body = client.get(LIST, {"mode": "api"}).json()
    assert [c["id"] for c in body["data"]] == [f"conv_{conversation_id}"]
    detail = client.get(f"{LIST}/conv_{conversation_id}").json()
    assert [m["role"] for m in detail["messages"]] == ["user", "assistant"]


def test_someone_elses_persona_prompt_and_training_data_never_reach_the_history(
    funded_user: User, other_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    persona = make_persona(
        other_user,
        name="Canary keeper",
        public=True,
        prompt=f"Secret instructions {CANARY}",
        items=[
            ("knowledge", f"Secret fact {CANARY}", {}),
            ("qa_pair", f"Answer {CANARY}", {"question": f"Question {CANARY}?"}),
        ],
    )
    fake_upstream.script(reply="I can help with that.", usage=(30, 6))
    client = _logging_client(funded_user)
    conversation_id = _persona_chat(client, persona.pk, "Tell me a fact")["conversation_id"]
    # The model did see the secret (that is what a persona is for) ...
    assert CANARY in fake_upstream.bodies[-1]["messages"][0]["content"]

    # ... but the caller's history never shows it.
    listed = client.get(LIST)
    detail = client.get(f"{LIST}/conv_{conversation_id}")
    assert listed.status_code == 200 and detail.status_code == 200
    assert CANARY not in listed.content.decode()
    assert CANARY not in detail.content.decode()
    system = detail.json()["messages"][0]
    assert system["role"] == "system"
    assert "Canary keeper" in system["content"]

    # The persona's owner never sees the caller's conversation either.
    owner_client = client_for(ApiKeyFactory.create(user=other_user))
    assert owner_client.get(LIST).json()["total"] == 0
    assert owner_client.get(f"{LIST}/conv_{conversation_id}").status_code == 404


def test_own_persona_stores_its_prompt_for_its_owner(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    persona = make_persona(funded_user, prompt=f"My own prompt {CANARY}")
    fake_upstream.script(reply="Sure.", usage=(10, 2))
    client = _logging_client(funded_user)
    conversation_id = _persona_chat(client, persona.pk)["conversation_id"]
    detail = client.get(f"{LIST}/conv_{conversation_id}").json()
    assert CANARY in detail["messages"][0]["content"]


def test_chats_without_detailed_logging_leave_no_history(funded_user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user))
    assert _persona_chat(client, 1)["conversation_id"] is None
    assert client.get(LIST).json()["total"] == 0


def test_history_is_per_user_not_per_key(funded_user: User, other_user: User) -> None:
    logging_key = _logging_client(funded_user)
    plain_key = client_for(ApiKeyFactory.create(user=funded_user))
    top_up(user=other_user, amount=Decimal("1"), note="test funds")
    other = _logging_client(other_user)
    for client in (logging_key, other):
        _persona_chat(client, 1)
    assert plain_key.get(LIST).json()["total"] == 1
    assert other.get(LIST).json()["total"] == 1


WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


@pytest.mark.parametrize("stream", [False, True])
def test_a_tool_exchange_is_saved_shown_and_replayed_in_order(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any, stream: bool
) -> None:
    client = _logging_client(funded_user)
    fake_upstream.enqueue(tool_calls=[{"name": "get_weather", "arguments": '{"city": "Paris"}'}])
    first = client.post(
        "/v1/chat/completions",
        {
            "model": "fake-gpt",
            "messages": [{"role": "user", "content": "Weather in Paris?"}],
            "tools": [WEATHER_TOOL],
            "stream": stream,
        },
        format="json",
    )
    assert first.status_code == 200, first.content
    conversation_id = _conversation_id(first, stream)
    call = {
        "id": "call_fake0x0",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
    }

    fake_upstream.enqueue(reply="It is 18 degrees in Paris.")
    second = client.post(
        "/v1/chat/completions",
        {
            "model": "fake-gpt",
            "conversation_id": conversation_id,
            "messages": [{"role": "tool", "tool_call_id": "call_fake0x0", "content": "18 C"}],
            "tools": [WEATHER_TOOL],
        },
        format="json",
    )
    assert second.status_code == 200, second.content
    # The continued conversation replays the stored exchange upstream, in order.
    assert fake_upstream.bodies[-1]["messages"] == [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "content": "18 C", "tool_call_id": "call_fake0x0"},
    ]

    detail = client.get(f"{LIST}/conv_{conversation_id}").json()
    shown = [
        (m["role"], m["content"], m["tool_calls"], m["tool_call_id"]) for m in detail["messages"]
    ]
    assert shown == [
        ("user", "Weather in Paris?", None, None),
        ("assistant", "", [call], None),
        ("tool", "18 C", None, "call_fake0x0"),
        ("assistant", "It is 18 degrees in Paris.", None, None),
    ]


def _conversation_id(response: Any, stream: bool) -> int:
    if not stream:
        body = response.json()
        assert body["choices"][0]["finish_reason"] == "tool_calls"
        return int(body["conversation_id"])
    chunks = [event for event in sse_events(streamed_body(response)) if event != "[DONE]"]
    assert chunks[-1]["conversation_id"] is not None, chunks
    assert any(c["choices"] and c["choices"][0]["finish_reason"] == "tool_calls" for c in chunks)
    return int(chunks[-1]["conversation_id"])
