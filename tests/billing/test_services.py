"""Money services: top-ups, adjustments, holds and charges (docs/billing.md).

Holds and charges have two paths, one statement each on PostgreSQL and the ORM elsewhere: every
test that places a hold or charges runs on both (the ``write_path`` fixture), and each asserts
the same books on both.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError

from accounts.models import ApiKey, User
from accounts.services import create_user
from billing import services
from billing.models import Balance, Hold, LedgerEntry, UsageRecord
from billing.selectors import get_balance
from billing.services import (
    HoldSettled,
    adjust_balance,
    charge_usage,
    place_hold,
    release_hold,
    top_up,
)
from core.errors import InsufficientQuota, InvalidRequest
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def ledger_sum(user: User) -> Decimal:
    # Summed in Python: SQLite's SUM() of a decimal column goes through floats.
    return sum(LedgerEntry.objects.filter(user=user).values_list("amount", flat=True), Decimal(0))


def charge(
    user: User,
    cost: str,
    *,
    api_key: ApiKey | None = None,
    model_id: str = "m",
    tokens: tuple[int, int] = (10, 5),
    hold: Hold | None = None,
) -> UsageRecord:
    return charge_usage(
        user=user,
        api_key=api_key,
        model_id=model_id,
        prompt_tokens=tokens[0],
        completion_tokens=tokens[1],
        cost=Decimal(cost),
        hold=hold,
    )


@pytest.fixture(params=["one statement", "orm"])
def write_path(request: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Holds and charges through one path: PostgreSQL's one statement, or the ORM's."""
    if request.param == "one statement":
        if connection.vendor != "postgresql":
            pytest.skip("holds and charges are one statement on PostgreSQL only")
    else:
        monkeypatch.setattr(services, "ONE_STATEMENT_ON_POSTGRESQL", False)
    yield request.param


def _books(user: User) -> dict[str, Any]:
    """Everything a hold or a charge writes for ``user``, without ids and times."""
    balance = Balance.objects.get(user=user)
    return {
        "balance": (balance.amount, balance.reserved),
        "ledger": list(
            LedgerEntry.objects.filter(user=user)
            .order_by("id")
            .values_list("kind", "amount", "balance_after", "note", "usage__cost")
        ),
        "usage": list(
            UsageRecord.objects.filter(user=user)
            .order_by("id")
            .values_list("model_id", "api_key_id", "prompt_tokens", "completion_tokens", "cost")
        ),
        "holds": list(Hold.objects.filter(user=user).order_by("id").values_list("amount")),
    }


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


def test_charge_writes_usage_and_ledger_atomically(
    user: User, api_key: Any, write_path: str
) -> None:
    top_up(user=user, amount="1")
    usage = charge(user, "0.00020000", api_key=api_key, model_id="nova-local", tokens=(1000, 500))
    assert usage.cost == Decimal("0.0002")
    assert usage.ledger_entry.amount == Decimal("-0.0002")
    assert usage.ledger_entry.kind == LedgerEntry.Kind.CHARGE
    assert get_balance(user) == Decimal("0.9998")
    assert ledger_sum(user) == get_balance(user)


def test_charge_can_take_the_balance_below_zero(user: User, write_path: str) -> None:
    top_up(user=user, amount="0.0001")
    charge(user, "0.001", tokens=(1, 1))
    assert get_balance(user) == Decimal("-0.0009")
    assert ledger_sum(user) == get_balance(user)


def test_balance_row_is_created_on_first_movement(db: None) -> None:
    user = User.objects.create(username="bare")
    assert not Balance.objects.filter(user=user).exists()
    top_up(user=user, amount="3")
    assert get_balance(user) == Decimal("3")


def test_first_charge_without_a_balance_row_creates_it(db: None, write_path: str) -> None:
    user = User.objects.create(username="never-topped-up")
    usage = charge(user, "0.5", tokens=(3, 4))
    assert get_balance(user) == Decimal("-0.5")
    assert usage.ledger_entry.balance_after == Decimal("-0.5")
    assert UsageRecord.objects.filter(user=user).count() == 1


def test_charge_returns_the_stored_usage_record(user: User, api_key: Any, write_path: str) -> None:
    top_up(user=user, amount="2")
    usage = charge(user, "0.12345678", api_key=api_key, model_id="nova-local", tokens=(7, 9))
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
def test_concurrent_charges_and_top_ups_keep_ledger_equal_to_balance(write_path: str) -> None:
    """20 threads charge one account at once (plus top-ups); nothing may be lost."""
    user = UserFactory.create(username="busy")
    top_up(user=user, amount="100")
    errors: list[BaseException] = []
    barrier = threading.Barrier(20)

    def work(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            for _ in range(5):
                charge(user, "0.01234567", model_id="nova-local", tokens=(100, 50))
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


# --- Holds: placed, settled by the charge, released ---


def test_place_hold_returns_the_stored_hold(funded_user: User, write_path: str) -> None:
    hold = place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("0.123456785"))
    stored = Hold.objects.get()
    fields = [f.attname for f in Hold._meta.concrete_fields]
    assert {name: getattr(hold, name) for name in fields} == {
        name: getattr(stored, name) for name in fields
    }
    assert hold.amount == Decimal("0.12345679")  # rounded half up
    assert _books(funded_user)["balance"] == (Decimal("10"), Decimal("0.12345679"))


