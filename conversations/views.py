"""Dashboard pages for the conversation history: list, conversation, delete.

The same selectors and service as the API, so the dashboard shows exactly what the API does:
only the user's own conversations, and a 404 for anything else.
"""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from conversations.markdown import render_markdown
from conversations.models import Conversation
from conversations.selectors import (
    MODE_ALL,
    MODE_FILTERS,
    conversations_page,
    get_conversation_for,
)
from conversations.services import delete_conversation
from core.errors import NotFound

PLAYGROUND_URL = "/playground/"


def _user(request: HttpRequest) -> User:
    # Only called behind @login_required.
    return cast(User, request.user)


def _page_number(raw: str | None) -> int:
    """The dashboard is lenient where the API is strict: a bad page number shows page 1."""
    if raw and raw.isascii() and raw.isdigit() and 0 < len(raw) < 10:
        return max(1, int(raw))
    return 1


@login_required
@require_GET
def conversation_list(request: HttpRequest) -> HttpResponse:
    mode = request.GET.get("mode", MODE_ALL)
    if mode not in MODE_FILTERS:
        mode = MODE_ALL
    page = conversations_page(_user(request), mode=mode, page=_page_number(request.GET.get("page")))
    return render(
        request,
        "conversations/list.html",
        {
            "page": page,
            "mode": mode,
            "modes": [(MODE_ALL, "All"), *Conversation.Mode.choices],
            "previous_page": page.page - 1 if page.page > 1 else None,
            "next_page": page.page + 1 if page.has_more else None,
        },
    )


@login_required
@require_GET
def conversation_detail(request: HttpRequest, conversation_id: int) -> HttpResponse:
    try:
        conversation = get_conversation_for(_user(request), conversation_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    rendered = [
        (message, render_markdown(message.content)) for message in conversation.messages.all()
    ]
    return render(
        request,
        "conversations/detail.html",
        {
            "conversation": conversation,
            "rendered_messages": rendered,
            "playground_url": f"{PLAYGROUND_URL}?conversation={conversation.pk}",
        },
    )


@login_required
@require_POST
def conversation_delete(request: HttpRequest, conversation_id: int) -> HttpResponse:
    try:
        delete_conversation(user=_user(request), conversation_id=conversation_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    messages.success(request, "Conversation deleted.")
    return redirect("conversations:list")
