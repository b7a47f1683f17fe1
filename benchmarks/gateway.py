"""Gateway benchmark: Nova against calling the upstream directly and against the LiteLLM proxy.

``make bench`` runs this file. It starts, each as its own process on loopback:

* the fake OpenAI-compatible upstream (``tests/fake_upstream.py``): a short fixed reply with usage;
* Nova under daphne (one process) against PostgreSQL (database ``nova_bench``, recreated and
  migrated here) and Redis (``redis://127.0.0.1:6379/8``), DEBUG off, with a catalog entry
  pointing at the fake upstream, a funded user with two keys (Detailed Logging off and on) and a
  persona with training data;
* the LiteLLM proxy (``litellm[proxy]`` pinned below, installed into ``benchmarks/.litellm-venv``
  on first use), one worker, no database, callbacks and logging off, routing one model to the
  same fake upstream.

One async load generator (aiohttp: its client costs about 0.1 ms of CPU per request here,
httpx's about 2.9 ms, CPU the servers under test need on two cores) drives each case at
concurrency 1 and 32, non-streamed and streamed, a fixed number of requests per round after a
warm-up, over several rounds that interleave the cases (the machine is noisy: compare only
within one run). It prints one table and writes ``benchmarks/results/gateway-<timestamp>.json``
and ``benchmarks/results/latest.json``.

    python benchmarks/gateway.py                  # the full run (about 7 minutes)
    python benchmarks/gateway.py --quick          # a smoke run with few requests
    python benchmarks/gateway.py --no-litellm     # Nova and direct only
    python benchmarks/gateway.py --guard output   # adds persona chat with the chat guard on

``--guard input|output|both`` seeds a third key with that chat guard (docs/moderation.md, Chat
guard) and measures persona chat with it (target ``persona_guarded``) next to the unguarded
``persona`` target, in the same rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = ROOT / "benchmarks"
RESULTS_DIR = BENCH_DIR / "results"
LOG_DIR = ROOT / "var" / "bench"
NOVA_PYTHON = Path(sys.executable)
LITELLM_VENV = BENCH_DIR / ".litellm-venv"
LITELLM_REQUIREMENT = "litellm[proxy]==1.106.2"

PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PG_DATABASE = os.environ.get("BENCH_PG_DATABASE", "nova_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/8")
MODEL_ID = "bench-fake"
UPSTREAM_MODEL = "fake"
REPLY = "Reverse a list in Python with reversed(items) or items[::-1]."
PROMPT = "How do I reverse a list in Python?"
RPM_LIMIT = 1_000_000  # rate limiting is counted on every request, never hit
CONCURRENCIES = (1, 32)
# The first SSE event that carries a non-empty content fragment (time to first token).
_CONTENT = re.compile(rb'"content": ?"[^"]')

TARGETS = ("direct", "persona", "persona_guarded", "persona_logged", "general", "litellm")
TARGET_LABELS = {
    "direct": "upstream direct",
    "persona": "Nova persona (logging off)",
    "persona_guarded": "Nova persona (guard output)",
    "persona_logged": "Nova persona (logging on)",
    "general": "Nova general chat",
    "litellm": "LiteLLM proxy",
}


# --- Processes ---


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Service:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        # Each service runs in its own session: signal its process group, which holds only
        # the processes this script started for it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def _start(name: str, argv: list[str], env: dict[str, str]) -> Service:
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    log_path = LOG_DIR / f"{name}.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        argv,
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    log.close()
    return Service(name=name, process=process, log_path=log_path)


def _wait_http(service: Service, url: str, *, timeout: float, headers: dict[str, str]) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if service.process.poll() is not None:
            raise RuntimeError(
                f"{service.name} exited with {service.process.returncode}:\n{service.log_tail()}"
            )
        try:
            response = httpx.get(url, headers=headers, timeout=2)
            if response.status_code < 500:
                return
            last = f"HTTP {response.status_code}"
        except httpx.HTTPError as exc:
            last = exc.__class__.__name__
        time.sleep(0.25)
    raise RuntimeError(
        f"{service.name} not ready after {timeout:.0f}s ({last}):\n{service.log_tail()}"
    )


def run_upstream(argv: list[str]) -> int:
    """The fake upstream as its own process (``gateway.py --upstream ARGS``), Nagle off.

    http.server writes a response's headers and body in two sends; with Nagle's algorithm on,
    the body then waits for the client's delayed ACK (about 40 ms on Linux loopback), a stall
    that no real provider has and that would drown every difference being measured.
    """
    sys.path.insert(0, str(ROOT))
    from tests import fake_upstream

    fake_upstream._Handler.disable_nagle_algorithm = True
    fake_upstream.main(argv)
    return 0


# --- Nova ---


def _catalog(upstream_url: str) -> str:
    return f"""
