"""Serializers for the conversation history API (docs/conversations.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from conversations.models import PUBLIC_ID_PREFIX, Conversation, Message
from conversations.selectors import MODE_ALL, MODE_FILTERS
from core.ids import MAX_ID, parse_id

__all__ = [
    "ConversationDetailSerializer",
    "ConversationIdField",
    "ConversationListQuerySerializer",
    "ConversationListSerializer",
    "ConversationMessageSerializer",
    "ConversationSummarySerializer",
    "ConversationToolCallFunctionSerializer",
    "ConversationToolCallSerializer",
    "HistoryTimestampField",
    "format_timestamp",
]


def format_timestamp(value: datetime) -> str:
    """UTC, always six fractional digits, trailing Z: 2026-11-22T15:33:43.123456Z."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 1, "maximum": MAX_ID, "format": "int64"},
            {"type": "string", "pattern": "^(conv_)?[0-9]{1,19}$"},
        ],
        "example": "conv_42",
    }
)
class ConversationIdField(serializers.Field[int, Any, Any, Any]):
    """A conversation id in any spelling the API hands out: "conv_42" (the history API's
    ``id``), "42" or 42 (chat's ``conversation_id``); validated as the number."""

    def to_internal_value(self, data: Any) -> int:
        number = parse_id(data, prefix=PUBLIC_ID_PREFIX)
        if number is None:
            raise serializers.ValidationError(
                'must be a conversation id: "conv_42", "42" or 42.', code="invalid"
            )
        return number

    def to_representation(self, value: Any) -> Any:
        return value


class HistoryTimestampField(serializers.DateTimeField):
    def to_representation(self, value: datetime) -> str:
        return format_timestamp(value)


class ConversationToolCallFunctionSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(read_only=True, help_text="The function the model called.")
    arguments = serializers.CharField(
        read_only=True, help_text="Its arguments, a JSON string as the model wrote it."
    )


class ConversationToolCallSerializer(serializers.Serializer[dict[str, Any]]):
    """One tool call of an assistant message, in OpenAI's shape."""

    id = serializers.CharField(read_only=True)
    type = serializers.CharField(read_only=True, help_text='"function"')
    function = ConversationToolCallFunctionSerializer(read_only=True)


class ConversationMessageSerializer(serializers.ModelSerializer[Message]):
    created_at = HistoryTimestampField(read_only=True)
    tool_calls = ConversationToolCallSerializer(
        many=True,
        read_only=True,
        allow_null=True,
        help_text="An assistant message's tool calls, in order; null on every other message.",
    )
    tool_call_id = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text="The call a tool message answers; null on every other message.",
    )

    class Meta:
        model = Message
        fields = ["id", "role", "content", "model", "tool_calls", "tool_call_id", "created_at"]
        # Read-only fields are "required" in the response schema; model is not always there.
        read_only_fields = ["id", "role", "content", "created_at"]
        extra_kwargs = {
            "model": {"help_text": "The model that wrote the message; on assistant messages only."}
        }

    def to_representation(self, instance: Message) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if instance.role != Message.Role.ASSISTANT:
            del data["model"]
        # Stored as "" on messages that answer no call; shown as null, like tool_calls.
        data["tool_call_id"] = instance.tool_call_id or None
        return data


class _ConversationBaseSerializer(serializers.ModelSerializer[Conversation]):
    id = serializers.CharField(source="public_id", read_only=True, help_text='"conv_<id>"')
    created_at = HistoryTimestampField(read_only=True)
    updated_at = HistoryTimestampField(read_only=True)

    class Meta:
        model = Conversation
        fields = ["id", "mode", "title", "created_at", "updated_at", "messages"]
        read_only_fields = fields


class ConversationSummarySerializer(_ConversationBaseSerializer):
    """A list entry: its ``messages`` holds the latest message only (empty when none)."""

    messages = ConversationMessageSerializer(source="latest_messages", many=True, read_only=True)

    class Meta(_ConversationBaseSerializer.Meta):
        pass


class ConversationDetailSerializer(_ConversationBaseSerializer):
    """One conversation with every message in order, system messages included."""

    messages = ConversationMessageSerializer(many=True, read_only=True)

    class Meta(_ConversationBaseSerializer.Meta):
        pass


@extend_schema_serializer(many=False)
class ConversationListSerializer(serializers.Serializer[dict[str, Any]]):
    object = serializers.ChoiceField(choices=["list"])
    data = ConversationSummarySerializer(many=True)  # type: ignore[assignment]  # the field
    has_more = serializers.BooleanField()
    total = serializers.IntegerField(help_text="How many conversations match the mode.")
    mode_filter = serializers.CharField(help_text="The mode applied.")


class _QueryParamMixin:
    field_name: str | None

    def get_value(self, dictionary: Any) -> Any:
        # DRF reads "?page=" as "not sent" (the default); it is a page that is not an integer.
        return dictionary.get(self.field_name, serializers.empty)


class _QueryPageField(_QueryParamMixin, serializers.IntegerField):
    """A page number from the query string: ASCII digits only, at least 1."""

    default_error_messages = {"invalid": "page must be an integer of at least 1."}
    _DIGITS = re.compile(r"^[0-9]{1,18}\Z")

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not self._DIGITS.match(data) or int(data) < 1:
            self.fail("invalid")
        return int(data)


class _QueryChoiceField(_QueryParamMixin, serializers.ChoiceField):
    pass


class ConversationListQuerySerializer(serializers.Serializer[dict[str, Any]]):
    mode = _QueryChoiceField(
        choices=MODE_FILTERS,
        required=False,
        default=MODE_ALL,
        error_messages={
            "invalid_choice": "mode must be one of " + ", ".join(MODE_FILTERS) + ".",
        },
        help_text=(
            "all (default), chat (web chat), agents (web agent conversations), personal "
            "(personal AI), api (API chat), api_agents (API persona chat)."
        ),
    )
    page = _QueryPageField(required=False, default=1, help_text="Page number, from 1 (20 a page).")
