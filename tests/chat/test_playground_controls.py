"""The playground's controls and replies: Markdown through History's sanitiser, temperature,
max tokens and model, tokens and cost per reply, Stop (a stream left early is charged for what
was sent), the persona lock, continuing API conversations, and the 402 at zero balance."""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from billing.models import Hold, UsageRecord
from billing.selectors import get_balance
from conversations.markdown import render_markdown
from conversations.models import Conversation, Message
from core.text import count_tokens
from tests.chat.helpers import make_persona, sse_events, streamed_body
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

MARKDOWN_REPLY = (
    "**Bold** and `code`\n\n- one\n- two\n\n[bad](javascript:alert(1)) "
    '<script>alert(2)</script> <img src=x onerror="alert(3)">'
)


@pytest.fixture
def web(funded_user: User) -> Client:
    client = Client()
    client.force_login(funded_user)
    return client


def send(client: Client, **payload: Any) -> Any:
    return client.post("/playground/chat", json.dumps(payload), content_type="application/json")


def status_of(client: Client, response: Any) -> dict[str, Any]:
    """The summary of the reply ``response`` streamed, once its stream is over."""
    reply_id = response["X-Playground-Reply"]
    body: dict[str, Any] = client.get(f"/playground/status?reply={reply_id}").json()
    return body


def page(client: Client, query: str = "") -> str:
    response = client.get(f"/playground/{query}")
    assert response.status_code == 200
    text: str = response.content.decode()
    return text


# --- Markdown ---


def test_reply_summary_carries_the_markdown_sanitised_as_history_does(
    web: Client, funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply=MARKDOWN_REPLY, usage=(9, 7))
    response = send(web, model="fake-gpt", message="Format something")
    events = sse_events(streamed_body(response))
    status = status_of(web, response)
    assert status["pending"] is False
    assert status["conversation_id"] == events[-2]["conversation_id"]
    html = status["reply"]["html"]
    assert html == str(render_markdown(MARKDOWN_REPLY))
    assert "<strong>Bold</strong>" in html and "<code>code</code>" in html
    assert "<li>one</li>" in html
    # Raw HTML and the unsafe link stay text: escaped, never markup.
    assert "<script" not in html and "<img" not in html and "<a " not in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert "[bad](javascript:alert(1))" in html


def test_saved_replies_are_markdown_and_user_turns_stay_plain_text(
    web: Client, funded_user: User
) -> None:
    conversation = Conversation.objects.create(user=funded_user, mode="chat", title="t")
    Message.objects.create(conversation=conversation, role="user", content="**not bold**")
    Message.objects.create(conversation=conversation, role="assistant", content=MARKDOWN_REPLY)
    html = page(web, f"?conversation={conversation.pk}")
    assert '<div class="text markdown"><p><strong>Bold</strong>' in html
    assert '<div class="text">**not bold**</div>' in html
    assert "<script>alert(2)</script>" not in html and 'href="javascript' not in html
    assert 'href="/static/css/playground.css"' in html


# --- Temperature, max tokens, model ---


def test_temperature_max_tokens_and_model_reach_the_upstream(
    web: Client, funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    persona = make_persona(funded_user, model="nova-local")
    response = send(
        web, persona_id=persona.pk, model="fake-gpt", message="hi", temperature=0.3, max_tokens=50
    )
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    body = fake_upstream.bodies[-1]
    assert body["temperature"] == 0.3
    assert body["max_tokens"] == 50
    record = UsageRecord.objects.get()
    assert record.model_id == "fake-gpt" and record.persona_id == persona.pk


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("temperature", 2.5, "temperature: must be between 0 and 2."),
        ("temperature", -1, "temperature: must be between 0 and 2."),
        ("temperature", "warm", "temperature"),
        ("max_tokens", 0, "max_tokens"),
        ("max_tokens", 1.5, "max_tokens: must be an integer."),
        ("max_tokens", "many", "max_tokens: must be an integer."),
        ("model", "no-such-model", "no-such-model"),
    ],
)
def test_bad_controls_are_a_400_naming_the_field_with_the_apis_message(
    web: Client, api_client: APIClient, field: str, value: Any, message: str
) -> None:
    response = send(web, persona_id=1, message="hi", **{field: value})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == field
    assert message in error["message"]
    # The same words as the API's answer to the same value.
    api = api_client.post(
        "/v1/chat/completions",
        {"persona_id": 1, "messages": [{"role": "user", "content": "hi"}], field: value},
        format="json",
    )
    assert api.status_code == 400
    assert api.json()["error"]["message"] == error["message"]
    assert not Hold.objects.exists() and not UsageRecord.objects.exists()


