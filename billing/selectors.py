from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum

from accounts.limits import SpendSummary
from accounts.models import ApiKey, LimitReset
from billing import windows
from billing.models import ActivityRecord, Balance, LedgerEntry, UsageDay, UsageRecord
from billing.money import ZERO, to_money

if TYPE_CHECKING:
    from accounts.models import User


def get_balance(user: User) -> Decimal:
    amount = Balance.objects.filter(user=user).values_list("amount", flat=True).first()
    return amount if amount is not None else ZERO


# --- Usage page (dashboard) ---

USAGE_CHART_DAYS = 30


@dataclass(frozen=True)
class DailySpend:
    day: date
    cost: Decimal
    requests: int


class SpendRow(TypedDict):
    """Spend per model or per key: one aggregated row."""

    label: str
    requests: int
    prompt_tokens: int
    completion_tokens: int
    cost: Decimal


def _money(value: Decimal | None) -> Decimal:
    # SQLite's SUM of decimals comes back with more places than the column holds.
    return to_money(value or ZERO)


def ledger_for(user: User) -> QuerySet[LedgerEntry]:
    """The user's top-ups, charges and adjustments, newest first."""
    return LedgerEntry.objects.filter(user=user).order_by("-created_at", "-id")


def daily_spend(
    user: User, *, days: int = USAGE_CHART_DAYS, today: date | None = None
) -> list[DailySpend]:
    """Spend per UTC day for the ``days`` days ending today, oldest first, days without use
    included as zero. One query (:func:`usage_summary`)."""
    last = today or windows.today()
    first = last - timedelta(days=days - 1)
    rows = usage_summary(user, UsageQuery(start=first, end=last, group_by=("day",))).rows
    by_day = {row["day"]: (row["cost"], row["requests"]) for row in rows}
    spend = []
    for offset in range(days):
        day = first + timedelta(days=offset)
        cost, requests = by_day.get(day, (ZERO, 0))
        spend.append(DailySpend(day=day, cost=cost, requests=requests))
    return spend


def _spend_by(user: User, group: str, label: Callable[[UsageRow], str]) -> list[SpendRow]:
    """The user's all-time spend per ``group`` of :func:`usage_summary`, most expensive first
    (ties in the group's order). One query."""
    rows = usage_summary(user, UsageQuery(group_by=(group,))).rows
    ordered = sorted(rows, key=lambda row: -row["cost"])  # stable: ties keep the group order
    return [
        SpendRow(
            label=label(row),
            requests=row["requests"],
            prompt_tokens=row["prompt_tokens"],
            completion_tokens=row["completion_tokens"],
            cost=row["cost"],
        )
        for row in ordered
    ]


def spend_by_model(user: User) -> list[SpendRow]:
    """All-time spend per model, most expensive first. One query."""
    return _spend_by(user, "model", lambda row: str(row["model"]))


def key_source(row: UsageRow) -> str:
    """Whose usage a row grouped by key is: ``key`` (one of the user's keys, revoked or not),
    ``deleted_key`` or ``playground`` (no key)."""
    if row["key"] is not None:
        return "key"
    return "deleted_key" if row["key_ref"] else "playground"


def _key_label(row: UsageRow) -> str:
    source = key_source(row)
    if source != "key":
        return "deleted key" if source == "deleted_key" else "no key (playground)"
    return f"{row['key']}… {row['key_name'] or 'unnamed'}".strip()


def spend_by_key(user: User) -> list[SpendRow]:
    """All-time spend per API key (a deleted key's usage under "deleted key", the
    playground's under "no key"), most expensive first. One query: the key's name and prefix
    are read in it."""
    return _spend_by(user, "key", _key_label)


# --- Usage summaries (the usage API, the usage page, the CSV export) ---

GROUPS = ("day", "model", "key", "persona")
# The UsageDay column of each group.
_GROUP_COLUMNS = {"day": "day", "model": "model_id", "key": "api_key_ref", "persona": "persona_ref"}


@dataclass(frozen=True)
class UsageQuery:
    """Which usage to sum: UTC days ``start`` to ``end`` inclusive (None: unbounded), grouped
    by ``group_by`` (in that order, a subset of :data:`GROUPS`), optionally only one key's
    (by display prefix) or one model's. The API checks the bounds (``billing.serializers``)."""

    start: date | None = None
    end: date | None = None
    group_by: tuple[str, ...] = ("day",)
    key: str | None = None
    model: str | None = None


