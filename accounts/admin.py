from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.models import ApiKey, User
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
    _ApiKeyForm = forms.ModelForm[ApiKey]
    _ApiKeyAdmin = admin.ModelAdmin[ApiKey]
else:
    _UserAdmin = UserAdmin
    _ApiKeyForm = forms.ModelForm
    _ApiKeyAdmin = admin.ModelAdmin


@admin.register(User)
class NovaUserAdmin(_UserAdmin):
    list_display = ("username", "email", "is_staff", "is_active", "date_joined")


class ApiKeyAdminForm(_ApiKeyForm):
    """The caps of ``accounts.services`` as form errors (the admin saves edits itself)."""

    class Meta:
        model = ApiKey
        fields = ("user", "name", "detailed_logging", "rpm_limit")

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
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    list_filter = ("detailed_logging", "revoked_at")
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
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    readonly_fields = ("prefix", "created_at", "last_used_at", "revoked_at")
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
        )
        obj.pk = issued.key.pk
        obj.prefix = issued.key.prefix
        messages.warning(
            request, f"New key (copy it now, it will not be shown again): {issued.raw_key}"
        )

    @admin.action(description="Revoke selected keys")
    def revoke_keys(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        for key in queryset:
            revoke_api_key(key=key)
        self.message_user(request, f"Revoked {queryset.count()} key(s).")
