"""The dashboard playground: chat with a persona or a model, the reply streaming in.

Session auth and CSRF instead of a key; the same serializer and pipeline (``chat.pipeline``) as
the API. Web conversations are saved with mode `personal` (own persona), `agents` (anyone else's
persona) or `chat` (a plain model) and can be continued.
"""

from __future__ import annotations

import json
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
from core.parsers import check_json_depth
from llm.catalog import get_catalog
from personas.selectors import personas_visible_to

WEB_MODES = (Conversation.Mode.CHAT, Conversation.Mode.AGENTS, Conversation.Mode.PERSONAL)


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
    history: list[Message] = []
    if request.GET.get("conversation"):
        conversation = _web_conversation(user, request.GET["conversation"])
        history = list(conversation.messages.exclude(role=Message.Role.SYSTEM).order_by("id"))
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
    """JSON in, SSE out: {"persona_id"?, "model"?, "message", "conversation_id"?}."""
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
