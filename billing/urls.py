from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from billing import views

api_urls: list[URLPattern | URLResolver] = []
web_urls: list[URLPattern | URLResolver] = [
    path("usage/", views.usage, name="usage"),
    path("usage/export.csv", views.usage_export, name="usage_export"),
]
