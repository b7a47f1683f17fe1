"""Training-data injection: the system prompt a persona sends to the model (docs/personas.md,
Prompt building).

The prompt is the persona's own system prompt, then a "Reference material" section holding its
training data, each type in its own readable form (see :func:`render_item`).

Budget: the training-data section may use at most ``TRAINING_DATA_SHARE`` (25%) of the model's
context window, counted with ``core.text.count_tokens`` (the tokenizer usage is billed with).
The rest is left for the persona prompt, the conversation and the reply.

* When every item fits, all of them go in, in id order (the order they were added).
* Otherwise the items are ranked with BM25 against the latest user message (ties: lower id
  first) and taken greedily in that order while they fit; an item that does not fit is skipped,
  never cut. The chosen items are then presented in id order, so the same question always
  yields the same prompt.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from core.text import BM25, count_tokens
from core.text import latest_user_text as latest_user_message
from llm.types import Grounding, GroundingItem
from personas.models import Persona, TrainingDataItem
from personas.selectors import training_items_for

__all__ = [
    "TRAINING_DATA_HEADER",
    "TRAINING_DATA_SHARE",
    "build_system_prompt",
    "grounding_for",
    "latest_user_message",
    "render_item",
    "select_items",
    "system_prompt_for",
    "training_data_budget",
]

TRAINING_DATA_SHARE = 0.25
TRAINING_DATA_HEADER = (
    "## Reference material\n"
    "Use the following material from your training data when it is relevant to the "
    "conversation. It reflects how you should answer and what you know."
)
_SEPARATOR = "\n\n"


def render_item(item: TrainingDataItem) -> str:
    """One item in the readable form of its type.

    text: a paragraph (after its title, if any); qa_pair: ``Q: ...`` / ``A: ...``; example: an
    example block between markers; document: the title as a heading, then the body;
    knowledge: a fact.
    """
    title = item.title.strip()
    content = item.content.strip()
    kind = item.type
    if kind == TrainingDataItem.Type.QA_PAIR:
        return f"Q: {item.question.strip()}\nA: {content}"
    if kind == TrainingDataItem.Type.EXAMPLE:
        heading = f"Example: {title}" if title else "Example:"
        return f"{heading}\n<<<\n{content}\n>>>"
    if kind == TrainingDataItem.Type.DOCUMENT:
        return f"### {title or 'Document'}\n{content}"
    if kind == TrainingDataItem.Type.KNOWLEDGE:
        return f"Fact ({title}): {content}" if title else f"Fact: {content}"
    return f"{title}\n{content}" if title else content


def training_data_budget(context_window: int) -> int:
    """Tokens the training-data section may use for a model with this context window."""
    return max(0, int(context_window * TRAINING_DATA_SHARE))


def _search_text(item: TrainingDataItem) -> str:
    return f"{item.title}\n{item.question}\n{item.content}"


def select_items(
    items: Sequence[TrainingDataItem], *, budget: int, query: str
) -> list[TrainingDataItem]:
    """The items that go into the prompt, in id order (see the module docstring).

    ``budget`` bounds the whole section: the header, every rendered item and the separators.
    """
    ordered = sorted(items, key=lambda item: item.pk)
    if not ordered:
        return []
    costs = [count_tokens(render_item(item)) + 1 for item in ordered]  # +1: the separator
    remaining = budget - count_tokens(TRAINING_DATA_HEADER)
    if sum(costs) <= remaining:
        return ordered
    # BM25.rank breaks ties by index, and ``ordered`` is in id order: ties go to the lower id.
    ranking = BM25(_search_text(item) for item in ordered).rank(query)
    chosen: list[int] = []
    for index in ranking:
        if costs[index] <= remaining:
            chosen.append(index)
            remaining -= costs[index]
    return [ordered[index] for index in sorted(chosen)]


def build_system_prompt(
    persona: Persona,
    *,
    items: Iterable[TrainingDataItem],
    context_window: int,
    latest_user_message: str,
) -> str:
    """The persona's system prompt followed by the training data that fits the budget."""
    chosen = select_items(
        list(items), budget=training_data_budget(context_window), query=latest_user_message
    )
    if not chosen:
        return persona.system_prompt
    section = _SEPARATOR.join([TRAINING_DATA_HEADER, *(render_item(item) for item in chosen)])
    return f"{persona.system_prompt.rstrip()}{_SEPARATOR}{section}"


def system_prompt_for(
    persona: Persona, *, context_window: int, messages: Sequence[dict[str, Any]]
) -> str:
    """The system prompt to send for ``persona`` in this conversation (OpenAI-format
    ``messages``). Loads the training data with one query."""
    return build_system_prompt(
        persona,
        items=list(training_items_for(persona)),
        context_window=context_window,
        latest_user_message=latest_user_message(messages),
    )


def grounding_for(persona: Persona, items: Iterable[TrainingDataItem]) -> Grounding:
    """The persona and its training data for the embedded local model."""
    return Grounding(
        name=persona.name,
        description=persona.description,
        items=tuple(
            GroundingItem(
                type=item.type,
                title=item.title,
                content=item.content,
                question=item.question if item.type == TrainingDataItem.Type.QA_PAIR else "",
            )
            for item in sorted(items, key=lambda item: item.pk)
        ),
    )
