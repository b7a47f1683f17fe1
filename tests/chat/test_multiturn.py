"""Saving and continuing conversations through chat (docs/conversations.md, What is stored and
Continuing a conversation)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from conversations.models import Conversation, Message
from tests.chat.helpers import CANARY, make_persona
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db


def test_three_turns_through_one_conversation_are_stored_in_order(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    persona = make_persona(funded_user, prompt="You are Turnbot.")
    conversation_id: int | None = None
    for turn in range(1, 4):
        fake_upstream.enqueue(reply=f"answer {turn}")
        payload: dict[str, Any] = {
            "persona_id": persona.pk,
            "messages": [{"role": "user", "content": f"question {turn}"}],
        }
        if conversation_id is not None:
            payload["conversation_id"] = conversation_id
        response = client.post("/v1/agents/chat/completions", payload, format="json")
        assert response.status_code == 200, response.content
        conversation_id = conversation_id or response.json()["conversation_id"]
        assert response.json()["conversation_id"] == conversation_id
    assert conversation_id is not None
    conversation = Conversation.objects.get(pk=conversation_id)
    assert conversation.mode == "api_agents"
    assert conversation.title == "question 1"
    rows = list(Message.objects.filter(conversation=conversation).values_list("role", "content"))
    assert rows[0][0] == "system" and "You are Turnbot." in rows[0][1]
    assert rows[1:] == [
        ("user", "question 1"),
        ("assistant", "answer 1"),
        ("user", "question 2"),
        ("assistant", "answer 2"),
        ("user", "question 3"),
        ("assistant", "answer 3"),
    ]
    assert Message.objects.get(content="answer 2").model == "fake-gpt"
    # The third request carried the stored turns before the new one, after a fresh prompt.
    sent = fake_upstream.bodies[-1]["messages"]
    assert sent[0]["role"] == "system" and "You are Turnbot." in sent[0]["content"]
    assert sent[1:] == [
        {"role": "user", "content": "question 1"},
        {"role": "assistant", "content": "answer 1"},
        {"role": "user", "content": "question 2"},
        {"role": "assistant", "content": "answer 2"},
        {"role": "user", "content": "question 3"},
    ]


def test_general_chat_is_saved_as_api_mode(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    response = client.post(
        "/v1/chat/completions",
        {"model": "fake-gpt", "messages": [{"role": "user", "content": "hi"}]},
        format="json",
    )
    conversation = Conversation.objects.get(pk=response.json()["conversation_id"])
    assert conversation.mode == "api"
    assert list(conversation.messages.values_list("role", flat=True)) == ["user", "assistant"]


def test_detailed_logging_off_saves_nothing(funded_user: User, api_client: Any) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "messages": [{"role": "user", "content": "hi"}]},
        format="json",
    )
    assert response.json()["conversation_id"] is None
    assert not Conversation.objects.exists()
    assert not Message.objects.exists()


def test_another_users_conversation_is_404(funded_user: User, other_user: User) -> None:
    other = client_for(ApiKeyFactory.create(user=other_user, detailed_logging=True))
    from billing.services import top_up

    top_up(user=other_user, amount="1")
    theirs = other.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "messages": [{"role": "user", "content": "mine"}]},
        format="json",
    ).json()["conversation_id"]
    mine = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    response = mine.post(
        "/v1/agents/chat/completions",
        {
            "persona_id": 1,
            "conversation_id": theirs,
            "messages": [{"role": "user", "content": "steal"}],
        },
        format="json",
    )
    assert response.status_code == 404
    assert Message.objects.filter(content="steal").count() == 0


def test_conversation_of_another_persona_or_kind_is_404(funded_user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    first = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "messages": [{"role": "user", "content": "a"}]},
        format="json",
    ).json()["conversation_id"]
    wrong_persona = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 3, "conversation_id": first, "messages": [{"role": "user", "content": "b"}]},
        format="json",
    )
    assert wrong_persona.status_code == 404
    general = client.post(
        "/v1/chat/completions",
        {
            "model": "nova-local",
            "conversation_id": first,
            "messages": [{"role": "user", "content": "c"}],
        },
        format="json",
    )
    assert general.status_code == 404


def test_builtin_or_foreign_persona_prompt_is_never_stored(
    funded_user: User, other_user: User
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    persona = make_persona(
        other_user,
        model="nova-local",
        public=True,
        prompt=f"Hidden {CANARY}",
        items=[("knowledge", f"Secret fact {CANARY}", {})],
    )
    response = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona.pk, "messages": [{"role": "user", "content": "hello"}]},
        format="json",
    )
    system = Message.objects.get(conversation_id=response.json()["conversation_id"], role="system")
    assert CANARY not in system.content
    assert persona.name in system.content
    builtin = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "messages": [{"role": "user", "content": "hello"}]},
        format="json",
    )
    system = Message.objects.get(conversation_id=builtin.json()["conversation_id"], role="system")
    from personas.models import Persona

    assert Persona.objects.get(pk=1).system_prompt[:60] not in system.content


def test_own_persona_prompt_is_stored(funded_user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    persona = make_persona(funded_user, model="nova-local", prompt=f"Mine {CANARY}")
    response = client.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona.pk, "messages": [{"role": "user", "content": "hello"}]},
        format="json",
    )
    system = Message.objects.get(conversation_id=response.json()["conversation_id"], role="system")
    assert f"Mine {CANARY}" in system.content


def test_model_output_the_database_cannot_store_is_cleaned_before_saving(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    fake_upstream.script(reply="nul\x00here")
    response = client.post(
        "/v1/chat/completions",
        {"model": "fake-gpt", "messages": [{"role": "user", "content": "x"}]},
        format="json",
    )
    assert response.status_code == 200
    assert Message.objects.get(role="assistant").content == "nulhere"
