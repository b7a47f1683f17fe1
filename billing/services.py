"""Every write that moves money. Each runs in one transaction with the balance row locked."""

from __future__ import annotations

import functools
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from billing.models import ZERO, Balance, Hold, LedgerEntry, UsageRecord
from billing.money import QUANTUM, check_balance_in_range, parse_amount
from core.errors import InsufficientQuota, InvalidRequest

if TYPE_CHECKING:
    from accounts.models import ApiKey, User
    from conversations.models import Conversation
    from personas.models import Persona


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
    release: Decimal = ZERO,
) -> LedgerEntry:
    balance = _locked_balance(user)
    check_balance_in_range(balance.amount + amount)
    balance.amount = (balance.amount + amount).quantize(QUANTUM)
    balance.reserved = (balance.reserved - release).quantize(QUANTUM)
    balance.save(update_fields=["amount", "reserved", "updated_at"])
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
    """Add prepaid credit, rounded half up to 8 decimal places.

    Raises InvalidRequest unless the amount is positive and within the money columns' range
    (``billing.money.parse_amount``), or when the balance would leave that range.
    """
    value = parse_amount(amount, exact=False)
    if value <= 0:
        raise InvalidRequest("A top-up amount must be positive.", param="amount")
    with transaction.atomic():
        return _move(
            user=user, kind=LedgerEntry.Kind.TOPUP, amount=value, note=note, created_by=created_by
        )


