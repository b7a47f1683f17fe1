"""The text a conversation stores for a chat message (docs/conversations.md, What is stored)."""

from __future__ import annotations

from typing import Any

__all__ = ["IMAGE_PLACEHOLDER", "message_text"]

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
