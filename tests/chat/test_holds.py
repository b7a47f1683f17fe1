"""Credit held per request (bounded overdraft), the context window checked before generation,
and pending charges recorded exactly once."""

from __future__ import annotations

import json
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.test import RequestFactory
from rest_framework.test import APIClient

from accounts.models import User
from billing.models import ActivityRecord, Balance, Hold, LedgerEntry, UsageRecord
from billing.money import usage_cost
from billing.selectors import get_balance
from billing.services import HoldSettled, charge_usage, place_hold, release_hold, top_up
from chat.activity import ChatTrace
from chat.pipeline import admit, pending_records, replay_record, stream_chunks
from core.asyncdb import in_caller_thread
from core.errors import InsufficientQuota
from llm.catalog import get_catalog
from llm.health import health
from tests.chat.helpers import make_persona, sse_events, streamed_body
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, UserFactory, raw_key
from tests.fake_upstream import FakeUpstream

pytestmark = pytest.mark.django_db

CHAT = "/v1/chat/completions"


def _reserved(user: User) -> Decimal:
    return Balance.objects.values_list("reserved", flat=True).get(user=user)


def _books(user: User) -> tuple[Decimal, Decimal, Decimal]:
    ledger = sum(LedgerEntry.objects.filter(user=user).values_list("amount", flat=True), Decimal(0))
    used = sum(UsageRecord.objects.filter(user=user).values_list("cost", flat=True), Decimal(0))
    return ledger, get_balance(user), used


# --- Holds: the service ---


def test_a_hold_reserves_credit_and_its_charge_settles_it(funded_user: User) -> None:
    hold = place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("0.5"))
    assert _reserved(funded_user) == Decimal("0.5")
    assert get_balance(funded_user) == Decimal("10")  # held, not spent

    def charge() -> None:
        charge_usage(
            user=funded_user,
            api_key=None,
            model_id="m",
            prompt_tokens=10,
            completion_tokens=5,
            cost=Decimal("0.2"),
            hold=hold,
        )

    charge()
    assert _reserved(funded_user) == 0
    assert get_balance(funded_user) == Decimal("9.8")
    assert not Hold.objects.exists()
    # A second charge for the same hold writes nothing: a request is charged once.
    with pytest.raises(HoldSettled):
        charge()
    assert UsageRecord.objects.count() == 1
    assert get_balance(funded_user) == Decimal("9.8")


def test_release_gives_the_credit_back_once(funded_user: User) -> None:
    hold = place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("3"))
    assert release_hold(hold) is True
    assert release_hold(hold) is False
    assert _reserved(funded_user) == 0
    assert get_balance(funded_user) == Decimal("10")


def test_holds_refuse_once_the_free_credit_is_used_up(funded_user: User) -> None:
    place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("6"))
    place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("6"))  # 4 was free
    with pytest.raises(InsufficientQuota):
        place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("0.01"))
    assert _reserved(funded_user) == Decimal("12")


def test_no_balance_row_is_402(user: User) -> None:
    with pytest.raises(InsufficientQuota):
        place_hold(user=user, api_key=None, model_id="m", amount=Decimal("0"))


# --- Holds: through the chat API ---


def test_chat_holds_the_most_it_can_cost_and_settles_to_the_exact_cost(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply="ok", usage=(20, 3))
    response = api_client.post(
        CHAT,
        {"model": "fake-gpt", "max_tokens": 50, "messages": [{"role": "user", "content": "Hi"}]},
        format="json",
    )
    assert response.status_code == 200, response.content
    model = get_catalog().get("fake-gpt")
    assert model is not None
    assert get_balance(funded_user) == Decimal("10") - usage_cost(model, 20, 3)
    assert _reserved(funded_user) == 0 and not Hold.objects.exists()
    ledger, balance, used = _books(funded_user)
    assert ledger == balance and used == usage_cost(model, 20, 3)


