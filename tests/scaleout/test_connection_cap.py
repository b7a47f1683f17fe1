"""No burst of requests can exhaust PostgreSQL's connections.

Every sync request of a process shares one bounded pool (``DB_POOL_MAX_SIZE``) and waits for a
connection up to ``DB_POOL_TIMEOUT``, then gets the JSON 503; the chat hot path keeps its own
``core.asyncdb.DB_THREADS`` connections beside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from django.db import connection, transaction
from django.db.utils import OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from psycopg_pool import PoolTimeout
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiKey
from billing.services import top_up
from core.asyncdb import DB_THREADS
from tests.factories import ApiKeyFactory, PersonaFactory, UserFactory, raw_key
from tests.servers import ROOT, daphne_pid, free_port, running_nova
from tests.servers import test_database_url as database_url

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the connection pool is PostgreSQL's"
)
DB_UNAVAILABLE = {
    "error": {
        "message": "The database is unavailable: try again shortly.",
        "type": "server_error",
        "param": None,
        "code": "service_unavailable",
    }
}


def _auth(key: ApiKey) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw_key(key)}"}


APP_NAME = "nova-under-test"


def _nova_env(**env: str) -> dict[str, str]:
    """The server's environment: its connections carry an application_name of their own, so
    they are told apart from this test process's (which has a pool of its own)."""
    return {"DATABASE_URL": f"{database_url()}?application_name={APP_NAME}", **env}


class ConnectionSampler:
    """Counts, every few milliseconds, the server's connections to PostgreSQL, and the threads
    of its process."""

    def __init__(self, pid: int | None = None) -> None:
        self.pid = pid
        self.connections: list[int] = []
        self.threads: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        dsn = database_url().replace("postgres://", "postgresql://", 1)
        with psycopg.connect(dsn, autocommit=True) as sampler:
            while not self._stop.is_set():
                row = sampler.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                    (APP_NAME,),
                ).fetchone()
                assert row is not None
                self.connections.append(int(row[0]))
                if self.pid is not None:
                    status = Path(f"/proc/{self.pid}/status").read_text()
                    self.threads.append(int(status.split("Threads:")[1].split()[0]))
                time.sleep(0.005)

    def __enter__(self) -> ConnectionSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


