"""`{{ amount|money }}`: USD amounts for people, at least 2 and at most 8 decimals."""

from __future__ import annotations

from typing import Any

from django import template

from billing.money import to_money
from core.errors import InvalidRequest

register = template.Library()


@register.filter
def money(value: Any) -> str:
    """5.00000000 -> "5.00", 0.00012300 -> "0.000123", never scientific notation; "" for
    anything that is not a finite number."""
    try:
        amount = to_money(value)
    except InvalidRequest:
        return ""
    whole, _, fraction = f"{amount:f}".partition(".")
    fraction = fraction.rstrip("0")
    return f"{whole}.{fraction.ljust(2, '0')}"
