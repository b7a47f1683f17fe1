"""A real OpenAI-compatible HTTP server on loopback, for tests and benchmarks.

Nothing in Nova's provider code is mocked: tests point a catalog entry at this server and
script what it answers. Standard library only, so benchmarks can also run it as a process:

    python tests/fake_upstream.py --port 9100 --reply "Hello from upstream" --delay 0.01

In tests::

    with running_fake_upstream() as upstream:
        upstream.script(reply="Hi there", stream_chunk_chars=3, usage=(12, 4))
        ...  # a ModelSpec with base_url=upstream.url
        assert upstream.requests[-1].body["temperature"] == 0.3

Scriptable per test: the reply (streamed as SSE chunks of a few characters, or not), usage
(or none), reasoning (as ``reasoning_content`` or ``reasoning``), a delay per chunk, an HTTP
status with a body holding a secret-looking string, a hang before answering or after N chunks,
a connection reset after N chunks, and a garbage line after N chunks. Every request received is
recorded (method, path, headers, parsed JSON body).

Tools, choices and errors, as OpenAI sends them:

- ``tool_calls=[{"name": ..., "arguments": "<json string>"}]``: the model calls these tools.
  Non-streamed: ``message.tool_calls`` (ids ``call_...``, type ``function``), ``content: null``
  and finish_reason ``tool_calls``. Streamed: per call, a first fragment with ``index``, ``id``,
  ``type``, ``function.name`` and ``arguments: ""``, then the arguments in pieces of
  ``stream_chunk_chars``; finish_reason ``tool_calls``.
- The request's ``n``: that many choices; choice ``i > 0`` replies ``f"{reply} [{i}]"`` (and
  makes the same calls, with their own ids). Streamed, the choices' chunks are interleaved, each
  with its ``index``.
- The request's ``logprobs: true``: each choice (non-streamed) or content chunk (streamed)
  carries ``logprobs: {"content": [{"token", "logprob", "bytes", "top_logprobs": []}]}``, one
  entry per piece of ``stream_chunk_chars``.
- ``retry_after``: with an error ``status``, send this ``Retry-After`` header (seconds or an
  HTTP date).
- ``error_body=error_json(message, code=..., param=...)``: an OpenAI-style error body, e.g. a
  400 ``context_length_exceeded``.
- ``raw_events``: streamed, send exactly these ``data:`` payloads (then end the body), for
  shapes the script cannot make (several choices in one chunk, odd fields).

Faults for routing tests (each deployment is its own server): ``drop=True`` closes the
connection before answering anything; :meth:`FakeUpstream.fail_next` fails the next K requests
then answers as scripted; :meth:`FakeUpstream.fail_every_other` fails every other request;
``hold=True`` keeps each request waiting (received and recorded, nothing answered) until
:meth:`FakeUpstream.release`, so a test knows it is in flight.
"""

from __future__ import annotations

import argparse
import collections
import json
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "SECRET_IN_ERROR_BODY",
    "FakeUpstream",
    "RecordedRequest",
    "Script",
    "error_json",
    "running_fake_upstream",
]

# Appears in every scripted error body, so tests can assert it never reaches a Nova client.
SECRET_IN_ERROR_BODY = "sk-upstream-SECRET-do-not-leak-8f3a91c2"
DEFAULT_ERROR_BODY = json.dumps(
    {
        "error": {
            "message": f"Internal failure (key {SECRET_IN_ERROR_BODY} rejected by backend)",
            "type": "server_error",
        }
    }
)


def error_json(
    message: str,
    *,
    code: str | int | None = None,
    param: str | None = None,
    type: str = "invalid_request_error",
) -> str:
    """An OpenAI-style error body for ``Script.error_body``."""
    return json.dumps({"error": {"message": message, "type": type, "param": param, "code": code}})


@dataclass(frozen=True)
class Script:
    """What the server answers to a chat completion request."""

    reply: str = "Hello from the fake upstream."
    # (prompt_tokens, completion_tokens); None sends no usage at all.
    usage: tuple[int, int] | None = (12, 6)
    reasoning: str | None = None
    reasoning_field: str = "reasoning_content"  # or "reasoning" (OpenRouter's name)
    finish_reason: str = "stop"
    stream_chunk_chars: int = 4
    chunk_delay: float = 0.0
    status: int = 200
    error_body: str = DEFAULT_ERROR_BODY
    hang: float = 0.0  # seconds to wait before sending anything
    hang_after_chunks: int | None = None  # with hang: wait after this many content chunks
    reset_after_chunks: int | None = None  # RST the connection after this many chunks
    garbage_after_chunks: int | None = None  # send a non-JSON data line after this many
    require_key: str | None = None  # when set, other Authorization headers get a 401
    raw_body: str | None = None  # non-streamed: send this (e.g. not JSON) with HTTP 200
    model: str = "fake"
    # [{"name", "arguments"}]: the model calls these tools (see the module docstring).
    tool_calls: list[dict[str, str]] | None = None
    retry_after: float | str | None = None  # with an error status: the Retry-After header
    raw_events: tuple[str, ...] | None = None  # streamed: these data payloads, verbatim
    drop: bool = False  # close the connection without answering (before the first byte)
    hold: bool = False  # wait for FakeUpstream.release() before answering


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, or None