def test_place_hold_refuses_when_no_credit_is_free(user: User, write_path: str) -> None:
    with pytest.raises(InsufficientQuota):
        place_hold(user=user, api_key=None, model_id="m", amount=Decimal("0.01"))
    top_up(user=user, amount="1")
    place_hold(user=user, api_key=None, model_id="m", amount=Decimal("1"))
    with pytest.raises(InsufficientQuota):
        place_hold(user=user, api_key=None, model_id="m", amount=Decimal("0.01"))
    assert _books(user)["balance"] == (Decimal("1"), Decimal("1"))
    assert _books(user)["holds"] == [(Decimal("1"),)]


def test_a_charge_settles_its_hold_once(funded_user: User, write_path: str) -> None:
    hold = place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("0.5"))
    charge(funded_user, "0.2", hold=hold)
    settled = {
        "balance": (Decimal("9.8"), Decimal("0")),
        "ledger": [
            ("topup", Decimal("10"), Decimal("10"), "test funds", None),
            (
                "charge",
                Decimal("-0.2"),
                Decimal("9.8"),
                "m: 10 prompt + 5 completion tokens",
                Decimal("0.2"),
            ),
        ],
        "usage": [("m", None, 10, 5, Decimal("0.2"))],
        "holds": [],
    }
    assert _books(funded_user) == settled
    # The hold is gone, so a second charge for it (a replayed request) writes nothing.
    with pytest.raises(HoldSettled):
        charge(funded_user, "0.2", hold=hold)
    assert release_hold(hold) is False
    assert _books(funded_user) == settled


def test_a_released_hold_cannot_be_charged(funded_user: User, write_path: str) -> None:
    hold = place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("3"))
    assert release_hold(hold) is True
    with pytest.raises(HoldSettled):
        charge(funded_user, "0.2", hold=hold)
    assert _books(funded_user) == {
        "balance": (Decimal("10"), Decimal("0")),
        "ledger": [("topup", Decimal("10"), Decimal("10"), "test funds", None)],
        "usage": [],
        "holds": [],
    }


def test_a_charge_settling_a_hold_rolls_back_with_its_callers_transaction(
    funded_user: User, write_path: str
) -> None:
    hold = place_hold(user=funded_user, api_key=None, model_id="m", amount=Decimal("0.5"))
    before = _books(funded_user)
    with pytest.raises(RuntimeError), transaction.atomic():
        charge(funded_user, "0.2", hold=hold)
        raise RuntimeError("the caller's next write failed")
    assert _books(funded_user) == before
    charge(funded_user, "0.2", hold=hold)  # the hold is still open: charged now, once
    assert _books(funded_user)["balance"] == (Decimal("9.8"), Decimal("0"))


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="only PostgreSQL has the one-statement path"
)
def test_both_paths_write_the_same_books(monkeypatch: pytest.MonkeyPatch) -> None:
    def scenario(user: User) -> dict[str, Any]:
        top_up(user=user, amount="1", note="funds")
        held = place_hold(user=user, api_key=None, model_id="m", amount=Decimal("0.3"))
        released = place_hold(user=user, api_key=None, model_id="m", amount=Decimal("0.4"))
        open_ = place_hold(user=user, api_key=None, model_id="m", amount=Decimal("0.25"))
        charge(user, "0.123456785", hold=held)
        release_hold(released)
        charge(user, "2", model_id="n", tokens=(1, 2))
        with pytest.raises(HoldSettled):
            charge(user, "0.2", hold=held)
        assert Hold.objects.filter(pk=open_.pk).exists()
        return _books(user)

    one_statement = scenario(UserFactory.create(username="one-statement"))
    monkeypatch.setattr(services, "ONE_STATEMENT_ON_POSTGRESQL", False)
    orm = scenario(UserFactory.create(username="orm"))
    assert one_statement == orm
    assert one_statement["balance"] == (Decimal("-1.12345679"), Decimal("0.25"))


# --- The balance lock ---


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_balance_lock_refuses_to_run_outside_a_transaction(user: User) -> None:
    with pytest.raises(TransactionManagementError, match=r"inside transaction\.atomic\(\)"):
        services._locked_balance(user.pk)
    with transaction.atomic():
        assert services._locked_balance(user.pk).user_id == user.pk


def test_a_user_created_by_accounts_has_a_balance_row(db: None) -> None:
    user = create_user(username="newcomer")
    assert Balance.objects.get(user=user).amount == 0
