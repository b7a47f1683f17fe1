"""The billing API's input and output (docs/billing.md, "The key endpoint" and "The usage
API"). Money is a decimal string with 8 places."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from rest_framework import serializers

from accounts.models import LimitReset
from billing import windows
from billing.money import money_string
from billing.selectors import GROUPS, UsageQuery

DEFAULT_USAGE_DAYS = 30
MAX_USAGE_DAYS = 366


def optional_money(amount: Decimal | None) -> str | None:
    """``billing.money.money_string``, with None (no limit) kept as None."""
    return None if amount is None else money_string(amount)


class RateLimitSerializer(serializers.Serializer[dict[str, Any]]):
    requests = serializers.IntegerField()
    interval = serializers.CharField()


class KeyInfoSerializer(serializers.Serializer[dict[str, Any]]):
    """The calling key, its limit and spend: ``GET /v1/key``'s ``data``."""

    label = serializers.CharField(help_text="The key's name.")  # type: ignore[assignment]
    prefix = serializers.CharField(help_text="The key's display prefix.")
    limit = serializers.CharField(allow_null=True, help_text="USD per window; null: no limit.")
    limit_reset = serializers.ChoiceField(
        choices=["daily", "weekly", "monthly"],
        allow_null=True,
        help_text="When the limit's window starts again (00:00 UTC); null: never.",
    )
    limit_remaining = serializers.CharField(
        allow_null=True, help_text="The limit less this window's spend, never below 0."
    )
    usage = serializers.CharField(help_text="USD spent with this key since it was created.")
    usage_daily = serializers.CharField(help_text="USD spent since 00:00 UTC today.")
    usage_weekly = serializers.CharField(help_text="USD spent since Monday 00:00 UTC.")
    usage_monthly = serializers.CharField(help_text="USD spent since the 1st, 00:00 UTC.")
    detailed_logging = serializers.BooleanField()
    rate_limit = RateLimitSerializer()
    balance = serializers.CharField(help_text="The user's balance, shared by all of their keys.")


class KeyResponseSerializer(serializers.Serializer[dict[str, Any]]):
    data = KeyInfoSerializer()  # type: ignore[assignment]  # the field, not .data


class UsageQuerySerializer(serializers.Serializer[dict[str, Any]]):
    """``GET /v1/usage``'s query. ``from`` is a Python keyword, hence ``get_fields``."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "from": serializers.DateField(
                required=False,
                input_formats=["iso-8601"],
                help_text="First UTC day, inclusive (default: 29 days before `to`).",
            ),
            "to": serializers.DateField(
                required=False,
                input_formats=["iso-8601"],
                help_text="Last UTC day, inclusive (default: today).",
            ),
            "group_by": serializers.CharField(
                required=False,
                default="day",
                help_text="Comma-separated: day, model, key, persona (default day).",
            ),
            "key": serializers.CharField(
                required=False, max_length=64, help_text="Only this key's usage (its prefix)."
            ),
            "model": serializers.CharField(
                required=False, max_length=100, help_text="Only this model's usage."
            ),
        }

    def validate_group_by(self, value: str) -> tuple[str, ...]:
        groups = tuple(part.strip() for part in value.split(","))
        for group in groups:
            if group not in GROUPS:
                raise serializers.ValidationError(
                    f"'{group[:40]}' is not a group: use a comma list of {', '.join(GROUPS)}."
                )
        if len(set(groups)) != len(groups):
            raise serializers.ValidationError("Each group may appear once.")
        return groups

    def _no_nul(self, value: str) -> str:
        # PostgreSQL refuses NUL in a query parameter; answer 400 rather than 500.
        if "\x00" in value:
            raise serializers.ValidationError("Must not contain NUL characters.")
        return value

    def validate_key(self, value: str) -> str:
        return self._no_nul(value)

    def validate_model(self, value: str) -> str:
        return self._no_nul(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        end: date = attrs.get("to") or windows.today()
        start: date = attrs.get("from") or end - timedelta(days=DEFAULT_USAGE_DAYS - 1)
        if start > end:
            raise serializers.ValidationError({"from": "Must not be after `to`."})
        if (end - start).days + 1 > MAX_USAGE_DAYS:
            raise serializers.ValidationError(
                {"from": f"The range from `from` to `to` is at most {MAX_USAGE_DAYS} days."}
            )
        attrs["from"], attrs["to"] = start, end
        return attrs

    def query(self) -> UsageQuery:
        data = self.validated_data
        return UsageQuery(
            start=data["from"],
            end=data["to"],
            group_by=data["group_by"],
            key=data.get("key"),
            model=data.get("model"),
        )


class UsageRowSerializer(serializers.Serializer[dict[str, Any]]):
    day = serializers.DateField(required=False, help_text="With group_by=day.")
    model = serializers.CharField(required=False, help_text="With group_by=model.")
    key = serializers.CharField(
        required=False, allow_null=True, help_text="With group_by=key: the key's prefix."
    )
    key_source = serializers.ChoiceField(
        choices=["key", "deleted_key", "playground"],
        required=False,
        help_text=(
            "With group_by=key: whose usage the row is: one of the caller's keys (`key` names "
            "it), a key since deleted, or the dashboard's playground (no key)."
        ),
    )
    persona = serializers.IntegerField(
        required=False, allow_null=True, help_text="With group_by=persona: the persona's id."
    )
    requests = serializers.IntegerField()
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    cost = serializers.CharField()


class UsageTotalSerializer(serializers.Serializer[dict[str, Any]]):
    requests = serializers.IntegerField()
    prompt_tokens = serializers.IntegerField()
    completion_tokens = serializers.IntegerField()
    cost = serializers.CharField()


class UsageResponseSerializer(serializers.Serializer[dict[str, Any]]):
    object = serializers.CharField()
    data = UsageRowSerializer(many=True)  # type: ignore[assignment]  # the field, not .data
    total = UsageTotalSerializer()


def limit_reset_for_api(limit_reset: str) -> str | None:
    return None if limit_reset == LimitReset.NEVER else limit_reset
