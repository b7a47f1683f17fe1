"""The chat API through Django's handler: the same pipeline as ``chat.gateway``.

Under daphne the gateway answers every chat-completion POST before Django sees it; these views
serve the same URLs for the test client and any server without the gateway, by calling the
same :func:`chat.pipeline.serve`, their database work in the caller's thread. They also answer
OPTIONS and wrong methods (405) and document the endpoints in the OpenAPI schema. The models
endpoints are in ``chat.models_api``.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from django.http import HttpResponseBase
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from chat.pipeline import serve
from chat.serializers import ChatCompletionRequestSerializer, ChatCompletionResponseSerializer
from core.asyncdb import in_caller_thread
from core.schema import error_responses

CHAT_EXAMPLE = OpenApiExample(
    "Persona chat",
    value={"persona_id": 1, "messages": [{"role": "user", "content": "How do I reverse a list?"}]},
    request_only=True,
)


class ChatCompletionsView(APIView):
    """General chat (POST /v1/chat/completions); with persona_id it is persona chat."""

    persona_required = False

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # POST: the pipeline authenticates, rate-limits and parses the request itself, as it
        # does under the gateway, which has no DRF; DRF's steps would run them twice. Other
        # methods (405, OPTIONS) get DRF's key check and rate limit like the rest of the API.
        if request.method != "POST":
            super().initial(request, *args, **kwargs)

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
    def post(self, request: Request) -> HttpResponseBase:
        # Django's handler sends the status line before the body starts: committed.
        return async_to_sync(serve)(
            request._request,
            persona_required=self.persona_required,
            db=in_caller_thread,
            committed=True,
        )


class PersonaChatCompletionsView(ChatCompletionsView):
    """Persona chat (POST /v1/agents/chat/completions): persona_id is required."""

    persona_required = True
