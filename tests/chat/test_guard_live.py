"""The chat guard on live daphne processes (the ASGI gateway and its database threads), with
the fake upstream over HTTP: a guarded key set in this process is obeyed by the servers, and a
stream is cut where it turns unsafe."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from accounts.models import ApiKey, User
from accounts.services import update_api_key
from billing.models import Hold, UsageRecord
from billing.services import top_up
from moderation.models import ModerationVerdict
from tests.chat.test_guard import SAFE_QUESTION, SAFE_START, THREAT, UNSAFE_REPLY
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

CHAT = "/v1/chat/completions"


@pytest.fixture
def servers(upstream_catalog: Path) -> Iterator[tuple[str, str]]:
    """Two Nova processes on the same database."""
    env = {"MODELS_FILE": str(upstream_catalog)}
    with running_nova(env) as first, running_nova(env) as second:
        yield first, second


def _wait_for(predicate: Any, what: str) -> None:
    deadline = time.monotonic() + 15
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _post(base: str, key: ApiKey, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        base + CHAT, json=body, headers={"Authorization": f"Bearer {raw_key(key)}"}, timeout=30
    )


def _stream(base: str, key: ApiKey, body: dict[str, Any]) -> tuple[str, list[Any]]:
    events: list[Any] = []
    text = ""
    with httpx.stream(
        "POST",
        base + CHAT,
        json={**body, "stream": True, "stream_options": {"include_usage": True}},
        headers={"Authorization": f"Bearer {raw_key(key)}"},
        timeout=30,
    ) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if not line.startswith("data: "):
                continue
            data = line[len("data: ") :]
            event = data if data == "[DONE]" else json.loads(data)
            events.append(event)
            if isinstance(event, dict):
                for choice in event.get("choices", []):
                    text += choice["delta"].get("content") or ""
    return text, events


def test_a_guarded_key_is_obeyed_by_every_server(
    servers: tuple[str, str], fake_upstream: FakeUpstream
) -> None:
    user: User = UserFactory.create(username="guarded-live")
    top_up(user=user, amount="5")
    key: ApiKey = ApiKeyFactory.create(user=user, guard="input")
    unsafe = {"model": "fake-gpt", "messages": [{"role": "user", "content": THREAT}]}
    for base in servers:
        for body in (unsafe, {**unsafe, "stream": True}):
            response = _post(base, key, body)
            assert response.status_code == 400, response.text
            error = response.json()["error"]
            assert error["code"] == "content_blocked"
            assert set(error["metadata"]) == {"category", "severity", "reason"}
    assert fake_upstream.bodies == []
    assert not UsageRecord.objects.filter(user=user).exists()
    assert not Hold.objects.filter(user=user).exists()
    assert ModerationVerdict.objects.filter(user=user, endpoint="chat_input").count() == 4
    # Turned off in this process: both servers let the same message through at once.
    update_api_key(key=key, guard="off")
    for base in servers:
        assert _post(base, key, unsafe).status_code == 200


def test_a_live_stream_is_cut_where_it_turns_unsafe(
    servers: tuple[str, str], fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply=UNSAFE_REPLY, stream_chunk_chars=6, chunk_delay=0.002)
    user: User = UserFactory.create(username="guarded-stream")
    top_up(user=user, amount="5")
    key: ApiKey = ApiKeyFactory.create(user=user, guard="output")
    ask = {"model": "fake-gpt", "messages": [{"role": "user", "content": SAFE_QUESTION}]}
    for number, base in enumerate(servers, start=1):
        text, events = _stream(base, key, ask)
        assert UNSAFE_REPLY.startswith(text)
        assert SAFE_START.startswith(text) and "kill" not in text
        finishes = [
            choice["finish_reason"]
            for event in events
            if isinstance(event, dict)
            for choice in event.get("choices", [])
            if choice.get("finish_reason")
        ]
        assert finishes == ["content_filter"]
        assert events[-1] == "[DONE]"
        usage = events[-2]["usage"]
        _wait_for(lambda n=number: UsageRecord.objects.filter(user=user).count() == n, "the charge")
        record = UsageRecord.objects.filter(user=user).latest("id")
        assert record.completion_tokens == usage["completion_tokens"] > 0
    _wait_for(lambda: not Hold.objects.filter(user=user).exists(), "the holds to settle")
    assert ModerationVerdict.objects.filter(user=user, endpoint="chat_output").count() == 2
