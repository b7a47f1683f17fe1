from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiKey
from chat.catalog import get_catalog
from chat.providers.base import get_provider
from chat.serializers import (
    ChatCompletionRequestSerializer,
    ChatCompletionResponseSerializer,
    ModelListSerializer,
)
from chat.services import ChatContext, completion_body, finish_chat, prepare_chat
from chat.streaming import sse_response
from conversations.models import Conversation
from core.schema import error_responses

CHAT_EXAMPLE = OpenApiExample(
    "Persona chat",
    value={"persona_id": 1, "messages": [{"role": "user", "content": "How do I reverse a list?"}]},
    request_only=True,
)


def run_completion(ctx: ChatContext) -> dict[str, Any]:
    """Generate a whole reply, then save and charge it. Upstream errors charge nothing."""
    completion = async_to_sync(get_provider(ctx.model).complete)(ctx.generation)
    outcome = finish_chat(ctx, content=completion.content, usage=completion.usage, completed=True)
    return completion_body(
        ctx,
        content=completion.content,
        reasoning=completion.reasoning,
        finish_reason=completion.finish_reason,
        outcome=outcome,
    )


class ChatCompletionsView(APIView):
    """General chat (POST /v1/chat/completions); with persona_id it is persona chat."""

    persona_required = False

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
        serializer = ChatCompletionRequestSerializer(
            data=request.data, persona_required=self.persona_required
        )
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        key = request.auth
        assert isinstance(key, ApiKey)
        persona_chat = "persona_id" in data
        ctx = prepare_chat(
            user=request.user,  # type: ignore[arg-type]
            api_key=key,
            data=data,
            save=key.detailed_logging,
            mode=Conversation.Mode.API_AGENTS if persona_chat else Conversation.Mode.API,
        )
        if ctx.stream:
            return sse_response(ctx)
        return Response(run_completion(ctx))


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
