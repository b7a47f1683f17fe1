from __future__ import annotations

from decimal import Decimal

import pytest

from core.templatetags.money import money


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Decimal("5.00000000"), "5.00"),
        (Decimal("0.00012300"), "0.000123"),
        (Decimal("0E-8"), "0.00"),
        (Decimal("-0.00000030"), "-0.0000003"),
        (Decimal("12.5"), "12.50"),
        ("not a number", ""),
    ],
)
def test_money_shows_two_to_eight_decimals_in_plain_notation(value: object, shown: str) -> None:
    assert money(value) == shown
