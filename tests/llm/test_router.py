"""Routing across deployments, retries, cooldowns and fallbacks (docs/api.md, Models and
providers), against real fake-upstream servers on loopback: one server per deployment."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from io import StringIO
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from core.errors import ApiError, InvalidRequest, RateLimited, UpstreamError
from llm import router
from llm.catalog import ModelSpec, get_catalog, reset_catalog_cache
from llm.health import health
from llm.providers.openai import aclose_clients
from llm.types import Completion, Delta, Finish, GenerationRequest, OpenedStream
from tests.conftest import FakeClock
from tests.fake_upstream import FakeUpstream, running_fake_upstream
from tests.llm.helpers import TOOL_CONVERSATION

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = [{"role": "user", "content": "Say hello."}]

# "pool" has two deployments, a (weight WEIGHT_A) and b, and falls back to "backup" on c.
CATALOG = """
[[models]]
id = "pool"
provider = "openai"
api_key_env = "FAKE_UPSTREAM_KEY"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
allowed_fails = 3
cooldown_seconds = 30
fallbacks = ["backup"]
[[models.deployments]]
base_url = "{a}"
weight = {weight_a}
[[models.deployments]]
base_url = "{b}"
upstream_model = "fake-b"

[[models]]
id = "backup"
provider = "openai"
base_url = "{c}"
upstream_model = "fake-c"
context_window = 4096
input_price_per_mtok = "3.00"
output_price_per_mtok = "15.00"
read_timeout = 5
tools = false

