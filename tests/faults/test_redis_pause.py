"""A hung Redis (``CLIENT PAUSE``) must not slow the API down.

A live daphne on a redis-server of this test's own (the shared Redis is never paused) serves
chat and personas while Redis is paused for 5 s: requests stay fast (one short socket timeout,
then the circuit breaker makes them skip Redis), nothing fails, the outage is logged once, and
rate limiting works again after the pause.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from accounts.models import ApiKey, User
from billing.services import top_up
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.servers import daphne_pid, free_port, running_nova, start_redis_server

CHAT = "/v1/chat/completions"
PAUSE_MS = 5000
OPENED = "rate limiting degraded: cache unreachable"
CLOSED = "rate limiting restored: cache reachable again"


@pytest.fixture
def redis_port() -> Iterator[int]:
    port = free_port()
    proc = start_redis_server(port)
    try:
        yield port
    finally:
        proc.kill()
        proc.wait(timeout=10)


def _server_log(port: int) -> str:
    """The daphne's stderr: tests.servers keeps it in an unnamed temporary file, still open as
    the process's file descriptor 2."""
    return Path(f"/proc/{daphne_pid(port)}/fd/2").read_text(errors="replace")


def _auth(key: ApiKey) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw_key(key)}"}


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


@pytest.mark.usefixtures("fresh_wall_clock_window")
@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_paused_redis_keeps_chat_and_personas_fast_and_logs_the_outage_once(
    redis_port: int,
) -> None:
    user: User = UserFactory.create(username="loader")
    top_up(user=user, amount=Decimal("10"), note="load")
    # One key per load thread, each well under its limit: the load itself is never a 429.
    keys = [ApiKeyFactory.create(user=user, rpm_limit=600) for _ in range(6)]
    limited = ApiKeyFactory.create(user=user, rpm_limit=3)
    nova_port = free_port()
    env = {"REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "LOG_LEVEL": "WARNING"}
    chat_body = {"model": "nova-local", "messages": [{"role": "user", "content": "hello"}]}
    samples: list[tuple[float, float, int, str]] = []  # started, seconds, status, path
    stop = threading.Event()

    def load(index: int) -> None:
        key = keys[index]
        request = ("POST", CHAT, chat_body) if index % 2 else ("GET", "/v1/personas", None)
        with httpx.Client(base_url=base, headers=_auth(key), timeout=30) as client:
            while not stop.is_set():
                method, path, body = request
                started = time.monotonic()
                response = client.request(method, path, json=body)
                samples.append((started, time.monotonic() - started, response.status_code, path))
                time.sleep(0.1)

    with running_nova(env, port=nova_port) as base, httpx.Client(base_url=base) as client:
        warm = client.get("/v1/personas", headers=_auth(keys[0]))
        assert warm.status_code == 200 and "X-RateLimit-Limit" in warm.headers
        threads = [threading.Thread(target=load, args=(i,)) for i in range(len(keys))]
        for thread in threads:
            thread.start()
        try:
            time.sleep(1)
            redis.Redis(port=redis_port).execute_command("CLIENT", "PAUSE", PAUSE_MS, "ALL")
            paused_at = time.monotonic()
            time.sleep(PAUSE_MS / 1000 + 1)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=60)

        # Rate limiting is back once the breaker's probe succeeds (at most a cool-off after
        # the pause): counted again, and a 429 past the limit.
        deadline = time.monotonic() + 15
        while "X-RateLimit-Limit" not in client.get("/v1/personas", headers=_auth(keys[0])).headers:
            assert time.monotonic() < deadline, "rate limiting never came back"
            time.sleep(0.2)
        statuses = [
            client.get("/v1/personas", headers=_auth(limited)).status_code for _ in range(4)
        ]
        assert statuses == [200, 200, 200, 429]
        log = _server_log(nova_port)

    during = [s for s in samples if paused_at <= s[0] < paused_at + PAUSE_MS / 1000]
    p99 = _p99([s[1] for s in during])
    assert p99 < 1.0, f"p99 {p99:.3f} s during the pause"
    errors = [s for s in samples if s[2] >= 500 or s[2] == 429]
    assert not errors, errors[:5]
    # Both kinds of request were served all along (six threads, one request each per ~0.1 s).
    assert {s[3] for s in during} == {CHAT, "/v1/personas"}
    assert len(during) >= 100, len(during)
    opened = [line for line in log.splitlines() if OPENED in line]
    closed = [line for line in log.splitlines() if CLOSED in line]
    assert len(opened) == 1, opened
    assert "circuit opened" in opened[0]
    assert len(closed) == 1, closed
    _report(during, p99)


def _report(during: list[tuple[float, float, int, str]], p99: float) -> None:
    latencies: dict[str, Any] = {}
    for path in (CHAT, "/v1/personas"):
        values = [s[1] for s in during if s[3] == path]
        latencies[path] = (len(values), round(max(values), 3))
    print(f"during the pause: p99 {p99:.3f} s; (requests, max s) by path: {latencies}")
