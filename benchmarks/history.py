"""Conversation history benchmark: list and detail latency over a large history.

    .venv/bin/python benchmarks/history.py                 # fill once (reused later), measure
    .venv/bin/python benchmarks/history.py --refill        # drop the data and fill again
    .venv/bin/python benchmarks/history.py --requests 500  # more requests per case

It sets Django up itself against ``DATABASE_URL`` (default
postgres://postgres@127.0.0.1:5432/nova_bench_history, created when missing), migrates, and
fills 100,000 conversations: one user holds 10,000 (every mode, 2,000 each), 9,000 other users
hold 10 each, and each conversation has 2 to 5 messages. On PostgreSQL the rows go in with
COPY (about half a minute on 2 cores); elsewhere with bulk_create. Then it measures, through
Django's test client with a real API key (authentication, rate limiting and rendering
included, no network), the list endpoint on pages 1, 50 and 500 of the big user with and
without a mode, and the detail endpoint on random conversations of that user, and prints p50,
p95 and the queries per request.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/nova_bench_history")

import django  # noqa: E402

TOTAL_CONVERSATIONS = 100_000
BIG_USER_CONVERSATIONS = 10_000
PER_OTHER_USER = 10
BIG_USERNAME = "bench-big"
SEED = 20261122


@dataclass(frozen=True)
class Result:
    name: str
    path: str
    samples: list[float]
    queries: int
    sql_ms: float  # the database's share of one request (Django's own timing of each query)
    rows: int

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.samples)
        index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
        return ordered[index]


def _ensure_database(url: str) -> None:
    """CREATE DATABASE when it is missing (PostgreSQL only)."""
    import environ
    import psycopg

    config = environ.Env.db_url_config(url)
    if "postgresql" not in config["ENGINE"]:
        return
    admin = psycopg.connect(
        dbname="postgres",
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        autocommit=True,
    )
    with admin:
        exists = admin.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [config["NAME"]]
        ).fetchone()
        if not exists:
            admin.execute(f'CREATE DATABASE "{config["NAME"]}"')


def _setup() -> None:
    _ensure_database(os.environ["DATABASE_URL"])
    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    # DEBUG off (no query log kept), 'testserver' allowed, as under pytest.
    setup_test_environment(debug=False)
    call_command("migrate", verbosity=0, interactive=False)


# --- Fill ---


def _timeline(rng: random.Random, now: datetime) -> tuple[datetime, datetime]:
    created = now - timedelta(seconds=rng.randrange(1, 365 * 24 * 3600))
    updated = created + timedelta(seconds=rng.randrange(0, 3 * 24 * 3600))
    return created, min(updated, now)


MODES = ("chat", "agents", "personal", "api", "api_agents")
TEXT = (
    "Here is a longer answer with some **Markdown**, a list:\n\n- one\n- two\n\n"
    "and a code block:\n\n```python\nprint('hello')\n```\n"
)


def _rows(owners: list[int], rng: random.Random) -> Iterator[tuple[Any, ...]]:
    """(conversation row, its messages) for every owner id in ``owners``, in id order."""
    now = datetime.now(UTC)
    for index, owner in enumerate(owners):
        created, updated = _timeline(rng, now)
        mode = MODES[index % len(MODES)]
        title = f"Conversation {index} about topic {rng.randrange(1000)}"
        count = rng.randint(2, 5)
        messages = []
        step = (updated - created) / count
        roles = (["system"] if mode in ("agents", "personal", "api_agents") else []) + [
            "user",
            "assistant",
            "user",
            "assistant",
        ]
        for position in range(count):
            role = roles[position % len(roles)]
            content = TEXT if role == "assistant" else f"Question {position} of {index}?"
            model = "nova-local" if role == "assistant" else ""
            messages.append((role, content, model, created + step * position))
        yield (owner, mode, title, created, updated, messages)


def _owners(big_user: int, others: list[int]) -> list[int]:
    owners = [big_user] * BIG_USER_CONVERSATIONS
    for user_id in others:
        owners += [user_id] * PER_OTHER_USER
    random.Random(SEED).shuffle(owners)
    return owners[:TOTAL_CONVERSATIONS]


def _fill(*, refill: bool) -> None:
    from django.db import connection, transaction

    from accounts.models import User
    from conversations.models import Conversation, Message

    if refill:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(
                    f"TRUNCATE {Message._meta.db_table}, {Conversation._meta.db_table} CASCADE"
                )
            else:
                Message.objects.all().delete()
                Conversation.objects.all().delete()
        User.objects.filter(username__startswith="bench-").delete()
    existing = Conversation.objects.count()
    if existing >= TOTAL_CONVERSATIONS and User.objects.filter(username=BIG_USERNAME).exists():
        print(f"reusing {existing:,} conversations (--refill to start over)")
        return
    if existing:
        sys.exit(f"{existing:,} conversations already in the database: use --refill.")

    started = time.perf_counter()
    other_count = (TOTAL_CONVERSATIONS - BIG_USER_CONVERSATIONS) // PER_OTHER_USER
    with transaction.atomic():
        User.objects.bulk_create(
            [User(username=BIG_USERNAME, password="!")]
            + [User(username=f"bench-{n}", password="!") for n in range(other_count)],
            batch_size=5000,
        )
    big = User.objects.get(username=BIG_USERNAME).pk
    others = list(
        User.objects.filter(username__startswith="bench-")
        .exclude(pk=big)
        .values_list("pk", flat=True)
    )
    rows = _rows(_owners(big, others), random.Random(SEED))
    messages = _copy(rows) if connection.vendor == "postgresql" else _bulk_create(rows)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # What autovacuum does to a live table: statistics, and the visibility map that
            # lets a deep page walk the (user, -updated_at, -id) index without the heap.
            for model in (Conversation, Message):
                cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")
        else:
            cursor.execute("ANALYZE")
    print(
        f"filled {TOTAL_CONVERSATIONS:,} conversations and {messages:,} messages "
        f"in {time.perf_counter() - started:.1f} s"
    )


def _copy(rows: Iterator[tuple[Any, ...]]) -> int:
    """COPY with explicit ids, then move the identity sequences past them."""
    from django.db import connection, transaction

    from conversations.models import Conversation, Message

    conversations = Conversation._meta.db_table
    messages = Message._meta.db_table
    message_id = 0
    pending: list[tuple[Any, ...]] = []  # the messages wait for their conversations' COPY
    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        with raw.copy(
            f"COPY {conversations} (id, user_id, mode, title, model_id, created_at, updated_at) "
            "FROM STDIN"
        ) as copy:
            for conversation_id, (owner, mode, title, created, updated, items) in enumerate(
                rows, start=1
            ):
                copy.write_row(
                    (conversation_id, owner, mode, title, "nova-local", created, updated)
                )
                for role, content, model, at in items:
                    message_id += 1
                    pending.append((message_id, conversation_id, role, content, model, at))
        with raw.copy(
            f"COPY {messages} (id, conversation_id, role, content, model, created_at) FROM STDIN"
        ) as copy:
            for row in pending:
                copy.write_row(row)
        for table in (conversations, messages):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT MAX(id) FROM {table}))"
            )
    return message_id


def _bulk_create(rows: Iterator[tuple[Any, ...]]) -> int:
    from django.db import transaction

    from conversations.models import Conversation, Message

    count = 0
    batch: list[tuple[Conversation, list[tuple[Any, ...]]]] = []

    def flush() -> None:
        nonlocal count
        made = Conversation.objects.bulk_create([c for c, _ in batch])
        Message.objects.bulk_create(
            [
                Message(conversation=c, role=r, content=t, model=m)
                for c, (_, items) in zip(made, batch, strict=True)
                for r, t, m, _at in items
            ],
            batch_size=5000,
        )
        count += sum(len(items) for _, items in batch)
        batch.clear()

    with transaction.atomic():
        for owner, mode, title, _created, _updated, items in rows:
            batch.append(
                (Conversation(user_id=owner, mode=mode, title=title, model_id="nova-local"), items)
            )
            if len(batch) == 2000:
                flush()
        if batch:
            flush()
    return count


# --- Measure ---


def _client() -> Any:
    from django.test import Client

    from accounts.models import ApiKey, User

    user = User.objects.get(username=BIG_USERNAME)
    key = ApiKey(user=user, name="bench", rpm_limit=10_000_000)
    raw = key.set_new_key()
    key.save()
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def _measure(
    client: Any, name: str, paths: Callable[[int], str], requests: int, warmup: int
) -> Result:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for n in range(warmup):
        client.get(paths(n))
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(paths(0))
    # Counted now: captured_queries reads the connection's log, which the next request resets.
    query_count = len(queries.captured_queries)
    sql_ms = sum(float(query["time"]) for query in queries.captured_queries) * 1000
    body = response.json()
    rows = len(body["data"]) if "data" in body else len(body.get("messages", []))
    samples = []
    for n in range(requests):
        path = paths(n)
        started = time.perf_counter()
        response = client.get(path)
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (path, response.content[:200])
    return Result(name, paths(0), samples, query_count, sql_ms, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refill", action="store_true", help="drop the data and fill again")
    parser.add_argument("--requests", type=int, default=300, help="requests per case")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured requests per case")
    args = parser.parse_args()

    _setup()
    _fill(refill=args.refill)

    from conversations.models import Conversation

    client = _client()
    big_ids = list(
        Conversation.objects.filter(user__username=BIG_USERNAME).values_list("pk", flat=True)
    )
    rng = random.Random(SEED)
    detail_ids = [rng.choice(big_ids) for _ in range(args.requests + args.warmup + 1)]
    base = "/nova-api/v1/conversations"
    cases: list[tuple[str, Callable[[int], str]]] = [
        ("list page 1", lambda n: f"{base}?page=1"),
        ("list page 50", lambda n: f"{base}?page=50"),
        ("list page 500 (last)", lambda n: f"{base}?page=500"),
        ("list mode=api_agents p1", lambda n: f"{base}?mode=api_agents&page=1"),
        ("list mode=chat p50", lambda n: f"{base}?mode=chat&page=50"),
        ("list mode=api p100 (last)", lambda n: f"{base}?mode=api&page=100"),
        ("detail conv_<random>", lambda n: f"{base}/conv_{detail_ids[n]}"),
    ]
    from django.db import connection

    print(
        f"\n{connection.vendor} · {Conversation.objects.count():,} conversations · "
        f"{len(big_ids):,} for {BIG_USERNAME} · {args.requests} requests per case "
        f"after {args.warmup} warm-up · Django test client, in process\n"
    )
    header = (
        f"{'case':<28} {'rows':>5} {'queries':>8} {'sql ms':>7} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}"
    )
    print(header)
    print("-" * len(header))
    for name, paths in cases:
        result = _measure(client, name, paths, args.requests, args.warmup)
        print(
            f"{name:<28} {result.rows:>5} {result.queries:>8} {result.sql_ms:>7.2f} "
            f"{result.percentile(0.50):>8.2f} {result.percentile(0.95):>8.2f} "
            f"{statistics.fmean(result.samples):>8.2f}"
        )
    print("\nqueries: per request, authentication included (1 query; 2 when last_used_at is")
    print("refreshed, once a minute). sql ms: the database's share of one such request.")


if __name__ == "__main__":
    main()
