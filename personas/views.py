from __future__ import annotations

from django.urls import URLPattern, URLResolver

web_urls: list[URLPattern | URLResolver] = []