[[models]]
id = "nova-local"
provider = "local"
context_window = 8192
input_price_per_mtok = "0.10"
output_price_per_mtok = "0.20"

[[models]]
id = "{MODEL_ID}"
provider = "openai"
base_url = "{upstream_url}"
upstream_model = "{UPSTREAM_MODEL}"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
"""


def _nova_env(models_file: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_", "REDIS_"))
    }
    base, _, _ = PG_ADMIN_URL.rpartition("/")
    env.update(
        DATABASE_URL=f"{base}/{PG_DATABASE}",
        REDIS_URL=REDIS_URL,
        DEBUG="false",
        SECRET_KEY="bench-" + secrets.token_urlsafe(48),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        SECURE_HSTS_SECONDS="0",
        MODELS_FILE=str(models_file),
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        # The benchmark's keys count every request but are never limited.
        MAX_KEY_RPM=str(RPM_LIMIT),
    )
    return env


def _recreate_database() -> None:
    import psycopg

    with psycopg.connect(
        PG_ADMIN_URL.replace("postgres://", "postgresql://"), autocommit=True
    ) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_DATABASE}")


def _flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def _run_manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [str(NOVA_PYTHON), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def seed(guard: str = "output") -> dict[str, Any]:
    """Runs inside a Django process (``gateway.py --seed``): the bench user, keys and persona;
    ``guard``: the chat guard of the third key (target ``persona_guarded``)."""
    import django

    django.setup()
    from accounts.services import create_api_key, create_user, update_api_key
    from billing.services import top_up
    from personas.services import add_training_item, create_persona

    user = create_user(username=f"bench-{secrets.token_hex(4)}")
    top_up(user=user, amount="1000000", note="benchmark funds")
    quiet = create_api_key(user=user, name="bench", rpm_limit=RPM_LIMIT)
    logged = create_api_key(
        user=user, name="bench-logged", detailed_logging=True, rpm_limit=RPM_LIMIT
    )
    guarded = create_api_key(user=user, name="bench-guarded", rpm_limit=RPM_LIMIT)
    update_api_key(key=guarded.key, guard=guard)
    persona = create_persona(
        owner=user,
        name="Python tutor",
        description="Answers Python questions briefly.",
        system_prompt="You are a concise Python tutor. Answer in one or two sentences.",
        category="programming",
        default_model=MODEL_ID,
        default_temperature=0.3,
    )
    add_training_item(
        persona=persona,
        type="qa_pair",
        content="Use reversed(items) for an iterator or items[::-1] for a reversed copy.",
        metadata={"question": "How do I reverse a list?"},
    )
    add_training_item(
        persona=persona,
        type="knowledge",
        title="Lists",
        content="list.reverse() reverses in place and returns None.",
    )
    add_training_item(
        persona=persona,
        type="example",
        title="Slicing",
        content=">>> [1, 2, 3][::-1]\n[3, 2, 1]",
    )
    return {
        "key": quiet.raw_key,
        "logged_key": logged.raw_key,
        "guarded_key": guarded.raw_key,
        "persona_id": persona.pk,
    }


def _seed_nova(env: dict[str, str], guard: str) -> dict[str, Any]:
    result = subprocess.run(
        [str(NOVA_PYTHON), str(Path(__file__).resolve()), "--seed", "--guard", guard],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"seeding failed:\n{result.stdout}{result.stderr}")
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


# --- LiteLLM ---


def _litellm_python() -> Path:
    return LITELLM_VENV / "bin" / "python"


def ensure_litellm() -> str | None:
    """Install the pinned LiteLLM into its own virtualenv unless present; None or why not."""
    python = _litellm_python()
    probe = [str(python), "-c", "import importlib.metadata as m; print(m.version('litellm'))"]
    if python.exists():
        found = subprocess.run(probe, capture_output=True, text=True, check=False)
        wanted = LITELLM_REQUIREMENT.split("==")[1]
        if found.returncode == 0 and found.stdout.strip() == wanted:
            return None
    print(f"Installing {LITELLM_REQUIREMENT} into {LITELLM_VENV.relative_to(ROOT)} ...", flush=True)
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    log = LOG_DIR / "litellm-install.log"
    with log.open("w") as out:
        if not python.exists():
            made = subprocess.run(
                [sys.executable, "-m", "venv", str(LITELLM_VENV)], stdout=out, stderr=out
            )
            if made.returncode != 0:
                return f"could not create the virtualenv (see {log})"
        installed = subprocess.run(
            [str(python), "-m", "pip", "install", "-q", LITELLM_REQUIREMENT],
            stdout=out,
            stderr=out,
        )
    if installed.returncode != 0:
        tail = log.read_text(errors="replace").strip().splitlines()[-3:]
        return f"pip install {LITELLM_REQUIREMENT} failed: {' / '.join(tail)} (see {log})"
    return None


def _litellm_config(upstream_url: str, master_key: str) -> str:
    # The lightest fair setup: one model, no database, no callbacks, no request logging.
    return f"""model_list:
  - model_name: {MODEL_ID}
    litellm_params:
      model: openai/{UPSTREAM_MODEL}
      api_base: {upstream_url}
      api_key: sk-bench-upstream
