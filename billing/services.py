"""Every write that moves money. Each runs in one transaction with the balance row locked."""

from __future__ import annotations

import functools
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

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
    usage = UsageRecord(
        user=user,
        api_key=api_key,
        model_id=model_id,
        persona=persona,
        conversation=conversation,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost=value,
    )
    note = f"{model_id}: {prompt_tokens} prompt + {completion_tokens} completion tokens"
    if connection.vendor == "postgresql" and _charge_in_one_statement(usage, note=note):
        return usage
    with transaction.atomic():
        usage.save(force_insert=True)
        _move(user=user, kind=LedgerEntry.Kind.CHARGE, amount=-value, note=note, usage=usage)
    return usage


@functools.cache
def _charge_sql() -> str:
    """One PostgreSQL statement doing what the ORM path of :func:`charge_usage` does.

    The UPDATE takes the balance row's lock, as ``select_for_update()`` does, and under READ
    COMMITTED re-reads the row a concurrent charge just committed, so ``RETURNING amount`` is
    the exact balance after this charge. The usage record and the ledger entry are inserted
    from that row: with no balance row nothing at all is written.
    """
    qn = connection.ops.quote_name
    balance, usage, ledger = (
        qn(model._meta.db_table) for model in (Balance, UsageRecord, LedgerEntry)
    )
    # Only table names from the models' metadata, quoted; every value is a parameter.
    return f"""
        WITH moved AS (
            UPDATE {balance} SET amount = amount - %(cost)s, updated_at = %(now)s
            WHERE user_id = %(user_id)s
            RETURNING amount
        ), recorded AS (
            INSERT INTO {usage} (user_id, api_key_id, model_id, persona_id, conversation_id,
                                 prompt_tokens, completion_tokens, cost, created_at)
            SELECT %(user_id)s, %(api_key_id)s, %(model_id)s, %(persona_id)s,
                   %(conversation_id)s, %(prompt_tokens)s, %(completion_tokens)s, %(cost)s,
                   %(now)s
            FROM moved
            RETURNING id
        )
        INSERT INTO {ledger} (user_id, kind, amount, balance_after, note, usage_id,
                              created_by_id, created_at)
        SELECT %(user_id)s, %(kind)s, %(amount)s, moved.amount, %(note)s, recorded.id,
               NULL, %(now)s
        FROM moved, recorded
        RETURNING usage_id
    """  # noqa: S608


def _charge_in_one_statement(usage: UsageRecord, *, note: str) -> bool:
    """Save ``usage`` and charge its cost on PostgreSQL in one round trip instead of six (the
    chat hot path); False, with nothing written, when the user has no balance row yet (the ORM
    path creates it)."""
    now = timezone.now()
    params: dict[str, Any] = {
        name: getattr(usage, name)
        for name in (
            "user_id",
            "api_key_id",
            "model_id",
            "persona_id",
            "conversation_id",
            "prompt_tokens",
            "completion_tokens",
            "cost",
        )
    }
    params.update(amount=-usage.cost, kind=LedgerEntry.Kind.CHARGE.value, note=note[:200], now=now)
    with connection.cursor() as cursor:
        cursor.execute(_charge_sql(), params)
        row = cursor.fetchone()
    if row is None:
        return False
    usage.pk, usage.created_at = row[0], now
    usage._state.adding, usage._state.db = False, connection.alias
    return True
