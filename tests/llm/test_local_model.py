from __future__ import annotations

import asyncio
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from core.text import count_message_tokens, count_tokens
from llm.catalog import ModelSpec
from llm.providers import get_provider
from llm.providers.local import LocalProvider, _index_for, generate_reply
from llm.types import (
    Completion,
    Delta,
    Finish,
    GenerationRequest,
    Grounding,
    GroundingItem,
    Usage,
)

LOCAL = ModelSpec(
    id="nova-local",
    provider="local",
    base_url=None,
    api_key_env=None,
    upstream_model="nova-local",
    context_window=8192,
    input_price_per_mtok=Decimal("0.10"),
    output_price_per_mtok=Decimal("0.20"),
    vision=False,
    reasoning=False,
)

SHOP = Grounding(
    name="Shop Helper",
    description="Answers questions about the Corner Shop",
    items=(
        GroundingItem(
            type="qa_pair",
            title="Hours",
            content="We are open 9am to 5pm, Monday to Saturday.",
            question="What are your opening hours?",
        ),
        GroundingItem(
            type="text",
            title="Returns policy",
            content=(
                "You can return any item within 30 days with a receipt. Refunds go back to "
                "the original payment method.\n\nSale items cannot be returned."
            ),
            question="",
        ),
        GroundingItem(
            type="knowledge",
            title="Delivery",
            content="We deliver within 5 miles for free. Orders over 50 pounds ship next day.",
            question="",
        ),
        GroundingItem(
            type="qa_pair",
            title="",
            content="Yes, we accept cards and cash.",
            question="Do you take card payments?",
        ),
    ),
)


def request(
    text: str | list[dict[str, Any]],
    grounding: Grounding | None = SHOP,
    **params: Any,
) -> GenerationRequest:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are Shop Helper."},
        {"role": "user", "content": text},
    ]
    return GenerationRequest(model=LOCAL, messages=messages, params=params, grounding=grounding)


def complete(req: GenerationRequest) -> Completion:
    return asyncio.run(LocalProvider().complete(req))


def stream(req: GenerationRequest) -> list[Delta | Finish]:
    async def collect() -> list[Delta | Finish]:
        return [event async for event in LocalProvider().stream(req)]

    return asyncio.run(collect())


def test_matching_question_gets_its_answer():
    result = complete(request("When are you open? What are the hours?"))
    assert result.content == "We are open 9am to 5pm, Monday to Saturday."
    assert result.finish_reason == "stop"
    assert result.reasoning is None


def test_question_match_ignores_case_and_punctuation():
    assert complete(request("do you take CARD payments")).content == (
        "Yes, we accept cards and cash."
    )


def test_unmatched_question_gets_the_most_relevant_passages():
    content = complete(request("Can I get a refund with my receipt?")).content
    assert "You can return any item within 30 days with a receipt." in content
    assert "deliver" not in content


def test_passage_reply_is_readable_prose():
    content = complete(request("Do you deliver to my town?")).content
    assert content == (
        "Here is what I know about that.\n\n"
        "We deliver within 5 miles for free. Orders over 50 pounds ship next day."
    )


def test_irrelevant_question_gets_the_persona_introduction():
    content = complete(request("What is the meaning of life?")).content
    assert content.startswith("I'm Shop Helper. Answers questions about the Corner Shop.")
    assert "“Hours”, “Returns policy”, “Delivery” and “Do you take card payments”" in content


def test_greeting_gets_a_friendly_introduction():
    content = complete(request("Hello!")).content
    assert content.startswith("Hello! I'm Shop Helper.")
    assert "don't have anything" not in content


def test_persona_without_training_data_introduces_itself():
    empty = Grounding(name="Blank", description="", items=())
    assert complete(request("anything at all?", grounding=empty)).content == (
        "I'm Blank. I don't have anything on that in what I know. What would you like to know?"
    )


def test_general_chat_reflects_the_question_back():
    content = complete(request("How do I write a loop in Rust?", grounding=None)).content
    assert "“How do I write a loop in Rust?”" in content
    assert "local model" in content


def test_answers_the_latest_user_message():
    req = GenerationRequest(
        model=LOCAL,
        messages=[
            {"role": "user", "content": "What are your opening hours?"},
            {"role": "assistant", "content": "We are open 9am to 5pm, Monday to Saturday."},
            {"role": "user", "content": "Do you take card payments?"},
        ],
        params={},
        grounding=SHOP,
    )
    assert complete(req).content == "Yes, we accept cards and cash."


