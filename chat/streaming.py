"""Server-sent events for streamed chat completions (spec 4.1 rule 2, contract §6).

An async generator end to end: no thread is held per stream. The charge runs in `finally`,
so a client that disconnects still pays for the tokens it was sent (contract §8).
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

from django.http import StreamingHttpResponse

from chat import settlement
from chat.services import ChatContext, ChatOutcome, context_numbers, estimated_usage
from core.errors import SERVER_ERROR_MESSAGE, ApiError, ServerError
from llm.providers import get_provider
from llm.types import Delta, Finish

logger = logging.getLogger(__name__)

DONE = b"data: [DONE]\n\n"


def _event(payload: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(payload, separators=(",", ":")).encode() + b"\n\n"


def _chunk(ctx: ChatContext, delta: dict[str, Any], finish_reason: str | None) -> dict[str, Any]:
    return {
        "id": ctx.completion_id,
        "object": "chat.completion.chunk",
        "created": ctx.created,
        "model": ctx.model.id,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


@dataclass
class OpenedStream:
    """A provider stream whose first event already arrived (see :func:`open_stream`)."""

    events: AsyncIterator[Delta | Finish]
    first: Delta | Finish


async def open_stream(ctx: ChatContext) -> OpenedStream:
    """Start generation and wait for its first event.

    Contract §6: errors found before generation starts are plain JSON responses, so an
    upstream that fails before sending anything raises here (502/504) instead of inside a
    200 event stream. Nothing was generated, so nothing is charged.
    """
    events = get_provider(ctx.model).stream(ctx.generation)
    try:
        first = await anext(events)
    except StopAsyncIteration:
        await events.aclose()  # type: ignore[attr-defined]
        raise ServerError(SERVER_ERROR_MESSAGE) from None
    except BaseException:
        await events.aclose()  # type: ignore[attr-defined]
        raise
    return OpenedStream(events=events, first=first)


async def _prepended(opened: OpenedStream) -> AsyncIterator[Delta | Finish]:
    # Closing this generator (client gone) must close the provider's stream, and with it
    # the upstream request.
    async with aclosing(opened.events) as events:  # type: ignore[type-var]
        yield opened.first
        async for event in events:
            yield event


async def stream_events(
    ctx: ChatContext, *, pooled: bool = False, opened: OpenedStream | None = None
) -> AsyncIterator[bytes]:
    """The SSE body. ``pooled``: record the chat on ``core.asyncdb``'s database threads
    (requests served under ASGI) rather than in the thread-sensitive executor. ``opened``:
    a stream already started by :func:`open_stream`."""
    yield _event(_chunk(ctx, {"role": "assistant", "content": ""}, None))
    parts: list[str] = []
    finish: Finish | None = None
    error: ApiError | None = None
    outcome: ChatOutcome | None = None
    source = (
        _prepended(opened) if opened is not None else get_provider(ctx.model).stream(ctx.generation)
    )
    try:
        async with aclosing(source) as events:  # type: ignore[type-var]
            async for event in events:
                if isinstance(event, Finish):
                    finish = event
                    continue
                delta: dict[str, Any] = {}
                if event.content:
                    parts.append(event.content)
                    delta["content"] = event.content
                if event.reasoning and not ctx.exclude_reasoning:
                    delta["reasoning_content"] = event.reasoning
                if delta:
                    yield _event(_chunk(ctx, delta, None))
    except ApiError as exc:
        error = exc
    finally:
        # Success, provider failure or client disconnect (GeneratorExit/CancelledError):
        # whatever was generated is saved and charged exactly once.
        text = "".join(parts)
        usage = finish.usage if finish is not None else estimated_usage(ctx, text)
        try:
            # Shielded: a client that leaves now cancels this request, never its charge.
            outcome = await settlement.record(
                ctx,
                content=text,
                usage=usage,
                completed=finish is not None and error is None,
                pooled=pooled,
            )
        except Exception:
            logger.exception("could not record a streamed chat")
            error = error or ServerError(SERVER_ERROR_MESSAGE)
    if error is not None or finish is None or outcome is None:
        failure = error or ServerError(SERVER_ERROR_MESSAGE)
        yield _event(failure.envelope())  # type: ignore[arg-type]
        yield DONE
        return
    last = _chunk(ctx, {}, finish.finish_reason)
    last["conversation_id"] = outcome.conversation_id
    yield _event(last)
    if ctx.include_usage:
        usage_chunk = _chunk(ctx, {}, None)
        usage_chunk["choices"] = []
        usage_chunk["usage"] = {
            "prompt_tokens": outcome.usage.prompt_tokens,
            "completion_tokens": outcome.usage.completion_tokens,
            "total_tokens": outcome.usage.total_tokens,
        }
        usage_chunk.update(context_numbers(ctx.model, outcome.usage))
        usage_chunk["conversation_id"] = outcome.conversation_id
        yield _event(usage_chunk)
    yield DONE


def sse_response(
    ctx: ChatContext, *, pooled: bool = False, opened: OpenedStream | None = None
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        stream_events(ctx, pooled=pooled, opened=opened), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events through as they come
    return response
