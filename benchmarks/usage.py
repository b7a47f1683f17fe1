"""Usage and spend-limit benchmark: the usage API over a year of a busy user, and the cost of
the limit check on the chat's hot path.

    .venv/bin/python benchmarks/usage.py                     # fill once (reused later), measure
    .venv/bin/python benchmarks/usage.py --refill            # drop the data and fill again
    .venv/bin/python benchmarks/usage.py --records 100000    # a smaller fill
    .venv/bin/python benchmarks/usage.py --requests 500      # more requests per case

It sets Django up itself against ``DATABASE_URL`` (default
postgres://postgres@127.0.0.1:5432/nova_bench_usage, created when missing; PostgreSQL only),
migrates, and gives one user ``--records`` usage records (default 1,000,000) spread evenly over
the last 365 days, on 3 keys, 4 models and 2 personas, with COPY; then the UsageDay rows those
records' charges would have written, and VACUUM ANALYZE. Then it measures:

* ``GET /v1/usage?group_by=day,model`` over 30 and 366 days (and 366 days per key), through
  Django's test client with a real key (authentication, rate limit and rendering included);
* ``billing.services.place_hold``, the chat's admission, with no limit, with a weekly key
  limit, and with a key limit and a never-resetting user limit (each call rolled back);

and prints p50/p95 and the query plans of the usage query, of the limit check, and of the
usage records' (user, created) and (key, created) ranges that the CSV export reads.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/nova_bench_usage")

import django  # noqa: E402

DEFAULT_RECORDS = 1_000_000
BIG_USERNAME = "bench-usage"
MODELS = ("nova-local", "fake-gpt", "gpt-4o-mini", "claude-haiku")
SEED = 20261125


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def _ensure_database(url: str) -> None:
    """CREATE DATABASE when it is missing."""
    import environ
    import psycopg

    config = environ.Env.db_url_config(url)
    if "postgresql" not in config["ENGINE"]:
        raise SystemExit("benchmarks/usage.py runs on PostgreSQL only (COPY, EXPLAIN)")
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

    setup_test_environment(debug=False)
    call_command("migrate", verbosity=0, interactive=False)


# --- Fill ---


def _fill(*, records: int, refill: bool) -> None:
    from django.db import connection, transaction

    from accounts.models import ApiKey, User
    from accounts.services import create_user
    from billing.models import UsageDay, UsageRecord
    from billing.services import top_up
    from personas.models import Persona

    user = User.objects.filter(username=BIG_USERNAME).first()
    if user is not None and not refill and UsageRecord.objects.filter(user=user).count() == records:
        return
    if user is not None:
        UsageDay.objects.filter(user=user).delete()
        with connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {UsageRecord._meta.db_table} WHERE user_id = %s", [user.pk]
            )
        user.delete()
    started = time.perf_counter()
    user = create_user(username=BIG_USERNAME)
    top_up(user=user, amount=Decimal("1000000"), note="benchmark")
    keys = []
    for n in range(3):
        key = ApiKey(user=user, name=f"bench {n}", rpm_limit=10_000_000)
        key.set_new_key()
        key.save()
        keys.append(key.pk)
    personas = [
        Persona.objects.create(owner=user, name=f"Bench {n}", description="d", system_prompt="p")
        for n in range(2)
    ]
    rng = random.Random(SEED)
    now = datetime.now(UTC)
    span = 365 * 24 * 3600
    table = UsageRecord._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(
            f"COPY {table} (user_id, api_key_id, model_id, persona_id, conversation_id, "
            "prompt_tokens, completion_tokens, cost, created_at) FROM STDIN"
        ) as copy:
            for n in range(records):
                prompt, completion = rng.randrange(20, 4000), rng.randrange(10, 1000)
                # Oldest first, as charges arrive: the table's order follows created_at.
                at = now - timedelta(seconds=span * (records - n) / records)
                copy.write_row(
                    (
                        user.pk,
                        rng.choice(keys),
                        rng.choice(MODELS),
                        rng.choice([None, personas[0].pk, personas[1].pk]),
                        None,
                        prompt,
                        completion,
                        Decimal(prompt * 15 + completion * 60).scaleb(-8),
                        at,
                    )
                )
        # What each of those charges added to its UsageDay row.
        cursor.execute(
            f"""
            INSERT INTO {UsageDay._meta.db_table} (user_id, day, api_key_ref, model_id,
                persona_ref, requests, prompt_tokens, completion_tokens, cost)
            SELECT user_id, (created_at AT TIME ZONE 'UTC')::date, COALESCE(api_key_id, 0),
                   model_id, COALESCE(persona_id, 0), COUNT(*), SUM(prompt_tokens),
                   SUM(completion_tokens), SUM(cost)
            FROM {table} WHERE user_id = %s
            GROUP BY 1, 2, 3, 4, 5
            """,
            [user.pk],
        )
    connection.ensure_connection()
    with connection.cursor() as cursor:
        for model in (UsageRecord, UsageDay):
            cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")
    print(f"filled {records:,} usage records in {time.perf_counter() - started:.0f} s")


# --- Measure ---


def _client() -> tuple[Any, Any]:
    from django.test import Client

    from accounts.models import ApiKey, User

    user = User.objects.get(username=BIG_USERNAME)
    key = ApiKey(user=user, name="bench client", rpm_limit=10_000_000)
    raw = key.set_new_key()
    key.save()
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}"), user


def _time(call: Callable[[], Any], requests: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(requests):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _explain(sql: str, params: Any) -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS OFF, TIMING OFF) {sql}", params)
        return [row[0] for row in cursor.fetchall()]


def _print_plan(title: str, lines: list[str]) -> None:
    print(f"\n-- {title}")
    for line in lines:
        print(f"   {line}")
    if any("Seq Scan on billing_usagerecord" in line for line in lines):
        print("   !! sequential scan on the usage records")


def _usage_cases(client: Any, user: Any, requests: int, warmup: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from billing import windows
    from billing.selectors import UsageQuery, usage_summary

    today = windows.today()
    cases = [
        ("usage day,model 30 days", 30, "day,model"),
        ("usage day,model 366 days", 366, "day,model"),
        ("usage day,key 366 days", 366, "day,key"),
    ]
    print(f"{'case':<30} {'rows':>6} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
    for name, days, group_by in cases:
        start = today - timedelta(days=days - 1)
        path = f"/v1/usage?group_by={group_by}&from={start}&to={today}"
        response = client.get(path)
        assert response.status_code == 200, response.content[:300]
        rows = len(response.json()["data"])
        samples = _time(functools.partial(client.get, path), requests, warmup)
        print(
            f"{name:<30} {rows:>6} "
            f"{_percentile(samples, 0.5):>8.2f} {_percentile(samples, 0.95):>8.2f} "
            f"{statistics.fmean(samples):>8.2f}"
        )
    # The plan of the summary query itself (the one query the selector runs).
    query = UsageQuery(start=today - timedelta(days=365), end=today, group_by=("day", "model"))
    with CaptureQueriesContext(connection) as queries:
        usage_summary(user, query)
    sql = queries.captured_queries[-1]["sql"]
    _print_plan("usage summary, day,model, 366 days", _explain(sql, None))


def _hold_cases(user: Any, requests: int, warmup: int) -> None:
    from django.db import connection, transaction

    from accounts.models import ApiKey, User
    from billing import services

    key = ApiKey.objects.filter(user=user, name="bench 0").get()

    def hold(key_limit: Decimal | None, key_reset: str, user_limit: Decimal | None) -> None:
        fresh_user = User(pk=user.pk, limit=user_limit, limit_reset="never")
        fresh_key = ApiKey(pk=key.pk, user=fresh_user, limit=key_limit, limit_reset=key_reset)
        with transaction.atomic():
            services.place_hold(
                user=fresh_user, api_key=fresh_key, model_id="nova-local", amount=Decimal("0.01")
            )
            transaction.set_rollback(True)

    big = Decimal("100000000")
    cases = [
        ("place_hold, no limit", None, "never", None),
        ("place_hold, key limit weekly", big, "weekly", None),
        ("place_hold, key monthly + user never", big, "monthly", big),
    ]
    print(f"\n{'case':<38} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
    for name, key_limit, key_reset, user_limit in cases:
        samples = _time(functools.partial(hold, key_limit, key_reset, user_limit), requests, warmup)
        print(
            f"{name:<38} {_percentile(samples, 0.5):>8.2f} {_percentile(samples, 0.95):>8.2f} "
            f"{statistics.fmean(samples):>8.2f}"
        )
    from billing.windows import today, window_start

    day = today()
    sql = services._hold_sql(key_limited=True, user_limited=True)
    params = {
        "user_id": user.pk,
        "api_key_id": key.pk,
        "model_id": "nova-local",
        "persona_id": None,
        "amount": Decimal("0.01"),
        "now": datetime.now(UTC),
        "key_limit": big,
        "key_from": window_start("monthly", day),
        "user_limit": big,
        "user_from": window_start("never", day),
    }
    with transaction.atomic():
        lines = _explain(sql, params)
        transaction.set_rollback(True)
    _print_plan("the hold with a monthly key limit and a never-resetting user limit", lines)
    del connection


def _record_plans(user: Any) -> None:
    from accounts.models import ApiKey
    from billing import windows
    from billing.selectors import UsageQuery, usage_records_for_export

    today = windows.today()
    key = ApiKey.objects.filter(user=user, name="bench 0").get()
    query = UsageQuery(start=today - timedelta(days=29), end=today)
    records = usage_records_for_export(user, query)
    sql, params = records.query.sql_with_params()
    _print_plan("usage records, (user, created), 30 days (CSV export)", _explain(sql, params))
    keyed = UsageQuery(start=today - timedelta(days=29), end=today, key=key.prefix)
    sql, params = usage_records_for_export(user, keyed).query.sql_with_params()
    _print_plan("usage records of one key, 30 days (CSV export)", _explain(sql, params))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=DEFAULT_RECORDS, help="usage records")
    parser.add_argument("--refill", action="store_true", help="drop the data and fill again")
    parser.add_argument("--requests", type=int, default=200, help="requests per case")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured requests per case")
    args = parser.parse_args()

    _setup()
    _fill(records=args.records, refill=args.refill)

    from django.db import connection

    from billing.models import UsageDay, UsageRecord

    client, user = _client()
    print(
        f"\n{connection.vendor} · {UsageRecord.objects.filter(user=user).count():,} usage records "
        f"over 365 days · {UsageDay.objects.filter(user=user).count():,} UsageDay rows · "
        f"{args.requests} requests per case after {args.warmup} warm-up · in process\n"
    )
    _usage_cases(client, user, args.requests, args.warmup)
    _hold_cases(user, args.requests, args.warmup)
    _record_plans(user)


if __name__ == "__main__":
    main()
