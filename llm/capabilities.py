"""What a model can take: the one check of a request against a catalog model's capabilities.

The chat pipeline runs it on the requested model before anything is generated (a 400 naming the
``param``), and the router on each fallback before trying it (a fallback that cannot take the
request is skipped): a request is refused or rerouted, never sent without what it asked for
(docs/api.md, Tools and structured outputs; Models and providers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from llm.catalog import ModelSpec
from llm.errors import UnsupportedRequest

__all__ = ["check_capabilities", "has_images"]


def has_images(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a message has an ``image_url`` part."""
    for message in messages:
        content = message.get("content")
        if isinstance(content, list) and any(
            isinstance(part, dict) and part.get("type") == "image_url" for part in content
        ):
            return True
    return False


def check_capabilities(
    model: ModelSpec, *, messages: Sequence[Mapping[str, Any]], params: Mapping[str, Any]
) -> None:
    """Raise UnsupportedRequest when ``model`` cannot take the request.

    ``messages`` are the messages the model would be sent (the pipeline passes the request's,
    the router everything it sends, history included); ``params`` holds the request's fields
    (``tools``, ``response_format``, ``n``), validated. Checked in this order: images
    (``param: "messages"``), tools, tool calls and results in the messages
    (``"messages[i]"``), a response format other than text, more than one choice.
    """
    if not model.vision and has_images(messages):
        raise UnsupportedRequest(
            f"The model '{model.id}' does not accept images.", param="messages"
        )
    if not model.tools:
        if params.get("tools"):
            raise UnsupportedRequest(f"The model '{model.id}' does not take tools.", param="tools")
        for i, message in enumerate(messages):
            if message.get("role") == "tool" or message.get("tool_calls"):
                raise UnsupportedRequest(
                    f"The model '{model.id}' does not take tools, nor tool calls and results "
                    "in the messages.",
                    param=f"messages[{i}]",
                )
    response_format = params.get("response_format") or {"type": "text"}
    if not model.structured_outputs and response_format.get("type", "text") != "text":
        raise UnsupportedRequest(
            f"The model '{model.id}' does not take a response_format other than text.",
            param="response_format",
        )
    # The embedded model answers one choice per request; an HTTP upstream gives n.
    if model.provider == "local" and params.get("n", 1) > 1:
        raise UnsupportedRequest(
            f"The model '{model.id}' gives one choice per request: n must be 1.", param="n"
        )
