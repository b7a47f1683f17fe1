"""Dashboard usage page: balance, ledger, spend per day (an SVG drawn here), per model and per
key, and a CSV export of the usage records; the activity log (one line per API request); and
the balance on the home page. Reads only, all through billing.selectors."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from datetime import UTC, date, timedelta
from decimal import Decimal
from typing import cast

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from accounts.models import ApiKey, User
from billing import windows
from billing.api import usage_row_body
from billing.models import ActivityRecord, UsageRecord
from billing.money import ZERO, money_string
from billing.selectors import (
    ACTIVITY_ERROR,
    ACTIVITY_OK,
    ACTIVITY_PLAYGROUND,
    USAGE_CHART_DAYS,
    ActivityFilter,
    DailySpend,
    activity_for,
    daily_spend,
    get_balance,
    ledger_for,
    spend_by_key,
    spend_by_model,
    usage_records_for_export,
    usage_summary,
)
from billing.serializers import UsageQuerySerializer
from conversations.views import page_number
from core.ids import parse_id
from llm.catalog import get_catalog

# At or below this balance the home and usage pages say how to get credit.
LOW_BALANCE = Decimal("1.00")


def credits_contact() -> str:
    """Who to ask for credit (the ``CREDITS_CONTACT`` setting)."""
    return str(settings.CREDITS_CONTACT)


LEDGER_PAGE_SIZE = 20

# The chart's geometry, in SVG user units (the viewBox scales it to the page width). Room on the
# left for the spend axis's values and below for the days; the plot itself is 150 units high.
CHART_WIDTH = 600
CHART_HEIGHT = 200
CHART_TOP = 14
CHART_BOTTOM = 36
CHART_LEFT = 100
CHART_RIGHT = 28
CHART_GAP = 4
CHART_MAX_DAY_LABELS = 5  # few enough to stay readable on a 390 px phone
# The date ranges offered as one click; any other from/to the usage API accepts also works.
RANGE_PRESETS = (7, 30, 90)

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
    label: str  # the day under the bar, on a few evenly spaced bars only
    label_x: float


@dataclass(frozen=True)
class Tick:
    """A value on the spend axis and its gridline's height."""

    y: float
    label: str


@dataclass(frozen=True)
class UsageRange:
    start: date
    end: date
    days: int
    preset: int | None  # the preset it matches, if any
    error: str  # why the asked range was refused ("" when it was not)


def balance_section(*, user: User) -> dict[str, object]:
    """The balance on the dashboard's home page (``accounts.views.home``), and how to get
    credit when it is low."""
    balance = get_balance(user)
    return {
        "balance": balance,
        "balance_low": balance <= LOW_BALANCE,
        "credits_contact": credits_contact(),
    }


def _user(request: HttpRequest) -> User:
    # Only called behind @login_required.
    return cast(User, request.user)


def _nice_ceiling(value: Decimal) -> Decimal:
    """The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least ``value`` (> 0)."""
    power = Decimal(1).scaleb(value.adjusted())
    for step in (1, 2, Decimal("2.5"), 5, 10):
        if power * step >= value:
            return power * step
    return power * 10  # not reached


def _axis_label(value: Decimal, top: Decimal) -> str:
    if value.is_zero():
        return "$0"
    if top >= 1:
        return f"${value:.2f}".replace(".00", "")
    # Below a dollar the steps need their own digits: $0.25, $0.005, $0.0002.
    places = max(2, -value.normalize().as_tuple().exponent)  # type: ignore[operator]
    return f"${value:.{places}f}"