def _choice_count(body: Any) -> int:
    """The request's ``n`` (1 when absent or not a positive integer)."""
    n = body.get("n") if isinstance(body, dict) else None
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1


def _wants_logprobs(body: Any) -> bool:
    return isinstance(body, dict) and body.get("logprobs") is True


def _choice_reply(script: Script, index: int) -> str:
    return script.reply if index == 0 else f"{script.reply} [{index}]"


def _call_id(index: int, call: int) -> str:
    return f"call_fake{index}x{call}"


def _pieces(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[start : start + size] for start in range(0, len(text), size)]


def _logprobs(pieces: list[str]) -> dict[str, Any]:
    return {
        "content": [
            {"token": piece, "logprob": -0.25, "bytes": list(piece.encode()), "top_logprobs": []}
            for piece in pieces
        ]
    }


def _message_choice(script: Script, index: int, logprobs: bool) -> dict[str, Any]:
    """One choice of a non-streamed completion."""
    reply = _choice_reply(script, index)
    message: dict[str, Any] = {"role": "assistant", "content": reply}
    finish = script.finish_reason
    if script.tool_calls:
        message["content"] = None
        message["tool_calls"] = [
            {
                "id": _call_id(index, number),
                "type": "function",
                "function": {"name": call["name"], "arguments": call["arguments"]},
            }
            for number, call in enumerate(script.tool_calls)
        ]
        finish = "tool_calls"
    if script.reasoning is not None:
        message[script.reasoning_field] = script.reasoning
    choice: dict[str, Any] = {"index": index, "message": message, "finish_reason": finish}
    if logprobs:
        pieces = [] if script.tool_calls else _pieces(reply, script.stream_chunk_chars)
        choice["logprobs"] = _logprobs(pieces)
    return choice


def _stream_fragments(script: Script, index: int, logprobs: bool) -> list[dict[str, Any]]:
    """The streamed choice objects of one choice after its role chunk: reasoning, then content
    (or tool-call fragments), without the finish chunk."""
    size = script.stream_chunk_chars
    fragments: list[dict[str, Any]] = []
    for piece in _pieces(script.reasoning or "", size):
        fragments.append({"index": index, "delta": {script.reasoning_field: piece}})
    if script.tool_calls:
        for number, call in enumerate(script.tool_calls):
            first = {
                "index": number,
                "id": _call_id(index, number),
                "type": "function",
                "function": {"name": call["name"], "arguments": ""},
            }
            fragments.append({"index": index, "delta": {"tool_calls": [first]}})
            for piece in _pieces(call["arguments"], size):
                fragment = {"index": number, "function": {"arguments": piece}}
                fragments.append({"index": index, "delta": {"tool_calls": [fragment]}})
        return fragments
    for piece in _pieces(_choice_reply(script, index), size):
        choice: dict[str, Any] = {"index": index, "delta": {"content": piece}}
        if logprobs:
            choice["logprobs"] = _logprobs([piece])
        fragments.append(choice)
    return fragments


