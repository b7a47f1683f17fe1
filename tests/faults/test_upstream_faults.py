"""A failing model provider never produces a wrong charge or a half-written conversation
(docs/api.md, Streaming; docs/billing.md, Charging exactly once). Through the test client;
the live-process run is in test_live_faults.py.

The catalog's fake-gpt has a 2 s read timeout and costs 1.00 / 2.00 USD per million tokens.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from accounts.models import ApiKey, User
from billing.models import UsageRecord
from billing.money import usage_cost
from conversations.models import Conversation
from core.text import count_message_tokens, count_tokens
from llm.catalog import get_catalog
from tests.chat.helpers import sse_events, streamed_body
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import SECRET_IN_ERROR_BODY, FakeUpstream
from tests.faults.helpers import (
    assert_books_balance,
    assert_conversations_whole,
    conversation_roles,
    message_count,
)

pytestmark = pytest.mark.django_db

REPLY = "aaaa bbbb cccc dddd eeee"  # five 5-character chunks


@pytest.fixture
def key(funded_user: User, upstream_catalog: Any) -> ApiKey:
    return ApiKeyFactory.create(user=funded_user, detailed_logging=True)


def _chat(key: ApiKey, *, stream: bool, **extra: Any) -> Any:
    body = {
        "persona_id": 1,
        "model": "fake-gpt",
        "messages": [{"role": "user", "content": "tell me something"}],
        "stream": stream,
        **extra,
    }
    return client_for(key).post("/v1/agents/chat/completions", body, format="json")


def _cost(prompt: int, completion: int) -> Decimal:
    return usage_cost(get_catalog()["fake-gpt"], prompt, completion)


def _stream_events(response: Any) -> list[Any]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    return sse_events(streamed_body(response))


def _streamed_text(events: list[Any]) -> str:
    return "".join(
        e["choices"][0]["delta"].get("content", "")
        for e in events
        if isinstance(e, dict) and e.get("choices")
    )


def _early_stream_error(response: Any) -> dict[str, Any]:
    """The error of a stream whose upstream failed before the first token.

    Under daphne that is a plain JSON 502/504 (chat waits for the first event);
    the test client drains the body on another event loop, so there the stream has started
    and the error arrives as an event before [DONE]. Either way nothing was generated."""
    if response["Content-Type"].startswith("application/json"):
        assert response.status_code in (502, 504)
        return dict(response.json()["error"])
    events = _stream_events(response)
    assert events[-1] == "[DONE]"
    assert _streamed_text(events) == ""
    return dict(events[-2]["error"])


def _assert_nothing_charged_or_saved(user: User) -> None:
    assert not UsageRecord.objects.exists()
    assert not Conversation.objects.exists()
    assert message_count(user) == 0
    assert_books_balance(user, spent=Decimal(0))


# --- Upstream 500 ---


def test_upstream_500_is_a_502_envelope_with_no_charge_and_no_conversation(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(status=500)
    response = _chat(key, stream=False)
    assert response.status_code == 502
    error = response.json()["error"]
    assert error["type"] == "upstream_error" and error["code"] == "upstream_error"
    assert SECRET_IN_ERROR_BODY not in response.content.decode()
    _assert_nothing_charged_or_saved(funded_user)


def test_upstream_500_on_a_stream_is_an_upstream_error_with_no_charge(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(status=500)
    error = _early_stream_error(_chat(key, stream=True))
    assert error["type"] == "upstream_error" and error["code"] == "upstream_error"
    _assert_nothing_charged_or_saved(funded_user)


# --- Upstream hangs past the read timeout ---


def test_upstream_hang_is_a_504_with_no_charge(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(hang=5)
    response = _chat(key, stream=False)
    assert response.status_code == 504
    assert response.json()["error"]["code"] == "upstream_timeout"
    assert response.json()["error"]["type"] == "upstream_error"
    _assert_nothing_charged_or_saved(funded_user)


def test_upstream_hang_mid_stream_charges_only_what_was_streamed(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply=REPLY, stream_chunk_chars=5, hang=5, hang_after_chunks=2)
    events = _stream_events(_chat(key, stream=True))
    assert events[-1] == "[DONE]"
    assert events[-2]["error"]["code"] == "upstream_timeout"
    text = _streamed_text(events)
    assert text == "aaaa bbbb "
    _assert_partial_turn_saved_and_charged(funded_user, text)


# --- Upstream resets the connection mid-stream ---


def _assert_partial_turn_saved_and_charged(user: User, text: str) -> None:
    usage = UsageRecord.objects.get()
    assert usage.completion_tokens == count_tokens(text)
    assert usage.prompt_tokens > 0
    assert usage.cost == _cost(usage.prompt_tokens, usage.completion_tokens)
    assert_books_balance(user, spent=usage.cost)
    # The partial reply is saved together with the user message that asked for it.
    conversation = Conversation.objects.get()
    assert usage.conversation_id == conversation.pk
    assert conversation_roles(conversation.pk) == ["system", "user", "assistant"]
    assert conversation.messages.get(role="assistant").content == text
    assert_conversations_whole(user)


def test_reset_mid_stream_sends_an_error_event_and_charges_the_partial_reply(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply=REPLY, stream_chunk_chars=5, reset_after_chunks=2)
    events = _stream_events(_chat(key, stream=True, stream_options={"include_usage": True}))
    assert events[-1] == "[DONE]"
    assert events[-2]["error"]["type"] == "upstream_error"
    # No finish chunk and no usage chunk after a failure: the error is the last JSON event.
    assert not any("usage" in e for e in events[:-2])
    assert not any(c["finish_reason"] for e in events[:-2] for c in e.get("choices", []))
    text = _streamed_text(events)
    assert text == "aaaa bbbb "
    _assert_partial_turn_saved_and_charged(funded_user, text)


def test_reset_before_any_content_charges_and_saves_nothing(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply=REPLY, stream_chunk_chars=5, reset_after_chunks=0)
    assert _early_stream_error(_chat(key, stream=True))["type"] == "upstream_error"
    _assert_nothing_charged_or_saved(funded_user)


def test_reset_while_continuing_a_conversation_adds_one_whole_turn(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply="first answer", usage=(12, 6))
    first = _chat(key, stream=False)
    assert first.status_code == 200
    conversation_id = first.json()["conversation_id"]
    before = conversation_roles(conversation_id)
    assert before == ["system", "user", "assistant"]

    fake_upstream.script(reply=REPLY, stream_chunk_chars=5, reset_after_chunks=3)
    events = _stream_events(_chat(key, stream=True, conversation_id=conversation_id))
    assert events[-2]["error"]["type"] == "upstream_error"
    assert conversation_roles(conversation_id) == [*before, "user", "assistant"]
    partial = UsageRecord.objects.order_by("id").last()
    assert partial is not None and partial.completion_tokens == count_tokens("aaaa bbbb cccc ")
    assert_books_balance(funded_user, spent=_cost(12, 6) + partial.cost)
    assert_conversations_whole(funded_user)

    # A failure with nothing generated leaves the conversation exactly as it was.
    fake_upstream.script(status=503)
    response = _chat(key, stream=False, conversation_id=conversation_id)
    assert response.status_code == 502
    assert conversation_roles(conversation_id) == [*before, "user", "assistant"]
    assert_books_balance(funded_user, spent=_cost(12, 6) + partial.cost)


# --- Upstream streams garbage ---


def test_garbage_mid_stream_is_an_in_stream_upstream_error_charging_the_partial_reply(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply=REPLY, stream_chunk_chars=5, garbage_after_chunks=1)
    events = _stream_events(_chat(key, stream=True))
    assert events[-1] == "[DONE]"
    assert events[-2]["error"]["type"] == "upstream_error"
    text = _streamed_text(events)
    assert text == "aaaa "
    _assert_partial_turn_saved_and_charged(funded_user, text)


def test_garbage_before_any_content_charges_nothing(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply=REPLY, garbage_after_chunks=0)
    assert _early_stream_error(_chat(key, stream=True))["type"] == "upstream_error"
    _assert_nothing_charged_or_saved(funded_user)


@pytest.mark.parametrize("body", ["<html>502 Bad Gateway</html>", '{"choices": "nope"}', "[]"])
def test_garbage_body_is_a_502_with_no_charge(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream, body: str
) -> None:
    fake_upstream.script(raw_body=body)
    response = _chat(key, stream=False)
    assert response.status_code == 502
    assert response.json()["error"]["type"] == "upstream_error"
    _assert_nothing_charged_or_saved(funded_user)


# --- Upstream slow, but within the timeout ---


def test_slow_answer_within_the_timeout_is_served_and_charged_exactly(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply="slow but fine", hang=1.0, usage=(40, 9))
    response = _chat(key, stream=False)
    assert response.status_code == 200
    body = response.json()
    assert body["choices"][0]["message"]["content"] == "slow but fine"
    assert body["usage"] == {
        "prompt_tokens": 40,
        "completion_tokens": 9,
        "total_tokens": 49,
        "cost": f"{_cost(40, 9):.8f}",
    }
    assert UsageRecord.objects.get().cost == _cost(40, 9)
    assert_books_balance(funded_user, spent=_cost(40, 9))
    assert conversation_roles(body["conversation_id"]) == ["system", "user", "assistant"]


def test_slow_stream_longer_than_the_read_timeout_in_total_is_not_cut(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    # 6 chunks 0.5 s apart: 3 s in all, more than the 2 s read timeout, which bounds the gap
    # between bytes, not the whole answer.
    fake_upstream.script(reply=REPLY, stream_chunk_chars=5, chunk_delay=0.5, usage=(30, 7))
    events = _stream_events(_chat(key, stream=True, stream_options={"include_usage": True}))
    assert events[-1] == "[DONE]"
    assert _streamed_text(events) == REPLY
    assert events[-2]["usage"] == {
        "prompt_tokens": 30,
        "completion_tokens": 7,
        "total_tokens": 37,
        "cost": f"{_cost(30, 7):.8f}",
    }
    assert UsageRecord.objects.get().cost == _cost(30, 7)
    assert_books_balance(funded_user, spent=_cost(30, 7))
    assert_conversations_whole(funded_user)


def test_stream_without_upstream_usage_is_charged_by_nova_s_count(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.script(reply=REPLY, usage=None)
    events = _stream_events(_chat(key, stream=True))
    assert events[-1] == "[DONE]"
    usage = UsageRecord.objects.get()
    assert usage.completion_tokens == count_tokens(REPLY)
    prompt = fake_upstream.bodies[-1]["messages"]
    assert usage.prompt_tokens == count_message_tokens(prompt)
    assert_books_balance(funded_user, spent=_cost(usage.prompt_tokens, usage.completion_tokens))
