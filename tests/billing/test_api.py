"""GET /v1/key and GET /v1/usage (docs/billing.md), field by field, and a limit through chat."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.limits import set_key_limit, set_user_limit
from accounts.models import ApiKey, User
from billing import windows
from billing.models import UsageRecord
from billing.services import charge_usage, top_up
from personas.models import Persona
from tests.conftest import client_for
from tests.factories import ApiKeyFactory, PersonaFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 4, 15, 30, tzinfo=UTC)  # a Wednesday


@pytest.fixture(autouse=True)
def clock() -> Iterator[list[datetime]]:
    now = [NOW]
    with windows.clock.use(lambda: now[0]):
        yield now


def charge(
    user: User,
    key: ApiKey | None,
    cost: str,
    *,
    at: datetime,
    model: str = "nova-local",
    persona: Persona | None = None,
    tokens: tuple[int, int] = (10, 5),
) -> None:
    with windows.clock.use(lambda: at):
        charge_usage(
            user=user,
            api_key=key,
            model_id=model,
            prompt_tokens=tokens[0],
            completion_tokens=tokens[1],
            cost=Decimal(cost),
            persona=persona,
        )


@pytest.fixture
def key(user: User) -> ApiKey:
    top_up(user=user, amount=Decimal("100"), note="funds")
    return ApiKeyFactory.create(user=user, name="laptop", rpm_limit=30, detailed_logging=True)


# --- GET /v1/key ---


@pytest.mark.parametrize("path", ["/v1/key", "/v1/key/", "/api/v1/key", "/api/v1/key/"])
def test_key_endpoint_pins_every_field(key: ApiKey, user: User, path: str) -> None:
    set_key_limit(key=key, limit="5", limit_reset="daily")
    charge(user, key, "1.25", at=NOW)  # today
    charge(user, key, "2", at=NOW - timedelta(days=2))  # Monday: this week
    charge(user, key, "3", at=NOW - timedelta(days=3, hours=1))  # Sunday: this month only
    charge(user, key, "4", at=NOW - timedelta(days=40))  # January
    charge(user, None, "10", at=NOW)  # the playground: the user's, not the key's
    response = client_for(key).get(path)
    assert response.status_code == 200
    assert response.json() == {
        "data": {
            "label": "laptop",
            "prefix": key.prefix,
            "limit": "5.00000000",
            "limit_reset": "daily",
            "limit_remaining": "3.75000000",
            "usage": "10.25000000",
            "usage_daily": "1.25000000",
            "usage_weekly": "3.25000000",
            "usage_monthly": "6.25000000",
            "detailed_logging": True,
            "rate_limit": {"requests": 30, "interval": "1m"},
            "balance": "79.75000000",
        }
    }
    assert response["X-RateLimit-Limit"] == "30"


def test_key_without_limit_shows_nulls_and_never(key: ApiKey) -> None:
    data = client_for(key).get("/v1/key").json()["data"]
    assert data["limit"] is None
    assert data["limit_reset"] is None
    assert data["limit_remaining"] is None
    assert data["usage"] == "0.00000000"


def test_limit_remaining_never_goes_below_zero(key: ApiKey, user: User) -> None:
    set_key_limit(key=key, limit="1", limit_reset="never")
    charge(user, key, "1.5", at=NOW - timedelta(days=300))
    data = client_for(key).get("/v1/key").json()["data"]
    assert data["limit_reset"] is None  # never
    assert data["limit_remaining"] == "0.00000000"
    assert data["usage"] == "1.50000000"


def test_key_endpoint_shows_only_the_calling_key(key: ApiKey, user: User) -> None:
    other = ApiKeyFactory.create(user=user, name="ci")
    charge(user, other, "2", at=NOW)
    data = client_for(key).get("/v1/key").json()["data"]
    assert data["usage"] == "0.00000000"
    assert data["balance"] == "98.00000000"


def test_key_endpoint_needs_a_key(anon_client: APIClient) -> None:
    response = anon_client.get("/v1/key")
    assert response.status_code == 401
    assert response.json()["error"]["type"] == "authentication_error"


def test_key_endpoint_refuses_post(key: ApiKey) -> None:
    response = client_for(key).post("/v1/key", {}, format="json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


# --- GET /v1/usage ---


@pytest.fixture
def history(user: User, key: ApiKey, other_user: User) -> dict[str, Any]:
    """Usage of ``user`` over three days, two keys, two models and a persona; and another
    user's, which must never show."""
    second = ApiKeyFactory.create(user=user, name="ci")
    persona = PersonaFactory.create(owner=user)
    charge(user, key, "0.1", at=NOW, tokens=(100, 10))
    charge(user, key, "0.2", at=NOW, model="fake-gpt", tokens=(200, 20))
    charge(user, second, "0.3", at=NOW - timedelta(days=1), persona=persona, tokens=(300, 30))
    charge(user, None, "0.4", at=NOW - timedelta(days=2), tokens=(400, 40))
    charge(user, key, "9", at=NOW - timedelta(days=31), tokens=(1, 1))  # outside 30 days
    top_up(user=other_user, amount=Decimal("10"), note="t")
    theirs = ApiKeyFactory.create(user=other_user)
    charge(other_user, theirs, "5", at=NOW, tokens=(7, 7))
    return {"key": key, "second": second, "persona": persona, "theirs": theirs}


