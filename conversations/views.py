"""Dashboard pages for the conversation history: list, conversation, delete (after a
confirmation page).

The same selectors and service as the API, so the dashboard shows exactly what the API does:
only the user's own conversations, and a 404 for anything else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from conversations.markdown import render_markdown
from conversations.models import PERSONA_MODES, Conversation, Message
from conversations.selectors import (
    MODE_ALL,
    MODE_FILTERS,
    conversations_page,
    get_conversation_for,
)
from conversations.services import delete_conversation
from core.errors import NotFound

PLAYGROUND_URL = "/playground/"

# The filter's order: the playground's modes, then the API's.
MODE_ORDER = (
    Conversation.Mode.CHAT,
    Conversation.Mode.PERSONAL,
    Conversation.Mode.AGENTS,
    Conversation.Mode.API,
    Conversation.Mode.API_AGENTS,
)


def _user(request: HttpRequest) -> User:
    # Only called behind @login_required.
    return cast(User, request.user)


def page_number(raw: str | None) -> int:
    """The dashboard is lenient where the API is strict: a bad page number shows page 1."""
    if raw and raw.isascii() and raw.isdigit() and 0 < len(raw) < 10:
        return max(1, int(raw))
    return 1


@dataclass(frozen=True)
class ToolCallView:
    id: str
    name: str
    arguments: str  # pretty-printed when it is JSON; plain text for the template to escape


@dataclass(frozen=True)
class _MessageView:
    """A message as the conversation page shows it. Every string but ``html`` (nh3's output)
    is plain text, which the template escapes."""

    message: Message
    html: SafeString | None  # the content as Markdown; None for a tool message
    tool_calls: list[ToolCallView]
    tool_output: str | None  # a tool message's content, pretty-printed when it is JSON


def _pretty_json(text: str) -> str:
    """JSON text indented for reading; anything that does not parse, as it is."""
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text


def _tool_call_view(call: Any) -> ToolCallView:
    function = call.get("function") if isinstance(call, dict) else None
    function = function if isinstance(function, dict) else {}
    return ToolCallView(
        id=str(call.get("id", "")) if isinstance(call, dict) else "",
        name=str(function.get("name", "")),
        arguments=_pretty_json(str(function.get("arguments", ""))),
    )


def tool_call_views(message: Message) -> list[ToolCallView]:
    """The assistant's tool calls as History and the playground show them."""
    calls = message.tool_calls if isinstance(message.tool_calls, list) else []
    return [_tool_call_view(call) for call in calls]


def _message_view(message: Message) -> _MessageView:
    if message.role == Message.Role.TOOL:
        return _MessageView(message, None, [], _pretty_json(message.content))
    return _MessageView(message, render_markdown(message.content), tool_call_views(message), None)


def _attach_personas(conversations: list[Conversation]) -> None:
    """Each conversation's ``persona_label``: the persona's name (annotated by
    ``conversations_page``), "a deleted persona" when a persona conversation's persona is gone,
    "" for a general mode; and its ``mode_label``."""
    for conversation in conversations:
        name = getattr(conversation, "persona_name", None)
        if not name and conversation.mode in PERSONA_MODES:
            name = "a deleted persona"
        conversation.persona_label = name or ""  # type: ignore[attr-defined]
        conversation.mode_label = mode_label(conversation.mode)  # type: ignore[attr-defined]


def mode_label(mode: str) -> str:
    return Conversation.Mode(mode).label if mode in Conversation.Mode.values else mode


def _list_url(mode: str, page: int) -> str:
    return f"{reverse('conversations:list')}?{urlencode({'mode': mode, 'page': str(page)})}"


@login_required
@require_GET
def conversation_list(request: HttpRequest) -> HttpResponse:
    mode = request.GET.get("mode", MODE_ALL)
    if mode not in MODE_FILTERS:
        mode = MODE_ALL
    number = page_number(request.GET.get("page"))
    page = conversations_page(_user(request), mode=mode, page=number)
    if page.page > page.page_count:
        # Past the end (an old link, a hand-typed number): the last page that exists.
        return redirect(_list_url(mode, page.page_count))
    _attach_personas(page.conversations)
    return render(
        request,
        "conversations/list.html",
        {
            "page": page,
            "mode": mode,
            "modes": [(MODE_ALL, "All"), *((value, mode_label(value)) for value in MODE_ORDER)],
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
    rendered = [_message_view(message) for message in conversation.messages.all()]
    return render(
        request,
        "conversations/detail.html",
        {
            "conversation": conversation,
            "rendered_messages": rendered,
            "mode_label": mode_label(conversation.mode),
            "playground_url": f"{PLAYGROUND_URL}?conversation={conversation.pk}",
        },
    )


@login_required
@require_GET
def conversation_delete_confirm(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """Deleting starts here: the page says what goes and asks; its form POSTs the delete."""
    try:
        conversation = get_conversation_for(_user(request), conversation_id, with_messages=False)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    return render(
        request,
        "conversations/delete_confirm.html",
        {"conversation": conversation, "message_count": conversation.messages.count()},
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