class UsageRow(TypedDict):
    """One group of :func:`usage_summary`. The group fields not asked for are absent from
    the API's answer; ``key_ref`` and ``key_name`` serve the dashboard only."""

    day: date | None
    model: str | None
    key: str | None  # the key's display prefix; None for no key or a deleted one
    key_ref: int
    key_name: str | None
    persona: int | None
    requests: int
    prompt_tokens: int
    completion_tokens: int
    cost: Decimal


@dataclass(frozen=True)
class UsageTotal:
    requests: int
    prompt_tokens: int
    completion_tokens: int
    cost: Decimal


@dataclass(frozen=True)
class UsageSummary:
    rows: list[UsageRow]
    total: UsageTotal


def _sort_key(group_by: tuple[str, ...]) -> Callable[[UsageRow], tuple[Any, ...]]:
    # Each group's value, a missing one (no key, no persona) after every present one.
    def key(row: UsageRow) -> tuple[Any, ...]:
        parts: list[Any] = []
        for group in group_by:
            value = row[group]  # type: ignore[literal-required]
            parts += [value is None, "" if value is None else value]
        return tuple(parts)

    return key


def usage_summary(user: User, query: UsageQuery) -> UsageSummary:
    """The user's usage (and only theirs) summed per group of ``query``, sorted by the groups
    in their order, and its total. One query, on the UsageDay rows: one row per day, key, model
    and persona, so a year of a busy user is a few thousand rows, never its records.

    A ``key`` prefix that is not one of the user's keys matches nothing: another user's
    prefix gives an empty answer, never their usage.
    """
    days = UsageDay.objects.filter(user=user)
    if query.start is not None:
        days = days.filter(day__gte=query.start)
    if query.end is not None:
        days = days.filter(day__lte=query.end)
    if query.model is not None:
        days = days.filter(model_id=query.model)
    if query.key is not None:
        own = ApiKey.objects.filter(user=user, prefix=query.key).values("pk")
        days = days.filter(api_key_ref__in=Subquery(own))
    columns = [_GROUP_COLUMNS[group] for group in query.group_by]
    grouped = days.values(*columns).annotate(
        n=Sum("requests"),
        prompt=Sum("prompt_tokens"),
        completion=Sum("completion_tokens"),
        total=Sum("cost"),
    )
    if "key" in query.group_by:
        key_row = ApiKey.objects.filter(user=user, pk=OuterRef("api_key_ref"))
        grouped = grouped.annotate(
            key_prefix=Subquery(key_row.values("prefix")[:1]),
            key_label=Subquery(key_row.values("name")[:1]),
        )
    rows = []
    for values in grouped.order_by():
        key_ref = values.get("api_key_ref", 0)
        persona_ref = values.get("persona_ref", 0)
        rows.append(
            UsageRow(
                day=values.get("day"),
                model=values.get("model_id"),
                key=values.get("key_prefix"),
                key_ref=key_ref,
                key_name=values.get("key_label"),
                persona=persona_ref or None,
                requests=values["n"] or 0,
                prompt_tokens=values["prompt"] or 0,
                completion_tokens=values["completion"] or 0,
                cost=_money(values["total"]),
            )
        )
    rows.sort(key=_sort_key(query.group_by))
    total = UsageTotal(
        requests=sum(row["requests"] for row in rows),
        prompt_tokens=sum(row["prompt_tokens"] for row in rows),
        completion_tokens=sum(row["completion_tokens"] for row in rows),
        cost=sum((row["cost"] for row in rows), ZERO),
    )
    return UsageSummary(rows=rows, total=total)


# --- Spend against limits (GET /v1/key, the key page, the admin) ---


def window_spend(days: QuerySet[UsageDay], since: date) -> Decimal:
    """What ``days`` (one key's or one user's) hold from ``since`` on: the sum the ORM path of
    a spend-limit check enforces, summed as :func:`_spend_summary` sums what it shows."""
    return _money(days.filter(day__gte=since).aggregate(total=Sum("cost"))["total"])


