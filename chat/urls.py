from __future__ import annotations

from django.urls import URLPattern, URLResolver, re_path

from chat import api, models_api
from chat.views import web_urls

# Mounted under /v1/ and /api/v1/. The /agents/ spellings let the openai SDK use
# base_url=".../v1/agents" for persona chat (docs/api.md, Endpoints). "\Z", not "$", which also
# matches before a final newline.
api_urls: list[URLPattern | URLResolver] = [
    re_path(r"^chat/completions/?\Z", api.ChatCompletionsView.as_view()),
    re_path(r"^agents/chat/completions/?\Z", api.PersonaChatCompletionsView.as_view()),
    re_path(r"^models/?\Z", models_api.ModelListView.as_view()),
    re_path(r"^agents/models/?\Z", models_api.AgentModelListView.as_view()),
    # Model ids may hold slashes and dots ("persona/3", "meta-llama/Llama-3.1-8B"): the id is
    # everything after "models/" but one trailing slash. "." matches no newline, so a path
    # ending in "%0A" is the JSON 404 of an unknown route.
    re_path(r"^models/(?P<model_id>.+?)/?\Z", models_api.ModelDetailView.as_view()),
    re_path(r"^agents/models/(?P<model_id>.+?)/?\Z", models_api.ModelDetailView.as_view()),
]
__all__ = ["api_urls", "web_urls"]