def test_page_offers_the_controls(web: Client) -> None:
    html = page(web)
    assert '<select id="pg-model" name="model"' in html
    assert '<input id="pg-temperature" name="temperature"' in html
    assert '<input id="pg-max-tokens" name="max_tokens"' in html
    assert '<button type="button" id="pg-stop" class="danger" hidden>Stop</button>' in html
    assert "Enter sends; Shift+Enter starts a new line." in html


# --- Tokens and cost per reply ---


def test_reply_summary_gives_its_tokens_and_cost(
    web: Client, funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply="Short answer.", usage=(12, 6))
    response = send(web, model="fake-gpt", message="hi")
    events = sse_events(streamed_body(response))
    record = UsageRecord.objects.get()
    status = status_of(web, response)
    assert status["reply"] == {
        "prompt_tokens": 12,
        "completion_tokens": 6,
        "cost": f"{record.cost:f}",
        "html": "<p>Short answer.</p>\n",
    }
    assert status["last_cost"] == f"{record.cost:f}"
    assert Decimal(status["balance"]) == get_balance(funded_user) == Decimal(10) - record.cost
    assert events[-2]["usage"]["cost"] == f"{record.cost:f}"


def test_overlapping_replies_in_one_conversation_each_get_their_own_summary(
    web: Client, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply="First reply.", usage=(5, 2))
    first = send(web, model="fake-gpt", message="hi")
    conversation_id = sse_events(streamed_body(first))[-2]["conversation_id"]
    # Two replies in the same conversation, both begun before either ends; the later one
    # (b) finishes first, so its message and charge are the newest when (a) is settled.
    a = send(web, model="fake-gpt", message="a?", conversation_id=conversation_id)
    b = send(web, model="fake-gpt", message="b?", conversation_id=conversation_id)
    fake_upstream.enqueue(reply="Reply to b.", usage=(20, 3))
    fake_upstream.enqueue(reply="Reply to a.", usage=(30, 4))
    streamed_body(b)
    streamed_body(a)
    summary_a, summary_b = status_of(web, a)["reply"], status_of(web, b)["reply"]
    assert (summary_a["html"], summary_a["prompt_tokens"], summary_a["completion_tokens"]) == (
        "<p>Reply to a.</p>\n",
        30,
        4,
    )
    assert (summary_b["html"], summary_b["prompt_tokens"], summary_b["completion_tokens"]) == (
        "<p>Reply to b.</p>\n",
        20,
        3,
    )
    costs = {r.completion_tokens: f"{r.cost:f}" for r in UsageRecord.objects.all()}
    assert (summary_a["cost"], summary_b["cost"]) == (costs[4], costs[3])


