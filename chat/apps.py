from __future__ import annotations

from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    label = "chat"
    default_auto_field = "django.db.models.BigAutoField"
