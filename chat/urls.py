from __future__ import annotations

from django.urls import URLPattern, URLResolver, re_path

from chat import api
from chat.views import web_urls

# Mounted under /v1/ and /api/v1/. The /agents/ spellings let the openai SDK use
# base_url=".../v1/agents" for persona chat (docs/api.md, Endpoints). "\Z", not "$", which also
# matches before a final newline.
api_urls: list[URLPattern | URLResolver] = [
    re_path(r"^chat/completions/?\Z", api.ChatCompletionsView.as_view()),
    re_path(r"^agents/chat/completions/?\Z", api.PersonaChatCompletionsView.as_view()),
    re_path(r"^models/?\Z", api.ModelListView.as_view()),
    re_path(r"^agents/models/?\Z", api.ModelListView.as_view()),
]
__all__ = ["api_urls", "web_urls"]
