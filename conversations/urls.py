"""Conversation routes: the API (mounted under /nova-api/v1/ and /api/nova-api/v1/) and the
dashboard's history pages (mounted under /conversations/, namespace "conversations")."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path, re_path

from conversations import views
from conversations.api import ConversationViewSet

_conversation_list = ConversationViewSet.as_view({"get": "list"})
_conversation_detail = ConversationViewSet.as_view({"get": "retrieve", "delete": "destroy"})

# "(?:/)?" rather than "/?": the same routes, but the OpenAPI paths come out without the slash.
# A path segment, not \d+: a malformed id reaches the selector and is a 404 from there.
# "\Z", not "$", which also matches before a final newline.
api_urls: list[URLPattern | URLResolver] = [
    re_path(r"^conversations(?:/)?\Z", _conversation_list, name="api-conversations-list"),
    re_path(
        r"^conversations/(?P<conversation_id>[^/]+)(?:/)?\Z",
        _conversation_detail,
        name="api-conversations-detail",
    ),
]

web_urls: list[URLPattern | URLResolver] = [
    path("", views.conversation_list, name="list"),
    path("<int:conversation_id>/", views.conversation_detail, name="detail"),
    path(
        "<int:conversation_id>/delete/confirm/",
        views.conversation_delete_confirm,
        name="delete_confirm",
    ),
    path("<int:conversation_id>/delete/", views.conversation_delete, name="delete"),
]
