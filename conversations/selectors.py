"""Reads of conversations that encode who may see what (docs/conversations.md).

A conversation is visible to its owner only. Anything else (someone else's conversation, a
missing one, an id that cannot be one) answers exactly like a missing conversation: NotFound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import F, OuterRef, Prefetch, QuerySet, Subquery

from conversations.models import (
    GENERAL_MODES,
    PERSONA_MODES,
    PUBLIC_ID_PREFIX,
    Conversation,
    Message,
)
from core.errors import NotFound
from core.ids import parse_id

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "CONVERSATIONS_PAGE_SIZE",
    "MODE_ALL",
    "MODE_FILTERS",
    "ConversationPage",
    "continued_conversation",
    "conversation_history",
    "conversations_of",
    "conversations_page",
    "get_conversation_for",
]

CONVERSATIONS_PAGE_SIZE = 20
MODE_ALL = "all"
MODE_FILTERS: tuple[str, ...] = (MODE_ALL, *Conversation.Mode.values)

# The latest message of a conversation, as one column per field: every column is a correlated
# subquery served by the (conversation, id) index, so a page stays a single query.
_LATEST_FIELDS = ("id", "role", "content", "model", "tool_calls", "tool_call_id", "created_at")


@dataclass(frozen=True)
class ConversationPage:
    """One page of a user's conversations; each has ``latest_messages`` (zero or one)."""

    conversations: list[Conversation]
    total: int
    has_more: bool
    page: int
    page_size: int

    @property
    def page_count(self) -> int:
        return max(1, -(-self.total // self.page_size))


def conversations_of(user: User, *, mode: str = MODE_ALL) -> QuerySet[Conversation]:
    """The user's conversations, newest ``updated_at`` first (ties: newest id first).

    ``mode`` is "all" or one of ``Conversation.Mode``; callers validate it first.
    """
    conversations = Conversation.objects.filter(user=user)
    if mode != MODE_ALL:
        conversations = conversations.filter(mode=mode)
    return conversations.order_by("-updated_at", "-id")


def _with_latest_message(conversations: QuerySet[Conversation]) -> QuerySet[Conversation]:
    latest = Message.objects.filter(conversation=OuterRef("pk")).order_by("-id")
    return conversations.annotate(
        **{f"latest_{name}": Subquery(latest.values(name)[:1]) for name in _LATEST_FIELDS}
    )


def _attach_latest_message(conversation: Conversation) -> None:
    values = {name: getattr(conversation, f"latest_{name}") for name in _LATEST_FIELDS}
    latest: list[Message] = []
    if values["id"] is not None:
        latest.append(Message(conversation=conversation, **values))
    conversation.latest_messages = latest  # type: ignore[attr-defined]


def conversations_page(
    user: User,
    *,
    mode: str = MODE_ALL,
    page: int = 1,
    page_size: int = CONVERSATIONS_PAGE_SIZE,
) -> ConversationPage:
    """One page (from 1) of the user's conversations, each with its latest message.

    Two queries however long the page is: the count, then the rows with the latest message
    and their persona's name (``persona_name``, None without one) annotated. A page past the
    end costs the count only.
    """
    conversations = conversations_of(user, mode=mode)
    total = conversations.count()
    offset = (page - 1) * page_size
    rows: list[Conversation] = []
    if offset < total:
        # The page's ids are picked in a subquery first, so the latest-message subqueries run
        # for the rows shown only, not for every row the OFFSET skips (page 500 of 10,000).
        page_ids = conversations.values("pk")[offset : offset + page_size]
        rows = list(
            _with_latest_message(
                Conversation.objects.filter(pk__in=page_ids)
                .annotate(persona_name=F("persona__name"))
                .order_by("-updated_at", "-id")
            )
        )
        for conversation in rows:
            _attach_latest_message(conversation)
    return ConversationPage(
        conversations=rows,
        total=total,
        has_more=offset + len(rows) < total,
        page=page,
        page_size=page_size,
    )


def get_conversation_for(
    user: User, conversation_id: Any, *, with_messages: bool = True
) -> Conversation:
    """The user's conversation with this id ("conv_42" or "42"), its messages prefetched in
    order.

    Raises NotFound when the id is malformed, when there is no such conversation and when it
    belongs to someone else: the three are indistinguishable on purpose, so probing ids
    reveals nothing.
    """
    pk = parse_id(conversation_id, prefix=PUBLIC_ID_PREFIX)
    conversation = None
    if pk is not None:
        conversations = Conversation.objects.filter(user=user, pk=pk)
        if with_messages:
            conversations = conversations.prefetch_related(
                Prefetch("messages", queryset=Message.objects.order_by("id"))
            )
        conversation = conversations.first()
    if conversation is None:
        raise NotFound(
            f"No conversation with id {str(conversation_id)[:40]!r}.", param="conversation_id"
        )
    return conversation


def continued_conversation(
    *, user: User, conversation_id: int, persona_id: int | None
) -> Conversation:
    """The conversation a chat continues: the user's own, of a persona mode with the same
    persona when ``persona_id`` is given, of a general mode otherwise.

    Raises NotFound (param ``conversation_id``) for anything else, someone else's conversation
    included. Only the columns a chat needs are read.
    """
    modes = PERSONA_MODES if persona_id is not None else GENERAL_MODES
    conversation = (
        Conversation.objects.filter(pk=conversation_id, user=user, mode__in=modes)
        .only("id", "persona_id", "mode", "user_id")
        .first()
    )
    if conversation is None or (persona_id is not None and conversation.persona_id != persona_id):
        raise NotFound(f"Conversation {conversation_id} not found.", param="conversation_id")
    return conversation


def conversation_history(conversation: Conversation) -> list[dict[str, Any]]:
    """The conversation's messages as a continued chat replays them upstream, in the order they
    were written; system messages are left out. One query.

    A user message is ``{"role", "content"}``, and so is an assistant message without tool
    calls. An assistant message that called tools adds ``tool_calls`` (its ``content`` None when
    it said nothing); a tool message adds its ``tool_call_id``.
    """
    rows = (
        Message.objects.filter(
            conversation=conversation,
            role__in=(Message.Role.USER, Message.Role.ASSISTANT, Message.Role.TOOL),
        )
        .order_by("id")
        .values_list("role", "content", "tool_calls", "tool_call_id")
    )
    history: list[dict[str, Any]] = []
    for role, content, tool_calls, tool_call_id in rows:
        message: dict[str, Any] = {"role": role, "content": content}
        if role == Message.Role.ASSISTANT and tool_calls:
            # OpenAI's shape for a turn that only called tools: content null, not "".
            message = {"role": role, "content": content or None, "tool_calls": tool_calls}
        elif role == Message.Role.TOOL:
            message["tool_call_id"] = tool_call_id
        history.append(message)
    return history
