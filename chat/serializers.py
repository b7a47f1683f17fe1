"""Request and response shapes of the chat completions endpoints (docs/api.md, Chat completions)."""

from __future__ import annotations

import base64
import binascii
import math
import re
import threading
from typing import Any, TypeGuard

from django.utils.functional import cached_property
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.utils.serializer_helpers import BindingDict

from conversations.serializers import ConversationIdField
from core.fields import StrictNumberField
from core.ids import parse_id
from llm.catalog import get_catalog

REASONING_EFFORTS = ("xhigh", "high", "medium", "low", "minimal")
PERSONA_ROLES = ("user", "assistant", "tool")
GENERAL_ROLES = ("system", "developer", "user", "assistant", "tool")
MAX_STOP_SEQUENCES = 4
MAX_TOOLS = 128
MAX_CHOICES = 8
MAX_TOP_LOGPROBS = 20
MAX_USER_CHARS = 256
MAX_TOOL_CALL_ID_CHARS = 256
TOOL_CHOICES = ("none", "auto", "required")
TOOL_TYPES = ("function",)
RESPONSE_FORMATS = ("text", "json_object", "json_schema")
# `model: "persona/<id>"`: persona chat with that persona and its default model.
PERSONA_MODEL_PREFIX = "persona/"
_DATA_URL = re.compile(r"^data:image/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/=\s]+)$")
# OpenAI's rule for function and json_schema names.
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}\Z")
_TOKEN_ID = re.compile(r"^[0-9]{1,19}\Z")


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

    def __init__(
        self, *, min_value: int | None = None, max_value: int | None = None, **kwargs: Any
    ) -> None:
        self.min_value, self.max_value = min_value, max_value
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise serializers.ValidationError("must be an integer.", code="invalid_type")
        bounded = self.max_value is not None and self.min_value is not None
        if bounded and not self.min_value <= data <= self.max_value:  # type: ignore[operator]
            raise serializers.ValidationError(
                f"must be between {self.min_value} and {self.max_value}."
            )
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
    """A JSON string with some non-blank character (any string with ``allow_blank``), at most
    ``max_length`` characters when given."""

    def __init__(
        self, *, allow_blank: bool = False, max_length: int | None = None, **kwargs: Any
    ) -> None:
        self.allow_blank, self.max_length = allow_blank, max_length
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            raise serializers.ValidationError("must be a string.", code="invalid_type")
        if not self.allow_blank and not data.strip():
            raise serializers.ValidationError("must not be blank.")
        if self.max_length is not None and len(data) > self.max_length:
            raise serializers.ValidationError(f"must be at most {self.max_length} characters.")
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


class ToolCallFunctionSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=64)
    arguments = serializers.CharField(help_text="The call's arguments: JSON, as a string.")


class ToolCallSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    type = serializers.ChoiceField(choices=TOOL_TYPES)
    function = ToolCallFunctionSerializer()


class ChatMessageSerializer(serializers.Serializer[dict[str, Any]]):
    """Documentation shape of one message; validation happens in _validate_messages."""

    role = serializers.ChoiceField(choices=GENERAL_ROLES)
    content = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text=(
            "A string, or an array of text and image_url parts (text parts only in a tool "
            "message). May be null or absent in an assistant message with tool_calls."
        ),
    )
    tool_call_id = serializers.CharField(
        required=False, help_text="Required in a tool message: the call it answers."
    )
    tool_calls = ToolCallSerializer(
        many=True, required=False, help_text="An assistant message's calls of the tools."
    )


class FunctionDefinitionSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.RegexField(r"^[A-Za-z0-9_-]{1,64}$")
    description = serializers.CharField(required=False)
    parameters = serializers.DictField(
        required=False, help_text="The arguments, as a JSON Schema object."
    )
    strict = StrictBooleanField(required=False)


class ToolSerializer(serializers.Serializer[dict[str, Any]]):
    type = serializers.ChoiceField(choices=TOOL_TYPES)
    function = FunctionDefinitionSerializer()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": list(TOOL_CHOICES)},
            {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": ["function"]},
                    "function": {
                        "type": "object",
                        "properties": {"name": {"type": "string"}},
                        "required": ["name"],
                    },
                },
                "required": ["type", "function"],
            },
        ]
    }
)
class ToolChoiceField(serializers.JSONField):
    """Documentation shape of ``tool_choice``; validation happens in _validate_tool_choice."""


class JsonSchemaFormatSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.RegexField(r"^[A-Za-z0-9_-]{1,64}$")
    description = serializers.CharField(required=False)
    schema = serializers.DictField(required=False, help_text="A JSON Schema object.")
    strict = StrictBooleanField(required=False)


class ResponseFormatSerializer(serializers.Serializer[dict[str, Any]]):
    type = serializers.ChoiceField(choices=RESPONSE_FORMATS)
    json_schema = JsonSchemaFormatSerializer(
        required=False, help_text='Required when type is "json_schema".'
    )


# Validated by hand (see ChatCompletionRequestSerializer.to_internal_value), so that each
# error names its exact path; their declared fields only document them.
_BY_HAND = ("messages", "tools", "tool_choice", "response_format", "logit_bias")


# Per thread: the bound fields of each request serializer (ChatCompletionRequestSerializer.fields).
_bound_fields = threading.local()


class ChatCompletionRequestSerializer(serializers.Serializer[dict[str, Any]]):
    """One serializer for persona chat and general chat; `persona_required` picks the rules."""

    persona_id = StrictIntegerField(required=False, min_value=1)
    model = StrictStringField(
        required=False,
        help_text='A catalog model, or "persona/<id>": persona chat with that persona.',
    )
    messages = serializers.ListField(child=ChatMessageSerializer(), allow_empty=False)
    temperature = StrictNumberField(min_value=0, max_value=2, required=False)
    max_tokens = StrictIntegerField(min_value=1, required=False)
    max_completion_tokens = StrictIntegerField(
        min_value=1, required=False, help_text="The newer name of max_tokens; give one of them."
    )
    top_k = StrictIntegerField(min_value=0, required=False)
    top_p = StrictNumberField(min_value=0, max_value=1, required=False)
    min_p = StrictNumberField(min_value=0, max_value=1, required=False)
    repetition_penalty = StrictNumberField(min_value=0, exclusive_min=True, required=False)
    frequency_penalty = StrictNumberField(min_value=-2, max_value=2, required=False)
    presence_penalty = StrictNumberField(min_value=-2, max_value=2, required=False)
    logit_bias = serializers.DictField(
        child=StrictNumberField(min_value=-100, max_value=100),
        required=False,
        help_text="Token ids (as strings) to a bias from -100 to 100.",
    )
    seed = StrictIntegerField(required=False)
    stop = serializers.JSONField(required=False, help_text="A string or up to 4 strings.")
    n = StrictIntegerField(
        min_value=1, max_value=MAX_CHOICES, required=False, help_text="How many choices."
    )
    logprobs = StrictBooleanField(required=False)
    top_logprobs = StrictIntegerField(
        min_value=0, max_value=MAX_TOP_LOGPROBS, required=False, help_text="Needs logprobs."
    )
    user = StrictStringField(allow_blank=True, max_length=MAX_USER_CHARS, required=False)
    tools = ToolSerializer(many=True, required=False)
    tool_choice = ToolChoiceField(required=False)
    parallel_tool_calls = StrictBooleanField(required=False)
    response_format = ResponseFormatSerializer(required=False)
    reasoning = ReasoningSerializer(required=False)
    reasoning_effort = serializers.ChoiceField(choices=REASONING_EFFORTS, required=False)
    stream = StrictBooleanField(required=False, default=False)
    stream_options = StreamOptionsSerializer(required=False)
    conversation_id = ConversationIdField(required=False)

    def __init__(self, *args: Any, persona_required: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.persona_required = persona_required

    @cached_property
    def fields(self) -> BindingDict:
        """The bound fields, built once per thread and reused by every request it serves.

        DRF deep-copies every declared field (nested serializers included) for each new
        serializer; for this one, on every chat, that copy cost more than the validation.
        The fields keep no state of their own between validations, and a thread validates one
        request at a time, so each thread keeps one set and points it at the serializer in use.
        """
        cache: dict[type[Any], BindingDict] | None = getattr(_bound_fields, "by_class", None)
        if cache is None:
            cache = _bound_fields.by_class = {}
        fields = cache.get(type(self))
        if fields is None:
            fields = BindingDict(self)
            for name, field in self.get_fields().items():
                fields[name] = field
            cache[type(self)] = fields
        else:
            fields.serializer = self
            for field in fields.values():
                field.parent = self
        return fields

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                {"non_field_errors": ["The request body must be a JSON object."]}
            )
        rest = {k: v for k, v in data.items() if k not in _BY_HAND}
        if "messages" in data:
            rest["messages"] = [{"role": "user", "content": "x"}]
        validated = super().to_internal_value(rest)
        if "messages" in data:
            persona_chat = (
                self.persona_required
                or "persona_id" in data
                or persona_model_id(data.get("model")) is not None
            )
            validated["messages"] = self._validate_messages(data["messages"], persona_chat)
        # Passed upstream exactly as sent once they are known to be well formed.
        if "tools" in data:
            validated["tools"] = _validate_tools(data["tools"])
        if "tool_choice" in data:
            validated["tool_choice"] = _validate_tool_choice(data["tool_choice"])
        if "response_format" in data:
            validated["response_format"] = _validate_response_format(data["response_format"])
        if "logit_bias" in data:
            validated["logit_bias"] = _validate_logit_bias(data["logit_bias"])
        return validated

    def _validate_messages(self, messages: Any, persona_chat: bool) -> list[dict[str, Any]]:
        if not isinstance(messages, list):
            raise _fail("messages", "must be an array of messages.")
        if not messages:
            raise _fail("messages", "must not be empty.")
        roles = PERSONA_ROLES if persona_chat else GENERAL_ROLES
        cleaned = []
        for i, message in enumerate(messages):
            where = f"messages[{i}]"
            if not isinstance(message, dict):
                raise _fail(where, "must be an object with role and content.")
            role = message.get("role")
            if role not in roles:
                allowed = ", ".join(roles)
                persona_hint = role in ("system", "developer")
                hint = " (the persona owns the system prompt)" if persona_hint else ""
                raise _fail(f"{where}.role", f"must be one of {allowed}{hint}.")
            if role == "tool":
                cleaned.append(self._tool_message(message, where))
            elif role == "assistant" and message.get("tool_calls") not in (None, []):
                cleaned.append(self._tool_calling_message(message, where))
            else:
                cleaned.append(
                    {
                        "role": "system" if role == "developer" else role,
                        "content": self._validate_content(
                            message.get("content"), f"{where}.content"
                        ),
                    }
                )
        return cleaned

    def _tool_message(self, message: dict[str, Any], where: str) -> dict[str, Any]:
        """A tool's result: the call it answers, and text."""
        call_id = message.get("tool_call_id")
        if not isinstance(call_id, str) or not call_id.strip():
            raise _fail(f"{where}.tool_call_id", "is required: the id of the call answered.")
        if len(call_id) > MAX_TOOL_CALL_ID_CHARS:
            raise _fail(
                f"{where}.tool_call_id", f"must be at most {MAX_TOOL_CALL_ID_CHARS} characters."
            )
        content = message.get("content")
        path = f"{where}.content"
        if isinstance(content, str):
            # A tool may well return nothing: an empty result is a result.
            checked: str | list[dict[str, Any]] = _storable(content, path)
        elif isinstance(content, list):
            for j, part in enumerate(content):
                if isinstance(part, dict) and part.get("type") not in (None, "text"):
                    raise _fail(f"{path}[{j}].type", "must be 'text' in a tool message.")
            checked = self._validate_content(content, path)
        else:
            raise _fail(path, "must be a string or an array of text parts.")
        return {
            "role": "tool",
            "tool_call_id": _storable(call_id, f"{where}.tool_call_id"),
            "content": checked,
        }

    def _tool_calling_message(self, message: dict[str, Any], where: str) -> dict[str, Any]:
        """An assistant message that called tools; its content may be null or absent."""
        calls = message["tool_calls"]
        if not isinstance(calls, list):
            raise _fail(f"{where}.tool_calls", "must be an array of tool calls.")
        content = message.get("content")
        path = f"{where}.content"
        if content is None:
            checked: str | list[dict[str, Any]] | None = None
        elif isinstance(content, str):
            checked = _storable(content, path)
        else:
            checked = self._validate_content(content, path)
        return {
            "role": "assistant",
            "content": checked,
            "tool_calls": [
                _validate_tool_call(call, f"{where}.tool_calls[{j}]")
                for j, call in enumerate(calls)
            ],
        }

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
        if value.startswith(PERSONA_MODEL_PREFIX):
            if persona_model_id(value) is None:
                raise serializers.ValidationError(
                    f"'{value[:100]}' names no persona: use persona/<id>, the id an integer."
                )
            return value
        if get_catalog().get(value) is None:
            raise serializers.ValidationError(
                f"The model '{value[:100]}' does not exist; GET /v1/models lists them."
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        named = persona_model_id(attrs.get("model"))
        if named is not None:
            # "persona/<id>" is persona chat with that persona and its default model.
            if "persona_id" in attrs and attrs["persona_id"] != named:
                raise _fail(
                    "model",
                    f"names persona {named} but persona_id is {attrs['persona_id']}; "
                    "give one of them, or the same persona in both.",
                )
            attrs["persona_id"] = named
            del attrs["model"]
        if self.persona_required and "persona_id" not in attrs:
            raise _fail("persona_id", 'is required (or a model "persona/<id>").')
        if "persona_id" not in attrs and "model" not in attrs:
            raise _fail("model", "is required when no persona_id is given.")
        if "max_tokens" in attrs and "max_completion_tokens" in attrs:
            raise _fail(
                "max_completion_tokens", "is the same as max_tokens: give only one of them."
            )
        if "top_logprobs" in attrs and attrs.get("logprobs") is not True:
            raise _fail("top_logprobs", "needs logprobs set to true.")
        _check_tool_choice(attrs.get("tool_choice"), attrs.get("tools"))
        legacy = attrs.pop("reasoning_effort", None)
        if legacy is not None:
            # OpenAI's older spelling: it becomes reasoning.effort, and an explicit
            # reasoning.effort wins when both are given.
            attrs["reasoning"] = {"effort": legacy, **attrs.get("reasoning", {})}
        return attrs


def persona_model_id(model: Any) -> int | None:
    """The persona a ``model`` of the form "persona/<id>" names, else None."""
    if not isinstance(model, str) or not model.startswith(PERSONA_MODEL_PREFIX):
        return None
    return parse_id(model[len(PERSONA_MODEL_PREFIX) :])


def requested_persona_id(body: Any) -> int | None:
    """The persona a raw request body asks for (``persona_id``, else a "persona/<id>" model),
    before validation: the id to read alongside the key."""
    if not isinstance(body, dict):
        return None
    if "persona_id" in body:
        return parse_id(body["persona_id"])
    return persona_model_id(body.get("model"))


def _is_name(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and _NAME.match(value) is not None


_NAME_RULE = "must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -."


def _optional_types(value: dict[str, Any], path: str, fields: dict[str, type]) -> None:
    """Each of ``fields`` present in ``value`` has its JSON type (str, bool or dict)."""
    names = {str: "a string", bool: "a boolean", dict: "an object"}
    for name, kind in fields.items():
        if name in value and not isinstance(value[name], kind):
            raise _fail(f"{path}.{name}", f"must be {names[kind]}.")


def _validate_tools(tools: Any) -> list[dict[str, Any]]:
    if not isinstance(tools, list):
        raise _fail("tools", "must be an array of tools.")
    if len(tools) > MAX_TOOLS:
        raise _fail("tools", f"accepts at most {MAX_TOOLS} tools.")
    seen: set[str] = set()
    for i, tool in enumerate(tools):
        where = f"tools[{i}]"
        if not isinstance(tool, dict):
            raise _fail(where, 'must be an object: {"type": "function", "function": {...}}.')
        if tool.get("type") != "function":
            raise _fail(f"{where}.type", "must be 'function'.")
        function = tool.get("function")
        if not isinstance(function, dict):
            raise _fail(f"{where}.function", "must be an object with a name.")
        name = function.get("name")
        if not _is_name(name):
            raise _fail(f"{where}.function.name", _NAME_RULE)
        if name in seen:
            raise _fail(f"{where}.function.name", f"'{name}' is given twice.")
        seen.add(name)
        _optional_types(
            function,
            f"{where}.function",
            {"description": str, "parameters": dict, "strict": bool},
        )
    return tools


def _validate_tool_choice(choice: Any) -> str | dict[str, Any]:
    if isinstance(choice, str):
        if choice not in TOOL_CHOICES:
            raise _fail("tool_choice", "must be 'none', 'auto', 'required' or a function.")
        return choice
    if not isinstance(choice, dict):
        raise _fail(
            "tool_choice",
            "must be 'none', 'auto', 'required' or {\"type\": \"function\", \"function\": "
            '{"name": ...}}.',
        )
    if choice.get("type") != "function":
        raise _fail("tool_choice.type", "must be 'function'.")
    function = choice.get("function")
    if not isinstance(function, dict):
        raise _fail("tool_choice.function", "must be an object with a name.")
    if not _is_name(function.get("name")):
        raise _fail("tool_choice.function.name", _NAME_RULE)
    return choice


def _check_tool_choice(choice: Any, tools: list[dict[str, Any]] | None) -> None:
    """A tool_choice that asks for a tool needs one to be given, and a named one must be."""
    if choice is None or choice in ("none", "auto"):
        return
    if not tools:
        raise _fail("tool_choice", "asks for a tool call, but no tools are given.")
    if isinstance(choice, dict):
        name = choice["function"]["name"]
        if name not in {tool["function"]["name"] for tool in tools}:
            raise _fail("tool_choice.function.name", f"'{name}' is not one of the tools.")


def _validate_response_format(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail("response_format", 'must be an object such as {"type": "json_object"}.')
    kind = value.get("type")
    if kind not in RESPONSE_FORMATS:
        raise _fail("response_format.type", "must be 'text', 'json_object' or 'json_schema'.")
    if kind == "json_schema":
        schema = value.get("json_schema")
        if not isinstance(schema, dict):
            raise _fail("response_format.json_schema", "must be an object with a name.")
        if not _is_name(schema.get("name")):
            raise _fail("response_format.json_schema.name", _NAME_RULE)
        _optional_types(
            schema,
            "response_format.json_schema",
            {"description": str, "schema": dict, "strict": bool},
        )
    return value


def _validate_logit_bias(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail("logit_bias", "must be an object of token ids to numbers.")
    for token, bias in value.items():
        if not _TOKEN_ID.match(token):
            raise _fail("logit_bias", f"'{token[:40]}' is not a token id (a string of digits).")
        if (
            isinstance(bias, bool)
            or not isinstance(bias, int | float)
            or not math.isfinite(bias)
            or not -100 <= bias <= 100
        ):
            raise _fail(f"logit_bias.{token}", "must be a number between -100 and 100.")
    return value


def _validate_tool_call(call: Any, where: str) -> dict[str, Any]:
    if not isinstance(call, dict):
        raise _fail(where, 'must be an object: {"id", "type": "function", "function"}.')
    call_id = call.get("id")
    if not isinstance(call_id, str) or not call_id.strip():
        raise _fail(f"{where}.id", "must be a non-blank string.")
    if len(call_id) > MAX_TOOL_CALL_ID_CHARS:
        raise _fail(f"{where}.id", f"must be at most {MAX_TOOL_CALL_ID_CHARS} characters.")
    if call.get("type") != "function":
        raise _fail(f"{where}.type", "must be 'function'.")
    function = call.get("function")
    if not isinstance(function, dict):
        raise _fail(f"{where}.function", "must be an object with name and arguments.")
    name = function.get("name")
    if not _is_name(name):
        raise _fail(f"{where}.function.name", _NAME_RULE)
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        raise _fail(f"{where}.function.arguments", "must be a string (JSON text).")
    return {
        "id": _storable(call_id, f"{where}.id"),
        "type": "function",
        "function": {
            "name": name,
            "arguments": _storable(arguments, f"{where}.function.arguments"),
        },
    }


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
    content = serializers.CharField(
        allow_null=True, help_text="null when the model only called tools."
    )
    tool_calls = ToolCallSerializer(many=True, allow_null=True)
    reasoning_content = serializers.CharField(allow_null=True)


class ChoiceSerializer(serializers.Serializer[dict[str, Any]]):
    index = serializers.IntegerField()
    message = AssistantMessageSerializer()
    logprobs = serializers.DictField(
        allow_null=True, help_text="The provider's logprobs, when the request asked for them."
    )
    finish_reason = serializers.ChoiceField(
        choices=["stop", "length", "tool_calls", "content_filter"]
    )


class UsageSerializer(serializers.Serializer[dict[str, Any]]):
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    total_tokens = serializers.IntegerField()
    cost = serializers.DecimalField(
        max_digits=20,
        decimal_places=8,
        coerce_to_string=True,
        help_text="What the request was charged, in USD (a decimal string, 8 places).",
    )


class ChatCompletionResponseSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.CharField()
    object = serializers.CharField(default="chat.completion")
    created = serializers.IntegerField()
    model = serializers.CharField(help_text="The model that answered.")
    context_left = serializers.IntegerField()
    context_total = serializers.IntegerField()
    persona = PersonaSummarySerializer(allow_null=True)
    choices = ChoiceSerializer(many=True)
    usage = UsageSerializer()
    conversation_id = serializers.IntegerField(allow_null=True)
