"""Dashboard usage page and CSV export."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiKey, User
from billing import windows
from billing.models import UsageRecord
from billing.selectors import daily_spend, spend_by_key, spend_by_model
from billing.services import charge_usage, top_up
from conversations.models import Conversation
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _charge(user: User, *, key: ApiKey | None, model: str, cost: str, **extra: Any) -> UsageRecord:
    charge_usage(
        user=user,
        api_key=key,
        model_id=model,
        prompt_tokens=10,
        completion_tokens=5,
        cost=Decimal(cost),
        persona=None,
        conversation=extra.get("conversation"),
    )
    return UsageRecord.objects.filter(user=user).order_by("-id").first()  # type: ignore[return-value]


def test_usage_needs_login(client: Client) -> None:
    for url in (reverse("billing:usage"), reverse("billing:usage_export")):
        response = client.get(url)
        assert response.status_code == 302
        assert "/login/" in response["Location"]


def test_usage_page_shows_balance_chart_ledger_and_breakdowns(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("10"), note="first top-up")
    key = ApiKeyFactory.create(user=user, name="prod key")
    _charge(user, key=key, model="nova-local", cost="0.25000000")
    _charge(user, key=key, model="fake-gpt", cost="1.50000000")
    response = alice.get(reverse("billing:usage"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "$8.25" in page  # balance
    assert "first top-up" in page  # ledger
    assert "Charge" in page and "-1.50" in page
    assert '<svg class="spend-chart"' in page
    assert page.count('<rect class="bar"') == 30
    assert "nova-local" in page and "fake-gpt" in page
    assert "prod key" in page
    assert "style=" not in page and "<script" not in page
    assert response.context["range_spend"] == Decimal("1.75000000")  # the default 30 days


def test_chart_gives_the_most_expensive_day_full_height(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    _charge(user, key=None, model="nova-local", cost="2")
    # Charged at earlier times through billing's clock, as the records and their daily sums
    # are only ever written together.
    now = timezone.now()
    with windows.clock.use(lambda: now - timedelta(days=3)):
        _charge(user, key=None, model="nova-local", cost="1")
    with windows.clock.use(lambda: now - timedelta(days=40)):
        _charge(user, key=None, model="nova-local", cost="5")
    bars = alice.get(reverse("billing:usage")).context["bars"]
    assert len(bars) == 30
    assert bars[-1].cost == Decimal("2") and bars[-1].height == 150
    assert bars[-4].cost == Decimal("1") and bars[-4].height == 75
    assert sum(1 for bar in bars if bar.height > 0) == 2


def test_daily_spend_fills_days_without_use() -> None:
    user = User.objects.create(username="empty")
    days = daily_spend(user)
    assert len(days) == 30
    assert days[-1].day == timezone.localdate()
    assert all(day.cost == 0 and day.requests == 0 for day in days)


def test_breakdowns_aggregate_in_one_query_each(
    user: User, other_user: User, django_assert_num_queries: Any
) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    top_up(user=other_user, amount=Decimal("10"), note="t")
    keys = [ApiKeyFactory.create(user=user, name=f"key {i}") for i in range(3)]
    for key in keys:
        _charge(user, key=key, model="nova-local", cost="0.1")
        _charge(user, key=key, model="fake-gpt", cost="0.2")
    _charge(other_user, key=None, model="other-model", cost="9")
    with django_assert_num_queries(1):
        by_model = spend_by_model(user)
    with django_assert_num_queries(1):
        by_key = spend_by_key(user)
    assert [(row["label"], row["requests"], row["cost"]) for row in by_model] == [
        ("fake-gpt", 3, Decimal("0.60000000")),
        ("nova-local", 3, Decimal("0.30000000")),
    ]
    assert len(by_key) == 3
    assert all(row["cost"] == Decimal("0.30000000") for row in by_key)
    assert {row["label"].split("… ")[1] for row in by_key} == {"key 0", "key 1", "key 2"}


def test_usage_page_queries_do_not_grow_with_rows(
    alice: Client, user: User, django_assert_max_num_queries: Any
) -> None:
    top_up(user=user, amount=Decimal("100"), note="t")
    for i in range(25):
        _charge(user, key=ApiKeyFactory.create(user=user), model=f"model-{i % 5}", cost="0.1")
    with django_assert_max_num_queries(12):
        assert alice.get(reverse("billing:usage")).status_code == 200


def test_ledger_is_paged(alice: Client, user: User) -> None:
    for i in range(25):
        top_up(user=user, amount=Decimal("1"), note=f"top-up {i:02d}")
    first = alice.get(reverse("billing:usage")).content.decode()
    assert "top-up 24" in first and "top-up 05" in first and "top-up 04" not in first
    second = alice.get(reverse("billing:usage"), {"page": "2"}).content.decode()
    assert "top-up 04" in second and "top-up 05" not in second


def test_csv_export_holds_exactly_the_users_usage_rows(
    alice: Client, user: User, other_user: User
) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    top_up(user=other_user, amount=Decimal("10"), note="t")
    key = ApiKeyFactory.create(user=user, name="=HYPERLINK(evil)")
    conversation = Conversation.objects.create(user=user, mode="api", title="x")
    mine = [
        _charge(user, key=key, model="nova-local", cost="0.00001234", conversation=conversation),
        _charge(user, key=None, model="fake-gpt", cost="0.5"),
    ]
    _charge(other_user, key=None, model="other-model", cost="1")
    response = alice.get(reverse("billing:usage_export"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "created_at",
        "model",
        "api_key_prefix",
        "api_key_name",
        "persona_id",
        "persona",
        "conversation_id",
        "prompt_tokens",
        "completion_tokens",
        "total_tokens",
        "cost_usd",
    ]
    body = rows[1:]
    assert len(body) == len(mine) == 2
    assert [row[1] for row in body] == ["nova-local", "fake-gpt"]
    assert body[0][2] == key.prefix
    assert body[0][6] == f"conv_{conversation.pk}"
    assert body[0][7:] == ["10", "5", "15", "0.00001234"]
    assert body[1][2:4] == ["", ""]
    assert body[1][10] == "0.50000000"
    # A key name that looks like a formula is defused for spreadsheets.
    assert body[0][3] == "'=HYPERLINK(evil)"
    assert "other-model" not in response.content.decode()
    assert all(row[0].endswith("Z") for row in body)


def test_csv_export_of_a_user_without_usage_is_just_the_header(alice: Client) -> None:
    rows = list(
        csv.reader(io.StringIO(alice.get(reverse("billing:usage_export")).content.decode()))
    )
    assert len(rows) == 1


def test_grouped_csv_export_writes_the_usage_apis_rows_and_total(
    alice: Client, user: User, other_user: User
) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    top_up(user=other_user, amount=Decimal("10"), note="t")
    key = ApiKeyFactory.create(user=user, name="laptop")
    gone = ApiKeyFactory.create(user=user, name="gone")
    _charge(user, key=key, model="nova-local", cost="0.25")
    _charge(user, key=key, model="nova-local", cost="0.25")
    _charge(user, key=gone, model="nova-local", cost="0.125")
    gone.delete()
    _charge(user, key=None, model="fake-gpt", cost="1")
    _charge(other_user, key=None, model="other-model", cost="7")
    response = alice.get(reverse("billing:usage_export"), {"group_by": "key,model"})
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "key",
        "key_source",
        "model",
        "requests",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
    ]
    # The same rows, in the same order, as GET /v1/usage with these parameters (keyless rows
    # last, by model).
    assert rows[1:-1] == [
        [key.prefix, "key", "nova-local", "2", "20", "10", "0.50000000"],
        ["", "playground", "fake-gpt", "1", "10", "5", "1.00000000"],
        ["", "deleted_key", "nova-local", "1", "10", "5", "0.12500000"],
    ]
    assert rows[-1] == ["total", "", "", "4", "40", "20", "1.62500000"]