[[models]]
id = "single"
provider = "openai"
base_url = "{a}"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
"""

# Deployment a is all but always chosen first (b about once in 10 000 requests).
HEAVY_A = 10_000


class Upstreams:
    def __init__(self, a: FakeUpstream, b: FakeUpstream, c: FakeUpstream, settings: Any) -> None:
        self.a, self.b, self.c = a, b, c
        self.settings = settings  # pytest-django's: restored after the test

    def use_catalog(self, tmp_path: Path, *, weight_a: float = HEAVY_A) -> Path:
        path = tmp_path / "models.toml"
        path.write_text(CATALOG.format(a=self.a.url, b=self.b.url, c=self.c.url, weight_a=weight_a))
        self.use_file(path)
        return path

    def use_file(self, path: Path) -> None:
        self.settings.MODELS_FILE = path
        reset_catalog_cache()


@pytest.fixture(scope="module")
def _servers() -> Iterator[tuple[FakeUpstream, FakeUpstream, FakeUpstream]]:
    with (
        running_fake_upstream() as a,
        running_fake_upstream() as b,
        running_fake_upstream() as c,
    ):
        yield a, b, c


@pytest.fixture
def upstreams(
    _servers: tuple[FakeUpstream, FakeUpstream, FakeUpstream],
    settings: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Upstreams]:
    monkeypatch.setenv("FAKE_UPSTREAM_KEY", "sk-upstream-test-key")
    for server in _servers:
        server.reset()
    a, b, c = _servers
    a.script(reply="from a")
    b.script(reply="from b")
    c.script(reply="from c", usage=(20, 10))
    health.reset_local()
    ups = Upstreams(a, b, c, settings)
    ups.use_catalog(tmp_path)
    yield ups
    for server in _servers:
        server.reset()
    health.reset_local()
    reset_catalog_cache()


def run(make: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        try:
            return await make()
        finally:
            await aclose_clients()

    return asyncio.run(main())


def request(model_id: str = "pool", **params: Any) -> GenerationRequest:
    return GenerationRequest(model=get_catalog()[model_id], messages=list(MESSAGES), params=params)


def complete(req: GenerationRequest) -> Completion:
    return run(lambda: router.complete(req))


def stream(req: GenerationRequest) -> tuple[OpenedStream, list[Delta | Finish]]:
    async def collect() -> tuple[OpenedStream, list[Delta | Finish]]:
        opened = await router.open_stream(req)
        events = []
        try:
            async for event in opened.events:
                events.append(event)
        finally:
            await opened.events.aclose()  # type: ignore[attr-defined]
        return opened, events

    return run(collect)


def text_of(events: list[Delta | Finish]) -> str:
    return "".join(event.content for event in events if isinstance(event, Delta))


def shared_redis() -> redis.Redis:
    assert settings.REDIS_URL
    return redis.Redis.from_url(settings.REDIS_URL)


needs_redis = pytest.mark.skipif(
    not settings.REDIS_URL, reason="cooldowns are shared across processes through Redis"
)


# --- retries ---


def test_429_with_retry_after_is_retried_on_the_other_deployment(upstreams):
    # Retry-After 30 is beyond the longest wait: on another deployment the retry goes at once.
    upstreams.a.script(status=429, retry_after=30)
    completion = complete(request())
    assert completion.content == "from b"
    assert completion.model is None  # the request's own model answered
    assert len(upstreams.a.bodies) == 1
    assert [body["model"] for body in upstreams.b.bodies] == ["fake-b"]
    assert upstreams.c.bodies == []


def test_a_drop_before_the_first_byte_is_retried_on_the_other_deployment(upstreams):
    upstreams.a.script(drop=True)
    _opened, events = stream(request())
    assert text_of(events) == "from b"
    assert upstreams.a.bodies  # tried first
    assert len(upstreams.b.bodies) == 1


def test_a_deployment_failing_then_recovering_is_retried_on_itself(upstreams):
    upstreams.a.fail_next(2, status=503)
    completion = complete(request("single"))
    assert completion.content == "from a"
    assert len(upstreams.a.bodies) == 3  # two failures, then the answer: retries = 2


def test_retries_stop_at_the_model_limit(upstreams):
    upstreams.a.fail_next(3, status=500)
    with pytest.raises(UpstreamError) as excinfo:
        complete(request("single"))
    assert excinfo.value.status == 502
    assert len(upstreams.a.bodies) == 3  # the first attempt and two retries, no more


def test_a_long_retry_after_with_no_other_deployment_ends_the_attempts(upstreams):
    upstreams.a.script(status=429, retry_after=120)
    with pytest.raises(RateLimited) as excinfo:
        complete(request("single"))
    assert len(upstreams.a.bodies) == 1
    assert excinfo.value.status == 429
    assert excinfo.value.headers["Retry-After"] == "120"


def test_a_short_retry_after_is_waited_out_on_the_only_deployment(upstreams):
    upstreams.a.fail_next(1, status=429, retry_after=1)
    assert complete(request("single")).content == "from a"
    assert len(upstreams.a.bodies) == 2


def test_a_400_is_not_retried_nor_sent_to_a_fallback(upstreams):
    upstreams.a.script(status=400)
    with pytest.raises(InvalidRequest) as excinfo:
        complete(request())
    assert excinfo.value.status == 400
    assert len(upstreams.a.bodies) == 1
    assert upstreams.b.bodies == []
    assert upstreams.c.bodies == []


def test_a_stream_failing_after_its_first_token_is_not_retried(upstreams):
    upstreams.a.script(reply="aaaa bbbb cccc", stream_chunk_chars=5, reset_after_chunks=2)

    async def consume() -> tuple[OpenedStream, list[Delta | Finish], ApiError | None]:
        opened = await router.open_stream(request())
        events: list[Delta | Finish] = []
        try:
            async for event in opened.events:
                events.append(event)
        except ApiError as exc:
            return opened, events, exc
        finally:
            await opened.events.aclose()  # type: ignore[attr-defined]
        return opened, events, None

    opened, events, error = run(consume)
    assert isinstance(error, UpstreamError)
    assert opened.model.id == "pool"
    assert text_of(events) == "aaaa bbbb "
    assert len(upstreams.a.bodies) == 1
    assert upstreams.b.bodies == []
    assert upstreams.c.bodies == []


# --- choosing a deployment ---


def test_weights_are_respected_roughly(upstreams, tmp_path):
    upstreams.use_catalog(tmp_path, weight_a=3)
    for _ in range(80):
        complete(request())
    to_a, to_b = len(upstreams.a.bodies), len(upstreams.b.bodies)
    assert to_a + to_b == 80
    # 60 expected (weights 3:1); the bounds are over 4 standard deviations away.
    assert 42 <= to_a <= 75


# --- cooldown ---


def test_a_failing_deployment_cools_down_then_comes_back(upstreams):
    upstreams.a.script(status=500)
    clock = FakeClock(time.time())
    with health.use_clock(clock):
        for _ in range(8):
            assert complete(request()).content == "from b"
        # Three failures (allowed_fails) and a was skipped for the rest.
        assert len(upstreams.a.bodies) == 3
        assert len(upstreams.b.bodies) == 8
        [status_a, status_b] = health.status(get_catalog()["pool"])
        assert status_a.cooling_until == pytest.approx(clock.now + 30)
        assert status_b.cooling_until is None

        clock.advance(31)
        upstreams.a.script(reply="a is back")
        assert complete(request()).content == "a is back"
        assert len(upstreams.a.bodies) == 4


def test_failures_outside_the_minute_do_not_cool_a_deployment_down(upstreams):
    upstreams.a.script(status=500)
    clock = FakeClock(time.time())
    with health.use_clock(clock):
        for _ in range(4):
            complete(request())
            clock.advance(31)  # at most two failures within any minute
        assert len(upstreams.a.bodies) == 4


def test_all_deployments_cooling_down_go_straight_to_the_fallback(upstreams):
    upstreams.a.script(status=500)
    upstreams.b.script(status=500)
    for _ in range(3):
        completion = complete(request())
        assert completion.content == "from c"
    tried = len(upstreams.a.bodies) + len(upstreams.b.bodies)
    assert tried == 6  # both cooled down after three failures each
    assert complete(request()).content == "from c"
    assert len(upstreams.a.bodies) + len(upstreams.b.bodies) == tried


@needs_redis
@pytest.mark.slow
def test_cooldown_is_shared_with_another_process(upstreams, tmp_path):
    """Failures seen by two processes add up in Redis, and a deployment cooled down by one is
    skipped by the other: the fake upstream's log shows no request reaching it."""
    catalog = upstreams.use_catalog(tmp_path)
    upstreams.a.script(status=500)
    # This process: two failures of a (each request then answered by b).
    for _ in range(2):
        assert complete(request()).content == "from b"
    assert len(upstreams.a.bodies) == 2

    script = textwrap.dedent(
        """
        import asyncio, json, django
        django.setup()
        from llm import router
        from llm.catalog import get_catalog
        from llm.providers.openai import aclose_clients
        from llm.types import GenerationRequest

        async def main():
            answers = []
            for _ in range(6):
                request = GenerationRequest(
                    model=get_catalog()["pool"],
                    messages=[{"role": "user", "content": "hi"}],
                    params={},
                )
                answers.append((await router.complete(request)).content)
            await aclose_clients()
            return answers

        print(json.dumps(asyncio.run(main())))
        """
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "MODELS_FILE": str(catalog),
        "REDIS_URL": str(settings.REDIS_URL),
        "FAKE_UPSTREAM_KEY": "sk-upstream-test-key",
    }
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == ["from b"] * 6
    # The other process's first attempt was a's third failure in the minute: a cooled down
    # there, and none of its other five requests reached a.
    assert len(upstreams.a.bodies) == 3

    # And this process, whose own count of a's failures is two, skips it too.
    health.reset_local()
    for _ in range(5):
        assert complete(request()).content == "from b"
    assert len(upstreams.a.bodies) == 3
    assert len(upstreams.b.bodies) == 2 + 6 + 5


