"""Spend limits on API keys and users: setting them, and reading the spend against them.

accounts owns the ``limit`` and ``limit_reset`` fields; billing owns what was spent and checks
the limits before generation (docs/billing.md, "Spend limits"). accounts imports no app above
it, so billing registers its reader here at start-up (``BillingConfig.ready``) and the key page
and the admin read the spend through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Protocol

from accounts.models import ApiKey, LimitReset, User
from core.errors import InvalidRequest

# The largest limit: the money columns' range (billing.money.MAX_AMOUNT).
MAX_LIMIT = Decimal(10) ** 12 - 1
_PLACES = 8


@dataclass(frozen=True)
class SpendSummary:
    """What a key (or a user, over all their keys) has spent, in USD at 8 places."""

    usage: Decimal  # since the key was created (the user: since the account was)
    usage_daily: Decimal  # since 00:00 UTC today
    usage_weekly: Decimal  # since 00:00 UTC on this week's Monday
    usage_monthly: Decimal  # since 00:00 UTC on the 1st of this month
    window: Decimal  # in the current window of the limit (all time for "never")
    limit_remaining: Decimal | None  # the limit less ``window``, never below 0; None: no limit
    resets_at: datetime | None  # when the window starts again; None: never, or no limit


class KeySpendReader(Protocol):
    def __call__(self, key: ApiKey) -> SpendSummary: ...


class UserSpendReader(Protocol):
    def __call__(self, user: User) -> SpendSummary: ...


@dataclass
class _Readers:
    key: KeySpendReader | None = None
    user: UserSpendReader | None = None


_readers = _Readers()


def use_spend_readers(*, key: KeySpendReader, user: UserSpendReader) -> None:
    """Have :func:`key_spend` and :func:`user_spend` read through these (billing's)."""
    _readers.key = key
    _readers.user = user


def key_spend(key: ApiKey) -> SpendSummary:
    if _readers.key is None:
        raise RuntimeError("no spend reader registered (is billing installed?)")
    return _readers.key(key)


def user_spend(user: User) -> SpendSummary:
    if _readers.user is None:
        raise RuntimeError("no spend reader registered (is billing installed?)")
    return _readers.user(user)


def validate_limit(value: Decimal | str | None) -> Decimal | None:
    """A spend limit: None (no limit), or 0 to ``MAX_LIMIT`` USD with at most 8 decimal places,
    never rounded. Raises InvalidRequest (``param`` "limit") otherwise. A limit of 0 stops
    every request."""
    if value is None:
        return None
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise InvalidRequest(f"'{str(value)[:40]}' is not a valid limit.", param="limit") from None
    if not amount.is_finite() or amount < 0 or amount > MAX_LIMIT:
        raise InvalidRequest(f"A limit is a number of USD from 0 to {MAX_LIMIT}.", param="limit")
    # Checked against MAX_LIMIT first, so the quantize has the digits it needs.
    exact = amount.quantize(Decimal(1).scaleb(-_PLACES))
    if exact != amount:
        raise InvalidRequest(f"A limit has at most {_PLACES} decimal places.", param="limit")
    return exact


def validate_limit_reset(value: str) -> str:
    """One of ``LimitReset``'s values; InvalidRequest (``param`` "limit_reset") otherwise."""
    if value not in LimitReset.values:
        raise InvalidRequest(
            f"limit_reset must be one of {', '.join(LimitReset.values)}.", param="limit_reset"
        )
    return value


def set_key_limit(
    *, key: ApiKey, limit: Decimal | str | None, limit_reset: str | None = None
) -> ApiKey:
    """Set the key's spend limit (None: none) and, when given, when it resets; the next
    request is checked against it. Raises InvalidRequest for a bad limit or period."""
    key.set_limit(validate_limit(limit), validate_limit_reset(limit_reset) if limit_reset else None)
    key.save(update_fields=["limit", "limit_reset"])
    return key


def set_user_limit(
    *, user: User, limit: Decimal | str | None, limit_reset: str | None = None
) -> User:
    """:func:`set_key_limit` for a user's limit over all of their keys and the playground."""
    user.set_limit(
        validate_limit(limit), validate_limit_reset(limit_reset) if limit_reset else None
    )
    user.save(update_fields=["limit", "limit_reset"])
    return user
