"""With Redis, the per-key limit holds across several app processes (docs/api.md, Rate limits)."""

from __future__ import annotations

import httpx
import pytest
import redis

from accounts.models import ApiKey, User
from tests.factories import ApiKeyFactory, raw_key
from tests.servers import inside_fresh_wall_clock_window, running_nova

pytestmark = [
    pytest.mark.usefixtures("fresh_wall_clock_window"),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.slow,
]

REDIS_FOR_TEST = "redis://127.0.0.1:6379/14"


def test_rate_limit_is_shared_by_two_processes_on_redis(user: User) -> None:
    redis.Redis.from_url(REDIS_FOR_TEST).flushdb()
    key: ApiKey = ApiKeyFactory.create(user=user, rpm_limit=5)
    headers = {"Authorization": f"Bearer {raw_key(key)}"}
    env = {"REDIS_URL": REDIS_FOR_TEST}
    with running_nova(env) as first, running_nova(env) as second:
        inside_fresh_wall_clock_window()  # the servers are up: the counting starts now
        responses = [
            httpx.get(f"{(first, second)[i % 2]}/v1/personas", headers=headers, timeout=10)
            for i in range(7)
        ]
    assert [r.status_code for r in responses] == [200] * 5 + [429, 429]
    assert [r.headers["X-RateLimit-Remaining"] for r in responses[:5]] == ["4", "3", "2", "1", "0"]
    assert int(responses[5].headers["Retry-After"]) >= 1
    assert responses[6].json()["error"]["type"] == "rate_limit_error"
