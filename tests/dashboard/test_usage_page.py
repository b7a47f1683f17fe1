"""The usage page: its chart's axes and values, the date range (the usage API's selector and
checks), money in one format, and the credits hint."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from billing import windows
from billing.services import charge_usage, top_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _charge(user: User, cost: str, *, days_ago: int = 0) -> None:
    now = timezone.now()
    with windows.clock.use(lambda: now - timedelta(days=days_ago)):
        charge_usage(
            user=user,
            api_key=None,
            model_id="nova-local",
            prompt_tokens=10,
            completion_tokens=5,
            cost=Decimal(cost),
            persona=None,
            conversation=None,
        )


def test_the_chart_has_a_spend_axis_with_values_and_day_labels(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    _charge(user, "0.75")
    _charge(user, "0.30", days_ago=2)
    response = alice.get(reverse("billing:usage"))
    page = response.content.decode()
    ticks = [tick.label for tick in response.context["ticks"]]
    assert ticks == ["$0", "$0.50", "$1"]  # a round top at or above the $0.75 day
    for label in ticks:
        assert f">{label}</text>" in page
    labels = [bar.label for bar in response.context["bars"] if bar.label]
    assert 3 <= len(labels) <= 5  # few enough for a phone
    assert response.context["bars"][-1].label  # today is labelled
    assert page.count('class="label"') == len(labels)
    # The values, in a table too: the exact amount on hover.
    assert '<span class="money" title="0.75000000 USD">$0.75</span>' in page


def test_tiny_spend_gets_an_axis_in_fractions_of_a_cent(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("1"), note="t")
    _charge(user, "0.00004600")
    ticks = [tick.label for tick in alice.get(reverse("billing:usage")).context["ticks"]]
    assert ticks == ["$0", "$0.000025", "$0.00005"]


@pytest.mark.parametrize("days", [7, 30, 90])
def test_presets_choose_the_days(alice: Client, user: User, days: int) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    _charge(user, "1", days_ago=6)
    _charge(user, "2", days_ago=29)
    _charge(user, "4", days_ago=89)
    _charge(user, "8", days_ago=200)
    response = alice.get(reverse("billing:usage"), {"days": str(days)})
    assert response.status_code == 200
    assert len(response.context["bars"]) == days
    expected = {7: "1", 30: "3", 90: "7"}[days]
    assert response.context["range_spend"] == Decimal(expected)
    page = response.content.decode()
    assert f'href="?days={days}#spend" aria-current="page"' in page


def test_from_and_to_pick_any_range_the_usage_api_accepts(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    _charge(user, "1.25", days_ago=10)
    _charge(user, "2", days_ago=3)
    today = windows.today()
    start, end = today - timedelta(days=12), today - timedelta(days=5)
    response = alice.get(
        reverse("billing:usage"), {"from": start.isoformat(), "to": end.isoformat()}
    )
    assert len(response.context["bars"]) == 8
    assert response.context["range_spend"] == Decimal("1.25")
    assert response.context["bars"][-1].day == end.isoformat()
    page = response.content.decode()
    assert f'value="{start.isoformat()}"' in page and f'value="{end.isoformat()}"' in page
    assert f"from={start.isoformat()}&amp;to={end.isoformat()}&amp;group_by=day,model" in page


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"from": "2026-02-10", "to": "2026-02-01"}, "from: Must not be after `to`."),
        ({"from": "2020-01-01", "to": "2026-01-01"}, "at most 366 days"),
        ({"from": "yesterday"}, "from: "),
        ({"days": "1000"}, "days: choose 7, 30, 90."),
    ],
)
def test_a_refused_range_says_why_and_shows_30_days(
    alice: Client, params: dict[str, str], reason: str
) -> None:
    response = alice.get(reverse("billing:usage"), params)
    assert response.status_code == 200
    assert len(response.context["bars"]) == 30
    page = response.content.decode()
    assert 'role="alert"' in page
    assert reason in page


def test_the_range_shows_only_the_users_own_spend(
    alice: Client, user: User, other_user: User
) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    top_up(user=other_user, amount=Decimal("10"), note="t")
    _charge(user, "0.50")
    _charge(other_user, "3.00")
    response = alice.get(reverse("billing:usage"), {"days": "7"})
    assert response.context["range_spend"] == Decimal("0.5")
    assert "3.00000000" not in response.content.decode()


def test_money_is_in_cents_with_the_exact_value_on_hover(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("10"), note="t")
    _charge(user, "0.0012932")
    page = alice.get(reverse("billing:usage")).content.decode()
    assert '<span class="money" title="9.99870680 USD">$10.00</span>' in page  # balance
    assert '<span class="money" title="-0.00129320 USD">\u2212&lt;$0.01</span>' in page  # charge
    # No amount is printed with more than two decimals outside a title (the spend axis of a
    # tiny spend counts in fractions of a cent, on purpose).
    text = re.sub(r'title="[^"]*"|<text class="tick"[^>]*>[^<]*</text>', "", page)
    assert not re.search(r"\$-?\d+\.\d{3,}", text)
    assert "9.9987068" not in text.replace("9.99870680 USD", "")


def test_a_low_balance_shows_how_to_get_credit(alice: Client, user: User, settings: object) -> None:
    settings.CREDITS_CONTACT = "Write to <billing@example.com> for credit."  # type: ignore[attr-defined]
    page = alice.get(reverse("billing:usage")).content.decode()
    assert "Write to &lt;billing@example.com&gt; for credit." in page
    assert "chats are refused (402)" in page


def test_a_healthy_balance_shows_no_credit_hint(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("50"), note="t")
    page = alice.get(reverse("billing:usage")).content.decode()
    assert 'class="credits-hint"' not in page
