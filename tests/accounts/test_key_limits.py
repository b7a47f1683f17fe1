"""Where spend limits are set: the dashboard's key page, the admin and the commands."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from accounts.limits import set_key_limit
from accounts.models import ApiKey, User, digest_key
from billing.services import charge_usage, top_up
from tests.conftest import client_for
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip()


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def key(user: User) -> ApiKey:
    top_up(user=user, amount=Decimal("10"), note="t")
    return ApiKeyFactory.create(user=user, name="laptop")


def spend(user: User, key: ApiKey, cost: str) -> None:
    charge_usage(
        user=user,
        api_key=key,
        model_id="nova-local",
        prompt_tokens=1,
        completion_tokens=1,
        cost=Decimal(cost),
    )


# --- Dashboard ---


def test_key_page_shows_the_same_numbers_as_the_key_endpoint(
    alice: Client, user: User, key: ApiKey
) -> None:
    set_key_limit(key=key, limit="2", limit_reset="monthly")
    spend(user, key, "0.75")
    page = alice.get(reverse("accounts:key_detail", args=[key.pk])).content.decode()
    api = client_for(key).get("/v1/key").json()["data"]
    for field in ("limit", "limit_remaining", "usage", "usage_daily", "usage_monthly"):
        assert api[field] in page, field
    assert api["limit_remaining"] == "1.25000000"


def test_owner_sets_and_removes_the_limit(alice: Client, key: ApiKey) -> None:
    url = reverse("accounts:key_set_limit", args=[key.pk])
    response = alice.post(url, {"limit": "3.5", "limit_reset": "weekly"})
    assert response.status_code == 302
    key.refresh_from_db()
    assert (key.limit, key.limit_reset) == (Decimal("3.5"), "weekly")
    alice.post(url, {"limit": "", "limit_reset": "weekly"})
    key.refresh_from_db()
    assert key.limit is None


@pytest.mark.parametrize("limit", ["-1", "abc", "0.123456789", "10000000000000"])
def test_bad_limits_are_form_errors(alice: Client, key: ApiKey, limit: str) -> None:
    response = alice.post(
        reverse("accounts:key_set_limit", args=[key.pk]), {"limit": limit, "limit_reset": "daily"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["limit"]
    key.refresh_from_db()
    assert key.limit is None


def test_another_users_key_page_is_404(client: Client, other_user: User, key: ApiKey) -> None:
    client.force_login(other_user)
    assert client.get(reverse("accounts:key_detail", args=[key.pk])).status_code == 404
    response = client.post(
        reverse("accounts:key_set_limit", args=[key.pk]), {"limit": "1", "limit_reset": "daily"}
    )
    assert response.status_code == 404
    key.refresh_from_db()
    assert key.limit is None


def test_keys_table_links_the_key_page_and_shows_the_limit(alice: Client, key: ApiKey) -> None:
    set_key_limit(key=key, limit="4", limit_reset="daily")
    page = alice.get(reverse("accounts:keys")).content.decode()
    assert reverse("accounts:key_detail", args=[key.pk]) in page
    assert "4.00000000 USD daily" in page


# --- Admin ---


def test_admin_key_page_sets_the_limit_and_shows_the_window_spend(
    admin_client: Any, user: User, key: ApiKey
) -> None:
    spend(user, key, "0.4")
    url = f"/admin/accounts/apikey/{key.pk}/change/"
    response = admin_client.post(
        url,
        {
            "user": user.pk,
            "name": key.name,
            "rpm_limit": 60,
            "limit": "1.5",
            "limit_reset": "daily",
        },
    )
    assert response.status_code == 302
    key.refresh_from_db()
    assert (key.limit, key.limit_reset) == (Decimal("1.5"), "daily")
    page = admin_client.get(url).content.decode()
    assert "0.40000000 USD of 1.50000000 (1.10000000 remaining" in page


def test_admin_refuses_a_negative_limit(admin_client: Any, user: User, key: ApiKey) -> None:
    response = admin_client.post(
        f"/admin/accounts/apikey/{key.pk}/change/",
        {"user": user.pk, "name": key.name, "rpm_limit": 60, "limit": "-1", "limit_reset": "daily"},
    )
    assert response.status_code == 200
    key.refresh_from_db()
    assert key.limit is None


def test_admin_user_page_shows_the_user_limit_and_window_spend(
    admin_client: Any, user: User, key: ApiKey
) -> None:
    user.limit = Decimal("5")
    user.limit_reset = "monthly"
    user.save()
    spend(user, key, "2")
    page = admin_client.get(f"/admin/accounts/user/{user.pk}/change/").content.decode()
    assert 'name="limit"' in page and 'name="limit_reset"' in page
    assert "2.00000000 USD of 5.00000000 (3.00000000 remaining" in page


# --- Commands ---


def test_create_api_key_with_a_limit(user: User) -> None:
    raw = run("create_api_key", "alice", "--limit", "2.5", "--limit-reset", "weekly")
    key = ApiKey.objects.get(digest=digest_key(raw))
    assert (key.limit, key.limit_reset) == (Decimal("2.5"), "weekly")


@pytest.mark.parametrize(
    "args",
    [("--limit", "-1"), ("--limit", "x"), ("--limit-reset", "daily"), ("--limit-reset", "hourly")],
)
def test_create_api_key_rejects_bad_limits(user: User, args: tuple[str, str]) -> None:
    with pytest.raises((CommandError, SystemExit)):
        run("create_api_key", "alice", *args)
    assert not ApiKey.objects.exists()


def test_set_key_limit_by_prefix_and_back_to_none(key: ApiKey) -> None:
    assert run("set_key_limit", key.prefix, "7", "--limit-reset", "monthly") == (
        f"{key.prefix} 7.00000000 monthly"
    )
    key.refresh_from_db()
    assert (key.limit, key.limit_reset) == (Decimal("7"), "monthly")
    assert run("set_key_limit", key.prefix, "none") == f"{key.prefix} none monthly"
    key.refresh_from_db()
    assert key.limit is None


def test_set_key_limit_refuses_bad_input(key: ApiKey) -> None:
    with pytest.raises(CommandError, match="AMOUNT"):
        run("set_key_limit", key.prefix, "-3")
    with pytest.raises(CommandError):
        run("set_key_limit", "sk-nosuchkey", "1")