@dataclass
class _State:
    default: Script = field(default_factory=Script)
    queue: collections.deque[Script] = field(default_factory=collections.deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    disconnects: int = 0  # streams the client closed before the end
    lock: threading.Lock = field(default_factory=threading.Lock)
    # Set on reset() and on shutdown: a hanging handler from an earlier test wakes up and
    # drops its connection instead of writing into the next test's observations.
    wake: threading.Event = field(default_factory=threading.Event)
    # Set by FakeUpstream.release(): held requests (Script.hold) answer.
    released: threading.Event = field(default_factory=threading.Event)
    # FakeUpstream.fail_every_other(): this answers the 1st, 3rd, ... unqueued request.
    alternate: Script | None = None
    served: int = 0  # unqueued requests answered so far

    def next_script(self) -> Script:
        with self.lock:
            if self.queue:
                return self.queue.popleft()
            self.served += 1
            if self.alternate is not None and self.served % 2 == 1:
                return self.alternate
            return self.default


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Hanging handlers must not keep shutdown waiting.
    block_on_close = False
    # socketserver's default backlog of 5 resets connections under benchmark concurrency.
    request_queue_size = 1024
    state: _State


class _Handler(BaseHTTPRequestHandler):
    # HTTP/1.1 so the client pools keep-alive connections as they would with a real provider.
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except OSError:
            # The client timed out or went away while we hung or streamed: expected here.
            self.close_connection = True

    # --- helpers ---

    def _record(self, body: Any) -> None:
        state = self.server.state
        with state.lock:
            state.requests.append(
                RecordedRequest(
                    method=self.command,
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                )
            )

    def _send_json(self, status: int, payload: str, headers: dict[str, str] | None = None) -> None:
        data = payload.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _event(self, payload: dict[str, Any] | str) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        self._chunk(f"data: {text}\n\n".encode())

    def _reset(self) -> None:
        # A RST makes the client's kernel drop whatever it received but its program has not
        # read yet: give the chunks already sent a moment to be read, so the test sees them.
        time.sleep(0.05)
        # SO_LINGER 0 makes close() send RST: the client sees a reset, not a clean end.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def _hang(self, seconds: float) -> bool:
        """Wait; False when woken by reset or shutdown (then just drop the connection)."""
        wake = self.server.state.wake
        if wake.wait(seconds):
            self.close_connection = True
            return False
        return True

    def _held(self) -> bool:
        """Wait for release(); False when woken by reset or shutdown (then just drop the
        connection)."""
        state = self.server.state
        with state.lock:
            wake, released = state.wake, state.released
        while not released.wait(0.01):
            if wake.is_set():
                self.close_connection = True
                return False
        return True

    # --- routes ---

    def do_GET(self) -> None:
        self._record(None)
        if self.path.rstrip("/").endswith("/models"):
            script = self.server.state.default
            models = {"object": "list", "data": [{"id": script.model, "object": "model"}]}
            self._send_json(200, json.dumps(models))
        else:
            self._send_json(404, json.dumps({"error": {"message": "not found"}}))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self._record(body)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, json.dumps({"error": {"message": "not found"}}))
            return
        script = self.server.state.next_script()
        expected = f"Bearer {script.require_key}"
        if script.require_key is not None and self.headers.get("Authorization") != expected:
            self._send_json(401, json.dumps({"error": {"message": "bad key"}}))
            return
        hang_first = script.hang and script.hang_after_chunks is None
        if hang_first and not self._hang(script.hang):
            return
        if script.hold and not self._held():
            return
        if script.drop:
            self.close_connection = True
            return
        if script.status >= 400:
            headers = {} if script.retry_after is None else {"Retry-After": str(script.retry_after)}
            self._send_json(script.status, script.error_body, headers)
            return
        if isinstance(body, dict) and body.get("stream"):
            self._stream(script, body)
        else:
            self._complete(script, body)

    def _usage(self, script: Script) -> dict[str, int] | None:
        if script.usage is None:
            return None
        prompt, completion = script.usage
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    def _complete(self, script: Script, body: Any = None) -> None:
        if script.raw_body is not None:
            self._send_json(200, script.raw_body)
            return
        logprobs = _wants_logprobs(body)
        payload: dict[str, Any] = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": script.model,
            "choices": [
                _message_choice(script, index, logprobs) for index in range(_choice_count(body))
            ],
        }
        usage = self._usage(script)
        if usage is not None:
            payload["usage"] = usage
        self._send_json(200, json.dumps(payload))

    def _stream(self, script: Script, body: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        base = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": script.model,
        }

        def chunk(choice_object: dict[str, Any]) -> dict[str, Any]:
            return {**base, "choices": [{"finish_reason": None, **choice_object}]}

        # Each choice's fragments, interleaved (choice 0's first, then 1's, ...), as choice
        # objects with their index.
        count = _choice_count(body)
        per_choice = [_stream_fragments(script, i, _wants_logprobs(body)) for i in range(count)]
        fragments: list[dict[str, Any]] = [
            per_choice[i][step]
            for step in range(max(len(f) for f in per_choice))
            for i in range(count)
            if step < len(per_choice[i])
        ]
        finish_reason = "tool_calls" if script.tool_calls else script.finish_reason

        try:
            if script.raw_events is not None:
                for event in script.raw_events:
                    self._event(event)
                self._chunk(b"")
                return
            for index in range(count):
                self._event(chunk({"index": index, "delta": {"role": "assistant", "content": ""}}))
            for sent, delta in enumerate(fragments):
                if script.reset_after_chunks is not None and sent == script.reset_after_chunks:
                    self._reset()
                    return
                if script.garbage_after_chunks is not None and sent == script.garbage_after_chunks:
                    self._event("{this is not json")
                hang_now = sent == script.hang_after_chunks
                if hang_now and not self._hang(script.hang):
                    return
                if script.chunk_delay:
                    time.sleep(script.chunk_delay)
                self._event(chunk(delta))
            if script.reset_after_chunks is not None and script.reset_after_chunks >= len(
                fragments
            ):
                self._reset()
                return
            for index in range(count):
                self._event(chunk({"index": index, "delta": {}, "finish_reason": finish_reason}))
            usage = self._usage(script)
            include_usage = isinstance(body.get("stream_options"), dict) and body[
                "stream_options"
            ].get("include_usage")
            if usage is not None and include_usage:
                self._event({**base, "choices": [], "usage": usage})
            self._event("[DONE]")
            self._chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            # The client went away mid-stream (e.g. a Nova client disconnected): expected,
            # and counted so tests can assert that Nova stopped the upstream request.
            with self.server.state.lock:
                self.server.state.disconnects += 1
            self.close_connection = True


