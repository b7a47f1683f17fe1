"""Faults against real daphne processes: a failing provider, Redis stopped, PostgreSQL
unreachable. The shared PostgreSQL and Redis are never touched: Redis faults use a throwaway
redis-server of this test's own, database faults a DATABASE_URL where nothing listens.
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from accounts.models import ApiKey, User
from billing.models import UsageRecord
from billing.money import usage_cost
from conversations.models import Conversation
from core.text import count_tokens
from llm.catalog import get_catalog
from tests.factories import ApiKeyFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.faults.helpers import (
    assert_books_balance,
    assert_conversations_whole,
    conversation_roles,
    live_sse,
)
from tests.servers import free_port, running_nova, start_redis_server

CHAT = "/v1/agents/chat/completions"
REPLY = "aaaa bbbb cccc dddd eeee"


def _cost(prompt: int, completion: int) -> Decimal:
    return usage_cost(get_catalog()["fake-gpt"], prompt, completion)


def _body(**extra: Any) -> dict[str, Any]:
    return {
        "persona_id": 1,
        "model": "fake-gpt",
        "messages": [{"role": "user", "content": "tell me something"}],
        **extra,
    }


@pytest.fixture
def key(funded_user: User) -> ApiKey:
    return ApiKeyFactory.create(user=funded_user, detailed_logging=True, rpm_limit=1000)


def _auth(key: ApiKey) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw_key(key)}"}


# --- A failing model provider, through a real process ---


@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_live_upstream_faults_never_charge_wrongly_or_half_write(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    raw = raw_key(key)
    with running_nova({"MODELS_FILE": str(upstream_catalog)}) as base:
        url = base + CHAT
        # 500: a 502 envelope, nothing charged, nothing saved.
        fake_upstream.script(status=500)
        response = httpx.post(url, json=_body(), headers=_auth(key), timeout=30)
        assert response.status_code == 502
        assert response.headers["content-type"] == "application/json"
        assert response.json()["error"]["type"] == "upstream_error"
        # Hangs past the 2 s read timeout: 504, nothing charged.
        fake_upstream.script(hang=5)
        started = time.monotonic()
        response = httpx.post(url, json=_body(), headers=_auth(key), timeout=30)
        assert response.status_code == 504
        assert response.json()["error"]["code"] == "upstream_timeout"
        assert time.monotonic() - started < 4.5
        # The same failures on a stream, before the first token: plain JSON, not a 200 stream
        # (errors found before the first event are not stream events), and nothing charged.
        scripts: list[tuple[dict[str, Any], int]] = [
            ({"status": 500}, 502),
            ({"hang": 5}, 504),
            ({"reply": REPLY, "reset_after_chunks": 0}, 502),
            ({"reply": REPLY, "garbage_after_chunks": 0}, 502),
        ]
        for script, status in scripts:
            fake_upstream.script(**script)
            response = httpx.post(url, json=_body(stream=True), headers=_auth(key), timeout=30)
            assert response.status_code == status, (script, response.text)
            assert response.headers["content-type"] == "application/json"
            assert response.json()["error"]["type"] == "upstream_error"
        assert not UsageRecord.objects.exists() and not Conversation.objects.exists()
        assert_books_balance(funded_user, spent=Decimal(0))

        # Reset mid-stream: an error event, then [DONE]; the partial reply is saved with its
        # question and charged for exactly what was streamed.
        fake_upstream.script(reply=REPLY, stream_chunk_chars=5, reset_after_chunks=2)
        events = live_sse(url, raw, _body())
        assert events[-1] == "[DONE]"
        assert events[-2]["error"]["type"] == "upstream_error"
        text = "".join(e["choices"][0]["delta"].get("content", "") for e in events[:-2])
        assert text == "aaaa bbbb "
        partial = UsageRecord.objects.get()
        assert partial.completion_tokens == count_tokens(text)
        assert partial.cost == _cost(partial.prompt_tokens, partial.completion_tokens)
        assert partial.conversation_id is not None
        assert conversation_roles(partial.conversation_id) == ["system", "user", "assistant"]
        spent = partial.cost

        # Garbage in the stream: an in-stream upstream_error; again only the partial reply.
        fake_upstream.script(reply=REPLY, stream_chunk_chars=5, garbage_after_chunks=1)
        events = live_sse(url, raw, _body())
        assert events[-2]["error"]["type"] == "upstream_error"
        garbled = UsageRecord.objects.order_by("id").last()
        assert garbled is not None and garbled.completion_tokens == count_tokens("aaaa ")
        spent += garbled.cost

        # Slow but within the timeout (each gap 0.5 s, 3 s in all): served whole, charged
        # the upstream's usage exactly.
        fake_upstream.script(reply=REPLY, stream_chunk_chars=5, chunk_delay=0.5, usage=(30, 7))
        events = live_sse(url, raw, _body(stream_options={"include_usage": True}))
        assert events[-1] == "[DONE]"
        assert events[-2]["usage"]["total_tokens"] == 37
        spent += _cost(30, 7)

    assert UsageRecord.objects.count() == 3
    assert Conversation.objects.count() == 3
    assert_books_balance(funded_user, spent=spent)
    assert_conversations_whole(funded_user)


# --- Redis stopped ---


@pytest.fixture
def own_redis() -> Iterator[tuple[int, list[subprocess.Popen[bytes]]]]:
    """A throwaway redis-server on a free port; the list holds its current process."""
    port = free_port()
    procs = [start_redis_server(port)]
    try:
        yield port, procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)


@pytest.mark.usefixtures("fresh_wall_clock_window")
@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_redis_stopped_keeps_the_api_serving_with_rate_limits_degraded(
    funded_user: User,
    fake_upstream: FakeUpstream,
    upstream_catalog: Path,
    own_redis: tuple[int, list[subprocess.Popen[bytes]]],
) -> None:
    port, procs = own_redis
    key: ApiKey = ApiKeyFactory.create(user=funded_user, detailed_logging=True, rpm_limit=3)
    env = {"REDIS_URL": f"redis://127.0.0.1:{port}/0", "MODELS_FILE": str(upstream_catalog)}
    fake_upstream.script(reply="still here", usage=(10, 5))
    with running_nova(env) as base, httpx.Client(base_url=base, timeout=30) as client:
        first = client.get("/v1/personas", headers=_auth(key))
        assert first.status_code == 200
        assert first.headers["X-RateLimit-Remaining"] == "2"
        assert client.get("/readyz").status_code == 200

        procs[0].kill()
        procs[0].wait(timeout=10)

        # More requests than the limit of 3 allows: all served, without rate-limit headers
        # (there is no count to report), and quickly (connection refused, no long timeouts).
        started = time.monotonic()
        responses = [client.get("/v1/personas", headers=_auth(key)) for _ in range(4)]
        assert [r.status_code for r in responses] == [200] * 4
        assert all("X-RateLimit-Remaining" not in r.headers for r in responses)
        assert time.monotonic() - started < 8
        chat = client.post(CHAT, json=_body(), headers=_auth(key))
        assert chat.status_code == 200, chat.text
        assert chat.json()["choices"][0]["message"]["content"] == "still here"
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json() == {
            "status": "unavailable",
            "checks": {"database": "ok", "cache": "unavailable"},
        }

        # Redis comes back on the same port: ready again, and counting again.
        procs.append(start_redis_server(port))
        deadline = time.monotonic() + 10
        while client.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, "never ready again after Redis came back"
            time.sleep(0.2)
        again = client.get("/v1/personas", headers=_auth(key))
        assert again.status_code == 200
        assert "X-RateLimit-Remaining" in again.headers

    assert_books_balance(funded_user, spent=_cost(10, 5))
    assert_conversations_whole(funded_user)


@pytest.mark.django_db
def test_cache_outage_is_logged_and_the_request_served(
    api_key: ApiKey, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The degraded rate limit is logged (in-process, where the log can be read)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    from tests.conftest import client_for

    with caplog.at_level(logging.WARNING, logger="core.ratelimit"):
        response = client_for(api_key).get("/v1/personas")
    assert response.status_code == 200
    assert "X-RateLimit-Limit" not in response
    assert any(
        r.name == "core.ratelimit" and "rate limiting degraded" in r.getMessage()
        for r in caplog.records
    )


# --- PostgreSQL (or the database file) unreachable ---

DEAD_DATABASES = {
    "postgresql": "postgres://postgres@127.0.0.1:1/nova",  # nothing listens on port 1
    "sqlite": "sqlite:////nonexistent-nova-dir/nova.sqlite3",
}
FAKE_KEY = "sk-" + "a" * 43
API_REQUESTS = [
    ("GET", "/v1/personas", None),
    ("GET", "/api/v1/personas/1/", None),
    ("GET", "/v1/personas/1/training-data", None),
    ("GET", "/v1/models", None),
    ("POST", CHAT, _body()),
    ("POST", "/v1/chat/completions", _body(stream=True)),
    ("POST", "/v1/moderations", {"input": "hello"}),
    ("POST", "/v1/moderation", {"content": "hello"}),
    ("GET", "/nova-api/v1/conversations", None),
    ("GET", "/api/nova-api/v1/conversations/conv_1", None),
]


@pytest.mark.slow
@pytest.mark.parametrize("database", sorted(DEAD_DATABASES))
def test_database_unreachable_is_a_json_503_on_every_api_path(database: str) -> None:
    env = {"DATABASE_URL": DEAD_DATABASES[database]}
    with running_nova(env) as base, httpx.Client(base_url=base, timeout=30) as client:
        for method, path, body in API_REQUESTS:
            response = client.request(
                method, path, json=body, headers={"Authorization": f"Bearer {FAKE_KEY}"}
            )
            assert response.status_code == 503, (path, response.status_code, response.text)
            assert response.headers["content-type"] == "application/json", path
            assert response.json() == {
                "error": {
                    "message": "The database is unavailable: try again shortly.",
                    "type": "server_error",
                    "param": None,
                    "code": "service_unavailable",
                }
            }
        # What needs no database still answers as usual.
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/v1/personas").status_code == 401  # no key: no query needed
        unknown = client.get("/v1/no-such-route")
        assert unknown.status_code == 404 and unknown.json()["error"]["type"] == "not_found_error"
        assert client.get("/api/schema/").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"]["database"] == "unavailable"
