"""Writes to conversations: saving a chat's turn, deleting a conversation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from conversations.models import TITLE_MAX_LENGTH, Conversation, Message
from conversations.selectors import get_conversation_for
from conversations.text import message_text, stored_tool_calls
from core.text import storable_text

if TYPE_CHECKING:
    from accounts.models import ApiKey, User
    from personas.models import Persona

__all__ = ["delete_conversation", "save_turn"]


def _title(messages: list[dict[str, Any]]) -> str:
    """The first user message's text, whitespace runs made single spaces, cut to fit."""
    first = next((message_text(m.get("content")) for m in messages if m["role"] == "user"), "")
    return " ".join(first.split())[:TITLE_MAX_LENGTH]


def _message_row(conversation: Conversation, message: dict[str, Any]) -> Message:
    """A message the client sent, as stored: its text, plus an assistant message's tool calls
    or a tool message's ``tool_call_id`` (each kept on its own role only)."""
    role = message["role"]
    return Message(
        conversation=conversation,
        role=role,
        content=message_text(message.get("content")),
        tool_calls=(
            stored_tool_calls(message.get("tool_calls")) if role == Message.Role.ASSISTANT else None
        ),
        tool_call_id=(
            storable_text(str(message.get("tool_call_id") or ""))
            if role == Message.Role.TOOL
            else ""
        ),
    )


def save_turn(**turn: Any) -> Conversation:
    """Store one chat turn (:func:`record_turn`) and return its conversation."""
    conversation, _ = record_turn(**turn)
    return conversation


def record_turn(
    *,
    user: User,
    api_key: ApiKey | None,
    conversation: Conversation | None,
    mode: str,
    persona: Persona | None,
    model_id: str,
    new_messages: list[dict[str, Any]],
    system_prompt: str | None,
    reply: str,
    reply_tool_calls: list[dict[str, Any]] | None = None,
    prompt_tokens: int,
    completion_tokens: int,
) -> tuple[Conversation, Message]:
    """Store one chat turn: the messages the client sent and the model's reply.

    Without ``conversation`` a new one is created, titled after the first user message, with
    ``system_prompt`` (when given) as its first message. With one, its ``updated_at`` and
    ``model_id`` move on and ``system_prompt`` is ignored. Message contents are stored as
    :func:`conversations.text.message_text` (images as placeholders). ``new_messages`` may hold
    a tool exchange: assistant messages keep their ``tool_calls`` and tool messages their
    ``tool_call_id`` (:func:`conversations.text.stored_tool_calls`), all in the order given.
    The reply is made storable (``core.text.storable_text``) and carries the model, the token
    counts and ``reply_tool_calls`` (its content may be "" when the model only called tools).

    Opens no transaction of its own: the caller saves the turn and charges for it in one.
    Returns the conversation, new or continued, and the reply's message.
    """
    rows: list[Message] = []
    if conversation is None:
        conversation = Conversation.objects.create(
            user=user,
            api_key=api_key,
            mode=mode,
            persona=persona,
            model_id=model_id,
            title=_title(new_messages),
        )
        if system_prompt is not None:
            rows.append(
                Message(conversation=conversation, role=Message.Role.SYSTEM, content=system_prompt)
            )
    else:
        conversation.updated_at, conversation.model_id = timezone.now(), model_id
        Conversation.objects.filter(pk=conversation.pk).update(
            updated_at=conversation.updated_at, model_id=model_id
        )
    rows += [_message_row(conversation, m) for m in new_messages]
    reply_message = Message(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        content=storable_text(reply),
        model=model_id,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        tool_calls=stored_tool_calls(reply_tool_calls),
    )
    rows.append(reply_message)
    Message.objects.bulk_create(rows)  # sets the primary keys (RETURNING on both databases)
    return conversation, reply_message


def delete_conversation(*, user: User, conversation_id: Any) -> None:
    """Delete the user's conversation and its messages.

    Raises NotFound exactly as :func:`get_conversation_for` does, so someone else's
    conversation cannot be deleted or even detected. Usage records stay: their foreign key is
    SET_NULL, because the ledger entries they back must keep summing to the balance.
    """
    with transaction.atomic():
        conversation = get_conversation_for(user, conversation_id, with_messages=False)
        conversation.delete()
