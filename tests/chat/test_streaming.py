"""SSE streaming through the test client (docs/api.md, Streaming); the live-server cases are
elsewhere."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from accounts.models import User
from billing.models import UsageRecord
from billing.selectors import get_balance
from conversations.models import Message
from tests.chat.helpers import sse_events, streamed_body
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db


def test_exact_sse_sequence_with_include_usage(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    fake_upstream.script(reply="Hello world!", stream_chunk_chars=4, usage=(10, 3))
    response = client.post(
        "/v1/agents/chat/completions",
        {
            "persona_id": 1,
            "model": "fake-gpt",
            "stream": True,
            "stream_options": {"include_usage": True},
            "messages": [{"role": "user", "content": "hi"}],
        },
        format="json",
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["Cache-Control"] == "no-cache"
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    first, *fragments, finish, usage_chunk, _ = events
    ids = {e["id"] for e in events[:-1]}
    assert len(ids) == 1 and next(iter(ids)).startswith("chatcmpl-")
    assert all(
        e["object"] == "chat.completion.chunk" and e["model"] == "fake-gpt" for e in events[:-1]
    )
    assert first["choices"] == [
        {"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}
    ]
    assert "".join(f["choices"][0]["delta"]["content"] for f in fragments) == "Hello world!"
    assert all(f["choices"][0]["finish_reason"] is None for f in fragments)
    assert finish["choices"] == [{"index": 0, "delta": {}, "finish_reason": "stop"}]
    assert usage_chunk["choices"] == []
    assert usage_chunk["usage"] == {
        "prompt_tokens": 10,
        "completion_tokens": 3,
        "total_tokens": 13,
        "cost": "0.00001600",  # 10 x $1/M + 3 x $2/M
    }
    conversation_id = usage_chunk["conversation_id"]
    assert isinstance(conversation_id, int)
    assert Message.objects.get(conversation_id=conversation_id, role="assistant").content == (
        "Hello world!"
    )
    assert fake_upstream.bodies[-1]["stream"] is True
    assert fake_upstream.bodies[-1]["stream_options"] == {"include_usage": True}


def test_stream_without_include_usage_puts_conversation_id_on_finish_chunk(
    funded_user: User, api_client: Any
) -> None:
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": 1, "stream": True, "messages": [{"role": "user", "content": "hi"}]},
        format="json",
    )
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    assert events[-2]["choices"][0]["finish_reason"] == "stop"
    assert "conversation_id" in events[-2] and events[-2]["conversation_id"] is None
    assert not any("usage" in e for e in events[:-1])
    assert UsageRecord.objects.count() == 1


def test_upstream_reset_mid_stream_gives_in_stream_error_and_partial_charge(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user, detailed_logging=True))
    fake_upstream.script(
        reply="aaaa bbbb cccc dddd eeee", stream_chunk_chars=5, reset_after_chunks=2
    )
    response = client.post(
        "/v1/chat/completions",
        {"model": "fake-text", "stream": True, "messages": [{"role": "user", "content": "hi"}]},
        format="json",
    )
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    assert events[-2]["error"]["type"] == "upstream_error"
    text = "".join(e["choices"][0]["delta"].get("content", "") for e in events[1:-2])
    assert text == "aaaa bbbb "
    usage = UsageRecord.objects.get()
    from core.text import count_tokens

    assert usage.completion_tokens == count_tokens(text)
    assert usage.cost > 0
    assert get_balance(funded_user) == Decimal("10") - usage.cost
    saved = Message.objects.get(role="assistant")
    assert saved.content == text
