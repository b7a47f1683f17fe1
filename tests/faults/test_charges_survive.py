"""Money under attack, against live daphne processes on loopback:
streams whose clients leave are charged exactly once, a database outage at charge time loses no
charge, overdraft is bounded under 200 concurrent chats, and persona visibility never waits on
a cache write."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import httpx
import pytest
import redis
from django.core.management import call_command

from accounts.models import ApiKey, User
from billing.models import Hold, LedgerEntry, UsageRecord
from billing.money import usage_cost
from billing.selectors import get_balance
from billing.services import top_up
from llm.catalog import get_catalog
from personas.models import TrainingDataItem
from personas.services import delete_training_item, update_persona
from tests.chat.helpers import make_persona
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream
from tests.faults.helpers import assert_books_balance
from tests.faults.tcp_proxy import tcp_proxy
from tests.servers import free_port, running_nova, start_redis_server
from tests.servers import test_database_url as database_url_of_this_run

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.slow]

CHAT = "/v1/chat/completions"
REPLY = "one two three four five six seven eight nine ten eleven twelve"
# Generous limits for the servers under test: these tests are about money, not rate limits.
SERVER_ENV = {"MAX_KEY_RPM": "100000"}


def _env(catalog: Path, **extra: str) -> dict[str, str]:
    return {**SERVER_ENV, "MODELS_FILE": str(catalog), **extra}


def _wait_until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _books_exact(user: User, funded: Decimal) -> None:
    spent = sum(UsageRecord.objects.filter(user=user).values_list("cost", flat=True), Decimal(0))
    assert_books_balance(user, spent=spent, funded=funded)


# --- Item 1: streams whose clients leave ---


async def _stream_and_leave(
    session: aiohttp.ClientSession, url: str, key: str, *, after_chunks: int | None
) -> bool:
    """Read a stream and drop the connection: right after the last token of REPLY, or after
    ``after_chunks`` content chunks. True when it got that far."""
    body = {"model": "fake-gpt", "stream": True, "messages": [{"role": "user", "content": "go"}]}
    response = await session.post(url, json=body, headers={"Authorization": f"Bearer {key}"})
    assert response.status == 200, await response.text()
    text, chunks = "", 0
    try:
        async for line in response.content:
            if not line.startswith(b"data: {"):
                continue
            delta = json.loads(line[6:])["choices"][0]["delta"]
            if delta.get("content"):
                text += delta["content"]
                chunks += 1
            if (after_chunks is not None and chunks == after_chunks) or text == REPLY:
                return True
    finally:
        response.close()  # the connection goes with it: daphne sees the client leave
    return False


async def _run_streams(url: str, key: str, *, count: int, concurrency: int, **kw: Any) -> int:
    gate = asyncio.Semaphore(concurrency)
    connector = aiohttp.TCPConnector(limit=concurrency, force_close=True)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=60)
    ) as session:

        async def one() -> bool:
            async with gate:
                return await _stream_and_leave(session, url, key, **kw)

        results = await asyncio.gather(*(one() for _ in range(count)))
    return sum(results)


def test_streams_whose_clients_leave_are_each_charged_exactly_once(
    fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    user = UserFactory.create(username="leaver")
    top_up(user=user, amount="10")
    key = ApiKeyFactory.create(user=user, rpm_limit=100_000)
    fake_upstream.script(reply=REPLY, usage=(12, 14), stream_chunk_chars=4, chunk_delay=0.002)
    with running_nova(_env(upstream_catalog)) as base:
        url = base + CHAT
        raw = raw_key(key)
        at_end = asyncio.run(_run_streams(url, raw, count=200, concurrency=50, after_chunks=None))
        early = asyncio.run(_run_streams(url, raw, count=200, concurrency=50, after_chunks=3))
        assert (at_end, early) == (200, 200)
        # Every stream is recorded, even those whose client left before the charge ran.
        _wait_until(
            lambda: (
                UsageRecord.objects.filter(user=user).count() >= 400
                and not Hold.objects.filter(user=user).exists()
            ),
            timeout=60,
            what="400 charges",
        )
    usages = UsageRecord.objects.filter(user=user)
    assert usages.count() == 400  # once each: never twice, never missed
    assert LedgerEntry.objects.filter(user=user, kind="charge").count() == 400
    assert all(tokens >= 1 for tokens in usages.values_list("completion_tokens", flat=True))
    _books_exact(user, Decimal("10"))


def _database_url_through(port: int) -> str:
    parts = urlsplit(database_url_of_this_run())
    credentials = parts.netloc.rsplit("@", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{credentials}@127.0.0.1:{port}"))


def _stream_in_background(url: str, key: str, first_token: threading.Event) -> threading.Thread:
    def run() -> None:
        body = {
            "model": "fake-gpt",
            "stream": True,
            "messages": [{"role": "user", "content": "go"}],
        }
        try:
            with httpx.stream(
                "POST", url, json=body, headers={"Authorization": f"Bearer {key}"}, timeout=60
            ) as response:
                for line in response.iter_lines():
                    if '"content":"' in line and '"content":""' not in line:
                        first_token.set()
        except httpx.HTTPError:
            pass
        first_token.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_database_outage_at_charge_time_loses_no_charge(
    fake_upstream: FakeUpstream, upstream_catalog: Path, settings: Any, tmp_path: Path
) -> None:
    pytest.importorskip("psycopg")
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the outage is a cut TCP connection to PostgreSQL")
    user = UserFactory.create(username="outage")
    top_up(user=user, amount="10")
    key = ApiKeyFactory.create(user=user, rpm_limit=100_000, detailed_logging=True)
    raw = raw_key(key)
    pending = tmp_path / "pending"
    settings.PENDING_CHARGES_DIR = pending
    fake_upstream.script(reply=REPLY, usage=(12, 14), stream_chunk_chars=4, chunk_delay=0.08)
    db = settings.DATABASES["default"]
    with tcp_proxy((db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432))) as proxy:
        env = _env(
            upstream_catalog,
            DATABASE_URL=_database_url_through(proxy.port),
            PENDING_CHARGES_DIR=str(pending),
        )
        with running_nova(env) as base:
            # 1. PostgreSQL goes away mid-stream and comes back: the process charges by itself.
            first = threading.Event()
            thread = _stream_in_background(base + CHAT, raw, first)
            assert first.wait(10)
            proxy.cut()
            thread.join(30)
            _wait_until(lambda: any(pending.glob("hold-*.json")), 15, "a pending-charge record")
            assert UsageRecord.objects.filter(user=user).count() == 0
            proxy.restore()
            _wait_until(
                lambda: UsageRecord.objects.filter(user=user).count() == 1,
                40,
                "the retried charge",
            )
            _wait_until(lambda: not any(pending.glob("hold-*.json")), 10, "the record removed")

            # 2. Gone again, and the process stops before it comes back.
            first = threading.Event()
            thread = _stream_in_background(base + CHAT, raw, first)
            assert first.wait(10)
            proxy.cut()
            thread.join(30)
            _wait_until(lambda: any(pending.glob("hold-*.json")), 15, "a pending-charge record")
        proxy.restore()
    # At the next start: the record is charged, with its saved turn.
    assert UsageRecord.objects.filter(user=user).count() == 1
    call_command("settle_holds")
    assert UsageRecord.objects.filter(user=user).count() == 2
    assert not any(pending.glob("hold-*.json"))
    usage = UsageRecord.objects.filter(user=user).order_by("id").last()
    assert usage is not None and usage.conversation is not None
    _books_exact(user, Decimal("10"))


# --- Item 7: overdraft bounded by design ---


async def _chats(url: str, key: str, count: int, body: dict[str, Any]) -> list[int]:
    connector = aiohttp.TCPConnector(limit=count, force_close=True)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=120)
    ) as session:

        async def one() -> int:
            async with session.post(
                url, json=body, headers={"Authorization": f"Bearer {key}"}
            ) as response:
                await response.read()
                return response.status

        return list(await asyncio.gather(*(one() for _ in range(count))))


def test_overdraft_is_bounded_under_200_concurrent_chats(
    fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    user = UserFactory.create(username="overdraft")
    funded = Decimal("0.003")
    top_up(user=user, amount=funded)
    key = ApiKeyFactory.create(user=user, rpm_limit=100_000)
    # Each chat costs 24 micro-dollars; 200 of them would cost 0.0048, more than the balance.
    fake_upstream.script(reply="ok", usage=(12, 6), hang=0.05)
    body = {"model": "fake-gpt", "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}
    with running_nova(_env(upstream_catalog)) as first, running_nova(_env(upstream_catalog)):
        statuses = asyncio.run(_chats(first + CHAT, raw_key(key), 200, body))
    assert set(statuses) <= {200, 402}, statuses
    assert statuses.count(200) >= 1 and statuses.count(402) >= 1
    model = get_catalog().get("fake-gpt")
    assert model is not None
    # The bound (README, Billing): a balance ends at worst one request's hold below zero; a
    # request's hold is its prompt plus max_tokens at the model's prices.
    prompt_bound = 50  # Nova counts a handful of tokens for this prompt; 50 is well above
    bound = usage_cost(model, prompt_bound, 50)
    assert get_balance(user) >= -bound, (get_balance(user), bound)
    assert UsageRecord.objects.filter(user=user).count() == statuses.count(200)
    _books_exact(user, funded)


# --- Item 2: persona visibility never waits on the cache ---


@pytest.fixture
def own_redis() -> Iterator[str]:
    port = free_port()
    proc = start_redis_server(port)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


def _persona_reply(base: str, key: ApiKey, persona_id: int, text: str) -> httpx.Response:
    return httpx.post(
        base + "/v1/agents/chat/completions",
        json={"persona_id": persona_id, "messages": [{"role": "user", "content": text}]},
        headers={"Authorization": f"Bearer {raw_key(key)}"},
        timeout=30,
    )


def test_private_persona_and_deleted_training_data_are_never_served_from_a_stale_cache(
    own_redis: str, upstream_catalog: Path
) -> None:
    owner = UserFactory.create(username="owner")
    stranger = UserFactory.create(username="stranger")
    top_up(user=stranger, amount="5")
    key = ApiKeyFactory.create(user=stranger, rpm_limit=100_000)
    persona = make_persona(
        owner,
        model="nova-local",
        public=True,
        items=[("knowledge", "The vault code is PELICAN-42.", {})],
    )
    question = "What is the vault code?"
    env = _env(upstream_catalog, REDIS_URL=own_redis)
    with running_nova(env) as first, running_nova(env) as second:
        for base in (first, second):  # cached by both processes
            response = _persona_reply(base, key, persona.pk, question)
            assert response.status_code == 200
            assert "PELICAN-42" in response.json()["choices"][0]["message"]["content"]
        # Redis stalls (it answers nothing for 15 s) while the owner changes the persona.
        redis.Redis.from_url(own_redis).execute_command("CLIENT", "PAUSE", "15000", "ALL")
        stalled_until = time.monotonic() + 15
        delete_training_item(item=TrainingDataItem.objects.get(persona=persona))
        for base in (first, second):
            response = _persona_reply(base, key, persona.pk, question)
            assert response.status_code == 200
            assert "PELICAN-42" not in response.json()["choices"][0]["message"]["content"]
        update_persona(persona=persona, is_public=False)
        for base in (first, second):
            response = _persona_reply(base, key, persona.pk, "hello")
            assert response.status_code == 404, response.text
            assert response.json()["error"]["type"] == "not_found_error"
        assert time.monotonic() < stalled_until  # all of it while Redis was stalled


# --- Item 4: one huge prompt neither freezes a process nor gets charged ---


def test_a_huge_prompt_is_refused_quickly_and_the_process_stays_responsive(
    upstream_catalog: Path,
) -> None:
    user = UserFactory.create(username="huge")
    top_up(user=user, amount="5")
    key = ApiKeyFactory.create(user=user, rpm_limit=100_000)
    words = "lorem ipsum dolor sit amet " * 700_000  # 18.9 MB, about 3.5 M tokens
    with running_nova(_env(upstream_catalog)) as base:
        slowest = 0.0
        done = threading.Event()

        def probe() -> None:
            nonlocal slowest
            while not done.is_set():
                started = time.monotonic()
                assert httpx.get(base + "/healthz", timeout=30).status_code == 200
                slowest = max(slowest, time.monotonic() - started)
                time.sleep(0.05)

        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
        started = time.monotonic()
        response = httpx.post(
            base + CHAT,
            json={"model": "nova-local", "messages": [{"role": "user", "content": words}]},
            headers={"Authorization": f"Bearer {raw_key(key)}"},
            timeout=60,
        )
        took = time.monotonic() - started
        done.set()
        prober.join(35)
    assert response.status_code == 400, response.text[:300]
    error = response.json()["error"]
    assert (error["code"], error["param"]) == ("context_length_exceeded", "messages")
    assert took < 10, took  # it was 26.6 s, tokenizing the whole text
    assert slowest < 2, slowest  # /healthz stalled for 21 s
    assert not UsageRecord.objects.filter(user=user).exists()
    assert get_balance(user) == Decimal("5")
