"""Tools, n choices and personas as models through the official openai SDK, against a live
daphne server (the gateway's path) on loopback (docs/api.md, Chat completions)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import openai
import pytest

from accounts.models import ApiKey, User
from billing.models import UsageRecord
from billing.services import top_up
from conversations.models import Conversation
from tests.chat.helpers import make_persona
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

WEATHER: Any = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
ARGUMENTS = json.dumps({"city": "Paris", "unit": "celsius"})


@pytest.fixture
def live(upstream_catalog: Path) -> Iterator[str]:
    with running_nova({"MODELS_FILE": str(upstream_catalog)}) as base_url:
        yield base_url


@pytest.fixture
def key(db: None) -> ApiKey:
    user: User = UserFactory.create(username="sdk-tools")
    top_up(user=user, amount="10")
    return ApiKeyFactory.create(user=user, detailed_logging=True)


def sdk(base_url: str, key: ApiKey, suffix: str = "/v1") -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url + suffix, api_key=raw_key(key), max_retries=0)


def test_sdk_reads_tool_calls_non_streamed(
    live: str, key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply="", tool_calls=[{"name": "get_weather", "arguments": ARGUMENTS}])
    completion = sdk(live, key).chat.completions.create(
        model="fake-gpt",
        messages=[{"role": "user", "content": "Weather in Paris?"}],
        tools=[WEATHER],
        tool_choice="auto",
    )
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    [call] = choice.message.tool_calls or []
    assert call.type == "function"
    assert (call.function.name, call.function.arguments) == ("get_weather", ARGUMENTS)
    assert fake_upstream.bodies[-1]["tools"] == [WEATHER]
    assert completion.usage is not None
    cost = (completion.usage.model_extra or {})["cost"]
    assert Decimal(cost) == UsageRecord.objects.get().cost


def test_sdk_assembles_streamed_tool_calls(
    live: str, key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(
        reply="",
        tool_calls=[{"name": "get_weather", "arguments": ARGUMENTS}],
        stream_chunk_chars=5,
    )
    stream = sdk(live, key).chat.completions.create(
        model="fake-gpt",
        messages=[{"role": "user", "content": "Weather in Paris?"}],
        tools=[WEATHER],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    arguments = ""
    names = ""
    finish = None
    for chunk in chunks:
        for choice in chunk.choices:
            for fragment in choice.delta.tool_calls or []:
                assert fragment.index == 0
                if fragment.function is not None:
                    names += fragment.function.name or ""
                    arguments += fragment.function.arguments or ""
            finish = choice.finish_reason or finish
    assert (names, arguments, finish) == ("get_weather", ARGUMENTS, "tool_calls")
    assert chunks[-1].usage is not None
    assert Decimal((chunks[-1].usage.model_extra or {})["cost"]) == UsageRecord.objects.get().cost


def test_sdk_gets_n_choices_streamed_and_not(
    live: str, key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    client = sdk(live, key)
    messages: Any = [{"role": "user", "content": "Two answers, please."}]
    completion = client.chat.completions.create(model="fake-gpt", messages=messages, n=2)
    assert [c.index for c in completion.choices] == [0, 1]
    assert all(c.message.content for c in completion.choices)
    texts = {0: "", 1: ""}
    for chunk in client.chat.completions.create(
        model="fake-gpt", messages=messages, n=2, stream=True
    ):
        for choice in chunk.choices:
            texts[choice.index] += choice.delta.content or ""
    assert texts[0] and texts[1]


@pytest.mark.parametrize("suffix", ["/v1", "/v1/agents"])
def test_sdk_picks_a_persona_as_a_model(
    live: str, key: ApiKey, fake_upstream: FakeUpstream, suffix: str
) -> None:
    persona = make_persona(key.user, prompt="You are Ada.")
    client = sdk(live, key, suffix)
    completion = client.chat.completions.create(
        model=f"persona/{persona.pk}", messages=[{"role": "user", "content": "hi"}]
    )
    assert completion.model == "fake-gpt"
    assert (completion.model_extra or {})["persona"]["id"] == persona.pk
    assert "You are Ada." in fake_upstream.bodies[-1]["messages"][0]["content"]
    conversation = Conversation.objects.get(pk=(completion.model_extra or {})["conversation_id"])
    assert conversation.mode == "api_agents"
    stream = client.chat.completions.create(
        model=f"persona/{persona.pk}",
        messages=[{"role": "user", "content": "hi"}],
        stream=True,
    )
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
