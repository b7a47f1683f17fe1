"""The provider interface: what the chat service hands a model and what it gets back.

Providers raise only ``core.errors.UpstreamError`` / ``UpstreamTimeout``, with messages that
never contain upstream keys or bodies. A stream that fails after some deltas raises from the
iterator at that point; the caller has the earlier deltas and bills them, since a client is
charged for every token it was sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

from llm.catalog import ModelSpec

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
]

# The sampling fields a chat request may give; providers forward these and no others.
SAMPLING_FIELDS = (
    "temperature",
    "max_tokens",
    "top_k",
    "min_p",
    "repetition_penalty",
    "seed",
    "stop",
    "reasoning",
)


@dataclass(frozen=True)
class GroundingItem:
    """One persona training-data item, for the local model."""

    type: str  # text | qa_pair | example | document | knowledge
    title: str
    content: str
    question: str  # metadata["question"] for qa_pair, else ""


@dataclass(frozen=True)
class Grounding:
    """Who the persona is, for the local model; None in general chat.

    Frozen and hashable so the local model can cache its index per grounding.
    """

    name: str
    description: str
    items: tuple[GroundingItem, ...]
    # The persona's owner is chatting: the model may list the items' titles as topics. Anyone
    # else gets answers from the items but never a list of them (README, Personas).
    owner_view: bool = True


@dataclass
class GenerationRequest:
    model: ModelSpec
    # OpenAI format, system message(s) first; content is a str or a list of parts.
    messages: list[dict[str, Any]]
    # Only the sampling fields the caller gave, already validated (SAMPLING_FIELDS).
    params: dict[str, Any]
    grounding: Grounding | None = None


@dataclass
class Usage:
    prompt_tokens: int
    completion_tokens: int

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class Completion:
    content: str
    reasoning: str | None
    finish_reason: str  # "stop" | "length"
    usage: Usage


@dataclass
class Delta:
    """A streamed fragment."""

    content: str = ""
    reasoning: str = ""


@dataclass
class Finish:
    """Always the last event of a successful stream."""

    finish_reason: str
    usage: Usage


class Provider(Protocol):
    async def complete(self, request: GenerationRequest) -> Completion: ...

    def stream(self, request: GenerationRequest) -> AsyncIterator[Delta | Finish]: ...
