"""Conversation history API (docs/conversations.md): a thin viewset over the selectors.

Routes are relative to the ``nova-api/v1/`` mount (config/urls.py serves them under
/nova-api/v1/ and /api/nova-api/v1/), each with and without a trailing slash.
"""

from __future__ import annotations

from typing import cast

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from conversations.models import Conversation
from conversations.selectors import conversations_page, get_conversation_for
from conversations.serializers import (
    ConversationDetailSerializer,
    ConversationListQuerySerializer,
    ConversationListSerializer,
    ConversationSummarySerializer,
)
from conversations.services import delete_conversation
from core.schema import error_responses

_CONVERSATION_ID = OpenApiParameter(
    "conversation_id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description='The conversation\'s id: "conv_42", or just "42" (the `conversation_id` of a '
    "chat completion response).",
)
_NO_TOOLS = {"tool_calls": None, "tool_call_id": None}
_SYSTEM = {
    "id": 101,
    "role": "system",
    "content": 'Conversation with the persona "Code Mentor": Senior software engineer.',
    **_NO_TOOLS,
    "created_at": "2026-11-22T15:33:43.123456Z",
}
_USER = {
    "id": 102,
    "role": "user",
    "content": "How do I reverse a list?",
    **_NO_TOOLS,
    "created_at": "2026-11-22T15:33:43.123456Z",
}
_ASSISTANT = {
    "id": 103,
    "role": "assistant",
    "content": "Use `reversed(items)` or `items[::-1]`.",
    "model": "nova-local",
    **_NO_TOOLS,
    "created_at": "2026-11-22T15:33:44.654321Z",
}
_TOOL_EXCHANGE = [
    {
        "id": 201,
        "role": "user",
        "content": "What is the weather in Paris?",
        **_NO_TOOLS,
        "created_at": "2026-11-22T15:40:00.000000Z",
    },
    {
        "id": 202,
        "role": "assistant",
        "content": "",
        "model": "gpt-4o-mini",
        "tool_calls": [
            {
                "id": "call_abc123",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            }
        ],
        "tool_call_id": None,
        "created_at": "2026-11-22T15:40:01.000000Z",
    },
    {
        "id": 203,
        "role": "tool",
        "content": '{"temperature": 18, "sky": "clear"}',
        "tool_calls": None,
        "tool_call_id": "call_abc123",
        "created_at": "2026-11-22T15:40:02.000000Z",
    },
    {
        "id": 204,
        "role": "assistant",
        "content": "It is 18 °C and clear in Paris.",
        "model": "gpt-4o-mini",
        **_NO_TOOLS,
        "created_at": "2026-11-22T15:40:03.000000Z",
    },
]
_CONVERSATION = {
    "id": "conv_42",
    "mode": "api_agents",
    "title": "How do I reverse a list?",
    "created_at": "2026-11-22T15:33:43.123456Z",
    "updated_at": "2026-11-22T15:33:44.654321Z",
}


def _user(request: Request) -> User:
    # IsAuthenticated (the default permission) has already run: the key's user.
    return cast(User, request.user)


@extend_schema_view(
    list=extend_schema(
        summary="List conversations",
        tags=["conversations"],
        description=(
            "The caller's conversations, newest `updated_at` first, 20 a page. Each entry's "
            "`messages` holds its latest message only (empty when it has none). A page past the "
            "end has empty `data` and `has_more` false. A bad `page` or `mode` is a 400 naming "
            "the parameter."
        ),
        parameters=[ConversationListQuerySerializer],
        responses={
            200: OpenApiResponse(
                ConversationListSerializer,
                examples=[
                    OpenApiExample(
                        "Page",
                        value={
                            "object": "list",
                            "data": [{**_CONVERSATION, "messages": [_ASSISTANT]}],
                            "has_more": False,
                            "total": 1,
                            "mode_filter": "all",
                        },
                        response_only=True,
                    )
                ],
            ),
            **error_responses(400, 401, 429),
        },
    ),
    retrieve=extend_schema(
        summary="Get a conversation",
        tags=["conversations"],
        description=(
            "One of the caller's conversations with every message in order, system messages "
            "and tool exchanges included. Assistant messages carry `model`. Every message "
            "carries `tool_calls` (an assistant message's calls, else null) and `tool_call_id` "
            "(the call a `tool` message answers, else null). Another user's conversation, a "
            "missing one and a malformed id all answer 404."
        ),
        parameters=[_CONVERSATION_ID],
        responses={
            200: OpenApiResponse(
                ConversationDetailSerializer,
                examples=[
                    OpenApiExample(
                        "Conversation",
                        value={**_CONVERSATION, "messages": [_SYSTEM, _USER, _ASSISTANT]},
                        response_only=True,
                    ),
                    OpenApiExample(
                        "Tool calls",
                        value={
                            **_CONVERSATION,
                            "id": "conv_43",
                            "mode": "api",
                            "title": "What is the weather in Paris?",
                            "messages": _TOOL_EXCHANGE,
                        },
                        response_only=True,
                    ),
                ],
            ),
            **error_responses(401, 404, 429),
        },
    ),
    destroy=extend_schema(
        summary="Delete a conversation",
        tags=["conversations"],
        description=(
            "Deletes one of the caller's conversations and its messages (204, empty body). "
            "Usage records and charges stay, detached from the conversation. Another user's "
            "conversation, a missing one and a malformed id all answer 404."
        ),
        parameters=[_CONVERSATION_ID],
        responses={204: None, **error_responses(401, 404, 429)},
    ),
)
class ConversationViewSet(viewsets.GenericViewSet[Conversation]):
    serializer_class = ConversationSummarySerializer

    def get_queryset(self) -> QuerySet[Conversation]:
        return Conversation.objects.none()

    def list(self, request: Request) -> Response:
        query = ConversationListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = conversations_page(_user(request), **query.validated_data)
        return Response(
            {
                "object": "list",
                "data": self.get_serializer(page.conversations, many=True).data,
                "has_more": page.has_more,
                "total": page.total,
                "mode_filter": query.validated_data["mode"],
            }
        )

    def retrieve(self, request: Request, conversation_id: str) -> Response:
        conversation = get_conversation_for(_user(request), conversation_id)
        return Response(ConversationDetailSerializer(conversation).data)

    def destroy(self, request: Request, conversation_id: str) -> Response:
        delete_conversation(user=_user(request), conversation_id=conversation_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
