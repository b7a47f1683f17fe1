from __future__ import annotations

from django.urls import URLPattern, URLResolver

api_urls: list[URLPattern | URLResolver] = []
