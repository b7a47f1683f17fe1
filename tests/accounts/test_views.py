from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiKey, User, digest_key
from billing.models import Balance
from billing.services import top_up
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _raw_key_from(html: str) -> str:
    marker = 'id="raw-key">'
    start = html.index(marker) + len(marker)
    return html[start : html.index("</code>", start)]


# --- Sign up, log in ---


def test_signup_creates_the_user_with_a_balance_and_logs_in(client: Client) -> None:
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "dora",
            "email": "",
            "password1": "a sturdy passphrase 42",
            "password2": "a sturdy passphrase 42",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:home")
    user = User.objects.get(username="dora")
    assert user.check_password("a sturdy passphrase 42")
    assert Balance.objects.filter(user=user).exists()
    home = client.get(reverse("accounts:home"))
    assert home.status_code == 200
    assert home.context["user"] == user


def test_signup_shows_errors_beside_fields(client: Client, user: User) -> None:
    response = client.post(
        reverse("accounts:signup"),
        {"username": "alice", "password1": "a sturdy passphrase 42", "password2": "different"},
    )

    assert response.status_code == 200
    form = response.context["form"]
    assert "username" in form.errors
    assert "password2" in form.errors
    assert User.objects.filter(username="alice").count() == 1
    assert "_auth_user_id" not in client.session


def test_signup_page_and_login_page_render(client: Client) -> None:
    assert client.get(reverse("accounts:signup")).status_code == 200
    response = client.get(reverse("accounts:login"))
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content


def test_login_with_password(client: Client, user: User) -> None:
    response = client.post(
        reverse("accounts:login"),
        {"username": "alice", "password": "correct horse battery staple"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:home")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_logout_is_a_post(alice: Client) -> None:
    assert alice.get(reverse("accounts:logout")).status_code == 405
    response = alice.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in alice.session


@pytest.mark.parametrize(
    "name",
    ["accounts:home", "accounts:keys"],
)
def test_pages_require_login(client: Client, name: str) -> None:
    url = reverse(name)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={url}"


def test_key_mutations_require_login(client: Client, user: User) -> None:
    key = ApiKeyFactory.create(user=user)
    for url in [
        reverse("accounts:key_create"),
        reverse("accounts:key_revoke", args=[key.id]),
        reverse("accounts:key_set_logging", args=[key.id]),
    ]:
        response = client.post(url, {"detailed_logging": "on"})
        assert response.status_code == 302
        assert response["Location"].startswith("/login/")
    key.refresh_from_db()
    assert key.revoked_at is None
    assert key.detailed_logging is False


# --- Home ---


def test_home_shows_balance_and_keys(alice: Client, user: User) -> None:
    top_up(user=user, amount=Decimal("12.5"), note="test")
    key = ApiKeyFactory.create(user=user, name="laptop", rpm_limit=42, detailed_logging=True)
    ApiKeyFactory.create(name="not mine")

    response = alice.get(reverse("accounts:home"))

    assert response.status_code == 200
    assert response.context["balance"] == Decimal("12.5")
    html = response.content.decode()
    assert "$12.5" in html
    assert key.prefix in html
    assert "laptop" in html
    assert "42 / min" in html
    assert "not mine" not in html


def test_nav_links_to_every_section(alice: Client) -> None:
    html = alice.get(reverse("accounts:home")).content.decode()
    for href in ["/", "/keys/", "/personas/", "/playground/", "/conversations/", "/usage/"]:
        assert f'href="{href}"' in html


# --- API keys ---


def test_keys_page_shows_the_form_with_the_default_rate_limit(alice: Client) -> None:
    response = alice.get(reverse("accounts:keys"))
    assert response.status_code == 200
    assert response.context["form"]["rpm_limit"].value() == 60
    assert b'name="detailed_logging"' in response.content


def test_creating_a_key_shows_the_raw_key_once_and_stores_only_its_hash(
    alice: Client, user: User
) -> None:
    response = alice.post(
        reverse("accounts:key_create"),
        {"name": "ci", "detailed_logging": "on", "rpm_limit": "30"},
    )

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    raw_key = _raw_key_from(response.content.decode())
    assert raw_key.startswith("sk-")
    assert len(raw_key) >= 40
    assert b"data-copy-target" in response.content
    key = ApiKey.objects.get(user=user)
    assert (key.name, key.detailed_logging, key.rpm_limit) == ("ci", True, 30)
    assert key.digest == digest_key(raw_key)
    row = ApiKey.objects.filter(pk=key.pk).values().get()
    assert all(raw_key not in str(value) for value in row.values())
    # Never kept anywhere else: not in the session, not on any later page.
    assert all(raw_key not in str(value) for value in alice.session.values())
    for url in [reverse("accounts:keys"), reverse("accounts:home")]:
        page = alice.get(url).content.decode()
        assert key.prefix in page
        assert raw_key not in page


def test_key_create_defaults(alice: Client, user: User) -> None:
    alice.post(reverse("accounts:key_create"), {"name": "", "rpm_limit": "60"})
    key = ApiKey.objects.get(user=user)
    assert (key.name, key.detailed_logging, key.rpm_limit) == ("", False, 60)


def test_key_create_with_invalid_rate_limit_shows_the_error(alice: Client, user: User) -> None:
    response = alice.post(reverse("accounts:key_create"), {"name": "x", "rpm_limit": "0"})
    assert response.status_code == 200
    assert "rpm_limit" in response.context["form"].errors
    assert not ApiKey.objects.filter(user=user).exists()


def test_key_create_is_post_only(alice: Client) -> None:
    assert alice.get(reverse("accounts:key_create")).status_code == 405


def test_revoke_asks_for_confirmation_then_revokes(alice: Client, user: User) -> None:
    key = ApiKeyFactory.create(user=user)

    confirm = alice.get(reverse("accounts:key_revoke_confirm", args=[key.id]))
    assert confirm.status_code == 200
    assert reverse("accounts:key_revoke", args=[key.id]) in confirm.content.decode()
    key.refresh_from_db()
    assert key.revoked_at is None
    assert alice.get(reverse("accounts:key_revoke", args=[key.id])).status_code == 405

    response = alice.post(reverse("accounts:key_revoke", args=[key.id]))

    assert response.status_code == 302
    key.refresh_from_db()
    assert key.revoked_at is not None
    assert b"Revoked" in alice.get(reverse("accounts:keys")).content


def test_toggle_detailed_logging(alice: Client, user: User) -> None:
    key = ApiKeyFactory.create(user=user)
    url = reverse("accounts:key_set_logging", args=[key.id])

    alice.post(url, {"detailed_logging": "on"})
    key.refresh_from_db()
    assert key.detailed_logging is True

    alice.post(url, {})
    key.refresh_from_db()
    assert key.detailed_logging is False


def test_change_rate_limit(alice: Client, user: User) -> None:
    key = ApiKeyFactory.create(user=user)
    url = reverse("accounts:key_set_rate_limit", args=[key.id])

    alice.post(url, {"rpm_limit": "120"})
    key.refresh_from_db()
    assert key.rpm_limit == 120

    response = alice.post(url, {"rpm_limit": "-3"}, follow=True)
    key.refresh_from_db()
    assert key.rpm_limit == 120
    assert b"Rate limit not changed" in response.content


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("accounts:key_revoke_confirm", "get"),
        ("accounts:key_revoke", "post"),
        ("accounts:key_set_logging", "post"),
        ("accounts:key_set_rate_limit", "post"),
    ],
)
def test_another_users_key_is_404(alice: Client, other_user: User, name: str, method: str) -> None:
    key = ApiKeyFactory.create(user=other_user)

    response = getattr(alice, method)(
        reverse(name, args=[key.id]), {"detailed_logging": "on", "rpm_limit": "5"}
    )

    assert response.status_code == 404
    key.refresh_from_db()
    assert key.revoked_at is None
    assert key.detailed_logging is False
    assert key.rpm_limit == 60


