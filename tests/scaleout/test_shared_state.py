"""Several app processes share every piece of state through PostgreSQL and Redis, exactly.
(Rate limits across processes: test_rate_limit_processes.py.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from django.conf import settings

from accounts.models import ApiKey, User
from billing.models import UsageRecord
from billing.money import usage_cost
from conversations.models import Message
from llm.catalog import get_catalog
from tests import servers
from tests.chat.helpers import sse_events
from tests.factories import ApiKeyFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.faults.helpers import assert_books_balance, assert_conversations_whole
from tests.servers import ROOT, free_port, running_nova

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

REDIS_FOR_TEST = "redis://127.0.0.1:6379/13"
CHAT = "/v1/agents/chat/completions"


@pytest.fixture
def key(funded_user: User) -> ApiKey:
    redis.Redis.from_url(REDIS_FOR_TEST).flushdb()
    return ApiKeyFactory.create(user=funded_user, detailed_logging=True, rpm_limit=10_000)


def _cost(prompt: int, completion: int) -> Decimal:
    return usage_cost(get_catalog()["fake-gpt"], prompt, completion)


def _chat(base: str, key: ApiKey, content: str, **extra: Any) -> httpx.Response:
    body = {
        "persona_id": 1,
        "model": "fake-gpt",
        "messages": [{"role": "user", "content": content}],
    }
    return httpx.post(
        base + CHAT,
        json={**body, **extra},
        headers={"Authorization": f"Bearer {raw_key(key)}"},
        timeout=60,
    )


def test_balance_and_conversations_are_shared_by_two_processes(
    key: ApiKey, funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    env = {"REDIS_URL": REDIS_FOR_TEST, "MODELS_FILE": str(upstream_catalog)}
    fake_upstream.script(reply="shared answer", usage=(12, 6))
    with running_nova(env) as first, running_nova(env) as second:
        # Balance: 16 chats at once, alternating processes, each charging the same balance.
        with ThreadPoolExecutor(max_workers=8) as pool:
            responses = list(
                pool.map(lambda i: _chat((first, second)[i % 2], key, f"q{i}"), range(16))
            )
        assert [r.status_code for r in responses] == [200] * 16
        assert UsageRecord.objects.count() == 16
        spent = 16 * _cost(12, 6)
        assert_books_balance(funded_user, spent=spent)

        # Conversation: started on A, continued on B (streamed), then on A again.
        fake_upstream.script(reply="turn one", usage=(12, 6))
        started = _chat(first, key, "first question").json()
        conversation_id = started["conversation_id"]
        fake_upstream.script(reply="turn two", usage=(12, 6))
        streamed = _chat(
            second, key, "second question", conversation_id=conversation_id, stream=True
        )
        events = sse_events(streamed.text)
        assert events[-1] == "[DONE]" and events[-2]["conversation_id"] == conversation_id
        fake_upstream.script(reply="turn three", usage=(12, 6))
        third = _chat(first, key, "third question", conversation_id=conversation_id).json()
        assert third["conversation_id"] == conversation_id
        # Process A sent the model every turn B stored, in order.
        sent = [(m["role"], m["content"]) for m in fake_upstream.bodies[-1]["messages"][1:]]
        assert sent == [
            ("user", "first question"),
            ("assistant", "turn one"),
            ("user", "second question"),
            ("assistant", "turn two"),
            ("user", "third question"),
        ]
        spent += 3 * _cost(12, 6)

    stored = list(
        Message.objects.filter(conversation_id=conversation_id)
        .order_by("id")
        .values_list("role", "content")
    )
    assert stored[0][0] == "system"
    assert stored[1:] == [*sent, ("assistant", "turn three")]
    assert_books_balance(funded_user, spent=spent)
    assert_conversations_whole(funded_user)


@pytest.fixture
def cluster(upstream_catalog: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """scripts/cluster.py with two processes on one port, on the test database."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": servers.test_database_url(),
        "REDIS_URL": REDIS_FOR_TEST,
        "MODELS_FILE": str(upstream_catalog),
        "DEBUG": "true",
        "SECRET_KEY": str(settings.SECRET_KEY),
        "API_KEY_HASH_SECRET": str(settings.API_KEY_HASH_SECRET),
    }
    proc = subprocess.Popen(
        [sys.executable, "scripts/cluster.py", "2", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # Two processes import the whole service; on a loaded two-core machine (the suite's own
        # workers beside them) that took over 30 s once.
        deadline = time.monotonic() + 90
        while len(_children(proc.pid)) < 2 or not _healthy(base):
            assert proc.poll() is None, "cluster.py exited"
            assert time.monotonic() < deadline, "cluster did not start within 90 s"
            time.sleep(0.1)
        yield base, proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def test_cluster_script_serves_two_processes_on_one_port_with_exact_books(
    cluster: tuple[str, subprocess.Popen[bytes]],
    key: ApiKey,
    funded_user: User,
    fake_upstream: FakeUpstream,
) -> None:
    base, proc = cluster
    fake_upstream.script(reply="clustered", usage=(20, 4))
    children = _children(proc.pid)
    assert len(children) == 2
    # Hold many connections open at once: the kernel hands them to both processes.
    before = [_sockets(pid) for pid in children]
    clients = [httpx.Client(base_url=base, timeout=60) for _ in range(16)]
    try:
        for client in clients:
            assert client.get("/healthz").status_code == 200
        after = [_sockets(pid) for pid in children]
        assert all(a > b for a, b in zip(after, before, strict=True)), (before, after)
        assert sum(after) - sum(before) == 16
        auth = {"Authorization": f"Bearer {raw_key(key)}"}
        body = {
            "persona_id": 1,
            "model": "fake-gpt",
            "messages": [{"role": "user", "content": "x"}],
        }
        with ThreadPoolExecutor(max_workers=16) as pool:
            responses = list(pool.map(lambda c: c.post(CHAT, json=body, headers=auth), clients))
        assert [r.status_code for r in responses] == [200] * 16
    finally:
        for client in clients:
            client.close()
    assert_books_balance(funded_user, spent=16 * _cost(20, 4))

    # One process dies: the port keeps answering, and the script starts a replacement.
    os.kill(children[0], signal.SIGKILL)
    assert _chat(base, key, "still there?").status_code == 200
    deadline = time.monotonic() + 15
    while len(_children(proc.pid)) < 2 or children[0] in _children(proc.pid):
        assert time.monotonic() < deadline, "no replacement process"
        time.sleep(0.1)
    assert_books_balance(funded_user, spent=17 * _cost(20, 4))


def _sockets(pid: int) -> int:
    """How many sockets a process holds (compared before and after clients connect)."""
    links = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            links.append(os.readlink(fd))
        except OSError:
            continue
    return sum(1 for link in links if link.startswith("socket:"))
