from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms import BaseInlineFormSet, ModelForm
from django.http import HttpRequest

from core.errors import ApiError
from personas.models import Persona, TrainingDataItem
from personas.services import bump_persona_revision, set_persona_visibility

# Django's admin classes take type arguments in django-stubs only, not at run time.
if TYPE_CHECKING:
    _ItemInline = admin.StackedInline[TrainingDataItem, Persona]
    _PersonaAdmin = admin.ModelAdmin[Persona]
    _ItemAdmin = admin.ModelAdmin[TrainingDataItem]
else:
    _ItemInline = admin.StackedInline
    _PersonaAdmin = _ItemAdmin = admin.ModelAdmin


class TrainingDataItemInline(_ItemInline):
    model = TrainingDataItem
    extra = 0
    fields = ("type", "title", "content", "metadata")
    show_change_link = True


@admin.register(Persona)
class PersonaAdmin(_PersonaAdmin):
    list_display = (
        "id",
        "name",
        "owner",
        "category",
        "is_public",
        "guard",
        "default_model",
        "created_at",
    )
    list_display_links = ("id", "name")
    list_filter = (("owner", admin.RelatedOnlyFieldListFilter), "is_public", "guard", "category")
    list_select_related = ("owner",)
    search_fields = ("name", "description", "owner__username")
    raw_id_fields = ("owner",)
    readonly_fields = ("created_at", "updated_at")
    inlines = (TrainingDataItemInline,)
    actions = ("make_public", "make_private")

    # Edits made through the admin's own forms must invalidate cached prompts too.
    def save_model(
        self, request: HttpRequest, obj: Persona, form: ModelForm[Persona], change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        bump_persona_revision(obj.pk)

    def save_formset(
        self,
        request: HttpRequest,
        form: ModelForm[Persona],
        formset: BaseInlineFormSet[TrainingDataItem, Persona, ModelForm[TrainingDataItem]],
        change: bool,
    ) -> None:
        super().save_formset(request, form, formset, change)
        bump_persona_revision(form.instance.pk)

    def delete_model(self, request: HttpRequest, obj: Persona) -> None:
        persona_id = obj.pk
        super().delete_model(request, obj)
        bump_persona_revision(persona_id)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Persona]) -> None:
        persona_ids = list(queryset.values_list("pk", flat=True))
        super().delete_queryset(request, queryset)
        for persona_id in persona_ids:
            bump_persona_revision(persona_id)

    @admin.action(description="Make selected personas public", permissions=["change"])
    def make_public(self, request: HttpRequest, queryset: QuerySet[Persona]) -> None:
        changed = self._set_visibility(request, queryset, is_public=True)
        self.message_user(request, f"{changed} persona(s) made public.", messages.SUCCESS)

    @admin.action(description="Make selected personas private", permissions=["change"])
    def make_private(self, request: HttpRequest, queryset: QuerySet[Persona]) -> None:
        personas = list(queryset)
        builtins = [persona for persona in personas if persona.is_builtin]
        if builtins:
            names = ", ".join(str(persona) for persona in builtins)
            self.message_user(
                request,
                f"Built-in personas are always public; skipped: {names}.",
                messages.WARNING,
            )
        changed = self._set_visibility(
            request, [persona for persona in personas if not persona.is_builtin], is_public=False
        )
        self.message_user(request, f"{changed} persona(s) made private.", messages.SUCCESS)

    def _set_visibility(
        self, request: HttpRequest, personas: Iterable[Persona], *, is_public: bool
    ) -> int:
        changed = 0
        for persona in personas:
            if persona.is_public == is_public:
                continue
            try:
                set_persona_visibility(persona=persona, is_public=is_public)
            except ApiError as exc:
                self.message_user(request, f"{persona}: {exc.message}", messages.ERROR)
                continue
            changed += 1
        return changed


@admin.register(TrainingDataItem)
class TrainingDataItemAdmin(_ItemAdmin):
    list_display = ("id", "persona", "type", "title", "updated_at")
    list_filter = ("type",)
    list_select_related = ("persona",)
    search_fields = ("title", "content", "persona__name")
    raw_id_fields = ("persona",)
    readonly_fields = ("created_at", "updated_at")

    def save_model(
        self,
        request: HttpRequest,
        obj: TrainingDataItem,
        form: ModelForm[TrainingDataItem],
        change: bool,
    ) -> None:
        super().save_model(request, obj, form, change)
        bump_persona_revision(obj.persona_id)

    def delete_model(self, request: HttpRequest, obj: TrainingDataItem) -> None:
        super().delete_model(request, obj)
        bump_persona_revision(obj.persona_id)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[TrainingDataItem]) -> None:
        persona_ids = set(queryset.values_list("persona_id", flat=True))
        super().delete_queryset(request, queryset)
        for persona_id in persona_ids:
            bump_persona_revision(persona_id)
