"""Agent clients through a live daphne: the openai SDK's tool loop and structured outputs,
personas as models, upstream errors as the SDK's own exceptions, and LangChain's bind_tools.

Everything goes over real HTTP: the SDK to daphne on loopback, Nova to the fake upstream.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from pydantic import BaseModel, SecretStr

from accounts.models import ApiKey, User
from billing.models import UsageRecord
from billing.services import top_up
from conversations.models import Conversation, Message
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

WEATHER_TOOL: Any = {
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
CALL_ARGUMENTS = '{"city": "Paris"}'


@pytest.fixture
def live(upstream_catalog: Path) -> Iterator[str]:
    with running_nova({"MODELS_FILE": str(upstream_catalog)}) as base_url:
        yield base_url


@pytest.fixture
def funded_key(db: None) -> ApiKey:
    user: User = UserFactory.create(username="agent-user")
    top_up(user=user, amount="10")
    return ApiKeyFactory.create(user=user, detailed_logging=True)


def sdk(base_url: str, key: ApiKey, suffix: str = "/v1") -> Any:
    # Any: the tests send dicts the SDK's TypedDicts would make verbose.
    return openai.OpenAI(base_url=base_url + suffix, api_key=raw_key(key), max_retries=0)


def script_tool_loop(upstream: FakeUpstream) -> None:
    """First answer: a call of get_weather; second answer (after the tool result): text."""
    upstream.enqueue(
        tool_calls=[{"name": "get_weather", "arguments": CALL_ARGUMENTS}],
        usage=(40, 12),
        stream_chunk_chars=5,
    )
    upstream.enqueue(reply="It is sunny in Paris.", usage=(60, 7), stream_chunk_chars=5)


def streamed_call(chunks: list[Any]) -> tuple[str, str, str, str | None]:
    """(id, name, arguments, finish_reason) put together from delta.tool_calls fragments."""
    call_id, name, arguments, finish = "", "", "", None
    for chunk in chunks:
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        for fragment in choice.delta.tool_calls or []:
            assert fragment.index == 0
            call_id += fragment.id or ""
            if fragment.function is not None:
                name += fragment.function.name or ""
                arguments += fragment.function.arguments or ""
        finish = choice.finish_reason or finish
    return call_id, name, arguments, finish


def assert_second_request_replays_the_call(upstream: FakeUpstream, call_id: str) -> None:
    first, second = upstream.bodies[-2], upstream.bodies[-1]
    assert first["tools"] == [WEATHER_TOOL]
    assert first["tool_choice"] == "auto"
    roles = [m["role"] for m in second["messages"]]
    assert roles[-3:] == ["user", "assistant", "tool"]
    assistant, tool = second["messages"][-2], second["messages"][-1]
    assert assistant["tool_calls"][0]["id"] == call_id
    assert assistant["tool_calls"][0]["function"] == {
        "name": "get_weather",
        "arguments": CALL_ARGUMENTS,
    }
    assert assistant.get("content") in (None, "")
    assert tool == {"role": "tool", "tool_call_id": call_id, "content": "sunny, 24 C"}


@pytest.mark.parametrize("persona", [False, True], ids=["general", "persona"])
def test_tool_loop_round_trip(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream, persona: bool
) -> None:
    script_tool_loop(fake_upstream)
    client = sdk(live, funded_key)
    extra = {"persona_id": 1} if persona else None
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    first = client.chat.completions.create(
        model="fake-gpt", messages=messages, tools=[WEATHER_TOOL], tool_choice="auto",
        extra_body=extra,
    )  # fmt: skip
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    assert choice.message.tool_calls is not None
    call = choice.message.tool_calls[0]
    assert call.type == "function"
    assert call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "Paris"}
    messages += [
        choice.message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": call.id, "content": "sunny, 24 C"},
    ]
    final = client.chat.completions.create(
        model="fake-gpt", messages=messages, tools=[WEATHER_TOOL], extra_body=extra
    )
    assert final.choices[0].message.content == "It is sunny in Paris."
    assert final.choices[0].finish_reason == "stop"
    assert_second_request_replays_the_call(fake_upstream, call.id)
    if persona:
        # The persona's prompt comes first; the tools go upstream unchanged.
        assert fake_upstream.bodies[-1]["messages"][0]["role"] == "system"
        assert fake_upstream.bodies[-1]["tools"] == [WEATHER_TOOL]
        conversation = Conversation.objects.get(pk=(final.model_extra or {})["conversation_id"])
        assert conversation.mode == Conversation.Mode.API_AGENTS
    # Both turns were charged, at what the response says.
    records = UsageRecord.objects.order_by("id")
    assert [r.completion_tokens for r in records] == [12, 7]
    assert (final.usage.model_extra or {})["cost"] == f"{records[1].cost:.8f}"


def test_tool_loop_streamed(live: str, funded_key: ApiKey, fake_upstream: FakeUpstream) -> None:
    script_tool_loop(fake_upstream)
    client = sdk(live, funded_key)
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    chunks = list(
        client.chat.completions.create(
            model="fake-gpt", messages=messages, tools=[WEATHER_TOOL], tool_choice="auto",
            stream=True,
        )
    )  # fmt: skip
    call_id, name, arguments, finish = streamed_call(chunks)
    assert (name, json.loads(arguments), finish) == ("get_weather", {"city": "Paris"}, "tool_calls")
    assert call_id
    messages += [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": arguments},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "content": "sunny, 24 C"},
    ]
    final = client.chat.completions.create(
        model="fake-gpt", messages=messages, tools=[WEATHER_TOOL], stream=True
    )
    text = "".join(c.choices[0].delta.content or "" for c in final if c.choices)
    assert text == "It is sunny in Paris."
    assert_second_request_replays_the_call(fake_upstream, call_id)


def test_continued_conversation_replays_the_tool_exchange(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    script_tool_loop(fake_upstream)
    fake_upstream.enqueue(reply="You are welcome.", usage=(80, 4))
    client = sdk(live, funded_key)
    first = client.chat.completions.create(
        model="fake-gpt",
        messages=[{"role": "user", "content": "Weather in Paris?"}],
        tools=[WEATHER_TOOL],
    )
    conversation_id = (first.model_extra or {})["conversation_id"]
    call = first.choices[0].message.tool_calls[0]
    client.chat.completions.create(
        model="fake-gpt",
        messages=[{"role": "tool", "tool_call_id": call.id, "content": "sunny, 24 C"}],
        tools=[WEATHER_TOOL],
        extra_body={"conversation_id": conversation_id},
    )
    client.chat.completions.create(
        model="fake-gpt",
        messages=[{"role": "user", "content": "Thanks!"}],
        extra_body={"conversation_id": conversation_id},
    )
    replayed = fake_upstream.bodies[-1]["messages"]
    assert [m["role"] for m in replayed] == ["user", "assistant", "tool", "assistant", "user"]
    assert replayed[1]["tool_calls"][0]["id"] == call.id
    assert replayed[2]["tool_call_id"] == call.id
    stored = Message.objects.filter(conversation_id=conversation_id).order_by("id")
    assert [m.role for m in stored] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
    ]


class Weather(BaseModel):
    city: str
    celsius: int


def test_structured_outputs_json_schema_and_json_object(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    client = sdk(live, funded_key)
    fake_upstream.script(reply='{"city": "Paris", "celsius": 24}', usage=(20, 9))
    parsed = client.chat.completions.parse(
        model="fake-gpt",
        messages=[{"role": "user", "content": "Weather in Paris as JSON"}],
        response_format=Weather,
    )
    assert parsed.choices[0].message.parsed == Weather(city="Paris", celsius=24)
    sent = fake_upstream.bodies[-1]["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["name"] == "Weather"
    assert sent["json_schema"]["strict"] is True
    assert sent["json_schema"]["schema"]["required"] == ["city", "celsius"]

    completion = client.chat.completions.create(
        model="fake-gpt",
        messages=[{"role": "user", "content": "JSON please"}],
        response_format={"type": "json_object"},
        extra_body={"persona_id": 1},
    )
    assert json.loads(completion.choices[0].message.content or "") == {
        "city": "Paris",
        "celsius": 24,
    }
    assert fake_upstream.bodies[-1]["response_format"] == {"type": "json_object"}
    assert fake_upstream.bodies[-1]["messages"][0]["role"] == "system"


def test_a_model_without_tools_refuses_them(live: str, funded_key: ApiKey) -> None:
    client = sdk(live, funded_key)
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(
            model="nova-local",
            messages=[{"role": "user", "content": "Weather?"}],
            tools=[WEATHER_TOOL],
        )
    error = caught.value.body
    assert isinstance(error, dict)
    assert error["param"] == "tools"
    assert error["type"] == "invalid_request_error"


def test_n_gives_that_many_choices(live: str, funded_key: ApiKey, fake_upstream: FakeUpstream):
    fake_upstream.script(reply="Option", usage=(10, 6))
    completion = sdk(live, funded_key).chat.completions.create(
        model="fake-gpt", messages=[{"role": "user", "content": "Two options"}], n=2
    )
    assert [c.index for c in completion.choices] == [0, 1]
    assert fake_upstream.bodies[-1]["n"] == 2


def test_upstream_errors_keep_their_meaning(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    client = sdk(live, funded_key)
    message = (
        "This model's maximum context length is 8192 tokens. However, your messages "
        "resulted in 9000 tokens. Please reduce the length of the messages."
    )
    fake_upstream.script(
        status=400,
        error_body=json.dumps(
            {
                "error": {
                    "message": message,
                    "type": "invalid_request_error",
                    "param": "messages",
                    "code": "context_length_exceeded",
                }
            }
        ),
    )
    with pytest.raises(openai.BadRequestError) as bad:
        client.chat.completions.create(
            model="fake-gpt", messages=[{"role": "user", "content": "x"}]
        )
    assert isinstance(bad.value.body, dict)
    assert bad.value.body["message"] == message
    assert bad.value.body["code"] == "context_length_exceeded"

    fake_upstream.script(status=429, retry_after=7)
    with pytest.raises(openai.RateLimitError) as limited:
        client.chat.completions.create(
            model="fake-gpt", messages=[{"role": "user", "content": "x"}]
        )
    assert limited.value.response.headers["retry-after"] == "7"
    assert limited.value.response.headers.get("x-request-id")
    assert not UsageRecord.objects.exists()


def test_personas_as_models(live: str, funded_key: ApiKey, fake_upstream: FakeUpstream) -> None:
    client = sdk(live, funded_key)
    listed = {m.id: m for m in client.models.list(extra_query={"personas": "true"})}
    assert "persona/1" in listed
    assert "nova-local" in listed
    assert all(not key.startswith("persona/") for key in [m.id for m in client.models.list()])
    assert client.models.retrieve("nova-local").id == "nova-local"
    assert client.models.retrieve("persona/1").id == "persona/1"

    completion = client.chat.completions.create(
        model="persona/1", messages=[{"role": "user", "content": "What can you help me with?"}]
    )
    assert completion.choices[0].message.content
    assert (completion.model_extra or {})["persona"]["id"] == 1
    chunks = list(
        client.chat.completions.create(
            model="persona/1",
            messages=[{"role": "user", "content": "And what else?"}],
            stream=True,
        )
    )
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    modes = set(Conversation.objects.values_list("mode", flat=True))
    assert modes == {Conversation.Mode.API_AGENTS}
    assert Conversation.objects.count() == 2


def test_langchain_bind_tools_gets_a_tool_call(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    from langchain_core.tools import tool
    from langchain_openai import ChatOpenAI

    @tool
    def get_weather(city: str) -> str:
        """The current weather in a city."""
        return "sunny"

    fake_upstream.script(
        tool_calls=[{"name": "get_weather", "arguments": CALL_ARGUMENTS}], usage=(30, 10)
    )
    llm = ChatOpenAI(
        model="fake-gpt",
        base_url=live + "/v1",
        api_key=SecretStr(raw_key(funded_key)),
        max_retries=0,
    )
    answer = llm.bind_tools([get_weather]).invoke("What is the weather in Paris?")
    assert answer.tool_calls[0]["name"] == "get_weather"
    assert answer.tool_calls[0]["args"] == {"city": "Paris"}
    assert fake_upstream.bodies[-1]["tools"][0]["function"]["name"] == "get_weather"
