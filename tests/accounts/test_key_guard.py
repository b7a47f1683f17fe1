"""Where a key's chat guard is set: the dashboard's key page, the admin and create_api_key."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from accounts.models import ApiKey, User, digest_key
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def key(user: User) -> ApiKey:
    return ApiKeyFactory.create(user=user, name="<b>laptop</b>")


def test_a_new_key_has_no_guard(key: ApiKey) -> None:
    assert key.guard == "off"


# --- Dashboard ---


def test_key_page_shows_the_guard_form_with_csrf_and_escapes_the_name(
    alice: Client, key: ApiKey
) -> None:
    page = alice.get(reverse("accounts:key_detail", args=[key.pk])).content.decode()
    form = page[page.index(reverse("accounts:key_set_guard", args=[key.pk])) :]
    form = form[: form.index("</form>")]
    assert "csrfmiddlewaretoken" in form
    for value in ("off", "input", "output", "both"):
        assert f'<option value="{value}"' in form
    assert '<option value="off" selected>' in form
    assert "<b>laptop</b>" not in page and "&lt;b&gt;laptop&lt;/b&gt;" in page


@pytest.mark.parametrize("guard", ["input", "output", "both", "off"])
def test_owner_sets_the_guard(alice: Client, key: ApiKey, guard: str) -> None:
    response = alice.post(reverse("accounts:key_set_guard", args=[key.pk]), {"guard": guard})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:key_detail", args=[key.pk])
    key.refresh_from_db()
    assert key.guard == guard
    page = alice.get(response["Location"]).content.decode()
    assert f'<option value="{guard}" selected>' in page


@pytest.mark.parametrize("guard", ["", "all", "OUTPUT"])
def test_a_bad_guard_is_a_form_error(alice: Client, key: ApiKey, guard: str) -> None:
    response = alice.post(reverse("accounts:key_set_guard", args=[key.pk]), {"guard": guard})
    assert response.status_code == 200
    assert response.context["guard_form"].errors["guard"]
    key.refresh_from_db()
    assert key.guard == "off"


def test_the_guard_needs_the_csrf_token(user: User, key: ApiKey) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    url = reverse("accounts:key_set_guard", args=[key.pk])
    assert client.post(url, {"guard": "both"}).status_code == 403
    page = client.get(reverse("accounts:key_detail", args=[key.pk]))
    token = str(page.context["csrf_token"])
    assert client.post(url, {"guard": "both", "csrfmiddlewaretoken": token}).status_code == 302
    key.refresh_from_db()
    assert key.guard == "both"


def test_another_users_key_guard_is_404(client: Client, other_user: User, key: ApiKey) -> None:
    client.force_login(other_user)
    response = client.post(reverse("accounts:key_set_guard", args=[key.pk]), {"guard": "both"})
    assert response.status_code == 404
    key.refresh_from_db()
    assert key.guard == "off"


def test_setting_the_guard_needs_a_post(alice: Client, key: ApiKey) -> None:
    assert alice.get(reverse("accounts:key_set_guard", args=[key.pk])).status_code == 405


# --- Admin ---


def test_admin_sets_the_guard(admin_client: Any, user: User, key: ApiKey) -> None:
    url = f"/admin/accounts/apikey/{key.pk}/change/"
    assert 'name="guard"' in admin_client.get(url).content.decode()
    response = admin_client.post(
        url,
        {"user": user.pk, "name": "k", "rpm_limit": 60, "guard": "output", "limit_reset": "never"},
    )
    assert response.status_code == 302
    key.refresh_from_db()
    assert key.guard == "output"
    # A form posted without the field keeps the setting.
    admin_client.post(url, {"user": user.pk, "name": "k", "rpm_limit": 60})
    key.refresh_from_db()
    assert key.guard == "output"
    listing = admin_client.get("/admin/accounts/apikey/?guard__exact=output").content.decode()
    assert key.prefix in listing


def test_admin_refuses_an_unknown_guard(admin_client: Any, user: User, key: ApiKey) -> None:
    response = admin_client.post(
        f"/admin/accounts/apikey/{key.pk}/change/",
        {"user": user.pk, "name": "k", "rpm_limit": 60, "guard": "sometimes"},
    )
    assert response.status_code == 200
    key.refresh_from_db()
    assert key.guard == "off"


def test_admin_creates_a_guarded_key(admin_client: Any, user: User) -> None:
    response = admin_client.post(
        "/admin/accounts/apikey/add/",
        {"user": user.pk, "name": "new", "rpm_limit": 60, "guard": "both"},
    )
    assert response.status_code == 302
    assert ApiKey.objects.get(name="new").guard == "both"


# --- Command ---


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip()


@pytest.mark.parametrize("guard", ["off", "input", "output", "both"])
def test_create_api_key_with_a_guard(user: User, guard: str) -> None:
    raw = run("create_api_key", "alice", "--guard", guard)
    assert ApiKey.objects.get(digest=digest_key(raw)).guard == guard


def test_create_api_key_without_guard_is_off(user: User) -> None:
    raw = run("create_api_key", "alice")
    assert ApiKey.objects.get(digest=digest_key(raw)).guard == "off"


@pytest.mark.parametrize("guard", ["on", "", "BOTH"])
def test_create_api_key_refuses_an_unknown_guard(user: User, guard: str) -> None:
    with pytest.raises((CommandError, SystemExit)):
        run("create_api_key", "alice", "--guard", guard)
    assert not ApiKey.objects.exists()
