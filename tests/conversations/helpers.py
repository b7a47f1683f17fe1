from __future__ import annotations

from datetime import datetime

from accounts.models import User
from conversations.models import Conversation, Message

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
