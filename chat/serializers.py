"""Request and response shapes of the chat completions endpoints (docs/api.md, Chat completions)."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from conversations.serializers import ConversationIdField
from core.fields import StrictNumberField
from llm.catalog import get_catalog

REASONING_EFFORTS = ("xhigh", "high", "medium", "low", "minimal")
PERSONA_ROLES = ("user", "assistant")
GENERAL_ROLES = ("system", "developer", "user", "assistant")
MAX_STOP_SEQUENCES = 4
_DATA_URL = re.compile(r"^data:image/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/=\s]+)$")


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _storable(text: str, param: str) -> str:
    """Reject text the database cannot store (NUL, lone surrogates): a 400, not a 500."""
    if _UNSTORABLE.search(text):
        raise _fail(param, "must not contain NUL characters or unpaired surrogates.")
    return text


def _fail(param: str, message: str) -> serializers.ValidationError:
    """A ValidationError whose first error sits at `param` (a path like messages[0].role)."""
    return serializers.ValidationError({param: [message]})


@extend_schema_field(OpenApiTypes.INT64)
class StrictIntegerField(serializers.Field[int, Any, int, Any]):
    """A JSON integer within a signed 64-bit range. Booleans, strings of digits and floats
    (even ``1.0``) are refused rather than coerced, as DRF's IntegerField would."""

    def __init__(self, *, min_value: int | None = None, **kwargs: Any) -> None:
        self.min_value = min_value
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise serializers.ValidationError("must be an integer.", code="invalid_type")
        if self.min_value is not None and data < self.min_value:
            raise serializers.ValidationError(f"must be at least {self.min_value}.")
        if abs(data) > 2**63 - 1:
            raise serializers.ValidationError("is out of range.")
        return data

    def to_representation(self, value: int) -> int:
        return value


@extend_schema_field(OpenApiTypes.BOOL)
class StrictBooleanField(serializers.Field[bool, Any, bool, Any]):
    """A JSON boolean: ``1``, ``"true"`` and the like are refused rather than coerced."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            raise serializers.ValidationError("must be a boolean.", code="invalid_type")
        return data

    def to_representation(self, value: bool) -> bool:
        return value


@extend_schema_field(OpenApiTypes.STR)
class StrictStringField(serializers.Field[str, Any, str, Any]):
    """A JSON string with some non-blank character."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            raise serializers.ValidationError("must be a string.", code="invalid_type")
        if not data.strip():
            raise serializers.ValidationError("must not be blank.")
        return data

    def to_representation(self, value: str) -> str:
        return value


class ReasoningSerializer(serializers.Serializer[dict[str, Any]]):
    effort = serializers.ChoiceField(choices=REASONING_EFFORTS, required=False)
    max_tokens = StrictIntegerField(min_value=1, required=False)
    exclude = StrictBooleanField(required=False)
    enabled = StrictBooleanField(required=False)


class StreamOptionsSerializer(serializers.Serializer[dict[str, Any]]):
    include_usage = StrictBooleanField(required=False)


class ChatMessageSerializer(serializers.Serializer[dict[str, Any]]):
    """Documentation shape of one message; validation happens in validate_messages."""

    role = serializers.ChoiceField(choices=GENERAL_ROLES)
    content = serializers.JSONField(help_text="A string, or an array of text and image_url parts.")


