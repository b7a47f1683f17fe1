"""The dashboard playground: session auth, CSRF, web modes, streaming, continuation."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from billing.selectors import get_balance
from conversations.models import Conversation, Message
from tests.chat.helpers import make_persona, sse_events, streamed_body

pytestmark = pytest.mark.django_db


@pytest.fixture
def web(funded_user: User) -> Client:
    client = Client()
    client.force_login(funded_user)
    return client


def send(client: Client, **payload: Any) -> Any:
    return client.post("/playground/chat", json.dumps(payload), content_type="application/json")


def test_page_lists_usable_personas_and_models(web: Client, other_user: User) -> None:
    make_persona(other_user, name="Hidden Private", model="nova-local")
    make_persona(other_user, name="Shared Public", model="nova-local", public=True)
    html = web.get("/playground/").content.decode()
    assert "Shared Public" in html and "Hidden Private" not in html
    assert "nova-local" in html
    assert 'src="/static/js/playground.js"' in html


def test_chat_with_builtin_persona_streams_and_saves_as_agents(
    web: Client, funded_user: User
) -> None:
    response = send(web, persona_id=1, message="Hello")
    assert response["Content-Type"].startswith("text/event-stream")
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    conversation = Conversation.objects.get(pk=events[-2]["conversation_id"])
    assert conversation.mode == "agents" and conversation.api_key is None
    assert get_balance(funded_user) < Decimal("10")
    status = web.get(f"/playground/status?conversation={conversation.pk}").json()
    assert Decimal(status["balance"]) == get_balance(funded_user)
    assert Decimal(status["last_cost"]) > 0


def test_own_persona_is_personal_and_plain_model_is_chat(web: Client, funded_user: User) -> None:
    persona = make_persona(funded_user, model="nova-local")
    own = sse_events(streamed_body(send(web, persona_id=persona.pk, message="hi")))
    assert Conversation.objects.get(pk=own[-2]["conversation_id"]).mode == "personal"
    plain = sse_events(streamed_body(send(web, model="nova-local", message="hi")))
    assert Conversation.objects.get(pk=plain[-2]["conversation_id"]).mode == "chat"


def test_conversation_can_be_continued_and_shown(web: Client) -> None:
    first = sse_events(streamed_body(send(web, persona_id=1, message="first question")))
    conversation_id = first[-2]["conversation_id"]
    send_again = send(web, persona_id=1, message="second question", conversation_id=conversation_id)
    streamed_body(send_again)
    roles = list(
        Message.objects.filter(conversation_id=conversation_id).values_list("role", flat=True)
    )
    assert roles == ["system", "user", "assistant", "user", "assistant"]
    page = web.get(f"/playground/?conversation={conversation_id}").content.decode()
    assert "first question" in page and "second question" in page


def test_other_users_conversation_is_404(web: Client, other_user: User) -> None:
    theirs = Conversation.objects.create(user=other_user, mode="chat", title="theirs")
    assert web.get(f"/playground/?conversation={theirs.pk}").status_code == 404
    assert web.get(f"/playground/status?conversation={theirs.pk}").status_code == 404
    response = send(web, model="nova-local", message="x", conversation_id=theirs.pk)
    assert response.status_code == 404


def test_invalid_input_is_a_json_error(web: Client) -> None:
    response = send(web, persona_id=1, message="   ")
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "messages[0].content"


def test_zero_balance_is_402(user: User) -> None:
    client = Client()
    client.force_login(user)
    assert send(client, persona_id=1, message="hi").status_code == 402


def test_requires_login_and_csrf(funded_user: User) -> None:
    anonymous = Client()
    assert anonymous.get("/playground/").status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(funded_user)
    response = send(strict, persona_id=1, message="hi")
    assert response.status_code == 403
    assert not Conversation.objects.exists()


def test_model_reply_is_rendered_as_text_not_html(web: Client, funded_user: User) -> None:
    conversation = Conversation.objects.create(user=funded_user, mode="chat", title="t")
    Message.objects.create(
        conversation=conversation, role="assistant", content="<script>alert(1)</script>"
    )
    page = web.get(f"/playground/?conversation={conversation.pk}").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_deeply_nested_json_is_a_400_not_a_500(web: Client) -> None:
    body = '{"message": ' + "[" * 5000 + "]" * 5000 + "}"
    response = web.post("/playground/chat", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"
