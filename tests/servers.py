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
from typing import IO

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


def listening_pid_owns(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds the socket listening on 127.0.0.1:``port`` (Linux /proc).

    Two test runs side by side (PostgreSQL and SQLite) can both be handed the same free port;
    the later daphne then fails to bind while the earlier one answers its health check, and
    the test talks to a server on the other run's database (a 401 for a key it never saw).
    """
    wanted = f"0100007F:{port:04X}"
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if (
                state == "0A"
                and local.endswith(f":{port:04X}")
                and (local == wanted or set(local.split(":")[0]) == {"0"})
            ):
                inodes.add(f"socket:[{inode}]")
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(fd) in inodes:
                return True
        except OSError:  # closed since the listing (the listing's own descriptor among them)
            continue
    return False


@contextmanager
def running_nova(
    extra_env: Mapping[str, str] | None = None, *, port: int | None = None
) -> Iterator[str]:
    """A daphne process serving Nova on the test database; yields its base URL.

    Without ``port``, a free one is chosen, and chosen again if another process took it
    first; with ``port``, a port held by another process is an error that says so.
    """
    for _attempt in range(5):
        chosen = port or free_port()
        proc, log = _start_daphne(chosen, extra_env)
        try:
            _wait_until_up(proc, log, chosen)
            if listening_pid_owns(proc.pid, chosen):
                yield f"http://127.0.0.1:{chosen}"
                return
            if port is not None:
                raise RuntimeError(f"port {port} is served by another process, not this daphne")
        except PortTaken:
            if port is not None:
                raise
        finally:
            _stop(proc, log)
    raise RuntimeError("no free port stayed free long enough for daphne to bind it")


def _start_daphne(
    port: int, extra_env: Mapping[str, str] | None
) -> tuple[subprocess.Popen[bytes], IO[bytes]]:
    env = {**os.environ, "DATABASE_URL": test_database_url(), "DEBUG": "true", **(extra_env or {})}
    env.setdefault("SECRET_KEY", str(settings.SECRET_KEY))
    env["API_KEY_HASH_SECRET"] = str(settings.API_KEY_HASH_SECRET)
    env.setdefault("MODELS_FILE", str(settings.MODELS_FILE))
    log = tempfile.TemporaryFile()  # noqa: SIM115  (outlives this call: closed by _stop)
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
    return proc, log


class PortTaken(RuntimeError):
    """The daphne just started could not bind its port: another process holds it."""


def _wait_until_up(proc: subprocess.Popen[bytes], log: IO[bytes], port: int) -> None:
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            log.seek(0)
            said = log.read().decode(errors="replace")
            if "Address already in use" in said:
                raise PortTaken(f"port {port} is held by another process")
            raise RuntimeError(f"daphne exited: {said[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("daphne did not start within 30 s")
        time.sleep(0.1)


def _stop(proc: subprocess.Popen[bytes], log: IO[bytes]) -> None:
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