def test_usage_defaults_to_the_last_30_days_per_day(
    key: ApiKey, history: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(3):  # the key, its last use, the summary
        response = client_for(key).get("/v1/usage")
    assert response.status_code == 200
    assert response.json() == {
        "object": "list",
        "data": [
            {
                "day": "2026-03-02",
                "requests": 1,
                "prompt_tokens": 400,
                "completion_tokens": 40,
                "cost": "0.40000000",
            },
            {
                "day": "2026-03-03",
                "requests": 1,
                "prompt_tokens": 300,
                "completion_tokens": 30,
                "cost": "0.30000000",
            },
            {
                "day": "2026-03-04",
                "requests": 2,
                "prompt_tokens": 300,
                "completion_tokens": 30,
                "cost": "0.30000000",
            },
        ],
        "total": {
            "requests": 4,
            "prompt_tokens": 1000,
            "completion_tokens": 100,
            "cost": "1.00000000",
        },
    }


def test_usage_groups_combine_in_the_order_given(key: ApiKey, history: dict[str, Any]) -> None:
    second, persona = history["second"], history["persona"]
    response = client_for(key).get(
        "/api/v1/usage/", {"group_by": "key,model,persona", "from": "2026-02-01"}
    )
    assert response.status_code == 200
    rows = [
        (row["key"], row["model"], row["persona"], row["requests"], row["cost"])
        for row in response.json()["data"]
    ]
    # Sorted by key prefix, then model, then persona; no key (the playground) last.
    with_keys = [
        (key.prefix, "fake-gpt", None, 1, "0.20000000"),
        (key.prefix, "nova-local", None, 2, "9.10000000"),
        (second.prefix, "nova-local", persona.pk, 1, "0.30000000"),
    ]
    expected = [*sorted(with_keys), (None, "nova-local", None, 1, "0.40000000")]
    assert rows == expected
    assert set(response.json()["data"][0]) == {
        "key",
        "key_source",
        "model",
        "persona",
        "requests",
        "prompt_tokens",
        "completion_tokens",
        "cost",
    }
    assert response.json()["total"]["cost"] == "10.00000000"


def test_usage_filters_by_key_and_model(key: ApiKey, history: dict[str, Any]) -> None:
    client = client_for(key)
    by_key = client.get("/v1/usage", {"key": history["second"].prefix, "group_by": "model"})
    assert by_key.json()["data"] == [
        {
            "model": "nova-local",
            "requests": 1,
            "prompt_tokens": 300,
            "completion_tokens": 30,
            "cost": "0.30000000",
        }
    ]
    by_model = client.get("/v1/usage", {"model": "fake-gpt", "group_by": "day,key"})
    assert by_model.json()["data"] == [
        {
            "day": "2026-03-04",
            "key": key.prefix,
            "key_source": "key",
            "requests": 1,
            "prompt_tokens": 200,
            "completion_tokens": 20,
            "cost": "0.20000000",
        }
    ]


def test_deleted_keys_and_the_playground_are_told_apart(
    user: User, key: ApiKey, history: dict[str, Any]
) -> None:
    gone = [ApiKeyFactory.create(user=user, name=f"gone {i}") for i in range(2)]
    for i, old in enumerate(gone):
        charge(user, old, f"0.0{i + 1}", at=NOW, tokens=(1, 1))
        old.delete()
    response = client_for(key).get("/v1/usage", {"group_by": "key"})
    assert response.status_code == 200
    rows = [(r["key"], r["key_source"], r["cost"]) for r in response.json()["data"]]
    assert sorted(rows[:2]) == sorted(
        [(key.prefix, "key", "0.30000000"), (history["second"].prefix, "key", "0.30000000")]
    )
    # One row per deleted key, and the playground's (no key), each saying what it is.
    assert sorted(rows[2:]) == [
        (None, "deleted_key", "0.01000000"),
        (None, "deleted_key", "0.02000000"),
        (None, "playground", "0.40000000"),
    ]


def test_another_users_key_prefix_gives_nothing(key: ApiKey, history: dict[str, Any]) -> None:
    response = client_for(key).get(
        "/v1/usage", {"key": history["theirs"].prefix, "group_by": "key"}
    )
    assert response.status_code == 200
    assert response.json() == {
        "object": "list",
        "data": [],
        "total": {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost": "0.00000000"},
    }


def test_usage_never_shows_another_users_usage(history: dict[str, Any]) -> None:
    response = client_for(history["theirs"]).get("/v1/usage", {"group_by": "model,key"})
    assert [(row["model"], row["key"], row["cost"]) for row in response.json()["data"]] == [
        ("nova-local", history["theirs"].prefix, "5.00000000")
    ]


def test_usage_range_is_inclusive_and_up_to_366_days(key: ApiKey, history: dict[str, Any]) -> None:
    client = client_for(key)
    one_day = client.get("/v1/usage", {"from": "2026-03-03", "to": "2026-03-03"})
    assert [row["day"] for row in one_day.json()["data"]] == ["2026-03-03"]
    year = client.get("/v1/usage", {"from": "2025-03-04", "to": "2026-03-04"})
    assert year.status_code == 200  # 366 days
    assert year.json()["total"]["cost"] == "10.00000000"


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"from": "2026-13-01"}, "from"),
        ({"to": "yesterday"}, "to"),
        ({"from": "2026-03-05", "to": "2026-03-04"}, "from"),
        ({"from": "2025-03-03", "to": "2026-03-04"}, "from"),  # 367 days
        ({"from": "2025-01-01"}, "from"),  # to defaults to today: too long
        ({"group_by": "hour"}, "group_by"),
        ({"group_by": "day,day"}, "group_by"),
        ({"group_by": "day,"}, "group_by"),
        ({"key": "k" * 65}, "key"),
        ({"model": "a\x00b"}, "model"),
    ],
)
def test_bad_usage_parameters_are_400_naming_the_parameter(
    key: ApiKey, params: dict[str, str], param: str
) -> None:
    response = client_for(key).get("/v1/usage", params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param


def test_empty_parameters_mean_their_defaults(key: ApiKey, history: dict[str, Any]) -> None:
    client = client_for(key)
    assert (
        client.get("/v1/usage", {"group_by": "", "key": ""}).json()
        == client.get("/v1/usage").json()
    )


def test_usage_without_records_is_empty(key: ApiKey) -> None:
    response = client_for(key).get("/v1/usage", {"group_by": "persona"})
    assert response.json()["data"] == []


# --- Through the chat ---


def test_chat_is_402_with_the_limit_code_after_the_404_checks(
    key: ApiKey, user: User, clock: list[datetime]
) -> None:
    set_key_limit(key=key, limit="0.0000001", limit_reset="daily")
    client = client_for(key)
    body = {"model": "nova-local", "messages": [{"role": "user", "content": "hello"}]}
    first = client.post("/v1/chat/completions", body, format="json")
    assert first.status_code == 200  # nothing spent yet: served, and charged whole
    record = UsageRecord.objects.get()
    assert record.cost > Decimal("0.0000001")

    refused = client.post("/v1/chat/completions", body, format="json")
    assert refused.status_code == 402
    assert refused.json()["error"] == {
        "message": refused.json()["error"]["message"],
        "type": "insufficient_quota",
        "param": None,
        "code": "key_limit_exceeded",
    }
    # A missing persona is a 404 before the limit's 402.
    missing = client.post(
        "/v1/agents/chat/completions", {**body, "persona_id": 999_999}, format="json"
    )
    assert missing.status_code == 404

    clock[0] = NOW + timedelta(days=1)
    assert client.post("/v1/chat/completions", body, format="json").status_code == 200
    data = client.get("/v1/key").json()["data"]
    assert Decimal(data["usage"]) == sum(UsageRecord.objects.values_list("cost", flat=True))


def test_chat_under_a_user_limit_is_402_user_limit_exceeded(key: ApiKey, user: User) -> None:
    set_user_limit(user=user, limit="0", limit_reset="monthly")
    response = client_for(key).post(
        "/v1/chat/completions",
        {"model": "nova-local", "messages": [{"role": "user", "content": "hello"}]},
        format="json",
    )
    assert response.status_code == 402
    assert response.json()["error"]["code"] == "user_limit_exceeded"
    assert not UsageRecord.objects.exists()


def test_usage_day_matches_the_record_day_at_midnight(key: ApiKey, user: User) -> None:
    late = datetime(2026, 3, 4, 23, 59, 59, 999999, tzinfo=UTC)
    charge(user, key, "1", at=late)
    record = UsageRecord.objects.get()
    assert record.created_at == late
    data = client_for(key).get("/v1/usage", {"from": "2026-03-04", "to": "2026-03-05"}).json()
    assert [row["day"] for row in data["data"]] == [date(2026, 3, 4).isoformat()]