def adjust_balance(
    *, user: User, amount: Decimal | str, note: str, created_by: User | None = None
) -> LedgerEntry:
    """An operator's signed correction; it is a ledger entry like any other.

    Raises InvalidRequest for a zero or out-of-range amount, or when the balance would leave
    the money columns' range.
    """
    value = parse_amount(amount, exact=False)
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
    hold: Hold | None = None,
) -> UsageRecord:
    """Write the usage record and deduct its exact cost, atomically, settling ``hold``.

    Callers that must store more in the same step (the messages of a chat) wrap this in
    their own transaction.atomic(); this block then becomes part of theirs. The balance may
    end below zero: the tokens were generated, so they are owed (contract §8); the hold
    placed at admission bounds by how much (:func:`place_hold`).

    Raises :class:`HoldSettled`, writing nothing, when ``hold`` was already settled or
    released: a request is charged at most once.
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
    if connection.vendor == "postgresql":
        charged = _charge_in_one_statement(usage, note=note, hold=hold)
        if charged:
            return usage
        if hold is not None:  # a hold exists only with a balance row: this one is gone
            raise HoldSettled(hold.pk)
    with transaction.atomic():
        if hold is not None and not Hold.objects.filter(pk=hold.pk).delete()[0]:
            raise HoldSettled(hold.pk)
        usage.save(force_insert=True)
        _move(
            user=user,
            kind=LedgerEntry.Kind.CHARGE,
            amount=-value,
            note=note,
            usage=usage,
            release=hold.amount if hold is not None else ZERO,
        )
    return usage


class HoldSettled(Exception):
    """The hold was already settled or released; nothing was written."""


def place_hold(
    *,
    user: User,
    api_key: ApiKey | None,
    model_id: str,
    amount: Decimal,
    persona: Persona | None = None,
) -> Hold:
    """Hold ``amount`` of the user's credit for a request about to be generated.

    Raises InsufficientQuota (402) unless the balance less what other requests in flight hold
    is positive. Every request's hold is the most it can cost, so however many run at once, a
    balance ends at worst one request's hold below zero: the one admitted last, while a little
    credit was still free.
    """
    value = to_money(amount)
    hold = Hold(
        user=user, api_key=api_key, model_id=model_id, persona=persona, amount=max(value, ZERO)
    )
    if connection.vendor == "postgresql":
        placed = _hold_in_one_statement(hold)
    else:
        with transaction.atomic():
            balance = _locked_balance(user)
            placed = balance.amount - balance.reserved > 0
            if placed:
                balance.reserved = (balance.reserved + hold.amount).quantize(QUANTUM)
                balance.save(update_fields=["reserved"])
                hold.save(force_insert=True)
    if not placed:
        raise InsufficientQuota(
            "Your balance is not positive (or is held by requests in progress): top up to "
            "continue.",
            code="insufficient_quota",
        )
    return hold


def release_hold(hold: Hold) -> bool:
    """Give a hold's credit back without charging (nothing was generated); False when it was
    already settled or released."""
    with transaction.atomic():
        if not Hold.objects.filter(pk=hold.pk).delete()[0]:
            return False
        balance = _locked_balance(hold.user)
        balance.reserved = (balance.reserved - hold.amount).quantize(QUANTUM)
        balance.save(update_fields=["reserved"])
    return True


@functools.cache
def _hold_sql() -> str:
    """One PostgreSQL statement for :func:`place_hold`: the UPDATE takes the balance row's lock
    and checks what is free under it; the hold is inserted only when the update matched."""
    qn = connection.ops.quote_name
    balance, hold = qn(Balance._meta.db_table), qn(Hold._meta.db_table)
    # Only table names from the models' metadata, quoted; every value is a parameter.
    return f"""
        WITH held AS (
            UPDATE {balance} SET reserved = reserved + %(amount)s
            WHERE user_id = %(user_id)s AND amount - reserved > 0
            RETURNING user_id
        )
        INSERT INTO {hold} (user_id, api_key_id, model_id, persona_id, amount, created_at)
        SELECT held.user_id, %(api_key_id)s, %(model_id)s, %(persona_id)s, %(amount)s, %(now)s
        FROM held
        RETURNING id
    """  # noqa: S608


def _hold_in_one_statement(hold: Hold) -> bool:
    now = timezone.now()
    params = {
        "user_id": hold.user_id,
        "api_key_id": hold.api_key_id,
        "model_id": hold.model_id,
        "persona_id": hold.persona_id,
        "amount": hold.amount,
        "now": now,
    }
    with connection.cursor() as cursor:
        cursor.execute(_hold_sql(), params)
        row = cursor.fetchone()
    if row is None:
        return False
    hold.pk, hold.created_at = row[0], now
    hold._state.adding, hold._state.db = False, connection.alias
    return True


@functools.cache
def _charge_sql(*, settles_hold: bool) -> str:
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
    hold = qn(Hold._meta.db_table)
    # Settling a hold deletes it first: when it is already gone, nothing else is written.
    moved = (
        f"""released AS (
            DELETE FROM {hold} WHERE id = %(hold_id)s RETURNING amount
        ), moved AS (
            UPDATE {balance} b SET amount = b.amount - %(cost)s,
                reserved = b.reserved - released.amount, updated_at = %(now)s
            FROM released
            WHERE b.user_id = %(user_id)s
            RETURNING b.amount
        )"""  # noqa: S608
        if settles_hold
        else f"""moved AS (
            UPDATE {balance} SET amount = amount - %(cost)s, updated_at = %(now)s
            WHERE user_id = %(user_id)s
            RETURNING amount
        )"""  # noqa: S608
    )
    return f"""
        WITH {moved}, recorded AS (
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


def _charge_in_one_statement(usage: UsageRecord, *, note: str, hold: Hold | None) -> bool:
    """Save ``usage`` and charge its cost on PostgreSQL in one round trip instead of six (the
    chat hot path); False, with nothing written, when the user has no balance row yet (the ORM
    path creates it) or ``hold`` is already settled."""
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
    if hold is not None:
        params["hold_id"] = hold.pk
    with connection.cursor() as cursor:
        cursor.execute(_charge_sql(settles_hold=hold is not None), params)
        row = cursor.fetchone()
    if row is None:
        return False
    usage.pk, usage.created_at = row[0], now
    usage._state.adding, usage._state.db = False, connection.alias
    return True
