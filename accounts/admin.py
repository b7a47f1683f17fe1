from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.limits import (
    SpendSummary,
    key_spend,
    user_spend,
    validate_limit,
)
from accounts.models import ApiKey, Guard, LimitReset, User
from accounts.services import (
    check_key_quota,
    create_api_key,
    revoke_api_key,
    validate_rpm_limit,
)
from core.errors import ApiError

# Django's admin and form classes take type arguments in django-stubs only, not at run time.
if TYPE_CHECKING:
    _UserAdmin = UserAdmin[User]
    _UserChangeForm = UserChangeForm[User]
    _ApiKeyForm = forms.ModelForm[ApiKey]
    _ApiKeyAdmin = admin.ModelAdmin[ApiKey]
else:
    _UserAdmin = UserAdmin
    _UserChangeForm = UserChangeForm
    _ApiKeyForm = forms.ModelForm
    _ApiKeyAdmin = admin.ModelAdmin


def _limit_error(exc: ApiError) -> ValidationError:
    return ValidationError(exc.message)


def _window_spend(spend: SpendSummary, limit: Decimal | None) -> str:
    """The current window's spend, and what remains of the limit, for the change form."""
    if limit is None:
        return f"{spend.window:f} USD (all time; no limit)"
    resets = f", resets {spend.resets_at:%Y-%m-%d %H:%M} UTC" if spend.resets_at else ""
    return f"{spend.window:f} USD of {limit:f} ({spend.limit_remaining:f} remaining{resets})"


class _LimitFormMixin:
    """The limit checked by ``accounts.limits``; a form posted without a reset period (one
    written before limits existed) keeps "never"."""

    fields: dict[str, forms.Field]
    cleaned_data: dict[str, Any]

    def _relax_limit_reset(self) -> None:
        self.fields["limit_reset"].required = False

    def clean_limit(self) -> Decimal | None:
        try:
            return validate_limit(self.cleaned_data.get("limit"))
        except ApiError as exc:
            raise _limit_error(exc) from exc

    def clean_limit_reset(self) -> str:
        return str(self.cleaned_data.get("limit_reset") or LimitReset.NEVER)


class NovaUserAdminForm(_LimitFormMixin, _UserChangeForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._relax_limit_reset()


@admin.register(User)
class NovaUserAdmin(_UserAdmin):
    form = NovaUserAdminForm
    list_display = ("username", "email", "is_staff", "is_active", "limit", "date_joined")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (
            "Spend limit (over all of the user's keys and the playground)",
            {"fields": ("limit", "limit_reset", "window_spend")},
        ),
    )
    readonly_fields = ("window_spend",)

    @admin.display(description="Spend in the current window")
    def window_spend(self, obj: User) -> str:
        if obj.pk is None:
            return "-"
        return _window_spend(user_spend(obj), obj.limit)


class ApiKeyAdminForm(_LimitFormMixin, _ApiKeyForm):
    """The caps of ``accounts.services`` as form errors (the admin saves edits itself)."""

    class Meta:
        model = ApiKey
        fields = (
            "user",
            "name",
            "detailed_logging",
            "rpm_limit",
            "guard",
            "limit",
            "limit_reset",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._relax_limit_reset()
        self.fields["guard"].required = False

    def clean_guard(self) -> str:
        # A form posted without the field (one written before the guard existed) keeps the
        # key's setting.
        return str(self.cleaned_data.get("guard") or self.instance.guard or Guard.OFF)

    def clean_rpm_limit(self) -> int:
        try:
            return validate_rpm_limit(self.cleaned_data["rpm_limit"])
        except ApiError as exc:
            raise ValidationError(exc.message) from exc

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        user = cleaned.get("user")
        # A new key, or an active one moved to another user, counts against that user's cap.
        gains_a_key = self.instance.pk is None or (
            self.instance.revoked_at is None and self.instance.user_id != getattr(user, "pk", None)
        )
        if user is not None and gains_a_key:
            try:
                check_key_quota(user)
            except ApiError as exc:
                raise ValidationError(exc.message) from exc
        return cleaned


@admin.register(ApiKey)
class ApiKeyAdmin(_ApiKeyAdmin):
    form = ApiKeyAdminForm
    list_display = (
        "prefix",
        "name",
        "user",
        "detailed_logging",
        "rpm_limit",
        "guard",
        "limit",
        "limit_reset",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    list_filter = ("detailed_logging", "guard", "revoked_at")
    search_fields = ("prefix", "name", "user__username")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    # The digest is never useful to an operator and the raw key is never stored.
    fields = (
        "user",
        "name",
        "prefix",
        "detailed_logging",
        "rpm_limit",
        "guard",
        "limit",
        "limit_reset",
        "window_spend",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    readonly_fields = ("prefix", "window_spend", "created_at", "last_used_at", "revoked_at")
    actions = ("revoke_keys",)

    def save_model(self, request: HttpRequest, obj: ApiKey, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        issued = create_api_key(
            user=obj.user,
            name=obj.name,
            detailed_logging=obj.detailed_logging,
            rpm_limit=obj.rpm_limit,
            limit=obj.limit,
            limit_reset=obj.limit_reset,
            guard=obj.guard,
        )
        obj.pk = issued.key.pk
        obj.prefix = issued.key.prefix
        messages.warning(
            request, f"New key (copy it now, it will not be shown again): {issued.raw_key}"
        )

    @admin.display(description="Spend in the current window")
    def window_spend(self, obj: ApiKey) -> str:
        if obj.pk is None:
            return "-"
        return _window_spend(key_spend(obj), obj.limit)

    @admin.action(description="Revoke selected keys")
    def revoke_keys(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        for key in queryset:
            revoke_api_key(key=key)
        self.message_user(request, f"Revoked {queryset.count()} key(s).")
