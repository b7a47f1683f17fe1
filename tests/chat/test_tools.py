"""Tools, structured outputs, n choices and logprobs through both chat endpoints, against the
fake upstream (docs/api.md, Chat completions)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import User
from billing.models import Hold, UsageRecord
from billing.selectors import get_balance
from chat.pipeline import _write_record, prepare_chat, replay_record
from chat.serializers import ChatCompletionRequestSerializer
from conversations.models import Conversation, Message
from llm.catalog import reset_catalog_cache
from llm.types import Usage
from tests.chat.helpers import make_persona, sse_events, streamed_body
from tests.conftest import UPSTREAM_CATALOG, client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

CHAT = "/v1/chat/completions"
AGENTS = "/v1/agents/chat/completions"

WEATHER = {
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
CLOCK = {"type": "function", "function": {"name": "get-time"}}
ARGUMENTS = '{"city": "Paris"}'
ANSWER_FORMAT = {
    "type": "json_schema",
    "json_schema": {
        "name": "answer",
        "description": "A short answer.",
        "schema": {"type": "object", "properties": {"text": {"type": "string"}}},
        "strict": True,
    },
}

LIMITED_MODELS = """
[[models]]
id = "fake-plain"
provider = "openai"
base_url = "{url}"
upstream_model = "plain"
context_window = 4096
input_price_per_mtok = "1.00"
output_price_per_mtok = "1.00"
tools = false
structured_outputs = false
read_timeout = 2
"""


@pytest.fixture
def catalog(
    fake_upstream: FakeUpstream, settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """The tests' catalog plus fake-plain, an upstream model without tools or formats."""
    path = tmp_path / "models.toml"
    path.write_text((UPSTREAM_CATALOG + LIMITED_MODELS).format(url=fake_upstream.url))
    monkeypatch.setenv("FAKE_UPSTREAM_KEY", "sk-upstream-test-key")
    settings.MODELS_FILE = path
    reset_catalog_cache()
    yield path
    reset_catalog_cache()


@pytest.fixture
def logging_client(funded_user: User) -> APIClient:
    return client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))


def ask(text: str = "What is the weather in Paris?") -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def _assembled_calls(events: list[Any], index: int = 0) -> list[dict[str, Any]]:
    """The tool calls of choice ``index`` put together from a stream's fragments, the way the
    openai SDK does it."""
    calls: dict[int, dict[str, Any]] = {}
    for event in events:
        if not isinstance(event, dict):
            continue
        for choice in event.get("choices", []):
            if choice["index"] != index:
                continue
            for fragment in choice["delta"].get("tool_calls") or []:
                call = calls.setdefault(
                    fragment["index"], {"id": "", "type": "", "name": "", "arguments": ""}
                )
                call["id"] += fragment.get("id") or ""
                call["type"] += fragment.get("type") or ""
                function = fragment.get("function") or {}
                call["name"] += function.get("name") or ""
                call["arguments"] += function.get("arguments") or ""
    return [calls[key] for key in sorted(calls)]


# --- Passed through exactly as sent ---


