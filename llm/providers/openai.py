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
import weakref
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, NoReturn

import aiohttp

from core.errors import UpstreamError, UpstreamTimeout
from core.text import count_message_tokens, count_tokens
from llm.catalog import ModelSpec
from llm.types import (
    SAMPLING_FIELDS,
    Choice,
    Completion,
    Delta,
    Finish,
    GenerationRequest,
    Usage,
)

__all__ = ["OpenAIProvider", "aclose_clients", "build_payload"]

logger = logging.getLogger(__name__)

# Generous: one daphne process multiplexes many concurrent streams over this pool.
POOL_SIZE = 200
KEEPALIVE_SECONDS = 30
# The longest SSE line accepted from a provider (aiohttp's line limit is twice the buffer).
READ_BUFFER_BYTES = 2**20
USER_AGENT = "nova/0.1"

MSG_STATUS = "The model provider returned HTTP {status}."
MSG_TIMEOUT = "The model provider timed out."
MSG_CONNECT = "Could not connect to the model provider."
MSG_BROKEN = "The connection to the model provider failed."
MSG_MALFORMED = "The model provider returned a malformed response."
MSG_REPORTED = "The model provider reported an error."
MSG_INCOMPLETE = "The model provider ended the stream early."


# aiohttp sessions are bound to the event loop they were made on. daphne runs one loop per
# process for its whole life, but the test client and async_to_sync run short-lived loops, so
# the pool is kept per loop: a WeakKeyDictionary lets a finished loop take its sessions along.
@dataclass
class _LoopPool:
    sessions: dict[str, aiohttp.ClientSession] = dataclass_field(default_factory=dict)
    keeper: AsyncGenerator[None, None] | None = None


_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopPool] = (
    weakref.WeakKeyDictionary()
)


async def _close_at_loop_shutdown(pool: _LoopPool) -> AsyncGenerator[None, None]:
    """Suspended for the loop's life; ``loop.shutdown_asyncgens()``, which ``asyncio.run`` and
    asgiref call before closing a loop, resumes it into ``finally``: a short-lived loop closes
    its sessions instead of leaving them open (and warned about) when it is collected."""
    try:
        yield
    finally:
        await _close(pool)


async def _close(pool: _LoopPool) -> None:
    sessions = list(pool.sessions.values())
    pool.sessions.clear()
    for session in sessions:
        await session.close()


async def _client(base_url: str) -> aiohttp.ClientSession:
    """This event loop's pooled session for one provider (keep-alive connections reused)."""
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = _LoopPool()
        pool.keeper = _close_at_loop_shutdown(pool)
        await anext(pool.keeper)
    # Only this loop's thread reaches its pool, and nothing above awaits after the lookup: no
    # lock is needed.
    session = pool.sessions.get(base_url)
    if session is None or session.closed:
        session = pool.sessions[base_url] = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(
                limit=POOL_SIZE, keepalive_timeout=KEEPALIVE_SECONDS, ttl_dns_cache=300
            ),
            headers={"User-Agent": USER_AGENT},
            read_bufsize=READ_BUFFER_BYTES,
        )
    return session


async def aclose_clients() -> None:
    """Close this event loop's sessions now (tests, shutdown hooks)."""
    pool = _pools.get(asyncio.get_running_loop())
    if pool is not None:
        await _close(pool)


def _timeout(model: ModelSpec) -> aiohttp.ClientTimeout:
    # sock_read bounds the gap between bytes, so a long stream that keeps producing never
    # trips it; connect covers waiting for a pooled connection plus connecting.
    return aiohttp.ClientTimeout(
        total=None,
        connect=model.connect_timeout,
        sock_connect=model.connect_timeout,
        sock_read=model.read_timeout,
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
        # A reasoning field for a model without `reasoning` is accepted and not sent upstream
        # (docs/api.md, Models and providers).
        if field == "reasoning" and not model.reasoning:
            continue
        payload[field] = request.params[field]
    if stream:
        payload["stream"] = True
        payload["stream_options"] = {"include_usage": True}
    return payload


TRANSPORT_ERRORS = (aiohttp.ClientError, asyncio.TimeoutError)


def _raise_transport(exc: BaseException, model: ModelSpec) -> NoReturn:
    # Log the kind of failure and the model, never the request or response: both can carry
    # the key (headers) or the user's prompt.
    logger.warning("Upstream %s failed: %s", model.id, exc.__class__.__name__)
    if isinstance(exc, asyncio.TimeoutError):  # aiohttp's timeouts are TimeoutErrors too
        raise UpstreamTimeout(MSG_TIMEOUT) from None
    if isinstance(exc, aiohttp.ClientConnectorError):
        raise UpstreamError(MSG_CONNECT) from None
    raise UpstreamError(MSG_BROKEN) from None


def _raise_status(response: aiohttp.ClientResponse, model: ModelSpec) -> NoReturn:
    logger.warning("Upstream %s answered HTTP %s", model.id, response.status)
    raise UpstreamError(MSG_STATUS.format(status=response.status))


def _finish_reason(value: Any) -> str:
    # Nova's finish_reason is only stop or length; content_filter, tool_calls and friends all
    # mean "the model stopped".
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
        choices=[Choice(content=content, reasoning=reasoning, finish_reason=finish_reason)],
        usage=usage or _counted_usage(request, content, reasoning or ""),
    )


class OpenAIProvider:
    """One per base_url per process (``get_provider``); clients are pooled per event loop."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.url = f"{self.base_url}/chat/completions"

    async def _send(self, request: GenerationRequest, *, stream: bool) -> aiohttp.ClientResponse:
        """POST the request; the response once its status and headers have arrived.

        A provider may close an idle keep-alive connection just as the pool hands it out; the
        request then fails with ServerDisconnectedError before any response byte. That one
        case is retried once, on a new connection (as the openai SDK retries connection
        errors); timeouts, refused connections and failures after the status line are not.
        """
        model = request.model
        body = json.dumps(build_payload(request, stream=stream))
        headers = {**_headers(model, stream=stream), "Content-Type": "application/json"}
        for attempt in range(2):
            try:
                return await (await _client(self.base_url)).post(
                    self.url, data=body, headers=headers, timeout=_timeout(model)
                )
            except aiohttp.ServerDisconnectedError:
                if attempt == 1:
                    raise
                logger.info("Upstream %s closed a pooled connection; retrying once", model.id)
        raise AssertionError("unreachable")

    async def complete(self, request: GenerationRequest) -> Completion:
        model = request.model
        try:
            async with await self._send(request, stream=False) as response:
                if response.status >= 400:
                    _raise_status(response, model)
                body = await response.read()
        except TRANSPORT_ERRORS as exc:
            _raise_transport(exc, model)
        try:
            data = json.loads(body)
        except ValueError:
            raise UpstreamError(MSG_MALFORMED) from None
        return _parse_completion(request, data)

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Delta | Finish]:
        model = request.model
        content_parts: list[str] = []
        reasoning_parts: list[str] = []
        finish_reason: str | None = None
        usage: Usage | None = None
        done = False
        try:
            # Leaving this block (normally, on error, or because the caller stopped iterating
            # when its client disconnected) closes the response, which stops the upstream
            # generation instead of letting it run to the end unread.
            async with await self._send(request, stream=True) as response:
                if response.status >= 400:
                    _raise_status(response, model)
                async for raw in response.content:
                    line = raw.decode("utf-8", "replace").rstrip("\r\n")
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
        except TRANSPORT_ERRORS as exc:
            _raise_transport(exc, model)
        except ValueError:  # a line longer than READ_BUFFER_BYTES allows
            raise UpstreamError(MSG_MALFORMED) from None
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
