from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path, reverse

from accounts.models import User
from billing.models import ActivityRecord, Balance, LedgerEntry, UsageRecord
from billing.money import MAX_AMOUNT, QUANTUM, parse_amount
from billing.services import top_up
from core.admin import ReadOnlyAdminMixin
from core.errors import ApiError

# Django's admin classes take type arguments in django-stubs only, not at run time.
if TYPE_CHECKING:
    _ModelAdmin = admin.ModelAdmin[Any]
else:
    _ModelAdmin = admin.ModelAdmin


class TopUpForm(forms.Form):
    # Exact, as every amount a person types (docs/billing.md, "Ranges"): more than 8 decimal
    # places or beyond the columns' range is a form error. Positivity and the balance's range
    # are checked by the top_up service.
    amount = forms.CharField(
        max_length=50,
        widget=forms.NumberInput(attrs={"step": f"{QUANTUM:f}", "min": f"{QUANTUM:f}"}),
        help_text=f"USD, at most {MAX_AMOUNT:f}, in steps of {QUANTUM:f}.",
    )
    note = forms.CharField(max_length=200, required=False)

    def clean_amount(self) -> Decimal:
        try:
            return parse_amount(self.cleaned_data["amount"])
        except ApiError as exc:
            raise forms.ValidationError(exc.message) from None


class _ReadOnly(ReadOnlyAdminMixin, _ModelAdmin):
    """The ledger, usage and balances are records: top-ups go through the form below."""


@admin.register(Balance)
class BalanceAdmin(_ReadOnly):
    list_display = ("user", "amount", "updated_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    readonly_fields = ("user", "amount", "updated_at")

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:pk>/top-up/",
                self.admin_site.admin_view(self.top_up_view),
                name="billing_balance_topup",
            ),
            *super().get_urls(),
        ]

    def top_up_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Top-ups go through the top_up service, never by editing the balance."""
        if not request.user.has_perm("billing.view_balance"):
            return HttpResponseRedirect(reverse("admin:index"))
        balance = get_object_or_404(Balance.objects.select_related("user"), pk=pk)
        form = TopUpForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                top_up(
                    user=balance.user,
                    amount=form.cleaned_data["amount"],
                    note=form.cleaned_data["note"] or "admin top-up",
                    created_by=request.user if isinstance(request.user, User) else None,
                )
            except ApiError as exc:
                form.add_error("amount", exc.message)
            else:
                messages.success(request, f"Topped up {balance.user}.")
                return HttpResponseRedirect(reverse("admin:billing_balance_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "balance": balance,
            "title": f"Top up {balance.user}",
            "opts": self.model._meta,
        }
        return render(request, "admin/billing/top_up.html", context)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra = {
            **(extra_context or {}),
            "top_up_url": reverse("admin:billing_balance_topup", args=[object_id]),
        }
        return super().change_view(request, object_id, form_url, extra)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(_ReadOnly):
    list_display = ("created_at", "user", "kind", "amount", "balance_after", "note")
    list_filter = ("kind", "created_at")
    search_fields = ("user__username", "note")
    list_select_related = ("user",)
    date_hierarchy = "created_at"


@admin.register(UsageRecord)
class UsageRecordAdmin(_ReadOnly):
    list_display = (
        "created_at",
        "user",
        "model_id",
        "persona",
        "prompt_tokens",
        "completion_tokens",
        "cost",
    )
    list_filter = (("user", admin.RelatedOnlyFieldListFilter), "model_id", "created_at")
    search_fields = ("user__username", "model_id")
    list_select_related = ("user", "persona")
    date_hierarchy = "created_at"


@admin.register(ActivityRecord)
class ActivityRecordAdmin(_ReadOnly):
    list_display = (
        "created_at",
        "user",
        "api_key",
        "endpoint",
        "model_requested",
        "model_answered",
        "status",
        "error_type",
        "latency_ms",
        "prompt_tokens",
        "completion_tokens",
        "cost",
        "request_id",
    )
    # The status's values are few; a user's or a key's rows are reached from the search.
    list_filter = ("endpoint", "status", "stream", "created_at")
    search_fields = ("user__username", "request_id", "model_requested", "api_key__prefix")
    list_select_related = ("user", "api_key")
    raw_id_fields = ("user", "api_key", "persona")
    date_hierarchy = "created_at"
