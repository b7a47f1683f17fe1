from __future__ import annotations

import threading
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from billing.models import Balance, LedgerEntry, UsageRecord
from billing.selectors import get_balance
from billing.services import adjust_balance, charge_usage, top_up
from core.errors import InvalidRequest
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def ledger_sum(user: User) -> Decimal:
    # Summed in Python: SQLite's SUM() of a decimal column goes through floats.
    return sum(LedgerEntry.objects.filter(user=user).values_list("amount", flat=True), Decimal(0))


def test_top_up_adds_to_balance_and_ledger(user: User) -> None:
    entry = top_up(user=user, amount="12.5", note="card")
    assert entry.kind == LedgerEntry.Kind.TOPUP
    assert entry.amount == Decimal("12.50000000")
    assert entry.balance_after == Decimal("12.5")
    assert get_balance(user) == Decimal("12.5")


@pytest.mark.parametrize("amount", ["0", "-1", "abc", "NaN", "Infinity"])
def test_top_up_rejects_non_positive_or_invalid_amounts(user: User, amount: str) -> None:
    with pytest.raises(InvalidRequest):
        top_up(user=user, amount=amount)
    assert not LedgerEntry.objects.filter(user=user).exists()


def test_amounts_keep_eight_decimal_places(user: User) -> None:
    top_up(user=user, amount="0.000000015")  # rounds half up to 8 places
    assert get_balance(user) == Decimal("0.00000002")


def test_charge_writes_usage_and_ledger_atomically(user: User, api_key: Any) -> None:
    top_up(user=user, amount="1")
    usage = charge_usage(
        user=user,
        api_key=api_key,
        model_id="nova-local",
        prompt_tokens=1000,
        completion_tokens=500,
        cost=Decimal("0.00020000"),
    )
    assert usage.cost == Decimal("0.0002")
    assert usage.ledger_entry.amount == Decimal("-0.0002")
    assert usage.ledger_entry.kind == LedgerEntry.Kind.CHARGE
    assert get_balance(user) == Decimal("0.9998")
    assert ledger_sum(user) == get_balance(user)


def test_charge_can_take_the_balance_below_zero(user: User) -> None:
    top_up(user=user, amount="0.0001")
    charge_usage(
        user=user,
        api_key=None,
        model_id="m",
        prompt_tokens=1,
        completion_tokens=1,
        cost=Decimal("0.001"),
    )
    assert get_balance(user) == Decimal("-0.0009")
    assert ledger_sum(user) == get_balance(user)


def test_balance_row_is_created_on_first_movement(db: None) -> None:
    user = User.objects.create(username="bare")
    assert not Balance.objects.filter(user=user).exists()
    top_up(user=user, amount="3")
    assert get_balance(user) == Decimal("3")


def test_first_charge_without_a_balance_row_creates_it(db: None) -> None:
    user = User.objects.create(username="never-topped-up")
    usage = charge_usage(
        user=user, api_key=None, model_id="m", prompt_tokens=3, completion_tokens=4, cost="0.5"
    )
    assert get_balance(user) == Decimal("-0.5")
    assert usage.ledger_entry.balance_after == Decimal("-0.5")
    assert UsageRecord.objects.filter(user=user).count() == 1


def test_charge_returns_the_stored_usage_record(user: User, api_key: Any) -> None:
    top_up(user=user, amount="2")
    usage = charge_usage(
        user=user,
        api_key=api_key,
        model_id="nova-local",
        prompt_tokens=7,
        completion_tokens=9,
        cost=Decimal("0.12345678"),
    )
    stored = UsageRecord.objects.get(pk=usage.pk)
    fields = [f.attname for f in UsageRecord._meta.concrete_fields]
    assert {name: getattr(usage, name) for name in fields} == {
        name: getattr(stored, name) for name in fields
    }
    entry = stored.ledger_entry
    assert (entry.kind, entry.amount, entry.balance_after, entry.user_id) == (
        "charge",
        Decimal("-0.12345678"),
        Decimal("1.87654322"),
        user.pk,
    )
    assert entry.note == "nova-local: 7 prompt + 9 completion tokens"


def test_adjustment_is_signed(user: User) -> None:
    top_up(user=user, amount="5")
    adjust_balance(user=user, amount="-2", note="refund correction")
    assert get_balance(user) == Decimal("3")
    with pytest.raises(InvalidRequest):
        adjust_balance(user=user, amount="0", note="nothing")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_concurrent_charges_and_top_ups_keep_ledger_equal_to_balance() -> None:
    """20 threads charge one account at once (plus top-ups); nothing may be lost."""
    user = UserFactory(username="busy")
    top_up(user=user, amount="100")
    errors: list[BaseException] = []
    barrier = threading.Barrier(20)

    def work(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            for _ in range(5):
                charge_usage(
                    user=user,
                    api_key=None,
                    model_id="nova-local",
                    prompt_tokens=100,
                    completion_tokens=50,
                    cost=Decimal("0.01234567"),
                )
            if index % 4 == 0:
                top_up(user=user, amount="1")
        except BaseException as exc:  # surfaced below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    expected = Decimal("100") - 100 * Decimal("0.01234567") + 5 * Decimal("1")
    assert get_balance(user) == expected
    assert ledger_sum(user) == expected
    assert UsageRecord.objects.filter(user=user).count() == 100
    assert LedgerEntry.objects.filter(user=user, kind="charge").count() == 100
    # Every entry's balance_after is the running sum at its place in the ledger: no two
    # concurrent charges read the same balance.
    running = Decimal(0)
    for amount, after in (
        LedgerEntry.objects.filter(user=user).order_by("id").values_list("amount", "balance_after")
    ):
        running += amount
        assert after == running