def test_a_reply_whose_conversation_was_deleted_has_no_summary(
    web: Client, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    response = send(web, model="fake-gpt", message="hi")
    conversation_id = sse_events(streamed_body(response))[-2]["conversation_id"]
    Conversation.objects.filter(pk=conversation_id).delete()
    status = status_of(web, response)
    assert status["pending"] is False and status["reply"] is None


def test_reply_status_is_pending_until_the_stream_is_over_and_private(
    web: Client, other_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    response = send(web, model="fake-gpt", message="hi")
    reply_id = response["X-Playground-Reply"]
    assert reply_id.startswith("chatcmpl-")
    assert web.get(f"/playground/status?reply={reply_id}").json()["pending"] is True
    streamed_body(response)
    assert web.get(f"/playground/status?reply={reply_id}").json()["pending"] is False
    # Another user cannot learn where it went.
    other = Client()
    other.force_login(other_user)
    assert other.get(f"/playground/status?reply={reply_id}").json()["pending"] is True
    bad = web.get("/playground/status?reply=../../etc")
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "reply"


# --- Stop ---


def test_a_stopped_stream_is_charged_for_what_was_sent_and_its_hold_settled(
    web: Client, funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    full_reply = "word " * 200
    # Slow enough that the next chunk is still on its way when the page stops the reply.
    fake_upstream.script(reply=full_reply, stream_chunk_chars=5, chunk_delay=0.5)
    response = send(web, model="fake-gpt", message="Tell me a long story")
    assert response.status_code == 200
    assert Hold.objects.count() == 1

    async def read_then_stop() -> list[bytes]:
        body = response.streaming_content
        received = [await anext(body) for _ in range(4)]  # the role chunk and three words
        # The page aborts its fetch: Django's handler cancels the response's task while it
        # waits for the next chunk.
        waiting = asyncio.ensure_future(anext(body))
        await asyncio.sleep(0)
        waiting.cancel()
        with suppress(asyncio.CancelledError):
            await waiting
        return received

    received = async_to_sync(read_then_stop)()
    sent = "".join(
        choice["delta"].get("content", "")
        for event in sse_events(b"".join(received))
        for choice in event["choices"]
    )
    assert sent == "word word word "
    record = UsageRecord.objects.get()
    assert record.completion_tokens == count_tokens(sent)
    assert record.completion_tokens < count_tokens(full_reply)
    assert not Hold.objects.exists()
    assert get_balance(funded_user) == Decimal(10) - record.cost
    reply = Message.objects.get(role="assistant")
    assert reply.content == sent
    # The page then learns where the stopped reply went and what it cost.
    status = status_of(web, response)
    assert status["conversation_id"] == reply.conversation_id
    assert status["reply"]["completion_tokens"] == record.completion_tokens
    assert status["reply"]["cost"] == f"{record.cost:f}"
    assert status["reply"]["html"] == "<p>word word word</p>\n"


# --- The persona lock and the persona page's link ---


def test_a_persona_conversation_locks_its_persona_and_says_why(
    web: Client, funded_user: User
) -> None:
    persona = make_persona(funded_user, name="Baker", model="nova-local")
    conversation = Conversation.objects.create(
        user=funded_user, mode="personal", persona=persona, model_id="nova-local", title="t"
    )
    html = page(web, f"?conversation={conversation.pk}")
    assert '<select id="pg-target" name="target" aria-describedby="pg-lock-note" disabled>' in html
    assert f'<option value="persona:{persona.pk}" selected>Baker (mine)</option>' in html
    assert "The persona is locked to this conversation: it is with Baker" in html
    assert 'id="pg-lock-note">The persona is locked' in html  # shown, not hidden


def test_a_new_conversation_has_no_lock_note(web: Client) -> None:
    html = page(web)
    assert '<p class="small muted pg-lock-note" id="pg-lock-note" hidden></p>' in html
    assert 'aria-describedby="pg-lock-note">' in html  # the picker is enabled


def test_persona_page_links_to_the_playground_with_it_selected(
    web: Client, funded_user: User, other_user: User
) -> None:
    mine = make_persona(funded_user, name="Baker", model="nova-local")
    shared = make_persona(other_user, name="Shared", model="nova-local", public=True)
    hidden = make_persona(other_user, name="Hidden", model="nova-local")
    for persona in (mine, shared):
        detail = web.get(f"/personas/{persona.pk}/").content.decode()
        link = f'href="/playground/?persona={persona.pk}">Chat with this persona</a>'
        assert link in detail
        assert f'<option value="persona:{persona.pk}" selected>' in page(
            web, f"?persona={persona.pk}"
        )
    # A persona the user cannot use is not preselected (nor listed).
    html = page(web, f"?persona={hidden.pk}")
    assert "selected>" not in html.split('id="pg-model"')[0]
    assert page(web, "?persona=abc").count(" selected>") == 0


# --- Continuing API conversations ---


def test_an_api_conversation_continues_as_a_model_chat_and_keeps_its_mode(
    web: Client, funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    conversation = Conversation.objects.create(
        user=funded_user, mode="api", model_id="fake-gpt", title="From the API"
    )
    Message.objects.create(conversation=conversation, role="user", content="API question")
    Message.objects.create(conversation=conversation, role="assistant", content="API answer")
    html = page(web, f"?conversation={conversation.pk}")
    assert "API question" in html and "API answer" in html
    assert '<option value="model:fake-gpt" selected>fake-gpt</option>' in html
    assert '<option value="persona:1" disabled>' in html
    assert "This conversation has no persona, so none can be chosen for it" in html
    events = sse_events(
        streamed_body(
            send(web, model="fake-gpt", message="Web follow-up", conversation_id=conversation.pk)
        )
    )
    assert events[-2]["conversation_id"] == conversation.pk
    conversation.refresh_from_db()
    assert conversation.mode == "api"
    streamed = "".join(
        choice["delta"].get("content", "")
        for event in events[:-1]
        for choice in event.get("choices", [])
    )
    assert list(conversation.messages.order_by("id").values_list("role", "content")) == [
        ("user", "API question"),
        ("assistant", "API answer"),
        ("user", "Web follow-up"),
        ("assistant", streamed),
    ]
    # The upstream saw the API turns as history.
    assert [m["content"] for m in fake_upstream.bodies[-1]["messages"]] == [
        "API question",
        "API answer",
        "Web follow-up",
    ]


def test_an_api_agents_conversation_continues_with_its_persona(
    web: Client, funded_user: User
) -> None:
    conversation = Conversation.objects.create(
        user=funded_user, mode="api_agents", persona_id=1, model_id="nova-local", title="t"
    )
    Message.objects.create(conversation=conversation, role="user", content="Earlier")
    Message.objects.create(conversation=conversation, role="assistant", content="Reply")
    html = page(web, f"?conversation={conversation.pk}")
    assert '<option value="persona:1" selected>' in html
    assert "The persona is locked to this conversation" in html
    events = sse_events(
        streamed_body(send(web, persona_id=1, message="More", conversation_id=conversation.pk))
    )
    assert events[-2]["conversation_id"] == conversation.pk
    conversation.refresh_from_db()
    assert conversation.mode == "api_agents"
    assert conversation.messages.filter(role="user").count() == 2
    status = web.get(f"/playground/status?conversation={conversation.pk}").json()
    assert Decimal(status["last_cost"]) > 0


def test_a_conversation_whose_persona_is_gone_says_it_cannot_continue(
    web: Client, funded_user: User
) -> None:
    conversation = Conversation.objects.create(
        user=funded_user, mode="api_agents", persona=None, model_id="nova-local", title="t"
    )
    Message.objects.create(conversation=conversation, role="user", content="Still readable")
    html = page(web, f"?conversation={conversation.pk}")
    assert "Still readable" in html
    assert "This conversation cannot be continued: its persona has been deleted" in html
    assert '<fieldset class="pg-fieldset" disabled>' in html


def test_someone_elses_api_conversation_is_still_404(web: Client, other_user: User) -> None:
    theirs = Conversation.objects.create(user=other_user, mode="api", title="theirs")
    assert web.get(f"/playground/?conversation={theirs.pk}").status_code == 404
    assert web.get(f"/playground/status?conversation={theirs.pk}").status_code == 404
    assert web.get("/playground/?conversation=99999999999999999999").status_code == 404


# --- No credit ---


def test_zero_balance_gives_the_apis_402_and_the_page_says_how_to_get_credit(
    user: User, api_client: APIClient, settings: Any
) -> None:
    settings.CREDITS_CONTACT = "Write to credits@example.test for more."
    client = Client()
    client.force_login(user)
    response = send(client, persona_id=1, message="hi")
    assert response.status_code == 402
    error = response.json()["error"]
    assert error["type"] == "insufficient_quota"
    api = api_client.post(
        "/v1/chat/completions",
        {"persona_id": 1, "messages": [{"role": "user", "content": "hi"}]},
        format="json",
    )
    assert api.status_code == 402 and api.json()["error"]["message"] == error["message"]
    html = page(client)
    assert 'data-credits-contact="Write to credits@example.test for more."' in html
    assert (
        '<p class="pg-notice" id="pg-credit-note" role="status">Your balance is used up, so the '
        "playground cannot answer. Write to credits@example.test for more.</p>"
    ) in html


def test_a_funded_page_hides_the_credit_note(web: Client) -> None:
    assert 'id="pg-credit-note" role="status" hidden>' in page(web)
