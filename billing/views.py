"""Dashboard usage page: balance, ledger, spend per day (an SVG drawn here), per model and per
key, and a CSV export of the usage records; and the balance on the home page. Reads only, all
through billing.selectors."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import UTC
from decimal import Decimal
from typing import cast

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.models import User
from billing.models import UsageRecord
from billing.money import ZERO
from billing.selectors import (
    DailySpend,
    daily_spend,
    get_balance,
    ledger_for,
    spend_by_key,
    spend_by_model,
    usage_records_for_export,
    usage_summary,
)
from billing.serializers import UsageQuerySerializer

LEDGER_PAGE_SIZE = 20

# The chart's geometry, in SVG user units (the viewBox scales it to the page width).
CHART_WIDTH = 600
CHART_HEIGHT = 180
CHART_TOP = 10
CHART_BOTTOM = 20  # room for the day labels
CHART_GAP = 4

CSV_COLUMNS = [
    "created_at",
    "model",
    "api_key_prefix",
    "api_key_name",
    "persona_id",
    "persona",
    "conversation_id",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "cost_usd",
]
# A cell starting with one of these is a formula in spreadsheet programs (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    day: str
    cost: Decimal
    requests: int
    label: str  # the day under the bar, on every seventh bar only


def balance_section(*, user: User) -> dict[str, object]:
    """The balance on the dashboard's home page (``accounts.views.home``)."""
    return {"balance": get_balance(user)}


def _user(request: HttpRequest) -> User:
    # Only called behind @login_required.
    return cast(User, request.user)


def _bars(days: list[DailySpend]) -> list[Bar]:
    """The bars of the spend chart, highest day full height; a day without spend gets none."""
    top = max((day.cost for day in days), default=ZERO)
    plot_height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
    slot = CHART_WIDTH / max(1, len(days))
    bars = []
    for index, day in enumerate(days):
        height = float(day.cost / top) * plot_height if top > 0 else 0.0
        if day.cost > 0:
            height = max(height, 1.0)  # a tiny spend still shows
        bars.append(
            Bar(
                x=round(index * slot + CHART_GAP / 2, 2),
                y=round(CHART_TOP + plot_height - height, 2),
                width=round(slot - CHART_GAP, 2),
                height=round(height, 2),
                day=day.day.isoformat(),
                cost=day.cost,
                requests=day.requests,
                label=day.day.strftime("%b %d") if index % 7 == 0 else "",
            )
        )
    return bars


@login_required
@require_GET
def usage(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    days = daily_spend(user)
    ledger = Paginator(ledger_for(user), LEDGER_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "billing/usage.html",
        {
            "balance": get_balance(user),
            "ledger": ledger,
            "bars": _bars(days),
            "chart_width": CHART_WIDTH,
            "chart_height": CHART_HEIGHT,
            "chart_baseline": CHART_HEIGHT - CHART_BOTTOM,
            "chart_label_y": CHART_HEIGHT - 5,
            "spend_30_days": sum((day.cost for day in days), ZERO),
            "requests_30_days": sum(day.requests for day in days),
            "by_model": spend_by_model(user),
            "by_key": spend_by_key(user),
        },
    )


def _cell(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def _csv_row(record: UsageRecord) -> list[str | int]:
    key = record.api_key
    return [
        record.created_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        _cell(record.model_id),
        key.prefix if key is not None else "",
        _cell(key.name) if key is not None else "",
        record.persona_id or "",
        _cell(record.persona.name) if record.persona is not None else "",
        f"conv_{record.conversation_id}" if record.conversation_id else "",
        record.prompt_tokens,
        record.completion_tokens,
        record.total_tokens,
        str(record.cost),
    ]


def _summary_csv(response: HttpResponse, user: User, serializer: UsageQuerySerializer) -> None:
    """The usage API's answer as CSV: one line per group, then the total."""
    query = serializer.query()
    summary = usage_summary(user, query)
    writer = csv.writer(response)
    writer.writerow([*query.group_by, "requests", "prompt_tokens", "completion_tokens", "cost_usd"])
    for row in summary.rows:
        groups = [row[group] for group in query.group_by]  # type: ignore[literal-required]
        writer.writerow(
            [
                *("" if value is None else _cell(str(value)) for value in groups),
                row["requests"],
                row["prompt_tokens"],
                row["completion_tokens"],
                f"{row['cost']:f}",
            ]
        )
    total = summary.total
    writer.writerow(
        [
            "total",
            *[""] * (len(query.group_by) - 1),
            total.requests,
            total.prompt_tokens,
            total.completion_tokens,
            f"{total.cost:f}",
        ]
    )


@login_required
@require_GET
def usage_export(request: HttpRequest) -> HttpResponse:
    """The user's usage (and only theirs) as CSV.

    Without parameters: every usage record, oldest first. With the usage API's parameters
    (``from``, ``to``, ``key``, ``model``, checked by the same serializer): the records of those
    days, key and model; and with ``group_by``, the API's summary rows instead of records.
    """
    serializer = None
    if request.GET:
        serializer = UsageQuerySerializer(data=request.GET)
        if not serializer.is_valid():
            field, errors = next(iter(serializer.errors.items()))
            return HttpResponseBadRequest(
                f"{field}: {errors[0]}", content_type="text/plain; charset=utf-8"
            )
    # Built whole rather than streamed: daphne would buffer a sync stream in memory anyway.
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="nova-usage.csv"'
    if serializer is not None and "group_by" in request.GET:
        _summary_csv(response, _user(request), serializer)
        return response
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    query = serializer.query() if serializer is not None else None
    for record in usage_records_for_export(_user(request), query).iterator(chunk_size=2000):
        writer.writerow(_csv_row(record))
    return response