def test_an_unreachable_redis_leaves_health_local_and_requests_served(upstreams):
    unreachable = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    upstreams.a.script(status=500)
    # Restored before the test's teardown, which clears the cache.
    with override_settings(CACHES=unreachable):
        for _ in range(6):
            assert complete(request()).content == "from b"
    assert len(upstreams.a.bodies) == 3  # cooled down in this process's own state


@needs_redis
def test_a_model_with_one_deployment_and_no_fallback_touches_no_shared_state(upstreams):
    client = shared_redis()
    complete(request("single"))
    upstreams.a.script(status=500)
    for _ in range(2):
        with pytest.raises(UpstreamError):
            complete(request("single"))
    assert client.keys("*llm:*") == []
    # A routed model does keep its state there.
    upstreams.a.script(reply="from a")
    complete(request())
    assert client.keys("*llm:inflight:*")


# --- fallbacks ---


def test_all_deployments_down_the_fallback_answers(upstreams):
    upstreams.a.script(status=502)
    upstreams.b.script(status=503)
    completion = complete(request(temperature=0.3))
    assert completion.content == "from c"
    assert completion.model is not None and completion.model.id == "backup"
    assert completion.model == get_catalog()["backup"]
    # Three attempts on the pool (one try, two retries), then the fallback with the same
    # messages and parameters and its own upstream model.
    assert len(upstreams.a.bodies) + len(upstreams.b.bodies) == 3
    [body] = upstreams.c.bodies
    assert body["model"] == "fake-c"
    assert body["messages"] == MESSAGES
    assert body["temperature"] == 0.3


