"""Routing seen through the chat API: the fallback named and billed, no retry after the first
token, and exact charges while a deployment fails half its calls (docs/api.md, Models and
providers; docs/billing.md)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from billing.models import Hold, LedgerEntry, UsageRecord
from billing.money import usage_cost
from billing.selectors import get_balance
from billing.services import top_up
from core.text import count_tokens
from llm.catalog import get_catalog, reset_catalog_cache
from llm.health import health
from tests.chat.helpers import sse_events, streamed_body
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, UserFactory
from tests.fake_upstream import FakeUpstream, running_fake_upstream
from tests.llm.helpers import TOOL_CONVERSATION

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
fallbacks = ["backup"]
[[models.deployments]]
base_url = "{a}"
weight = {weight_a}
[[models.deployments]]
base_url = "{b}"

[[models]]
id = "backup"
provider = "openai"
base_url = "{c}"
context_window = 8192
input_price_per_mtok = "3.00"
output_price_per_mtok = "15.00"
read_timeout = 5
"""


class Upstreams:
    def __init__(self, a: FakeUpstream, b: FakeUpstream, c: FakeUpstream) -> None:
        self.a, self.b, self.c = a, b, c


@pytest.fixture(scope="module")
def _servers() -> Iterator[tuple[FakeUpstream, FakeUpstream, FakeUpstream]]:
    with (
        running_fake_upstream() as a,
        running_fake_upstream() as b,
        running_fake_upstream() as c,
    ):
        yield a, b, c


def _use_catalog(settings: Any, tmp_path: Path, ups: Upstreams, weight_a: float) -> None:
    path = tmp_path / "models.toml"
    path.write_text(CATALOG.format(a=ups.a.url, b=ups.b.url, c=ups.c.url, weight_a=weight_a))
    settings.MODELS_FILE = path
    reset_catalog_cache()


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
    health.reset_local()
    ups = Upstreams(*_servers)
    # Deployment a is all but always tried first.
    _use_catalog(settings, tmp_path, ups, weight_a=10_000)
    yield ups
    for server in _servers:
        server.reset()
    health.reset_local()
    reset_catalog_cache()


def chat(client: Any, **body: Any) -> Any:
    return client.post(
        "/v1/chat/completions",
        {"model": "pool", "messages": [{"role": "user", "content": "hi"}], **body},
        format="json",
    )


@pytest.mark.django_db
def test_the_fallback_answers_is_named_and_billed_at_its_prices(
    funded_user: User, upstreams: Upstreams
) -> None:
    upstreams.a.script(status=500)
    upstreams.b.script(status=503)
    upstreams.c.script(reply="from the fallback", usage=(20, 10))
    client = client_for(ApiKeyFactory.create(user=funded_user))
    response = chat(client)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["model"] == "backup"
    assert body["choices"][0]["message"]["content"] == "from the fallback"
    assert body["usage"]["prompt_tokens"] == 20
    assert body["usage"]["completion_tokens"] == 10
    record = UsageRecord.objects.get()
    assert record.model_id == "backup"
    expected = usage_cost(get_catalog()["backup"], 20, 10)
    assert expected == Decimal("0.00021000")  # 20 x $3 + 10 x $15 per million
    assert record.cost == expected
    assert get_balance(funded_user) == Decimal("10") - expected


@pytest.mark.django_db
def test_a_streamed_fallback_names_the_fallback_in_every_chunk(
    funded_user: User, upstreams: Upstreams
) -> None:
    upstreams.a.script(status=500)
    upstreams.b.script(drop=True)
    upstreams.c.script(reply="streamed by backup", usage=(7, 4))
    client = client_for(ApiKeyFactory.create(user=funded_user))
    response = chat(client, stream=True, stream_options={"include_usage": True})
    assert response.status_code == 200
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    assert {event["model"] for event in events[:-1]} == {"backup"}
    text = "".join(e["choices"][0]["delta"].get("content", "") for e in events[:-1] if e["choices"])
    assert text == "streamed by backup"
    record = UsageRecord.objects.get()
    assert (record.model_id, record.cost) == ("backup", usage_cost(get_catalog()["backup"], 7, 4))


