"""The activity log's records: one per API request of a key to a model endpoint, written by the
pipeline whatever the outcome (success, each failure class, a client that leaves), with the
response's X-Request-Id and never any message text (docs/billing.md, "Activity log")."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.http import StreamingHttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import ApiKey, User
from billing.models import ActivityRecord, Hold, UsageRecord
from chat.activity import ChatTrace
from chat.pipeline import admit, serve, stream_chunks
from core.asyncdb import in_caller_thread
from tests.chat.helpers import make_persona, sse_events, streamed_body
from tests.conftest import FakeClock, client_for
from tests.factories import ApiKeyFactory, raw_key
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

CHAT = "/v1/chat/completions"
AGENTS = "/v1/agents/chat/completions"
# In every message these tests send: it must reach no activity record.
SECRET = "CANARY-activity-7c1d message text"
THREAT = "I will kill you, I know where you live and I am coming for you tonight."
SAFE_START = (
    "Lists in Python always keep the order of their items. "
    "You can reverse one in place with the reverse method. "
)


def ask(text: str = SECRET) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def _only_record() -> ActivityRecord:
    records = list(ActivityRecord.objects.all())
    assert len(records) == 1, [(r.status, r.error_code) for r in records]
    return records[0]


def _assert_no_text(*texts: str) -> None:
    for values in ActivityRecord.objects.values():
        for text in (SECRET, *texts):
            assert text not in json.dumps(values, default=str)


@pytest.fixture
def key(funded_user: User) -> ApiKey:
    return ApiKeyFactory.create(user=funded_user, name="laptop")


@pytest.fixture
def client(key: ApiKey) -> APIClient:
    return client_for(key)


# --- Successes ---


@pytest.mark.parametrize("logging", [False, True])
def test_a_chat_is_recorded_with_its_charge_and_request_id(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path, logging: bool
) -> None:
    fake_upstream.script(reply="Sorted.", usage=(12, 6))
    key = ApiKeyFactory.create(user=funded_user, detailed_logging=logging)
    response = client_for(key).post(
        CHAT, {"model": "fake-gpt", "messages": ask()}, format="json", HTTP_X_REQUEST_ID="my-id-1"
    )
    assert response.status_code == 200, response.content
    assert response["X-Request-Id"] == "my-id-1"
    record = _only_record()
    usage = UsageRecord.objects.get()
    assert {
        "user": record.user_id,
        "key": record.api_key_id,
        "endpoint": record.endpoint,
        "requested": record.model_requested,
        "answered": record.model_answered,
        "persona": record.persona_id,
        "status": record.status,
        "error": (record.error_type, record.error_code),
        "finish": record.finish_reason,
        "tokens": (record.prompt_tokens, record.completion_tokens),
        "cost": record.cost,
        "request_id": record.request_id,
        "stream": record.stream,
    } == {
        "user": funded_user.pk,
        "key": key.pk,
        "endpoint": "chat",
        "requested": "fake-gpt",
        "answered": "fake-gpt",
        "persona": None,
        "status": 200,
        "error": ("", ""),
        "finish": "stop",
        "tokens": (12, 6),
        "cost": usage.cost,
        "request_id": "my-id-1",
        "stream": False,
    }
    assert usage.cost == Decimal("0.00002400")
    assert response.json()["usage"]["cost"] == "0.00002400"
    assert record.latency_ms >= 0
    assert record.created_at <= usage.created_at
    _assert_no_text("Sorted.")


def test_a_streamed_persona_chat_is_recorded_once_with_its_persona(
    key: ApiKey, client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply="Streamed answer.", usage=(20, 9))
    persona = make_persona(key.user, model="fake-text")
    response = client.post(
        AGENTS, {"persona_id": persona.pk, "messages": ask(), "stream": True}, format="json"
    )
    events = sse_events(streamed_body(response))
    assert events[-1] == "[DONE]"
    record = _only_record()
    assert (record.endpoint, record.persona_id, record.stream) == ("agents", persona.pk, True)
    # No model in the request: the persona's default is the one asked for.
    assert (record.model_requested, record.model_answered) == ("fake-text", "fake-text")
    assert (record.status, record.finish_reason) == (200, "stop")
    assert (record.prompt_tokens, record.completion_tokens) == (20, 9)
    assert record.cost == UsageRecord.objects.get().cost > 0
    assert record.request_id == response["X-Request-Id"]
    assert record.request_id.startswith("req_")
    _assert_no_text("Streamed answer.", persona.system_prompt)


def test_persona_as_model_is_recorded_as_asked(
    key: ApiKey, client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    persona = make_persona(key.user)
    response = client.post(
        CHAT, {"model": f"persona/{persona.pk}", "messages": ask()}, format="json"
    )
    assert response.status_code == 200, response.content
    record = _only_record()
    assert (record.model_requested, record.model_answered) == (f"persona/{persona.pk}", "fake-gpt")
    assert record.persona_id == persona.pk


# --- Failures before generation ---


@pytest.mark.parametrize(
    ("body", "status", "error_type", "code", "requested"),
    [
        (
            {"model": "fake-gpt", "messages": ask(), "temperature": 5},
            400,
            "invalid_request_error",
            "invalid_value",
            "fake-gpt",
        ),
        (
            {"model": "no-such-model", "messages": ask()},
            400,
            "invalid_request_error",
            "invalid_value",
            "no-such-model",
        ),
        (
            {"model": "fake-gpt", "persona_id": 999999, "messages": ask()},
            404,
            "not_found_error",
            "not_found",
            "fake-gpt",
        ),
        (
            {"model": "fake-gpt", "messages": [{"role": "user", "content": SECRET * 3000}]},
            400,
            "invalid_request_error",
            "context_length_exceeded",
            "fake-gpt",
        ),
    ],
    ids=["validation", "unknown-model", "persona-404", "context"],
)
def test_a_refused_request_is_recorded_with_its_error(
    client: APIClient,
    fake_upstream: FakeUpstream,
    upstream_catalog: Path,
    body: dict[str, Any],
    status: int,
    error_type: str,
    code: str,
    requested: str,
) -> None:
    response = client.post(CHAT, body, format="json")
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert (error["type"], error["code"]) == (error_type, code)
    record = _only_record()
    assert (record.status, record.error_type, record.error_code) == (status, error_type, code)
    assert record.model_requested == requested
    assert (record.model_answered, record.persona_id) == ("", None)
    assert (record.prompt_tokens, record.completion_tokens, record.cost) == (0, 0, Decimal(0))
    assert record.request_id == response["X-Request-Id"]
    assert not fake_upstream.requests
    _assert_no_text()


def test_malformed_json_is_recorded(client: APIClient) -> None:
    response = client.post(CHAT, "{not json", content_type="application/json")
    assert response.status_code == 400
    record = _only_record()
    assert (record.status, record.error_code, record.model_requested) == (400, "invalid_json", "")


def test_another_users_private_persona_is_not_named_in_the_record(
    client: APIClient, other_user: User, upstream_catalog: Path
) -> None:
    private = make_persona(other_user)
    response = client.post(AGENTS, {"persona_id": private.pk, "messages": ask()}, format="json")
    assert response.status_code == 404
    record = _only_record()
    assert (record.endpoint, record.status, record.persona_id) == ("agents", 404, None)


def test_no_credit_is_recorded_as_402(user: User, upstream_catalog: Path) -> None:
    persona = make_persona(user)
    key = ApiKeyFactory.create(user=user)
    response = client_for(key).post(
        AGENTS, {"persona_id": persona.pk, "messages": ask()}, format="json"
    )
    assert response.status_code == 402
    record = _only_record()
    assert (record.status, record.error_type, record.error_code) == (
        402,
        "insufficient_quota",
        "insufficient_quota",
    )
    # The persona was found before the balance refused: the record names it.
    assert (record.persona_id, record.model_requested) == (persona.pk, "fake-gpt")


def test_a_key_at_its_spend_limit_is_recorded_as_402(
    funded_user: User, upstream_catalog: Path
) -> None:
    key = ApiKeyFactory.create(user=funded_user, limit=Decimal("0"))
    response = client_for(key).post(CHAT, {"model": "fake-gpt", "messages": ask()}, format="json")
    assert response.status_code == 402
    record = _only_record()
    assert (record.status, record.error_code, record.api_key_id) == (
        402,
        "key_limit_exceeded",
        key.pk,
    )


def test_a_rate_limited_request_is_recorded_as_429(
    funded_user: User,
    fake_upstream: FakeUpstream,
    upstream_catalog: Path,
    fresh_rate_window: FakeClock,
) -> None:
    key = ApiKeyFactory.create(user=funded_user, rpm_limit=1)
    client = client_for(key)
    assert (
        client.post(CHAT, {"model": "fake-gpt", "messages": ask()}, format="json").status_code
        == 200
    )
    refused = client.post(CHAT, {"model": "fake-gpt", "messages": ask()}, format="json")
    assert refused.status_code == 429
    records = list(ActivityRecord.objects.order_by("id"))
    assert [(r.status, r.error_type, r.error_code) for r in records] == [
        (200, "", ""),
        (429, "rate_limit_error", "rate_limit_exceeded"),
    ]
    assert records[1].request_id == refused["X-Request-Id"] != records[0].request_id


def test_a_blocked_message_is_recorded_as_content_blocked(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    key = ApiKeyFactory.create(user=funded_user, guard="input")
    response = client_for(key).post(
        CHAT, {"model": "fake-gpt", "messages": ask(THREAT)}, format="json"
    )
    assert response.status_code == 400
    record = _only_record()
    assert (record.status, record.error_type, record.error_code) == (
        400,
        "invalid_request_error",
        "content_blocked",
    )
    _assert_no_text(THREAT)


def test_no_key_or_a_wrong_key_leaves_no_record(anon_client: APIClient) -> None:
    assert anon_client.post(CHAT, {"model": "x", "messages": ask()}).status_code == 401
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Bearer sk-not-a-key")
    assert wrong.post(CHAT, {"model": "x", "messages": ask()}).status_code == 401
    assert not ActivityRecord.objects.exists()


# --- Failures of the provider, the client and the guard ---


@pytest.mark.parametrize(("script", "status"), [({"status": 500}, 502), ({"hang": 5}, 504)])
@pytest.mark.parametrize("stream", [False, True])
def test_a_provider_failure_is_recorded_with_its_status(
    client: APIClient,
    fake_upstream: FakeUpstream,
    upstream_catalog: Path,
    script: dict[str, Any],
    status: int,
    stream: bool,
) -> None:
    fake_upstream.script(**script)
    response = client.post(
        CHAT, {"model": "fake-gpt", "messages": ask(), "stream": stream}, format="json"
    )
    if stream:
        # Through Django's handler the status line is sent first: the error is an event. The
        # record says how the request ended, as the gateway answers it (a JSON 502/504).
        assert sse_events(streamed_body(response))[-2]["error"]["type"] == "upstream_error"
    else:
        assert response.status_code == status
    record = _only_record()
    assert (record.status, record.error_type, record.stream) == (status, "upstream_error", stream)
    assert (record.completion_tokens, record.cost) == (0, Decimal(0))
    assert record.request_id == response["X-Request-Id"]
    assert not Hold.objects.exists()


def test_a_stream_that_fails_midway_is_recorded_with_its_error_and_charge(
    client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply="word " * 40, stream_chunk_chars=5, reset_after_chunks=4)
    response = client.post(
        CHAT, {"model": "fake-gpt", "messages": ask(), "stream": True}, format="json"
    )
    events = sse_events(streamed_body(response))
    assert events[-2]["error"]["type"] == "upstream_error"
    record = _only_record()
    usage = UsageRecord.objects.get()
    assert (record.status, record.error_type) == (502, "upstream_error")
    assert (record.completion_tokens, record.cost) == (usage.completion_tokens, usage.cost)
    assert record.completion_tokens > 0


def _streaming_request(key: ApiKey, request_id: str) -> Any:
    request = RequestFactory().post(
        CHAT,
        data=json.dumps({"model": "fake-gpt", "stream": True, "messages": ask()}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw_key(key)}",
    )
    # As core.middleware.RequestIdMiddleware sets it.
    request.request_id = request_id  # type: ignore[attr-defined]
    return request


def test_a_client_that_leaves_mid_stream_is_recorded_as_499_and_charged(
    key: ApiKey, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply="word " * 100, stream_chunk_chars=5, chunk_delay=0.01)

    async def read_some_then_leave() -> None:
        response = await serve(
            _streaming_request(key, "req_leaving"),
            persona_required=False,
            db=in_caller_thread,
            committed=False,
        )
        assert isinstance(response, StreamingHttpResponse)
        chunks = aiter(response.streaming_content)  # type: ignore[arg-type]
        for _ in range(4):
            await anext(chunks)
        await chunks.aclose()  # type: ignore[attr-defined]

    async_to_sync(read_some_then_leave)()
    record = _only_record()
    usage = UsageRecord.objects.get()
    assert (record.status, record.error_type, record.error_code) == (
        499,
        "",
        "client_closed_request",
    )
    assert record.request_id == "req_leaving"
    assert record.stream is True
    # Charged for what was generated before it left, and recorded with that charge.
    assert 0 < record.completion_tokens == usage.completion_tokens
    assert record.cost == usage.cost > 0


def test_a_client_gone_at_the_role_chunk_is_recorded_once(
    key: ApiKey, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply="word " * 100, stream_chunk_chars=5, chunk_delay=0.05)
    trace = ChatTrace.begin("chat", _streaming_request(key, "req_gone"))
    ctx = admit(_streaming_request(key, "req_gone"), persona_required=False, trace=trace)

    async def first_chunk_then_leave() -> None:
        chunks = stream_chunks(ctx, db=in_caller_thread)
        await anext(chunks)
        await chunks.aclose()  # the client left while the role chunk was being sent

    async_to_sync(first_chunk_then_leave)()
    record = _only_record()
    # Nothing generated, nothing charged: the record is written on its own.
    assert (record.status, record.error_code, record.request_id) == (
        499,
        "client_closed_request",
        "req_gone",
    )
    assert (record.completion_tokens, record.cost) == (0, Decimal(0))
    assert not UsageRecord.objects.exists()


@pytest.mark.parametrize("stream", [False, True])
def test_an_output_guard_ending_is_recorded_as_content_filter(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path, stream: bool
) -> None:
    fake_upstream.script(
        reply=SAFE_START + THREAT + " More text after the threat.",
        stream_chunk_chars=4,
        usage=(30, 60),
    )
    key = ApiKeyFactory.create(user=funded_user, guard="output")
    response = client_for(key).post(
        CHAT, {"model": "fake-gpt", "messages": ask(), "stream": stream}, format="json"
    )
    if stream:
        streamed_body(response)
    else:
        assert response.json()["choices"][0]["finish_reason"] == "content_filter"
    record = _only_record()
    assert (record.status, record.finish_reason, record.error_type) == (200, "content_filter", "")
    assert record.cost == UsageRecord.objects.get().cost > 0
    _assert_no_text(THREAT)


# --- The playground and moderation ---


def test_a_playground_chat_and_its_refusal_are_recorded_without_a_key(
    funded_user: User, upstream_catalog: Path, fake_upstream: FakeUpstream
) -> None:
    web = Client()
    web.force_login(funded_user)
    response = web.post(
        "/playground/chat",
        {"model": "fake-gpt", "message": SECRET},
        content_type="application/json",
    )
    assert response.status_code == 200
    streamed_body(response)
    refused = web.post(
        "/playground/chat", {"model": "nope", "message": SECRET}, content_type="application/json"
    )
    assert refused.status_code == 400
    records = list(ActivityRecord.objects.order_by("id"))
    assert [(r.endpoint, r.api_key_id, r.status, r.model_requested) for r in records] == [
        ("playground", None, 200, "fake-gpt"),
        ("playground", None, 400, "nope"),
    ]
    assert records[0].request_id == response["X-Request-Id"]
    assert records[1].request_id == refused["X-Request-Id"]
    _assert_no_text()


def test_moderation_requests_are_recorded_successes_and_failures(
    key: ApiKey, client: APIClient
) -> None:
    ok = client.post("/v1/moderation", {"content": SECRET}, format="json")
    assert ok.status_code == 200
    many = client.post(
        "/v1/moderations", {"input": [SECRET, "Have a nice day"], "model": "omni"}, format="json"
    )
    assert many.status_code == 200
    bad = client.post("/v1/moderations", {"input": 5}, format="json")
    assert bad.status_code == 400
    records = list(ActivityRecord.objects.order_by("id"))
    assert [(r.endpoint, r.status, r.error_type, r.model_requested) for r in records] == [
        ("moderation", 200, "", ""),
        ("moderations", 200, "", "omni"),
        ("moderations", 400, "invalid_request_error", ""),
    ]
    assert [r.request_id for r in records] == [
        ok["X-Request-Id"],
        many["X-Request-Id"],
        bad["X-Request-Id"],
    ]
    assert records[0].model_answered.startswith("nova-moderation-")
    assert records[0].prompt_tokens > 0 and records[1].prompt_tokens > records[0].prompt_tokens
    assert all(r.api_key_id == key.pk and r.cost == 0 for r in records)
    _assert_no_text()


def test_a_rate_limited_moderation_is_recorded_and_401_is_not(
    funded_user: User, anon_client: APIClient, fresh_rate_window: FakeClock
) -> None:
    key = ApiKeyFactory.create(user=funded_user, rpm_limit=1)
    client = client_for(key)
    assert client.post("/v1/moderation", {"content": "hi"}, format="json").status_code == 200
    assert client.post("/v1/moderation", {"content": "hi"}, format="json").status_code == 429
    assert anon_client.post("/v1/moderation", {"content": "hi"}, format="json").status_code == 401
    assert list(ActivityRecord.objects.order_by("id").values_list("status", "error_type")) == [
        (200, ""),
        (429, "rate_limit_error"),
    ]


# --- Keys, failures to record ---


def test_a_deleted_key_leaves_its_records_without_a_key(
    key: ApiKey, client: APIClient, upstream_catalog: Path
) -> None:
    client.post(CHAT, {"model": "no-such-model", "messages": ask()}, format="json")
    key.delete()
    record = _only_record()
    assert (record.api_key_id, record.user_id, record.status) == (None, key.user_id, 400)


def test_a_failed_activity_write_does_not_change_the_response(
    client: APIClient, upstream_catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(activity: ActivityRecord) -> None:
        raise RuntimeError("the activity table is gone")

    monkeypatch.setattr("billing.activity.record_activity", refuse)
    response = client.post(CHAT, {"model": "no-such-model", "messages": ask()}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "model"
    assert not ActivityRecord.objects.exists()


def test_a_refused_chat_costs_one_insert_for_its_record(
    client: APIClient, upstream_catalog: Path
) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(CHAT, {"model": "no-such-model", "messages": ask()}, format="json")
    assert response.status_code == 400
    writes = [q["sql"] for q in queries.captured_queries if "billing_activityrecord" in q["sql"]]
    assert len(writes) == 1 and writes[0].startswith('INSERT INTO "billing_activityrecord"')
