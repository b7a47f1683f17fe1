"""Routing: which deployment of which model answers a generation request.

The chat pipeline generates only through :func:`complete` and :func:`open_stream`. A catalog
model has one or more deployments; a request goes to a healthy one, failures that are worth
it (``llm.errors.UpstreamFailure.retryable``) are retried on another, a deployment that keeps
failing cools down, and when every deployment of a model failed its ``fallbacks`` are tried
in order. Nothing is retried once a stream's first event has been handed to the caller.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator

from llm.providers import get_provider
from llm.types import Completion, Delta, Finish, GenerationRequest, OpenedStream

__all__ = ["complete", "open_stream"]


async def complete(request: GenerationRequest) -> Completion:
    """The whole completion; ``Completion.model`` names a fallback model that answered."""
    return await get_provider(request.model).complete(request)


async def open_stream(request: GenerationRequest) -> OpenedStream:
    """A stream whose first event has arrived. Raises the request's ApiError when no
    deployment (nor fallback) produced one; the caller must close ``events``."""
    source = get_provider(request.model).stream(request)
    try:
        first = await anext(source)
    except BaseException:
        await source.aclose()  # type: ignore[attr-defined]
        raise
    return OpenedStream(model=request.model, events=_prepended(first, source))


async def _prepended(
    first: Delta | Finish, source: AsyncIterator[Delta | Finish]
) -> AsyncGenerator[Delta | Finish, None]:
    # Closing this generator (the client gone) closes the provider's stream, and with it the
    # upstream request.
    try:
        yield first
        async for event in source:
            yield event
    finally:
        await source.aclose()  # type: ignore[attr-defined]