litellm_settings:
  callbacks: []
  success_callback: []
  failure_callback: []
  set_verbose: false
  json_logs: false
  turn_off_message_logging: true
  drop_params: true
  telemetry: false
general_settings:
  master_key: {master_key}
  disable_spend_logs: true
  disable_error_logs: true
"""


def _litellm_env() -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_", "REDIS_", "LITELLM_", "DJANGO_"))
    }
    env.update(
        LITELLM_LOG="ERROR",
        LITELLM_MODE="PRODUCTION",
        LITELLM_TELEMETRY="False",
        LITELLM_LOCAL_MODEL_COST_MAP="True",  # no download of the price list at start-up
        DISABLE_ADMIN_UI="True",
        NO_DOCS="True",
        PYTHONUNBUFFERED="1",
    )
    return env


# --- Load generation ---


@dataclass
class Target:
    name: str
    url: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class RoundResult:
    latencies: list[float]
    ttfb: list[float]
    ttft: list[float]
    errors: int
    seconds: float

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds > 0 else 0.0


async def _one(client: Any, target: Target, stream: bool, result: RoundResult) -> None:
    body = dict(target.body)
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    start = time.perf_counter()
    try:
        if not stream:
            async with client.post(target.url, json=body, headers=target.headers) as response:
                text = await response.text()
            ok = response.status == 200 and REPLY in text
        else:
            first_byte: float | None = None
            first_token: float | None = None
            tail = b""
            async with client.post(target.url, json=body, headers=target.headers) as response:
                async for chunk in response.content.iter_any():
                    now = time.perf_counter()
                    if first_byte is None:
                        first_byte = now
                    if first_token is None and _CONTENT.search(chunk):
                        first_token = now
                    tail = (tail + chunk)[-64:]
            ok = response.status == 200 and b"[DONE]" in tail and first_byte is not None
            if ok:
                assert first_byte is not None
                result.ttfb.append(first_byte - start)
                result.ttft.append((first_token or first_byte) - start)
    except Exception:
        ok = False
    elapsed = time.perf_counter() - start
    if ok:
        result.latencies.append(elapsed)
    else:
        result.errors += 1


async def run_round(
    client: Any, target: Target, *, stream: bool, concurrency: int, requests: int
) -> RoundResult:
    result = RoundResult(latencies=[], ttfb=[], ttft=[], errors=0, seconds=0.0)
    remaining = requests

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            await _one(client, target, stream, result)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    result.seconds = time.perf_counter() - start
    return result


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = q / 100 * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass
class CaseStats:
    target: str
    stream: bool
    concurrency: int
    requests: int
    errors: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    rps: float
    rps_rounds: list[float] = field(default_factory=list)
    ttfb_p50_ms: float | None = None
    ttft_p50_ms: float | None = None
    p50_rounds_ms: list[float] = field(default_factory=list)


def summarise(target: str, stream: bool, concurrency: int, rounds: list[RoundResult]) -> CaseStats:
    latencies = [value for r in rounds for value in r.latencies]
    ttfb = [value for r in rounds for value in r.ttfb]
    ttft = [value for r in rounds for value in r.ttft]
    return CaseStats(
        target=target,
        stream=stream,
        concurrency=concurrency,
        requests=len(latencies),
        errors=sum(r.errors for r in rounds),
        p50_ms=_percentile(latencies, 50) * 1000,
        p95_ms=_percentile(latencies, 95) * 1000,
        p99_ms=_percentile(latencies, 99) * 1000,
        # The median round: one slow round (a noisy neighbour) does not drag the figure.
        rps=statistics.median(r.rps for r in rounds),
        rps_rounds=[round(r.rps, 1) for r in rounds],
        ttfb_p50_ms=_percentile(ttfb, 50) * 1000 if stream else None,
        ttft_p50_ms=_percentile(ttft, 50) * 1000 if stream else None,
        p50_rounds_ms=[round(_percentile(r.latencies, 50) * 1000, 2) for r in rounds],
    )


async def benchmark(
    targets: list[Target], *, rounds: int, requests: dict[int, int], warmup: dict[int, int]
) -> list[CaseStats]:
    import aiohttp

    timeout = aiohttp.ClientTimeout(total=30.0)
    clients = {
        t.name: aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=64, keepalive_timeout=60), timeout=timeout
        )
        for t in targets
    }
    collected: dict[tuple[str, bool, int], list[RoundResult]] = {}
    try:
        for stream in (False, True):
            for concurrency in CONCURRENCIES:
                for target in targets:
                    await run_round(
                        clients[target.name],
                        target,
                        stream=stream,
                        concurrency=concurrency,
                        requests=warmup[concurrency],
                    )
                # Rounds interleave the targets, so drift in the machine's load hits all alike.
                for number in range(rounds):
                    for target in targets:
                        result = await run_round(
                            clients[target.name],
                            target,
                            stream=stream,
                            concurrency=concurrency,
                            requests=requests[concurrency],
                        )
                        collected.setdefault((target.name, stream, concurrency), []).append(result)
                        print(
                            f"  {'stream' if stream else 'json  '} c={concurrency:<3} "
                            f"round {number + 1}/{rounds} {TARGET_LABELS[target.name]:<28} "
                            f"p50 {_percentile(result.latencies, 50) * 1000:7.2f} ms  "
                            f"{result.rps:7.1f} req/s  errors {result.errors}",
                            flush=True,
                        )
    finally:
        for client in clients.values():
            await client.close()
    return [summarise(name, stream, conc, runs) for (name, stream, conc), runs in collected.items()]


# --- Report ---


def _ratio(value: float | None, base: float | None) -> str:
    if value is None or base is None or base != base or value != value or base == 0:
        return "  -  "
    return f"{value / base:5.2f}"


def _cell(value: float | None, direct: float | None, litellm: float | None, fmt: str) -> str:
    if value is None or value != value:
        return "-"
    return f"{value:{fmt}} ({_ratio(value, direct).strip()}/{_ratio(value, litellm).strip()})"


def render_table(stats: list[CaseStats]) -> str:
    by_key = {(s.target, s.stream, s.concurrency): s for s in stats}
    header = (
        f"{'case':<28} {'mode':<6} {'c':>3} | {'p50 ms':>20} {'p95 ms':>20} {'p99 ms':>20} "
        f"{'req/s':>21} {'TTFB p50 ms':>20} | {'+p50 ms':>8} {'xLiteLLM':>8}"
    )
    lines = [
        "Each figure: value (ratio to upstream direct / ratio to LiteLLM). "
        "+p50 ms: median latency added over calling the upstream directly; xLiteLLM: that "
        "overhead as a share of LiteLLM's.",
        header,
        "-" * len(header),
    ]
    for stream in (False, True):
        for concurrency in CONCURRENCIES:
            direct = by_key.get(("direct", stream, concurrency))
            litellm = by_key.get(("litellm", stream, concurrency))
            for target in TARGETS:
                s = by_key.get((target, stream, concurrency))
                if s is None:
                    continue

                def pick(attr: str, ref: CaseStats | None) -> float | None:
                    return getattr(ref, attr) if ref is not None else None

                overhead = s.p50_ms - direct.p50_ms if direct is not None else None
                litellm_overhead = (
                    litellm.p50_ms - direct.p50_ms
                    if litellm is not None and direct is not None
                    else None
                )
                share = (
                    f"{overhead / litellm_overhead:8.2f}"
                    if overhead is not None and litellm_overhead and target != "direct"
                    else f"{'-':>8}"
                )
                cells = [
                    _cell(s.p50_ms, pick("p50_ms", direct), pick("p50_ms", litellm), "7.2f"),
                    _cell(s.p95_ms, pick("p95_ms", direct), pick("p95_ms", litellm), "7.2f"),
                    _cell(s.p99_ms, pick("p99_ms", direct), pick("p99_ms", litellm), "7.2f"),
                    _cell(s.rps, pick("rps", direct), pick("rps", litellm), "7.1f"),
                    _cell(
                        s.ttfb_p50_ms,
                        pick("ttfb_p50_ms", direct),
                        pick("ttfb_p50_ms", litellm),
                        "7.2f",
                    ),
                ]
                lines.append(
                    f"{TARGET_LABELS[target]:<28} {'stream' if stream else 'json':<6} "
                    f"{concurrency:>3} | {cells[0]:>20} {cells[1]:>20} {cells[2]:>20} "
                    f"{cells[3]:>21} {cells[4]:>20} | "
                    f"{(f'{overhead:8.2f}' if overhead is not None else '-'):>8} {share}"
                    + (f"  errors: {s.errors}" if s.errors else "")
                )
            lines.append("")
    return "\n".join(lines).rstrip()


def verdict(stats: list[CaseStats]) -> list[str]:
    """The issue-8 targets, judged on this run's own LiteLLM figures."""
    by_key = {(s.target, s.stream, s.concurrency): s for s in stats}
    out: list[str] = []
    for stream in (False, True):
        mode = "streamed" if stream else "non-streamed"
        direct = by_key.get(("direct", stream, 1))
        litellm = by_key.get(("litellm", stream, 1))
        persona = by_key.get(("persona", stream, 1))
        if direct and litellm and persona:
            nova_over = persona.p50_ms - direct.p50_ms
            lite_over = litellm.p50_ms - direct.p50_ms
            ok = nova_over <= lite_over / 2
            out.append(
                f"{mode}, c=1: persona chat adds {nova_over:.2f} ms p50, "
                f"LiteLLM {lite_over:.2f} ms (target <= {lite_over / 2:.2f}): "
                f"{'met' if ok else 'NOT met'}"
            )
        litellm32 = by_key.get(("litellm", stream, 32))
        persona32 = by_key.get(("persona", stream, 32))
        if litellm32 and persona32:
            ratio = persona32.rps / litellm32.rps if litellm32.rps else float("nan")
            out.append(
                f"{mode}, c=32: persona chat {persona32.rps:.1f} req/s, LiteLLM "
                f"{litellm32.rps:.1f} req/s per process: {ratio:.2f}x (target >= 2x): "
                f"{'met' if ratio >= 2 else 'NOT met'}"
            )
    return out


