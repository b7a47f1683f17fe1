"""Moderation routes, mounted by config/urls.py under both API prefixes, /v1/ and /api/v1/."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, re_path

from moderation.api import ModerationsView, ModerationView

# Relative to the v1 mount; with and without the trailing slash, no redirects. "\Z", not "$",
# which also matches before a final newline.
api_urls: list[URLPattern | URLResolver] = [
    re_path(r"^moderation/?\Z", ModerationView.as_view()),
    re_path(r"^moderations/?\Z", ModerationsView.as_view()),
]
web_urls: list[URLPattern | URLResolver] = []
