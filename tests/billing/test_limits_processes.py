"""A key limit under 50 concurrent chats served by two processes: the overshoot is bounded by
the requests in flight, and the books stay exact (docs/billing.md, "Spend limits")."""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from accounts.limits import set_key_limit
from accounts.models import ApiKey, User
from billing.models import UsageRecord
from billing.money import usage_cost
from llm.catalog import get_catalog
from tests.factories import ApiKeyFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.faults.helpers import assert_books_balance
from tests.servers import running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

CHATS = 50
WORKERS = 10  # at most this many requests are in flight at any moment
COST_LIMIT_REQUESTS = 12  # the limit is this many requests' cost, less a little


def test_a_key_limit_across_two_processes_overshoots_by_at_most_the_requests_in_flight(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    key: ApiKey = ApiKeyFactory.create(user=funded_user, rpm_limit=10_000)
    cost = usage_cost(get_catalog()["fake-gpt"], 12, 6)
    limit = cost * COST_LIMIT_REQUESTS - Decimal("0.00000001")
    set_key_limit(key=key, limit=limit, limit_reset="daily")
    # Slow enough that requests overlap, so several are in flight when the limit is crossed.
    fake_upstream.script(reply="ok", usage=(12, 6), hang=0.05)
    env = {"MODELS_FILE": str(upstream_catalog), "REDIS_URL": os.environ.get("REDIS_URL", "")}
    headers = {"Authorization": f"Bearer {raw_key(key)}"}
    body = {"model": "fake-gpt", "messages": [{"role": "user", "content": "hi"}]}

    with running_nova(env) as first, running_nova(env) as second:

        def chat(i: int) -> httpx.Response:
            base = (first, second)[i % 2]
            return httpx.post(f"{base}/v1/chat/completions", json=body, headers=headers, timeout=60)

        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            responses = list(pool.map(chat, range(CHATS)))
        key_info = httpx.get(f"{first}/v1/key", headers=headers, timeout=10).json()["data"]

    statuses = [r.status_code for r in responses]
    assert set(statuses) == {200, 402}, statuses
    for refused in (r for r in responses if r.status_code == 402):
        assert refused.json()["error"]["code"] == "key_limit_exceeded"
    served = statuses.count(200)
    needed = math.ceil(limit / cost)  # the request that crosses the limit is served
    assert served == UsageRecord.objects.filter(api_key=key).count()
    # Never refused early; and past the crossing request, only the ones already in flight
    # (at most WORKERS - 1 others) were served.
    assert needed <= served <= needed + WORKERS - 1, (needed, served)
    spent = cost * served
    assert spent - limit < cost * WORKERS
    assert_books_balance(funded_user, spent=spent)
    # GET /v1/key agrees with the ledger, exactly.
    assert Decimal(key_info["usage"]) == spent
    assert Decimal(key_info["usage_daily"]) == spent
    assert key_info["limit_remaining"] == "0.00000000"
