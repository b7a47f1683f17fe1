"""The dashboard playground: chat with a persona or a model, the reply streaming in.

Session auth and CSRF instead of a key; the same serializer and pipeline (``chat.pipeline``) as
the API. Web conversations are saved with mode `personal` (own persona), `agents` (anyone else's
persona) or `chat` (a plain model); any of the user's conversations can be continued here, those
made through the API included (`api` as a plain-model chat, `api_agents` with its persona), and
keep their mode. A chat may carry a tools definition (OpenAI's ``tools`` array, typed as JSON
text in the page), a temperature, a max_tokens and a model, all checked by the API's rules; the
model's tool calls stream back as the API streams them.

A reply can be stopped: the page aborts its request, and the stream's own ``finally`` saves and
charges what was generated, as for any client that leaves. The view remembers, per reply, which
conversation it went to (:func:`_remembered`), so that the page can then ask
``playground/status?reply=`` for the reply's tokens, its cost and its Markdown, rendered and
sanitised by the History page's renderer (``conversations.markdown``).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any, TypedDict

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST
from rest_framework.exceptions import ValidationError

from accounts.models import User
from billing.activity import write_trace_now
from billing.models import ActivityRecord, UsageRecord
from billing.money import money_string
from billing.selectors import get_balance
from billing.views import credits_contact
from chat.activity import ChatTrace
from chat.pipeline import ChatContext, errors_as_events, prepare_chat, stream_chunks
from chat.serializers import ChatCompletionRequestSerializer
from conversations.markdown import render_markdown
from conversations.models import PERSONA_MODES, Conversation, Message
from conversations.views import ToolCallView, tool_call_views
from core.asyncdb import in_caller_thread
from core.errors import ApiError, InvalidRequest, error_response, known_error
from core.ids import parse_id
from core.parsers import MAX_JSON_DEPTH, check_json_depth
from core.sharedcache import shared_cache
from llm.catalog import get_catalog
from personas.models import Persona
from personas.selectors import personas_visible_to

logger = logging.getLogger(__name__)

# The fields of the page's payload handed to the API's serializer as they are.
PASSED_FIELDS = ("persona_id", "model", "conversation_id", "temperature", "max_tokens")
# How long the page may ask where a reply went: long enough for a slow settle after a Stop.
REPLY_MEMORY_SECONDS = 15 * 60
# The pipeline's completion ids: "chatcmpl-" and 24 URL-safe characters.
REPLY_ID = re.compile(r"chatcmpl-[A-Za-z0-9_-]{1,64}")
REPLY_HEADER = "X-Playground-Reply"


@dataclass(frozen=True)
class _TurnView:
    """A saved message as the playground's transcript shows it. Every string but ``html``
    (nh3's output) is plain text, which the template escapes."""

    role: str
    content: str
    html: SafeString | None  # an assistant's reply as Markdown; None for other roles
    tool_calls: list[ToolCallView]
    tool_call_id: str


@dataclass(frozen=True)
class _Continuation:
    """How the page continues a conversation: what is fixed, and why."""

    persona_id: int | None  # the "Talk to" choice: the conversation's persona, or
    target_model: str  # its model ("" when it is no longer offered)
    model: str  # the model picker's choice for a persona ("" for the persona's default)
    persona_locked: bool  # the persona can't change (a persona conversation)
    personas_disabled: bool  # no persona can be added (a plain-model conversation)
    note: str  # why the picker is disabled
    problem: str  # non-empty when the conversation cannot be continued here


class _ReplySummary(TypedDict):
    prompt_tokens: int
    completion_tokens: int
    cost: str
    html: str


def _turn_view(message: Message) -> _TurnView:
    assistant = message.role == Message.Role.ASSISTANT
    return _TurnView(
        role=message.role,
        content=message.content,
        html=render_markdown(message.content) if assistant and message.content else None,
        tool_calls=tool_call_views(message),
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


def _own_conversation(user: User, conversation_id: Any) -> Conversation:
    """One of the user's conversations, of any mode; 404 for anything else."""
    try:
        return Conversation.objects.select_related("persona").get(
            pk=int(conversation_id), user=user
        )
    except (Conversation.DoesNotExist, ValueError, TypeError, OverflowError) as exc:
        raise Http404("No such conversation") from exc


def _continuation(
    conversation: Conversation, personas: list[Persona], model_ids: set[str]
) -> _Continuation:
    """A persona conversation keeps its persona (its prompt and history were written for it);
    a plain-model one (``chat`` and the API's ``api``) may change model but gains no persona,
    as ``conversations.selectors.continued_conversation`` enforces."""
    model = conversation.model_id if conversation.model_id in model_ids else ""
    if conversation.mode in PERSONA_MODES:
        persona = next((p for p in personas if p.pk == conversation.persona_id), None)
        if persona is None:
            return _Continuation(
                persona_id=None,
                target_model="",
                model="",
                persona_locked=True,
                personas_disabled=False,
                note="",
                problem=(
                    "This conversation cannot be continued: its persona has been deleted or "
                    "is no longer shared with you. Its messages stay in History; start a new "
                    "conversation to chat again."
                ),
            )
        return _Continuation(
            persona_id=persona.pk,
            target_model="",
            model=model,
            persona_locked=True,
            personas_disabled=False,
            note=(
                f"The persona is locked to this conversation: it is with {persona.name}, whose "
                "instructions its history was written for. You can change the model; start a "
                "new conversation to talk to someone else."
            ),
            problem="",
        )
    note = (
        "This conversation has no persona, so none can be chosen for it: you can change the "
        "model; start a new conversation to talk to a persona."
    )
    if conversation.model_id and not model:
        note += f" Its model, {conversation.model_id}, is no longer offered: pick another."
    return _Continuation(
        persona_id=None,
        target_model=model,
        model="",
        persona_locked=False,
        personas_disabled=True,
        note=note,
        problem="",
    )


@login_required
@require_GET
def playground(request: HttpRequest) -> HttpResponse:
    """The page; ``?conversation=`` continues one, ``?persona=`` preselects a persona."""
    user: User = request.user  # type: ignore[assignment]
    conversation = None
    history: list[_TurnView] = []
    personas = list(personas_visible_to(user))
    models = list(get_catalog())
    continuation = None
    if request.GET.get("conversation"):
        conversation = _own_conversation(user, request.GET["conversation"])
        messages = conversation.messages.exclude(role=Message.Role.SYSTEM).order_by("id")
        history = [_turn_view(message) for message in messages]
        continuation = _continuation(conversation, personas, {model.id for model in models})
    target_persona = continuation.persona_id if continuation is not None else None
    wanted = request.GET.get("persona", "")
    usable = {persona.pk for persona in personas}
    wanted_pk = parse_id(wanted)
    if continuation is None and wanted_pk in usable:
        target_persona = wanted_pk
    balance = get_balance(user)
    context = {
        "personas": personas,
        "owned_persona_ids": {p.pk for p in personas if p.is_owned_by(user.pk)},
        "models": models,
        "conversation": conversation,
        "continuation": continuation,
        "target_persona": target_persona,
        "target_model": continuation.target_model if continuation is not None else "",
        "history": history,
        "balance": balance,
        "balance_empty": balance <= 0,
        "credits_contact": credits_contact(),
    }
    return render(request, "chat/playground.html", context)


@login_required
@require_POST
def playground_chat(request: HttpRequest) -> HttpResponseBase:
    """JSON in, SSE out: {"persona_id"?, "model"?, "message", "conversation_id"?, "tools"?,
    "temperature"?, "max_tokens"?}.

    ``tools`` is OpenAI's tools array, or the page's JSON text of one (blank: no tools). The
    response names its reply in the ``X-Playground-Reply`` header (the stream's chunk id), for
    ``playground/status?reply=``.
    """
    user: User = request.user  # type: ignore[assignment]
    # The playground's requests are in the activity log too, without a key (chat.activity).
    trace = ChatTrace.begin(ActivityRecord.Endpoint.PLAYGROUND, request)
    trace.identify(user=user, api_key=None)
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
        for name in PASSED_FIELDS:
            if payload.get(name) not in (None, ""):
                data[name] = payload[name]
        tools = payload.get("tools")
        if isinstance(tools, str):
            tools = _tools_from_text(tools)
        if tools is not None:
            data["tools"] = tools
        trace.asked(data)
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
            trace=trace,
        )
        if ctx.persona is not None:
            # The web mode follows ownership of the persona prepare_chat already loaded. A
            # continued conversation keeps its own mode (save_turn leaves it).
            owned = ctx.persona.is_owned_by(user.pk)
            ctx.mode = Conversation.Mode.PERSONAL if owned else Conversation.Mode.AGENTS
    except ApiError as exc:
        trace.fail(exc)
        write_trace_now(trace)
        return error_response(exc)
    # Django's handler sends the status line before the body starts: committed, so an error
    # before the first chunk is the stream's error event.
    chunks = errors_as_events(ctx, stream_chunks(ctx, db=in_caller_thread))
    response = StreamingHttpResponse(_remembered(ctx, chunks), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events through as they come
    response[REPLY_HEADER] = ctx.completion_id
    return response


def _reply_key(user_id: int, reply_id: str) -> str:
    return f"playground:reply:{user_id}:{reply_id}"


async def _remembered(ctx: ChatContext, chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """The stream, and once it is over (finished, failed or left), what became of its reply.

    The stream's own ``finally`` saves and charges the reply and sets ``ctx.conversation``
    and ``ctx.outcome``; closing ``chunks`` here, before remembering, runs it first, even when
    the page stopped the stream and this generator is being closed rather than drained. The
    outcome names the reply's own message and charge, so a second reply in the same
    conversation cannot be taken for this one.
    """
    try:
        async with aclosing(chunks) as body:  # type: ignore[type-var]
            async for chunk in body:
                yield chunk
    finally:
        conversation = ctx.conversation
        outcome = ctx.outcome
        remembered: dict[str, Any] = {
            "conversation_id": conversation.pk if conversation else None,
            "message_id": outcome.message_id if outcome else None,
        }
        if outcome is not None and outcome.message_id is not None:
            remembered.update(
                prompt_tokens=outcome.usage.prompt_tokens,
                completion_tokens=outcome.usage.completion_tokens,
                cost=money_string(outcome.cost),
            )
        try:
            await shared_cache().aset(
                _reply_key(ctx.user.pk, ctx.completion_id), remembered, REPLY_MEMORY_SECONDS
            )
        except Exception:
            # Only the page's summary of the reply is lost; the reply is saved and charged.
            logger.warning("could not remember a playground reply", exc_info=True)


def _recall(user: User, reply_id: str) -> dict[str, Any] | None:
    try:
        remembered = shared_cache().get(_reply_key(user.pk, reply_id))
    except Exception:
        logger.warning("could not recall a playground reply", exc_info=True)
        return None
    return remembered if isinstance(remembered, dict) else None


def _reply_summary(user: User, remembered: dict[str, Any]) -> _ReplySummary | None:
    """The reply's tokens, cost and Markdown; None when nothing was generated (so nothing
    was saved or charged)."""
    message_id = remembered.get("message_id")
    if not isinstance(message_id, int):
        return None
    content = (
        Message.objects.filter(pk=message_id, conversation__user=user, role=Message.Role.ASSISTANT)
        .values_list("content", flat=True)
        .first()
    )
    if content is None:  # deleted since
        return None
    return {
        "prompt_tokens": int(remembered["prompt_tokens"]),
        "completion_tokens": int(remembered["completion_tokens"]),
        "cost": str(remembered["cost"]),
        "html": str(render_markdown(content)) if content else "",
    }


@login_required
@require_GET
def playground_status(request: HttpRequest) -> HttpResponse:
    """The balance and the latest reply's cost, shown after a stream.

    ``?reply=<X-Playground-Reply>``: that reply's conversation and summary (tokens, cost and
    its Markdown as sanitised HTML), or ``"pending": true`` while its stream is still being
    settled. ``?conversation=<id>``: the cost of the conversation's latest reply.
    """
    user: User = request.user  # type: ignore[assignment]
    body: dict[str, Any] = {"last_cost": None}
    reply_id = request.GET.get("reply")
    if reply_id is not None:
        if not REPLY_ID.fullmatch(reply_id):
            return error_response(InvalidRequest("Not a reply id.", param="reply"))
        remembered = _recall(user, reply_id)
        if remembered is None:
            body["pending"] = True
        else:
            conversation_id = remembered.get("conversation_id")
            summary = _reply_summary(user, remembered)
            body.update(
                pending=False,
                conversation_id=conversation_id,
                reply=summary,
                last_cost=summary["cost"] if summary else None,
            )
    elif request.GET.get("conversation"):
        conversation = _own_conversation(user, request.GET["conversation"])
        latest = (
            UsageRecord.objects.filter(user=user, conversation=conversation)
            .order_by("-id")
            .values_list("cost", flat=True)
            .first()
        )
        body["last_cost"] = money_string(latest) if latest is not None else None
    # Read last: after the reply's charge.
    body["balance"] = money_string(get_balance(user))
    return JsonResponse(body)


web_urls: list[URLPattern] = [
    path("playground/", playground, name="playground"),
    path("playground/chat", playground_chat, name="playground_chat"),
    path("playground/status", playground_status, name="playground_status"),
]