def _git_commit() -> str:
    result = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "chat", "core", "config"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return result.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


# --- Main ---


@contextlib.contextmanager
def services() -> Iterator[list[Service]]:
    started: list[Service] = []
    try:
        yield started
    finally:
        for service in reversed(started):
            service.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--upstream", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="few requests: a smoke run")
    parser.add_argument("--no-litellm", action="store_true", help="skip the LiteLLM proxy")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests-c1", type=int, default=150)
    parser.add_argument("--requests-c32", type=int, default=640)
    parser.add_argument(
        "--settings",
        type=Path,
        help="serve Nova with this settings file instead of config/settings.py (experiments)",
    )
    parser.add_argument(
        "--serve",
        action="store_true",
        help="set up and start the upstream and Nova, print how to call them, wait (profiling)",
    )
    parser.add_argument("--only", default="", help="comma-separated targets (direct is always run)")
    parser.add_argument(
        "--guard",
        choices=("input", "output", "both"),
        help="also measure persona chat with a key whose chat guard is this (persona_guarded)",
    )
    args = parser.parse_args(argv)

    if args.seed:
        print(json.dumps(seed(guard=args.guard or "output")))
        return 0
    if args.upstream is not None:
        return run_upstream(args.upstream)

    # A plain SIGTERM would skip the `finally` that stops the services: exit through it instead.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    rounds = 1 if args.quick else args.rounds
    requests = {
        1: 20 if args.quick else args.requests_c1,
        32: 96 if args.quick else args.requests_c32,
    }
    warmup = {1: 5 if args.quick else 30, 32: 32 if args.quick else 128}
    wanted = {name for name in args.only.split(",") if name} or (set(TARGETS) - {"persona_guarded"})
    wanted.add("direct")
    if args.guard is not None:
        wanted.add("persona_guarded")
    guard = args.guard or "output"
    TARGET_LABELS["persona_guarded"] = f"Nova persona (guard {guard})"

    litellm_note: str | None = None
    if "litellm" in wanted and args.no_litellm:
        wanted.discard("litellm")
        litellm_note = "skipped (--no-litellm)"
    elif "litellm" in wanted:
        litellm_note = ensure_litellm()
        if litellm_note is not None:
            print(f"LiteLLM will not be measured: {litellm_note}", flush=True)
            wanted.discard("litellm")

    upstream_port, nova_port, litellm_port = _free_port(), _free_port(), _free_port()
    upstream_url = f"http://127.0.0.1:{upstream_port}/v1"
    workdir = Path(tempfile.mkdtemp(prefix="nova-bench-"))
    models_file = workdir / "models.toml"
    models_file.write_text(_catalog(upstream_url))
    env = _nova_env(models_file)
    if args.settings is not None:
        env["DJANGO_SETTINGS_MODULE"] = args.settings.stem
        env["PYTHONPATH"] = f"{ROOT}{os.pathsep}{args.settings.resolve().parent}"
    started_at = datetime.now(UTC)
    with services() as running:
        upstream = _start(
            "upstream",
            [
                str(NOVA_PYTHON),
                str(Path(__file__).resolve()),
                "--upstream",
                "--port",
                str(upstream_port),
                "--reply",
                REPLY,
                "--chunk-chars",
                "16",
                "--prompt-tokens",
                "40",
                "--completion-tokens",
                "16",
            ],
            {**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        running.append(upstream)

        print(f"Preparing PostgreSQL database {PG_DATABASE} and Redis {REDIS_URL} ...", flush=True)
        _recreate_database()
        _flush_redis()
        _run_manage(env, "migrate", "--noinput", "-v0")
        seeded = _seed_nova(env, guard)

        nova = _start(
            "nova",
            [
                str(NOVA_PYTHON),
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(nova_port),
                "config.asgi:application",
            ],
            env,
        )
        running.append(nova)
        nova_url = f"http://127.0.0.1:{nova_port}"
        _wait_http(upstream, f"{upstream_url}/models", timeout=20, headers={})
        _wait_http(nova, f"{nova_url}/healthz", timeout=60, headers={})

        if args.serve:
            print(
                json.dumps(
                    {
                        "nova": nova_url,
                        "upstream": upstream_url,
                        "nova_pid": nova.process.pid,
                        **seeded,
                    }
                ),
                flush=True,
            )
            with contextlib.suppress(KeyboardInterrupt):
                while nova.process.poll() is None:
                    time.sleep(1)
            return 0

        litellm_key = "sk-bench-" + secrets.token_hex(16)
        if "litellm" in wanted:
            config = workdir / "litellm_config.yaml"
            config.write_text(_litellm_config(upstream_url, litellm_key))
            litellm = _start(
                "litellm",
                [
                    str(LITELLM_VENV / "bin" / "litellm"),
                    "--config",
                    str(config),
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(litellm_port),
                    "--num_workers",
                    "1",
                ],
                _litellm_env(),
            )
            running.append(litellm)
            try:
                _wait_http(
                    litellm,
                    f"http://127.0.0.1:{litellm_port}/health/liveliness",
                    timeout=180,
                    headers={},
                )
            except RuntimeError as exc:
                litellm_note = f"did not start: {exc}"
                print(f"LiteLLM will not be measured: {litellm_note}", flush=True)
                wanted.discard("litellm")
                litellm.stop()

        message = [{"role": "user", "content": PROMPT}]
        key_header = {"Authorization": f"Bearer {seeded['key']}"}
        all_targets = {
            "direct": Target(
                "direct",
                f"{upstream_url}/chat/completions",
                {"Authorization": "Bearer sk-bench-upstream"},
                {"model": UPSTREAM_MODEL, "messages": message},
            ),
            "persona": Target(
                "persona",
                f"{nova_url}/v1/agents/chat/completions",
                key_header,
                {"persona_id": seeded["persona_id"], "messages": message},
            ),
            "persona_guarded": Target(
                "persona_guarded",
                f"{nova_url}/v1/agents/chat/completions",
                {"Authorization": f"Bearer {seeded['guarded_key']}"},
                {"persona_id": seeded["persona_id"], "messages": message},
            ),
            "persona_logged": Target(
                "persona_logged",
                f"{nova_url}/v1/agents/chat/completions",
                {"Authorization": f"Bearer {seeded['logged_key']}"},
                {"persona_id": seeded["persona_id"], "messages": message},
            ),
            "general": Target(
                "general",
                f"{nova_url}/v1/chat/completions",
                key_header,
                {"model": MODEL_ID, "messages": message},
            ),
            "litellm": Target(
                "litellm",
                f"http://127.0.0.1:{litellm_port}/v1/chat/completions",
                {"Authorization": f"Bearer {litellm_key}"},
                {"model": MODEL_ID, "messages": message},
            ),
        }
        targets = [all_targets[name] for name in TARGETS if name in wanted]
        print(
            f"Measuring {', '.join(TARGET_LABELS[t.name] for t in targets)}: {rounds} round(s) "
            f"of {requests[1]} requests at c=1 and {requests[32]} at c=32, after a warm-up.",
            flush=True,
        )
        began = time.monotonic()
        stats = asyncio.run(benchmark(targets, rounds=rounds, requests=requests, warmup=warmup))
        measured_seconds = time.monotonic() - began
        for service in running:
            if service.process.poll() is not None:
                print(f"warning: {service.name} exited during the run:\n{service.log_tail()}")

    shutil.rmtree(workdir, ignore_errors=True)
    table = render_table(stats)
    checks = verdict(stats)
    print()
    print(table)
    print()
    for line in checks:
        print(line)
    if litellm_note:
        print(f"LiteLLM: {litellm_note}")

    document = {
        "benchmark": "gateway",
        "started_at": started_at.isoformat().replace("+00:00", "Z"),
        "measured_seconds": round(measured_seconds, 1),
        "commit": _git_commit(),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "config": {
            "rounds": rounds,
            "requests": requests,
            "warmup": warmup,
            "concurrency": list(CONCURRENCIES),
            "nova_processes": 1,
            "litellm": LITELLM_REQUIREMENT,
            "litellm_workers": 1,
            "litellm_note": litellm_note,
            "reply": REPLY,
            "quick": args.quick,
            "settings": str(args.settings) if args.settings else "config/settings.py",
        },
        "cases": [asdict(s) for s in stats],
        "table": table,
        "targets": checks,
    }
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    stamp = started_at.strftime("%Y%m%dT%H%M%SZ")
    text = json.dumps(document, indent=2) + "\n"
    if not args.quick:
        (RESULTS_DIR / f"gateway-{stamp}.json").write_text(text)
        (RESULTS_DIR / "latest.json").write_text(text)
        print(f"\nResults: benchmarks/results/gateway-{stamp}.json (and latest.json)")
    else:
        (RESULTS_DIR / "quick.json.tmp").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
