from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from accounts.models import User
from conversations.models import Conversation, Message
from conversations.services import save_turn

TIMESTAMP = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$"


def make_conversation(
    user: User,
    *,
    mode: str = Conversation.Mode.API,
    title: str = "A conversation",
    messages: list[tuple[str, str]] | None = None,
    model: str = "nova-local",
    updated_at: datetime | None = None,
) -> Conversation:
    """A conversation with (role, content) messages; assistant messages get ``model``."""
    conversation = Conversation.objects.create(user=user, mode=mode, title=title, model_id=model)
    Message.objects.bulk_create(
        Message(
            conversation=conversation,
            role=role,
            content=content,
            model=model if role == Message.Role.ASSISTANT else "",
        )
        for role, content in messages or []
    )
    if updated_at is not None:
        # updated_at is auto_now: only a queryset update sets it to a chosen value.
        Conversation.objects.filter(pk=conversation.pk).update(updated_at=updated_at)
        conversation.refresh_from_db()
    return conversation


def weather_call(call_id: str, city: str) -> dict[str, Any]:
    """A tool call in OpenAI's shape, as a client sends it back and an upstream returns it."""
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
    }


def save_tool_exchange(user: User, **overrides: Any) -> Conversation:
    """A conversation saved as chat saves one: the user asks, the model calls a tool, the client
    answers with the tool's result, and the model calls another, then answers: three turns."""
    turn: dict[str, Any] = {
        "user": user,
        "api_key": None,
        "mode": Conversation.Mode.API,
        "persona": None,
        "model_id": "fake-gpt",
        "system_prompt": None,
        "prompt_tokens": 10,
        "completion_tokens": 5,
        **overrides,
    }
    conversation = save_turn(
        **turn,
        conversation=None,
        new_messages=[{"role": "user", "content": "Weather in Paris and Rome?"}],
        reply="",
        reply_tool_calls=[weather_call("call_1", "Paris")],
    )
    conversation = save_turn(
        **turn,
        conversation=conversation,
        new_messages=[{"role": "tool", "tool_call_id": "call_1", "content": '{"temp": 18}'}],
        reply="Paris is 18 °C; now Rome.",
        reply_tool_calls=[weather_call("call_2", "Rome")],
    )
    return save_turn(
        **turn,
        conversation=conversation,
        new_messages=[
            {
                "role": "tool",
                "tool_call_id": "call_2",
                "content": [{"type": "text", "text": "sunny,"}, {"type": "text", "text": "24"}],
            }
        ],
        reply="Paris 18 °C, Rome 24 °C and sunny.",
    )


# What conversation_history replays for save_tool_exchange, and what the history API shows.
TOOL_EXCHANGE_HISTORY: list[dict[str, Any]] = [
    {"role": "user", "content": "Weather in Paris and Rome?"},
    {"role": "assistant", "content": None, "tool_calls": [weather_call("call_1", "Paris")]},
    {"role": "tool", "content": '{"temp": 18}', "tool_call_id": "call_1"},
    {
        "role": "assistant",
        "content": "Paris is 18 °C; now Rome.",
        "tool_calls": [weather_call("call_2", "Rome")],
    },
    {"role": "tool", "content": "sunny,\n24", "tool_call_id": "call_2"},
    {"role": "assistant", "content": "Paris 18 °C, Rome 24 °C and sunny."},
]
