"""`{{ amount|money }}`: USD amounts for people, at least 2 and at most 8 decimals."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import template

register = template.Library()


@register.filter
def money(value: Any) -> str:
    """5.00000000 -> "5.00", 0.00012300 -> "0.000123", never scientific notation."""
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return ""
    text = f"{amount.quantize(Decimal('0.00000001')):f}"
    whole, _, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    return f"{whole}.{fraction.ljust(2, '0')}"