@pytest.mark.django_db
def test_a_stream_failing_after_its_first_token_is_charged_and_not_retried(
    funded_user: User, upstreams: Upstreams
) -> None:
    upstreams.a.script(reply="aaaa bbbb cccc dddd", stream_chunk_chars=5, reset_after_chunks=2)
    client = client_for(ApiKeyFactory.create(user=funded_user))
    response = chat(client, stream=True)
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    assert events[-2]["error"]["type"] == "upstream_error"
    text = "".join(e["choices"][0]["delta"].get("content", "") for e in events[:-2])
    assert text == "aaaa bbbb "
    assert {e["model"] for e in events[:-2]} == {"pool"}
    # Neither the other deployment nor the fallback was asked.
    assert upstreams.b.bodies == []
    assert upstreams.c.bodies == []
    record = UsageRecord.objects.get()
    assert record.model_id == "pool"
    assert record.completion_tokens == count_tokens(text)
    assert record.cost > 0
    assert get_balance(funded_user) == Decimal("10") - record.cost


@pytest.mark.django_db
def test_an_upstream_400_is_answered_at_once(funded_user: User, upstreams: Upstreams) -> None:
    upstreams.a.script(status=400)
    client = client_for(ApiKeyFactory.create(user=funded_user))
    response = chat(client)
    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"
    assert len(upstreams.a.bodies) == 1
    assert upstreams.b.bodies == [] and upstreams.c.bodies == []
    assert UsageRecord.objects.count() == 0
    assert get_balance(funded_user) == Decimal("10")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_fifty_concurrent_chats_with_a_flaky_deployment_all_succeed_and_charge_exactly(
    upstreams: Upstreams, settings: Any, tmp_path: Path
) -> None:
    # Equal weights; a fails every other call. A failure is retried on b (or a again), and
    # enough failures cool a down: either way every request is answered.
    _use_catalog(settings, tmp_path, upstreams, weight_a=1)
    upstreams.a.script(reply="from a", usage=(10, 5))
    upstreams.a.fail_every_other(status=503)
    upstreams.b.script(reply="from b", usage=(10, 5))
    user = UserFactory.create(username="routed")
    top_up(user=user, amount="5")
    key = ApiKeyFactory.create(user=user, detailed_logging=True, rpm_limit=1000)
    statuses: list[int] = []
    models: list[str] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(50)

    def one(index: int) -> None:
        try:
            client = client_for(key)
            barrier.wait(timeout=30)
            response = client.post(
                "/v1/chat/completions",
                {"model": "pool", "messages": [{"role": "user", "content": f"question {index}"}]},
                format="json",
            )
            statuses.append(response.status_code)
            if response.status_code == 200:
                models.append(response.json()["model"])
        except BaseException as exc:  # surfaced below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert statuses == [200] * 50
    assert models == ["pool"] * 50
    assert upstreams.c.bodies == []
    # a failed its 1st, 3rd, ... call, each retried once: the deployments saw 50 requests
    # answered plus those failures.
    to_a = len(upstreams.a.bodies)
    assert to_a >= 1
    assert to_a + len(upstreams.b.bodies) == 50 + (to_a + 1) // 2
    records = UsageRecord.objects.filter(user=user)
    assert records.count() == 50
    assert {record.cost for record in records} == {usage_cost(get_catalog()["pool"], 10, 5)}
    spent = sum(records.values_list("cost", flat=True), Decimal(0))
    assert get_balance(user) == Decimal("5") - spent
    ledger = sum(LedgerEntry.objects.filter(user=user).values_list("amount", flat=True), Decimal(0))
    assert ledger == get_balance(user)


# --- Fallbacks that cannot take the request ---

# "pool" on a falls back first to the embedded model (one choice, no tools), then to "toolless"
# on b (no tools), then to "capable" on c.
CAPABILITIES_CATALOG = """
[[models]]
id = "pool"
provider = "openai"
base_url = "{a}"
api_key_env = "FAKE_UPSTREAM_KEY"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
retries = 0
fallbacks = ["local", "toolless", "capable"]

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
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
tools = false

[[models]]
id = "capable"
provider = "openai"
base_url = "{c}"
context_window = 8192
input_price_per_mtok = "3.00"
output_price_per_mtok = "15.00"
read_timeout = 5

[[models]]
id = "stranded"
provider = "openai"
base_url = "{a}"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
retries = 0
fallbacks = ["local"]
"""


