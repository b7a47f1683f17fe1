"""Operators in the Django admin: top-ups through the service, read-only ledger, keys."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from accounts.models import ApiKey, User
from billing.models import Balance, LedgerEntry
from billing.selectors import get_balance
from billing.services import top_up

pytestmark = pytest.mark.django_db


def test_admin_top_up_form_writes_a_ledger_entry(admin_client: Any, user: User) -> None:
    balance = Balance.objects.get(user=user)
    url = f"/admin/billing/balance/{balance.pk}/top-up/"
    assert admin_client.get(url).status_code == 200
    response = admin_client.post(url, {"amount": "7.25", "note": "invoice 12"})
    assert response.status_code == 302
    entry = LedgerEntry.objects.get(user=user)
    assert (entry.kind, entry.amount, entry.note) == ("topup", Decimal("7.25"), "invoice 12")
    assert entry.created_by is not None and entry.created_by.is_superuser
    assert get_balance(user) == Decimal("7.25")


def test_admin_top_up_rejects_non_positive_amounts(admin_client: Any, user: User) -> None:
    balance = Balance.objects.get(user=user)
    response = admin_client.post(f"/admin/billing/balance/{balance.pk}/top-up/", {"amount": "0"})
    assert response.status_code == 200
    assert not LedgerEntry.objects.exists()


def test_ledger_entries_are_read_only_in_admin(admin_client: Any, user: User) -> None:
    entry = top_up(user=user, amount="1")
    assert admin_client.get("/admin/billing/ledgerentry/").status_code == 200
    assert admin_client.get("/admin/billing/ledgerentry/add/").status_code == 403
    response = admin_client.post(f"/admin/billing/ledgerentry/{entry.pk}/change/", {"amount": "99"})
    assert response.status_code == 403
    delete = admin_client.post(f"/admin/billing/ledgerentry/{entry.pk}/delete/", {"post": "yes"})
    assert delete.status_code == 403
    entry.refresh_from_db()
    assert entry.amount == Decimal("1")


def test_admin_key_creation_shows_the_raw_key_once_and_stores_a_hash(
    admin_client: Any, user: User
) -> None:
    response = admin_client.post(
        "/admin/accounts/apikey/add/",
        {"user": user.pk, "name": "ops", "rpm_limit": 60},
        follow=True,
    )
    assert response.status_code == 200
    key = ApiKey.objects.get(name="ops")
    shown = [str(m) for m in response.context["messages"]]
    raw = next(word for text in shown for word in text.split() if word.startswith("sk-"))
    assert raw.startswith(key.prefix)
    page = admin_client.get(f"/admin/accounts/apikey/{key.pk}/change/").content.decode()
    assert raw not in page
    assert key.digest not in page


def test_admin_revoke_action(admin_client: Any, api_key: ApiKey) -> None:
    admin_client.post(
        "/admin/accounts/apikey/",
        {"action": "revoke_keys", "_selected_action": [api_key.pk]},
    )
    api_key.refresh_from_db()
    assert api_key.revoked_at is not None


def test_admin_edits_detailed_logging_and_rate_limit(admin_client: Any, api_key: ApiKey) -> None:
    """Operators edit both a key's Detailed Logging and its rate limit in the admin."""
    response = admin_client.post(
        f"/admin/accounts/apikey/{api_key.pk}/change/",
        {"user": api_key.user_id, "name": "edited", "detailed_logging": "on", "rpm_limit": 7},
    )
    assert response.status_code == 302
    api_key.refresh_from_db()
    assert (api_key.name, api_key.detailed_logging, api_key.rpm_limit) == ("edited", True, 7)
