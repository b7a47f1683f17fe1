"""What a user may give themselves is capped.

A key's requests per minute at most ``MAX_KEY_RPM``, wherever it is set (service, dashboard,
admin, command) and in the limiter for keys stored above it; at most ``MAX_KEYS_PER_USER``
active keys per user.
"""

from __future__ import annotations

import threading
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.models import ApiKey, User
from accounts.services import create_api_key, revoke_api_key, update_api_key
from core.errors import InvalidRequest
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _caps(settings: Any) -> None:
    settings.MAX_KEY_RPM = 600
    settings.MAX_KEYS_PER_USER = 3


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _active_keys(user: User) -> int:
    return ApiKey.objects.filter(user=user, revoked_at__isnull=True).count()


# --- Requests per minute ---


def test_service_accepts_the_cap_and_refuses_more(user: User) -> None:
    assert create_api_key(user=user, rpm_limit=600).key.rpm_limit == 600
    with pytest.raises(InvalidRequest) as excinfo:
        create_api_key(user=user, rpm_limit=601)
    assert excinfo.value.param == "rpm_limit"
    assert excinfo.value.message == "rpm_limit must be between 1 and 600."
    assert _active_keys(user) == 1


def test_service_refuses_raising_a_key_above_the_cap(user: User) -> None:
    key = create_api_key(user=user, rpm_limit=60).key
    with pytest.raises(InvalidRequest):
        update_api_key(key=key, rpm_limit=100_000)
    key.refresh_from_db()
    assert key.rpm_limit == 60


def test_dashboard_key_form_refuses_more_than_the_cap(alice: Client, user: User) -> None:
    response = alice.post(reverse("accounts:key_create"), {"name": "x", "rpm_limit": "100000"})
    assert response.status_code == 200
    assert response.context["form"].errors["rpm_limit"] == [
        "Ensure this value is less than or equal to 600."
    ]
    assert not ApiKey.objects.exists()


def test_dashboard_rate_limit_form_refuses_more_than_the_cap(alice: Client, user: User) -> None:
    key = ApiKeyFactory.create(user=user, rpm_limit=60)
    alice.post(reverse("accounts:key_set_rate_limit", args=[key.id]), {"rpm_limit": "601"})
    key.refresh_from_db()
    assert key.rpm_limit == 60


def test_admin_refuses_more_than_the_cap(admin_client: Any, user: User) -> None:
    response = admin_client.post(
        "/admin/accounts/apikey/add/", {"user": user.pk, "name": "ops", "rpm_limit": 601}
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["rpm_limit"] == [
        "rpm_limit must be between 1 and 600."
    ]
    assert not ApiKey.objects.exists()
    key = ApiKeyFactory.create(user=user, rpm_limit=60)
    response = admin_client.post(
        f"/admin/accounts/apikey/{key.pk}/change/",
        {"user": user.pk, "name": "ops", "rpm_limit": 100_000},
    )
    assert response.status_code == 200
    key.refresh_from_db()
    assert key.rpm_limit == 60


def test_command_refuses_more_than_the_cap(user: User) -> None:
    with pytest.raises(CommandError, match="--rpm must be between 1 and 600"):
        call_command("create_api_key", "alice", "--rpm", "601", stdout=StringIO())
    assert not ApiKey.objects.exists()


@pytest.mark.usefixtures("fresh_rate_window")
def test_the_limiter_caps_a_key_stored_above_the_cap(user: User, settings: Any) -> None:
    # Stored before the cap existed (or written by hand): limited to the cap all the same.
    settings.MAX_KEY_RPM = 2
    client = client_for(ApiKeyFactory.create(user=user, rpm_limit=100_000))
    responses = [client.get("/v1/personas") for _ in range(3)]
    assert [r.status_code for r in responses] == [200, 200, 429]
    assert responses[0]["X-RateLimit-Limit"] == "2"
    assert responses[2].json()["error"]["message"] == (
        "Rate limit of 2 requests per minute exceeded for this API key."
    )


# --- Keys per user ---


def test_service_refuses_a_key_past_the_cap_and_revoked_keys_do_not_count(user: User) -> None:
    keys = [create_api_key(user=user).key for _ in range(3)]
    with pytest.raises(InvalidRequest) as excinfo:
        create_api_key(user=user)
    assert excinfo.value.code == "too_many_api_keys"
    assert excinfo.value.message == (
        "This account already has 3 active API keys, the most allowed: revoke one before "
        "creating another."
    )
    assert _active_keys(user) == 3
    # Other users are not affected; a revoked key frees a place.
    assert create_api_key(user=UserFactory.create(username="bob")).key.pk
    revoke_api_key(key=keys[0])
    assert create_api_key(user=user).key.pk
    assert _active_keys(user) == 3


def test_dashboard_shows_the_key_cap_as_a_form_error(alice: Client, user: User) -> None:
    for _ in range(3):
        ApiKeyFactory.create(user=user)
    response = alice.post(reverse("accounts:key_create"), {"name": "fourth", "rpm_limit": "60"})
    assert response.status_code == 200
    assert "revoke one before creating another" in response.context["form"].non_field_errors()[0]
    assert _active_keys(user) == 3


def test_admin_shows_the_key_cap_as_a_form_error(admin_client: Any, user: User) -> None:
    for _ in range(3):
        ApiKeyFactory.create(user=user)
    response = admin_client.post(
        "/admin/accounts/apikey/add/", {"user": user.pk, "name": "ops", "rpm_limit": 60}
    )
    assert response.status_code == 200
    assert "revoke one before creating another" in str(
        response.context["adminform"].form.non_field_errors()
    )
    assert _active_keys(user) == 3


def test_command_refuses_a_key_past_the_cap(user: User) -> None:
    for _ in range(3):
        ApiKeyFactory.create(user=user)
    with pytest.raises(CommandError, match="already has 3 active API keys"):
        call_command("create_api_key", "alice", stdout=StringIO())
    assert _active_keys(user) == 3


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's")
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_concurrent_creations_never_pass_the_cap(user: User) -> None:
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def create() -> None:
        start.wait()
        try:
            create_api_key(user=user)
            outcomes.append("created")
        except InvalidRequest:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["created"] * 3 + ["refused"] * 5
    assert _active_keys(user) == 3
