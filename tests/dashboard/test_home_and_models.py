"""The home page's balance and credits text, the models page, the lock-out page and the
balance admin."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from billing.models import Balance
from billing.services import top_up
from llm.catalog import get_catalog

pytestmark = pytest.mark.django_db

DEFAULT_CONTACT = "To add credit, ask the operator of this Nova to top up your balance."


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


# --- Home: balance and credits ---


def test_a_zero_balance_on_home_says_who_to_ask_for_credit(alice: Client) -> None:
    page = alice.get(reverse("accounts:home")).content.decode()
    assert '<span class="money" title="0.00000000 USD">$0.00</span>' in page
    assert DEFAULT_CONTACT in page
    assert "Your balance is used up" in page


def test_a_low_balance_on_home_says_so(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("0.40"), note="t")
    page = alice.get(reverse("accounts:home")).content.decode()
    assert "Your balance is low." in page and DEFAULT_CONTACT in page


def test_a_healthy_balance_on_home_shows_no_hint(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("25"), note="t")
    page = alice.get(reverse("accounts:home")).content.decode()
    assert DEFAULT_CONTACT not in page
    assert '<span class="money" title="25.00000000 USD">$25.00</span>' in page


def test_the_credits_text_comes_from_the_setting_escaped(alice: Client, settings: Any) -> None:
    settings.CREDITS_CONTACT = 'Email <a href="x">ops</a> please.'
    page = alice.get(reverse("accounts:home")).content.decode()
    assert "Email &lt;a href=&quot;x&quot;&gt;ops&lt;/a&gt; please." in page


# --- Models page ---


def test_models_page_needs_login(client: Client) -> None:
    response = client.get(reverse("models"))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_models_page_lists_the_catalog_with_snippets(alice: Client, settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["nova.example.com"]
    host = "https://nova.example.com"
    response = alice.get(reverse("models"), HTTP_HOST="nova.example.com", secure=True)
    assert response.status_code == 200
    page = response.content.decode()
    for model in get_catalog():
        assert f"<code>{model.id}</code>" in page
        assert f"{model.context_window} tokens" in page
    first = next(iter(get_catalog()))
    assert f"curl {host}/v1/chat/completions" in page
    assert f"client = OpenAI(base_url=&quot;{host}/v1/&quot;" in page
    assert f"model=&quot;{first.id}&quot;" in page
    assert "$NOVA_API_KEY" in page
    assert 'href="/models/" aria-current="page"' in page
    assert "style=" not in page


def test_models_page_shows_prices_and_capabilities(alice: Client) -> None:
    page = alice.get(reverse("models")).content.decode()
    local = get_catalog().get("nova-local")
    assert local is not None
    assert "$0.10" in page and "$0.20" in page
    assert "<th>Vision</th>" in page and "<th>Reasoning</th>" in page and "<th>Tools</th>" in page


def test_models_page_snippet_for_a_chosen_model_and_unknown_ones(alice: Client) -> None:
    ids = get_catalog().ids()
    chosen = ids[-1]
    page = alice.get(reverse("models"), {"model": chosen}).content.decode()
    assert f"model=&quot;{chosen}&quot;" in page
    hostile = "<script>alert(1)</script>"
    page = alice.get(reverse("models"), {"model": hostile}).content.decode()
    assert "<script>alert" not in page and "alert(1)" not in page
    assert f"model=&quot;{ids[0]}&quot;" in page


def test_snippets_quote_whatever_the_catalog_holds() -> None:
    from chat.models_page import curl_snippet, python_snippet

    curl = curl_snippet("http://h/v1/", 'it\'s "odd"')
    assert '-d \'{"model": "it\'"\'"\'s \\"odd\\""' in curl
    python = python_snippet("http://h/v1/", 'a"b')
    assert 'model="a\\"b",' in python


# --- Lock-out page ---


def test_too_many_failed_logins_show_the_styled_lockout_page(
    client: Client, user: User, settings: Any
) -> None:
    settings.AXES_ENABLED = True
    url = reverse("accounts:login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(url, {"username": user.username, "password": "wrong"})
    response = client.post(url, {"username": user.username, "password": "wrong"})
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed logins" in page
    assert "<strong>15 minutes</strong>" in page
    assert f'href="{url}"' in page
    assert "css/nova.css" in page
    assert "Account locked: too many login attempts" not in page


def test_lockout_duration_wording() -> None:
    from datetime import timedelta

    from core.views import _duration

    assert _duration(timedelta(minutes=15)) == "15 minutes"
    assert _duration(timedelta(hours=1)) == "1 hour"
    assert _duration(timedelta(hours=1, minutes=30)) == "1 hour 30 minutes"
    assert _duration(timedelta(seconds=1)) == "1 second"
    assert _duration(timedelta(0)) == "a moment"


# --- Admin ---


def test_balance_reads_plainly(user: User) -> None:
    balance = Balance.objects.get(user=user)
    assert str(balance) == f"Balance of {user.username}: 0.00000000 USD"
    assert "E-" not in str(balance)


def test_top_up_page_has_one_heading_and_the_full_breadcrumb(admin_client: Any, user: User) -> None:
    balance = Balance.objects.get(user=user)
    page = admin_client.get(f"/admin/billing/balance/{balance.pk}/top-up/").content.decode()
    assert page.count(f"<h1>Top up {user.username}</h1>") == 1
    crumbs = page.split('<div class="breadcrumbs">', 1)[1].split("</div>", 1)[0]
    assert 'href="/admin/billing/"' in crumbs
    assert 'href="/admin/billing/balance/"' in crumbs
    assert f'href="/admin/billing/balance/{balance.pk}/change/"' in crumbs
    assert crumbs.index('/admin/billing/"') < crumbs.index('/admin/billing/balance/"')
    assert 'title="0.00000000 USD">$0.00<' in page


def test_balance_change_page_title_is_readable(admin_client: Any, user: User) -> None:
    balance = Balance.objects.get(user=user)
    page = admin_client.get(f"/admin/billing/balance/{balance.pk}/change/").content.decode()
    assert "0E-8" not in page
    assert f"Balance of {user.username}: 0.00000000 USD" in page
