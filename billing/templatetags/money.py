"""Money on the dashboard, in one format (docs/billing.md, "Prices and rounding").

People read balances and costs in dollars and cents; the exact amount, at the 8 decimal places
Nova keeps, is one hover away (the ``title``). CSV exports and the API keep the 8 places.

- ``{{ amount|usd }}``: ``<span class="money" title="0.00004600 USD">&lt;$0.01</span>``, the
  format for every amount shown in a page's text: sign, dollar sign, cents, the exact value on
  hover. A non-zero amount that rounds to zero cents shows as "<$0.01" (or "−<$0.01").
- ``{{ amount|money }}``: the amount rounded half up to cents, "10.00", "-1.50", never "-0.00",
  for places where markup cannot go (an SVG ``<title>``, an attribute).
- ``{{ amount|money_exact }}``: the 8-place value, "9.99870680".

Each gives "" for anything that is not a finite number.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from billing.money import money_string, to_money
from core.errors import InvalidRequest

register = template.Library()

CENT = Decimal("0.01")
MINUS = "\u2212"  # the minus sign, which screen readers read as "minus"


def _amount(value: Any) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return to_money(value)
    except (InvalidRequest, ArithmeticError):  # ArithmeticError: too many digits to round
        return None


def _cents(amount: Decimal) -> Decimal:
    cents = amount.quantize(CENT, rounding=ROUND_HALF_UP)
    return cents.copy_abs() if cents.is_zero() else cents  # no "-0.00"


@register.filter
def money(value: Any) -> str:
    """9.9987068 -> "10.00", -1.5 -> "-1.50", -0.000046 -> "0.00"; "" when not a number."""
    amount = _amount(value)
    return "" if amount is None else f"{_cents(amount):f}"


@register.filter
def money_exact(value: Any) -> str:
    """The amount at Nova's 8 decimal places: 9.9987068 -> "9.99870680"."""
    amount = _amount(value)
    return "" if amount is None else money_string(amount)


@register.filter
def usd(value: Any) -> SafeString | str:
    """The amount as a person reads it, in cents, with the exact value in ``title``."""
    amount = _amount(value)
    if amount is None:
        return ""
    cents = _cents(amount)
    sign = MINUS if amount < 0 else ""
    if cents.is_zero() and not amount.is_zero():
        shown = f"{sign}<$0.01"
    else:
        shown = f"{sign}${cents.copy_abs():f}"
    return format_html('<span class="money" title="{} USD">{}</span>', money_string(amount), shown)