async def _burst(base: str, requests: list[tuple[str, str, ApiKey, Any]]) -> list[httpx.Response]:
    """All requests at once, each on a connection of its own."""
    limits = httpx.Limits(max_connections=len(requests), max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        return await asyncio.gather(
            *(
                client.request(method, path, json=body, headers=_auth(key))
                for method, path, key, body in requests
            )
        )


@pytest.fixture
def keys() -> list[ApiKey]:
    owner = UserFactory.create(username="burster")
    top_up(user=owner, amount=Decimal("10"), note="burst")
    for index in range(5):
        PersonaFactory.create(owner=owner, is_public=True, name=f"Public {index}")
    # Several keys, each far from its limit: the burst must never meet a 429.
    return [ApiKeyFactory.create(user=owner, rpm_limit=600) for _ in range(5)]


@postgres_only
@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_burst_of_300_requests_is_served_within_the_pool_cap(keys: list[ApiKey]) -> None:
    cap = 5
    port = free_port()
    with running_nova(_nova_env(DB_POOL_MAX_SIZE=str(cap)), port=port) as base:
        paths = ["/v1/personas", "/v1/personas?page=1", "/v1/models", "/nova-api/v1/conversations"]
        burst = [("GET", paths[i % len(paths)], keys[i % len(keys)], None) for i in range(300)]
        with ConnectionSampler(daphne_pid(port)) as sampled:
            started = time.monotonic()
            responses = asyncio.run(_burst(base, burst))
            took = time.monotonic() - started

        # Chat beside the burst: its database threads hold connections of their own.
        chat_body = {"model": "nova-local", "messages": [{"role": "user", "content": "hi"}]}
        mixed = burst[:200] + [
            ("POST", "/v1/chat/completions", keys[i % len(keys)], chat_body) for i in range(40)
        ]
        with ConnectionSampler() as sampled_mixed:
            mixed_responses = asyncio.run(_burst(base, mixed))

    statuses = [r.status_code for r in responses]
    assert statuses == [200] * 300, {s: statuses.count(s) for s in set(statuses)}
    assert len(sampled.connections) >= 10 and max(sampled.connections) >= 1
    assert max(sampled.connections) <= cap, sampled.connections
    mixed_statuses = [r.status_code for r in mixed_responses]
    assert mixed_statuses == [200] * 240, {s: mixed_statuses.count(s) for s in set(mixed_statuses)}
    assert max(sampled_mixed.connections) <= cap + DB_THREADS, sampled_mixed.connections
    print(
        f"300 requests in {took:.2f} s; PostgreSQL connections at most "
        f"{max(sampled.connections)} (cap {cap}), daphne threads at most {max(sampled.threads)}; "
        f"with chat: at most {max(sampled_mixed.connections)} connections"
    )


class DatabaseSwitch:
    """A TCP relay to PostgreSQL that can be cut: while down, connections are refused and the
    open ones dropped, as when PostgreSQL stops; up again on the same port."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._sockets: list[socket.socket] = []
        self.up()

    def up(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def down(self) -> None:
        assert self._listener is not None
        # A close alone leaves the socket listening while accept() blocks on it (Linux).
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self._sockets.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self._sockets += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


@postgres_only
@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_pool_answers_503_past_its_timeout_and_at_once_while_postgresql_is_down(
    keys: list[ApiKey],
) -> None:
    """One pooled connection, held by a request blocked on a table lock of this test's: the next
    request waits DB_POOL_TIMEOUT for it, then gets the 503 envelope. Then PostgreSQL goes away
    (behind a relay): one request waits out the timeout, the next ones get the 503 at once
    instead of each waiting too, and the pool serves again once PostgreSQL is back."""
    db = connection.settings_dict
    switch = DatabaseSwitch(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
    relayed = f"postgres://{db['USER'] or 'postgres'}@127.0.0.1:{switch.port}/{db['NAME']}"
    env = {
        "DATABASE_URL": f"{relayed}?application_name={APP_NAME}",
        "DB_POOL_MAX_SIZE": "1",
        "DB_POOL_TIMEOUT": "2",
    }
    with running_nova(env) as base, httpx.Client(base_url=base, timeout=15) as client:
        assert client.get("/v1/personas", headers=_auth(keys[0])).status_code == 200
        held: list[httpx.Response] = []
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("LOCK TABLE accounts_apikey IN ACCESS EXCLUSIVE MODE")
            holder = threading.Thread(
                target=lambda: held.append(client.get("/v1/personas", headers=_auth(keys[1])))
            )
            holder.start()
            _wait_for_a_backend_waiting_on_a_lock()
            started = time.monotonic()
            refused = client.get("/v1/personas", headers=_auth(keys[2]))
            waited = time.monotonic() - started
        holder.join(timeout=15)
        after = client.get("/v1/personas", headers=_auth(keys[3]))

        switch.down()
        outage: list[tuple[httpx.Response, float]] = []
        for index in range(6):
            started = time.monotonic()
            response = client.get("/v1/personas", headers=_auth(keys[index % len(keys)]))
            outage.append((response, time.monotonic() - started))
        ready = client.get("/readyz")
        switch.up()
        deadline = time.monotonic() + 20
        while client.get("/v1/personas", headers=_auth(keys[4])).status_code != 200:
            assert time.monotonic() < deadline, "the pool never served again"
            time.sleep(0.2)
        recovered = time.monotonic() - (deadline - 20)
    switch.down()

    assert refused.status_code == 503
    assert refused.headers["content-type"] == "application/json"
    assert refused.json() == DB_UNAVAILABLE
    assert 2 <= waited < 6, waited
    # The request that held the connection finishes once the lock is gone, and the pool serves
    # the next one.
    assert [r.status_code for r in held] == [200]
    assert after.status_code == 200
    # PostgreSQL down: every answer the 503 envelope; only the first one waited.
    assert [r.json() for r, _ in outage] == [DB_UNAVAILABLE] * 6
    assert outage[0][1] >= 2
    assert all(seconds < 0.5 for _, seconds in outage[1:]), outage
    assert ready.status_code == 503
    print(f"pool timeout after {waited:.2f} s; served again {recovered:.1f} s after the restart")


def _wait_for_a_backend_waiting_on_a_lock() -> None:
    dsn = database_url().replace("postgres://", "postgresql://", 1)
    deadline = time.monotonic() + 10
    with psycopg.connect(dsn, autocommit=True) as watcher:
        while True:
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).fetchone()
            if row is not None and row[0] >= 1:
                return
            assert time.monotonic() < deadline, "the request never reached the lock"
            time.sleep(0.02)


# --- Settings (every database) ---


def _database_settings(**env: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        "db = settings.DATABASES['default']; "
        "print(json.dumps({'pool': db.get('OPTIONS', {}).get('pool'), "
        "'engine': db['ENGINE']}))"
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DB_POOL", "CONN_MAX"))}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


POSTGRES_URL = "postgres://nova@127.0.0.1:5432/nova"


def _database(**env: str) -> tuple[str, Any]:
    """(ENGINE, OPTIONS["pool"]) of the settings under this environment."""
    result = _database_settings(**env)
    assert result.returncode == 0, result.stderr
    database = json.loads(result.stdout)
    return database["engine"], database["pool"]


def test_the_pool_is_on_for_postgresql_by_default_configurable_and_can_be_turned_off() -> None:
    pool = {"name": "nova", "min_size": 2, "max_size": 16, "timeout": 10.0}
    pool["reconnect_timeout"] = 5.0
    # The pool comes with Nova's subclass of Django's backend, which fails fast on an outage.
    assert _database(DATABASE_URL=POSTGRES_URL) == ("core.postgresql", pool)
    small = _database(DATABASE_URL=POSTGRES_URL, DB_POOL_MAX_SIZE="1", DB_POOL_TIMEOUT="2.5")
    assert small == ("core.postgresql", {**pool, "min_size": 1, "max_size": 1, "timeout": 2.5})
    # Off: each sync request opens its own connection again, and CONN_MAX_AGE may be set.
    off = _database(DATABASE_URL=POSTGRES_URL, DB_POOL_MAX_SIZE="0", CONN_MAX_AGE="60")
    assert off == ("django.db.backends.postgresql", None)
    # SQLite has no pool and needs none.
    sqlite = _database(DATABASE_URL="sqlite:////tmp/nova-settings-check.sqlite3")
    assert sqlite == ("django.db.backends.sqlite3", None)


@pytest.mark.parametrize(
    "env",
    [
        {"DATABASE_URL": POSTGRES_URL, "CONN_MAX_AGE": "60"},
        {"DATABASE_URL": POSTGRES_URL, "DB_POOL_TIMEOUT": "0"},
        {"DATABASE_URL": POSTGRES_URL, "DB_POOL_MAX_SIZE": "-1"},
    ],
)
def test_refuses_pool_settings_that_cannot_work(env: dict[str, str]) -> None:
    result = _database_settings(**env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


# --- The 503 mapping outside DRF (core.middleware) ---


def _pool_timeout(request: HttpRequest) -> HttpResponse:
    raise PoolTimeout("couldn't get a connection after 10.00 sec")


def _wrapped_pool_timeout(request: HttpRequest) -> HttpResponse:
    # What Django raises: its OperationalError, caused by the pool's.
    try:
        _pool_timeout(request)
    except PoolTimeout as exc:
        raise OperationalError(*exc.args) from exc
    raise AssertionError


class _DrfPoolTimeout(APIView):
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    def get(self, request: Request) -> Response:
        _wrapped_pool_timeout(request._request)
        raise AssertionError


urlpatterns = [
    path("v1/_pool/raw", _pool_timeout),
    path("v1/_pool/wrapped", _wrapped_pool_timeout),
    path("v1/_pool/drf", _DrfPoolTimeout.as_view()),
]


@pytest.mark.urls(__name__)
def test_a_pool_timeout_outside_drf_is_the_503_envelope_logged_in_one_line(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="core.middleware"):
        responses = [client.get("/v1/_pool/raw"), client.get("/v1/_pool/wrapped")]
    for response in responses:
        assert response.status_code == 503
        assert response["content-type"] == "application/json"
        assert response.json() == DB_UNAVAILABLE
    records = [r for r in caplog.records if r.name == "core.middleware"]
    assert [r.getMessage() for r in records] == [
        "No database connection from the pool for /v1/_pool/raw: "
        "couldn't get a connection after 10.00 sec",
        "No database connection from the pool for /v1/_pool/wrapped: "
        "couldn't get a connection after 10.00 sec",
    ]
    assert all(r.exc_info is None for r in records)


@pytest.mark.urls(__name__)
def test_a_pool_timeout_in_a_drf_view_is_the_503_envelope_logged_in_one_line(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="core.errors"):
        response = client.get("/v1/_pool/drf")
    assert response.status_code == 503
    assert response.json() == DB_UNAVAILABLE
    records = [r for r in caplog.records if r.name == "core.errors"]
    assert [r.getMessage() for r in records] == [
        "No database connection from the pool: couldn't get a connection after 10.00 sec"
    ]
    assert records[0].exc_info is None
