"""The dashboard playground: chat with a persona or a model, the reply streaming in.

Session auth and CSRF instead of a key; the same serializer and pipeline (``chat.pipeline``) as
the API. Web conversations are saved with mode `personal` (own persona), `agents` (anyone else's
persona) or `chat` (a plain model) and can be continued. A chat may carry a tools definition
(OpenAI's ``tools`` array, typed as JSON text in the page), checked by the API's rules; the
model's tool calls stream back as the API streams them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import URLPattern, path
from django.views.decorators.http import require_GET, require_POST
from rest_framework.exceptions import ValidationError

from accounts.models import User
from billing.models import UsageRecord
from billing.selectors import get_balance
from chat.pipeline import prepare_chat, sse_response
from chat.serializers import ChatCompletionRequestSerializer
from conversations.models import Conversation, Message
from core.asyncdb import in_caller_thread
from core.errors import ApiError, InvalidRequest, error_response, known_error
from core.parsers import MAX_JSON_DEPTH, check_json_depth
from llm.catalog import get_catalog
from personas.selectors import personas_visible_to

WEB_MODES = (Conversation.Mode.CHAT, Conversation.Mode.AGENTS, Conversation.Mode.PERSONAL)


@dataclass(frozen=True)
class _ToolCallView:
    id: str
    name: str
    arguments: str  # pretty-printed when it is JSON; plain text for the template to escape


@dataclass(frozen=True)
class _TurnView:
    """A saved message as the playground's transcript shows it."""

    role: str
    content: str
    tool_calls: list[_ToolCallView]
    tool_call_id: str


def _pretty_json(text: str) -> str:
    """JSON text indented for reading; anything that does not parse, as it is."""
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text


def _turn_view(message: Message) -> _TurnView:
    calls = message.tool_calls if isinstance(message.tool_calls, list) else []
    views = []
    for call in calls:
        function = call.get("function") if isinstance(call, dict) else None
        function = function if isinstance(function, dict) else {}
        views.append(
            _ToolCallView(
                id=str(call.get("id", "")) if isinstance(call, dict) else "",
                name=str(function.get("name", "")),
                arguments=_pretty_json(str(function.get("arguments", ""))),
            )
        )
    return _TurnView(
        role=message.role,
        content=message.content,
        tool_calls=views,
        tool_call_id=message.tool_call_id,
    )


def _tools_from_text(text: str) -> Any:
    """The page's "Tools (JSON)" box, parsed: None when blank, else the JSON value for the
    serializer to check as the API's ``tools``. Text that is not JSON is a 400 naming where
    the parser stopped."""
    if not text.strip():
        return None
    too_deep = InvalidRequest(
        f"Tools (JSON) nests more than {MAX_JSON_DEPTH} levels deep.",
        param="tools",
        code="invalid_json",
    )
    try:
        tools = json.loads(text)
    except RecursionError:
        raise too_deep from None
    except json.JSONDecodeError as exc:
        raise InvalidRequest(
            f"Tools (JSON) is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.",
            param="tools",
        ) from exc
    try:
        check_json_depth(tools)
    except InvalidRequest:
        raise too_deep from None
    return tools


def _web_conversation(user: User, conversation_id: Any) -> Conversation:
    try:
        return Conversation.objects.select_related("persona").get(
            pk=int(conversation_id), user=user, mode__in=WEB_MODES
        )
    except (Conversation.DoesNotExist, ValueError, TypeError) as exc:
        raise Http404("No such conversation") from exc


@login_required
@require_GET
def playground(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    conversation = None
    history: list[_TurnView] = []
    if request.GET.get("conversation"):
        conversation = _web_conversation(user, request.GET["conversation"])
        messages = conversation.messages.exclude(role=Message.Role.SYSTEM).order_by("id")
        history = [_turn_view(message) for message in messages]
    personas = list(personas_visible_to(user))
    context = {
        "personas": personas,
        "owned_persona_ids": {p.pk for p in personas if p.is_owned_by(user.pk)},
        "models": list(get_catalog()),
        "conversation": conversation,
        "history": history,
        "balance": get_balance(user),
    }
    return render(request, "chat/playground.html", context)


@login_required
@require_POST
def playground_chat(request: HttpRequest) -> HttpResponseBase:
    """JSON in, SSE out: {"persona_id"?, "model"?, "message", "conversation_id"?, "tools"?}.

    ``tools`` is OpenAI's tools array, or the page's JSON text of one (blank: no tools).
    """
    user: User = request.user  # type: ignore[assignment]
    try:
        try:
            payload = json.loads(request.body or b"{}")
        except (ValueError, RecursionError) as exc:
            raise InvalidRequest(
                "The request body is not valid JSON.", code="invalid_json"
            ) from exc
        check_json_depth(payload)
        if not isinstance(payload, dict):
            raise InvalidRequest("The request body must be a JSON object.")
        data: dict[str, Any] = {
            "messages": [{"role": "user", "content": payload.get("message")}],
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        for name in ("persona_id", "model", "conversation_id", "temperature"):
            if payload.get(name) not in (None, ""):
                data[name] = payload[name]
        tools = payload.get("tools")
        if isinstance(tools, str):
            tools = _tools_from_text(tools)
        if tools is not None:
            data["tools"] = tools
        serializer = ChatCompletionRequestSerializer(data=data)
        try:
            serializer.is_valid(raise_exception=True)
        except ValidationError as exc:
            raise known_error(exc) or InvalidRequest("Invalid request.") from exc
        ctx = prepare_chat(
            user=user,
            api_key=None,
            data=serializer.validated_data,
            save=True,
            mode=Conversation.Mode.CHAT,
        )
        if ctx.persona is not None:
            # The web mode follows ownership of the persona prepare_chat already loaded.
            owned = ctx.persona.is_owned_by(user.pk)
            ctx.mode = Conversation.Mode.PERSONAL if owned else Conversation.Mode.AGENTS
    except ApiError as exc:
        return error_response(exc)
    # Django's handler sends the status line before the body starts: committed.
    return sse_response(ctx, db=in_caller_thread, committed=True)


@login_required
@require_GET
def playground_status(request: HttpRequest) -> JsonResponse:
    """The balance and the cost of the conversation's latest reply, shown after a stream."""
    user: User = request.user  # type: ignore[assignment]
    cost = None
    if request.GET.get("conversation"):
        conversation = _web_conversation(user, request.GET["conversation"])
        latest = (
            UsageRecord.objects.filter(user=user, conversation=conversation)
            .order_by("-id")
            .values_list("cost", flat=True)
            .first()
        )
        cost = f"{latest:f}" if latest is not None else None
    return JsonResponse({"balance": f"{get_balance(user):f}", "last_cost": cost})


web_urls: list[URLPattern] = [
    path("playground/", playground, name="playground"),
    path("playground/chat", playground_chat, name="playground_chat"),
    path("playground/status", playground_status, name="playground_status"),
]
