"""History list: paging past the end, persona and model per conversation, mode labels, and
deleting a conversation only after a confirmation page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from conversations.models import Conversation
from tests.chat.helpers import make_persona
from tests.conversations.helpers import make_conversation

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _many(user: User, count: int) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(count):
        make_conversation(user, title=f"Chat number {i:02d}", updated_at=start + timedelta(hours=i))


def test_a_page_past_the_end_goes_to_the_last_page(alice: Client, user: User) -> None:
    _many(user, 31)
    response = alice.get(reverse("conversations:list"), {"page": "999"})
    assert response.status_code == 302
    assert response["Location"] == "/conversations/?mode=all&page=2"
    page = alice.get(response["Location"]).content.decode()
    assert "31 conversations" in page
    assert "Page 2 of 2" in page
    assert "Chat number 00" in page and "Chat number 10" in page
    assert "No conversations yet" not in page


def test_past_the_end_keeps_the_mode_filter(alice: Client, user: User) -> None:
    make_conversation(user, mode="chat", title="Playground chat")
    response = alice.get(reverse("conversations:list"), {"mode": "chat", "page": "5"})
    assert response["Location"] == "/conversations/?mode=chat&page=1"


def test_no_conversations_and_a_high_page_shows_the_empty_first_page(alice: Client) -> None:
    response = alice.get(reverse("conversations:list"), {"page": "7"}, follow=True)
    assert response.redirect_chain == [("/conversations/?mode=all&page=1", 302)]
    page = response.content.decode()
    assert "No conversations yet" in page and "Page 7" not in page


def test_the_list_shows_persona_and_model_of_each_conversation(
    alice: Client, user: User, other_user: User
) -> None:
    persona = make_persona(user, name="Grumpy <b>Cat</b>")
    Conversation.objects.create(
        user=user, mode="personal", persona=persona, model_id="fake-gpt", title="With persona"
    )
    make_conversation(user, mode="api", title="Plain API", model="nova-local")
    theirs = make_persona(other_user, name="Someone Else's")
    Conversation.objects.create(
        user=other_user, mode="personal", persona=theirs, model_id="x-model", title="Not mine"
    )
    page = alice.get(reverse("conversations:list")).content.decode()
    assert "Persona: <strong>Grumpy &lt;b&gt;Cat&lt;/b&gt;</strong>" in page
    assert "Model: <code>fake-gpt</code>" in page
    assert "Model: <code>nova-local</code>" in page
    assert "Not mine" not in page and "Someone Else" not in page and "x-model" not in page


def test_the_list_reads_personas_in_the_page_query(
    alice: Client, user: User, django_assert_num_queries: Any
) -> None:
    for i in range(6):
        persona = make_persona(user, name=f"Persona {i}")
        Conversation.objects.create(user=user, mode="personal", persona=persona, title=f"P{i}")
    alice.get(reverse("conversations:list"))  # the session is read once, warm
    # session, user, the count, the page's rows with their latest message and persona name
    with django_assert_num_queries(4):
        page = alice.get(reverse("conversations:list")).content.decode()
    assert all(f"Persona: <strong>Persona {i}</strong>" in page for i in range(6))


def test_the_admin_and_the_list_share_the_modes_labels() -> None:
    assert Conversation.Mode.AGENTS.label == "Playground · shared persona"
    assert dict(Conversation.Mode.choices)["api_agents"] == "API · persona"


def test_a_deleted_persona_is_named_as_such(alice: Client, user: User) -> None:
    persona = make_persona(user, name="Gone soon")
    Conversation.objects.create(user=user, mode="personal", persona=persona, title="Orphan")
    persona.delete()
    page = alice.get(reverse("conversations:list")).content.decode()
    assert "Orphan" in page
    assert "Persona: <strong>a deleted persona</strong>" in page


@pytest.mark.parametrize(
    ("mode", "label"),
    [
        ("chat", "Playground · model"),
        ("personal", "Playground · your persona"),
        ("agents", "Playground · shared persona"),
        ("api", "API · model"),
        ("api_agents", "API · persona"),
    ],
)
def test_modes_have_clear_labels_and_keep_their_values(
    alice: Client, user: User, mode: str, label: str
) -> None:
    make_conversation(user, mode=mode, title="Labelled")
    page = alice.get(reverse("conversations:list")).content.decode()
    assert f'<span class="badge mode-{mode}">{label}</span>' in page
    assert f'href="?mode={mode}" class="mode-tab">{label}</a>' in page
    assert "Web agent" not in page and "Personal AI" not in page
    filtered = alice.get(reverse("conversations:list"), {"mode": mode}).content.decode()
    assert "Labelled" in filtered


def test_delete_from_the_conversation_page_asks_first(alice: Client, user: User) -> None:
    conversation = make_conversation(user, title="Keep me <i>safe</i>", messages=[("user", "hi")])
    detail = alice.get(reverse("conversations:detail", args=[conversation.pk])).content.decode()
    confirm_url = reverse("conversations:delete_confirm", args=[conversation.pk])
    assert f'href="{confirm_url}"' in detail
    # The conversation page itself holds no form that deletes.
    assert f'action="{reverse("conversations:delete", args=[conversation.pk])}"' not in detail

    response = alice.get(confirm_url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Delete “Keep me &lt;i&gt;safe&lt;/i&gt;”?" in page
    assert "1 message," in page
    assert (
        f'<form method="post" action="{reverse("conversations:delete", args=[conversation.pk])}"'
        in page
    )
    assert "csrfmiddlewaretoken" in page
    assert Conversation.objects.filter(pk=conversation.pk).exists()  # asking deletes nothing


def test_the_confirmation_posts_with_csrf_and_deletes(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    conversation = make_conversation(user)
    confirm = client.get(reverse("conversations:delete_confirm", args=[conversation.pk]))
    url = reverse("conversations:delete", args=[conversation.pk])
    assert client.post(url).status_code == 403
    assert Conversation.objects.filter(pk=conversation.pk).exists()
    token = str(confirm.context["csrf_token"])
    response = client.post(url, {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert not Conversation.objects.filter(pk=conversation.pk).exists()


def test_another_users_confirmation_page_is_404(alice: Client, other_user: User) -> None:
    theirs = make_conversation(other_user, title="Their secret title")
    response = alice.get(reverse("conversations:delete_confirm", args=[theirs.pk]))
    assert response.status_code == 404
    assert "Their secret title" not in response.content.decode()
    assert alice.post(reverse("conversations:delete_confirm", args=[theirs.pk])).status_code == 405


def test_the_conversation_page_uses_the_same_mode_label(alice: Client, user: User) -> None:
    conversation = make_conversation(user, mode="agents", title="Labelled")
    page = alice.get(reverse("conversations:detail", args=[conversation.pk])).content.decode()
    assert "<dd>Playground · shared persona <code>agents</code></dd>" in page
    assert "Web agent" not in page