def _chart(days: list[DailySpend]) -> tuple[list[Bar], list[Tick]]:
    """The bars and the spend axis of the chart. The axis runs to a round value at or above the
    most expensive day; a day without spend gets no bar."""
    highest = max((day.cost for day in days), default=ZERO)
    top = _nice_ceiling(highest) if highest > 0 else Decimal(1)
    plot_height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
    plot_width = CHART_WIDTH - CHART_LEFT - CHART_RIGHT
    baseline = CHART_TOP + plot_height
    slot = plot_width / max(1, len(days))
    every = max(1, math.ceil(len(days) / CHART_MAX_DAY_LABELS))
    bars = []
    for index, day in enumerate(days):
        height = float(day.cost / top) * plot_height
        if day.cost > 0:
            height = max(height, 1.0)  # a tiny spend still shows
        # Labelled from the last day back, so today always has its label.
        labelled = (len(days) - 1 - index) % every == 0
        bars.append(
            Bar(
                x=round(CHART_LEFT + index * slot + min(CHART_GAP, slot / 4) / 2, 2),
                y=round(baseline - height, 2),
                width=round(max(slot - min(CHART_GAP, slot / 4), 0.5), 2),
                height=round(height, 2),
                day=day.day.isoformat(),
                cost=day.cost,
                requests=day.requests,
                label=day.day.strftime("%b %-d") if labelled else "",
                label_x=round(CHART_LEFT + (index + 0.5) * slot, 2),
            )
        )
    ticks = [
        Tick(y=round(baseline - plot_height * float(share), 2), label=_axis_label(top * share, top))
        for share in (Decimal(0), Decimal("0.5"), Decimal(1))
    ]
    return bars, ticks


def usage_range(params: QueryDict) -> UsageRange:
    """The days the usage page shows: a preset (``?days=7``), or ``from``/``to`` checked by the
    usage API's serializer (same defaults and limits); anything refused falls back to the last
    30 days with the reason."""
    today = windows.today()
    preset = params.get("days")
    if preset is not None and params.get("from") is None and params.get("to") is None:
        if preset in {str(days) for days in RANGE_PRESETS}:
            days = int(preset)
            return UsageRange(today - timedelta(days=days - 1), today, days, days, "")
        return _default_range(today, f"days: choose {', '.join(map(str, RANGE_PRESETS))}.")
    serializer = UsageQuerySerializer(
        data={name: params[name] for name in ("from", "to") if params.get(name)}
    )
    if not serializer.is_valid():
        field, errors = next(iter(serializer.errors.items()))
        return _default_range(today, f"{field}: {errors[0]}")
    query = serializer.query()
    assert query.start is not None and query.end is not None  # the serializer's defaults
    days = (query.end - query.start).days + 1
    preset_days = days if query.end == today and days in RANGE_PRESETS else None
    return UsageRange(query.start, query.end, days, preset_days, "")


def _default_range(today: date, error: str) -> UsageRange:
    days = USAGE_CHART_DAYS
    return UsageRange(today - timedelta(days=days - 1), today, days, days, error)


