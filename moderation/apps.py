from __future__ import annotations

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
