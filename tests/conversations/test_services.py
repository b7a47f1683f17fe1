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
from tests.conversations.helpers import make_conversation, save_tool_exchange, weather_call
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


# --- Tool calls ---


def _stored_tools(conversation: Conversation) -> list[tuple[Any, ...]]:
    return list(
        conversation.messages.order_by("id").values_list(
            "role", "content", "model", "tool_calls", "tool_call_id"
        )
    )


def test_a_multi_step_tool_exchange_is_stored_in_order(user: User) -> None:
    conversation = save_tool_exchange(user)
    paris, rome = weather_call("call_1", "Paris"), weather_call("call_2", "Rome")
    assert _stored_tools(conversation) == [
        ("user", "Weather in Paris and Rome?", "", None, ""),
        ("assistant", "", "fake-gpt", [paris], ""),
        ("tool", '{"temp": 18}', "", None, "call_1"),
        ("assistant", "Paris is 18 °C; now Rome.", "fake-gpt", [rome], ""),
        ("tool", "sunny,\n24", "", None, "call_2"),
        ("assistant", "Paris 18 °C, Rome 24 °C and sunny.", "fake-gpt", None, ""),
    ]
    conversation.refresh_from_db()
    assert conversation.title == "Weather in Paris and Rome?"


def test_a_client_sent_tool_exchange_is_stored_with_the_reply(user: User) -> None:
    # A client that keeps its own history sends the whole exchange in one request.
    calls = [weather_call("call_a", "Oslo"), weather_call("call_b", "Bergen")]
    conversation = save_turn(
        **_turn(
            user,
            new_messages=[
                {"role": "system", "content": "Use the tools."},
                {"role": "user", "content": "Oslo and Bergen?"},
                {"role": "assistant", "content": None, "tool_calls": calls},
                {"role": "tool", "tool_call_id": "call_a", "content": "rain"},
                {"role": "tool", "tool_call_id": "call_b", "content": "snow"},
            ],
            reply="Rain in Oslo, snow in Bergen.",
        )
    )
    assert _stored_tools(conversation) == [
        ("system", "Use the tools.", "", None, ""),
        ("user", "Oslo and Bergen?", "", None, ""),
        ("assistant", "", "", calls, ""),
        ("tool", "rain", "", None, "call_a"),
        ("tool", "snow", "", None, "call_b"),
        ("assistant", "Rain in Oslo, snow in Bergen.", "nova-local", None, ""),
    ]


def test_tool_fields_are_kept_on_their_own_roles_only(user: User) -> None:
    stray = {"tool_calls": [weather_call("x", "Nowhere")], "tool_call_id": "x"}
    conversation = save_turn(
        **_turn(
            user,
            new_messages=[
                {"role": "user", "content": "Hi", **stray},
                {"role": "tool", "content": "out", **stray},
                {"role": "assistant", "content": "Hm", **stray},
            ],
            reply_tool_calls=[],
        )
    )
    assert _stored_tools(conversation) == [
        ("user", "Hi", "", None, ""),
        ("tool", "out", "", None, "x"),
        ("assistant", "Hm", "", [weather_call("x", "Nowhere")], ""),
        ("assistant", "Hi there.", "nova-local", None, ""),
    ]


def test_tool_calls_are_stored_in_openais_shape_and_made_storable(user: User) -> None:
    # PostgreSQL's JSON refuses NUL and lone surrogates; an object for arguments is encoded.
    conversation = save_turn(
        **_turn(
            user,
            new_messages=[{"role": "tool", "tool_call_id": "c\x001", "content": "ok"}],
            reply="",
            reply_tool_calls=[
                {
                    "id": "call_\ud800",
                    "type": "function",
                    "function": {"name": "f\x00n", "arguments": '{"q": "a\x00b"}'},
                    "extra": "dropped",
                },
                {"id": "call_2", "function": {"name": "g", "arguments": {"n": 1}}},
                "not a call",
            ],
        )
    )
    tool, reply = conversation.messages.order_by("id")
    assert tool.tool_call_id == "c1"
    assert reply.content == ""
    assert reply.tool_calls == [
        {
            "id": "call_\ufffd",
            "type": "function",
            "function": {"name": "fn", "arguments": '{"q": "ab"}'},
        },
        {"id": "call_2", "type": "function", "function": {"name": "g", "arguments": '{"n": 1}'}},
    ]


def test_a_tool_exchange_is_still_two_queries(user: User, django_assert_num_queries: Any) -> None:
    # The messages, tool calls and all, go in one INSERT.
    with django_assert_num_queries(2):
        save_turn(
            **_turn(
                user,
                new_messages=[
                    {"role": "user", "content": "Weather?"},
                    {"role": "assistant", "tool_calls": [weather_call("c", "Paris")]},
                    {"role": "tool", "tool_call_id": "c", "content": "18"},
                ],
                reply="",
                reply_tool_calls=[weather_call("d", "Rome")],
            )
        )
