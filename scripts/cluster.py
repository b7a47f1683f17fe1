"""Run N identical daphne processes of Nova on one port.

The parent binds one listening socket per process on the same port (SO_REUSEPORT) and hands
each to its child with ``daphne --fd``: the kernel spreads new connections over them, so no
proxy is needed on a single machine. Every process is stateless: balances, conversations and
usage live in PostgreSQL (DATABASE_URL), rate-limit counters and persona cache versions in
Redis (REDIS_URL). A child that exits is started again; SIGTERM or SIGINT stops them all.

    python scripts/cluster.py 4 --host 0.0.0.0 --port 8000

For several machines, or TLS, put a proxy in front (deploy/nginx.conf, deploy/haproxy.cfg).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
# A child that dies sooner than this after starting counts as failing at start; after
# MAX_FAST_FAILURES of those in a row in one slot the cluster stops instead of looping.
MIN_UPTIME_SECONDS = 5.0
MAX_FAST_FAILURES = 5


def _bind(host: str, port: int, backlog: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # One listening socket per process on the same port: the kernel spreads new connections
    # over them by hash, where one shared socket lets whichever process wakes first take all.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    sock.set_inheritable(True)
    return sock


def _spawn(fd: int, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "daphne", "--fd", str(fd)]
    if args.proxy_headers:
        command.append("--proxy-headers")
    command.append(args.application)
    # Our own interpreter and arguments parsed above: no shell, nothing from the network.
    return subprocess.Popen(command, cwd=ROOT, pass_fds=(fd,))  # noqa: S603


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("processes", type=int, nargs="?", default=os.cpu_count() or 2)
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--backlog", type=int, default=2048)
    parser.add_argument("--application", default="config.asgi:application")
    parser.add_argument(
        "--proxy-headers", action="store_true", help="trust X-Forwarded-For (behind a proxy)"
    )
    parser.add_argument(
        "--migrate", action="store_true", help="run migrations once before starting"
    )
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("processes must be at least 1")

    if args.migrate:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, check=True)
    # Before serving: charge what a stopped process could not (pending-charge records) and
    # release the holds of requests it left unfinished (chat/pipeline.py).
    subprocess.run([sys.executable, "manage.py", "settle_holds"], cwd=ROOT, check=True)
    # The parent keeps every socket open, so connections wait in a slot's queue while its
    # process is being replaced.
    first = _bind(args.host, args.port, args.backlog)
    port = first.getsockname()[1]
    sockets = [first] + [_bind(args.host, port, args.backlog) for _ in range(args.processes - 1)]
    children: dict[int, tuple[subprocess.Popen[bytes], float]] = {}
    fast_failures = dict.fromkeys(range(args.processes), 0)
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for slot in range(args.processes):
        children[slot] = (_spawn(sockets[slot].fileno(), args), time.monotonic())
    pids = " ".join(str(proc.pid) for proc, _ in children.values())
    print(
        f"nova: {args.processes} daphne processes on http://{args.host}:{port} (pids {pids})",
        flush=True,
    )
    status = 0
    try:
        while not stopping:
            for slot, (proc, started) in list(children.items()):
                code = proc.poll()
                if code is None:
                    continue
                if time.monotonic() - started < MIN_UPTIME_SECONDS:
                    fast_failures[slot] += 1
                    if fast_failures[slot] >= MAX_FAST_FAILURES:
                        print(f"nova: process {proc.pid} keeps failing ({code})", flush=True)
                        stopping, status = True, 1
                        break
                    time.sleep(1)  # do not spin on a process that cannot start
                else:
                    fast_failures[slot] = 0
                replacement = _spawn(sockets[slot].fileno(), args)
                print(
                    f"nova: process {proc.pid} exited ({code}); started {replacement.pid}",
                    flush=True,
                )
                children[slot] = (replacement, time.monotonic())
            time.sleep(0.2)
    finally:
        for proc, _ in children.values():
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + 10
        for proc, _ in children.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for sock in sockets:
            sock.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
