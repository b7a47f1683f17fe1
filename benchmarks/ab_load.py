"""Interleaved A/B load on several running Nova servers, for before/after comparisons.

On a noisy machine, runs of ``gateway.py`` minutes apart differ more than two versions do.
This drives servers that run at the same time, alternately, so noise hits them alike:

    git worktree add /work/before <commit>            # the tree to compare with
    (cd /work/before && BENCH_PG_DATABASE=nova_bench_a BENCH_REDIS_URL=redis://127.0.0.1:6379/2 \
        python benchmarks/gateway.py --serve --no-litellm | tail -1 > /tmp/before.json) &
    (BENCH_PG_DATABASE=nova_bench_b BENCH_REDIS_URL=redis://127.0.0.1:6379/3 \
        python benchmarks/gateway.py --serve --no-litellm | tail -1 > /tmp/after.json) &
    python benchmarks/ab_load.py before=/tmp/before.json after=/tmp/after.json \
        --rounds 8 --requests 600

Per round and server (the order reversed every other round), N persona-chat requests at
concurrency CONC (env, default 32), JSON then streamed. Prints per server and mode the median
req/s and the daphne process's CPU milliseconds per request (from /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import aiohttp

PROMPT = "How do I reverse a list in Python?"
CONCURRENCY = int(os.environ.get("CONC", "32"))
WARMUP_REQUESTS = 128


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def one(session: aiohttp.ClientSession, server: dict[str, Any], stream: bool) -> None:
    body = {
        "persona_id": server["persona_id"],
        "messages": [{"role": "user", "content": PROMPT}],
        "stream": stream,
    }
    headers = {"Authorization": f"Bearer {server['key']}"}
    url = server["nova"] + "/v1/agents/chat/completions"
    async with session.post(url, json=body, headers=headers) as response:
        data = await response.read()
        assert response.status == 200, (response.status, data[:200])
        assert not stream or b"[DONE]" in data


async def batch(
    session: aiohttp.ClientSession, server: dict[str, Any], n: int, stream: bool
) -> tuple[float, float]:
    """(req/s, CPU ms per request of the server) for n requests at CONCURRENCY."""
    left = n

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            await one(session, server, stream)

    cpu_before, began = cpu_seconds(server["nova_pid"]), time.monotonic()
    await asyncio.gather(*[worker() for _ in range(CONCURRENCY)])
    elapsed = time.monotonic() - began
    cpu = cpu_seconds(server["nova_pid"]) - cpu_before
    return n / elapsed, cpu / n * 1000


async def run(servers: dict[str, dict[str, Any]], rounds: int, requests: int) -> None:
    names = list(servers)
    results: dict[tuple[str, bool], list[tuple[float, float]]] = {
        (name, stream): [] for name in names for stream in (False, True)
    }
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=200)) as session:
        for name in names:
            for stream in (False, True):
                await batch(session, servers[name], WARMUP_REQUESTS, stream)
        for index in range(rounds):
            for name in names if index % 2 == 0 else names[::-1]:
                for stream in (False, True):
                    results[(name, stream)].append(
                        await batch(session, servers[name], requests, stream)
                    )
            print(f"round {index + 1}/{rounds} done", flush=True)
    print(f"\n{'server':12} {'mode':6} {'median req/s':>12} {'median CPU ms/req':>18}  all req/s")
    for (name, stream), figures in results.items():
        rps = statistics.median(figure[0] for figure in figures)
        cpu = statistics.median(figure[1] for figure in figures)
        every = [round(figure[0]) for figure in figures]
        mode = "stream" if stream else "json"
        print(f"{name:12} {mode:6} {rps:12.1f} {cpu:18.2f}  {every}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("servers", nargs="+", help="NAME=file holding gateway.py --serve's line")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--requests", type=int, default=600)
    args = parser.parse_args()
    servers = {}
    for spec in args.servers:
        name, _, path = spec.partition("=")
        servers[name] = json.loads(Path(path).read_text())
    asyncio.run(run(servers, args.rounds, args.requests))


if __name__ == "__main__":
    main()
