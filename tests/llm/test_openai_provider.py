"""The OpenAI-compatible provider against a real HTTP server on loopback (no mocks)."""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import pytest

from core.errors import UpstreamError, UpstreamTimeout
from core.text import count_message_tokens, count_tokens
from llm.catalog import ModelSpec
from llm.providers import get_provider
from llm.providers.openai import OpenAIProvider, _client
from llm.types import (
    Choice,
    Completion,
    Delta,
    Finish,
    GenerationRequest,
    Usage,
)
from tests.fake_upstream import SECRET_IN_ERROR_BODY, running_fake_upstream
from tests.llm.helpers import UPSTREAM_KEY, complete, run, spec, stream, stream_failure

MESSAGES = [
    {"role": "system", "content": "You are a test persona."},
    {"role": "user", "content": "Say hello."},
]
EVERY_SAMPLING_FIELD = {
    "temperature": 0.3,
    "max_tokens": 64,
    "top_k": 40,
    "min_p": 0.05,
    "repetition_penalty": 1.1,
    "seed": 1234,
    "stop": ["\n\n", "END"],
    "reasoning": {"effort": "high", "max_tokens": 256, "exclude": False, "enabled": True},
}


def request(model: ModelSpec, **params: Any) -> GenerationRequest:
    return GenerationRequest(model=model, messages=list(MESSAGES), params=params)


def content_of(events: list[Delta | Finish]) -> str:
    return "".join(event.content for event in events if isinstance(event, Delta))


# --- what goes upstream ---


def test_sends_every_sampling_field_as_given(upstream, model):
    complete(request(model, **EVERY_SAMPLING_FIELD))
    assert upstream.bodies == [{"model": "fake", "messages": MESSAGES, **EVERY_SAMPLING_FIELD}]


def test_sends_nothing_the_caller_did_not_give(upstream, model):
    complete(request(model))
    assert upstream.bodies == [{"model": "fake", "messages": MESSAGES}]


def test_sends_only_the_fields_given(upstream, model):
    complete(request(model, seed=7, stop="END"))
    assert upstream.bodies == [{"model": "fake", "messages": MESSAGES, "seed": 7, "stop": "END"}]


def test_ignores_unknown_params(upstream, model):
    complete(request(model, temperature=0, persona_id=1, stream=False))
    assert upstream.bodies == [{"model": "fake", "messages": MESSAGES, "temperature": 0}]


def test_drops_reasoning_for_a_model_without_reasoning(upstream, model):
    plain = spec(upstream.url, reasoning=False)
    complete(request(plain, reasoning={"effort": "low"}, temperature=1))
    assert upstream.bodies == [{"model": "fake", "messages": MESSAGES, "temperature": 1}]


def test_sends_multipart_content_unchanged(upstream, model):
    parts = [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
    ]
    req = GenerationRequest(model=model, messages=[{"role": "user", "content": parts}], params={})
    complete(req)
    assert upstream.bodies[0]["messages"] == [{"role": "user", "content": parts}]


def test_posts_to_chat_completions_with_the_bearer_key(upstream, model):
    complete(request(model))
    (received,) = upstream.requests
    assert (received.method, received.path) == ("POST", "/v1/chat/completions")
    assert received.headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert received.headers["content-type"] == "application/json"


def test_sends_no_authorization_when_the_key_variable_is_unset(upstream, model, monkeypatch):
    monkeypatch.delenv("FAKE_UPSTREAM_KEY")
    complete(request(model))
    assert "authorization" not in upstream.requests[0].headers


def test_sends_no_authorization_without_api_key_env(upstream):
    complete(request(spec(upstream.url, api_key_env=None)))
    assert "authorization" not in upstream.requests[0].headers


