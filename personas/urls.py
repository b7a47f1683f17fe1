"""Personas routes: the API lives in api.py, the dashboard in views.py; each owns its list."""

from __future__ import annotations

from personas.api import api_urls
from personas.views import web_urls

__all__ = ["api_urls", "web_urls"]
