"""billing.money, the one definition of money, and the ``money`` template filter built on it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template import Context, Template

from billing.money import QUANTUM, ZERO, to_money
from billing.templatetags.money import money
from core.errors import InvalidRequest


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Decimal("0.000000005"), "0.00000001"),  # half up, not half even
        (Decimal("0.000000015"), "0.00000002"),
        (Decimal("-0.000000005"), "-0.00000001"),
        (Decimal("0.0000000049"), "0.00000000"),
        ("12.5", "12.50000000"),
        (" 3 ", "3.00000000"),
        (7, "7.00000000"),
    ],
)
def test_to_money_rounds_half_up_to_eight_places(value: Decimal | str | int, expected: str) -> None:
    rounded = to_money(value)
    assert f"{rounded:f}" == expected
    assert rounded.as_tuple().exponent == -8


@pytest.mark.parametrize("value", ["abc", "", "NaN", "-Infinity", Decimal("NaN")])
def test_to_money_refuses_what_is_not_a_finite_number(value: Decimal | str) -> None:
    with pytest.raises(InvalidRequest, match="is not a valid amount") as exc:
        to_money(value)
    assert exc.value.param == "amount"


def test_the_quantum_and_zero_are_eight_places() -> None:
    assert f"{QUANTUM:f}" == "0.00000001"
    assert f"{ZERO:f}" == "0.00000000"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Decimal("5.00000000"), "5.00"),
        (Decimal("0.00012300"), "0.00"),
        (Decimal("9.99870680"), "10.00"),
        (Decimal("0.00500000"), "0.01"),
        (Decimal("12.5"), "12.50"),
        (Decimal("-1.50000000"), "-1.50"),
        (Decimal("-0.00000030"), "0.00"),
        (Decimal("0E-8"), "0.00"),
        (Decimal("999999999999.00000000"), "999999999999.00"),
        (Decimal("0.00000001"), "0.00"),
        ("0.1", "0.10"),
        (3, "3.00"),
        (None, ""),
        ("", ""),
        ("not a number", ""),
    ],
)
def test_money_filter_shows_cents_in_plain_notation(value: object, shown: str) -> None:
    assert money(value) == shown


def test_money_filter_loads_by_its_library_name() -> None:
    html = Template("{% load money %}${{ amount|money }}").render(
        Context({"amount": Decimal("8.25000000")})
    )
    assert html == "$8.25"