class ChatCompletionRequestSerializer(serializers.Serializer[dict[str, Any]]):
    """One serializer for persona chat and general chat; `persona_required` picks the rules."""

    persona_id = StrictIntegerField(required=False, min_value=1)
    model = StrictStringField(required=False)
    messages = serializers.ListField(child=ChatMessageSerializer(), allow_empty=False)
    temperature = StrictNumberField(min_value=0, max_value=2, required=False)
    max_tokens = StrictIntegerField(min_value=1, required=False)
    top_k = StrictIntegerField(min_value=0, required=False)
    min_p = StrictNumberField(min_value=0, max_value=1, required=False)
    repetition_penalty = StrictNumberField(min_value=0, exclusive_min=True, required=False)
    seed = StrictIntegerField(required=False)
    stop = serializers.JSONField(required=False, help_text="A string or up to 4 strings.")
    reasoning = ReasoningSerializer(required=False)
    reasoning_effort = serializers.ChoiceField(choices=REASONING_EFFORTS, required=False)
    stream = StrictBooleanField(required=False, default=False)
    stream_options = StreamOptionsSerializer(required=False)
    conversation_id = ConversationIdField(required=False)

    def __init__(self, *args: Any, persona_required: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.persona_required = persona_required

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                {"non_field_errors": ["The request body must be a JSON object."]}
            )
        # Messages are validated by hand (below) so each error names its exact path.
        messages = data.get("messages")
        rest = {k: v for k, v in data.items() if k != "messages"}
        rest["messages"] = [{"role": "user", "content": "x"}]
        if "messages" not in data:
            rest.pop("messages")
        validated = super().to_internal_value(rest)
        if "messages" in data:
            validated["messages"] = self._validate_messages(messages, data)
        return validated

    def _validate_messages(self, messages: Any, data: dict[str, Any]) -> list[dict[str, Any]]:
        if not isinstance(messages, list):
            raise _fail("messages", "must be an array of messages.")
        if not messages:
            raise _fail("messages", "must not be empty.")
        persona_chat = self.persona_required or "persona_id" in data
        roles = PERSONA_ROLES if persona_chat else GENERAL_ROLES
        cleaned = []
        for i, message in enumerate(messages):
            if not isinstance(message, dict):
                raise _fail(f"messages[{i}]", "must be an object with role and content.")
            role = message.get("role")
            if role not in roles:
                allowed = ", ".join(roles)
                hint = " (the persona owns the system prompt)" if role == "system" else ""
                raise _fail(f"messages[{i}].role", f"must be one of {allowed}{hint}.")
            content = message.get("content")
            cleaned.append(
                {
                    "role": "system" if role == "developer" else role,
                    "content": self._validate_content(content, f"messages[{i}].content"),
                }
            )
        return cleaned

    def _validate_content(self, content: Any, path: str) -> str | list[dict[str, Any]]:
        if isinstance(content, str):
            if not content.strip():
                raise _fail(path, "must not be blank.")
            return _storable(content, path)
        if not isinstance(content, list) or not content:
            raise _fail(path, "must be a non-blank string or a non-empty array of parts.")
        parts: list[dict[str, Any]] = []
        for j, part in enumerate(content):
            where = f"{path}[{j}]"
            if not isinstance(part, dict):
                raise _fail(where, "must be an object.")
            kind = part.get("type")
            if kind == "text":
                text = part.get("text")
                if not isinstance(text, str) or not text.strip():
                    raise _fail(f"{where}.text", "must be a non-blank string.")
                parts.append({"type": "text", "text": _storable(text, f"{where}.text")})
            elif kind == "image_url":
                image = part.get("image_url")
                url = image.get("url") if isinstance(image, dict) else None
                if not isinstance(url, str) or not _valid_data_url(url):
                    raise _fail(
                        f"{where}.image_url.url",
                        "must be a data URL: data:image/<png|jpeg|webp|gif>;base64,<data>.",
                    )
                parts.append({"type": "image_url", "image_url": {"url": url}})
            else:
                raise _fail(f"{where}.type", "must be 'text' or 'image_url'.")
        if not any(p["type"] == "text" for p in parts) and not any(
            p["type"] == "image_url" for p in parts
        ):
            raise _fail(path, "must not be empty.")
        return parts

    def validate_stop(self, value: Any) -> str | list[str]:
        if isinstance(value, str):
            if not value:
                raise serializers.ValidationError("must not be empty.")
            return value
        if not isinstance(value, list) or not value:
            raise serializers.ValidationError("must be a string or an array of 1 to 4 strings.")
        if len(value) > MAX_STOP_SEQUENCES:
            raise serializers.ValidationError(
                f"accepts at most {MAX_STOP_SEQUENCES} stop sequences."
            )
        for index, item in enumerate(value):
            if not isinstance(item, str) or not item:
                raise serializers.ValidationError({str(index): ["must be a non-empty string."]})
        return value

    def validate_model(self, value: str) -> str:
        if get_catalog().get(value) is None:
            raise serializers.ValidationError(
                f"The model '{value[:100]}' does not exist; GET /v1/models lists them."
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.persona_required and "persona_id" not in attrs:
            raise _fail("persona_id", "is required.")
        if "persona_id" not in attrs and "model" not in attrs:
            raise _fail("model", "is required when no persona_id is given.")
        legacy = attrs.pop("reasoning_effort", None)
        if legacy is not None:
            # OpenAI's older spelling: it becomes reasoning.effort, and an explicit
            # reasoning.effort wins when both are given.
            attrs["reasoning"] = {"effort": legacy, **attrs.get("reasoning", {})}
        return attrs


def _valid_data_url(url: str) -> bool:
    match = _DATA_URL.match(url)
    if not match:
        return False
    try:
        payload = base64.b64decode("".join(match.group(2).split()), validate=True)
    except (binascii.Error, ValueError):
        return False
    return len(payload) > 0


class PersonaSummarySerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()


class AssistantMessageSerializer(serializers.Serializer[dict[str, Any]]):
    role = serializers.CharField(default="assistant")
    content = serializers.CharField()
    tool_calls = serializers.JSONField(allow_null=True)
    reasoning_content = serializers.CharField(allow_null=True)


class ChoiceSerializer(serializers.Serializer[dict[str, Any]]):
    index = serializers.IntegerField()
    message = AssistantMessageSerializer()
    finish_reason = serializers.ChoiceField(choices=["stop", "length"])


class UsageSerializer(serializers.Serializer[dict[str, Any]]):
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    total_tokens = serializers.IntegerField()


class ChatCompletionResponseSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    object = serializers.CharField(default="chat.completion")
    created = serializers.IntegerField()
    model = serializers.CharField()
    context_left = serializers.IntegerField()
    context_total = serializers.IntegerField()
    persona = PersonaSummarySerializer(allow_null=True)
    choices = ChoiceSerializer(many=True)
    usage = UsageSerializer()
    conversation_id = serializers.IntegerField(allow_null=True)


class PricingSerializer(serializers.Serializer[dict[str, Any]]):
    input_per_mtok = serializers.CharField()
    output_per_mtok = serializers.CharField()
    currency = serializers.CharField()


class ModelEntrySerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    object = serializers.CharField()
    context_window = serializers.IntegerField()
    pricing = PricingSerializer()
    vision = serializers.BooleanField()
    reasoning = serializers.BooleanField()


class ModelListSerializer(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField()
    data = ModelEntrySerializer(many=True)  # type: ignore[assignment]
