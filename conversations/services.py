"""Writes to conversations. Saving chats is the chat service's job (chat.services)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction

from conversations.selectors import get_conversation_for

if TYPE_CHECKING:
    from accounts.models import User


def delete_conversation(*, user: User, conversation_id: Any) -> None:
    """Delete the user's conversation and its messages.

    Raises NotFound exactly as :func:`get_conversation_for` does, so someone else's
    conversation cannot be deleted or even detected. Usage records stay: their foreign key is
    SET_NULL, and the ledger they back must keep summing to the balance (contract §8).
    """
    with transaction.atomic():
        conversation = get_conversation_for(user, conversation_id, with_messages=False)
        conversation.delete()
