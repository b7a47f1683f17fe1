"""The conversation a chat continues, and the history it sends to the model."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from conversations.models import GENERAL_MODES, PERSONA_MODES, Conversation
from conversations.selectors import continued_conversation, conversation_history
from core.errors import NotFound
from tests.conversations.helpers import (
    TOOL_EXCHANGE_HISTORY,
    make_conversation,
    save_tool_exchange,
    weather_call,
)
from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db


def _persona_conversation(user: User, persona_id: int, mode: str) -> Conversation:
    conversation = make_conversation(user, mode=mode)
    Conversation.objects.filter(pk=conversation.pk).update(persona_id=persona_id)
    return conversation


def _assert_not_found(user: User, conversation_id: int, persona_id: int | None) -> None:
    with pytest.raises(NotFound) as raised:
        continued_conversation(user=user, conversation_id=conversation_id, persona_id=persona_id)
    assert raised.value.status == 404
    assert raised.value.param == "conversation_id"
    assert raised.value.message == f"Conversation {conversation_id} not found."


@pytest.mark.parametrize("mode", GENERAL_MODES)
def test_a_chat_without_persona_continues_a_general_conversation(user: User, mode: str) -> None:
    conversation = make_conversation(user, mode=mode)
    found = continued_conversation(user=user, conversation_id=conversation.pk, persona_id=None)
    assert found.pk == conversation.pk
    assert (found.mode, found.persona_id, found.user_id) == (mode, None, user.pk)


@pytest.mark.parametrize("mode", PERSONA_MODES)
def test_a_persona_chat_continues_a_conversation_with_the_same_persona(
    user: User, mode: str
) -> None:
    persona = PersonaFactory.create(owner=user)
    conversation = _persona_conversation(user, persona.pk, mode)
    found = continued_conversation(
        user=user, conversation_id=conversation.pk, persona_id=persona.pk
    )
    assert (found.pk, found.persona_id) == (conversation.pk, persona.pk)


def test_only_the_columns_a_chat_needs_are_read(user: User) -> None:
    conversation = make_conversation(user)
    found = continued_conversation(user=user, conversation_id=conversation.pk, persona_id=None)
    assert found.get_deferred_fields() >= {"title", "model_id", "api_key_id", "created_at"}
    assert not found.get_deferred_fields() & {"id", "persona_id", "mode", "user_id"}


def test_another_users_conversation_is_not_found(user: User, other_user: User) -> None:
    theirs = make_conversation(other_user)
    _assert_not_found(user, theirs.pk, None)
    persona = PersonaFactory.create(owner=user, is_public=True)
    theirs_with_persona = _persona_conversation(other_user, persona.pk, "api_agents")
    _assert_not_found(user, theirs_with_persona.pk, persona.pk)


@pytest.mark.parametrize("mode", PERSONA_MODES)
def test_a_persona_conversation_is_not_continued_without_the_persona(user: User, mode: str) -> None:
    persona = PersonaFactory.create(owner=user)
    _assert_not_found(user, _persona_conversation(user, persona.pk, mode).pk, None)


@pytest.mark.parametrize("mode", GENERAL_MODES)
def test_a_general_conversation_is_not_continued_with_a_persona(user: User, mode: str) -> None:
    persona = PersonaFactory.create(owner=user)
    _assert_not_found(user, make_conversation(user, mode=mode).pk, persona.pk)


def test_another_personas_conversation_is_not_found(user: User) -> None:
    persona, other = PersonaFactory.create_batch(2, owner=user)
    conversation = _persona_conversation(user, persona.pk, "api_agents")
    _assert_not_found(user, conversation.pk, other.pk)
    # A persona conversation whose persona was deleted (persona_id NULL) continues with none.
    orphan = make_conversation(user, mode="api_agents")
    _assert_not_found(user, orphan.pk, persona.pk)
    _assert_not_found(user, orphan.pk, None)


def test_a_missing_conversation_is_not_found(user: User) -> None:
    _assert_not_found(user, 987654321, None)


def test_history_is_the_user_and_assistant_messages_in_order(
    user: User, django_assert_num_queries: Any
) -> None:
    turns = [("user", "Hello"), ("assistant", "Hi!"), ("user", "Thanks"), ("assistant", "Bye.")]
    conversation = make_conversation(
        user, mode="api_agents", messages=[("system", "Conversation with X"), *turns]
    )
    make_conversation(user, messages=[("user", "Elsewhere")])
    with django_assert_num_queries(1):
        history = conversation_history(conversation)
    assert history == [{"role": role, "content": content} for role, content in turns]


def test_history_of_a_conversation_without_messages_is_empty(user: User) -> None:
    assert conversation_history(make_conversation(user)) == []


def test_history_replays_a_tool_exchange_exactly_in_order(
    user: User, django_assert_num_queries: Any
) -> None:
    conversation = save_tool_exchange(user, system_prompt="Use the tools.")
    with django_assert_num_queries(1):
        history = conversation_history(conversation)
    assert history == TOOL_EXCHANGE_HISTORY


def test_history_keeps_empty_content_without_tool_calls(user: User) -> None:
    # Only a turn that called tools has null content; an empty reply stays "".
    conversation = make_conversation(user, messages=[("user", "Hi"), ("assistant", "")])
    conversation.messages.filter(role="user").update(tool_call_id="ignored")
    assert conversation_history(conversation) == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": ""},
    ]
    conversation.messages.filter(role="assistant").update(tool_calls=[weather_call("c", "Paris")])
    assert conversation_history(conversation)[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [weather_call("c", "Paris")],
    }
