"""Operators' view of moderation: recorded verdicts (read-only) and the review queue.

Decisions go through `moderation.services.review_item`, which records who decided and when:
from the list (actions "Confirm" and "Overturn" on the selected items) or from an item's page
(a decision and a note).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from accounts.models import User
from core.admin import ReadOnlyAdminMixin
from core.errors import ApiError
from moderation.engine.vocabulary import DECISION_STATE, Decision
from moderation.models import ModerationVerdict, ReviewItem
from moderation.services import review_item

# Django's admin and form classes are generic only in django-stubs: subscripting them at run
# time needs django-stubs-ext, a development dependency. The checker sees the typed bases.
if TYPE_CHECKING:
    _ReviewItemInlineBase = admin.StackedInline[ReviewItem, ModerationVerdict]
    _VerdictAdminBase = admin.ModelAdmin[ModerationVerdict]
    _ReviewItemAdminBase = admin.ModelAdmin[ReviewItem]
    _ReviewItemFormBase = forms.ModelForm[ReviewItem]
else:
    _ReviewItemInlineBase = admin.StackedInline
    _VerdictAdminBase = _ReviewItemAdminBase = admin.ModelAdmin
    _ReviewItemFormBase = forms.ModelForm


class ReviewItemInline(_ReviewItemInlineBase):
    model = ReviewItem
    fields = ("state", "reviewer", "reviewed_at", "note")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0
    show_change_link = True


@admin.register(ModerationVerdict)
class ModerationVerdictAdmin(ReadOnlyAdminMixin, _VerdictAdminBase):
    # Verdicts are a record of what was decided: nobody edits or adds them by hand.
    list_display = (
        "id",
        "created_at",
        "user",
        "api_key",
        "endpoint",
        "category",
        "action",
        "severity",
        "status",
        "confidence",
        "uncertainty_flag",
        "escalation_required",
        "auto_fail",
    )
    list_filter = (
        "category",
        "action",
        "severity",
        "status",
        "endpoint",
        "uncertainty_flag",
        "escalation_required",
        "auto_fail",
        ("created_at", admin.DateFieldListFilter),
    )
    date_hierarchy = "created_at"
    search_fields = ("user__username", "api_key__prefix")
    list_select_related = ("user", "api_key")
    raw_id_fields = ("user", "api_key")
    inlines = (ReviewItemInline,)


class ReviewItemAdminForm(_ReviewItemFormBase):
    decision = forms.ChoiceField(
        choices=[("", "Leave pending"), *((d, d.capitalize()) for d in DECISION_STATE)],
        required=False,
        help_text="Confirm the verdict, or overturn it (say why in the note).",
    )

    class Meta:
        model = ReviewItem
        fields = ("note",)


# The sections of a review item's page.
_VERDICT_FIELDS = ("verdict_link", "category", "action", "severity", "flags", "signals")
_CONTENT_FIELDS = ("content", "policy", "instructions", "reason")
_REVIEW_FIELDS = ("state", "reviewer", "reviewed_at")


@admin.register(ReviewItem)
class ReviewItemAdmin(_ReviewItemAdminBase):
    form = ReviewItemAdminForm
    list_display = (
        "id",
        "created_at",
        "state",
        "category",
        "action",
        "severity",
        "flags",
        "excerpt",
        "reviewer",
        "reviewed_at",
    )
    list_filter = (
        "state",
        "verdict__category",
        "verdict__action",
        "verdict__severity",
        ("created_at", admin.DateFieldListFilter),
    )
    search_fields = ("content", "verdict__user__username")
    list_select_related = ("verdict", "verdict__user", "reviewer")
    raw_id_fields = ("verdict", "reviewer")
    actions = ("confirm_items", "overturn_items")
    fieldsets = (
        ("Verdict", {"fields": _VERDICT_FIELDS}),
        ("Content", {"fields": _CONTENT_FIELDS}),
        ("Review", {"fields": (*_REVIEW_FIELDS, "decision", "note")}),
    )
    # Everything on the page is the record under review; an operator only decides and notes.
    readonly_fields = (*_VERDICT_FIELDS, *_CONTENT_FIELDS, *_REVIEW_FIELDS)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(ordering="verdict__category")
    def category(self, item: ReviewItem) -> str:
        return item.verdict.category

    @admin.display(ordering="verdict__action")
    def action(self, item: ReviewItem) -> str:
        return item.verdict.action

    @admin.display(ordering="verdict__severity")
    def severity(self, item: ReviewItem) -> str:
        return item.verdict.severity

    @admin.display(description="flags")
    def flags(self, item: ReviewItem) -> str:
        verdict = item.verdict
        names = [
            name
            for name, on in (
                ("uncertain", verdict.uncertainty_flag),
                ("escalate", verdict.escalation_required),
                ("auto_fail", verdict.auto_fail),
            )
            if on
        ]
        if verdict.ambiguity_reason != "NONE":
            names.append(verdict.ambiguity_reason)
        return ", ".join(names)

    @admin.display(description="signals")
    def signals(self, item: ReviewItem) -> str:
        return ", ".join(item.verdict.detected_signals)

    @admin.display(description="content")
    def excerpt(self, item: ReviewItem) -> str:
        return item.content if len(item.content) <= 80 else item.content[:79] + "…"

    @admin.display(description="verdict")
    def verdict_link(self, item: ReviewItem) -> str:
        url = reverse("admin:moderation_moderationverdict_change", args=[item.verdict_id])
        return format_html('<a href="{}">Verdict #{}</a>', url, item.verdict_id)

    def save_model(self, request: HttpRequest, obj: ReviewItem, form: Any, change: bool) -> None:
        # Only a decision writes, and it goes through the service (who, when, row lock).
        decision = form.cleaned_data.get("decision")
        if not decision:
            if "note" in form.changed_data:
                messages.warning(request, "The note is saved together with a decision.")
            return
        try:
            review_item(
                item=obj,
                reviewer=_operator(request),
                decision=decision,
                note=form.cleaned_data.get("note") or "",
            )
        except ApiError as exc:
            messages.error(request, exc.message)

    @admin.action(description="Confirm selected verdicts")
    def confirm_items(self, request: HttpRequest, queryset: QuerySet[ReviewItem]) -> None:
        self._decide(request, queryset, "confirm")

    @admin.action(description="Overturn selected verdicts")
    def overturn_items(self, request: HttpRequest, queryset: QuerySet[ReviewItem]) -> None:
        self._decide(request, queryset, "overturn")

    def _decide(
        self, request: HttpRequest, queryset: QuerySet[ReviewItem], decision: Decision
    ) -> None:
        done, skipped = 0, 0
        for item in queryset:
            try:
                review_item(item=item, reviewer=_operator(request), decision=decision)
            except ApiError:
                skipped += 1
            else:
                done += 1
        self.message_user(request, f"{DECISION_STATE[decision].label} {done} item(s).")
        if skipped:
            self.message_user(
                request, f"Skipped {skipped} item(s) already reviewed.", level=messages.WARNING
            )


def _operator(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # the admin requires a logged-in staff user
    return user
