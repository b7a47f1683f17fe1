"""Money in Nova, defined once: the columns' size, the smallest amount kept, rounding, and the
checks an amount passes before it enters (docs/billing.md, "Prices and rounding" and "Ranges").

Nothing else rounds or parses money: services, admin, commands, selectors and the ``money``
template filter all come here.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING

from core.errors import InvalidRequest

if TYPE_CHECKING:
    from llm.catalog import ModelSpec

# Every money column is a DecimalField(max_digits=MAX_DIGITS, decimal_places=DECIMAL_PLACES).
MAX_DIGITS = 20
DECIMAL_PLACES = 8
QUANTUM = Decimal(1).scaleb(-DECIMAL_PLACES)  # 0.00000001 USD, the smallest amount kept
ZERO = Decimal(0).scaleb(-DECIMAL_PLACES)  # 0.00000000
# The largest magnitude of an amount or a balance: 999999999999 USD, the columns' whole-dollar
# range. Not 999999999999.99999999: SQLite keeps these columns as 64-bit floats, which Django
# reads back at 15 significant digits, so that value comes back as 10**12 and no longer fits.
MAX_AMOUNT = Decimal(10) ** (MAX_DIGITS - DECIMAL_PLACES) - 1


def _shown(value: object) -> str:
    text = str(value)
    return text if len(text) <= 40 else f"{text[:40]}..."


def _finite(value: Decimal | str | int, *, param: str) -> Decimal:
    """``value`` as a Decimal; InvalidRequest (with ``param``) unless it is a finite number."""
    if isinstance(value, Decimal):
        amount = value
    else:
        try:
            amount = Decimal(str(value).strip())
        except (InvalidOperation, ValueError):
            raise InvalidRequest(f"'{_shown(value)}' is not a valid amount.", param=param) from None
    if not amount.is_finite():
        raise InvalidRequest(f"'{_shown(value)}' is not a valid amount.", param=param)
    return amount


def to_money(amount: Decimal | str | int) -> Decimal:
    """``amount`` rounded half up to ``QUANTUM``, the one rounding of money in Nova.

    Raises InvalidRequest (``param`` "amount") when ``amount`` is not a finite number.
    """
    return _finite(amount, param="amount").quantize(QUANTUM, rounding=ROUND_HALF_UP)


def money_string(amount: Decimal) -> str:
    """An amount as the API, the CSV export and chat responses show money: a decimal string
    with 8 places, ``"0.00002400"``."""
    return f"{to_money(amount):f}"


def usage_cost(model: ModelSpec, prompt_tokens: int, completion_tokens: int) -> Decimal:
    """What this usage of ``model`` costs, in money: its catalog price rounded half up."""
    return to_money(model.price(prompt_tokens, completion_tokens))


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
    amount = _finite(value, param=param)
    # Checked before rounding: a huge value has more digits than the decimal context holds.
    # MAX_AMOUNT is a whole number, so rounding what passes cannot take it past the limit.
    if abs(amount) > MAX_AMOUNT:
        raise InvalidRequest(
            f"'{_shown(value)}' is too large: an amount is at most {MAX_AMOUNT:f} USD.",
            param=param,
        )
    rounded = to_money(amount)
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
