"""Every way money enters checks it against the money columns' range (docs/billing.md, "Ranges").

A money column is DECIMAL(20, 8); amounts and balances are kept within 999999999999 USD, which
SQLite (a float underneath) still reads back. SQLite used to store a larger top-up it could not
read back (every later read of that balance failed) and PostgreSQL refused it with a 500; an
amount with more than 8 decimals was rounded, down to nothing at all.
"""

from __future__ import annotations

from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import ApiKey, User
from billing.models import Balance, LedgerEntry
from billing.money import MAX_AMOUNT
from billing.selectors import get_balance
from billing.services import adjust_balance, top_up
from core.errors import InvalidRequest

pytestmark = pytest.mark.django_db

TOO_LARGE = "99999999999999"


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue().strip()


def at_most(user: User) -> None:
    """Fill the balance to the largest amount a balance holds."""
    top_up(user=user, amount=MAX_AMOUNT)
    assert get_balance(user) == Decimal("999999999999")


# --- services --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "amount", [TOO_LARGE, "999999999999.00000001", "999999999999.999999999", "1e30", "-1e30"]
)
def test_top_up_and_adjustment_refuse_amounts_beyond_the_columns(user: User, amount: str) -> None:
    with pytest.raises(InvalidRequest, match="too large") as top:
        top_up(user=user, amount=amount)
    assert top.value.param == "amount"
    with pytest.raises(InvalidRequest, match="too large"):
        adjust_balance(user=user, amount=amount, note="typo")
    assert not LedgerEntry.objects.exists()
    assert get_balance(user) == 0


def test_top_up_that_would_overflow_the_balance_is_refused(user: User) -> None:
    at_most(user)
    with pytest.raises(InvalidRequest, match="balance would become") as exc:
        top_up(user=user, amount="0.00000001")
    assert (exc.value.param, exc.value.code) == ("amount", "balance_out_of_range")
    assert get_balance(user) == MAX_AMOUNT
    assert LedgerEntry.objects.filter(user=user).count() == 1


def test_adjustment_that_would_overflow_the_balance_either_way_is_refused(user: User) -> None:
    adjust_balance(user=user, amount=-MAX_AMOUNT, note="write-off")
    with pytest.raises(InvalidRequest, match="balance would become"):
        adjust_balance(user=user, amount="-1", note="more")
    assert get_balance(user) == -MAX_AMOUNT
    adjust_balance(user=user, amount=MAX_AMOUNT, note="back")
    adjust_balance(user=user, amount=MAX_AMOUNT, note="up")
    with pytest.raises(InvalidRequest, match="balance would become"):
        adjust_balance(user=user, amount="1", note="more")
    assert get_balance(user) == MAX_AMOUNT


def test_a_top_up_that_rounds_to_zero_says_so(user: User) -> None:
    with pytest.raises(InvalidRequest, match="rounds to zero at 8 decimal places"):
        top_up(user=user, amount="0.000000001")
    assert not LedgerEntry.objects.exists()


# --- topup command ---------------------------------------------------------------------------


def test_topup_refuses_an_amount_beyond_the_column_and_balance_stays_readable(
    user: User,
) -> None:
    with pytest.raises(CommandError, match="AMOUNT: '99999999999999' is too large"):
        run("topup", "alice", TOO_LARGE)
    assert not LedgerEntry.objects.exists()
    assert run("topup", "alice", "0") == "0.00000000"


@pytest.mark.parametrize("amount", ["0.000000001", "1.123456789"])
def test_topup_refuses_more_than_eight_decimals_instead_of_rounding(
    user: User, amount: str
) -> None:
    with pytest.raises(CommandError, match="more than 8 decimal places"):
        run("topup", "alice", amount)
    assert not LedgerEntry.objects.exists()


def test_topup_that_would_overflow_the_balance_is_refused(user: User) -> None:
    at_most(user)
    with pytest.raises(CommandError, match="balance would become"):
        run("topup", "alice", "1")
    assert run("topup", "alice", "0") == "999999999999.00000000"


# --- seed_demo and create_api_key --balance --------------------------------------------------


@pytest.mark.parametrize(
    ("balance", "message"),
    [
        ("abc", "--balance: 'abc' is not a valid amount"),
        (TOO_LARGE, "--balance: '99999999999999' is too large"),
        ("0.000000001", "more than 8 decimal places"),
        ("-5", "must not be negative"),
    ],
)
def test_seed_demo_refuses_a_bad_balance_cleanly(balance: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run("seed_demo", "--balance", balance)
    assert not User.objects.filter(username="demo").exists()
    assert not LedgerEntry.objects.exists()


@pytest.mark.parametrize(
    ("balance", "message"),
    [
        (TOO_LARGE, "--balance: '99999999999999' is too large"),
        ("0.000000001", "more than 8 decimal places"),
    ],
)
def test_create_api_key_refuses_a_balance_beyond_the_column(balance: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run("create_api_key", "bob", "--create-user", "--balance", balance)
    assert not User.objects.filter(username="bob").exists()
    assert not ApiKey.objects.exists()


def test_create_api_key_balance_that_would_overflow_creates_nothing(user: User) -> None:
    at_most(user)
    with pytest.raises(CommandError, match="--balance: The balance would become"):
        run("create_api_key", "alice", "--balance", "1")
    assert not ApiKey.objects.exists()
    assert get_balance(user) == MAX_AMOUNT


# --- admin top-up form -----------------------------------------------------------------------


def test_admin_top_up_refuses_an_amount_beyond_the_column(admin_client: Any, user: User) -> None:
    balance = Balance.objects.get(user=user)
    url = f"/admin/billing/balance/{balance.pk}/top-up/"
    response = admin_client.post(url, {"amount": TOO_LARGE})
    assert response.status_code == 200
    assert response.context["form"].errors["amount"] == [
        "'99999999999999' is too large: an amount is at most 999999999999 USD."
    ]
    assert not LedgerEntry.objects.exists()


def test_admin_top_up_that_would_overflow_the_balance_is_a_form_error(
    admin_client: Any, user: User
) -> None:
    at_most(user)
    balance = Balance.objects.get(user=user)
    response = admin_client.post(f"/admin/billing/balance/{balance.pk}/top-up/", {"amount": "1"})
    assert response.status_code == 200
    [error] = response.context["form"].errors["amount"]
    assert error.startswith("The balance would become 1000000000000.00000000 USD")
    assert get_balance(user) == MAX_AMOUNT
