"""The provider interface: what the chat service hands a model and what it gets back.

Providers raise only ``llm.errors.UpstreamFailure`` (an ``UpstreamError``; a 504
``UpstreamTimeout`` too for timeouts), with messages that never contain upstream keys or
bodies. A stream that fails after some deltas raises from the
iterator at that point; the caller has the earlier deltas and bills them, since a client is
charged for every token it was sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

from llm.catalog import ModelSpec

__all__ = [
    "PASSTHROUGH_FIELDS",
    "SAMPLING_FIELDS",
    "Choice",
    "Completion",
    "Delta",
    "Finish",
    "GenerationRequest",
    "Grounding",
    "GroundingItem",
    "OpenedStream",
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

# Every field a chat request may give that goes upstream exactly as the caller sent it (after
# validation): the sampling fields, then OpenAI's tool, output and sampling fields.
# ``max_completion_tokens`` is OpenAI's newer name of ``max_tokens``: whichever the caller sent
# is sent under that name.
PASSTHROUGH_FIELDS = (
    *SAMPLING_FIELDS,
    "max_completion_tokens",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "response_format",
    "top_p",
    "n",
    "logprobs",
    "top_logprobs",
    "user",
    "frequency_penalty",
    "presence_penalty",
    "logit_bias",
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
    # OpenAI format, system message(s) first; content is a str or a list of parts (or None
    # for an assistant message that only calls tools); assistant messages may carry
    # ``tool_calls`` and ``tool`` messages ``tool_call_id``, as OpenAI sends them.
    messages: list[dict[str, Any]]
    # Only the fields the caller gave, already validated (PASSTHROUGH_FIELDS).
    params: dict[str, Any]
    grounding: Grounding | None = None
    # The prompt's tokens as the caller counted them for ``model`` (None: not counted). A
    # fallback whose context window they fill is skipped (``llm.router``).
    prompt_tokens: int | None = None


@dataclass
class Usage:
    prompt_tokens: int
    completion_tokens: int

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class Choice:
    """One of a completion's choices (``n`` of them; one by default)."""

    content: str | None  # None when the model only called tools
    reasoning: str | None
    finish_reason: str  # "stop" | "length" | "tool_calls" | "content_filter"
    # The upstream's calls, as it sent them: {"id", "type": "function", "function": {"name",
    # "arguments" (a string)}}.
    tool_calls: list[dict[str, Any]] | None = None
    # The upstream's logprobs object, relayed untouched when the caller asked for it.
    logprobs: dict[str, Any] | None = None
    index: int = 0


@dataclass
class Completion:
    choices: list[Choice]
    usage: Usage
    # The model that answered when routing fell back to another one; None: the request's.
    model: ModelSpec | None = None

    @property
    def content(self) -> str:
        """The first choice's text ("" when it only called tools)."""
        return self.choices[0].content or ""

    @property
    def reasoning(self) -> str | None:
        return self.choices[0].reasoning

    @property
    def finish_reason(self) -> str:
        return self.choices[0].finish_reason


@dataclass
class Delta:
    """A streamed fragment of one choice."""

    content: str = ""
    reasoning: str = ""
    # ``delta.tool_calls`` fragments exactly as the upstream sent them (each with its
    # ``index``), to be relayed untouched.
    tool_calls: list[dict[str, Any]] | None = None
    logprobs: dict[str, Any] | None = None
    index: int = 0  # the choice this fragment belongs to (n > 1)


@dataclass
class Finish:
    """Always the last event of a successful stream."""

    finish_reason: str  # the first choice's
    usage: Usage
    # Every choice's finish_reason by index, when the upstream gave several choices.
    finish_reasons: dict[int, str] | None = None


@dataclass
class OpenedStream:
    """A stream whose first event has arrived (retries and fallbacks happen before that)."""

    model: ModelSpec  # the model answering: the request's, or the fallback that answered
    events: AsyncIterator[Delta | Finish]  # from the first event on


class Provider(Protocol):
    async def complete(self, request: GenerationRequest) -> Completion: ...

    def stream(self, request: GenerationRequest) -> AsyncIterator[Delta | Finish]: ...
