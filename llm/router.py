"""Routing: which deployment of which model answers a generation request.

The chat pipeline generates only through :func:`complete` and :func:`open_stream`. A catalog
model has one or more deployments; a request goes to a healthy one (``llm.health``), failures
that are worth it (``llm.errors.UpstreamFailure.retryable``) are retried on another, a
deployment that keeps failing cools down, and when every deployment of a model failed its
``fallbacks`` are tried in order. Nothing is retried once a stream's first event has been
handed to the caller. The rules are in docs/api.md, Models and providers.

A model with one deployment and no fallback (``ModelSpec.routed`` false) goes straight to its
provider: no shared state is read, and only a failure worth a retry costs anything more.

Every attempt is logged on ``llm.router`` (INFO): the model, the deployment's host, the outcome
or upstream status, the latency and the retry number; never a body or a key.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from core.errors import UpstreamError
from llm.capabilities import check_capabilities
from llm.catalog import ModelSpec, get_catalog
from llm.errors import UnsupportedRequest, UpstreamFailure
from llm.health import health
from llm.providers import get_provider
from llm.types import Completion, Delta, Finish, GenerationRequest, OpenedStream

__all__ = ["MAX_WAIT_SECONDS", "complete", "open_stream"]

logger = logging.getLogger(__name__)

# The longest wait before a retry: an upstream asking for more (Retry-After) with no other
# deployment to go to ends the attempts on that model instead.
MAX_WAIT_SECONDS = 10.0
# Full-jitter exponential back-off: the n-th retry waits up to BACKOFF_BASE * 2**n seconds.
BACKOFF_BASE = 0.1
BACKOFF_CAP = 2.0

T = TypeVar("T")
_Attempt = Callable[[GenerationRequest], Awaitable[T]]


class _Exhausted(Exception):
    """Every deployment of one model failed or is unavailable; ``failure`` is the last failure
    (None when none was tried)."""

    def __init__(self, failure: UpstreamFailure | None) -> None:
        super().__init__()
        self.failure = failure


async def complete(request: GenerationRequest) -> Completion:
    """The whole completion; ``Completion.model`` names a fallback model that answered."""
    completion, model, index, answering = await _route(request, _complete_attempt)
    health.finished(model, index, failed=False, tokens=completion.usage.total_tokens)
    if answering is not request.model:
        completion.model = answering
    return completion


async def open_stream(request: GenerationRequest) -> OpenedStream:
    """A stream whose first event has arrived. Raises the request's ApiError when no
    deployment (nor fallback) produced one; the caller must close ``events``."""
    (first, source), model, index, answering = await _route(request, _stream_attempt)
    return OpenedStream(model=answering, events=_Prepended(first, source, model, index))


async def _complete_attempt(request: GenerationRequest) -> Completion:
    return await get_provider(request.model).complete(request)


async def _stream_attempt(
    request: GenerationRequest,
) -> tuple[Delta | Finish, AsyncIterator[Delta | Finish]]:
    source = get_provider(request.model).stream(request)
    try:
        first = await anext(source)
    except BaseException:
        await source.aclose()  # type: ignore[attr-defined]
        raise
    return first, source


class _Prepended:
    """The stream from its first event on (already received), for the caller to iterate.

    ``aclose`` closes the provider's stream (and with it the upstream request) and ends the
    deployment's in-flight count, exactly once, even when the caller closes it before reading
    anything: an async generator closed before its first step would skip its ``finally``.
    A failure while iterating is the caller's: the client already has tokens.
    """

    def __init__(
        self, first: Delta | Finish, source: AsyncIterator[Delta | Finish], model: ModelSpec,
        index: int,
    ) -> None:  # fmt: skip
        self._first: Delta | Finish | None = first
        self._source = source
        self._model = model
        self._index = index
        self._tokens = 0
        self._closed = False

    def __aiter__(self) -> _Prepended:
        return self

    async def __anext__(self) -> Delta | Finish:
        if self._first is not None:
            event, self._first = self._first, None
        else:
            event = await anext(self._source)
        if isinstance(event, Finish):
            self._tokens = event.usage.total_tokens
        return event

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self._source.aclose()  # type: ignore[attr-defined]
        finally:
            health.finished(self._model, self._index, failed=False, tokens=self._tokens)


async def _route(
    request: GenerationRequest, attempt: _Attempt[T]
) -> tuple[T, ModelSpec, int, ModelSpec]:
    """``attempt`` on the request's model, then on each fallback that can take the request.

    Returns the result, the model and deployment index whose health must be told when the
    result is done with (``health.finished``), and the catalog model that answered.
    """
    model = request.model
    if not model.routed:
        try:
            result, index = await _on_model(request, attempt)
        except _Exhausted as exc:
            assert exc.failure is not None  # an unrouted model's only deployment is always tried
            raise exc.failure.client_error() from None
        return result, model, index, model

    last: UpstreamFailure | None = None
    for candidate in candidates(request):
        sub = request if candidate is model else replace(request, model=candidate)
        try:
            result, index = await _on_model(sub, attempt)
        except _Exhausted as exc:
            last = exc.failure or last
            continue
        return result, candidate, index, candidate
    if last is None:
        # Nothing was tried: every deployment (and fallback) is cooling down or at its limits.
        # Try the model's deployments anyway rather than refuse a request nobody has seen fail.
        try:
            result, index = await _on_model(request, attempt, ignore_health=True)
        except _Exhausted as exc:
            assert exc.failure is not None
            raise exc.failure.client_error() from None
        return result, model, index, model
    raise last.client_error() from None


def candidates(request: GenerationRequest) -> list[ModelSpec]:
    """The request's model, then its fallbacks that can take this request: the request's own
    model was checked before generation (a 400 there), a fallback is checked here against
    everything it would be sent, and skipped rather than sent something it would refuse or
    drop (n choices from a model that gives one, tool messages to a model without tools, a
    prompt that leaves no room for a reply in its context window, the rule the request's own
    model was held to)."""
    catalog = get_catalog()
    models = [request.model]
    for model_id in request.model.fallbacks:
        fallback = catalog.get(model_id)
        if fallback is None:
            continue
        if request.prompt_tokens is not None and request.prompt_tokens >= fallback.context_window:
            continue
        try:
            check_capabilities(fallback, messages=request.messages, params=request.params)
        except UnsupportedRequest:
            continue
        models.append(fallback)
    return models


async def _on_model(
    request: GenerationRequest, attempt: _Attempt[T], *, ignore_health: bool = False
) -> tuple[T, int]:
    """``attempt`` on the deployments of ``request.model``, retrying what is worth it.

    Returns the result and the deployment's index (still counted in flight). Raises
    ``_Exhausted`` when the retries are used up or no deployment can take the request, and the
    failure's client error at once when it is not worth a retry (a 400: another deployment
    would refuse it too).
    """
    model = request.model
    routes = model.routes
    use_health = model.routed and not ignore_health
    tried: set[int] = set()
    index = _choose(model, tried, use_health)
    if index is None:
        raise _Exhausted(None)
    retry = 0
    while True:
        spec = routes[index][1]
        sub = request if spec is model else replace(request, model=spec)
        health.started(model, index)
        started = time.monotonic()
        try:
            result = await attempt(sub)
        except UpstreamFailure as failure:
            health.finished(model, index, failed=failure.retryable)
            _log(model, index, started, retry, failure)
            if not failure.retryable:
                raise failure.client_error() from None
            if retry >= model.retries:
                raise _Exhausted(failure) from None
            tried.add(index)
            following = _choose(model, tried, use_health)
            if following is None:
                raise _Exhausted(failure) from None
            wait = _backoff(retry)
            if following == index and failure.retry_after is not None:
                # Only this deployment is left: it said when to come back.
                if failure.retry_after > MAX_WAIT_SECONDS:
                    raise _Exhausted(failure) from None
                wait = max(wait, failure.retry_after)
            await asyncio.sleep(wait)
            index = following
            retry += 1
            continue
        except UpstreamError as error:
            # A provider error without a kind (not an UpstreamFailure) is not worth a retry.
            health.finished(model, index, failed=False)
            _log(model, index, started, retry, error)
            raise
        except BaseException:
            health.finished(model, index, failed=False)
            raise
        if logger.isEnabledFor(logging.INFO):
            _log(model, index, started, retry, None)
        return result, index


def _choose(model: ModelSpec, tried: set[int], use_health: bool) -> int | None:
    """The deployment for the next attempt: among those available (not cooling down, under
    their limits), the ones not tried yet if any; among those, the ones with the fewest
    requests in flight in this process; among those, one at random by weight."""
    routes = model.routes
    if len(routes) == 1:
        if use_health and not health.available(model)[0]:
            return None
        return 0
    available = health.available(model) if use_health else [True] * len(routes)
    candidates = [index for index in range(len(routes)) if available[index]]
    if not candidates:
        return None
    untried = [index for index in candidates if index not in tried]
    pool = untried or candidates
    loads = [health.in_flight(model, index) for index in pool]
    fewest = min(loads)
    pool = [index for index, load in zip(pool, loads, strict=True) if load == fewest]
    if len(pool) == 1:
        return pool[0]
    weights = [routes[index][0].weight for index in pool]
    return random.choices(pool, weights=weights)[0]


def _backoff(retry: int) -> float:
    return random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**retry))


def _log(
    model: ModelSpec,
    index: int,
    started: float,
    retry: int,
    error: UpstreamError | None,
) -> None:
    latency_ms = round((time.monotonic() - started) * 1000)
    deployment = model.routes[index][0].name
    if error is None:
        outcome = "ok"
        status: int | None = None
    elif isinstance(error, UpstreamFailure):
        outcome = error.kind
        status = error.upstream_status
    else:
        outcome = "error"
        status = None
    level = logging.INFO if error is None else logging.WARNING
    logger.log(
        level,
        "upstream attempt model=%s deployment=%s outcome=%s status=%s latency_ms=%d retry=%d",
        model.id,
        deployment,
        outcome,
        status if status is not None else "-",
        latency_ms,
        retry,
        extra={
            "model": model.id,
            "deployment": deployment,
            "outcome": outcome,
            "upstream_status": status,
            "latency_ms": latency_ms,
            "retry": retry,
        },
    )
