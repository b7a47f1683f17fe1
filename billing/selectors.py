from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from billing.models import Balance, LedgerEntry, UsageRecord
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
    included as zero. One query."""
    last = today or timezone.localdate()
    first = last - timedelta(days=days - 1)
    start = datetime.combine(first, time.min, tzinfo=timezone.get_current_timezone())
    rows = (
        UsageRecord.objects.filter(user=user, created_at__gte=start)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(total=Sum("cost"), requests=Count("id"))
        .order_by("day")
    )
    by_day = {row["day"]: (_money(row["total"]), row["requests"]) for row in rows}
    spend = []
    for offset in range(days):
        day = first + timedelta(days=offset)
        cost, requests = by_day.get(day, (ZERO, 0))
        spend.append(DailySpend(day=day, cost=cost, requests=requests))
    return spend


def _spend_by(
    user: User, group: tuple[str, ...], label: Callable[[Mapping[str, Any]], str]
) -> list[SpendRow]:
    """The user's all-time spend per distinct ``group`` of usage-record fields, most expensive
    first (ties by the group's first field). One query."""
    rows = (
        UsageRecord.objects.filter(user=user)
        .values(*group)
        .annotate(
            requests=Count("id"),
            prompt=Sum("prompt_tokens"),
            completion=Sum("completion_tokens"),
            total=Sum("cost"),
        )
        .order_by("-total", group[0])
    )
    return [
        SpendRow(
            label=label(row),
            requests=row["requests"],
            prompt_tokens=row["prompt"] or 0,
            completion_tokens=row["completion"] or 0,
            cost=_money(row["total"]),
        )
        for row in rows
    ]


def spend_by_model(user: User) -> list[SpendRow]:
    """All-time spend per model, most expensive first. One query."""
    return _spend_by(user, ("model_id",), lambda row: row["model_id"])


def _key_label(row: Mapping[str, Any]) -> str:
    if row["api_key_id"] is None:
        return "deleted key"
    return f"{row['api_key__prefix']}… {row['api_key__name'] or 'unnamed'}".strip()


def spend_by_key(user: User) -> list[SpendRow]:
    """All-time spend per API key (a deleted key's usage under "deleted key"), most
    expensive first. One query: the key's name and prefix come from the join."""
    return _spend_by(user, ("api_key_id", "api_key__name", "api_key__prefix"), _key_label)


def usage_records_for_export(user: User) -> QuerySet[UsageRecord]:
    """Every usage record of the user, oldest first, with its key and persona joined."""
    return (
        UsageRecord.objects.filter(user=user)
        .select_related("api_key", "persona")
        .order_by("created_at", "id")
    )