def test_unknown_key_id_is_404(alice: Client) -> None:
    assert alice.post(reverse("accounts:key_revoke", args=[999999])).status_code == 404


def test_forged_post_without_csrf_token_is_403(user: User) -> None:
    key = ApiKeyFactory.create(user=user)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    assert client.post(reverse("accounts:key_revoke", args=[key.id])).status_code == 403
    assert client.post(reverse("accounts:key_create"), {"rpm_limit": "60"}).status_code == 403

    key.refresh_from_db()
    assert key.revoked_at is None
    assert ApiKey.objects.filter(user=user).count() == 1


def test_signup_without_csrf_token_is_403() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("accounts:signup"),
        {"username": "mallory", "password1": "a sturdy pass 42", "password2": "a sturdy pass 42"},
    )
    assert response.status_code == 403
    assert not User.objects.filter(username="mallory").exists()


def test_key_name_is_escaped(alice: Client, user: User) -> None:
    ApiKeyFactory.create(user=user, name="<script>alert(1)</script>")
    html = alice.get(reverse("accounts:keys")).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_reloading_the_new_key_page_creates_no_second_key(alice: Client, user: User) -> None:
    page = alice.get(reverse("accounts:keys")).content.decode()
    token = re.search(r'name="form_token" value="([^"]+)"', page)
    assert token is not None
    form = {"name": "laptop", "rpm_limit": "60", "form_token": token.group(1)}
    first = alice.post(reverse("accounts:key_create"), form)
    key = user.api_keys.get()
    raw = re.search(r'id="raw-key">(sk-[^<]+)<', first.content.decode())
    assert raw is not None and raw.group(1).startswith(key.prefix)
    # The full key in the Bearer hint and a snippet with this server's base URL.
    assert f"Authorization: Bearer {raw.group(1)}" in first.content.decode()
    assert "http://testserver/v1/chat/completions" in first.content.decode()

    again = alice.post(reverse("accounts:key_create"), form)  # what a reload re-sends
    assert again.status_code == 200
    assert user.api_keys.count() == 1
    body = again.content.decode()
    assert "already created" in body
    assert raw.group(1) not in body  # the raw key is never shown twice
    assert key.prefix in body
    # A new form (a new token) creates a new key.
    page = alice.get(reverse("accounts:keys")).content.decode()
    fresh = re.search(r'name="form_token" value="([^"]+)"', page)
    assert fresh is not None and fresh.group(1) != token.group(1)
    alice.post(reverse("accounts:key_create"), {**form, "form_token": fresh.group(1)})
    assert user.api_keys.count() == 2


def test_the_session_never_holds_a_raw_key(alice: Client, user: User) -> None:
    page = alice.get(reverse("accounts:keys")).content.decode()
    token = re.search(r'name="form_token" value="([^"]+)"', page)
    assert token is not None
    response = alice.post(
        reverse("accounts:key_create"), {"rpm_limit": "60", "form_token": token.group(1)}
    )
    raw = re.search(r'id="raw-key">(sk-[^<]+)<', response.content.decode())
    assert raw is not None
    assert raw.group(1) not in str(dict(alice.session.items()))
