"""The chat guard (docs/moderation.md, Chat guard): a key's or a persona's moderation of the
user's message and of the reply, through the real pipeline and the fake upstream over HTTP."""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiKey, Guard, User
from billing.models import Hold, LedgerEntry, UsageRecord
from billing.money import usage_cost
from billing.selectors import get_balance
from chat.guard import chat_guard, split_windows
from conversations.models import Conversation, Message
from core.text import count_tokens
from llm.catalog import get_catalog
from moderation.engine import moderate
from moderation.models import ModerationVerdict, ReviewItem
from personas.models import Persona
from tests.chat.helpers import make_persona, sse_events, streamed_body
from tests.conftest import client_for
from tests.factories import ApiKeyFactory
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

PERSONA_CHAT = "/v1/agents/chat/completions"
GENERAL_CHAT = "/v1/chat/completions"

# Written for these tests; the engine's verdicts on them are pinned by the first test.
SAFE_QUESTION = "How do I reverse a list in Python?"
THREAT = "I will kill you, I know where you live and I am coming for you tonight."
# 108 characters: streamed in fragments of 3, 4, 6, 9 or 12 characters, its last fragment
# ends the sentence before the threat.
SAFE_START = (
    "Lists in Python always keep the order of their items. "
    "You can reverse one in place with the reverse method. "
)
SAFE_END = (
    "Slicing with a negative step gives a reversed copy. The reversed function returns an "
    "iterator instead. Sorting with reverse set to true orders items from largest to smallest. "
    "Each of these leaves the original list untouched except the first. Pick the one that reads "
    "best in your code. Tuples and strings can be reversed the same way with slicing. For very "
    "large lists the iterator saves memory. Remember that reverse returns None, so do not assign "
    "its result."
)
UNSAFE_REPLY = SAFE_START + THREAT + " " + SAFE_END
SAFE_REPLY = SAFE_START + SAFE_END
# Exactly 200 characters without a sentence end, ending in the middle of a threat.
SPLIT_FIRST = (
    "We talked about lists and loops for a while, then about the weather and the game on "
    "the weekend, and about the new library in town with its reading rooms, and "
    "then the bus, when I said: I am going to "
)


