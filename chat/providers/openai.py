"""Any OpenAI-compatible chat API (vLLM, Ollama, llama.cpp server, OpenAI, OpenRouter).

This is the one module that talks HTTP to model providers, and ``UpstreamError`` (502) /
``UpstreamTimeout`` (504) are the only errors it raises. Their messages are fixed sentences:
an upstream body may echo our key or the prompt, so neither bodies nor keys are ever put in
a message or a log line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import weakref
from collections.abc import AsyncIterator
from typing import Any, NoReturn

import httpx

from chat.catalog import ModelSpec
from chat.providers.base import (
    SAMPLING_FIELDS,
    Completion,
    Delta,
    Finish,
    GenerationRequest,
    Usage,
)
from core.errors import UpstreamError, UpstreamTimeout
from core.text import count_message_tokens, count_tokens

__all__ = ["OpenAIProvider", "aclose_clients", "build_payload"]

logger = logging.getLogger(__name__)

# Generous: one daphne process multiplexes many concurrent streams over this pool.
POOL_LIMITS = httpx.Limits(max_connections=200, max_keepalive_connections=50, keepalive_expiry=30)
USER_AGENT = "nova/0.1"

MSG_STATUS = "The model provider returned HTTP {status}."
MSG_TIMEOUT = "The model provider timed out."
MSG_CONNECT = "Could not connect to the model provider."
MSG_BROKEN = "The connection to the model provider failed."
MSG_MALFORMED = "The model provider returned a malformed response."
MSG_REPORTED = "The model provider reported an error."
MSG_INCOMPLETE = "The model provider ended the stream early."

# httpx clients are bound to the event loop they first ran on. daphne runs one loop per
# process, but tests and async_to_sync create others, so the pool is kept per loop: a
# WeakKeyDictionary lets a finished loop take its clients with it.
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, httpx.AsyncClient]] = (
    weakref.WeakKeyDictionary()
)
_clients_lock = threading.Lock()


def _client(base_url: str) -> httpx.AsyncClient:
    loop = asyncio.get_running_loop()
    with _clients_lock:
        per_loop = _clients.get(loop)
        if per_loop is None:
            per_loop = _clients[loop] = {}
        client = per_loop.get(base_url)
        if client is None or client.is_closed:
            client = per_loop[base_url] = httpx.AsyncClient(
                limits=POOL_LIMITS,
                headers={"User-Agent": USER_AGENT},
                follow_redirects=False,
            )
    return client


async def aclose_clients() -> None:
    """Close this event loop's clients (tests, shutdown hooks)."""
    loop = asyncio.get_running_loop()
    with _clients_lock:
        per_loop = _clients.pop(loop, {})
    for client in per_loop.values():
        await client.aclose()


def _timeout(model: ModelSpec) -> httpx.Timeout:
    # read bounds the gap between bytes, so a long stream that keeps producing never trips it.
    return httpx.Timeout(
        connect=model.connect_timeout,
        read=model.read_timeout,
        write=model.read_timeout,
        pool=model.connect_timeout,
    )


def _headers(model: ModelSpec, *, stream: bool) -> dict[str, str]:
    headers = {"Accept": "text/event-stream" if stream else "application/json"}
    key = model.api_key()
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return headers


def build_payload(request: GenerationRequest, *, stream: bool) -> dict[str, Any]:
    """The upstream JSON body: the caller's sampling fields as given, and nothing else."""
    model = request.model
    payload: dict[str, Any] = {"model": model.upstream_model, "messages": request.messages}
    for field in SAMPLING_FIELDS:
        if field not in request.params:
            continue
        # contract §7: a reasoning field sent to a model without `reasoning` is ignored.
        if field == "reasoning" and not model.reasoning:
            continue
        payload[field] = request.params[field]
    if stream:
        payload["stream"] = True
        payload["stream_options"] = {"include_usage": True}
    return payload


def _raise_transport(exc: httpx.HTTPError, model: ModelSpec) -> NoReturn:
    # Log the kind of failure and the model, never the request or response: both can carry
    # the key (headers) or the user's prompt.
    logger.warning("Upstream %s failed: %s", model.id, exc.__class__.__name__)
    if isinstance(exc, httpx.TimeoutException):
        raise UpstreamTimeout(MSG_TIMEOUT) from None
    if isinstance(exc, httpx.ConnectError):
        raise UpstreamError(MSG_CONNECT) from None
    raise UpstreamError(MSG_BROKEN) from None


def _raise_status(response: httpx.Response, model: ModelSpec) -> NoReturn:
    logger.warning("Upstream %s answered HTTP %s", model.id, response.status_code)
    raise UpstreamError(MSG_STATUS.format(status=response.status_code))


def _finish_reason(value: Any) -> str:
    # Nova reports only stop and length (contract §6); content_filter, tool_calls and friends
    # all mean "the model stopped".
    return "length" if value == "length" else "stop"


def _reasoning_of(part: dict[str, Any]) -> str | None:
    # vLLM and DeepSeek say reasoning_content, OpenRouter says reasoning.
    for field in ("reasoning_content", "reasoning"):
        value = part.get(field)
        if isinstance(value, str) and value:
            return value
    return None


