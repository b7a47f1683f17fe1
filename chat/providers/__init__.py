"""Model providers: the embedded local model and any OpenAI-compatible HTTP API."""

from __future__ import annotations

from chat.providers.base import (
    SAMPLING_FIELDS,
    Completion,
    Delta,
    Finish,
    GenerationRequest,
    Grounding,
    GroundingItem,
    Provider,
    Usage,
    get_provider,
)

__all__ = [
    "SAMPLING_FIELDS",
    "Completion",
    "Delta",
    "Finish",
    "GenerationRequest",
    "Grounding",
    "GroundingItem",
    "Provider",
    "Usage",
    "get_provider",
]
