"""Every write that moves money. Each runs in one transaction with the balance row locked."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from billing.models import ZERO, Balance, LedgerEntry, UsageRecord
from core.errors import InvalidRequest

if TYPE_CHECKING:
    from accounts.models import ApiKey, User
    from conversations.models import Conversation
    from personas.models import Persona

QUANTUM = Decimal("0.00000001")


def to_money(value: Decimal | str | int) -> Decimal:
    """Parse and quantise an amount to 8 decimal places; InvalidRequest when not a number."""
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError) as exc:
        raise InvalidRequest(f"'{value}' is not a valid amount.", param="amount") from exc
    if not amount.is_finite():
        raise InvalidRequest(f"'{value}' is not a valid amount.", param="amount")
    return amount.quantize(QUANTUM, rounding=ROUND_HALF_UP)


def _locked_balance(user: User) -> Balance:
    """The user's balance row, created if missing, locked until the transaction ends.

    Must run inside transaction.atomic(): on PostgreSQL select_for_update() serialises
    concurrent money movements of one user; SQLite serialises all writers anyway.
    """
    try:
        return Balance.objects.select_for_update().get(user=user)
    except Balance.DoesNotExist:
        pass
    try:
        with transaction.atomic():
            Balance.objects.create(user=user, amount=ZERO)
    except IntegrityError:  # another transaction created it first
        pass
    return Balance.objects.select_for_update().get(user=user)


def _move(
    *,
    user: User,
    kind: str,
    amount: Decimal,
    note: str = "",
    usage: UsageRecord | None = None,
    created_by: User | None = None,
) -> LedgerEntry:
    balance = _locked_balance(user)
    balance.amount = (balance.amount + amount).quantize(QUANTUM)
    balance.save(update_fields=["amount", "updated_at"])
    return LedgerEntry.objects.create(
        user=user,
        kind=kind,
        amount=amount,
        balance_after=balance.amount,
        note=note[:200],
        usage=usage,
        created_by=created_by,
    )


def top_up(
    *, user: User, amount: Decimal | str, note: str = "", created_by: User | None = None
) -> LedgerEntry:
    """Add prepaid credit. Raises InvalidRequest unless the amount is positive."""
    value = to_money(amount)
    if value <= 0:
        raise InvalidRequest("A top-up amount must be positive.", param="amount")
    with transaction.atomic():
        return _move(
            user=user, kind=LedgerEntry.Kind.TOPUP, amount=value, note=note, created_by=created_by
        )


def adjust_balance(
    *, user: User, amount: Decimal | str, note: str, created_by: User | None = None
) -> LedgerEntry:
    """An operator's signed correction; it is a ledger entry like any other."""
    value = to_money(amount)
    if value == 0:
        raise InvalidRequest("An adjustment must not be zero.", param="amount")
    with transaction.atomic():
        return _move(
            user=user,
            kind=LedgerEntry.Kind.ADJUSTMENT,
            amount=value,
            note=note,
            created_by=created_by,
        )


def charge_usage(
    *,
    user: User,
    api_key: ApiKey | None,
    model_id: str,
    prompt_tokens: int,
    completion_tokens: int,
    cost: Decimal,
    persona: Persona | None = None,
    conversation: Conversation | None = None,
) -> UsageRecord:
    """Write the usage record and deduct its exact cost, atomically.

    Callers that must store more in the same step (the messages of a chat) wrap this in
    their own transaction.atomic(); this block then becomes part of theirs. The balance may
    end below zero: the tokens were generated, so they are owed (contract §8).
    """
    value = to_money(cost)
    with transaction.atomic():
        usage = UsageRecord.objects.create(
            user=user,
            api_key=api_key,
            model_id=model_id,
            persona=persona,
            conversation=conversation,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            cost=value,
        )
        _move(
            user=user,
            kind=LedgerEntry.Kind.CHARGE,
            amount=-value,
            note=f"{model_id}: {prompt_tokens} prompt + {completion_tokens} completion tokens",
            usage=usage,
        )
    return usage
