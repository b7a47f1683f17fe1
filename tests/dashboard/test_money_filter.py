"""The dashboard's one money format: cents for people, the exact 8 places on hover."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template import Context, Template

from billing.templatetags.money import money, money_exact, usd


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Decimal("10.00000000"), "10.00"),
        (Decimal("9.99870680"), "10.00"),  # half up to cents
        (Decimal("9.99499999"), "9.99"),
        (Decimal("0.00500000"), "0.01"),
        (Decimal("0.00499999"), "0.00"),
        (Decimal("-0.00004600"), "0.00"),  # never "-0.00"
        (Decimal("-0.00500000"), "-0.01"),
        (Decimal("-1.50000000"), "-1.50"),
        (Decimal("0E-8"), "0.00"),
        ("2.5", "2.50"),
        (7, "7.00"),
        (None, ""),
        (True, ""),
        ("NaN", ""),
        ("Infinity", ""),
        ("1e400", ""),
        ("abc", ""),
    ],
)
def test_money_rounds_half_up_to_cents(value: object, shown: str) -> None:
    assert money(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Decimal("9.9987068"), "9.99870680"),
        (Decimal("0E-8"), "0.00000000"),
        (Decimal("-0.000046"), "-0.00004600"),
        ("0.000000005", "0.00000001"),
        ("x", ""),
    ],
)
def test_money_exact_shows_eight_places_in_plain_notation(value: object, shown: str) -> None:
    assert money_exact(value) == shown


@pytest.mark.parametrize(
    ("value", "html"),
    [
        (Decimal("10"), '<span class="money" title="10.00000000 USD">$10.00</span>'),
        (Decimal("9.9987068"), '<span class="money" title="9.99870680 USD">$10.00</span>'),
        (Decimal("-1.5"), '<span class="money" title="-1.50000000 USD">\u2212$1.50</span>'),
        (Decimal("0.000046"), '<span class="money" title="0.00004600 USD">&lt;$0.01</span>'),
        (
            Decimal("-0.000046"),
            '<span class="money" title="-0.00004600 USD">\u2212&lt;$0.01</span>',
        ),
        (Decimal("0E-8"), '<span class="money" title="0.00000000 USD">$0.00</span>'),
        (Decimal("1234.5"), '<span class="money" title="1234.50000000 USD">$1234.50</span>'),
    ],
)
def test_usd_shows_cents_with_the_exact_value_in_the_title(value: Decimal, html: str) -> None:
    assert str(usd(value)) == html


def test_usd_of_something_that_is_not_money_is_empty() -> None:
    assert usd("<script>") == ""
    assert usd(None) == ""


def test_the_filters_render_in_a_template_without_double_escaping() -> None:
    html = Template("{% load money %}{{ a|usd }} ${{ a|money }} {{ a|money_exact }}").render(
        Context({"a": Decimal("-0.000046")})
    )
    assert html == (
        '<span class="money" title="-0.00004600 USD">\u2212&lt;$0.01</span> $0.00 -0.00004600'
    )
