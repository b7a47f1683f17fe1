"""Security pass: keys stored only hashed, login throttled against guessing."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.http import HttpResponse
from django.test import Client

from accounts.models import ApiKey, User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
RAW_KEY = re.compile(r"sk-[A-Za-z0-9_-]{40,}")


def _every_stored_value() -> list[str]:
    """Every value of every row of every table, as text (raw SQL: nothing is left out)."""
    values = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            values += [str(value) for row in cursor.fetchall() for value in row]
    return values


def _apikey_values() -> list[str]:
    fields = [f.attname for f in ApiKey._meta.concrete_fields]
    return [str(value) for row in ApiKey.objects.values_list(*fields) for value in row]


def _assert_stored_only_hashed(raw_key: str) -> None:
    assert raw_key.startswith("sk-") and len(raw_key) >= 3 + 43  # 32 random bytes
    key = ApiKey.objects.get(prefix=raw_key[:12])
    assert key.digest != raw_key and len(key.digest) == 64
    for value in _apikey_values():
        assert raw_key not in value
        # Not even the secret part past the display prefix.
        assert raw_key[12:] not in value
    for value in _every_stored_value():
        assert raw_key[12:] not in value


def _works(raw_key: str) -> bool:
    response = Client().get("/v1/personas", HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    return response.status_code == 200


def test_key_created_in_the_dashboard_is_stored_only_hashed(user: User) -> None:
    web = Client()
    web.force_login(user)
    page = web.post("/keys/new/", {"name": "laptop", "rpm_limit": "60"})
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"] or "no-cache" in page["Cache-Control"]
    (raw_key,) = set(RAW_KEY.findall(page.content.decode()))
    assert _works(raw_key)
    _assert_stored_only_hashed(raw_key)
    # Shown once: no later page shows it again.
    for url in ("/", "/keys/"):
        assert raw_key not in web.get(url).content.decode()


def test_key_created_by_the_command_is_stored_only_hashed(user: User) -> None:
    out = StringIO()
    call_command("create_api_key", user.username, "--name", "ci", stdout=out)
    raw_key = out.getvalue().strip()
    assert RAW_KEY.fullmatch(raw_key)
    assert _works(raw_key)
    _assert_stored_only_hashed(raw_key)


def test_demo_key_is_stored_only_hashed() -> None:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    (raw_key,) = RAW_KEY.findall(out.getvalue())
    assert _works(raw_key)
    _assert_stored_only_hashed(raw_key)


# --- Login throttling (django-axes) ---


def _login(client: Client, username: str, password: str) -> HttpResponse:
    response = client.post("/login/", {"username": username, "password": password})
    assert isinstance(response, HttpResponse)
    return response


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_after_five_failed_logins_even_the_right_password_is_refused() -> None:
    UserFactory.create(username="dora")
    client = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(4):
        response = _login(client, "dora", "guess")
        assert response.status_code == 200  # the form again, with an error
        assert not _logged_in(client)
    response = _login(client, "dora", "guess")  # the fifth failure locks
    assert response.status_code == 429
    response = _login(client, "dora", PASSWORD)
    assert response.status_code == 429
    assert "locked" in response.content.decode().lower()
    assert not _logged_in(client)
    assert client.get("/").status_code == 302


def test_lockout_is_per_username_and_address(user: User) -> None:
    """The guesser is locked out; the real user on another address and other accounts are not."""
    UserFactory.create(username="dora")
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(6):
        _login(attacker, "dora", "guess")
    assert _login(attacker, "dora", PASSWORD).status_code == 429
    other_account = Client(REMOTE_ADDR="203.0.113.7")
    assert _login(other_account, user.username, PASSWORD).status_code == 302
    real_user = Client(REMOTE_ADDR="198.51.100.2")
    assert _login(real_user, "dora", PASSWORD).status_code == 302
    assert _logged_in(real_user)


def test_a_successful_login_resets_the_failure_count() -> None:
    UserFactory.create(username="dora")
    client = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(4):
        _login(client, "dora", "guess")
    assert _login(client, "dora", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        _login(client, "dora", "guess")
    assert _login(client, "dora", PASSWORD).status_code == 302


def test_admin_login_is_throttled_too() -> None:
    UserFactory.create(username="root", is_staff=True, is_superuser=True)
    client = Client(REMOTE_ADDR="203.0.113.11")
    for _ in range(5):
        client.post("/admin/login/", {"username": "root", "password": "guess"})
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert response.status_code == 429
    assert not _logged_in(client)


def test_login_never_redirects_to_another_site() -> None:
    UserFactory.create(username="dora")
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example/"):
        client = Client()
        response = client.post(
            f"/login/?next={target}", {"username": "dora", "password": PASSWORD, "next": target}
        )
        assert response.status_code == 302
        assert response["Location"] == "/", target