def _usage_of(data: dict[str, Any]) -> Usage | None:
    usage = data.get("usage")
    if not isinstance(usage, dict):
        return None
    prompt = usage.get("prompt_tokens")
    completion = usage.get("completion_tokens")
    for value in (prompt, completion):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return None
    assert isinstance(prompt, int) and isinstance(completion, int)
    return Usage(prompt_tokens=prompt, completion_tokens=completion)


def _counted_usage(request: GenerationRequest, content: str, reasoning: str) -> Usage:
    # Upstream gave no usage: count it ourselves rather than bill nothing.
    return Usage(
        prompt_tokens=count_message_tokens(request.messages),
        completion_tokens=count_tokens(content) + count_tokens(reasoning),
    )


def _parse_completion(request: GenerationRequest, data: Any) -> Completion:
    try:
        choice = data["choices"][0]
        message = choice["message"]
        content = message.get("content")
        if content is None:
            content = ""
        if not isinstance(content, str):
            raise TypeError("content")
        reasoning = _reasoning_of(message)
        finish_reason = _finish_reason(choice.get("finish_reason"))
        usage = _usage_of(data)
    except (KeyError, IndexError, TypeError, AttributeError):
        raise UpstreamError(MSG_MALFORMED) from None
    return Completion(
        content=content,
        reasoning=reasoning,
        finish_reason=finish_reason,
        usage=usage or _counted_usage(request, content, reasoning or ""),
    )


class OpenAIProvider:
    """One per base_url per process (``get_provider``); clients are pooled per event loop."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.url = f"{self.base_url}/chat/completions"

    async def complete(self, request: GenerationRequest) -> Completion:
        model = request.model
        try:
            response = await _client(self.base_url).post(
                self.url,
                json=build_payload(request, stream=False),
                headers=_headers(model, stream=False),
                timeout=_timeout(model),
            )
        except httpx.HTTPError as exc:
            _raise_transport(exc, model)
        if response.status_code >= 400:
            _raise_status(response, model)
        try:
            data = response.json()
        except ValueError:
            raise UpstreamError(MSG_MALFORMED) from None
        return _parse_completion(request, data)

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Delta | Finish]:
        model = request.model
        client = _client(self.base_url)
        content_parts: list[str] = []
        reasoning_parts: list[str] = []
        finish_reason: str | None = None
        usage: Usage | None = None
        done = False
        try:
            # Leaving this block (normally, on error, or because the caller stopped iterating
            # when its client disconnected) closes the response, which stops the upstream
            # generation instead of letting it run to the end unread.
            async with client.stream(
                "POST",
                self.url,
                json=build_payload(request, stream=True),
                headers=_headers(model, stream=True),
                timeout=_timeout(model),
            ) as response:
                if response.status_code >= 400:
                    await response.aclose()
                    _raise_status(response, model)
                async for line in response.aiter_lines():
                    if not line.startswith("data:"):
                        # Blank separators, ": keep-alive" comments, event:/id: fields.
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        done = True
                        break
                    chunk = _parse_chunk(data)
                    chunk_usage = _usage_of(chunk)
                    if chunk_usage is not None:
                        usage = chunk_usage
                    delta, chunk_finish = _parse_choice(chunk)
                    if chunk_finish is not None:
                        finish_reason = chunk_finish
                    if delta is not None:
                        content_parts.append(delta.content)
                        reasoning_parts.append(delta.reasoning)
                        yield delta
        except httpx.HTTPError as exc:
            _raise_transport(exc, model)
        if not done and finish_reason is None:
            # The body ended cleanly but mid-answer: a proxy or server cut it short.
            raise UpstreamError(MSG_INCOMPLETE)
        yield Finish(
            finish_reason=finish_reason or "stop",
            usage=usage
            or _counted_usage(request, "".join(content_parts), "".join(reasoning_parts)),
        )


def _parse_chunk(data: str) -> dict[str, Any]:
    try:
        chunk = json.loads(data)
    except ValueError:
        raise UpstreamError(MSG_MALFORMED) from None
    if not isinstance(chunk, dict):
        raise UpstreamError(MSG_MALFORMED)
    if "error" in chunk:
        # OpenRouter reports failures after the first byte as an error chunk.
        raise UpstreamError(MSG_REPORTED)
    return chunk


def _parse_choice(chunk: dict[str, Any]) -> tuple[Delta | None, str | None]:
    """The content/reasoning fragment and finish_reason of one chunk (the usage chunk has no
    choices)."""
    choices = chunk.get("choices")
    if choices is None or choices == []:
        return None, None
    try:
        choice = choices[0]
        delta = choice.get("delta") or {}
        content = delta.get("content") or ""
        if not isinstance(content, str):
            raise TypeError("content")
        reasoning = _reasoning_of(delta) or ""
        raw_finish = choice.get("finish_reason")
    except (KeyError, IndexError, TypeError, AttributeError):
        raise UpstreamError(MSG_MALFORMED) from None
    finish = _finish_reason(raw_finish) if raw_finish else None
    if not content and not reasoning:
        return None, finish
    return Delta(content=content, reasoning=reasoning), finish
