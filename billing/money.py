"""What an amount of money must be to enter Nova (issue 12 item 10).

Every money column is a ``DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES)``.
SQLite stores a larger value without complaint but cannot read it back (Django's decimal
converter raises), after which every read of that balance fails; PostgreSQL refuses it (a
500). So every entry point (the billing services, the admin top-up form, the ``topup``,
``create_api_key --balance`` and ``seed_demo --balance`` commands) checks amounts here first,
and a top-up or adjustment that would push a balance out of range is refused.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING

from billing.models import DECIMAL_PLACES, MAX_DIGITS
from core.errors import InvalidRequest

if TYPE_CHECKING:
    from llm.catalog import ModelSpec

QUANTUM = Decimal(1).scaleb(-DECIMAL_PLACES)  # 0.00000001 USD, the smallest amount kept
# The largest magnitude of an amount or a balance: 999999999999 USD, the columns' whole-dollar
# range. Not 999999999999.99999999: SQLite keeps these columns as 64-bit floats, which Django
# reads back at 15 significant digits, so that value comes back as 10**12 and no longer fits.
MAX_AMOUNT = Decimal(10) ** (MAX_DIGITS - DECIMAL_PLACES) - 1


def to_money(amount: Decimal) -> Decimal:
    """``amount`` rounded half up to the smallest amount kept (``QUANTUM``)."""
    return amount.quantize(QUANTUM, rounding=ROUND_HALF_UP)


def usage_cost(model: ModelSpec, prompt_tokens: int, completion_tokens: int) -> Decimal:
    """What this usage of ``model`` costs, in money: its catalog price rounded half up."""
    return to_money(model.price(prompt_tokens, completion_tokens))


def _shown(value: object) -> str:
    text = str(value)
    return text if len(text) <= 40 else f"{text[:40]}..."


def parse_amount(
    value: Decimal | str | int, *, param: str = "amount", exact: bool = True
) -> Decimal:
    """``value`` as an amount of USD at 8 decimal places, checked against the columns' range.

    Raises InvalidRequest (with ``param``) when the value is not a finite number, when its
    magnitude exceeds MAX_AMOUNT, when it has more than 8 decimal places (``exact``, the
    default: what a person typed is never rounded silently) and, with ``exact=False`` (a
    program's computed amount, rounded half up), when a non-zero value rounds to zero. Zero
    itself and negative values are the caller's to accept or refuse.
    """
    try:
        amount = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise InvalidRequest(f"'{_shown(value)}' is not a valid amount.", param=param) from None
    if not amount.is_finite():
        raise InvalidRequest(f"'{_shown(value)}' is not a valid amount.", param=param)
    # Checked before quantize(): a huge value has more digits than the decimal context holds.
    # MAX_AMOUNT is a whole number, so rounding what passes cannot take it past the limit.
    if abs(amount) > MAX_AMOUNT:
        raise InvalidRequest(
            f"'{_shown(value)}' is too large: an amount is at most {MAX_AMOUNT:f} USD.",
            param=param,
        )
    rounded = amount.quantize(QUANTUM, rounding=ROUND_HALF_UP)
    if rounded != amount:
        if exact:
            raise InvalidRequest(
                f"'{_shown(value)}' has more than {DECIMAL_PLACES} decimal places: "
                f"amounts are counted in steps of {QUANTUM:f} USD.",
                param=param,
            )
        if rounded == 0:
            raise InvalidRequest(
                f"'{_shown(value)}' rounds to zero at {DECIMAL_PLACES} decimal places.",
                param=param,
            )
    return rounded


def check_balance_in_range(new_balance: Decimal, *, param: str = "amount") -> None:
    """Raise InvalidRequest when a balance of ``new_balance`` would not fit its column.

    For services about to add to a balance they hold locked: the amount itself was in range,
    but the sum may not be.
    """
    if abs(new_balance) > MAX_AMOUNT:
        raise InvalidRequest(
            f"The balance would become {new_balance:f} USD, beyond the {MAX_AMOUNT:f} USD "
            "a balance can hold.",
            param=param,
            code="balance_out_of_range",
        )
