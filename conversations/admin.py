from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from conversations.models import Conversation, Message


class MessageInline(admin.TabularInline):
    """A conversation's messages, read-only: history is a record, not a draft."""

    model = Message
    fields = ("id", "role", "model", "content", "prompt_tokens", "completion_tokens", "created_at")
    readonly_fields = fields
    ordering = ("id",)
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "user", "mode", "persona", "model_id", "updated_at")
    list_filter = ("mode", "updated_at")
    search_fields = ("user__username", "user__email", "mode", "title")
    list_select_related = ("user", "persona")
    raw_id_fields = ("user", "api_key", "persona")
    readonly_fields = ("created_at", "updated_at")
    date_hierarchy = "updated_at"
    inlines = (MessageInline,)
