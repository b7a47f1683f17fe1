"""Any OpenAI-compatible chat API (vLLM, Ollama, llama.cpp server, OpenAI, OpenRouter).

This is the one module that talks HTTP to model providers. Every failure is an
``llm.errors.UpstreamFailure`` saying how the attempt failed (its ``kind``), so the router can
retry or fall back and then answer the client with ``client_error()``. Failure messages are
fixed sentences: an upstream body may echo our key or the prompt, so neither bodies nor keys
are ever put in a message or a log line. The upstream's own message and code for a request it
rejected are kept aside on the failure only when ``llm.errors.safe_upstream_message`` allows.

Requests carry the caller's fields as given (``PASSTHROUGH_FIELDS``); answers come back with
every choice (``n``), tool calls and logprobs relayed untouched.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import math
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import UTC, datetime
from typing import Any

import aiohttp

from core.text import count_message_tokens, count_tokens
from llm.catalog import ModelSpec
from llm.errors import (
    CLIENT_FAULT_STATUSES,
    FailureKind,
    UpstreamFailure,
    safe_upstream_code,
    safe_upstream_message,
    safe_upstream_param,
    upstream_failure,
)
from llm.types import (
    PASSTHROUGH_FIELDS,
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

# How much of an upstream error body is read for its message and code.
MAX_ERROR_BODY_BYTES = 64 * 1024
# The finish reasons relayed as they are; any other (or none) means the model stopped.
FINISH_REASONS = frozenset({"stop", "length", "tool_calls", "content_filter"})


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
    """The upstream JSON body: the messages and the caller's fields as given, nothing else."""
    model = request.model
    payload: dict[str, Any] = {"model": model.upstream_model, "messages": request.messages}
    for field in PASSTHROUGH_FIELDS:
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


def _transport_failure(exc: BaseException, model: ModelSpec, *, answered: bool) -> UpstreamFailure:
    """The failure for a transport error, before (``answered`` False) or after the response's
    status line arrived."""
    kind: FailureKind
    if isinstance(exc, aiohttp.ConnectionTimeoutError):
        kind, message = "connect_timeout", MSG_TIMEOUT
    elif isinstance(exc, asyncio.TimeoutError):  # aiohttp's read timeouts are TimeoutErrors
        kind, message = "read_timeout", MSG_TIMEOUT
    elif isinstance(exc, aiohttp.ClientConnectorError):
        kind, message = "connect", MSG_CONNECT
    elif not answered:
        kind, message = "dropped", MSG_BROKEN
    else:
        kind, message = "broken", MSG_BROKEN
    # Log the kind of failure and the model, never the request or response: both can carry
    # the key (headers) or the user's prompt.
    logger.warning("Upstream %s failed (%s): %s", model.id, kind, exc.__class__.__name__)
    return upstream_failure(message, kind=kind)


def _failure(model: ModelSpec, kind: FailureKind, message: str) -> UpstreamFailure:
    logger.warning("Upstream %s failed (%s)", model.id, kind)
    return upstream_failure(message, kind=kind)


def _malformed(model: ModelSpec) -> UpstreamFailure:
    return _failure(model, "malformed", MSG_MALFORMED)


async def _status_failure(
    response: aiohttp.ClientResponse, request: GenerationRequest
) -> UpstreamFailure:
    """An HTTP error status: its Retry-After, and the error body's message, code and param
    when they are safe to show a client. Only a status the client sees as its own 400 has its
    body read (the others answer with fixed messages: a retried 5xx costs no parsing). The
    body itself is never logged nor kept."""
    model = request.model
    status = response.status
    message = code = param = None
    if status in CLIENT_FAULT_STATUSES:
        try:
            body = await _read_at_most(response, MAX_ERROR_BODY_BYTES)
            message, code, param = _error_fields(json.loads(body))
        except (ValueError, *TRANSPORT_ERRORS):
            pass  # an unreadable or non-JSON body: the status says enough
    logger.warning("Upstream %s answered HTTP %s", model.id, status)
    key = model.api_key()
    return upstream_failure(
        MSG_STATUS.format(status=status),
        kind="status",
        status=status,
        retry_after=retry_after_of(response.headers),
        upstream_message=safe_upstream_message(
            message, secrets=[key] if key else [], request_texts=_strings(request.messages)
        ),
        upstream_code=safe_upstream_code(code),
        upstream_param=safe_upstream_param(param),
    )


