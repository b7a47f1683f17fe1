"""The circuit breaker (core/breaker.py) on a fake clock, and around the rate limiter's cache."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from accounts.models import ApiKey
from core.breaker import CircuitBreaker, State
from core.ratelimit import hit
from core.sharedcache import cache_breaker
from tests.conftest import FakeClock, client_for
from tests.servers import free_port, start_redis_server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1000.0)


def state_of(breaker: CircuitBreaker) -> State:
    """The breaker's state, read afresh: mypy would carry one check of ``breaker.state`` over
    to the next as if the calls between could not change it."""
    return breaker.state


@pytest.fixture
def breaker(clock: FakeClock) -> CircuitBreaker:
    return CircuitBreaker(cool_off=5, clock=clock)


def test_a_failure_opens_it_once_and_callers_skip_for_the_cool_off(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    assert breaker.allow() and state_of(breaker) is State.CLOSED
    assert breaker.record_success() is False  # nothing to close
    assert breaker.record_failure() is True  # opened: the caller logs this one
    assert breaker.record_failure() is False  # requests already in flight fail too: no log
    assert state_of(breaker) is State.OPEN
    clock.now += 4.9
    assert [breaker.allow() for _ in range(3)] == [False] * 3


def test_after_the_cool_off_one_probe_goes_through_and_its_success_closes_it(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    breaker.record_failure()
    clock.now += 5
    assert [breaker.allow() for _ in range(3)] == [True, False, False]
    assert state_of(breaker) is State.HALF_OPEN
    assert breaker.record_success() is True  # closed: the caller logs this one
    assert breaker.record_success() is False
    assert state_of(breaker) is State.CLOSED
    assert [breaker.allow() for _ in range(3)] == [True] * 3


def test_a_failed_probe_opens_it_again_without_counting_as_a_new_opening(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    breaker.record_failure()
    clock.now += 5
    assert breaker.allow()
    assert breaker.record_failure() is False
    assert state_of(breaker) is State.OPEN
    clock.now += 4.9
    assert not breaker.allow()
    clock.now += 0.1
    assert breaker.allow()


def test_a_probe_that_never_reports_is_replaced_after_another_cool_off(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    breaker.record_failure()
    clock.now += 5
    assert breaker.allow()  # this probe's caller never reports back
    clock.now += 4.9
    assert not breaker.allow()
    clock.now += 0.1
    assert breaker.allow()


def test_exactly_one_of_many_concurrent_callers_is_the_probe(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    breaker.record_failure()
    clock.now += 5
    start = threading.Barrier(16)
    allowed: list[bool] = []

    def call() -> None:
        start.wait()
        allowed.append(breaker.allow())

    threads = [threading.Thread(target=call) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(allowed) == [False] * 15 + [True]


def test_rejects_a_cool_off_that_is_not_positive() -> None:
    with pytest.raises(ValueError):
        CircuitBreaker(cool_off=0)


# --- Around the rate limiter: a Redis that accepts connections and never answers ---


@pytest.fixture
def silent_redis() -> Iterator[int]:
    """A port that completes TCP handshakes (the kernel does) and never answers a command, like
    a Redis under CLIENT PAUSE."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(64)
        yield int(server.getsockname()[1])


@pytest.fixture
def hung_cache(settings: Any, silent_redis: int) -> None:
    settings.REDIS_BREAKER_SECONDS = 30
    # A new CACHES dict: core.sharedcache builds a new cache object and a closed breaker.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{silent_redis}/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }


@pytest.mark.django_db
@pytest.mark.usefixtures("hung_cache")
def test_a_hung_cache_costs_one_timeout_then_requests_skip_it_logged_once(
    api_key: ApiKey, caplog: pytest.LogCaptureFixture
) -> None:
    client = client_for(api_key)
    with caplog.at_level(logging.WARNING, logger="core.ratelimit"):
        started = time.monotonic()
        first = client.get("/v1/personas")
        first_took = time.monotonic() - started
        started = time.monotonic()
        rest = [client.get("/v1/personas") for _ in range(10)]
        rest_took = time.monotonic() - started
    assert first.status_code == 200 and first_took >= 0.2
    # Served without rate limiting (no count to report), and without waiting on the cache:
    # ten timeouts would take 2 s.
    assert [r.status_code for r in rest] == [200] * 10
    assert all("X-RateLimit-Limit" not in r for r in rest)
    assert rest_took < 1.0
    warnings = [r.getMessage() for r in caplog.records if r.name == "core.ratelimit"]
    assert len(warnings) == 1
    assert "rate limiting degraded" in warnings[0] and "circuit opened" in warnings[0]
    assert cache_breaker().state is State.OPEN


@pytest.mark.slow
@pytest.mark.usefixtures("fresh_rate_window")
def test_rate_limiting_resumes_when_the_probe_after_the_cool_off_succeeds(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A real redis-server of this test's own, paused: skipped while the breaker is open, then
    the probe counts again and the end of the outage is logged once."""
    port = free_port()
    server = start_redis_server(port)
    try:
        settings.REDIS_BREAKER_SECONDS = 0.5
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": f"redis://127.0.0.1:{port}/0",
                "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
            }
        }
        assert hit(1, 60) is not None
        redis.Redis(port=port).execute_command("CLIENT", "PAUSE", 1000, "ALL")
        paused_at = time.monotonic()
        with caplog.at_level(logging.WARNING, logger="core.ratelimit"):
            assert hit(1, 60) is None  # times out, opens the breaker
            started = time.monotonic()
            assert hit(1, 60) is None  # skipped
            assert time.monotonic() - started < 0.05
            time.sleep(max(0.0, paused_at + 1.1 - time.monotonic()))
            state = hit(1, 60)  # the probe
            again = hit(1, 60)
    finally:
        server.kill()
        server.wait(timeout=10)
    assert state is not None and again is not None
    assert again.count == state.count + 1
    assert cache_breaker().state is State.CLOSED
    messages = [r.getMessage() for r in caplog.records if r.name == "core.ratelimit"]
    assert len(messages) == 2
    assert messages[0].startswith("rate limiting degraded: cache unreachable (TimeoutError")
    assert messages[1] == "rate limiting restored: cache reachable again; circuit closed"


def test_a_failure_with_no_cool_off_lets_the_next_call_probe_at_once(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    """A refused connection costs nothing to retry: open (logged once), but probe every call."""
    assert breaker.record_failure(cool_off=0) is True
    assert breaker.allow()
    assert breaker.record_failure(cool_off=0) is False
    assert breaker.allow()
    assert breaker.record_success() is True


@pytest.mark.django_db
def test_a_refusing_cache_is_tried_by_every_request_but_logged_once(
    api_key: ApiKey, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    client = client_for(api_key)
    with caplog.at_level(logging.WARNING, logger="core.ratelimit"):
        responses = [client.get("/v1/personas") for _ in range(5)]
    assert [r.status_code for r in responses] == [200] * 5
    assert all("X-RateLimit-Limit" not in r for r in responses)
    warnings = [r.getMessage() for r in caplog.records if r.name == "core.ratelimit"]
    assert len(warnings) == 1
    assert warnings[0].endswith("circuit opened, requests probe the cache until it answers")