def test_a_stream_falls_back_before_its_first_event(upstreams):
    upstreams.a.script(status=500)
    upstreams.b.script(drop=True)
    opened, events = stream(request())
    assert opened.model.id == "backup"
    assert text_of(events) == "from c"
    assert isinstance(events[-1], Finish)
    assert events[-1].usage.prompt_tokens == 20


def test_a_fallback_that_cannot_take_the_request_is_skipped(upstreams):
    upstreams.a.script(status=500)
    upstreams.b.script(status=500)
    tools = [{"type": "function", "function": {"name": "lookup"}}]
    with pytest.raises(UpstreamError) as excinfo:
        complete(request(tools=tools))
    assert excinfo.value.status == 502
    assert upstreams.c.bodies == []  # backup has tools = false


def test_everything_failing_raises_the_last_failure(upstreams):
    upstreams.a.script(status=500)
    upstreams.b.script(status=500)
    upstreams.c.script(status=429, retry_after=120)
    with pytest.raises(RateLimited):
        complete(request())
    assert len(upstreams.c.bodies) == 1


# --- operators ---


def test_models_status_shows_deployments_failures_cooldowns_and_fallbacks(upstreams):
    upstreams.a.script(status=500)
    for _ in range(4):
        complete(request())
    out = StringIO()
    call_command("models_status", "pool", "backup", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("pool (openai) retries=2 allowed_fails=3 cooldown=30s")
    assert lines[0].endswith("fallbacks=backup")
    a_host = upstreams.a.url.split("//")[1].split("/")[0]
    b_host = upstreams.b.url.split("//")[1].split("/")[0]
    assert lines[1].startswith(f"  {a_host} weight={HEAVY_A} in_flight=0")
    assert "cooling down until" in lines[1]
    assert lines[2].startswith(f"  {b_host} weight=1 in_flight=0 failures_last_minute=0")
    assert lines[2].endswith("healthy")
    assert lines[3].endswith("fallbacks=-")
    c_host = upstreams.c.url.split("//")[1].split("/")[0]
    assert lines[4] == f"  {c_host} (one deployment, no fallbacks: health not tracked)"
    assert "sk-upstream" not in out.getvalue()


def test_models_status_rejects_an_unknown_model(upstreams):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match='Unknown model "nope"'):
        call_command("models_status", "nope", stdout=StringIO())


def test_each_attempt_is_logged_without_keys_or_bodies(upstreams, caplog):
    upstreams.a.script(status=500)
    with caplog.at_level("INFO", logger="llm.router"):
        complete(request())
    records = [r for r in caplog.records if r.name == "llm.router"]
    assert [(r.deployment, r.outcome, r.upstream_status, r.retry) for r in records] == [
        (upstreams.a.url.split("//")[1].split("/")[0], "status", 500, 0),
        (upstreams.b.url.split("//")[1].split("/")[0], "ok", None, 1),
    ]
    assert all(r.model == "pool" and isinstance(r.latency_ms, int) for r in records)
    text = caplog.text
    assert "sk-upstream" not in text and "Say hello" not in text


def test_spec_of_each_deployment_reaches_its_server(upstreams):
    pool: ModelSpec = get_catalog()["pool"]
    [(_, spec_a), (_, spec_b)] = pool.routes
    assert (spec_a.base_url, spec_a.upstream_model) == (upstreams.a.url, "fake")
    assert (spec_b.base_url, spec_b.upstream_model) == (upstreams.b.url, "fake-b")
    assert spec_b.api_key_env == "FAKE_UPSTREAM_KEY"
    assert spec_b.input_price_per_mtok == pool.input_price_per_mtok


LIMITED = """
[[models]]
id = "limited"
provider = "openai"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
[[models.deployments]]
base_url = "{a}"
weight = 10000
{limit}
[[models.deployments]]
base_url = "{b}"
"""


@pytest.mark.parametrize("limit", ["rpm = 2", "tpm = 20"])
def test_a_deployment_at_its_limit_for_the_minute_is_skipped(upstreams, tmp_path, limit):
    # Each answer uses 18 tokens (12 + 6): a tpm of 20 is reached by the second request.
    path = tmp_path / "limited.toml"
    path.write_text(LIMITED.format(a=upstreams.a.url, b=upstreams.b.url, limit=limit))
    upstreams.use_file(path)
    clock = FakeClock(60 * 30_000_000 + 1)  # the start of a minute
    with health.use_clock(clock):
        for _ in range(5):
            complete(request("limited"))
        assert (len(upstreams.a.bodies), len(upstreams.b.bodies)) == (2, 3)
        clock.advance(60)  # a new minute
        complete(request("limited"))
        assert len(upstreams.a.bodies) == 3


