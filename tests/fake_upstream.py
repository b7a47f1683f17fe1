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


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, or None


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

    def next_script(self) -> Script:
        with self.lock:
            return self.queue.popleft() if self.queue else self.default


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

    def _send_json(self, status: int, payload: str) -> None:
        data = payload.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
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
        if script.status >= 400:
            self._send_json(script.status, script.error_body)
            return
        if isinstance(body, dict) and body.get("stream"):
            self._stream(script, body)
        else:
            self._complete(script)

    def _usage(self, script: Script) -> dict[str, int] | None:
        if script.usage is None:
            return None
        prompt, completion = script.usage
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    def _complete(self, script: Script) -> None:
        if script.raw_body is not None:
            self._send_json(200, script.raw_body)
            return
        message: dict[str, Any] = {"role": "assistant", "content": script.reply}
        if script.reasoning is not None:
            message[script.reasoning_field] = script.reasoning
        payload: dict[str, Any] = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": script.model,
            "choices": [{"index": 0, "message": message, "finish_reason": script.finish_reason}],
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

        def choice(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        size = max(1, script.stream_chunk_chars)
        fragments: list[dict[str, Any]] = []
        reasoning = script.reasoning or ""
        for start in range(0, len(reasoning), size):
            fragments.append({script.reasoning_field: reasoning[start : start + size]})
        for start in range(0, len(script.reply), size):
            fragments.append({"content": script.reply[start : start + size]})

        try:
            self._event(choice({"role": "assistant", "content": ""}))
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
                self._event(choice(delta))
            if script.reset_after_chunks is not None and script.reset_after_chunks >= len(
                fragments
            ):
                self._reset()
                return
            self._event(choice({}, script.finish_reason))
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
            self._state.requests.clear()
            self._state.disconnects = 0
            woken, self._state.wake = self._state.wake, threading.Event()
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
