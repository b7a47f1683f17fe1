"""The official openai SDK against a live daphne server on loopback (docs/api.md, Chat
completions)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from accounts.models import ApiKey, User
from billing.models import UsageRecord
from billing.selectors import get_balance
from billing.services import top_up
from conversations.models import Message
from core.text import count_tokens
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]


@pytest.fixture
def live(upstream_catalog: Path) -> Iterator[str]:
    with running_nova({"MODELS_FILE": str(upstream_catalog)}) as base_url:
        yield base_url


@pytest.fixture
def funded_key(db: None) -> ApiKey:
    user: User = UserFactory.create(username="sdk-user")
    top_up(user=user, amount="10")
    return ApiKeyFactory.create(user=user, detailed_logging=True)


def sdk(base_url: str, key: ApiKey, suffix: str = "/v1") -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url + suffix, api_key=raw_key(key), max_retries=0)


@pytest.mark.parametrize("suffix", ["/v1", "/v1/agents"])
def test_sdk_persona_chat_with_embedded_model(live: str, funded_key: ApiKey, suffix: str) -> None:
    client = sdk(live, funded_key, suffix)
    completion = client.chat.completions.create(
        model="nova-local",
        messages=[{"role": "user", "content": "What can you help me with?"}],
        extra_body={"persona_id": 1},
    )
    assert completion.object == "chat.completion"
    assert completion.model == "nova-local"
    assert completion.choices[0].message.content
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None and completion.usage.total_tokens > 0
    extra: Any = completion.model_extra
    assert extra["persona"]["id"] == 1
    assert isinstance(extra["conversation_id"], int)


def test_sdk_streaming_through_fake_upstream(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply="Streaming works fine.", stream_chunk_chars=3, usage=(9, 4))
    client = sdk(live, funded_key)
    stream = client.chat.completions.create(
        model="fake-gpt",
        messages=[{"role": "user", "content": "stream please"}],
        extra_body={"persona_id": 1},
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "Streaming works fine."
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == 4
    assert (chunks[-1].model_extra or {})["conversation_id"] is not None


def test_sdk_non_streamed_through_fake_upstream_and_models_list(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply="Plain answer.", usage=(5, 2))
    client = sdk(live, funded_key)
    completion = client.chat.completions.create(
        model="fake-gpt", messages=[{"role": "user", "content": "hi"}]
    )
    assert completion.choices[0].message.content == "Plain answer."
    assert [m.id for m in client.models.list()] == ["nova-local", "fake-gpt", "fake-text"]


def test_client_disconnect_mid_stream_is_charged_for_what_was_sent(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    words = [f"w{i:02d} " for i in range(40)]
    fake_upstream.script(
        reply="".join(words), stream_chunk_chars=4, chunk_delay=0.05, usage=(10, 40)
    )
    received: list[str] = []
    headers = {"Authorization": f"Bearer {raw_key(funded_key)}"}
    body = {"model": "fake-text", "stream": True, "messages": [{"role": "user", "content": "go"}]}
    with httpx.stream(
        "POST", f"{live}/v1/chat/completions", json=body, headers=headers, timeout=10
    ) as response:
        for line in response.iter_lines():
            if line.startswith("data: {") and '"content":"w' in line:
                received.append(line)
            if len(received) == 5:
                break
    # The server notices the disconnect, stops the upstream request and charges.
    import time

    deadline = time.monotonic() + 10
    while not UsageRecord.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    usage = UsageRecord.objects.get()
    assert usage.prompt_tokens > 0
    # Charged for what was generated before the disconnect: more than zero, far less than all.
    assert 5 <= usage.completion_tokens < count_tokens("".join(words)) // 2
    assert get_balance(funded_key.user) == Decimal("10") - usage.cost
    partial = Message.objects.get(role="assistant").content
    assert partial.startswith("w00 w01 w02 w03 w04")
    assert count_tokens(partial) == usage.completion_tokens
    # The upstream notices the closed connection on its next write (a chunk every 50 ms), which
    # can come after the charge was committed.
    while fake_upstream.disconnects < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_upstream.disconnects >= 1


@pytest.mark.parametrize(("script", "status"), [({"status": 500}, 502), ({"hang": 5}, 504)])
def test_stream_that_fails_before_any_token_is_a_plain_json_error(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream, script: dict[str, Any], status: int
) -> None:
    fake_upstream.script(**script)
    headers = {"Authorization": f"Bearer {raw_key(funded_key)}"}
    body = {"model": "fake-text", "stream": True, "messages": [{"role": "user", "content": "x"}]}
    response = httpx.post(f"{live}/v1/chat/completions", json=body, headers=headers, timeout=15)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]["type"] == "upstream_error"
    assert not UsageRecord.objects.exists()


def test_sdk_raises_a_status_error_for_a_failed_stream(
    live: str, funded_key: ApiKey, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(status=500)
    with pytest.raises(openai.APIStatusError) as caught:
        list(
            sdk(live, funded_key).chat.completions.create(
                model="fake-gpt", messages=[{"role": "user", "content": "x"}], stream=True
            )
        )
    assert caught.value.status_code == 502
