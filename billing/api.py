"""Billing API (docs/billing.md): the calling key's limit and spend, and the usage summary.

Routes are relative to the ``v1/`` mount (config/urls.py serves them under /v1/ and /api/v1/),
and each answers with and without a trailing slash, without redirects.
"""

from __future__ import annotations

from typing import Any, cast

from django.urls import URLPattern, URLResolver, re_path
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiKey, User
from billing.money import money_string
from billing.selectors import UsageRow, get_balance, key_source, key_spend, usage_summary
from billing.serializers import (
    KeyResponseSerializer,
    UsageQuerySerializer,
    UsageResponseSerializer,
    limit_reset_for_api,
    optional_money,
)
from core.schema import error_responses

_KEY_EXAMPLE = {
    "data": {
        "label": "laptop",
        "prefix": "sk-AbCdEfGhI",
        "limit": "5.00000000",
        "limit_reset": "daily",
        "limit_remaining": "3.75000000",
        "usage": "42.10000000",
        "usage_daily": "1.25000000",
        "usage_weekly": "6.50000000",
        "usage_monthly": "20.00000000",
        "detailed_logging": False,
        "rate_limit": {"requests": 60, "interval": "1m"},
        "balance": "57.90000000",
    }
}

_USAGE_EXAMPLE = {
    "object": "list",
    "data": [
        {
            "day": "2026-03-01",
            "model": "nova-local",
            "requests": 12,
            "prompt_tokens": 3400,
            "completion_tokens": 1200,
            "cost": "0.00058000",
        }
    ],
    "total": {
        "requests": 12,
        "prompt_tokens": 3400,
        "completion_tokens": 1200,
        "cost": "0.00058000",
    },
}


class KeyInfoView(APIView):
    """``GET /v1/key``: the calling key."""

    @extend_schema(
        summary="The calling key: its limit, spend and rate limit, and the balance",
        responses={
            200: KeyResponseSerializer,
            **error_responses(401, 429),
        },
        examples=[OpenApiExample("A key with a daily limit", value=_KEY_EXAMPLE)],
    )
    def get(self, request: Request) -> Response:
        key = cast(ApiKey, request.auth)
        spend = key_spend(key)
        data: dict[str, Any] = {
            "label": key.name,
            "prefix": key.prefix,
            "limit": optional_money(key.limit),
            "limit_reset": limit_reset_for_api(key.limit_reset),
            "limit_remaining": optional_money(spend.limit_remaining),
            "usage": money_string(spend.usage),
            "usage_daily": money_string(spend.usage_daily),
            "usage_weekly": money_string(spend.usage_weekly),
            "usage_monthly": money_string(spend.usage_monthly),
            "detailed_logging": key.detailed_logging,
            "rate_limit": {"requests": key.rpm_limit, "interval": "1m"},
            "balance": money_string(get_balance(key.user)),
        }
        return Response({"data": data})


def usage_row_body(row: UsageRow, group_by: tuple[str, ...]) -> dict[str, Any]:
    """One summary row as the usage API answers it (and the CSV export writes it): its groups
    in order (a day as an ISO date; with the key, whose usage it is), then the sums."""
    out: dict[str, Any] = {}
    for group in group_by:
        value = row[group]  # type: ignore[literal-required]
        out[group] = value.isoformat() if group == "day" else value
        if group == "key":
            out["key_source"] = key_source(row)
    out.update(
        requests=row["requests"],
        prompt_tokens=row["prompt_tokens"],
        completion_tokens=row["completion_tokens"],
        cost=money_string(row["cost"]),
    )
    return out


class UsageView(APIView):
    """``GET /v1/usage``: the caller's usage, summed per group."""

    @extend_schema(
        summary="The caller's usage per day, model, key or persona, and its total",
        parameters=[UsageQuerySerializer],
        responses={200: UsageResponseSerializer, **error_responses(400, 401, 429)},
        examples=[OpenApiExample("Per day and model", value=_USAGE_EXAMPLE)],
    )
    def get(self, request: Request) -> Response:
        query_input = UsageQuerySerializer(data=request.query_params)
        query_input.is_valid(raise_exception=True)
        query = query_input.query()
        summary = usage_summary(cast(User, request.user), query)
        rows = [usage_row_body(row, query.group_by) for row in summary.rows]
        total = summary.total
        return Response(
            {
                "object": "list",
                "data": rows,
                "total": {
                    "requests": total.requests,
                    "prompt_tokens": total.prompt_tokens,
                    "completion_tokens": total.completion_tokens,
                    "cost": money_string(total.cost),
                },
            }
        )


# "\Z", not "$", which also matches before a final newline.
api_urls: list[URLPattern | URLResolver] = [
    re_path(r"^key/?\Z", KeyInfoView.as_view()),
    re_path(r"^usage/?\Z", UsageView.as_view()),
]
