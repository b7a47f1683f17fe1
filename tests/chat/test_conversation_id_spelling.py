"""Chat takes a conversation id the way the history API spells it (docs/conversations.md, Ids).

``GET /nova-api/v1/conversations`` lists ``"id": "conv_52"``; chat used to refuse that spelling
(and "52") with a 400 and accept only the number 52.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from billing.services import top_up
from conversations.models import Conversation, Message
from tests.conftest import client_for
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

CHAT = "/v1/agents/chat/completions"


def chat(client: APIClient, content: str, **extra: Any) -> Any:
    body = {"persona_id": 1, "messages": [{"role": "user", "content": content}], **extra}
    return client.post(CHAT, body, format="json")


@pytest.fixture
def logging_client(funded_user: User) -> APIClient:
    return client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))


def test_chat_continues_a_conversation_under_every_spelling(logging_client: APIClient) -> None:
    first = chat(logging_client, "turn 1")
    assert first.status_code == 200, first.content
    number = first.json()["conversation_id"]
    history_id = logging_client.get("/nova-api/v1/conversations").json()["data"][0]["id"]
    assert history_id == f"conv_{number}"
    for turn, spelling in enumerate((history_id, str(number), number), start=2):
        response = chat(logging_client, f"turn {turn}", conversation_id=spelling)
        assert response.status_code == 200, (spelling, response.content)
        assert response.json()["conversation_id"] == number
    assert Conversation.objects.get().pk == number
    user_turns = (
        Message.objects.filter(role="user").order_by("id").values_list("content", flat=True)
    )
    assert list(user_turns) == ["turn 1", "turn 2", "turn 3", "turn 4"]


def test_another_users_conversation_is_404_under_the_history_spelling(
    logging_client: APIClient, other_user: User
) -> None:
    top_up(user=other_user, amount="1")
    other = client_for(ApiKeyFactory.create(user=other_user, detailed_logging=True))
    theirs = chat(other, "mine").json()["conversation_id"]
    response = chat(logging_client, "steal", conversation_id=f"conv_{theirs}")
    assert response.status_code == 404
    assert response.json()["error"]["param"] == "conversation_id"
    assert not Message.objects.filter(content="steal").exists()


@pytest.mark.parametrize("spelling", ["conv_", "conv_x", "conversation_5", "conv_0", "-3", 0, 1.5])
def test_other_spellings_are_a_400_naming_the_accepted_ones(
    logging_client: APIClient, spelling: Any
) -> None:
    response = chat(logging_client, "hi", conversation_id=spelling)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["type"], error["param"]) == ("invalid_request_error", "conversation_id")
    assert '"conv_42", "42" or 42' in error["message"]