def _spend_summary(days: QuerySet[UsageDay], *, limit: Decimal | None, reset: str) -> SpendSummary:
    """Spend summed over ``days`` since each window's start, in one query."""
    today = windows.today()
    window_from = windows.window_start(reset, today)
    sums = days.aggregate(
        usage=Sum("cost"),
        daily=Sum("cost", filter=Q(day__gte=today)),
        weekly=Sum("cost", filter=Q(day__gte=windows.window_start(LimitReset.WEEKLY, today))),
        monthly=Sum("cost", filter=Q(day__gte=windows.window_start(LimitReset.MONTHLY, today))),
        window=Sum("cost", filter=Q(day__gte=window_from)),
    )
    window = _money(sums["window"])
    resets = windows.next_window_start(reset, today) if limit is not None else None
    return SpendSummary(
        usage=_money(sums["usage"]),
        usage_daily=_money(sums["daily"]),
        usage_weekly=_money(sums["weekly"]),
        usage_monthly=_money(sums["monthly"]),
        window=window,
        limit_remaining=None if limit is None else max(to_money(limit - window), ZERO),
        resets_at=windows.midnight(resets) if resets is not None else None,
    )


def key_spend(key: ApiKey) -> SpendSummary:
    """What the key has spent: since creation, today, this week and month (UTC), and in its
    limit's window with what remains of the limit. One query."""
    return _spend_summary(
        UsageDay.objects.filter(api_key_ref=key.pk), limit=key.limit, reset=key.limit_reset
    )


def user_spend(user: User) -> SpendSummary:
    """:func:`key_spend` for the user over all of their keys and the playground."""
    return _spend_summary(
        UsageDay.objects.filter(user=user), limit=user.limit, reset=user.limit_reset
    )


def usage_records_for_export(user: User, query: UsageQuery | None = None) -> QuerySet[UsageRecord]:
    """Every usage record of the user in ``query``'s days, key and model (all by default),
    oldest first, with its key and persona joined. The days are bounds on ``created_at``, so
    the (user, created) index serves them."""
    records = UsageRecord.objects.filter(user=user)
    if query is not None:
        if query.start is not None:
            records = records.filter(created_at__gte=windows.midnight(query.start))
        if query.end is not None:
            records = records.filter(created_at__lt=windows.midnight(query.end + timedelta(days=1)))
        if query.key is not None:
            records = records.filter(api_key__prefix=query.key, api_key__user=user)
        if query.model is not None:
            records = records.filter(model_id=query.model)
    return records.select_related("api_key", "persona").order_by("created_at", "id")


# --- Activity log (dashboard) ---

# The status filter: "ok" (below 400), "error" (400 and above), or one status code.
ACTIVITY_OK = "ok"
ACTIVITY_ERROR = "error"
# The key filter's value for the playground's requests (which have no key).
ACTIVITY_PLAYGROUND = "playground"


@dataclass(frozen=True)
class ActivityFilter:
    """Which of a user's activity records to list; None (or "") means any."""

    key: int | str | None = None  # a key id, or ACTIVITY_PLAYGROUND
    model: str | None = None  # as requested or as answered
    status: str | None = None  # ACTIVITY_OK, ACTIVITY_ERROR or a status code such as "429"


def activity_for(user: User, chosen: ActivityFilter | None = None) -> QuerySet[ActivityRecord]:
    """The user's activity records (and only theirs), newest first, with their key and
    persona joined (one query per page). Another user's key id matches nothing: the user's
    own rows are the only ones filtered. Served by the (user, created) index."""
    records = ActivityRecord.objects.filter(user=user)
    chosen = chosen or ActivityFilter()
    if chosen.key == ACTIVITY_PLAYGROUND:
        records = records.filter(endpoint=ActivityRecord.Endpoint.PLAYGROUND)
    elif isinstance(chosen.key, int):
        records = records.filter(api_key_id=chosen.key)
    if chosen.model:
        records = records.filter(Q(model_requested=chosen.model) | Q(model_answered=chosen.model))
    if chosen.status == ACTIVITY_OK:
        records = records.filter(status__lt=400)
    elif chosen.status == ACTIVITY_ERROR:
        records = records.filter(status__gte=400)
    elif chosen.status:
        records = records.filter(status=int(chosen.status))
    return records.select_related("api_key", "persona").order_by("-created_at", "-id")
