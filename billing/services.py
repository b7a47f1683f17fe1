"""Every write that moves money (docs/billing.md). Each runs in one transaction with the user's
balance row locked and writes its ledger entry in that same transaction."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

from django.db import IntegrityError, connection, transaction
from django.db.models import Model
from django.db.transaction import TransactionManagementError

from accounts.models import LimitReset
from billing import windows
from billing.models import ActivityRecord, Balance, Hold, LedgerEntry, UsageDay, UsageRecord
from billing.money import ZERO, check_balance_in_range, parse_amount, to_money
from billing.selectors import window_spend
from core.errors import InsufficientQuota, InvalidRequest

if TYPE_CHECKING:
    from django.db.models import Field

    from accounts.models import ApiKey, User
    from conversations.models import Conversation
    from personas.models import Persona

# On PostgreSQL a hold and a charge are one statement each, the chat's hot path; elsewhere, or
# with this switched off, they go through the ORM. Both paths write the same rows, and the
# tests run each of them (tests/billing/test_services.py).
ONE_STATEMENT_ON_POSTGRESQL = True


def _in_one_statement() -> bool:
    return ONE_STATEMENT_ON_POSTGRESQL and connection.vendor == "postgresql"


def open_balance(*, user: User) -> Balance:
    """The new user's balance row, at zero. ``accounts.services.create_user`` calls it for
    every user it creates (registered in ``BillingConfig.ready``)."""
    return Balance.objects.create(user=user)


def _locked_balance(user_id: int) -> Balance:
    """The user's balance row, created if missing, locked until the transaction ends.

    Raises TransactionManagementError outside ``transaction.atomic()``: there the lock would
    end with its own statement, before the balance it guards is written. (PostgreSQL would
    refuse ``select_for_update()`` in autocommit too; SQLite, which has no row locks, would
    not.)
    """
    if not connection.in_atomic_block:
        raise TransactionManagementError(
            "The balance row can only be locked inside transaction.atomic(): the lock must "
            "last until the balance and its ledger entry are written."
        )
    try:
        return Balance.objects.select_for_update().get(user_id=user_id)
    except Balance.DoesNotExist:
        pass
    try:
        with transaction.atomic():
            Balance.objects.create(user_id=user_id, amount=ZERO)
    except IntegrityError:  # another transaction created it first
        pass
    return Balance.objects.select_for_update().get(user_id=user_id)


def _move(
    *,
    user_id: int,
    kind: str,
    amount: Decimal,
    note: str = "",
    usage: UsageRecord | None = None,
    created_by: User | None = None,
    release: Decimal = ZERO,
) -> LedgerEntry:
    balance = _locked_balance(user_id)
    new_amount = balance.amount + amount
    check_balance_in_range(new_amount)
    balance.amount = to_money(new_amount)
    balance.reserved = to_money(balance.reserved - release)
    balance.save(update_fields=["amount", "reserved", "updated_at"])
    return LedgerEntry.objects.create(
        user_id=user_id,
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
    return _book(user=user, kind=LedgerEntry.Kind.TOPUP, amount=value, note=note, by=created_by)


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
    return _book(
        user=user, kind=LedgerEntry.Kind.ADJUSTMENT, amount=value, note=note, by=created_by
    )


def _book(*, user: User, kind: str, amount: Decimal, note: str, by: User | None) -> LedgerEntry:
    """A top-up or an adjustment of ``amount`` (already checked), in its own transaction."""
    with transaction.atomic():
        return _move(user_id=user.pk, kind=kind, amount=amount, note=note, created_by=by)


class HoldSettled(Exception):
    """The hold was already settled or released; nothing was written."""


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
    activity: ActivityRecord | None = None,
) -> UsageRecord:
    """Write the usage record and deduct its cost (rounded half up to 8 places), atomically,
    settling ``hold``; return the stored usage record.

    ``activity``, the request's unsaved activity record, is written with them (on PostgreSQL
    in the same statement), its model, persona, tokens and cost set from the usage record.

    Callers that must store more in the same step (the messages of a chat) wrap this in
    their own transaction.atomic(); this block then becomes part of theirs. The balance may
    end below zero: the tokens were generated, so they are owed; the hold placed at admission
    bounds by how much (docs/billing.md, "Holds").

    Raises :class:`HoldSettled`, writing nothing, when ``hold`` was already settled or
    released: a request is charged at most once (docs/billing.md, "Charging exactly once").
    """
    usage = UsageRecord(
        user=user,
        api_key=api_key,
        model_id=model_id,
        persona=persona,
        conversation=conversation,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost=to_money(cost),
        created_at=windows.now(),
    )
    if activity is not None:
        _fill_activity(activity, usage)
    note = f"{model_id}: {prompt_tokens} prompt + {completion_tokens} completion tokens"
    if _in_one_statement():
        charged = _charge_in_one_statement(usage, note=note, hold=hold, activity=activity)
        if charged is not None:
            return charged
        if hold is not None:  # a hold exists only with a balance row: this one is gone
            raise HoldSettled(hold.pk)
        # No balance row yet (never topped up): the ORM path creates it.
    return _charge_with_orm(usage, note=note, hold=hold, activity=activity)


def _fill_activity(activity: ActivityRecord, usage: UsageRecord) -> None:
    """The activity record says what the usage record says it was charged for."""
    activity.user_id = usage.user_id
    activity.model_answered = usage.model_id
    activity.persona_id = usage.persona_id
    activity.prompt_tokens = usage.prompt_tokens
    activity.completion_tokens = usage.completion_tokens
    activity.cost = usage.cost


def record_activity(activity: ActivityRecord) -> None:
    """Write the activity record of a request that was not charged (it failed before
    generating anything, or is not billed): one INSERT, in autocommit."""
    activity.save(force_insert=True)


def _charge_with_orm(
    usage: UsageRecord, *, note: str, hold: Hold | None, activity: ActivityRecord | None = None
) -> UsageRecord:
    with transaction.atomic():
        # Settling deletes the hold first: when it is already gone, nothing else is written.
        if hold is not None and not Hold.objects.filter(pk=hold.pk).delete()[0]:
            raise HoldSettled(hold.pk)
        usage.save(force_insert=True)
        _move(
            user_id=usage.user_id,
            kind=LedgerEntry.Kind.CHARGE,
            amount=-usage.cost,
            note=note,
            usage=usage,
            release=hold.amount if hold is not None else ZERO,
        )
        _count_usage_day(usage)
        if activity is not None:
            activity.save(force_insert=True)
    return usage


def _count_usage_day(usage: UsageRecord) -> None:
    """Add ``usage`` to its UsageDay row. Called with the balance row locked, which every
    charge of this user takes first, so no other charge writes the row meanwhile; the sum is
    taken in Python, exact on every database (SQLite would add decimals as floats)."""
    group = {
        "user_id": usage.user_id,
        "day": windows.utc_day(usage.created_at),
        "api_key_ref": usage.api_key_id or 0,
        "model_id": usage.model_id,
        "persona_ref": usage.persona_id or 0,
    }
    row = UsageDay.objects.filter(**group).first()
    if row is None:
        row = UsageDay(**group)
    row.requests += 1
    row.prompt_tokens += usage.prompt_tokens
    row.completion_tokens += usage.completion_tokens
    row.cost = to_money(row.cost + usage.cost)
    row.save()


@dataclass(frozen=True)
class _LimitCheck:
    """The spend limits a hold must respect: each limit with the first day of its window."""

    key_limit: Decimal | None
    key_from: date
    user_limit: Decimal | None
    user_from: date


@dataclass(frozen=True)
class _Spent:
    """The spend in each limited window, as read by the hold (None where nothing is limited)."""

    key: Decimal | None = None
    user: Decimal | None = None


def place_hold(
    *,
    user: User,
    api_key: ApiKey | None,
    model_id: str,
    amount: Decimal,
    persona: Persona | None = None,
) -> Hold:
    """Hold ``amount`` (rounded half up, at least zero) of the user's credit for a request
    about to be generated; return the stored hold.

    First the spend limits on ``api_key`` and on ``user`` (the values on these instances,
    which the chat reads with the key): when the spend in the current window of either has
    reached its limit, raises InsufficientQuota (402) with code ``key_limit_exceeded`` or
    ``user_limit_exceeded`` (the key's first). The window's spend is what is already charged,
    so requests in flight when a limit is crossed still finish and are charged whole.

    Then the balance: raises InsufficientQuota (402) unless the balance less what other
    requests in flight hold is positive. Every request's hold is the most it can cost, so
    however many run at once, a balance ends at worst one request's hold below zero: the one
    admitted last, while a little credit was still free (docs/billing.md, "Holds" and
    "Spend limits").
    """
    hold = Hold(
        user=user,
        api_key=api_key,
        model_id=model_id,
        persona=persona,
        amount=max(to_money(amount), ZERO),
    )
    key_limit = api_key.limit if api_key is not None else None
    limits = None
    # With no limit (the common case) nothing more is read: the limits came with the key.
    if key_limit is not None or user.limit is not None:
        day = windows.today()
        limits = _LimitCheck(
            key_limit=key_limit,
            key_from=windows.window_start(api_key.limit_reset if api_key else "", day),
            user_limit=user.limit,
            user_from=windows.window_start(user.limit_reset, day),
        )
    if _in_one_statement():
        placed, spent = _hold_in_one_statement(hold, limits)
    else:
        placed, spent = _hold_with_orm(hold, limits)
    if placed is None:
        _refuse(user=user, api_key=api_key, spent=spent)
    return placed


def _reached(limit: Decimal | None, spent: Decimal | None) -> bool:
    return limit is not None and spent is not None and spent >= limit


def _refuse(*, user: User, api_key: ApiKey | None, spent: _Spent) -> NoReturn:
    """The 402 of a hold that was not placed: a reached limit, else the balance."""
    if api_key is not None and _reached(api_key.limit, spent.key):
        raise _limit_reached("This API key", api_key, spent.key, "key_limit_exceeded")
    if _reached(user.limit, spent.user):
        raise _limit_reached("Your account", user, spent.user, "user_limit_exceeded")
    raise InsufficientQuota(
        "Your balance is not positive (or is held by requests in progress): top up to continue.",
        code="insufficient_quota",
    )


def _limit_reached(
    who: str, limited: ApiKey | User, spent: Decimal | None, code: str
) -> InsufficientQuota:
    assert limited.limit is not None and spent is not None
    reset = limited.limit_reset
    if reset == LimitReset.NEVER:
        period, after = "", "raise the limit to continue"
    else:
        period = {"daily": " per day", "weekly": " per week", "monthly": " per month"}[reset]
        resets = windows.next_window_start(reset, windows.today())
        after = f"it resets at {resets:%Y-%m-%d} 00:00 UTC"
    return InsufficientQuota(
        f"{who} has reached its spend limit of {limited.limit:f} USD{period} "
        f"({to_money(spent):f} USD spent): {after}.",
        code=code,
    )


def _hold_with_orm(hold: Hold, limits: _LimitCheck | None) -> tuple[Hold | None, _Spent]:
    with transaction.atomic():
        balance = _locked_balance(hold.user_id)
        spent = _Spent()
        if limits is not None:
            # Read under the balance lock, which every charge of this user holds while it
            # counts its usage: the spend is every charge committed so far.
            spent = _Spent(
                key=(
                    window_spend(
                        UsageDay.objects.filter(api_key_ref=hold.api_key_id or 0), limits.key_from
                    )
                    if limits.key_limit is not None
                    else None
                ),
                user=(
                    window_spend(UsageDay.objects.filter(user_id=hold.user_id), limits.user_from)
                    if limits.user_limit is not None
                    else None
                ),
            )
            if _reached(limits.key_limit, spent.key) or _reached(limits.user_limit, spent.user):
                return None, spent
        if balance.amount - balance.reserved <= 0:
            return None, spent
        balance.reserved = to_money(balance.reserved + hold.amount)
        balance.save(update_fields=["reserved"])
        hold.save(force_insert=True)
    return hold, spent


def release_hold(hold: Hold) -> bool:
    """Give a hold's credit back without charging (nothing was generated); False when it was
    already settled or released."""
    with transaction.atomic():
        if not Hold.objects.filter(pk=hold.pk).delete()[0]:
            return False
        balance = _locked_balance(hold.user_id)
        balance.reserved = to_money(balance.reserved - hold.amount)
        balance.save(update_fields=["reserved"])
    return True


# --- The one-statement paths (PostgreSQL) ---
# Only table and column names from the models' metadata, quoted, are formatted into the SQL;
# every value is a parameter.


def _columns(model: type[Model], table: str = "") -> str:
    """The model's columns in the order ``Model.from_db`` takes its values."""
    prefix = f"{table}." if table else ""
    qn = connection.ops.quote_name
    # A concrete field always has a column (the stubs allow None for the others).
    return ", ".join(prefix + qn(cast(str, field.column)) for field in model._meta.concrete_fields)


@functools.cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    """The attributes of the model's columns, in :func:`_columns` order (once per process)."""
    return tuple(field.attname for field in model._meta.concrete_fields)


_M = TypeVar("_M", bound=Model)


def _from_row(model: type[_M], row: tuple[Any, ...]) -> _M:
    """The model instance a row of :func:`_columns` describes, as the ORM would load it."""
    return model.from_db(connection.alias, _attnames(model), row)


@functools.cache
def _hold_sql(*, key_limited: bool = False, user_limited: bool = False) -> str:
    """:func:`place_hold` in one statement: the UPDATE takes the balance row's lock and checks
    what is free under it; the hold is inserted only when the update matched.

    With a limit, the statement first sums the window's spend from the UsageDay rows (an
    index range of one row per day and group) and updates the balance only below the limits;
    it returns the sums either way, then the hold's columns (NULL when none was placed), so
    a refusal needs no second query to say which check refused.
    """
    qn = connection.ops.quote_name
    balance, hold, days = (qn(m._meta.db_table) for m in (Balance, Hold, UsageDay))
    if not (key_limited or user_limited):
        return f"""
            WITH held AS (
                UPDATE {balance} SET reserved = reserved + %(amount)s
                WHERE user_id = %(user_id)s AND amount - reserved > 0
                RETURNING user_id
            )
            INSERT INTO {hold} (user_id, api_key_id, model_id, persona_id, amount, created_at)
            SELECT held.user_id, %(api_key_id)s, %(model_id)s, %(persona_id)s, %(amount)s,
                   %(now)s
            FROM held
            RETURNING {_columns(Hold)}
        """  # noqa: S608
    key_spent = (
        f"(SELECT COALESCE(SUM(cost), 0) FROM {days} "  # noqa: S608
        "WHERE api_key_ref = %(api_key_id)s AND day >= %(key_from)s)"
        if key_limited
        else "NULL::numeric"
    )
    user_spent = (
        f"(SELECT COALESCE(SUM(cost), 0) FROM {days} "  # noqa: S608
        "WHERE user_id = %(user_id)s AND day >= %(user_from)s)"
        if user_limited
        else "NULL::numeric"
    )
    below = ["TRUE"]
    if key_limited:
        below.append("spent.key_spent < %(key_limit)s")
    if user_limited:
        below.append("spent.user_spent < %(user_limit)s")
    return f"""
        WITH spent AS (
            SELECT {key_spent} AS key_spent, {user_spent} AS user_spent
        ), held AS (
            UPDATE {balance} b SET reserved = b.reserved + %(amount)s
            FROM spent
            WHERE b.user_id = %(user_id)s AND b.amount - b.reserved > 0
              AND {" AND ".join(below)}
            RETURNING b.user_id
        ), placed AS (
            INSERT INTO {hold} (user_id, api_key_id, model_id, persona_id, amount, created_at)
            SELECT held.user_id, %(api_key_id)s, %(model_id)s, %(persona_id)s, %(amount)s,
                   %(now)s
            FROM held
            RETURNING {_columns(Hold)}
        )
        SELECT spent.key_spent, spent.user_spent, {_columns(Hold, "placed")}
        FROM spent LEFT JOIN placed ON TRUE
    """  # noqa: S608


def _hold_in_one_statement(hold: Hold, limits: _LimitCheck | None) -> tuple[Hold | None, _Spent]:
    """The stored hold, or None (nothing written) when a limit is reached or no credit is
    free; and the limited windows' spend."""
    params: dict[str, Any] = {
        "user_id": hold.user_id,
        "api_key_id": hold.api_key_id,
        "model_id": hold.model_id,
        "persona_id": hold.persona_id,
        "amount": hold.amount,
        "now": windows.now(),
    }
    key_limited = limits is not None and limits.key_limit is not None
    user_limited = limits is not None and limits.user_limit is not None
    if limits is not None:
        params.update(
            key_limit=limits.key_limit,
            key_from=limits.key_from,
            user_limit=limits.user_limit,
            user_from=limits.user_from,
        )
    with connection.cursor() as cursor:
        cursor.execute(_hold_sql(key_limited=key_limited, user_limited=user_limited), params)
        row = cursor.fetchone()
    if limits is None:
        return (None if row is None else _from_row(Hold, row)), _Spent()
    assert row is not None  # the spent row is always returned
    spent = _Spent(key=row[0], user=row[1])
    return (None if row[2] is None else _from_row(Hold, row[2:])), spent


@functools.cache
def _activity_fields() -> tuple[Field[Any, Any], ...]:
    """The fields of an activity record's columns but its id (once per process)."""
    return tuple(field for field in ActivityRecord._meta.concrete_fields if not field.primary_key)


@functools.cache
def _charge_sql(*, settles_hold: bool, logs_activity: bool = False) -> str:
    """:func:`_charge_with_orm` in one statement.

    The UPDATE takes the balance row's lock, as ``select_for_update()`` does, and under READ
    COMMITTED re-reads the row a concurrent charge just committed, so ``RETURNING amount`` is
    the exact balance after this charge. The usage record and the ledger entry are inserted
    from that row: with no balance row nothing at all is written. PostgreSQL runs every
    data-modifying WITH to completion; the final SELECT returns the stored usage record.
    With ``logs_activity`` the request's activity record is inserted too, from the usage
    record's row (so never without its charge).
    """
    qn = connection.ops.quote_name
    balance, usage, ledger, hold, days = (
        qn(model._meta.db_table) for model in (Balance, UsageRecord, LedgerEntry, Hold, UsageDay)
    )
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
    logged = ""
    if logs_activity:
        fields = _activity_fields()
        logged = f""", logged AS (
            INSERT INTO {qn(ActivityRecord._meta.db_table)}
                ({", ".join(qn(cast(str, field.column)) for field in fields)})
            SELECT {", ".join(f"%(activity_{field.attname})s" for field in fields)}
            FROM recorded
            RETURNING 1
        )"""  # noqa: S608
    return f"""
        WITH {moved}, recorded AS (
            INSERT INTO {usage} (user_id, api_key_id, model_id, persona_id, conversation_id,
                                 prompt_tokens, completion_tokens, cost, created_at)
            SELECT %(user_id)s, %(api_key_id)s, %(model_id)s, %(persona_id)s,
                   %(conversation_id)s, %(prompt_tokens)s, %(completion_tokens)s, %(cost)s,
                   %(now)s
            FROM moved
            RETURNING {_columns(UsageRecord)}
        ), entry AS (
            INSERT INTO {ledger} (user_id, kind, amount, balance_after, note, usage_id,
                                  created_by_id, created_at)
            SELECT %(user_id)s, %(kind)s, %(amount)s, moved.amount, %(note)s, recorded.id,
                   NULL, %(now)s
            FROM moved, recorded
            RETURNING usage_id
        ), counted AS (
            INSERT INTO {days} AS d (user_id, day, api_key_ref, model_id, persona_ref,
                                     requests, prompt_tokens, completion_tokens, cost)
            SELECT %(user_id)s, %(day)s, %(api_key_ref)s, %(model_id)s, %(persona_ref)s, 1,
                   %(prompt_tokens)s, %(completion_tokens)s, %(cost)s
            FROM recorded
            ON CONFLICT (user_id, day, api_key_ref, model_id, persona_ref) DO UPDATE SET
                requests = d.requests + 1,
                prompt_tokens = d.prompt_tokens + EXCLUDED.prompt_tokens,
                completion_tokens = d.completion_tokens + EXCLUDED.completion_tokens,
                cost = d.cost + EXCLUDED.cost
            RETURNING d.id
        ){logged}
        SELECT {_columns(UsageRecord, "recorded")}
        FROM recorded JOIN entry ON entry.usage_id = recorded.id
    """  # noqa: S608


def _charge_in_one_statement(
    usage: UsageRecord, *, note: str, hold: Hold | None, activity: ActivityRecord | None = None
) -> UsageRecord | None:
    """``usage`` stored and its cost charged in one round trip instead of six; None, with
    nothing written, when the user has no balance row yet or ``hold`` is already settled."""
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
    params.update(
        amount=-usage.cost,
        kind=LedgerEntry.Kind.CHARGE.value,
        note=note[:200],
        now=usage.created_at,
        day=windows.utc_day(usage.created_at),
        api_key_ref=usage.api_key_id or 0,
        persona_ref=usage.persona_id or 0,
        hold_id=hold.pk if hold is not None else None,
    )
    if activity is not None:
        for field in _activity_fields():
            params[f"activity_{field.attname}"] = field.get_db_prep_save(
                getattr(activity, field.attname), connection
            )
    sql = _charge_sql(settles_hold=hold is not None, logs_activity=activity is not None)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else _from_row(UsageRecord, row)
