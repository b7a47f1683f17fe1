"""Start real Nova server processes (daphne) on loopback for end-to-end tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx
import redis
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_database_url() -> str:
    """DATABASE_URL of the database the current test run uses (created by pytest-django)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def inside_fresh_wall_clock_window(headroom: float = 10.0) -> None:
    """Wait, if need be, until at least `headroom` seconds are left in the current real
    rate-limit window: a server in another process counts by the real clock, so a test that
    counts up to a limit must not meet a window boundary. Call it right before the counting
    (a server's start-up on a loaded machine can take longer than the headroom)."""
    from core.ratelimit import WINDOW_SECONDS

    left = WINDOW_SECONDS - time.time() % WINDOW_SECONDS
    if left < headroom:
        time.sleep(left + 0.05)


@contextmanager
def running_nova(
    extra_env: Mapping[str, str] | None = None, *, port: int | None = None
) -> Iterator[str]:
    """A daphne process serving Nova on the test database; yields its base URL."""
    port = port or free_port()
    env = {**os.environ, "DATABASE_URL": test_database_url(), "DEBUG": "true", **(extra_env or {})}
    env.setdefault("SECRET_KEY", str(settings.SECRET_KEY))
    env["API_KEY_HASH_SECRET"] = str(settings.API_KEY_HASH_SECRET)
    env.setdefault("MODELS_FILE", str(settings.MODELS_FILE))
    log = tempfile.TemporaryFile()  # noqa: SIM115  (outlives this block: closed in finally)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"daphne exited: {log.read().decode()[-2000:]}")
            try:
                if httpx.get(f"{base_url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("daphne did not start within 30 s")
            time.sleep(0.1)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def start_redis_server(port: int) -> subprocess.Popen[bytes]:
    """A throwaway redis-server on ``port`` (no persistence), once it answers PING: for tests
    that stop or pause Redis, never the shared one."""
    proc = subprocess.Popen(
        [
            "redis-server",
            *("--port", str(port), "--bind", "127.0.0.1"),
            *("--save", "", "--appendonly", "no"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.5)
    deadline = time.monotonic() + 10
    while True:
        try:
            if client.ping():
                return proc
        except redis.RedisError:
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.05)


def daphne_pid(port: int) -> int:
    """The pid of the daphne this test process started (:func:`running_nova`) on ``port``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"daphne" in cmdline and str(port).encode() in cmdline:
            return int(entry.name)
    raise AssertionError(f"no daphne of this test on port {port}")