def test_stream_asks_for_usage_upstream(upstream, model):
    stream(request(model, temperature=0.5))
    assert upstream.bodies == [
        {
            "model": "fake",
            "messages": MESSAGES,
            "temperature": 0.5,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
    ]


# --- what comes back: non-streamed ---


def test_complete_returns_content_and_upstream_usage(upstream, model):
    upstream.script(reply="Hello, world!", usage=(21, 4))
    assert complete(request(model)) == Completion(
        choices=[Choice(content="Hello, world!", reasoning=None, finish_reason="stop")],
        usage=Usage(prompt_tokens=21, completion_tokens=4),
    )


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_complete_maps_reasoning_back(upstream, model, field):
    upstream.script(reply="42", reasoning="Six times seven.", reasoning_field=field)
    assert complete(request(model)).reasoning == "Six times seven."


@pytest.mark.parametrize(
    ("upstream_reason", "reason"),
    [
        ("stop", "stop"),
        ("length", "length"),
        ("content_filter", "content_filter"),
        ("tool_calls", "tool_calls"),
        ("function_call", "stop"),
        ("eos", "stop"),
    ],
)
def test_complete_maps_finish_reason(upstream, model, upstream_reason, reason):
    upstream.script(finish_reason=upstream_reason)
    assert complete(request(model)).finish_reason == reason


def test_complete_counts_usage_when_upstream_gives_none(upstream, model):
    upstream.script(reply="Counted by Nova.", usage=None)
    assert complete(request(model)).usage == Usage(
        prompt_tokens=count_message_tokens(MESSAGES),
        completion_tokens=count_tokens("Counted by Nova."),
    )


# --- what comes back: streamed ---


def test_stream_yields_fragments_then_finish_with_upstream_usage(upstream, model):
    upstream.script(reply="Hello, streaming world!", stream_chunk_chars=5, usage=(30, 8))
    events = stream(request(model))
    assert events == [
        Delta(content="Hello"),
        Delta(content=", str"),
        Delta(content="eamin"),
        Delta(content="g wor"),
        Delta(content="ld!"),
        Finish(finish_reason="stop", usage=Usage(prompt_tokens=30, completion_tokens=8)),
    ]


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_stream_maps_reasoning_fragments_back(upstream, model, field):
    upstream.script(reply="42", reasoning="Think.", reasoning_field=field, stream_chunk_chars=3)
    events = stream(request(model))
    assert events[:3] == [Delta(reasoning="Thi"), Delta(reasoning="nk."), Delta(content="42")]
    assert isinstance(events[-1], Finish)


def test_stream_reports_length(upstream, model):
    upstream.script(finish_reason="length")
    assert stream(request(model))[-1].finish_reason == "length"  # type: ignore[union-attr]


def test_stream_counts_usage_when_upstream_gives_none(upstream, model):
    upstream.script(reply="No usage from upstream here.", usage=None)
    events = stream(request(model))
    assert content_of(events) == "No usage from upstream here."
    assert events[-1] == Finish(
        finish_reason="stop",
        usage=Usage(
            prompt_tokens=count_message_tokens(MESSAGES),
            completion_tokens=count_tokens("No usage from upstream here."),
        ),
    )


def test_stream_with_chunk_delay_arrives_in_pieces(upstream, model):
    upstream.script(reply="slow and steady", stream_chunk_chars=5, chunk_delay=0.02)
    started = time.perf_counter()
    events = stream(request(model))
    assert content_of(events) == "slow and steady"
    assert time.perf_counter() - started >= 0.05


def test_stopping_a_stream_early_closes_the_upstream_request(upstream, model):
    upstream.script(reply="x" * 400, stream_chunk_chars=2, chunk_delay=0.01)

    async def take_two() -> list[Delta | Finish]:
        events: list[Delta | Finish] = []
        iterator = get_provider(model).stream(request(model))
        async for event in iterator:
            events.append(event)
            if len(events) == 2:
                break
        await iterator.aclose()  # type: ignore[attr-defined]
        return events

    assert len(run(take_two)) == 2
    deadline = time.monotonic() + 3
    while upstream.disconnects == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert upstream.disconnects >= 1


# --- failures ---


def assert_no_leak(error: UpstreamError) -> None:
    text = f"{error} {error.message} {error.envelope()}"
    assert SECRET_IN_ERROR_BODY not in text
    assert UPSTREAM_KEY not in text
    assert "Internal failure" not in text


def test_upstream_500_is_a_502_without_the_body_or_key(upstream, model):
    upstream.script(status=500)
    with pytest.raises(UpstreamError) as excinfo:
        complete(request(model))
    error = excinfo.value
    assert (error.status, error.type, error.message) == (
        502,
        "upstream_error",
        "The model provider returned HTTP 500.",
    )
    assert not isinstance(error, UpstreamTimeout)
    assert_no_leak(error)


def test_upstream_500_on_a_stream_is_a_502_before_any_delta(upstream, model):
    upstream.script(status=503)
    events, error = stream_failure(request(model), UpstreamError)
    assert events == []
    assert (error.status, error.message) == (502, "The model provider returned HTTP 503.")
    assert_no_leak(error)


@pytest.mark.parametrize("status", [400, 401, 404, 429])
def test_upstream_4xx_is_a_502(upstream, model, status):
    upstream.script(status=status)
    with pytest.raises(UpstreamError) as excinfo:
        complete(request(model))
    assert excinfo.value.status == 502
    assert_no_leak(excinfo.value)


def test_wrong_upstream_key_is_a_502_that_does_not_leak_it(upstream, model):
    upstream.script(require_key="sk-something-else")
    with pytest.raises(UpstreamError) as excinfo:
        complete(request(model))
    assert excinfo.value.message == "The model provider returned HTTP 401."
    assert_no_leak(excinfo.value)


def test_hang_is_an_upstream_timeout_504(upstream):
    upstream.script(hang=3)
    slow = spec(upstream.url, read_timeout=0.3)
    started = time.perf_counter()
    with pytest.raises(UpstreamTimeout) as excinfo:
        complete(request(slow))
    assert time.perf_counter() - started < 2
    assert (excinfo.value.status, excinfo.value.type, excinfo.value.message) == (
        504,
        "upstream_error",
        "The model provider timed out.",
    )


def test_stream_hang_before_the_first_byte_is_a_504(upstream):
    upstream.script(hang=3)
    events, error = stream_failure(request(spec(upstream.url, read_timeout=0.3)), UpstreamError)
    assert events == []
    assert isinstance(error, UpstreamTimeout)
    assert error.status == 504


def test_stream_hang_mid_stream_is_a_504_after_the_earlier_deltas(upstream):
    upstream.script(reply="abcdefgh", stream_chunk_chars=2, hang=3, hang_after_chunks=2)
    events, error = stream_failure(request(spec(upstream.url, read_timeout=0.3)), UpstreamError)
    assert events == [Delta(content="ab"), Delta(content="cd")]
    assert isinstance(error, UpstreamTimeout)


def test_reset_mid_stream_raises_after_the_earlier_deltas(upstream, model):
    upstream.script(reply="abcdefghij", stream_chunk_chars=2, reset_after_chunks=3)
    events, error = stream_failure(request(model), UpstreamError)
    assert events == [Delta(content="ab"), Delta(content="cd"), Delta(content="ef")]
    assert (error.status, error.message) == (502, "The connection to the model provider failed.")


def test_reset_before_any_chunk_is_a_502(upstream, model):
    upstream.script(reset_after_chunks=0)
    events, error = stream_failure(request(model), UpstreamError)
    assert events == []
    assert error.status == 502


def test_garbage_mid_stream_raises_after_the_earlier_deltas(upstream, model):
    upstream.script(reply="abcdefgh", stream_chunk_chars=2, garbage_after_chunks=2)
    events, error = stream_failure(request(model), UpstreamError)
    assert events == [Delta(content="ab"), Delta(content="cd")]
    assert (error.status, error.message) == (
        502,
        "The model provider returned a malformed response.",
    )


@pytest.mark.parametrize(
    "body",
    [
        "this is not json",
        "[]",
        '{"choices": []}',
        '{"choices": [{"finish_reason": "stop"}]}',
        '{"choices": [{"message": {"content": 42}}]}',
    ],
)
def test_malformed_body_is_a_502(upstream, model, body):
    upstream.script(raw_body=body)
    with pytest.raises(UpstreamError) as excinfo:
        complete(request(model))
    assert (excinfo.value.status, excinfo.value.message) == (
        502,
        "The model provider returned a malformed response.",
    )


def test_unreachable_upstream_is_a_502():
    with running_fake_upstream() as gone:
        url = gone.url
    with pytest.raises(UpstreamError) as excinfo:
        complete(request(spec(url)))
    assert (excinfo.value.status, excinfo.value.message) == (
        502,
        "Could not connect to the model provider.",
    )


def test_unreachable_upstream_on_a_stream_is_a_502():
    with running_fake_upstream() as gone:
        url = gone.url
    events, error = stream_failure(request(spec(url)), UpstreamError)
    assert events == []
    assert error.status == 502


# --- pooling ---


def test_one_provider_per_base_url(upstream):
    first = get_provider(spec(upstream.url))
    assert isinstance(first, OpenAIProvider)
    assert get_provider(spec(upstream.url, id="other", read_timeout=1.0)) is first
    assert get_provider(spec("http://127.0.0.1:1/v1")) is not first


def test_client_is_pooled_per_event_loop(upstream, model):
    async def clients() -> tuple[aiohttp.ClientSession, aiohttp.ClientSession]:
        return await _client(upstream.url), await _client(upstream.url)

    first, again = run(clients)
    assert first is again
    other, _ = run(clients)
    assert other is not first


def test_requests_reuse_the_pooled_connection(upstream, model):
    async def three() -> None:
        provider = get_provider(model)
        for _ in range(3):
            await provider.complete(request(model))

    run(three)
    assert len(upstream.requests) == 3
    assert all(r.headers.get("connection") != "close" for r in upstream.requests)


def test_concurrent_streams_on_one_loop(upstream, model):
    upstream.script(reply="concurrent reply", stream_chunk_chars=3, chunk_delay=0.01)

    async def many() -> list[str]:
        async def one() -> str:
            return content_of([e async for e in get_provider(model).stream(request(model))])

        return list(await asyncio.gather(*(one() for _ in range(20))))

    assert run(many) == ["concurrent reply"] * 20


# --- the fake upstream itself ---


def test_fake_upstream_lists_models(upstream):
    response = httpx.get(f"{upstream.url}/models")
    assert response.json() == {"object": "list", "data": [{"id": "fake", "object": "model"}]}


def test_fake_upstream_enqueued_scripts_answer_once_each(upstream, model):
    upstream.enqueue(reply="first")
    upstream.enqueue(reply="second")
    replies = [complete(request(model)).content for _ in range(3)]
    assert replies == ["first", "second", "Hello from the fake upstream."]


def test_fake_upstream_runs_as_a_script():
    script = Path(__file__).resolve().parent.parent / "fake_upstream.py"
    process = subprocess.Popen(
        [sys.executable, str(script), "--port", "0", "--reply", "From a process"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line.strip().rsplit(" ", 1)[-1]
        assert url.startswith("http://127.0.0.1:")
        response = httpx.post(
            f"{url}/chat/completions", json={"model": "fake", "messages": MESSAGES}
        )
        assert response.json()["choices"][0]["message"]["content"] == "From a process"
    finally:
        process.terminate()
        process.wait(timeout=5)


# --- a provider that drops a connection before answering (a stale keep-alive) ---


class _DroppingServer:
    """Raw HTTP on loopback: the first ``drops`` connections read a request and close without
    answering (what a pooled keep-alive connection the provider already closed looks like);
    later ones answer with a completion."""

    REPLY = b'{"choices":[{"message":{"content":"second try"},"finish_reason":"stop"}]}'

    def __init__(self, drops: int) -> None:
        self.drops = drops
        self.connections = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
                while len(body) < length:
                    body += conn.recv(65536)
                if self.connections <= self.drops:
                    continue
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    + f"Content-Length: {len(self.REPLY)}\r\n\r\n".encode()
                    + self.REPLY
                )

    def close(self) -> None:
        self.sock.close()


def test_a_connection_dropped_before_the_answer_is_retried_once() -> None:
    server = _DroppingServer(drops=1)
    try:
        completion = complete(request(spec(server.url)))
    finally:
        server.close()
    assert completion.content == "second try"
    assert server.connections == 2


def test_a_provider_that_keeps_dropping_is_a_502_after_one_retry() -> None:
    server = _DroppingServer(drops=10)
    try:
        with pytest.raises(UpstreamError) as raised:
            complete(request(spec(server.url)))
    finally:
        server.close()
    assert raised.value.status == 502
    assert raised.value.message == "The connection to the model provider failed."
    assert server.connections == 2