def test_a_request_is_refused_while_others_hold_the_credit(
    user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    top_up(user=user, amount="0.01")
    # Another request in flight holds all but a hair of the credit.
    place_hold(user=user, api_key=None, model_id="fake-gpt", amount=Decimal("0.01"))
    client = client_for(ApiKeyFactory.create(user=user))
    response = client.post(
        CHAT, {"model": "fake-gpt", "messages": [{"role": "user", "content": "Hi"}]}, format="json"
    )
    assert response.status_code == 402
    assert response.json()["error"]["type"] == "insufficient_quota"
    assert fake_upstream.bodies == []  # nothing was generated


def test_a_failed_upstream_releases_the_hold(
    funded_user: User, api_client: APIClient, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(status=500)
    for stream in (False, True):
        response = api_client.post(
            CHAT,
            {"model": "fake-gpt", "stream": stream, "messages": [{"role": "user", "content": "x"}]},
            format="json",
        )
        if stream:
            events = sse_events(streamed_body(response))
            assert events[-2]["error"]["type"] == "upstream_error"
        else:
            assert response.status_code == 502
    assert not Hold.objects.exists()
    assert _reserved(funded_user) == 0
    assert get_balance(funded_user) == Decimal("10")


def test_a_client_gone_at_the_role_chunk_closes_the_upstream_and_returns_the_hold(
    funded_user: User, fake_upstream: FakeUpstream, upstream_catalog: Path
) -> None:
    fake_upstream.script(reply="word " * 100, stream_chunk_chars=5, chunk_delay=0.05)
    key = ApiKeyFactory.create(user=funded_user)
    request = RequestFactory().post(
        CHAT,
        data=json.dumps(
            {"model": "fake-gpt", "stream": True, "messages": [{"role": "user", "content": "x"}]}
        ),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw_key(key)}",
    )
    ctx = admit(request, persona_required=False)
    assert Hold.objects.count() == 1

    async def first_chunk_then_leave() -> bytes:
        chunks = stream_chunks(ctx, db=in_caller_thread)
        first = await anext(chunks)
        await chunks.aclose()  # the client left while the role chunk was being sent
        return first

    in_flight_before = health.in_flight(ctx.model, 0)
    first = async_to_sync(first_chunk_then_leave)()
    assert sse_events(first)[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    # The deployment's in-flight count ended with the stream (a stream closed before its first
    # event was read must still end it).
    assert health.in_flight(ctx.model, 0) == in_flight_before
    # The provider's stream was closed (the upstream saw Nova go) and nothing is owed.
    deadline = time.monotonic() + 5
    while fake_upstream.disconnects < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_upstream.disconnects == 1
    assert not Hold.objects.exists()
    assert not UsageRecord.objects.exists()
    assert _reserved(funded_user) == 0
    assert get_balance(funded_user) == Decimal("10")


# --- The context window ---


def _local_chat(client: APIClient, content: str, **extra: Any) -> Any:
    return client.post(
        CHAT,
        {"model": "nova-local", "messages": [{"role": "user", "content": content}], **extra},
        format="json",
    )


def test_a_prompt_over_the_context_window_is_400_before_generation(
    funded_user: User, api_client: APIClient
) -> None:
    # nova-local has 8,192 tokens; each "word " is one token.
    response = _local_chat(api_client, "word " * 8200)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == "messages"
    assert error["code"] == "context_length_exceeded"
    assert error["type"] == "invalid_request_error"
    assert "8192" in error["message"]
    assert not UsageRecord.objects.exists() and not Hold.objects.exists()
    assert get_balance(funded_user) == Decimal("10")
    # Just inside the window is served.
    assert _local_chat(api_client, "word " * 8000, max_tokens=5).status_code == 200


def test_megabytes_of_text_are_refused_without_being_tokenized(
    funded_user: User, api_client: APIClient
) -> None:
    # 3 MB in one "word": one token per 5 characters would be 600,000 tokens.
    response = _local_chat(api_client, "x" * 3_000_000)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "context_length_exceeded"


def test_persona_prompt_counts_toward_the_window(
    funded_user: User, api_client: APIClient, upstream_catalog: Path
) -> None:
    persona = make_persona(funded_user, model="fake-text", prompt="rule " * 4000)
    response = api_client.post(
        "/v1/agents/chat/completions",
        {"persona_id": persona.pk, "messages": [{"role": "user", "content": "hi " * 200}]},
        format="json",
    )
    assert response.status_code == 400  # fake-text: 4,096 tokens
    assert response.json()["error"]["code"] == "context_length_exceeded"


# --- Pending charges and stale holds ---


def _record_file(tmp_path: Path, hold: Hold, user: User, **extra: Any) -> Path:
    data = {
        "hold_id": hold.pk,
        "hold_amount": str(hold.amount),
        "user_id": user.pk,
        "api_key_id": None,
        "model_id": "nova-local",
        "persona_id": None,
        "conversation_id": None,
        "save": True,
        "mode": "api",
        "stored_system_prompt": None,
        "new_messages": [{"role": "user", "content": "hello"}],
        "content": "a reply",
        "prompt_tokens": 100,
        "completion_tokens": 50,
        "completed": True,
        **extra,
    }
    path = tmp_path / f"hold-{hold.pk}-abcd.json"
    path.write_text(json.dumps(data))
    return path


def test_a_pending_charge_is_recorded_once_however_often_replayed(
    funded_user: User, settings: Any, tmp_path: Path
) -> None:
    settings.PENDING_CHARGES_DIR = tmp_path
    hold = place_hold(user=funded_user, api_key=None, model_id="nova-local", amount=Decimal("1"))
    path = _record_file(tmp_path, hold, funded_user)
    copy = tmp_path / f"hold-{hold.pk}-ef01.json"
    copy.write_text(path.read_text())
    assert pending_records() == sorted([path, copy])
    assert replay_record(path) is True
    assert replay_record(copy) is False
    assert pending_records() == []
    usage = UsageRecord.objects.get()
    assert (usage.prompt_tokens, usage.completion_tokens) == (100, 50)
    assert usage.conversation is not None  # the turn was saved with the charge
    assert [m.role for m in usage.conversation.messages.order_by("id")] == ["user", "assistant"]
    ledger, balance, used = _books(funded_user)
    assert ledger == balance == Decimal("10") - used
    assert _reserved(funded_user) == 0


def test_a_replayed_charge_writes_the_requests_activity_record_once(
    funded_user: User, settings: Any, tmp_path: Path
) -> None:
    settings.PENDING_CHARGES_DIR = tmp_path
    hold = place_hold(user=funded_user, api_key=None, model_id="nova-local", amount=Decimal("1"))
    trace = ChatTrace(
        endpoint=ActivityRecord.Endpoint.CHAT,
        request_id="req-kept-in-a-pending-charge",
        user_id=funded_user.pk,
        model_requested="nova-local",
        model_answered="nova-local",
        stream=True,
        finish_reason="stop",
        latency_ms=1234,
    )
    path = _record_file(tmp_path, hold, funded_user, activity=trace.to_json())
    copy = tmp_path / f"hold-{hold.pk}-ef01.json"
    copy.write_text(path.read_text())
    assert replay_record(path) is True
    assert replay_record(copy) is False
    record = ActivityRecord.objects.get()
    usage = UsageRecord.objects.get()
    assert (record.request_id, record.status, record.stream, record.latency_ms) == (
        "req-kept-in-a-pending-charge",
        200,
        True,
        1234,
    )
    assert (record.prompt_tokens, record.completion_tokens, record.cost) == (
        100,
        50,
        usage.cost,
    )
    assert record.user_id == funded_user.pk and record.finish_reason == "stop"


def test_settle_holds_charges_records_and_releases_abandoned_holds(
    funded_user: User, settings: Any, tmp_path: Path
) -> None:
    settings.PENDING_CHARGES_DIR = tmp_path
    recorded = place_hold(
        user=funded_user, api_key=None, model_id="nova-local", amount=Decimal("1")
    )
    abandoned = place_hold(
        user=funded_user, api_key=None, model_id="nova-local", amount=Decimal("2")
    )
    fresh = place_hold(user=funded_user, api_key=None, model_id="nova-local", amount=Decimal("3"))
    Hold.objects.filter(pk__in=[recorded.pk, abandoned.pk]).update(
        created_at=fresh.created_at.replace(year=fresh.created_at.year - 1)
    )
    _record_file(tmp_path, recorded, funded_user)
    call_command("settle_holds", "--older-than", "600")
    # The recorded one is charged, the abandoned one released, the fresh one (a request still
    # running) left alone.
    assert list(Hold.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert _reserved(funded_user) == Decimal("3")
    assert UsageRecord.objects.count() == 1
    ledger, balance, used = _books(funded_user)
    assert ledger == balance == Decimal("10") - used


# --- What a public persona shares (README, Personas) ---


def test_a_public_persona_answers_others_from_its_knowledge_without_listing_it(
    funded_user: User, other_user: User
) -> None:
    persona = make_persona(
        funded_user,
        model="nova-local",
        public=True,
        items=[("knowledge", "The warehouse opens at seven on weekdays.", {})],
    )
    top_up(user=other_user, amount="5")
    other = client_for(ApiKeyFactory.create(user=other_user))
    owner = client_for(ApiKeyFactory.create(user=funded_user))

    def reply(client: APIClient, text: str) -> str:
        response = client.post(
            "/v1/agents/chat/completions",
            {"persona_id": persona.pk, "messages": [{"role": "user", "content": text}]},
            format="json",
        )
        assert response.status_code == 200, response.content
        return str(response.json()["choices"][0]["message"]["content"])

    # The item's title ("knowledge item") is offered as a topic to its owner only.
    assert "knowledge item" in reply(owner, "hello")
    assert "knowledge item" not in reply(other, "hello")
    # Anyone who asks gets the answer from the knowledge: that is what it is for.
    assert "seven on weekdays" in reply(other, "When does the warehouse open?")
    # The items themselves stay the owner's: no list through the API.
    listing = other.get(f"/v1/personas/{persona.pk}/training-data")
    assert listing.status_code == 403


def test_persona_chat_reads_visibility_from_the_database_not_a_cache(
    funded_user: User, other_user: User
) -> None:
    persona = make_persona(funded_user, model="nova-local", public=True)
    top_up(user=other_user, amount="5")
    other = client_for(ApiKeyFactory.create(user=other_user))
    body = {"persona_id": persona.pk, "messages": [{"role": "user", "content": "hi"}]}
    assert other.post("/v1/agents/chat/completions", body, format="json").status_code == 200
    # A write that reaches no cache at all (a queryset update, as a stalled cache would leave
    # it) still takes effect on the next request.
    type(persona).objects.filter(pk=persona.pk).update(is_public=False)
    response = other.post("/v1/agents/chat/completions", body, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["type"] == "not_found_error"


def test_user_without_credit_gets_402_not_a_hold(db: None) -> None:
    user = UserFactory.create(username="broke")
    client = client_for(ApiKeyFactory.create(user=user))
    response = _local_chat(client, "hello")
    assert response.status_code == 402
    assert not Hold.objects.exists()


def test_the_context_check_comes_before_the_402(db: None) -> None:
    # A 400 comes before a 402 (docs/api.md, Errors). A prompt that cannot fit is a 400 even for a
    # user with no credit, and a user with no credit and a prompt that fits gets the 402.
    client = client_for(ApiKeyFactory.create(user=UserFactory.create(username="broke-and-verbose")))
    too_long = _local_chat(client, "word " * 8200)
    assert too_long.status_code == 400
    assert too_long.json()["error"]["code"] == "context_length_exceeded"
    assert _local_chat(client, "hello").status_code == 402
