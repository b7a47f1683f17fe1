"""save_turn: what a chat stores, called directly as chat calls it (inside its own transaction)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import transaction

from accounts.models import ApiKey, User
from conversations.models import Conversation, Message
from conversations.services import save_turn
from conversations.text import IMAGE_PLACEHOLDER, message_text
from personas.models import Persona
from tests.conversations.helpers import make_conversation
from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db

IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgoAAAANS"}}


def _turn(user: User, **overrides: Any) -> dict[str, Any]:
    turn: dict[str, Any] = {
        "user": user,
        "api_key": None,
        "conversation": None,
        "mode": Conversation.Mode.API,
        "persona": None,
        "model_id": "nova-local",
        "new_messages": [{"role": "user", "content": "Hello"}],
        "system_prompt": None,
        "reply": "Hi there.",
        "prompt_tokens": 12,
        "completion_tokens": 3,
    }
    return {**turn, **overrides}


def _stored(conversation: Conversation) -> list[tuple[Any, ...]]:
    return list(
        conversation.messages.order_by("id").values_list(
            "role", "content", "model", "prompt_tokens", "completion_tokens"
        )
    )


def test_a_first_turn_creates_the_conversation(user: User, api_key: ApiKey) -> None:
    persona = PersonaFactory.create(owner=user)
    conversation = save_turn(
        **_turn(
            user,
            api_key=api_key,
            mode=Conversation.Mode.API_AGENTS,
            persona=persona,
            model_id="fake-gpt",
            new_messages=[
                {"role": "user", "content": "  How do I\n\treverse   a list?  "},
                {"role": "assistant", "content": "Which language?"},
                {"role": "user", "content": "Python"},
            ],
            system_prompt="You are a mentor.",
            reply="Use reversed().",
            prompt_tokens=40,
            completion_tokens=5,
        )
    )
    conversation.refresh_from_db()
    assert (
        conversation.user_id,
        conversation.api_key_id,
        conversation.mode,
        conversation.persona_id,
        conversation.model_id,
        conversation.title,
    ) == (user.pk, api_key.pk, "api_agents", persona.pk, "fake-gpt", "How do I reverse a list?")
    assert _stored(conversation) == [
        ("system", "You are a mentor.", "", None, None),
        ("user", "  How do I\n\treverse   a list?  ", "", None, None),
        ("assistant", "Which language?", "", None, None),
        ("user", "Python", "", None, None),
        ("assistant", "Use reversed().", "fake-gpt", 40, 5),
    ]


def test_without_a_system_prompt_no_system_message_is_stored(user: User) -> None:
    conversation = save_turn(**_turn(user))
    assert _stored(conversation) == [
        ("user", "Hello", "", None, None),
        ("assistant", "Hi there.", "nova-local", 12, 3),
    ]


def test_the_title_is_the_first_user_message_cut_to_200_characters(user: User) -> None:
    long = "word " * 100
    conversation = save_turn(
        **_turn(
            user,
            new_messages=[
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": long},
                {"role": "user", "content": "Second"},
            ],
        )
    )
    conversation.refresh_from_db()
    assert conversation.title == " ".join(long.split())[:200]
    assert len(conversation.title) == 200


def test_a_turn_without_a_user_message_has_an_empty_title(user: User) -> None:
    conversation = save_turn(**_turn(user, new_messages=[{"role": "system", "content": "Hi"}]))
    conversation.refresh_from_db()
    assert conversation.title == ""


def test_a_later_turn_appends_and_never_stores_the_system_prompt_again(user: User) -> None:
    conversation = make_conversation(
        user,
        title="Kept",
        messages=[("user", "Hello"), ("assistant", "Hi there.")],
        updated_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    before = _stored(conversation)
    continued = save_turn(
        **_turn(
            user,
            conversation=conversation,
            model_id="fake-gpt",
            new_messages=[{"role": "user", "content": "And then?"}],
            system_prompt="You are a mentor.",
            reply="Then this.",
            prompt_tokens=30,
            completion_tokens=2,
        )
    )
    assert continued.pk == conversation.pk
    assert Conversation.objects.count() == 1
    conversation.refresh_from_db()
    assert conversation.title == "Kept"
    assert conversation.model_id == "fake-gpt"
    assert conversation.updated_at > datetime(2026, 1, 1, tzinfo=UTC)
    assert _stored(conversation) == [
        *before,
        ("user", "And then?", "", None, None),
        ("assistant", "Then this.", "fake-gpt", 30, 2),
    ]


def test_images_are_stored_as_placeholders_never_as_their_data(user: User) -> None:
    conversation = save_turn(
        **_turn(
            user,
            new_messages=[
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "What is this?"}, IMAGE, IMAGE],
                }
            ],
        )
    )
    conversation.refresh_from_db()
    stored = conversation.messages.get(role="user").content
    assert stored == f"What is this?\n{IMAGE_PLACEHOLDER}\n{IMAGE_PLACEHOLDER}"
    assert "base64" not in stored
    assert conversation.title == f"What is this? {IMAGE_PLACEHOLDER} {IMAGE_PLACEHOLDER}"


@pytest.mark.parametrize(
    ("content", "text"),
    [
        ("plain", "plain"),
        ([], ""),
        (None, ""),
        ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "a\nb"),
        ([IMAGE], IMAGE_PLACEHOLDER),
        ([{"type": "input_audio", "input_audio": {}}, {"type": "text", "text": "x"}], "x"),
    ],
)
def test_message_text(content: Any, text: str) -> None:
    assert message_text(content) == text


def test_the_reply_is_made_storable(user: User) -> None:
    # A lone surrogate cannot be encoded as UTF-8 and PostgreSQL refuses NUL in text.
    conversation = save_turn(**_turn(user, reply="a\x00b\ud800c"))
    reply = conversation.messages.get(role="assistant").content
    assert reply == "ab\ufffdc"


def test_it_joins_the_callers_transaction(user: User, django_assert_num_queries: Any) -> None:
    # No savepoint of its own: the conversation and its messages, then nothing else.
    with django_assert_num_queries(2):
        conversation = save_turn(**_turn(user, system_prompt="System"))
    with django_assert_num_queries(2):
        save_turn(**_turn(user, conversation=conversation))
    with pytest.raises(RuntimeError), transaction.atomic():
        save_turn(**_turn(user))
        raise RuntimeError
    assert list(Conversation.objects.values_list("pk", flat=True)) == [conversation.pk]


def test_persona_and_key_may_be_absent_or_gone(user: User, api_key: ApiKey) -> None:
    persona: Persona = PersonaFactory.create(owner=user)
    conversation = save_turn(**_turn(user, api_key=api_key, persona=persona))
    persona.delete()
    api_key.delete()
    conversation.refresh_from_db()
    assert (conversation.persona_id, conversation.api_key_id) == (None, None)
    assert Message.objects.filter(conversation=conversation).count() == 2