@pytest.fixture
def capabilities(upstreams: Upstreams, settings: Any, tmp_path: Path) -> Upstreams:
    path = tmp_path / "capabilities.toml"
    path.write_text(
        CAPABILITIES_CATALOG.format(a=upstreams.a.url, b=upstreams.b.url, c=upstreams.c.url)
    )
    settings.MODELS_FILE = path
    reset_catalog_cache()
    upstreams.a.script(status=500)
    upstreams.b.script(reply="from b", usage=(9, 3))
    upstreams.c.script(reply="from c", usage=(20, 10))
    return upstreams


@pytest.mark.django_db
@pytest.mark.parametrize("stream", [False, True])
def test_n_choices_fall_back_past_the_embedded_model_to_one_that_gives_n(
    funded_user: User, capabilities: Upstreams, stream: bool
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user))
    response = chat(client, n=4, stream=stream)
    assert response.status_code == 200, response.content
    if stream:
        events = sse_events(streamed_body(response))
        assert {event["model"] for event in events[:-1]} == {"toolless"}
        texts = {choice["index"]: "" for event in events[:-1] for choice in event["choices"]}
        for event in events[:-1]:
            for choice in event["choices"]:
                texts[choice["index"]] += choice["delta"].get("content") or ""
        replies = [texts[index] for index in sorted(texts)]
    else:
        body = response.json()
        assert body["model"] == "toolless"
        replies = [choice["message"]["content"] for choice in body["choices"]]
    assert replies == ["from b", "from b [1]", "from b [2]", "from b [3]"]
    assert len(capabilities.a.bodies) == 1
    assert capabilities.b.bodies[0]["n"] == 4
    assert capabilities.c.bodies == []
    record = UsageRecord.objects.get()
    assert record.model_id == "toolless"


@pytest.mark.django_db
def test_a_tool_conversation_falls_back_past_the_models_without_tools(
    funded_user: User, capabilities: Upstreams
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user))
    response = chat(client, messages=TOOL_CONVERSATION)
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["model"], body["choices"][0]["message"]["content"]) == ("capable", "from c")
    assert capabilities.b.bodies == []  # toolless: tools = false
    [sent] = capabilities.c.bodies
    assert [message["role"] for message in sent["messages"]] == ["user", "assistant", "tool"]
    record = UsageRecord.objects.get()
    assert (record.model_id, record.cost) == (
        "capable",
        usage_cost(get_catalog()["capable"], 20, 10),
    )


@pytest.mark.django_db
@pytest.mark.parametrize("stream", [False, True])
def test_n_choices_with_only_the_embedded_fallback_get_the_primary_failure(
    funded_user: User, capabilities: Upstreams, stream: bool
) -> None:
    client = client_for(ApiKeyFactory.create(user=funded_user))
    response = client.post(
        "/v1/chat/completions",
        {
            "model": "stranded",
            "messages": [{"role": "user", "content": "hi"}],
            "n": 4,
            "stream": stream,
        },
        format="json",
    )
    # Contract §15: the embedded fallback cannot give 4 choices and is skipped; the client gets
    # the requested model's failure (its upstream's 5xx: 502), never one choice.
    if stream:
        # Through Django the status line is committed before the first chunk (the gateway
        # answers a JSON 502 instead): the failure follows the role chunk, with no text.
        events = sse_events(streamed_body(response))
        assert events[-1] == "[DONE]"
        assert events[-2]["error"]["type"] == "upstream_error"
        assert [e["choices"][0]["delta"] for e in events[:-2]] == [
            {"role": "assistant", "content": ""}
        ]
    else:
        assert response.status_code == 502
        assert response.json()["error"]["type"] == "upstream_error"
    assert len(capabilities.a.bodies) == 1
    assert UsageRecord.objects.count() == 0
    assert get_balance(funded_user) == Decimal("10")


SMALL_FALLBACK = """
[[models]]
id = "roomy"
provider = "openai"
base_url = "{a}"
context_window = 32768
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
read_timeout = 5
retries = 0
fallbacks = ["small", "backup"]

[[models]]
id = "small"
provider = "openai"
base_url = "{b}"
context_window = 1024
input_price_per_mtok = "0.10"
output_price_per_mtok = "0.20"
read_timeout = 5

[[models]]
id = "backup"
provider = "openai"
base_url = "{c}"
context_window = 8192
input_price_per_mtok = "3.00"
output_price_per_mtok = "15.00"
read_timeout = 5
"""