def test_tool_and_output_fields_reach_the_upstream_exactly_as_sent(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    fields = {
        "tools": [WEATHER, CLOCK],
        "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
        "parallel_tool_calls": False,
        "response_format": ANSWER_FORMAT,
        "top_p": 0.9,
        "max_completion_tokens": 20,
        "logprobs": True,
        "top_logprobs": 3,
        "user": "user-1234",
        "frequency_penalty": 0.5,
        "presence_penalty": -0.25,
        "logit_bias": {"50256": -100, "15": 2.5},
        "seed": 11,
    }
    response = api_client.post(
        CHAT, {"model": "fake-gpt", "messages": ask(), **fields}, format="json"
    )
    assert response.status_code == 200, response.content
    sent = fake_upstream.bodies[-1]
    for name, value in fields.items():
        assert sent[name] == value, name
    assert "max_tokens" not in sent and "n" not in sent
    assert sent["messages"] == ask()


def test_max_completion_tokens_reaches_the_upstream_and_bounds_the_hold(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    response = api_client.post(
        CHAT,
        {"model": "fake-gpt", "messages": ask(), "max_completion_tokens": 20},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert fake_upstream.bodies[-1]["max_completion_tokens"] == 20
    assert "max_tokens" not in fake_upstream.bodies[-1]


def test_the_hold_counts_max_completion_tokens_for_each_of_n_choices(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    body = {"model": "fake-gpt", "messages": ask(), "stream": True, "max_completion_tokens": 100}
    # A streamed response holds its credit until its body is read: both holds are open here.
    one = api_client.post(CHAT, body, format="json")
    two = api_client.post(CHAT, {**body, "n": 2}, format="json")
    single, double = Hold.objects.order_by("id").values_list("amount", flat=True)
    # The same prompt; the second holds 100 more completion tokens at $2/M.
    assert double - single == Decimal("0.00020000")
    for response in (one, two):
        assert sse_events(streamed_body(response))[-1] == "[DONE]"
    assert not Hold.objects.exists()


def test_the_embedded_model_counts_max_completion_tokens_like_max_tokens(
    funded_user: User, api_client: APIClient
) -> None:
    answers = [
        api_client.post(
            CHAT,
            {"model": "nova-local", "messages": ask("How do I write a unit test?"), **limit},
            format="json",
        ).json()
        for limit in ({"max_tokens": 3}, {"max_completion_tokens": 3})
    ]
    for body in answers:
        assert body["choices"][0]["finish_reason"] == "length"
        assert body["usage"]["completion_tokens"] <= 3
    assert answers[0]["choices"][0]["message"] == answers[1]["choices"][0]["message"]


def test_json_object_format_and_text_format_reach_an_upstream_model(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    for response_format in ({"type": "json_object"}, {"type": "text"}):
        response = api_client.post(
            CHAT,
            {"model": "fake-gpt", "messages": ask(), "response_format": response_format},
            format="json",
        )
        assert response.status_code == 200, response.content
        assert fake_upstream.bodies[-1]["response_format"] == response_format


# --- Tool calls answered ---


def test_tool_calls_round_trip_non_streamed(
    funded_user: User, logging_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    fake_upstream.script(
        reply="",
        tool_calls=[{"name": "get_weather", "arguments": ARGUMENTS}],
        finish_reason="tool_calls",
        usage=(30, 9),
    )
    response = logging_client.post(
        CHAT,
        {"model": "fake-gpt", "messages": ask(), "tools": [WEATHER], "tool_choice": "auto"},
        format="json",
    )
    assert response.status_code == 200, response.content
    sent = fake_upstream.bodies[-1]
    assert sent["tools"] == [WEATHER] and sent["tool_choice"] == "auto"
    body = response.json()
    assert body["model"] == "fake-gpt"
    [choice] = body["choices"]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["logprobs"] is None
    message = choice["message"]
    assert message["content"] is None
    [call] = message["tool_calls"]
    assert isinstance(call["id"], str) and call["id"]
    assert call["type"] == "function"
    assert call["function"] == {"name": "get_weather", "arguments": ARGUMENTS}
    # Saved: the reply's tool calls with it.
    reply = Message.objects.get(conversation_id=body["conversation_id"], role="assistant")
    assert reply.tool_calls == [call]
    assert reply.content == ""


def test_tool_calls_round_trip_streamed(
    funded_user: User, logging_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    fake_upstream.script(
        reply="",
        tool_calls=[
            {"name": "get_weather", "arguments": ARGUMENTS},
            {"name": "get-time", "arguments": "{}"},
        ],
        finish_reason="tool_calls",
        stream_chunk_chars=3,
    )
    response = logging_client.post(
        CHAT,
        {
            "model": "fake-gpt",
            "messages": ask(),
            "tools": [WEATHER, CLOCK],
            "tool_choice": "required",
            "stream": True,
            "stream_options": {"include_usage": True},
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    events = sse_events(streamed_body(response))
    sent = fake_upstream.bodies[-1]
    assert sent["tools"] == [WEATHER, CLOCK] and sent["tool_choice"] == "required"
    assert events[-1] == "[DONE]"
    *_, finish, usage_chunk, _ = events
    fragments = [
        fragment
        for event in events[1:-3]
        for fragment in event["choices"][0]["delta"].get("tool_calls") or []
    ]
    assert fragments and all(isinstance(fragment["index"], int) for fragment in fragments)
    calls = _assembled_calls(events)
    assert [(c["type"], c["name"], c["arguments"]) for c in calls] == [
        ("function", "get_weather", ARGUMENTS),
        ("function", "get-time", "{}"),
    ]
    assert all(call["id"] for call in calls)
    assert finish["choices"] == [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]
    conversation_id = usage_chunk["conversation_id"]
    reply = Message.objects.get(conversation_id=conversation_id, role="assistant")
    assert reply.tool_calls == [
        {
            "id": c["id"],
            "type": "function",
            "function": {"name": c["name"], "arguments": c["arguments"]},
        }
        for c in calls
    ]


def test_a_tool_exchange_reaches_the_upstream_in_order(
    funded_user: User, logging_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    call = {
        "id": "call_abc",
        "type": "function",
        "function": {"name": "get_weather", "arguments": ARGUMENTS},
    }
    messages = [
        {"role": "system", "content": "Use the tools."},
        *ask(),
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_abc", "content": '{"temp": 18}'},
    ]
    fake_upstream.script(reply="It is 18 degrees in Paris.")
    response = logging_client.post(
        CHAT, {"model": "fake-gpt", "messages": messages, "tools": [WEATHER]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert fake_upstream.bodies[-1]["messages"] == messages
    body = response.json()
    assert body["choices"][0]["message"]["content"] == "It is 18 degrees in Paris."
    assert body["choices"][0]["message"]["tool_calls"] is None
    assert body["choices"][0]["finish_reason"] == "stop"
    stored = Message.objects.filter(conversation_id=body["conversation_id"]).order_by("id")
    assert [(m.role, m.tool_call_id) for m in stored] == [
        ("system", ""),
        ("user", ""),
        ("assistant", ""),
        ("tool", "call_abc"),
        ("assistant", ""),
    ]
    assert stored[2].tool_calls == [call]


def test_a_tool_result_given_as_text_parts_reaches_the_upstream(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    messages = [
        *ask(),
        {"role": "assistant", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "sunny"}]},
    ]
    response = api_client.post(
        CHAT, {"model": "fake-gpt", "messages": messages, "tools": [WEATHER]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert fake_upstream.bodies[-1]["messages"] == [
        *ask(),
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "sunny"}]},
    ]


def test_persona_chat_with_tools_keeps_the_persona_prompt_first(
    funded_user: User, logging_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    persona = make_persona(funded_user, prompt="You are Meteo, a weather desk.")
    fake_upstream.script(reply="", tool_calls=[{"name": "get_weather", "arguments": ARGUMENTS}])
    call = {"id": "c0", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    messages = [
        *ask("And yesterday?"),
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c0", "content": "rain"},
    ]
    response = logging_client.post(
        AGENTS,
        {"persona_id": persona.pk, "messages": messages, "tools": [WEATHER]},
        format="json",
    )
    assert response.status_code == 200, response.content
    sent = fake_upstream.bodies[-1]
    assert sent["messages"][0]["role"] == "system"
    assert "You are Meteo, a weather desk." in sent["messages"][0]["content"]
    assert sent["messages"][1:] == [
        messages[0],
        {"role": "assistant", "content": "", "tool_calls": [call]},
        messages[2],
    ]
    assert sent["tools"] == [WEATHER]
    body = response.json()
    assert body["persona"]["id"] == persona.pk
    assert body["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "get_weather"
    conversation = Conversation.objects.get(pk=body["conversation_id"])
    assert conversation.mode == "api_agents"


# --- What a model cannot do ---


@pytest.mark.parametrize(
    ("fields", "param"),
    [
        ({"tools": [WEATHER]}, "tools"),
        ({"response_format": {"type": "json_object"}}, "response_format"),
        ({"response_format": ANSWER_FORMAT}, "response_format"),
        (
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": "ok"},
                    {"role": "tool", "tool_call_id": "c", "content": "x"},
                ]
            },
            "messages[2]",
        ),
    ],
    ids=["tools", "json_object", "json_schema", "tool message"],
)
def test_an_upstream_model_without_tools_or_formats_refuses_them(
    funded_user: User,
    api_client: APIClient,
    fake_upstream: FakeUpstream,
    catalog: Any,
    fields: dict[str, Any],
    param: str,
) -> None:
    response = api_client.post(
        CHAT, {"model": "fake-plain", "messages": ask(), **fields}, format="json"
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert (error["type"], error["param"]) == ("invalid_request_error", param)
    assert fake_upstream.bodies == []
    assert not UsageRecord.objects.exists()


def test_a_model_without_tools_still_takes_a_text_format_and_n(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    response = api_client.post(
        CHAT,
        {"model": "fake-plain", "messages": ask(), "response_format": {"type": "text"}, "n": 2},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert fake_upstream.bodies[-1]["n"] == 2


# --- n choices and logprobs ---


def test_n_two_gives_two_choices(
    funded_user: User, logging_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    fake_upstream.script(reply="Sunny.", usage=(20, 8))
    response = logging_client.post(
        CHAT, {"model": "fake-gpt", "messages": ask(), "n": 2}, format="json"
    )
    assert response.status_code == 200, response.content
    assert fake_upstream.bodies[-1]["n"] == 2
    body = response.json()
    assert [choice["index"] for choice in body["choices"]] == [0, 1]
    for choice in body["choices"]:
        assert choice["message"]["content"]
        assert choice["finish_reason"] == "stop"
    # Billed as the upstream reports: its usage covers both choices.
    assert body["usage"]["completion_tokens"] == 8
    assert UsageRecord.objects.get().completion_tokens == 8
    reply = Message.objects.get(conversation_id=body["conversation_id"], role="assistant")
    assert reply.content == body["choices"][0]["message"]["content"]


def test_n_two_streams_two_choices(
    funded_user: User, logging_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    fake_upstream.script(reply="Sunny all day.", stream_chunk_chars=4)
    response = logging_client.post(
        CHAT,
        {"model": "fake-gpt", "messages": ask(), "n": 2, "stream": True},
        format="json",
    )
    assert response.status_code == 200, response.content
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    texts = {0: "", 1: ""}
    finishes: dict[int, str] = {}
    for event in events[:-1]:
        assert len(event["choices"]) == 1
        choice = event["choices"][0]
        texts[choice["index"]] += choice["delta"].get("content", "")
        if choice["finish_reason"] is not None:
            finishes[choice["index"]] = choice["finish_reason"]
    assert texts[0] and texts[1]
    assert finishes == {0: "stop", 1: "stop"}
    roles = [e["choices"][0]["index"] for e in events[:-1] if "role" in e["choices"][0]["delta"]]
    assert sorted(roles) == [0, 1]
    assert "conversation_id" in events[-2]
    reply = Message.objects.get(conversation_id=events[-2]["conversation_id"], role="assistant")
    assert reply.content == texts[0]


def test_logprobs_are_relayed_when_asked(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    body = {"model": "fake-gpt", "messages": ask(), "logprobs": True, "top_logprobs": 2}
    response = api_client.post(CHAT, body, format="json")
    assert response.status_code == 200, response.content
    logprobs = response.json()["choices"][0]["logprobs"]
    assert isinstance(logprobs, dict) and logprobs["content"]
    streamed = api_client.post(CHAT, {**body, "stream": True}, format="json")
    events = sse_events(streamed_body(streamed))
    relayed = [
        e["choices"][0]["logprobs"]
        for e in events[:-1]
        if e["choices"] and e["choices"][0].get("logprobs") is not None
    ]
    assert relayed and all(isinstance(item, dict) for item in relayed)


# --- Personas as models ---


@pytest.mark.parametrize("path", [CHAT, AGENTS])
@pytest.mark.parametrize("stream", [False, True])
def test_a_persona_model_is_persona_chat(
    funded_user: User,
    logging_client: APIClient,
    fake_upstream: FakeUpstream,
    catalog: Any,
    path: str,
    stream: bool,
) -> None:
    persona = make_persona(funded_user, prompt="You are Ada.", model="fake-text")
    fake_upstream.script(reply="Hello from Ada.")
    response = logging_client.post(
        path,
        {"model": f"persona/{persona.pk}", "messages": ask("hi"), "stream": stream},
        format="json",
    )
    assert response.status_code == 200, response.content
    events = sse_events(streamed_body(response)) if stream else []
    sent = fake_upstream.bodies[-1]
    assert sent["model"] == "fake-text"  # the persona's default model
    assert sent["messages"][0]["role"] == "system"
    assert "You are Ada." in sent["messages"][0]["content"]
    assert sent["temperature"] == 0.5  # the persona's default temperature
    if stream:
        assert all(e["model"] == "fake-text" for e in events[:-1])
        conversation_id = events[-2]["conversation_id"]
    else:
        body = response.json()
        assert body["model"] == "fake-text"
        assert body["persona"] == {
            "id": persona.pk,
            "name": persona.name,
            "description": persona.description,
        }
        conversation_id = body["conversation_id"]
    conversation = Conversation.objects.get(pk=conversation_id)
    assert conversation.mode == "api_agents"
    assert conversation.persona_id == persona.pk
    usage = UsageRecord.objects.get()
    assert usage.persona_id == persona.pk and usage.model_id == "fake-text"


def test_a_persona_model_continues_its_conversation(
    funded_user: User, logging_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    persona = make_persona(funded_user)
    first = logging_client.post(
        CHAT, {"model": f"persona/{persona.pk}", "messages": ask("one")}, format="json"
    ).json()
    second = logging_client.post(
        CHAT,
        {
            "model": f"persona/{persona.pk}",
            "messages": ask("two"),
            "conversation_id": first["conversation_id"],
        },
        format="json",
    )
    assert second.status_code == 200, second.content
    assert second.json()["conversation_id"] == first["conversation_id"]


def test_a_persona_model_reads_the_persona_with_the_key(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    persona = make_persona(funded_user)
    body = {"model": f"persona/{persona.pk}", "messages": ask()}
    assert api_client.post(AGENTS, body, format="json").status_code == 200  # warms the cache
    with CaptureQueriesContext(connection) as queries:
        response = api_client.post(AGENTS, body, format="json")
    assert response.status_code == 200, response.content
    reads = [q["sql"] for q in queries.captured_queries if "personas_persona" in q["sql"]]
    # One read: the key's own query, as with persona_id (tests/chat/test_hot_path.py).
    assert len(reads) == 1 and "accounts_apikey" in reads[0]


# --- usage.cost ---


def test_usage_cost_is_what_was_charged(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    fake_upstream.script(reply="ok", usage=(1234, 567))
    response = api_client.post(CHAT, {"model": "fake-text", "messages": ask()}, format="json")
    cost = response.json()["usage"]["cost"]
    # 1234 x $3/M + 567 x $15/M
    assert cost == "0.01220700"
    assert Decimal(cost) == UsageRecord.objects.get().cost
    assert get_balance(funded_user) == Decimal("10") - Decimal(cost)


def test_streamed_usage_cost_is_what_was_charged(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    fake_upstream.script(reply="ok then", usage=(100, 10))
    response = api_client.post(
        CHAT,
        {
            "model": "fake-text",
            "messages": ask(),
            "stream": True,
            "stream_options": {"include_usage": True},
        },
        format="json",
    )
    events = sse_events(streamed_body(response))
    usage = events[-2]["usage"]
    assert usage["cost"] == "0.00045000"  # 100 x $3/M + 10 x $15/M
    assert Decimal(usage["cost"]) == UsageRecord.objects.get().cost


def test_a_cut_stream_counts_tool_call_arguments(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, catalog: Any
) -> None:
    arguments = json.dumps({"city": "Paris", "days": list(range(40))})
    fake_upstream.script(
        reply="",
        tool_calls=[{"name": "get_weather", "arguments": arguments}],
        finish_reason="tool_calls",
        stream_chunk_chars=8,
        usage=None,
        reset_after_chunks=6,
    )
    response = api_client.post(
        CHAT,
        {"model": "fake-gpt", "messages": ask(), "tools": [WEATHER], "stream": True},
        format="json",
    )
    events = sse_events(streamed_body(response))
    assert events[-2]["error"]["type"] == "upstream_error"
    relayed = _assembled_calls(events[:-2])
    assert relayed and relayed[0]["arguments"]
    # The relayed arguments were generated: they are billed, not only the (empty) text.
    assert UsageRecord.objects.get().completion_tokens > 0


# --- Pending charges keep the tool exchange ---


def test_a_pending_charge_record_keeps_tool_calls_and_tool_messages(
    funded_user: User, fake_upstream: FakeUpstream, catalog: Any, settings: Any, tmp_path: Path
) -> None:
    settings.PENDING_CHARGES_DIR = tmp_path
    call = {"id": "c7", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    data = {
        "model": "fake-gpt",
        "messages": [
            *ask(),
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c7", "content": "sunny"},
        ],
        "tools": [WEATHER],
    }
    serializer = ChatCompletionRequestSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    ctx = prepare_chat(
        user=funded_user, api_key=None, data=serializer.validated_data, save=True, mode="api"
    )
    reply_function = {"name": "get_weather", "arguments": ARGUMENTS}
    reply_calls = [{"id": "c8", "type": "function", "function": reply_function}]
    path = _write_record(
        ctx, content="", tool_calls=reply_calls, usage=Usage(50, 7), completed=True
    )
    assert replay_record(path) is True
    usage = UsageRecord.objects.get()
    assert (usage.prompt_tokens, usage.completion_tokens) == (50, 7)
    assert usage.conversation is not None
    stored = list(usage.conversation.messages.order_by("id"))
    assert [(m.role, m.tool_call_id, m.tool_calls) for m in stored] == [
        ("user", "", None),
        ("assistant", "", [call]),
        ("tool", "c7", None),
        ("assistant", "", reply_calls),
    ]
    assert stored[2].content == "sunny"


# --- The schema ---


def test_the_schema_documents_tools_outputs_and_cost(anon_client: APIClient) -> None:
    schema = anon_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    request = components["ChatCompletionRequestRequest"]["properties"]
    for name in (
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "response_format",
        "top_p",
        "max_completion_tokens",
        "n",
        "logprobs",
        "top_logprobs",
        "user",
        "frequency_penalty",
        "presence_penalty",
        "logit_bias",
    ):
        assert name in request, name
    assert {option.get("type") for option in request["tool_choice"]["oneOf"]} == {
        "string",
        "object",
    }
    message = components["ChatMessageRequest"]["properties"]
    assert {"tool_call_id", "tool_calls"} <= set(message)
    assert "tool" in components[message["role"]["$ref"].split("/")[-1]]["enum"]
    choice = components["Choice"]["properties"]
    assert set(components[choice["finish_reason"]["$ref"].split("/")[-1]]["enum"]) == {
        "stop",
        "length",
        "tool_calls",
        "content_filter",
    }
    assert choice["logprobs"]["nullable"] is True
    assistant = components["AssistantMessage"]["properties"]
    assert assistant["content"]["nullable"] is True
    assert assistant["tool_calls"]["nullable"] is True
    assert "cost" in components["Usage"]["required"]