# --- fallbacks that cannot take the request (llm.capabilities) ---

# "primary" and "agentic" fail on a (retries = 0: one attempt) and fall back in order; "local"
# is the embedded model (one choice, no tools), "toolless" an HTTP model without tools on b,
# "capable" an HTTP model that takes everything on c.
CAPABILITIES = """
[[models]]
id = "primary"
provider = "openai"
base_url = "{a}"
api_key_env = "FAKE_UPSTREAM_KEY"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
retries = 0
fallbacks = ["local", "capable"]

[[models]]
id = "agentic"
provider = "openai"
base_url = "{a}"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
retries = 0
fallbacks = ["toolless", "capable"]

[[models]]
id = "stranded"
provider = "openai"
base_url = "{a}"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
retries = 0
fallbacks = ["local"]

[[models]]
id = "roomy"
provider = "openai"
base_url = "{a}"
upstream_model = "fake"
context_window = 32768
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
retries = 0
fallbacks = ["small", "capable"]

[[models]]
id = "small"
provider = "openai"
base_url = "{b}"
upstream_model = "fake-b"
context_window = 4096
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5

[[models]]
id = "local"
provider = "local"
context_window = 8192
input_price_per_mtok = "0.10"
output_price_per_mtok = "0.20"

[[models]]
id = "toolless"
provider = "openai"
base_url = "{b}"
upstream_model = "fake-b"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
tools = false

[[models]]
id = "capable"
provider = "openai"
base_url = "{c}"
upstream_model = "fake-c"
context_window = 8192
input_price_per_mtok = "3.00"
output_price_per_mtok = "15.00"
read_timeout = 5
"""


@pytest.fixture
def capabilities(upstreams: Upstreams, tmp_path: Path) -> Upstreams:
    path = tmp_path / "capabilities.toml"
    path.write_text(CAPABILITIES.format(a=upstreams.a.url, b=upstreams.b.url, c=upstreams.c.url))
    upstreams.use_file(path)
    upstreams.a.script(status=500)
    return upstreams


def test_n_choices_skip_the_fallback_that_gives_one_for_one_that_gives_n(capabilities):
    completion = complete(request("primary", n=4))
    assert completion.model is not None and completion.model.id == "capable"
    assert [choice.content for choice in completion.choices] == [
        "from c",
        "from c [1]",
        "from c [2]",
        "from c [3]",
    ]
    assert len(capabilities.a.bodies) == 1
    [body] = capabilities.c.bodies
    assert (body["model"], body["n"]) == ("fake-c", 4)


def test_a_streamed_n_choices_skips_the_fallback_that_gives_one(capabilities):
    opened, events = stream(request("primary", n=3))
    assert opened.model.id == "capable"
    texts = [
        "".join(e.content for e in events if isinstance(e, Delta) and e.index == i)
        for i in range(3)
    ]
    assert texts == ["from c", "from c [1]", "from c [2]"]


def test_without_a_fallback_that_gives_n_choices_the_primary_failure_is_raised(capabilities):
    # Contract §15: the fallback that cannot take the request is skipped; none is left, so the
    # caller gets the requested model's own failure (a 5xx upstream: 502), never one choice.
    with pytest.raises(UpstreamError) as excinfo:
        complete(request("stranded", n=4))
    assert excinfo.value.status == 502
    assert not isinstance(excinfo.value, InvalidRequest)
    assert len(capabilities.a.bodies) == 1
    # The same request with one choice is answered by the embedded fallback.
    completion = complete(request("stranded"))
    assert completion.model is not None and completion.model.id == "local"
    assert len(completion.choices) == 1


def test_a_tool_conversation_skips_the_fallback_without_tools(capabilities):
    req = GenerationRequest(
        model=get_catalog()["agentic"], messages=list(TOOL_CONVERSATION), params={}
    )
    completion = complete(req)
    assert completion.model is not None and completion.model.id == "capable"
    assert completion.content == "from c"
    assert capabilities.b.bodies == []  # toolless: tools = false
    [body] = capabilities.c.bodies
    assert body["messages"] == TOOL_CONVERSATION
    # A plain conversation goes to the first fallback, which takes it.
    assert complete(request("agentic")).content == "from b"


