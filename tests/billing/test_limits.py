"""Spend limits on keys and users (docs/billing.md, "Spend limits"), checked by place_hold on
both of its paths, with billing's clock moved by the tests."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from accounts.limits import set_key_limit, set_user_limit
from accounts.models import ApiKey, User
from billing import services, windows
from billing.models import Hold, LedgerEntry, UsageDay, UsageRecord
from billing.selectors import get_balance, key_spend, user_spend
from billing.services import charge_usage, place_hold, top_up
from core.errors import InsufficientQuota, InvalidRequest
from tests.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

# A Wednesday: its week began on Monday 2026-03-02, its month on 2026-03-01.
WEDNESDAY = datetime(2026, 3, 4, 15, 30, tzinfo=UTC)


class MovableClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Iterator[MovableClock]:
    moving = MovableClock(WEDNESDAY)
    with windows.clock.use(moving):
        yield moving


@pytest.fixture(params=["one statement", "orm"])
def write_path(request: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "one statement":
        if connection.vendor != "postgresql":
            pytest.skip("holds and charges are one statement on PostgreSQL only")
    else:
        monkeypatch.setattr(services, "ONE_STATEMENT_ON_POSTGRESQL", False)
    return str(request.param)


@pytest.fixture
def key(user: User) -> ApiKey:
    top_up(user=user, amount=Decimal("100"), note="funds")
    return ApiKeyFactory.create(user=user)


def chat(user: User, key: ApiKey | None, cost: str) -> UsageRecord:
    """One request as the chat runs it: hold, then charge settling the hold."""
    # The limits are read from the instances the chat authenticates with, fresh each request.
    user = User.objects.get(pk=user.pk)
    fresh_key = ApiKey.objects.get(pk=key.pk) if key is not None else None
    hold = place_hold(user=user, api_key=fresh_key, model_id="m", amount=Decimal("0.5"))
    return charge_usage(
        user=user,
        api_key=fresh_key,
        model_id="m",
        prompt_tokens=10,
        completion_tokens=5,
        cost=Decimal(cost),
        hold=hold,
    )


def refused(user: User, key: ApiKey | None) -> InsufficientQuota:
    with pytest.raises(InsufficientQuota) as caught:
        chat(user, key, "0.1")
    return caught.value


# For each period: a moment still inside the window that started on WEDNESDAY's, and the first
# moment of the next window.
WINDOWS = [
    ("daily", datetime(2026, 3, 4, 23, 59, 59, tzinfo=UTC), datetime(2026, 3, 5, tzinfo=UTC)),
    ("weekly", datetime(2026, 3, 8, 23, 59, tzinfo=UTC), datetime(2026, 3, 9, tzinfo=UTC)),
    ("monthly", datetime(2026, 3, 31, 23, 59, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)),
]


@pytest.mark.parametrize(("reset", "still_inside", "next_window"), WINDOWS)
def test_key_limit_serves_the_crossing_request_then_refuses_until_the_next_window(
    key: ApiKey,
    user: User,
    clock: MovableClock,
    write_path: str,
    reset: str,
    still_inside: datetime,
    next_window: datetime,
) -> None:
    set_key_limit(key=key, limit="1", limit_reset=reset)
    chat(user, key, "0.6")
    crossing = chat(user, key, "0.7")  # 0.6 spent, below 1: served, though it crosses
    assert crossing.cost == Decimal("0.7")  # recorded whole
    assert crossing.ledger_entry.amount == Decimal("-0.7")
    assert key_spend(key).window == Decimal("1.3")

    error = refused(user, key)
    assert error.status == 402
    assert error.type == "insufficient_quota"
    assert error.code == "key_limit_exceeded"
    assert not Hold.objects.exists()  # the refused request holds nothing

    clock.now = still_inside
    assert refused(user, key).code == "key_limit_exceeded"

    clock.now = next_window
    served = chat(user, key, "0.2")
    assert served.created_at == next_window
    assert key_spend(key).window == Decimal("0.2")
    assert UsageRecord.objects.count() == 3
    assert get_balance(user) == Decimal("100") - Decimal("1.5")


def test_a_limit_that_never_resets_counts_all_time(
    key: ApiKey, user: User, clock: MovableClock, write_path: str
) -> None:
    set_key_limit(key=key, limit="1", limit_reset="never")
    chat(user, key, "1")
    assert refused(user, key).code == "key_limit_exceeded"
    clock.now = WEDNESDAY + timedelta(days=400)
    assert refused(user, key).code == "key_limit_exceeded"
    set_key_limit(key=key, limit="2.5")  # the period stays "never"
    chat(user, key, "0.1")
    assert ApiKey.objects.get(pk=key.pk).limit_reset == "never"


@pytest.mark.parametrize(("reset", "still_inside", "next_window"), WINDOWS)
def test_user_limit_windows_cover_every_key_and_the_playground(
    key: ApiKey,
    user: User,
    clock: MovableClock,
    write_path: str,
    reset: str,
    still_inside: datetime,
    next_window: datetime,
) -> None:
    other_key = ApiKeyFactory.create(user=user)
    set_user_limit(user=user, limit="1", limit_reset=reset)
    chat(user, key, "0.5")
    chat(user, None, "0.3")  # the playground has no key and counts too
    chat(user, other_key, "0.4")  # crosses: served and recorded whole
    for each in (key, other_key, None):
        assert refused(user, each).code == "user_limit_exceeded"
    clock.now = still_inside
    assert refused(user, other_key).code == "user_limit_exceeded"
    clock.now = next_window
    chat(user, other_key, "0.1")
    assert user_spend(user).window == Decimal("0.1")


def test_the_stricter_limit_answers(
    key: ApiKey, user: User, clock: MovableClock, write_path: str
) -> None:
    # The key's limit is reached first.
    set_key_limit(key=key, limit="1", limit_reset="daily")
    set_user_limit(user=user, limit="5", limit_reset="monthly")
    chat(user, key, "1")
    assert refused(user, key).code == "key_limit_exceeded"
    # The user's, over the key's: the user's answers, on every key.
    set_key_limit(key=key, limit="50")
    set_user_limit(user=user, limit="0.5")
    assert refused(user, key).code == "user_limit_exceeded"


def test_a_key_without_a_limit_is_capped_by_its_users_limit(
    key: ApiKey, user: User, clock: MovableClock, write_path: str
) -> None:
    set_user_limit(user=user, limit="0.3", limit_reset="daily")
    chat(user, key, "0.3")
    error = refused(user, key)
    assert error.code == "user_limit_exceeded"
    assert "0.30000000 USD per day" in error.message
    assert "2026-03-05 00:00 UTC" in error.message  # when it resets


def test_limits_are_checked_before_the_balance(
    user: User, clock: MovableClock, write_path: str
) -> None:
    key = ApiKeyFactory.create(user=user, limit=Decimal("0"))
    # No balance at all: still the limit's 402, which the user must change first.
    assert refused(user, key).code == "key_limit_exceeded"
    set_key_limit(key=key, limit=None)
    assert refused(user, key).code == "insufficient_quota"


def test_a_limit_below_its_spend_refuses_and_a_charge_in_flight_still_lands(
    key: ApiKey, user: User, clock: MovableClock, write_path: str
) -> None:
    set_key_limit(key=key, limit="1", limit_reset="daily")
    fresh = ApiKey.objects.get(pk=key.pk)
    holds = [
        place_hold(user=user, api_key=fresh, model_id="m", amount=Decimal("1")) for _ in range(3)
    ]
    for hold in holds:  # all three were admitted at 0 spent; each is charged whole
        charge_usage(
            user=user,
            api_key=fresh,
            model_id="m",
            prompt_tokens=1,
            completion_tokens=1,
            cost=Decimal("0.9"),
            hold=hold,
        )
    assert key_spend(key).window == Decimal("2.7")
    assert refused(user, key).code == "key_limit_exceeded"
    ledger = sum(LedgerEntry.objects.filter(user=user).values_list("amount", flat=True))
    assert ledger == get_balance(user) == Decimal("97.3")


def test_usage_days_sum_exactly_the_records(
    key: ApiKey, user: User, clock: MovableClock, write_path: str
) -> None:
    chat(user, key, "0.12345678")
    chat(user, key, "0.00000001")
    clock.now = WEDNESDAY + timedelta(days=1)
    chat(user, None, "1")
    rows = list(
        UsageDay.objects.order_by("day", "api_key_ref").values_list(
            "day", "api_key_ref", "model_id", "persona_ref", "requests", "cost"
        )
    )
    assert rows == [
        (WEDNESDAY.date(), key.pk, "m", 0, 2, Decimal("0.12345679")),
        (WEDNESDAY.date() + timedelta(days=1), 0, "m", 0, 1, Decimal("1")),
    ]


def test_no_limit_adds_no_query_to_the_hold(
    key: ApiKey, user: User, django_assert_num_queries: Any
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("one statement on PostgreSQL only")
    user = User.objects.get(pk=user.pk)
    fresh = ApiKey.objects.get(pk=key.pk)
    with django_assert_num_queries(1):
        place_hold(user=user, api_key=fresh, model_id="m", amount=Decimal("0.1"))


def test_a_limit_adds_no_query_to_the_one_statement_hold(
    key: ApiKey, user: User, django_assert_num_queries: Any
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("one statement on PostgreSQL only")
    set_key_limit(key=key, limit="5", limit_reset="weekly")
    set_user_limit(user=user, limit="50", limit_reset="monthly")
    user = User.objects.get(pk=user.pk)
    fresh = ApiKey.objects.get(pk=key.pk)
    with django_assert_num_queries(1):
        place_hold(user=user, api_key=fresh, model_id="m", amount=Decimal("0.1"))


@pytest.mark.parametrize("value", ["-1", "abc", "NaN", "1e13", "0.000000001", "Infinity"], ids=repr)
def test_bad_limits_are_refused_with_the_param(key: ApiKey, value: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        set_key_limit(key=key, limit=value)
    assert caught.value.param == "limit"
    assert ApiKey.objects.get(pk=key.pk).limit is None


def test_a_bad_period_is_refused_with_the_param(key: ApiKey) -> None:
    with pytest.raises(InvalidRequest) as caught:
        set_key_limit(key=key, limit="1", limit_reset="hourly")
    assert caught.value.param == "limit_reset"