def test_reads_text_parts_of_multipart_content():
    parts: list[dict[str, Any]] = [
        {"type": "text", "text": "What are your opening hours?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
    ]
    assert complete(request(parts)).content == "We are open 9am to 5pm, Monday to Saturday."


def test_usage_is_counted_with_nova_tokenizer():
    req = request("Do you deliver to my town?")
    result = complete(req)
    assert result.usage == Usage(
        prompt_tokens=count_message_tokens(req.messages),
        completion_tokens=count_tokens(result.content),
    )
    assert result.usage.total_tokens == result.usage.prompt_tokens + result.usage.completion_tokens


def test_max_tokens_cuts_the_reply_with_finish_reason_length():
    result = complete(request("Do you deliver to my town?", max_tokens=5))
    assert result.content == "Here is what I know"
    assert result.finish_reason == "length"
    assert result.usage.completion_tokens == 5


def test_max_tokens_above_the_reply_length_finishes_with_stop():
    result = complete(request("Do you take card payments?", max_tokens=500))
    assert result.content == "Yes, we accept cards and cash."
    assert result.finish_reason == "stop"


def test_stop_sequence_cuts_before_it():
    result = complete(request("Do you take card payments?", stop=["cash", "cards"]))
    assert result.content == "Yes, we accept "
    assert result.finish_reason == "stop"


def test_stop_as_a_single_string():
    assert complete(request("Do you take card payments?", stop=",")).content == "Yes"


def test_max_tokens_before_the_stop_sequence_wins():
    result = complete(request("Do you take card payments?", stop="cash", max_tokens=2))
    assert (result.content, result.finish_reason) == ("Yes,", "length")


def test_temperature_zero_is_deterministic():
    replies = {
        complete(request("refund receipt delivery", temperature=0)).content for _ in range(5)
    }
    assert len(replies) == 1


def test_same_seed_gives_the_same_sampled_reply():
    replies = {
        complete(request("refund receipt delivery items", temperature=1.5, seed=42)).content
        for _ in range(5)
    }
    assert len(replies) == 1


def test_temperature_samples_among_candidates_across_seeds():
    replies = {
        complete(request("refund receipt delivery items", temperature=1.5, seed=seed)).content
        for seed in range(30)
    }
    assert len(replies) > 1


def test_seed_alone_does_not_change_a_greedy_reply():
    greedy = complete(request("refund receipt delivery")).content
    assert complete(request("refund receipt delivery", seed=7)).content == greedy


def test_stream_fragments_join_to_the_complete_reply():
    req = request("Can I get a refund with my receipt?")
    events = stream(req)
    deltas = [event for event in events if isinstance(event, Delta)]
    assert "".join(delta.content for delta in deltas) == complete(req).content
    assert all(delta.reasoning == "" for delta in deltas)
    assert len(deltas) == count_tokens(complete(req).content)


def test_stream_ends_with_finish_and_usage():
    req = request("Do you deliver to my town?", max_tokens=4)
    events = stream(req)
    assert events[-1] == Finish(
        finish_reason="length",
        usage=Usage(prompt_tokens=count_message_tokens(req.messages), completion_tokens=4),
    )
    assert [e.content for e in events[:-1] if isinstance(e, Delta)] == [
        "Here",
        " is",
        " what",
        " I",
    ]


def test_stream_yields_to_the_event_loop_between_fragments():
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    async def run() -> int:
        task = asyncio.create_task(ticker())
        count = 0
        async for _ in LocalProvider().stream(request("Do you deliver to my town?")):
            count += 1
        task.cancel()
        return count

    events = asyncio.run(run())
    assert ticks >= events - 2


def test_get_provider_returns_one_local_instance():
    first = get_provider(LOCAL)
    assert isinstance(first, LocalProvider)
    assert get_provider(LOCAL) is first


# How fast a reply is once the persona is indexed: benchmarks/unit_speed.py.


def test_a_persona_is_indexed_once_and_its_index_reused():
    req = request("Can I get a refund with my receipt?")
    first = generate_reply(req)
    misses = _index_for.cache_info().misses
    # An equal grounding (what the next request for this persona builds) reuses the index.
    again = request("Can I get a refund with my receipt?", grounding=replace(SHOP))
    assert generate_reply(again) == first
    assert _index_for.cache_info().misses == misses


def test_large_training_data_is_indexed_once_per_grounding():
    items = tuple(
        GroundingItem(
            type="document",
            title=f"Topic {i}",
            content=f"Paragraph about subject{i} and shared words. " * 40,
            question="",
        )
        for i in range(200)
    )
    big = Grounding(name="Archivist", description="", items=items)
    generate_reply(request("subject17", grounding=big))
    misses = _index_for.cache_info().misses
    req = request("tell me about subject17", grounding=replace(big))
    assert "subject17" in generate_reply(req)[0]
    assert _index_for.cache_info().misses == misses


@pytest.mark.parametrize("content", ["", "   ", "?!"])
def test_odd_messages_still_get_a_reply(content):
    result = complete(request(content))
    assert result.content.startswith("I'm Shop Helper.")
