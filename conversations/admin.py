from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from conversations.models import Conversation, Message
from core.admin import ReadOnlyAdminMixin

# Django's admin classes take type arguments in django-stubs only, not at run time.
if TYPE_CHECKING:
    _MessageInline = admin.TabularInline[Message, Conversation]
    _ConversationAdmin = admin.ModelAdmin[Conversation]
else:
    _MessageInline = admin.TabularInline
    _ConversationAdmin = admin.ModelAdmin


class MessageInline(ReadOnlyAdminMixin, _MessageInline):
    """A conversation's messages, read-only: history is a record, not a draft."""

    model = Message
    fields = (
        "id",
        "role",
        "model",
        "content",
        "tool_calls",
        "tool_call_id",
        "prompt_tokens",
        "completion_tokens",
        "created_at",
    )
    readonly_fields = fields
    ordering = ("id",)
    extra = 0
    can_delete = False
    show_change_link = False


@admin.register(Conversation)
class ConversationAdmin(_ConversationAdmin):
    list_display = ("id", "title", "user", "mode", "persona", "model_id", "updated_at")
    list_filter = ("mode", "updated_at")
    search_fields = ("user__username", "user__email", "mode", "title")
    list_select_related = ("user", "persona")
    raw_id_fields = ("user", "api_key", "persona")
    readonly_fields = ("created_at", "updated_at")
    date_hierarchy = "updated_at"
    inlines = (MessageInline,)
