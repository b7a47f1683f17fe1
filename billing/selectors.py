from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from billing.models import ZERO, Balance

if TYPE_CHECKING:
    from accounts.models import User


def get_balance(user: User) -> Decimal:
    amount = Balance.objects.filter(user=user).values_list("amount", flat=True).first()
    return amount if amount is not None else ZERO
