"""What a conversation stores for a chat message (docs/conversations.md, What is stored)."""

from __future__ import annotations

import json
from typing import Any

from core.text import storable_text

__all__ = ["IMAGE_PLACEHOLDER", "message_text", "stored_tool_calls"]

IMAGE_PLACEHOLDER = "[image]"


def message_text(content: Any) -> str:
    """The text of an OpenAI message ``content`` as stored: a string as it is; a list of parts
    as its text parts and an :data:`IMAGE_PLACEHOLDER` for each image part (never the image's
    data), one per line in their order. Other parts are left out."""
    if isinstance(content, str):
        return content
    pieces: list[str] = []
    for part in content or []:
        if part.get("type") == "text":
            pieces.append(part.get("text", ""))
        elif part.get("type") == "image_url":
            pieces.append(IMAGE_PLACEHOLDER)
    return "\n".join(pieces)


def _storable_str(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return storable_text(value)
    # Arguments are a JSON string in OpenAI's format; a provider that hands back an object
    # gets it encoded, so that replaying the call sends what OpenAI expects.
    return storable_text(json.dumps(value, ensure_ascii=False))


def stored_tool_calls(tool_calls: Any) -> list[dict[str, Any]] | None:
    """An assistant message's tool calls as stored and replayed: each call as
    ``{"id", "type", "function": {"name", "arguments"}}`` with every string made storable
    (``core.text.storable_text``: PostgreSQL's JSON refuses NUL and lone surrogates), in their
    order. None when there are none (absent, null or an empty list); entries that are not
    objects are left out."""
    if not isinstance(tool_calls, list):
        return None
    stored: list[dict[str, Any]] = []
    for call in tool_calls:
        if not isinstance(call, dict):
            continue
        function = call.get("function")
        function = function if isinstance(function, dict) else {}
        stored.append(
            {
                "id": _storable_str(call.get("id")),
                "type": _storable_str(call.get("type") or "function"),
                "function": {
                    "name": _storable_str(function.get("name")),
                    "arguments": _storable_str(function.get("arguments")),
                },
            }
        )
    return stored or None
