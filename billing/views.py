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
from django.http import HttpRequest, HttpResponse
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
)

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


@login_required
@require_GET
def usage_export(request: HttpRequest) -> HttpResponse:
    """Every usage record of the user (and only theirs) as CSV, oldest first."""
    # Built whole rather than streamed: daphne would buffer a sync stream in memory anyway.
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="nova-usage.csv"'
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for record in usage_records_for_export(_user(request)).iterator(chunk_size=2000):
        writer.writerow(_csv_row(record))
    return response