def ask(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def test_the_test_texts_are_judged_as_these_tests_need() -> None:
    assert moderate(THREAT).status == "DISALLOWED"
    assert moderate(UNSAFE_REPLY).status == "DISALLOWED"
    for safe in (SAFE_QUESTION, SAFE_START, SAFE_END, SAFE_REPLY):
        assert moderate(safe).action == "ALLOW", safe
    # The threat is a window of its own, after the safe sentences.
    assert len(SAFE_START) == 108
    assert len(SPLIT_FIRST) == 200
    windows = split_windows(UNSAFE_REPLY)
    assert "".join(windows) == UNSAFE_REPLY
    assert "".join(windows[:2]) == SAFE_START
    assert windows[2].startswith("I will kill")
    assert moderate(SPLIT_FIRST).action == "ALLOW"


@pytest.fixture
def funded(funded_user: User) -> User:
    return funded_user


def guarded_key(user: User, guard: str, *, logging: bool = False) -> ApiKey:
    key: ApiKey = ApiKeyFactory.create(user=user, guard=guard, detailed_logging=logging)
    return key


def _request(endpoint: str, persona: Persona, text: str, *, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"messages": ask(text), "stream": stream}
    if endpoint == PERSONA_CHAT:
        body["persona_id"] = persona.pk
    else:
        body["model"] = "fake-gpt"
    if stream:
        body["stream_options"] = {"include_usage": True}
    return body


def _streamed(client: APIClient, url: str, body: dict[str, Any]) -> list[Any]:
    response = client.post(url, body, format="json")
    assert response.status_code == 200, response.content
    return sse_events(streamed_body(response))


def _text_of(events: list[Any], index: int = 0) -> str:
    return "".join(
        choice["delta"].get("content") or ""
        for event in events
        if isinstance(event, dict)
        for choice in event.get("choices", [])
        if choice["index"] == index
    )


def _finish_reasons(events: list[Any]) -> dict[int, str]:
    return {
        choice["index"]: choice["finish_reason"]
        for event in events
        if isinstance(event, dict)
        for choice in event.get("choices", [])
        if choice.get("finish_reason")
    }


def _wait_for(predicate: Any, what: str) -> None:
    deadline = time.monotonic() + 10
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


# --- Which guard a chat gets ---


@pytest.mark.parametrize(
    ("key_guard", "persona_guard", "expected"),
    [
        ("off", "off", None),
        ("input", "off", (True, False)),
        ("off", "output", (False, True)),
        ("input", "output", (True, True)),
        ("both", "off", (True, True)),
        ("output", "output", (False, True)),
        ("off", "both", (True, True)),
    ],
)
def test_the_stricter_of_the_key_and_the_persona_applies(
    user: User, key_guard: str, persona_guard: str, expected: tuple[bool, bool] | None
) -> None:
    key = guarded_key(user, key_guard)
    persona = make_persona(user)
    persona.guard = persona_guard
    guard = chat_guard(user, key, persona)
    assert (None if guard is None else (guard.input, guard.output)) == expected
    assert (
        Guard.combine(key_guard, persona_guard)
        == {
            None: "off",
            (True, False): "input",
            (False, True): "output",
            (True, True): "both",
        }[expected]
    )


# --- Input ---


@pytest.mark.parametrize("endpoint", [PERSONA_CHAT, GENERAL_CHAT])
@pytest.mark.parametrize("stream", [False, True])
def test_a_blocked_message_is_a_400_and_nothing_is_generated_held_or_charged(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any, endpoint: str, stream: bool
) -> None:
    persona = make_persona(funded)
    key = guarded_key(funded, "input")
    before = get_balance(funded)
    response = client_for(key).post(
        endpoint, _request(endpoint, persona, THREAT, stream=stream), format="json"
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    verdict = moderate(THREAT)
    assert error["type"] == "invalid_request_error"
    assert error["code"] == "content_blocked"
    assert error["param"] == "messages[0].content"
    assert error["metadata"] == {
        "category": verdict.category,
        "severity": verdict.severity,
        "reason": verdict.reason,
    }
    assert fake_upstream.bodies == []  # no upstream request
    assert not Hold.objects.filter(user=funded).exists()
    assert not UsageRecord.objects.filter(user=funded).exists()
    assert LedgerEntry.objects.filter(user=funded).count() == 1  # the top-up only
    assert get_balance(funded) == before
    record = ModerationVerdict.objects.get(user=funded)
    assert (record.endpoint, record.status, record.api_key_id) == (
        "chat_input",
        "DISALLOWED",
        key.pk,
    )
    assert record.category == verdict.category
    # A threat needs review: queued with the message that was judged.
    assert ReviewItem.objects.get(verdict=record).content == THREAT


def test_a_safe_message_passes_the_input_guard_untouched(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    fake_upstream.script(reply=UNSAFE_REPLY)  # the output is not guarded by "input"
    key = guarded_key(funded, "input")
    response = client_for(key).post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": ask(SAFE_QUESTION)}, format="json"
    )
    assert response.status_code == 200, response.content
    choice = response.json()["choices"][0]
    assert (choice["message"]["content"], choice["finish_reason"]) == (UNSAFE_REPLY, "stop")
    assert not ModerationVerdict.objects.exists()  # an ALLOW verdict is not recorded


def test_the_input_guard_reads_the_latest_user_message_only(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    key = guarded_key(funded, "input")
    messages = [
        {"role": "user", "content": THREAT},
        {"role": "assistant", "content": "I can't help with that."},
        {"role": "user", "content": SAFE_QUESTION},
    ]
    response = client_for(key).post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": messages}, format="json"
    )
    assert response.status_code == 200, response.content
    messages.append({"role": "assistant", "content": "ok"})
    messages.append({"role": "user", "content": THREAT})
    response = client_for(key).post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": messages}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "messages[4].content"


def test_a_404_comes_before_the_guard_and_the_guard_before_the_402(
    user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    key = guarded_key(user, "input")  # the user has no balance
    client = client_for(key)
    missing = client.post(
        PERSONA_CHAT, {"persona_id": 999999, "messages": ask(THREAT)}, format="json"
    )
    assert missing.status_code == 404
    blocked = client.post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": ask(THREAT)}, format="json"
    )
    assert (blocked.status_code, blocked.json()["error"]["code"]) == (400, "content_blocked")
    unfunded = client.post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": ask(SAFE_QUESTION)}, format="json"
    )
    assert unfunded.status_code == 402


# --- Output, streamed ---


def test_a_stream_that_turns_unsafe_ends_with_content_filter_before_the_unsafe_window(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    fake_upstream.script(
        reply=UNSAFE_REPLY, stream_chunk_chars=4, chunk_delay=0.002, usage=(12, 999)
    )
    key = guarded_key(funded, "output", logging=True)
    events = _streamed(
        client_for(key),
        GENERAL_CHAT,
        {
            "model": "fake-gpt",
            "messages": ask(SAFE_QUESTION),
            "stream": True,
            "stream_options": {"include_usage": True},
        },
    )
    received = _text_of(events)
    # The client got the safe start, nothing of the unsafe sentence and nothing after it.
    assert received == SAFE_START
    assert "kill" not in received and "Step" not in received
    assert _finish_reasons(events) == {0: "content_filter"}
    assert events[-1] == "[DONE]"
    usage_chunk = events[-2]
    assert usage_chunk["choices"] == []
    # Nova closed the upstream's stream when it blocked, before the upstream's own usage came:
    # the charge is Nova's count of what was generated, which covers the blocked sentence.
    _wait_for(lambda: fake_upstream.disconnects == 1, "the upstream stream to be closed")
    record = UsageRecord.objects.get(user=funded)
    generated = record.completion_tokens
    assert usage_chunk["usage"]["completion_tokens"] == generated
    assert generated != 999
    assert count_tokens(SAFE_START + THREAT) <= generated < count_tokens(UNSAFE_REPLY)
    assert any(
        count_tokens(UNSAFE_REPLY[:end]) == generated
        for end in range(len(SAFE_START + THREAT), len(UNSAFE_REPLY))
    )
    model = get_catalog().get("fake-gpt")
    assert model is not None
    assert record.cost == usage_cost(model, record.prompt_tokens, generated)
    assert not Hold.objects.filter(user=funded).exists()
    # Saved as the client saw it, with the guard's verdict linked to the conversation.
    conversation = Conversation.objects.get(user=funded)
    assert usage_chunk["conversation_id"] == conversation.pk
    reply = Message.objects.get(conversation=conversation, role="assistant")
    assert reply.content == SAFE_START
    verdict = ModerationVerdict.objects.get(user=funded)
    assert (verdict.endpoint, verdict.status, verdict.conversation_id) == (
        "chat_output",
        "DISALLOWED",
        conversation.pk,
    )
    item = ReviewItem.objects.get(verdict=verdict)
    assert THREAT in item.content and "Step" not in item.content


def test_a_safe_stream_is_relayed_whole_in_order(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    fake_upstream.script(reply=SAFE_REPLY, stream_chunk_chars=6, usage=(12, 77))
    key = guarded_key(funded, "output")
    events = _streamed(
        client_for(key),
        GENERAL_CHAT,
        {
            "model": "fake-gpt",
            "messages": ask(SAFE_QUESTION),
            "stream": True,
            "stream_options": {"include_usage": True},
        },
    )
    assert _text_of(events) == SAFE_REPLY
    assert _finish_reasons(events) == {0: "stop"}
    assert events[-2]["usage"]["completion_tokens"] == 77  # the upstream's own count
    # Each content chunk is one the upstream sent, held back, never merged.
    pieces = [
        e["choices"][0]["delta"]["content"]
        for e in events
        if isinstance(e, dict) and e["choices"] and e["choices"][0]["delta"].get("content")
    ]
    assert all(len(piece) <= 6 for piece in pieces)
    assert not ModerationVerdict.objects.exists()


def test_a_threat_split_across_two_windows_is_read_whole(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    # No sentence end: the first window closes at 200 characters, in the middle of the threat.
    reply = SPLIT_FIRST + "kill you tonight. " + SAFE_END
    fake_upstream.script(reply=reply, stream_chunk_chars=8)
    key = guarded_key(funded, "output")
    events = _streamed(
        client_for(key),
        GENERAL_CHAT,
        {"model": "fake-gpt", "messages": ask(SAFE_QUESTION), "stream": True},
    )
    # The first window was safe and sent; the second was read after it, so the check saw the
    # whole phrase.
    assert _text_of(events) == SPLIT_FIRST
    assert _finish_reasons(events) == {0: "content_filter"}
    item = ReviewItem.objects.get(verdict__endpoint="chat_output")
    assert "I am going to kill you" in item.content


def test_with_n_choices_every_choice_is_guarded(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    # The fake upstream gives every choice the same text: both are cut, then the stream stops.
    fake_upstream.script(reply=UNSAFE_REPLY, stream_chunk_chars=6)
    key = guarded_key(funded, "output")
    events = _streamed(
        client_for(key),
        GENERAL_CHAT,
        {"model": "fake-gpt", "messages": ask(SAFE_QUESTION), "stream": True, "n": 2},
    )
    assert _text_of(events, 0) == SAFE_START
    assert _text_of(events, 1) == SAFE_START
    assert _finish_reasons(events) == {0: "content_filter", 1: "content_filter"}


# --- Output, not streamed ---


@pytest.mark.parametrize("endpoint", [PERSONA_CHAT, GENERAL_CHAT])
def test_a_reply_that_turns_unsafe_keeps_the_text_before_the_blocked_window(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any, endpoint: str
) -> None:
    fake_upstream.script(reply=UNSAFE_REPLY, usage=(30, 60))
    persona = make_persona(funded)
    key = guarded_key(funded, "output")
    response = client_for(key).post(
        endpoint, _request(endpoint, persona, SAFE_QUESTION, stream=False), format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    choice = body["choices"][0]
    assert choice["message"]["content"] == SAFE_START
    assert choice["finish_reason"] == "content_filter"
    # The whole reply was generated: the upstream's usage is charged.
    assert body["usage"]["completion_tokens"] == 60
    record = UsageRecord.objects.get(user=funded)
    assert (record.prompt_tokens, record.completion_tokens) == (30, 60)
    assert Decimal(body["usage"]["cost"]) == record.cost
    verdict = ModerationVerdict.objects.get(user=funded)
    assert (verdict.endpoint, verdict.status, verdict.conversation_id) == (
        "chat_output",
        "DISALLOWED",
        None,  # Detailed Logging off: nothing saved to link to
    )


def test_a_safe_reply_is_answered_whole(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    fake_upstream.script(reply=SAFE_REPLY)
    key = guarded_key(funded, "both")
    response = client_for(key).post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": ask(SAFE_QUESTION)}, format="json"
    )
    choice = response.json()["choices"][0]
    assert (choice["message"]["content"], choice["finish_reason"]) == (SAFE_REPLY, "stop")
    assert not ModerationVerdict.objects.exists()


# --- Key and persona ---


def test_a_persona_guard_applies_to_every_key_and_adds_to_the_key_guard(
    funded: User, other_user: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    fake_upstream.script(reply=UNSAFE_REPLY)
    persona = make_persona(funded, public=True)
    Persona.objects.filter(pk=persona.pk).update(guard="output")
    body = {"persona_id": persona.pk, "messages": ask(SAFE_QUESTION)}
    # A key without a guard still gets the persona's output guard...
    plain = client_for(guarded_key(funded, "off"))
    choice = plain.post(PERSONA_CHAT, body, format="json").json()["choices"][0]
    assert (choice["message"]["content"], choice["finish_reason"]) == (SAFE_START, "content_filter")
    # ... but not an input guard it did not ask for,
    unsafe_ask = {"persona_id": persona.pk, "messages": ask(THREAT)}
    assert plain.post(PERSONA_CHAT, unsafe_ask, format="json").status_code == 200
    # while a key's input guard adds to the persona's output guard: both apply.
    input_only = client_for(guarded_key(funded, "input"))
    blocked = input_only.post(PERSONA_CHAT, unsafe_ask, format="json")
    assert (blocked.status_code, blocked.json()["error"]["code"]) == (400, "content_blocked")
    choice = input_only.post(PERSONA_CHAT, body, format="json").json()["choices"][0]
    assert choice["finish_reason"] == "content_filter"
    # The same key on general chat (no persona) has its input guard only.
    general = input_only.post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": ask(SAFE_QUESTION)}, format="json"
    )
    assert general.json()["choices"][0]["message"]["content"] == UNSAFE_REPLY


def test_a_persona_guard_change_applies_to_the_next_chat(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    from personas.services import update_persona

    fake_upstream.script(reply=UNSAFE_REPLY)
    persona = make_persona(funded)
    client = client_for(guarded_key(funded, "off"))
    body = {"persona_id": persona.pk, "messages": ask(SAFE_QUESTION)}
    assert client.post(PERSONA_CHAT, body, format="json").json()["choices"][0]["finish_reason"] == (
        "stop"
    )
    update_persona(persona=persona, guard="output")  # the cached snapshot is replaced
    assert client.post(PERSONA_CHAT, body, format="json").json()["choices"][0]["finish_reason"] == (
        "content_filter"
    )


# --- What is stored ---


def test_guard_off_moderates_nothing(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    fake_upstream.script(reply=UNSAFE_REPLY, stream_chunk_chars=8)
    client = client_for(guarded_key(funded, "off"))
    response = client.post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": ask(THREAT)}, format="json"
    )
    assert response.json()["choices"][0]["message"]["content"] == UNSAFE_REPLY
    events = _streamed(
        client, GENERAL_CHAT, {"model": "fake-gpt", "messages": ask(THREAT), "stream": True}
    )
    assert _text_of(events) == UNSAFE_REPLY
    assert _finish_reasons(events) == {0: "stop"}
    assert not ModerationVerdict.objects.exists()


def test_a_blocked_message_in_a_saved_conversation_is_linked_to_it(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    key = guarded_key(funded, "input", logging=True)
    client = client_for(key)
    first = client.post(
        GENERAL_CHAT, {"model": "fake-gpt", "messages": ask(SAFE_QUESTION)}, format="json"
    )
    conversation_id = first.json()["conversation_id"]
    assert conversation_id is not None
    blocked = client.post(
        GENERAL_CHAT,
        {"model": "fake-gpt", "messages": ask(THREAT), "conversation_id": conversation_id},
        format="json",
    )
    assert blocked.status_code == 400
    verdict = ModerationVerdict.objects.get(user=funded)
    assert (verdict.endpoint, verdict.conversation_id) == ("chat_input", conversation_id)
    # The blocked turn itself is not saved.
    assert Message.objects.filter(conversation_id=conversation_id).count() == 2


# Profanity alone is allowed and logged (LOG_ONLY): pinned by the first assertions below.
PROFANE_QUESTION = "Why the hell is my damn list backwards?"
PROFANE_REPLY = (
    "Damn, that shit is backwards. Slicing with a negative step gives a reversed copy, and "
    "the reversed function returns an iterator instead."
)


@pytest.mark.parametrize("stream", [False, True])
def test_a_logged_message_and_reply_are_served_and_their_verdicts_saved_with_the_turn(
    funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any, stream: bool
) -> None:
    for text in (PROFANE_QUESTION, PROFANE_REPLY):
        verdict = moderate(text)
        assert (verdict.status, verdict.action, verdict.category) == (
            "ALLOWED",
            "LOG_ONLY",
            "PROFANITY",
        )
    fake_upstream.script(reply=PROFANE_REPLY, stream_chunk_chars=7, usage=(14, 25))
    key = guarded_key(funded, "both", logging=True)
    body: dict[str, Any] = {"model": "fake-gpt", "messages": ask(PROFANE_QUESTION)}
    if stream:
        events = _streamed(client_for(key), GENERAL_CHAT, {**body, "stream": True})
        assert (_text_of(events), _finish_reasons(events)) == (PROFANE_REPLY, {0: "stop"})
        conversation_id = events[-2]["conversation_id"]
    else:
        response = client_for(key).post(GENERAL_CHAT, body, format="json")
        assert response.status_code == 200, response.content
        choice = response.json()["choices"][0]
        assert (choice["message"]["content"], choice["finish_reason"]) == (PROFANE_REPLY, "stop")
        conversation_id = response.json()["conversation_id"]
    # Served and charged as any turn: the question went upstream, the reply was saved whole.
    [sent] = fake_upstream.bodies
    assert sent["messages"][-1]["content"] == PROFANE_QUESTION
    conversation = Conversation.objects.get(user=funded)
    assert conversation_id == conversation.pk
    reply = Message.objects.get(conversation=conversation, role="assistant")
    assert reply.content == PROFANE_REPLY
    assert UsageRecord.objects.filter(user=funded).count() == 1
    assert not Hold.objects.filter(user=funded).exists()
    # Both verdicts recorded with the turn, linked to its conversation.
    verdicts = ModerationVerdict.objects.filter(user=funded).order_by("endpoint")
    assert [
        (v.endpoint, v.status, v.action, v.category, v.api_key_id, v.conversation_id)
        for v in verdicts
    ] == [
        ("chat_input", "ALLOWED", "LOG_ONLY", "PROFANITY", key.pk, conversation.pk),
        ("chat_output", "ALLOWED", "LOG_ONLY", "PROFANITY", key.pk, conversation.pk),
    ]


# --- The playground (no key: the persona's guard) ---


def test_the_playground_applies_the_persona_guard(
    client: Client, funded: User, fake_upstream: FakeUpstream, upstream_catalog: Any
) -> None:
    persona = make_persona(funded)
    Persona.objects.filter(pk=persona.pk).update(guard="both")
    client.force_login(funded)
    blocked = client.post(
        "/playground/chat",
        {"persona_id": persona.pk, "message": THREAT},
        content_type="application/json",
    )
    assert blocked.status_code == 400
    assert blocked.json()["error"]["code"] == "content_blocked"
    assert fake_upstream.bodies == []
    fake_upstream.script(reply=UNSAFE_REPLY, stream_chunk_chars=9)
    response = client.post(
        "/playground/chat",
        {"persona_id": persona.pk, "message": SAFE_QUESTION},
        content_type="application/json",
    )
    events = sse_events(streamed_body(response))
    assert _text_of(events) == SAFE_START
    assert _finish_reasons(events) == {0: "content_filter"}
    conversation = Conversation.objects.get(user=funded)
    assert ModerationVerdict.objects.get(endpoint="chat_output").conversation_id == conversation.pk


# --- The stream guard's windows ---


def _chunk(text: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}


def test_the_stream_guard_holds_each_fragment_until_its_window_is_checked(user: User) -> None:
    from asgiref.sync import async_to_sync

    from chat.guard import ChatGuard, StreamGuard

    guard = StreamGuard(ChatGuard(user=user, api_key=None, input=False, output=True), choices=1)
    feed = async_to_sync(guard.feed)
    # Nothing is sent before the window holding it has been read...
    assert feed(0, "Lists in Python ", _chunk("Lists in Python ")) == []
    # ... a sentence end closes the window (24 characters or more): both fragments, in order.
    released = feed(0, "keep their order. ", _chunk("keep their order. "))
    assert released == [_chunk("Lists in Python "), _chunk("keep their order. ")]
    # A chunk without text waits behind held text, and goes out with it.
    assert feed(0, "Short", _chunk("Short")) == []
    assert feed(0, None, {"tool": 1}) == []
    assert async_to_sync(guard.finish)() == [_chunk("Short"), {"tool": 1}]
    assert guard.text(0) == "Lists in Python keep their order. Short"
    assert guard.blocked == frozenset()
    # A window too long for a sentence end is read at 200 characters.
    long_guard = StreamGuard(
        ChatGuard(user=user, api_key=None, input=False, output=True), choices=1
    )
    pieces = [SPLIT_FIRST[start : start + 5] for start in range(0, 200, 5)]
    sent = [async_to_sync(long_guard.feed)(0, p, _chunk(p)) for p in pieces]
    assert [len(chunks) for chunks in sent] == [0] * 39 + [40]  # the 40th fragment reaches 200