@login_required
@require_GET
def usage(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    chosen = usage_range(request.GET)
    days = daily_spend(user, days=chosen.days, today=chosen.end)
    bars, ticks = _chart(days)
    ledger = Paginator(ledger_for(user), LEDGER_PAGE_SIZE).get_page(request.GET.get("page"))
    balance = get_balance(user)
    return render(
        request,
        "billing/usage.html",
        {
            "balance": balance,
            "balance_low": balance <= LOW_BALANCE,
            "credits_contact": credits_contact(),
            "ledger": ledger,
            "range": chosen,
            "presets": RANGE_PRESETS,
            "bars": bars,
            "ticks": ticks,
            "days": days,
            "chart_width": CHART_WIDTH,
            "chart_height": CHART_HEIGHT,
            "chart_left": CHART_LEFT,
            "chart_right": CHART_WIDTH - CHART_RIGHT,
            "chart_baseline": CHART_HEIGHT - CHART_BOTTOM,
            "chart_label_y": CHART_HEIGHT - 10,
            "range_spend": sum((day.cost for day in days), ZERO),
            "range_requests": sum(day.requests for day in days),
            "export_query": urlencode(
                {"from": chosen.start.isoformat(), "to": chosen.end.isoformat()}
            ),
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
        money_string(record.cost),
    ]


def _summary_csv(response: HttpResponse, user: User, serializer: UsageQuerySerializer) -> None:
    """The usage API's answer as CSV (its rows' fields, cost in USD): one line per group, then
    the total."""
    query = serializer.query()
    summary = usage_summary(user, query)
    groups = [*query.group_by]
    if "key" in groups:
        groups.insert(groups.index("key") + 1, "key_source")
    writer = csv.writer(response)
    writer.writerow([*groups, "requests", "prompt_tokens", "completion_tokens", "cost_usd"])
    for row in summary.rows:
        writer.writerow(
            [
                "" if value is None else _cell(str(value)) if isinstance(value, str) else value
                for value in usage_row_body(row, query.group_by).values()
            ]
        )
    total = summary.total
    writer.writerow(
        [
            "total",
            *[""] * (len(groups) - 1),
            total.requests,
            total.prompt_tokens,
            total.completion_tokens,
            money_string(total.cost),
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


# --- Activity log ---

ACTIVITY_PAGE_SIZE = 50
# The status filter's choices: every status the chat and moderation endpoints answer with a key.
ACTIVITY_STATUSES = (
    (ACTIVITY_OK, "Succeeded"),
    (ACTIVITY_ERROR, "Failed"),
    ("400", "400 Bad request"),
    ("402", "402 No credit or limit reached"),
    ("404", "404 Not found"),
    ("429", "429 Rate limited"),
    ("499", "499 Client closed the connection"),
    ("500", "500 Server error"),
    ("502", "502 Provider failed"),
    ("503", "503 Unavailable"),
    ("504", "504 Provider timed out"),
)


def _activity_filter(params: QueryDict) -> ActivityFilter:
    """The filters as asked, leniently (like History's page number): a value that means
    nothing is no filter; another user's key id is one that matches nothing."""
    key = params.get("key", "")
    status = params.get("status", "")
    model = params.get("model", "").strip()[:100]
    return ActivityFilter(
        key=ACTIVITY_PLAYGROUND if key == ACTIVITY_PLAYGROUND else parse_id(key),
        model=model or None,
        status=status
        if status in (ACTIVITY_OK, ACTIVITY_ERROR)
        or (status.isascii() and status.isdigit() and 100 <= int(status[:4]) <= 599)
        else None,
    )


def _activity_query(chosen: ActivityFilter, **extra: str) -> str:
    values = {
        "key": "" if chosen.key is None else str(chosen.key),
        "model": chosen.model or "",
        "status": chosen.status or "",
        **extra,
    }
    return urlencode({name: value for name, value in values.items() if value})


def activity_key_label(record: ActivityRecord) -> str:
    """Who made the request: the key's name and prefix, "Playground", or "deleted key"."""
    key = record.api_key
    if key is not None:
        return f"{key.name or 'unnamed'} ({key.prefix}…)"
    if record.endpoint == ActivityRecord.Endpoint.PLAYGROUND:
        return "Playground"
    return "deleted key"


@login_required
@require_GET
def activity(request: HttpRequest) -> HttpResponse:
    """The activity log: one line per API request of the user's keys (and the playground's),
    failures included, newest first, filtered by key, model and status, 50 a page."""
    user = _user(request)
    chosen = _activity_filter(request.GET)
    paginator = Paginator(activity_for(user, chosen), ACTIVITY_PAGE_SIZE)
    number = page_number(request.GET.get("page"))
    if number > paginator.num_pages:
        # Past the end (an old link, a hand-typed number): the last page that exists.
        last = {"page": str(paginator.num_pages)} if paginator.num_pages > 1 else {}
        query = _activity_query(chosen, **last)
        return redirect(f"{reverse('billing:activity')}{'?' + query if query else ''}")
    page = paginator.page(number)
    for record in page.object_list:
        record.key_label = activity_key_label(record)  # type: ignore[attr-defined]
    keys = (
        ApiKey.objects.filter(user=user)
        .order_by("-created_at")
        .only("pk", "name", "prefix", "revoked_at", "created_at")
    )
    return render(
        request,
        "billing/activity.html",
        {
            "page": page,
            "chosen": chosen,
            "key_value": "" if chosen.key is None else str(chosen.key),
            "keys": keys,
            "statuses": ACTIVITY_STATUSES,
            # A status code asked for in the address that the list does not offer.
            "other_status": chosen.status
            if chosen.status not in {value for value, _ in ACTIVITY_STATUSES}
            else None,
            "models": get_catalog().ids(),
            "filtered": chosen != ActivityFilter(),
            "page_query": _activity_query(chosen),
        },
    )
