"""Admin: conversations searchable with read-only messages; usage records filterable."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from accounts.models import User
from billing.services import charge_usage, top_up
from tests.conversations.helpers import make_conversation, save_tool_exchange
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client) -> Client:
    admin = UserFactory.create(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    return client


def test_conversation_search_by_user_mode_and_title(
    admin_client: Client, user: User, other_user: User
) -> None:
    make_conversation(user, mode="api_agents", title="Alpha topic")
    make_conversation(other_user, mode="chat", title="Beta topic")
    url = "/admin/conversations/conversation/"
    assert "Alpha topic" in admin_client.get(url, {"q": "alice"}).content.decode()
    assert "Beta topic" not in admin_client.get(url, {"q": "alice"}).content.decode()
    assert "Beta topic" in admin_client.get(url, {"q": "Beta"}).content.decode()
    by_mode = admin_client.get(url, {"q": "api_agents"}).content.decode()
    assert "Alpha topic" in by_mode and "Beta topic" not in by_mode


def test_conversation_change_page_shows_messages_read_only(
    admin_client: Client, user: User
) -> None:
    conversation = make_conversation(user, messages=[("user", "Question?"), ("assistant", "Yes.")])
    page = admin_client.get(f"/admin/conversations/conversation/{conversation.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Question?" in html and "Yes." in html
    assert 'name="messages-0-content"' not in html  # shown, not editable


def test_conversation_change_page_shows_tool_calls_read_only(
    admin_client: Client, user: User
) -> None:
    conversation = save_tool_exchange(user)
    page = admin_client.get(f"/admin/conversations/conversation/{conversation.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Tool call id" in html and "Tool calls" in html
    assert "call_1" in html and "call_2" in html and "get_weather" in html
    assert 'name="messages-0-tool_calls"' not in html
    assert 'name="messages-2-tool_call_id"' not in html


def test_usage_records_filter_by_user_model_and_date(
    admin_client: Client, user: User, other_user: User
) -> None:
    for payer, model in ((user, "nova-local"), (other_user, "fake-gpt")):
        top_up(user=payer, amount=Decimal("1"), note="t")
        charge_usage(
            user=payer,
            api_key=None,
            model_id=model,
            prompt_tokens=1,
            completion_tokens=1,
            cost=Decimal("0.01"),
            persona=None,
            conversation=None,
        )
    url = "/admin/billing/usagerecord/"
    changelist = admin_client.get(url).context["cl"]
    assert [spec.title for spec in changelist.filter_specs] == ["user", "model id", "created at"]
    by_user = admin_client.get(url, {"user__id__exact": user.pk}).context["cl"]
    assert [record.model_id for record in by_user.result_list] == ["nova-local"]
    by_model = admin_client.get(url, {"model_id": "fake-gpt"}).context["cl"]
    assert [record.user_id for record in by_model.result_list] == [other_user.pk]