def test_a_prompt_that_fills_a_fallbacks_context_window_skips_it(capabilities):
    # The request's own model was held to "the prompt leaves room for a reply" (a 400 before
    # generation); a fallback is held to the same rule with the tokens the caller counted.
    def roomy(prompt_tokens: int | None) -> GenerationRequest:
        return replace(request("roomy"), prompt_tokens=prompt_tokens)

    completion = complete(roomy(4096))
    assert completion.model is not None and completion.model.id == "capable"
    assert capabilities.b.bodies == []
    # One token less leaves room for a reply: the first fallback takes it; uncounted too.
    assert complete(roomy(4095)).content == "from b"
    assert complete(roomy(None)).content == "from b"
    assert len(capabilities.b.bodies) == 2
    opened, events = stream(roomy(8000))
    assert opened.model.id == "capable"
    assert text_of(events) == "from c"
    # A prompt no fallback can hold gets the request's own model's failure.
    c_calls = len(capabilities.c.bodies)
    with pytest.raises(UpstreamError) as excinfo:
        complete(roomy(20_000))
    assert excinfo.value.status == 502
    assert len(capabilities.c.bodies) == c_calls


# --- connection failures (contract §15: retried on another deployment) ---

UNREACHABLE = """
[[models]]
id = "pool"
provider = "openai"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
connect_timeout = {connect_timeout}
read_timeout = 5
[[models.deployments]]
base_url = "{dead}"
weight = 10000
[[models.deployments]]
base_url = "{b}"
"""


@contextmanager
def _refusing() -> Iterator[str]:
    """A loopback address where nothing listens: connecting is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))  # bound, never listening: the port stays ours and closed
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


@contextmanager
def _never_accepting() -> Iterator[str]:
    """A loopback address whose accept queue is full: the kernel drops new connections' SYNs,
    so connecting neither succeeds nor fails until the client's connect timeout."""
    server = socket.socket()
    fillers: list[socket.socket] = []
    try:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port = server.getsockname()[1]
        for _ in range(3):
            filler = socket.socket()
            filler.setblocking(False)
            filler.connect_ex(("127.0.0.1", port))
            fillers.append(filler)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        for filler in fillers:
            filler.close()
        server.close()


@pytest.mark.parametrize("failure", ["connect", "connect_timeout"])
@pytest.mark.parametrize("streamed", [False, True])
def test_a_deployment_that_cannot_be_reached_is_retried_on_the_other(
    upstreams, tmp_path, caplog, failure, streamed
):
    unreachable = _refusing() if failure == "connect" else _never_accepting()
    started = time.monotonic()
    with unreachable as dead, caplog.at_level("INFO", logger="llm.router"):
        path = tmp_path / "unreachable.toml"
        path.write_text(UNREACHABLE.format(dead=dead, b=upstreams.b.url, connect_timeout=0.3))
        upstreams.use_file(path)
        if streamed:
            _opened, events = stream(request())
            assert text_of(events) == "from b"
        else:
            assert complete(request()).content == "from b"
    assert time.monotonic() - started < 3
    dead_host = dead.split("//")[1].split("/")[0]
    b_host = upstreams.b.url.split("//")[1].split("/")[0]
    records = [r for r in caplog.records if r.name == "llm.router"]
    assert [(r.deployment, r.outcome, r.retry) for r in records] == [
        (dead_host, failure, 0),
        (b_host, "ok", 1),
    ]
    assert len(upstreams.b.bodies) == 1


# --- the fewest requests in flight ---


def test_a_new_request_goes_to_the_deployment_with_fewer_in_flight(upstreams, tmp_path):
    upstreams.use_catalog(tmp_path, weight_a=1)  # equal weights
    upstreams.a.script(reply="from a", hold=True)  # a keeps each request in flight

    async def scenario() -> tuple[list[str], str]:
        # By weight alone either deployment is chosen: send requests until one is held on a.
        held: asyncio.Task[Completion] | None = None
        for _ in range(40):
            task = asyncio.create_task(router.complete(request()))
            while not task.done() and not upstreams.a.bodies:
                await asyncio.sleep(0.005)
            if upstreams.a.bodies:
                held = task
                break
            assert (await task).content == "from b"
        assert held is not None, "no request reached a"
        answered_by_b = len(upstreams.b.bodies)
        # One request in flight on a, none on b: every new one goes to b.
        answers = [(await router.complete(request())).content for _ in range(20)]
        assert len(upstreams.a.bodies) == 1
        assert len(upstreams.b.bodies) == answered_by_b + 20
        upstreams.a.release()
        return answers, (await held).content

    answers, held_answer = run(scenario)
    assert answers == ["from b"] * 20
    assert held_answer == "from a"
