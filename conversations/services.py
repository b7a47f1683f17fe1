"""Writes to conversations: saving a chat's turn, deleting a conversation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from conversations.models import TITLE_MAX_LENGTH, Conversation, Message
from conversations.selectors import get_conversation_for
from conversations.text import message_text
from core.text import storable_text

if TYPE_CHECKING:
    from accounts.models import ApiKey, User
    from personas.models import Persona

__all__ = ["delete_conversation", "save_turn"]


def _title(messages: list[dict[str, Any]]) -> str:
    """The first user message's text, whitespace runs made single spaces, cut to fit."""
    first = next((message_text(m["content"]) for m in messages if m["role"] == "user"), "")
    return " ".join(first.split())[:TITLE_MAX_LENGTH]


def save_turn(
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
    prompt_tokens: int,
    completion_tokens: int,
) -> Conversation:
    """Store one chat turn: the messages the client sent and the model's reply.

    Without ``conversation`` a new one is created, titled after the first user message, with
    ``system_prompt`` (when given) as its first message. With one, its ``updated_at`` and
    ``model_id`` move on and ``system_prompt`` is ignored. Message contents are stored as
    :func:`conversations.text.message_text` (images as placeholders); the reply is made
    storable (``core.text.storable_text``) and carries the model and the token counts.

    Opens no transaction of its own: the caller saves the turn and charges for it in one.
    Returns the conversation, new or continued.
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
    rows += [
        Message(conversation=conversation, role=m["role"], content=message_text(m["content"]))
        for m in new_messages
    ]
    rows.append(
        Message(
            conversation=conversation,
            role=Message.Role.ASSISTANT,
            content=storable_text(reply),
            model=model_id,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
        )
    )
    Message.objects.bulk_create(rows)
    return conversation


def delete_conversation(*, user: User, conversation_id: Any) -> None:
    """Delete the user's conversation and its messages.

    Raises NotFound exactly as :func:`get_conversation_for` does, so someone else's
    conversation cannot be deleted or even detected. Usage records stay: their foreign key is
    SET_NULL, because the ledger entries they back must keep summing to the balance.
    """
    with transaction.atomic():
        conversation = get_conversation_for(user, conversation_id, with_messages=False)
        conversation.delete()
