from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from billing import views
from billing.api import api_urls

__all__ = ["api_urls", "web_urls"]

web_urls: list[URLPattern | URLResolver] = [
    path("usage/", views.usage, name="usage"),
    path("usage/export.csv", views.usage_export, name="usage_export"),
    path("activity/", views.activity, name="activity"),
]