class FakeUpstream:
    """A running fake provider; ``url`` is the base_url to put in a catalog entry."""

    def __init__(self, server: _Server, host: str) -> None:
        self._server = server
        self._state = server.state
        self.host = host
        self.port = server.server_port
        self.url = f"http://{self.host}:{self.port}/v1"

    def script(self, **changes: Any) -> Script:
        """Answer every following request this way (fields of Script; the rest default)."""
        script = replace(Script(), **changes)
        with self._state.lock:
            self._state.default = script
        return script

    def enqueue(self, **changes: Any) -> Script:
        """Answer the next not-yet-scripted request this way, once, then fall back."""
        script = replace(Script(), **changes)
        with self._state.lock:
            self._state.queue.append(script)
        return script

    def fail_next(self, count: int, **changes: Any) -> Script:
        """Fail the next ``count`` requests (HTTP 500 unless ``changes`` say otherwise, e.g.
        ``status=429, retry_after=1`` or ``drop=True``), then answer as scripted."""
        script = replace(Script(), **{"status": 500, **changes})
        with self._state.lock:
            self._state.queue.extend([script] * count)
        return script

    def fail_every_other(self, **changes: Any) -> Script:
        """From now on fail every other request, starting with the next one (HTTP 500 unless
        ``changes`` say otherwise): a deployment that fails half its calls."""
        script = replace(Script(), **{"status": 500, **changes})
        with self._state.lock:
            self._state.alternate = script
            self._state.served = 0
        return script

    def release(self) -> None:
        """Let the held requests (``hold=True``) answer, and the following ones at once."""
        with self._state.lock:
            released = self._state.released
        released.set()

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def disconnects(self) -> int:
        """How many streams the client closed before the end."""
        with self._state.lock:
            return self._state.disconnects

    @property
    def bodies(self) -> list[Any]:
        """Parsed JSON bodies of the chat completion requests received, in order."""
        return [r.body for r in self.requests if r.path.rstrip("/").endswith("/chat/completions")]

    def reset(self) -> None:
        """Forget recorded requests and scripts (between tests sharing one server)."""
        with self._state.lock:
            self._state.default = Script()
            self._state.queue.clear()
            self._state.alternate = None
            self._state.served = 0
            self._state.requests.clear()
            self._state.disconnects = 0
            woken, self._state.wake = self._state.wake, threading.Event()
            self._state.released = threading.Event()
        woken.set()


def _start(host: str, port: int) -> _Server:
    server = _Server((host, port), _Handler)
    server.state = _State()
    return server


@contextmanager
def running_fake_upstream(host: str = "127.0.0.1", port: int = 0) -> Iterator[FakeUpstream]:
    """Serve in a background thread on a free port for the duration of the block."""
    server = _start(host, port)
    thread = threading.Thread(
        target=server.serve_forever,
        kwargs={"poll_interval": 0.05},
        name="fake-upstream",
        daemon=True,
    )
    thread.start()
    try:
        yield FakeUpstream(server, host)
    finally:
        server.state.wake.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="OpenAI-compatible fake upstream for Nova")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9100)
    parser.add_argument("--reply", default=Script.reply)
    parser.add_argument("--chunk-chars", type=int, default=Script.stream_chunk_chars)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between chunks")
    parser.add_argument("--prompt-tokens", type=int, default=12)
    parser.add_argument("--completion-tokens", type=int, default=6)
    parser.add_argument("--no-usage", action="store_true")
    parser.add_argument("--reasoning", default=None)
    parser.add_argument("--status", type=int, default=200)
    args = parser.parse_args(argv)

    server = _start(args.host, args.port)
    server.state.default = Script(
        reply=args.reply,
        stream_chunk_chars=args.chunk_chars,
        chunk_delay=args.delay,
        usage=None if args.no_usage else (args.prompt_tokens, args.completion_tokens),
        reasoning=args.reasoning,
        status=args.status,
    )
    print(f"fake upstream listening on http://{args.host}:{server.server_port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.state.wake.set()
        server.server_close()


if __name__ == "__main__":
    main()