@pytest.mark.django_db
def test_a_fallback_too_small_for_the_prompt_is_skipped(
    funded_user: User, upstreams: Upstreams, settings: Any, tmp_path: Path
) -> None:
    path = tmp_path / "small.toml"
    path.write_text(SMALL_FALLBACK.format(a=upstreams.a.url, b=upstreams.b.url, c=upstreams.c.url))
    settings.MODELS_FILE = path
    reset_catalog_cache()
    upstreams.a.script(status=500)
    upstreams.b.script(reply="from small")
    upstreams.c.script(reply="from backup")
    client = client_for(ApiKeyFactory.create(user=funded_user))
    long_text = "The quick brown fox jumps over the lazy dog. " * 150
    assert 1024 < count_tokens(long_text) < 8192
    response = client.post(
        "/v1/chat/completions",
        {"model": "roomy", "messages": [{"role": "user", "content": long_text}]},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["model"] == "backup"
    assert upstreams.b.bodies == []
    # A short prompt fits the small model, which answers first.
    response = client.post(
        "/v1/chat/completions",
        {"model": "roomy", "messages": [{"role": "user", "content": "hi"}]},
        format="json",
    )
    assert response.json()["model"] == "small"
    assert response.json()["choices"][0]["message"]["content"] == "from small"


@pytest.mark.django_db
def test_the_hold_covers_a_dearer_fallback(funded_user: User, upstreams: Upstreams) -> None:
    # The fallback costs 3 to 7.5 times the requested model; it answers with every token
    # max_tokens allows, and the hold placed before generation covers that charge.
    upstreams.a.script(status=500)
    upstreams.b.script(status=503)
    upstreams.c.script(reply="from the fallback", usage=(1, 10))
    client = client_for(ApiKeyFactory.create(user=funded_user))
    response = chat(client, stream=True, max_tokens=10)
    assert response.status_code == 200
    hold = Hold.objects.get(user=funded_user)
    assert hold.model_id == "pool"
    catalog = get_catalog()
    prompt = count_tokens("hi")
    assert hold.amount >= usage_cost(catalog["backup"], prompt, 10)
    assert hold.amount > usage_cost(catalog["pool"], 20, 10)
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    record = UsageRecord.objects.get()
    assert record.model_id == "backup"
    assert record.cost <= hold.amount
    assert not Hold.objects.filter(user=funded_user).exists()


@pytest.mark.django_db
def test_the_hold_leaves_out_a_fallback_the_router_would_skip(
    funded_user: User, upstreams: Upstreams, settings: Any, tmp_path: Path
) -> None:
    # Here "backup" has a 1,024-token window: the prompt fills it, so the router skips it.
    path = tmp_path / "small.toml"
    path.write_text(
        CATALOG.replace(
            'context_window = 8192\ninput_price_per_mtok = "3.00"',
            'context_window = 1024\ninput_price_per_mtok = "3.00"',
        ).format(a=upstreams.a.url, b=upstreams.b.url, c=upstreams.c.url, weight_a=10_000)
    )
    settings.MODELS_FILE = path
    reset_catalog_cache()
    upstreams.a.script(reply="from pool", usage=(2000, 10), stream_chunk_chars=4)
    client = client_for(ApiKeyFactory.create(user=funded_user))
    long_text = "The quick brown fox jumps over the lazy dog. " * 150
    prompt_floor = count_tokens(long_text)
    assert 1024 < prompt_floor < 8192
    response = client.post(
        "/v1/chat/completions",
        {
            "model": "pool",
            "messages": [{"role": "user", "content": long_text}],
            "max_tokens": 10,
            "stream": True,
        },
        format="json",
    )
    assert response.status_code == 200
    hold = Hold.objects.get(user=funded_user)
    catalog = get_catalog()
    # At the requested model's prices: the fallback could not have answered.
    assert hold.amount < usage_cost(catalog["backup"], prompt_floor, 10)
    assert hold.amount >= usage_cost(catalog["pool"], prompt_floor, 10)
    streamed_body(response)