async def _read_at_most(response: aiohttp.ClientResponse, limit: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    while size < limit:
        part = await response.content.read(limit - size)
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def _error_fields(data: Any) -> tuple[Any, Any, Any]:
    """(message, code, param) of an error body: OpenAI's ``{"error": {...}}``, vLLM's flat
    ``{"object": "error", "message", ...}``, or Ollama's ``{"error": "message"}``."""
    if not isinstance(data, dict):
        return None, None, None
    error = data.get("error")
    if isinstance(error, str):
        return error, None, None
    fields = error if isinstance(error, dict) else data
    return fields.get("message"), fields.get("code"), fields.get("param")


def retry_after_of(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from ``retry-after-ms`` (OpenAI's) or ``Retry-After`` (seconds or an
    HTTP date); None when neither is usable."""
    milliseconds = _number(headers.get("retry-after-ms"))
    if milliseconds is not None:
        return milliseconds / 1000
    value = (headers.get("Retry-After") or "").strip()
    if not value:
        return None
    seconds = _number(value)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _number(value: str | None) -> float | None:
    try:
        number = float(value) if value is not None else math.nan
    except ValueError:
        return None
    return number if math.isfinite(number) and number >= 0 else None


def _strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (the texts an upstream message could quote)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _finish_reason(value: Any) -> str:
    # Relayed when it is one of OpenAI's; any other reason means the model stopped.
    return value if value in FINISH_REASONS else "stop"


def _reasoning_of(part: dict[str, Any]) -> str | None:
    # vLLM and DeepSeek say reasoning_content, OpenRouter says reasoning.
    for field in ("reasoning_content", "reasoning"):
        value = part.get(field)
        if isinstance(value, str) and value:
            return value
    return None


def _logprobs_of(choice: dict[str, Any]) -> dict[str, Any] | None:
    # Relayed untouched when it is an object; anything else is not OpenAI's shape and dropped.
    logprobs = choice.get("logprobs")
    return logprobs if isinstance(logprobs, dict) else None


def _index_of(choice: dict[str, Any], position: int) -> int:
    # A choice without an index is the one at its position (a single-choice server).
    index = choice.get("index", position)
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise TypeError("index")
    return index


def _tool_calls_of(message: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A message's (or delta's) ``tool_calls``: a list of objects relayed as sent; an empty
    list (vLLM sends one with every message) is no calls."""
    calls = message.get("tool_calls")
    if calls is None:
        return None
    if not isinstance(calls, list) or not all(isinstance(call, dict) for call in calls):
        raise TypeError("tool_calls")
    return calls or None


def _tool_call_texts(calls: list[dict[str, Any]] | None) -> Iterator[tuple[Any, str, str]]:
    """(call index, "name" or "arguments", text) of tool calls or stream fragments, to count
    the tokens of."""
    for position, call in enumerate(calls or ()):
        function = call.get("function")
        if isinstance(function, dict):
            for field in ("name", "arguments"):
                if isinstance(function.get(field), str):
                    yield call.get("index", position), field, function[field]


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


class _Generated:
    """What the choices generated, in pieces, to count tokens of when the upstream gives no
    usage: each text is put together before counting, as a tokenizer sees it."""

    def __init__(self) -> None:
        self.parts: dict[tuple[Any, ...], list[str]] = {}

    def add(self, index: int, kind: str, text: str) -> None:
        if text:
            self.parts.setdefault((index, kind), []).append(text)

    def add_tool_calls(self, index: int, calls: list[dict[str, Any]] | None) -> None:
        for call, field, text in _tool_call_texts(calls):
            if text:
                self.parts.setdefault((index, "tool", repr(call), field), []).append(text)

    def usage(self, request: GenerationRequest) -> Usage:
        # Upstream gave no usage: count it ourselves rather than bill nothing.
        return Usage(
            prompt_tokens=count_message_tokens(request.messages),
            completion_tokens=sum(count_tokens("".join(part)) for part in self.parts.values()),
        )


def _parse_message_choice(choice: Any, position: int) -> Choice:
    if not isinstance(choice, dict):
        raise TypeError("choice")
    index = _index_of(choice, position)
    message = choice["message"]
    if not isinstance(message, dict):
        raise TypeError("message")
    tool_calls = _tool_calls_of(message)
    content = message.get("content")
    if content is None and not tool_calls:
        content = ""
    if content is not None and not isinstance(content, str):
        raise TypeError("content")
    return Choice(
        content=content,
        reasoning=_reasoning_of(message),
        finish_reason=_finish_reason(choice.get("finish_reason")),
        tool_calls=tool_calls,
        logprobs=_logprobs_of(choice),
        index=index,
    )


def _parse_completion(request: GenerationRequest, data: Any) -> Completion:
    try:
        raw_choices = data["choices"]
        if not isinstance(raw_choices, list) or not raw_choices:
            raise TypeError("choices")
        choices = [_parse_message_choice(choice, n) for n, choice in enumerate(raw_choices)]
        if len({choice.index for choice in choices}) != len(choices):
            raise TypeError("index")
        choices.sort(key=lambda choice: choice.index)
        usage = _usage_of(data)
    except (KeyError, IndexError, TypeError, AttributeError):
        raise _malformed(request.model) from None
    if usage is None:
        generated = _Generated()
        for choice in choices:
            generated.add(choice.index, "content", choice.content or "")
            generated.add(choice.index, "reasoning", choice.reasoning or "")
            generated.add_tool_calls(choice.index, choice.tool_calls)
        usage = generated.usage(request)
    return Completion(choices=choices, usage=usage)


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
        A failure here is before the answer's first byte (``connect``, ``dropped``, a timeout).
        """
        model = request.model
        body = json.dumps(build_payload(request, stream=stream))
        headers = {**_headers(model, stream=stream), "Content-Type": "application/json"}
        for attempt in range(2):
            try:
                return await (await _client(self.base_url)).post(
                    self.url, data=body, headers=headers, timeout=_timeout(model)
                )
            except aiohttp.ServerDisconnectedError as exc:
                if attempt == 1:
                    raise _transport_failure(exc, model, answered=False) from None
                logger.info("Upstream %s closed a pooled connection; retrying once", model.id)
            except TRANSPORT_ERRORS as exc:
                raise _transport_failure(exc, model, answered=False) from None
        raise AssertionError("unreachable")

    async def complete(self, request: GenerationRequest) -> Completion:
        model = request.model
        async with await self._send(request, stream=False) as response:
            if response.status >= 400:
                raise await _status_failure(response, request)
            try:
                body = await response.read()
            except TRANSPORT_ERRORS as exc:
                raise _transport_failure(exc, model, answered=True) from None
        try:
            data = json.loads(body)
        except ValueError:
            raise _malformed(model) from None
        return _parse_completion(request, data)

    async def stream(self, request: GenerationRequest) -> AsyncIterator[Delta | Finish]:
        model = request.model
        generated = _Generated()
        # Every choice seen, by index, with its finish_reason once it came.
        finishes: dict[int, str | None] = {}
        usage: Usage | None = None
        done = False
        # Leaving this block (normally, on error, or because the caller stopped iterating
        # when its client disconnected) closes the response, which stops the upstream
        # generation instead of letting it run to the end unread.
        async with await self._send(request, stream=True) as response:
            if response.status >= 400:
                raise await _status_failure(response, request)
            try:
                async for raw in response.content:
                    line = raw.decode("utf-8", "replace").rstrip("\r\n")
                    if not line.startswith("data:"):
                        # Blank separators, ": keep-alive" comments, event:/id: fields.
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        done = True
                        break
                    chunk = _parse_chunk(data, model)
                    chunk_usage = _usage_of(chunk)
                    if chunk_usage is not None:
                        usage = chunk_usage
                    for index, delta, finish in _parse_choices(chunk, model):
                        if finish is not None or index not in finishes:
                            finishes[index] = finish
                        if delta is not None:
                            generated.add(index, "content", delta.content)
                            generated.add(index, "reasoning", delta.reasoning)
                            generated.add_tool_calls(index, delta.tool_calls)
                            yield delta
            except TRANSPORT_ERRORS as exc:
                raise _transport_failure(exc, model, answered=True) from None
            except ValueError:  # a line longer than READ_BUFFER_BYTES allows
                raise _malformed(model) from None
        if not done and (not finishes or None in finishes.values()):
            # The body ended cleanly but mid-answer: a proxy or server cut it short.
            raise _failure(model, "broken", MSG_INCOMPLETE)
        reasons = {index: finish or "stop" for index, finish in sorted(finishes.items())}
        yield Finish(
            finish_reason=reasons.get(0) or next(iter(reasons.values()), "stop"),
            usage=usage or generated.usage(request),
            finish_reasons=reasons if set(reasons) - {0} else None,
        )


def _parse_chunk(data: str, model: ModelSpec) -> dict[str, Any]:
    try:
        chunk = json.loads(data)
    except ValueError:
        raise _malformed(model) from None
    if not isinstance(chunk, dict):
        raise _malformed(model)
    if "error" in chunk:
        # OpenRouter reports failures after the first byte as an error chunk.
        raise _failure(model, "broken", MSG_REPORTED)
    return chunk


def _parse_choices(
    chunk: dict[str, Any], model: ModelSpec
) -> list[tuple[int, Delta | None, str | None]]:
    """(index, fragment or None, finish_reason or None) of each choice in one chunk; the usage
    chunk has none. A fragment is yielded when it carries content, reasoning, tool-call
    fragments or logprobs."""
    choices = chunk.get("choices")
    if choices is None or choices == []:
        return []
    parsed: list[tuple[int, Delta | None, str | None]] = []
    try:
        if not isinstance(choices, list):
            raise TypeError("choices")
        for position, choice in enumerate(choices):
            if not isinstance(choice, dict):
                raise TypeError("choice")
            index = _index_of(choice, position)
            delta = choice.get("delta") or {}
            if not isinstance(delta, dict):
                raise TypeError("delta")
            content = delta.get("content") or ""
            if not isinstance(content, str):
                raise TypeError("content")
            reasoning = _reasoning_of(delta) or ""
            tool_calls = _fragments_of(delta)
            logprobs = _logprobs_of(choice)
            if logprobs is not None and not any(logprobs.values()):
                logprobs = None  # {"content": null} or {"content": []}: nothing to relay
            raw_finish = choice.get("finish_reason")
            finish = _finish_reason(raw_finish) if raw_finish else None
            carries = content or reasoning or tool_calls or logprobs
            fragment = (
                Delta(
                    content=content,
                    reasoning=reasoning,
                    tool_calls=tool_calls,
                    logprobs=logprobs,
                    index=index,
                )
                if carries
                else None
            )
            parsed.append((index, fragment, finish))
    except (KeyError, IndexError, TypeError, AttributeError):
        raise _malformed(model) from None
    return parsed


def _fragments_of(delta: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A delta's ``tool_calls`` fragments as sent; one without an ``index`` (some servers
    omit it) gets its position, which OpenAI clients need to put the calls together."""
    fragments = _tool_calls_of(delta)
    if fragments is None:
        return None
    return [
        fragment if "index" in fragment else {**fragment, "index": position}
        for position, fragment in enumerate(fragments)
    ]
