from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions as drf_exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat import settlement
from chat.cache import UNREAD, PersonaAccess
from chat.serializers import (
    ChatCompletionRequestSerializer,
    ChatCompletionResponseSerializer,
    ModelListSerializer,
)
from chat.services import ChatContext, completion_body, prepare_chat
from chat.streaming import open_stream, sse_response
from conversations.models import Conversation
from core.asyncdb import run_db
from core.auth import authenticate_key_for_chat, parse_bearer, touch_last_used
from core.errors import ApiError, from_drf_exception
from core.parsers import BoundedJSONParser
from core.ratelimit import enforce
from core.schema import error_responses
from llm.catalog import get_catalog
from llm.providers import get_provider
from personas.selectors import parse_id

CHAT_EXAMPLE = OpenApiExample(
    "Persona chat",
    value={"persona_id": 1, "messages": [{"role": "user", "content": "How do I reverse a list?"}]},
    request_only=True,
)


async def arun_completion(ctx: ChatContext, *, pooled: bool = False) -> dict[str, Any]:
    """Generate a whole reply on the running loop, then save and charge it on a database
    thread (``core.asyncdb.run_db``). Upstream errors charge nothing."""
    try:
        completion = await get_provider(ctx.model).complete(ctx.generation)
    except BaseException:
        await settlement.release(ctx, pooled=pooled)
        raise
    outcome = await settlement.record(
        ctx, content=completion.content, usage=completion.usage, completed=True, pooled=pooled
    )
    return completion_body(
        ctx,
        content=completion.content,
        reasoning=completion.reasoning,
        finish_reason=completion.finish_reason,
        outcome=outcome,
    )


def _request_data(request: HttpRequest) -> Any:
    """The JSON body, parsed by the API's parser: the same 400 (invalid_json) and 415."""
    try:
        return Request(request, parsers=[BoundedJSONParser()]).data
    except drf_exceptions.APIException as exc:
        raise from_drf_exception(exc) or exc from None


def _admit(request: HttpRequest, *, persona_required: bool) -> ChatContext:
    """Everything before generation, in contract §3's order: 401, 429, 400, 404, 402.

    The steps DRF would take (ApiKeyAuthentication, ApiKeyRateThrottle, the serializer,
    prepare_chat), in one call so an async request crosses to a database thread once.
    """
    raw_key = parse_bearer(request.META.get("HTTP_AUTHORIZATION"))
    if raw_key is None:
        raise from_drf_exception(drf_exceptions.NotAuthenticated()) or AssertionError
    # The body is parsed first so that the persona's row (visibility, revision) is read in the
    # key's own query; its errors still come after the 401 and the 429 (contract §3).
    body_error: ApiError | None = None
    try:
        body = _request_data(request)
    except ApiError as exc:
        body, body_error = None, exc
    persona_pk = parse_id(body.get("persona_id")) if isinstance(body, dict) else None
    read = authenticate_key_for_chat(raw_key, persona_id=persona_pk)
    key = read.key
    touch_last_used(key)
    enforce(request, key)
    if body_error is not None:
        raise body_error
    serializer = ChatCompletionRequestSerializer(data=body, persona_required=persona_required)
    try:
        serializer.is_valid(raise_exception=True)
    except drf_exceptions.ValidationError as exc:
        raise from_drf_exception(exc) or exc from None
    data = serializer.validated_data
    if parse_id(data.get("persona_id")) != persona_pk:  # read for another id than validated
        persona_pk = None
    return prepare_chat(
        user=key.user,
        api_key=key,
        data=data,
        save=key.detailed_logging,
        mode=Conversation.Mode.API_AGENTS if "persona_id" in data else Conversation.Mode.API,
        persona_access=(PersonaAccess(*read.persona) if read.persona is not None else None)
        if persona_pk is not None
        else UNREAD,
    )


async def serve_chat(request: HttpRequest, *, persona_required: bool) -> HttpResponseBase:
    """A chat-completion POST, from the Django view below or from ``chat.gateway`` (daphne)."""
    # Under daphne the database work runs on core.asyncdb's threads (persistent connections);
    # from the test client it stays in the caller's thread and transaction.
    pooled = isinstance(request, ASGIRequest)
    ctx = await run_db(_admit, pooled=pooled)(request, persona_required=persona_required)
    if ctx.stream:
        # Under daphne, wait for the first event so an upstream that fails at once is a JSON
        # 502/504. (The test client runs the view and drains the body on different event
        # loops, and an upstream connection cannot cross loops.)
        try:
            opened = await open_stream(ctx) if pooled else None
        except BaseException:
            await settlement.release(ctx, pooled=pooled)
            raise
        return sse_response(ctx, pooled=pooled, opened=opened)
    body = await arun_completion(ctx, pooled=pooled)
    # The bytes DRF's JSONRenderer would write (compact, UTF-8).
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return HttpResponse(content.encode(), content_type="application/json")


def _async_post_view(
    view_class: type[ChatCompletionsView], drf_view: Callable[..., HttpResponseBase]
) -> Callable[..., Coroutine[Any, Any, HttpResponseBase]]:
    """The URL callback of a chat endpoint: POST served natively async, the rest by DRF.

    DRF runs views synchronously, which under ASGI means one thread per request. POST (the hot
    path) is served here instead, by the same steps (see :func:`_admit`), and raises the same
    ``ApiError``s, which ``core.middleware.ApiErrorMiddleware`` renders as the contract §3
    envelope. Other methods (405, OPTIONS) go to the DRF view. ``cls`` and ``initkwargs`` let
    drf-spectacular document the endpoint from the DRF view.
    """

    async def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            response: HttpResponseBase = await sync_to_async(drf_view)(request, *args, **kwargs)
            return response
        return await serve_chat(request, persona_required=view_class.persona_required)

    view.__dict__.update(
        cls=view_class, initkwargs=getattr(drf_view, "initkwargs", {}), csrf_exempt=True
    )
    return view


class ChatCompletionsView(APIView):
    """General chat (POST /v1/chat/completions); with persona_id it is persona chat."""

    persona_required = False

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        """An async view for POST (see :func:`_async_post_view`); DRF for everything else."""
        return _async_post_view(cls, super().as_view(**initkwargs))

    @extend_schema(
        request=ChatCompletionRequestSerializer,
        responses={
            200: ChatCompletionResponseSerializer,
            **error_responses(400, 401, 402, 404, 429, 502, 504),
        },
        examples=[CHAT_EXAMPLE],
        description=(
            "OpenAI-compatible chat completion. With `stream: true` the response is "
            "`text/event-stream`: chat.completion.chunk events, then `data: [DONE]`."
        ),
    )
    def post(self, request: Request) -> Any:
        # Documents the operation only: as_view() routes every POST to the async view
        # (_async_post_view), which runs the same auth, rate limit and serializer.
        raise AssertionError("POST is served by the async chat view")


class PersonaChatCompletionsView(ChatCompletionsView):
    """Persona chat (POST /v1/agents/chat/completions): persona_id is required."""

    persona_required = True


class ModelListView(APIView):
    @extend_schema(responses={200: ModelListSerializer, **error_responses(401, 429)})
    def get(self, request: Request) -> Response:
        return Response(
            {
                "object": "list",
                "data": [
                    {
                        "id": model.id,
                        "object": "model",
                        "context_window": model.context_window,
                        "pricing": {
                            "input_per_mtok": str(model.input_price_per_mtok),
                            "output_per_mtok": str(model.output_price_per_mtok),
                            "currency": "USD",
                        },
                        "vision": model.vision,
                        "reasoning": model.reasoning,
                    }
                    for model in get_catalog()
                ],
            }
        )
