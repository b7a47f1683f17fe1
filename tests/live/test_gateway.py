"""chat/gateway.py under daphne: chat POSTs served outside Django's request cycle behave as
Django would serve them (paths, headers, errors, host check, HTTPS redirect, body limit)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from accounts.models import ApiKey, User
from billing.models import UsageRecord
from billing.selectors import get_balance
from billing.services import top_up
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

BODY_LIMIT = 4096
CHAT_PATHS = [
    "/v1/chat/completions",
    "/v1/chat/completions/",
    "/api/v1/chat/completions",
    "/v1/agents/chat/completions",
    "/v1/agents/chat/completions/",
    "/api/v1/agents/chat/completions/",
]


@pytest.fixture
def live(upstream_catalog: Path) -> Iterator[str]:
    env = {"MODELS_FILE": str(upstream_catalog), "MAX_REQUEST_BYTES": str(BODY_LIMIT)}
    with running_nova(env) as base_url:
        yield base_url


@pytest.fixture
def key(db: None) -> ApiKey:
    user: User = UserFactory.create(username="gateway-user")
    top_up(user=user, amount="10")
    return ApiKeyFactory.create(user=user, rpm_limit=100)


def _chat(base_url: str, path: str, key: ApiKey | None, **extra: object) -> httpx.Response:
    headers = {"Authorization": f"Bearer {raw_key(key)}"} if key is not None else {}
    body = {
        "model": "fake-gpt",
        "persona_id": 1,
        "messages": [{"role": "user", "content": "Hello"}],
        **extra,
    }
    return httpx.post(base_url + path, json=body, headers=headers, timeout=10)


@pytest.mark.parametrize("path", CHAT_PATHS)
def test_every_chat_path_is_served_with_the_api_headers(
    live: str, key: ApiKey, fake_upstream: FakeUpstream, path: str
) -> None:
    fake_upstream.script(reply="Hi there.", usage=(5, 3))
    response = _chat(live, path, key)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json()["choices"][0]["message"]["content"] == "Hi there."
    assert response.headers["X-RateLimit-Limit"] == "100"
    assert response.headers["X-RateLimit-Remaining"] == "99"
    # The headers Django's SecurityMiddleware and XFrameOptionsMiddleware add everywhere.
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert UsageRecord.objects.filter(api_key=key).count() == 1


def test_errors_are_the_envelope_with_their_headers(live: str, key: ApiKey) -> None:
    missing = _chat(live, "/v1/agents/chat/completions", None)
    assert missing.status_code == 401
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    assert missing.json()["error"]["type"] == "authentication_error"

    bad = _chat(live, "/v1/agents/chat/completions", key, temperature=3)
    assert bad.status_code == 400
    assert bad.json()["error"]["param"] == "temperature"
    assert bad.headers["X-RateLimit-Remaining"] == "99"

    no_persona = _chat(live, "/v1/agents/chat/completions", key, persona_id=None)
    assert no_persona.status_code == 400
    assert no_persona.json()["error"]["param"] == "persona_id"

    not_json = httpx.post(
        live + "/v1/chat/completions",
        content=b"{",
        headers={"Authorization": f"Bearer {raw_key(key)}", "Content-Type": "application/json"},
    )
    assert not_json.status_code == 400
    assert not_json.json()["error"]["code"] == "invalid_json"


def test_other_methods_on_a_chat_path_are_django_s(live: str, key: ApiKey) -> None:
    response = httpx.get(
        live + "/v1/agents/chat/completions", headers={"Authorization": f"Bearer {raw_key(key)}"}
    )
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_a_body_over_the_limit_is_413_and_charges_nothing(live: str, key: ApiKey) -> None:
    response = _chat(
        live,
        "/v1/chat/completions",
        key,
        messages=[{"role": "user", "content": "x" * (BODY_LIMIT + 1)}],
    )
    assert response.status_code == 413
    assert response.json()["error"] == {
        "message": f"The request body is larger than {BODY_LIMIT} bytes.",
        "type": "invalid_request_error",
        "param": None,
        "code": "request_too_large",
    }
    assert get_balance(key.user) == Decimal("10")
    assert not UsageRecord.objects.filter(api_key=key).exists()


def test_a_host_outside_allowed_hosts_is_a_json_400(live: str, key: ApiKey) -> None:
    response = httpx.post(
        live + "/v1/chat/completions",
        json={"model": "fake-gpt", "messages": [{"role": "user", "content": "Hi"}]},
        headers={"Authorization": f"Bearer {raw_key(key)}", "Host": "evil.example"},
    )
    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"
    assert get_balance(key.user) == Decimal("10")


def test_https_redirect_applies_as_in_django(upstream_catalog: Path, key: ApiKey) -> None:
    env = {
        "MODELS_FILE": str(upstream_catalog),
        "SECURE_SSL_REDIRECT": "true",
        "SECURE_HSTS_SECONDS": "60",
    }
    with running_nova(env) as base_url:
        plain = _chat(base_url, "/v1/chat/completions", key)
        assert plain.status_code == 301
        assert plain.headers["Location"].startswith("https://127.0.0.1")
        proxied = httpx.post(
            base_url + "/v1/chat/completions",
            json={"model": "fake-gpt", "messages": [{"role": "user", "content": "Hi"}]},
            headers={"Authorization": f"Bearer {raw_key(key)}", "X-Forwarded-Proto": "https"},
            timeout=10,
        )
        assert proxied.status_code == 200, proxied.text
        assert proxied.headers["Strict-Transport-Security"].startswith("max-age=")
