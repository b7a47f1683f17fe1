from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiKey
from core.ratelimit import hit
from core.sharedcache import shared_cache
from tests.conftest import client_for
from tests.factories import ApiKeyFactory

pytestmark = [
    pytest.mark.usefixtures("fresh_rate_window"),
    pytest.mark.django_db,
    pytest.mark.urls("tests.core.urls_for_tests"),
]


def test_headers_count_down_then_429_with_retry_after(user: object) -> None:
    key = ApiKeyFactory(user=user, rpm_limit=3)
    client = client_for(key)
    remaining = []
    for _ in range(3):
        response = client.get("/v1/_probe/whoami")
        assert response.status_code == 200
        assert response["X-RateLimit-Limit"] == "3"
        assert 1 <= int(response["X-RateLimit-Reset"]) <= 60
        remaining.append(response["X-RateLimit-Remaining"])
    assert remaining == ["2", "1", "0"]
    response = client.get("/v1/_probe/whoami")
    assert response.status_code == 429
    body = response.json()["error"]
    assert body["type"] == "rate_limit_error"
    assert 1 <= int(response["Retry-After"]) <= 60
    assert response["X-RateLimit-Remaining"] == "0"


def test_limits_are_per_key(user: object) -> None:
    first = client_for(ApiKeyFactory(user=user, rpm_limit=1))
    second = client_for(ApiKeyFactory(user=user, rpm_limit=1))
    assert first.get("/v1/_probe/whoami").status_code == 200
    assert first.get("/v1/_probe/whoami").status_code == 429
    assert second.get("/v1/_probe/whoami").status_code == 200


def test_rate_limit_comes_before_body_validation(user: object) -> None:
    client = client_for(ApiKeyFactory(user=user, rpm_limit=1))
    client.post("/v1/_probe/whoami", {}, format="json")
    response = client.post("/v1/_probe/whoami", "{bad", content_type="application/json")
    assert response.status_code == 429


def test_unauthenticated_requests_get_no_rate_limit_headers(anon_client: APIClient) -> None:
    response = anon_client.get("/v1/_probe/whoami")
    assert response.status_code == 401
    assert "X-RateLimit-Limit" not in response


def test_default_limit_is_60(api_key: ApiKey, api_client: APIClient) -> None:
    assert api_client.get("/v1/_probe/whoami")["X-RateLimit-Limit"] == "60"


def test_a_count_reads_integer_keys_in_the_same_round_trip(user: object) -> None:
    key = ApiKeyFactory(user=user, rpm_limit=5)
    shared_cache().set("probe:int", 1234567890123, timeout=60)
    shared_cache().set("probe:text", "not a number", timeout=60)
    state, values = hit(key, read=["probe:int", "probe:text", "probe:missing"])
    assert state is not None and state.count == 1
    assert values == {"probe:int": 1234567890123, "probe:text": None, "probe:missing": None}
    state, _ = hit(key)
    assert state is not None and state.count == 2
