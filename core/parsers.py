"""The API's one JSON parser (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``, and chat's own body
parsing in ``chat.api``): DRF's, minus the ways a body could still turn into a 500.

The standard library's decoder recurses once per nesting level, so a body of a few thousand
``[`` raises RecursionError, which DRF's JSONParser (it catches only ValueError) lets escape.
Nothing Nova accepts nests deeply, so anything deeper than :data:`MAX_JSON_DEPTH` is refused
before a serializer, a service or ``json.dumps`` on the way to the database has to walk it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import IO, Any

from rest_framework.parsers import JSONParser

from core.errors import InvalidRequest

__all__ = ["MAX_JSON_DEPTH", "BoundedJSONParser", "check_json_depth"]

# A chat request is five levels deep (body > messages > message > content parts > image_url);
# training-data metadata is a free object, and 64 levels leave it room.
MAX_JSON_DEPTH = 64


def _too_deep() -> InvalidRequest:
    return InvalidRequest(
        f"The request body nests JSON more than {MAX_JSON_DEPTH} levels deep.",
        code="invalid_json",
    )


def check_json_depth(data: Any, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise InvalidRequest (400, ``invalid_json``) when objects and arrays in ``data`` nest
    more than ``limit`` levels deep. Iterative, so the check itself cannot recurse too far."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(value, Mapping):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            raise _too_deep()
        stack.extend((child, depth + 1) for child in children if isinstance(child, Mapping | list))


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser (same media type, same strict constants, the same ParseError for
    malformed JSON, which ``core.errors`` renders as ``invalid_json``), bounded in depth."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        check_json_depth(data)
        return data
