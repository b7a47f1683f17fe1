"""The OpenAI-compatible provider's tools, structured outputs, ``n`` choices and logprobs,
against the real fake upstream on loopback (no mocks)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.text import count_message_tokens, count_tokens
from llm.catalog import ModelSpec
from llm.errors import UpstreamFailure
from llm.types import PASSTHROUGH_FIELDS, Choice, Delta, Finish, GenerationRequest
from tests.llm.helpers import complete, spec, stream, stream_failure

MESSAGES = [
    {"role": "system", "content": "You are a test persona."},
    {"role": "user", "content": "Weather in Paris?"},
]
WEATHER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}
# A value for every field that goes upstream as given, each one distinct from a default.
EVERY_PASSTHROUGH_FIELD: dict[str, Any] = {
    "temperature": 0.3,
    "max_tokens": 64,
    "top_k": 40,
    "min_p": 0.05,
    "repetition_penalty": 1.1,
    "seed": 1234,
    "stop": ["\n\n", "END"],
    "reasoning": {"effort": "high", "max_tokens": 256, "exclude": False, "enabled": True},
    "max_completion_tokens": 80,
    "tools": [WEATHER_TOOL],
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "parallel_tool_calls": False,
    "response_format": {
        "type": "json_schema",
        "json_schema": {
            "name": "weather",
            "schema": {"type": "object", "properties": {"celsius": {"type": "number"}}},
            "strict": True,
        },
    },
    "top_p": 0.9,
    "n": 2,
    "logprobs": True,
    "top_logprobs": 3,
    "user": "user-1234",
    "frequency_penalty": 0.5,
    "presence_penalty": -0.5,
    "logit_bias": {"50256": -100},
}
CALLS = [
    {"name": "get_weather", "arguments": '{"city": "Paris"}'},
    {"name": "get_time", "arguments": '{"timezone": "Europe/Paris"}'},
]


def request(
    model: ModelSpec, messages: list[dict[str, Any]] | None = None, **params: Any
) -> GenerationRequest:
    return GenerationRequest(model=model, messages=list(messages or MESSAGES), params=params)


def deltas(events: list[Delta | Finish]) -> list[Delta]:
    return [event for event in events if isinstance(event, Delta)]


def finish(events: list[Delta | Finish]) -> Finish:
    last = events[-1]
    assert isinstance(last, Finish)
    return last


def chunk(*choices: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"object": "chat.completion.chunk", "choices": list(choices), **extra})


# --- what goes upstream ---


def test_the_fixture_covers_every_passthrough_field():
    assert set(EVERY_PASSTHROUGH_FIELD) == set(PASSTHROUGH_FIELDS)


def test_sends_every_passthrough_field_as_given(upstream, model):
    complete(request(model, **EVERY_PASSTHROUGH_FIELD))
    assert upstream.bodies == [{"model": "fake", "messages": MESSAGES, **EVERY_PASSTHROUGH_FIELD}]


def test_stream_sends_every_passthrough_field_as_given(upstream, model):
    stream(request(model, **EVERY_PASSTHROUGH_FIELD))
    assert upstream.bodies == [
        {
            "model": "fake",
            "messages": MESSAGES,
            **EVERY_PASSTHROUGH_FIELD,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
    ]


def test_still_drops_reasoning_for_a_model_without_reasoning(upstream):
    plain = spec(upstream.url, reasoning=False)
    complete(request(plain, reasoning={"effort": "low"}, tools=[WEATHER_TOOL]))
    assert upstream.bodies == [{"model": "fake", "messages": MESSAGES, "tools": [WEATHER_TOOL]}]


def test_sends_tool_call_history_as_given(upstream, model):
    call = {
        "id": "call_abc",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
    }
    history: list[dict[str, Any]] = [
        *MESSAGES,
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_abc", "content": "sunny, 24 C"},
    ]
    complete(request(model, history, tools=[WEATHER_TOOL]))
    assert upstream.bodies[0]["messages"] == history


# --- tool calls ---


def test_complete_relays_tool_calls_untouched(upstream, model):
    upstream.script(tool_calls=CALLS, usage=(40, 12))
    completion = complete(request(model, tools=[WEATHER_TOOL]))
    assert completion.choices == [
        Choice(
            content=None,
            reasoning=None,
            finish_reason="tool_calls",
            tool_calls=[
                {
                    "id": "call_fake0x0",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                },
                {
                    "id": "call_fake0x1",
                    "type": "function",
                    "function": {"name": "get_time", "arguments": '{"timezone": "Europe/Paris"}'},
                },
            ],
        )
    ]
    assert completion.content == ""
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (40, 12)


def test_complete_keeps_unknown_fields_of_a_tool_call(upstream, model):
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}, "x": 1}
    body = {"choices": [{"message": {"content": "", "tool_calls": [call]}}]}
    upstream.script(raw_body=json.dumps(body))
    (choice,) = complete(request(model)).choices
    assert choice.tool_calls == [call]
    assert choice.content == ""  # content given with the calls is relayed as given


def test_an_empty_tool_calls_list_is_no_calls(upstream, model):
    # vLLM sends "tool_calls": [] with every message.
    body = {"choices": [{"message": {"content": "Hi", "tool_calls": []}, "finish_reason": "stop"}]}
    upstream.script(raw_body=json.dumps(body))
    (choice,) = complete(request(model)).choices
    assert (choice.content, choice.tool_calls) == ("Hi", None)


def test_content_null_without_tool_calls_is_empty_text(upstream, model):
    upstream.script(raw_body=json.dumps({"choices": [{"message": {"content": None}}]}))
    assert complete(request(model)).choices[0].content == ""


@pytest.mark.parametrize("tool_calls", ["get_weather", [1], {"id": "x"}, [["x"]]])
def test_malformed_tool_calls_are_a_malformed_failure(upstream, model, tool_calls):
    message = {"content": None, "tool_calls": tool_calls}
    upstream.script(raw_body=json.dumps({"choices": [{"message": message}]}))
    with pytest.raises(UpstreamFailure) as raised:
        complete(request(model))
    assert (raised.value.kind, raised.value.status) == ("malformed", 502)
    assert not raised.value.retryable


def test_stream_relays_tool_call_fragments_untouched(upstream, model):
    upstream.script(tool_calls=CALLS[:1], stream_chunk_chars=6, usage=(40, 12))
    events = stream(request(model, tools=[WEATHER_TOOL]))
    first = {
        "index": 0,
        "id": "call_fake0x0",
        "type": "function",
        "function": {"name": "get_weather", "arguments": ""},
    }
    pieces = ['{"city', '": "Pa', 'ris"}']
    assert deltas(events) == [
        Delta(tool_calls=[first]),
        *(Delta(tool_calls=[{"index": 0, "function": {"arguments": p}}]) for p in pieces),
    ]
    assert finish(events).finish_reason == "tool_calls"
    assert finish(events).usage.completion_tokens == 12


def test_stream_relays_fragments_of_several_calls_with_their_index(upstream, model):
    upstream.script(tool_calls=CALLS, stream_chunk_chars=100)
    fragments = [f for d in deltas(stream(request(model))) for f in d.tool_calls or []]
    assert [(f["index"], f.get("id"), f["function"]) for f in fragments] == [
        (0, "call_fake0x0", {"name": "get_weather", "arguments": ""}),
        (0, None, {"arguments": '{"city": "Paris"}'}),
        (1, "call_fake0x1", {"name": "get_time", "arguments": ""}),
        (1, None, {"arguments": '{"timezone": "Europe/Paris"}'}),
    ]


def test_stream_gives_a_fragment_without_index_its_position(upstream, model):
    fragment = {"id": "c9", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    upstream.script(
        raw_events=(
            chunk({"index": 0, "delta": {"tool_calls": [fragment]}}),
            chunk({"index": 0, "delta": {}, "finish_reason": "tool_calls"}),
            "[DONE]",
        )
    )
    (delta,) = deltas(stream(request(model)))
    assert delta.tool_calls == [{**fragment, "index": 0}]


@pytest.mark.parametrize("tool_calls", ["x", [1], {}])
def test_stream_with_malformed_tool_calls_fails_as_malformed(upstream, model, tool_calls):
    upstream.script(raw_events=(chunk({"index": 0, "delta": {"tool_calls": tool_calls}}),))
    events, failure = stream_failure(request(model))
    assert events == []
    assert failure.kind == "malformed"


def test_counted_usage_includes_tool_names_and_arguments(upstream, model):
    upstream.script(tool_calls=CALLS, usage=None, stream_chunk_chars=3)
    expected = sum(count_tokens(c["name"]) + count_tokens(c["arguments"]) for c in CALLS)
    assert complete(request(model)).usage.completion_tokens == expected
    assert finish(stream(request(model))).usage.completion_tokens == expected
    assert expected > count_tokens("get_weather") + count_tokens("get_time")


# --- n choices ---


def test_complete_returns_every_choice(upstream, model):
    upstream.script(reply="Paris is sunny.", usage=(10, 8))
    completion = complete(request(model, n=3))
    assert [(c.index, c.content, c.finish_reason) for c in completion.choices] == [
        (0, "Paris is sunny.", "stop"),
        (1, "Paris is sunny. [1]", "stop"),
        (2, "Paris is sunny. [2]", "stop"),
    ]
    assert completion.content == "Paris is sunny."


def test_complete_orders_choices_by_index(upstream, model):
    body = {
        "choices": [
            {"index": 1, "message": {"content": "second"}, "finish_reason": "length"},
            {"index": 0, "message": {"content": "first"}, "finish_reason": "stop"},
        ]
    }
    upstream.script(raw_body=json.dumps(body))
    completion = complete(request(model, n=2))
    assert [(c.index, c.content, c.finish_reason) for c in completion.choices] == [
        (0, "first", "stop"),
        (1, "second", "length"),
    ]
    assert completion.finish_reason == "stop"


@pytest.mark.parametrize("indexes", [(0, 0), (0, -1), (0, "1"), (0, True)])
def test_bad_choice_indexes_are_malformed(upstream, model, indexes):
    body = {"choices": [{"index": i, "message": {"content": "x"}} for i in indexes]}
    upstream.script(raw_body=json.dumps(body))
    with pytest.raises(UpstreamFailure) as raised:
        complete(request(model, n=2))
    assert raised.value.kind == "malformed"


def test_counted_usage_sums_every_choice(upstream, model):
    upstream.script(reply="one two three", usage=None)
    usage = complete(request(model, n=2)).usage
    assert usage.prompt_tokens == count_message_tokens(MESSAGES)
    assert usage.completion_tokens == count_tokens("one two three") + count_tokens(
        "one two three [1]"
    )


def test_stream_tags_each_choice_fragment_with_its_index(upstream, model):
    upstream.script(reply="abcdef", stream_chunk_chars=3, usage=(10, 8))
    events = stream(request(model, n=2))
    assert deltas(events) == [
        Delta(content="abc", index=0),
        Delta(content="abc", index=1),
        Delta(content="def", index=0),
        Delta(content="def", index=1),
        Delta(content=" [1", index=1),
        Delta(content="]", index=1),
    ]
    assert finish(events).finish_reasons == {0: "stop", 1: "stop"}


def test_stream_takes_several_choices_in_one_chunk(upstream, model):
    upstream.script(
        raw_events=(
            chunk(
                {"index": 0, "delta": {"role": "assistant", "content": ""}},
                {"index": 1, "delta": {"role": "assistant", "content": ""}},
            ),
            chunk({"index": 0, "delta": {"content": "A"}}, {"index": 1, "delta": {"content": "B"}}),
            chunk(
                {"index": 1, "delta": {"content": "b"}, "finish_reason": "stop"},
                {"index": 0, "delta": {}, "finish_reason": "length"},
            ),
            chunk(usage={"prompt_tokens": 5, "completion_tokens": 3}),
            "[DONE]",
        )
    )
    events = stream(request(model, n=2))
    assert deltas(events) == [
        Delta(content="A", index=0),
        Delta(content="B", index=1),
        Delta(content="b", index=1),
    ]
    end = finish(events)
    assert (end.finish_reason, end.finish_reasons) == ("length", {0: "length", 1: "stop"})
    assert (end.usage.prompt_tokens, end.usage.completion_tokens) == (5, 3)


def test_stream_without_the_end_of_one_choice_is_incomplete(upstream, model):
    upstream.script(
        raw_events=(
            chunk({"index": 0, "delta": {"content": "A"}}, {"index": 1, "delta": {"content": "B"}}),
            chunk({"index": 0, "delta": {}, "finish_reason": "stop"}),
        )
    )
    events, failure = stream_failure(request(model, n=2))
    assert [d.content for d in deltas(events)] == ["A", "B"]
    assert (failure.kind, failure.message) == (
        "broken",
        "The model provider ended the stream early.",
    )
    assert not failure.retryable


def test_a_single_choice_stream_has_no_finish_reasons_map(upstream, model):
    upstream.script(finish_reason="length")
    end = finish(stream(request(model)))
    assert (end.finish_reason, end.finish_reasons) == ("length", None)


def test_stream_counted_usage_sums_every_choice(upstream, model):
    upstream.script(reply="one two three", usage=None, stream_chunk_chars=2)
    usage = finish(stream(request(model, n=2))).usage
    assert usage.completion_tokens == count_tokens("one two three") + count_tokens(
        "one two three [1]"
    )


def test_stream_tool_calls_of_several_choices(upstream, model):
    upstream.script(tool_calls=CALLS[:1], stream_chunk_chars=100)
    events = stream(request(model, n=2))
    ids = [(d.index, f.get("id")) for d in deltas(events) for f in d.tool_calls or []]
    assert ids == [(0, "call_fake0x0"), (1, "call_fake1x0"), (0, None), (1, None)]
    assert finish(events).finish_reasons == {0: "tool_calls", 1: "tool_calls"}


# --- logprobs ---


def test_complete_relays_logprobs_untouched(upstream, model):
    upstream.script(reply="Hi there", stream_chunk_chars=3)
    (choice,) = complete(request(model, logprobs=True)).choices
    assert choice.logprobs == {
        "content": [
            {"token": t, "logprob": -0.25, "bytes": list(t.encode()), "top_logprobs": []}
            for t in ["Hi ", "the", "re"]
        ]
    }


def test_complete_without_logprobs_has_none(upstream, model):
    assert complete(request(model)).choices[0].logprobs is None


def test_complete_drops_logprobs_that_are_not_an_object(upstream, model):
    body = {"choices": [{"message": {"content": "x"}, "logprobs": [1, 2]}]}
    upstream.script(raw_body=json.dumps(body))
    assert complete(request(model, logprobs=True)).choices[0].logprobs is None


def test_stream_relays_logprobs_with_each_fragment(upstream, model):
    upstream.script(reply="abcd", stream_chunk_chars=2)
    events = stream(request(model, logprobs=True))
    assert [(d.content, d.logprobs) for d in deltas(events)] == [
        (
            t,
            {
                "content": [
                    {"token": t, "logprob": -0.25, "bytes": list(t.encode()), "top_logprobs": []}
                ]
            },
        )
        for t in ["ab", "cd"]
    ]


def test_stream_relays_a_fragment_that_carries_only_logprobs(upstream, model):
    logprobs = {"content": [{"token": "", "logprob": -1.0, "bytes": [], "top_logprobs": []}]}
    upstream.script(
        raw_events=(
            chunk({"index": 0, "delta": {"content": ""}, "logprobs": logprobs}),
            chunk({"index": 0, "delta": {"content": "x"}, "logprobs": {"content": None}}),
            chunk({"index": 0, "delta": {}, "finish_reason": "stop"}),
            "[DONE]",
        )
    )
    assert deltas(stream(request(model))) == [Delta(logprobs=logprobs), Delta(content="x")]


# --- finish reasons ---


@pytest.mark.parametrize(
    ("upstream_reason", "reason"),
    [
        ("stop", "stop"),
        ("length", "length"),
        ("tool_calls", "tool_calls"),
        ("content_filter", "content_filter"),
        ("function_call", "stop"),
        ("end_turn", "stop"),
        (None, "stop"),
    ],
)
def test_finish_reason_mapping(upstream, model, upstream_reason, reason):
    message = {"message": {"content": "x"}, "finish_reason": upstream_reason}
    upstream.script(raw_body=json.dumps({"choices": [message]}))
    assert complete(request(model)).finish_reason == reason
    upstream.script(
        raw_events=(
            chunk({"index": 0, "delta": {"content": "x"}}),
            chunk({"index": 0, "delta": {}, "finish_reason": upstream_reason}),
            "[DONE]",
        )
    )
    assert finish(stream(request(model))).finish_reason == reason


def test_structured_output_reply_is_relayed_as_text(upstream, model):
    reply = '{"city": "Paris", "celsius": 24}'
    upstream.script(reply=reply)
    response_format = EVERY_PASSTHROUGH_FIELD["response_format"]
    assert complete(request(model, response_format=response_format)).content == reply
    assert upstream.bodies[-1]["response_format"] == response_format
