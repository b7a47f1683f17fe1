from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpRequest
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from core.errors import RateLimited
from core.ratelimit import REQUEST_ATTRIBUTE, WINDOW_SECONDS, RateLimitState, enforce, hit
from tests.conftest import FakeClock, client_for
from tests.factories import ApiKeyFactory
from tests.servers import free_port

pytestmark = pytest.mark.urls("tests.core.urls_for_tests")


@pytest.fixture
def clock(fresh_rate_window: FakeClock) -> FakeClock:
    """The rate limiter's clock, stopped at the start of a window."""
    return fresh_rate_window


@pytest.fixture
def unreachable_cache(settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }


def _counted(key_id: int, limit: int) -> RateLimitState:
    state = hit(key_id, limit)
    assert state is not None
    return state


# --- The counter ---


def test_successive_hits_count_up_within_a_window(clock: FakeClock) -> None:
    assert [_counted(1, 5).count for _ in range(3)] == [1, 2, 3]


def test_the_request_at_the_limit_is_served_and_the_next_one_is_over(clock: FakeClock) -> None:
    states = [_counted(1, 3) for _ in range(4)]
    assert [s.exceeded for s in states] == [False, False, False, True]
    assert [s.remaining for s in states] == [2, 1, 0, 0]


def test_keys_count_separately(clock: FakeClock) -> None:
    _counted(1, 1)
    assert _counted(1, 1).exceeded
    assert not _counted(2, 1).exceeded


def test_reset_is_the_whole_seconds_left_in_the_window(clock: FakeClock) -> None:
    assert _counted(1, 100).reset == WINDOW_SECONDS
    clock.advance(0.5)
    assert _counted(1, 100).reset == 59
    clock.advance(44.5)
    assert _counted(1, 100).reset == 15
    clock.advance(14.5)  # half a second left: never reported as 0
    assert _counted(1, 100).reset == 1


def test_a_new_window_starts_the_count_again(clock: FakeClock) -> None:
    _counted(1, 1)
    clock.advance(WINDOW_SECONDS - 0.5)
    assert _counted(1, 1).exceeded  # still the same window
    clock.advance(0.5)
    state = _counted(1, 1)
    assert (state.count, state.exceeded, state.reset) == (1, False, WINDOW_SECONDS)


def test_the_limit_is_capped_at_max_key_rpm(clock: FakeClock, settings: Any) -> None:
    settings.MAX_KEY_RPM = 2
    states = [_counted(1, 100_000) for _ in range(3)]
    assert [s.limit for s in states] == [2, 2, 2]
    assert [s.exceeded for s in states] == [False, False, True]
    assert _counted(2, 1).limit == 1  # a limit below the cap is kept


def test_headers_of_a_state() -> None:
    assert RateLimitState(limit=3, count=5, reset=12).headers() == {
        "X-RateLimit-Limit": "3",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": "12",
    }


@pytest.mark.usefixtures("unreachable_cache")
def test_an_unreachable_cache_counts_nothing(clock: FakeClock) -> None:
    assert [hit(1, 1) for _ in range(3)] == [None, None, None]


# --- enforce ---


def test_enforce_keeps_the_state_on_the_request(clock: FakeClock) -> None:
    request = HttpRequest()
    enforce(request, key_id=1, limit=2)
    assert getattr(request, REQUEST_ATTRIBUTE) == RateLimitState(limit=2, count=1, reset=60)


def test_enforce_raises_429_with_retry_after_past_the_limit(clock: FakeClock) -> None:
    enforce(HttpRequest(), key_id=1, limit=1)
    clock.advance(20)
    request = HttpRequest()
    with pytest.raises(RateLimited) as excinfo:
        enforce(request, key_id=1, limit=1)
    error = excinfo.value
    assert error.status == 429
    assert error.message == "Rate limit of 1 requests per minute exceeded for this API key."
    assert error.headers == {
        "X-RateLimit-Limit": "1",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": "40",
        "Retry-After": "40",
    }
    assert getattr(request, REQUEST_ATTRIBUTE).count == 2


@pytest.mark.usefixtures("unreachable_cache")
def test_enforce_serves_the_request_when_the_cache_is_unreachable(clock: FakeClock) -> None:
    request = HttpRequest()
    for _ in range(3):
        enforce(request, key_id=1, limit=1)
    assert not hasattr(request, REQUEST_ATTRIBUTE)


# --- Through the API ---


@pytest.mark.django_db
def test_headers_count_down_then_429_with_retry_after(user: User, clock: FakeClock) -> None:
    key = ApiKeyFactory.create(user=user, rpm_limit=3)
    client = client_for(key)
    responses = [client.get("/v1/_probe/whoami") for _ in range(3)]
    assert [r.status_code for r in responses] == [200] * 3
    assert [r["X-RateLimit-Limit"] for r in responses] == ["3"] * 3
    assert [r["X-RateLimit-Remaining"] for r in responses] == ["2", "1", "0"]
    assert [r["X-RateLimit-Reset"] for r in responses] == ["60"] * 3
    clock.advance(25.5)
    response = client.get("/v1/_probe/whoami")
    assert response.status_code == 429
    body = response.json()["error"]
    assert body["type"] == "rate_limit_error"
    assert response["Retry-After"] == "34"
    assert response["X-RateLimit-Reset"] == "34"
    assert response["X-RateLimit-Remaining"] == "0"


@pytest.mark.django_db
def test_the_next_window_serves_a_limited_key_again(user: User, clock: FakeClock) -> None:
    client = client_for(ApiKeyFactory.create(user=user, rpm_limit=1))
    assert client.get("/v1/_probe/whoami").status_code == 200
    assert client.get("/v1/_probe/whoami").status_code == 429
    clock.advance(WINDOW_SECONDS)
    response = client.get("/v1/_probe/whoami")
    assert response.status_code == 200
    assert response["X-RateLimit-Remaining"] == "0"
    assert response["X-RateLimit-Reset"] == "60"


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_rate_window")
def test_limits_are_per_key(user: User) -> None:
    first = client_for(ApiKeyFactory.create(user=user, rpm_limit=1))
    second = client_for(ApiKeyFactory.create(user=user, rpm_limit=1))
    assert first.get("/v1/_probe/whoami").status_code == 200
    assert first.get("/v1/_probe/whoami").status_code == 429
    assert second.get("/v1/_probe/whoami").status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_rate_window")
def test_rate_limit_comes_before_body_validation(user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=user, rpm_limit=1))
    client.post("/v1/_probe/whoami", {}, format="json")
    response = client.post("/v1/_probe/whoami", "{bad", content_type="application/json")
    assert response.status_code == 429


@pytest.mark.django_db
def test_unauthenticated_requests_get_no_rate_limit_headers(anon_client: APIClient) -> None:
    response = anon_client.get("/v1/_probe/whoami")
    assert response.status_code == 401
    assert "X-RateLimit-Limit" not in response


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_rate_window")
def test_default_limit_is_60(api_key: ApiKey, api_client: APIClient) -> None:
    assert api_client.get("/v1/_probe/whoami")["X-RateLimit-Limit"] == "60"


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_rate_window", "unreachable_cache")
def test_an_unreachable_cache_serves_requests_without_rate_limit_headers(user: User) -> None:
    client = client_for(ApiKeyFactory.create(user=user, rpm_limit=1))
    responses = [client.get("/v1/_probe/whoami") for _ in range(3)]
    assert [r.status_code for r in responses] == [200] * 3
    assert all("X-RateLimit-Limit" not in r for r in responses)
