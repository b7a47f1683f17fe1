"""Serializers for the personas API (docs/personas.md).

Input serializers only check JSON types, strictly (a number is not a string, a boolean is not a
number); the rules on values live in ``personas.services`` so the dashboard obeys the same ones.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from core.fields import QueryBooleanField
from personas.models import (
    CONTENT_MAX_LENGTH,
    TITLE_MAX_LENGTH,
    Persona,
    TrainingDataItem,
    user_id_of,
)
from personas.services import METADATA_MAX_LENGTH, TRAINING_TYPES

__all__ = [
    "PersonaDetailSerializer",
    "PersonaListQuerySerializer",
    "PersonaListSerializer",
    "PersonaSerializer",
    "TrainingDataItemRequestSerializer",
    "TrainingDataItemSerializer",
    "TrainingDataListSerializer",
    "UtcDateTimeField",
]


class UtcDateTimeField(serializers.DateTimeField):
    """ISO 8601 in UTC, always with six fractional digits and a Z: 2026-11-22T15:33:43.123456Z."""

    def to_representation(self, value: datetime) -> str:
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class StrictCharField(serializers.CharField):
    """A CharField that accepts only JSON strings (DRF's own also takes numbers).

    Blank strings and surrounding whitespace pass through: the services decide what is valid.
    """

    default_error_messages = {"invalid": "Must be a string."}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return data


# --- Personas ---


class PersonaSerializer(serializers.ModelSerializer[Persona]):
    """A persona as listed: never its system prompt."""

    is_owned = serializers.SerializerMethodField(help_text="True when the caller owns it.")
    has_training_data = serializers.BooleanField(read_only=True)
    created_at = UtcDateTimeField(read_only=True)

    class Meta:
        model = Persona
        fields = [
            "id",
            "name",
            "description",
            "category",
            "is_public",
            "is_owned",
            "has_training_data",
            "default_model",
            "default_temperature",
            "created_at",
        ]
        read_only_fields = fields

    def get_is_owned(self, persona: Persona) -> bool:
        request = self.context.get("request")
        return persona.is_owned_by(user_id_of(getattr(request, "user", None)))


class PersonaDetailSerializer(PersonaSerializer):
    """One persona; its owner also sees the system prompt."""

    system_prompt = serializers.CharField(
        required=False, help_text="Only present when the caller owns the persona."
    )

    class Meta(PersonaSerializer.Meta):
        fields = [*PersonaSerializer.Meta.fields, "system_prompt"]
        read_only_fields = PersonaSerializer.Meta.fields

    def to_representation(self, instance: Persona) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if not self.get_is_owned(instance):
            data.pop("system_prompt", None)
        return data


@extend_schema_serializer(many=False)
class PersonaListSerializer(serializers.Serializer[dict[str, Any]]):
    object = serializers.ChoiceField(choices=["list"])
    data = PersonaSerializer(many=True)  # type: ignore[assignment]  # the field, not .data
    has_more = serializers.BooleanField(help_text="True when a later page holds more personas.")
    total = serializers.IntegerField(help_text="Number of personas matching the filters.")


class _PageField(serializers.IntegerField):
    default_error_messages = {"invalid": "Must be an integer of at least 1."}
    _DIGITS = re.compile(r"[0-9]{1,18}")

    def get_value(self, dictionary: Any) -> Any:
        return dictionary.get(self.field_name, serializers.empty)

    def to_internal_value(self, data: Any) -> int:
        # fullmatch: "^...$" would also take "2\n".
        if not isinstance(data, str) or not self._DIGITS.fullmatch(data) or int(data) < 1:
            self.fail("invalid")
        return int(data)


class PersonaListQuerySerializer(serializers.Serializer[dict[str, Any]]):
    page = _PageField(required=False, default=1, help_text="Page number, from 1 (50 a page).")
    category = serializers.CharField(
        required=False, allow_blank=True, help_text="Only personas of this category."
    )
    owned = QueryBooleanField(
        required=False,
        default=None,
        help_text="true: only the caller's personas; false: only personas the caller does not own.",
    )

    def validate_category(self, value: str) -> str:
        # PostgreSQL refuses NUL in a query parameter; answer 400 rather than 500.
        if "\x00" in value:
            raise serializers.ValidationError("Must not contain NUL characters.")
        return value


# --- Training data ---


class TrainingDataItemSerializer(serializers.ModelSerializer[TrainingDataItem]):
    persona_id = serializers.IntegerField(read_only=True)
    created_at = UtcDateTimeField(read_only=True)
    updated_at = UtcDateTimeField(read_only=True)

    class Meta:
        model = TrainingDataItem
        fields = [
            "id",
            "persona_id",
            "type",
            "title",
            "content",
            "metadata",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class TrainingDataItemRequestSerializer(serializers.Serializer[dict[str, Any]]):
    """POST and PUT take every field (type and content required); PATCH any subset."""

    type = serializers.ChoiceField(
        choices=TRAINING_TYPES, help_text="text, qa_pair, example, document or knowledge."
    )
    content = StrictCharField(
        help_text=f"Required, non-blank, at most {CONTENT_MAX_LENGTH:,} characters."
    )
    title = StrictCharField(
        required=False,
        allow_null=True,
        help_text=f"Optional, at most {TITLE_MAX_LENGTH} characters.",
    )
    metadata = serializers.DictField(
        required=False,
        allow_null=True,
        help_text="Optional JSON object (at most "
        f"{METADATA_MAX_LENGTH:,} characters as JSON). A qa_pair needs metadata.question, "
        "a non-blank string.",
    )


@extend_schema_serializer(many=False)
class TrainingDataListSerializer(serializers.Serializer[dict[str, Any]]):
    object = serializers.ChoiceField(choices=["list"])
    data = TrainingDataItemSerializer(many=True)  # type: ignore[assignment]  # the field, not .data
