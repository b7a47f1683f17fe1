"""How one upstream attempt failed, for the router to decide: retry, fall back, or answer.

Providers raise :class:`UpstreamFailure` (an ``UpstreamError``, so anything that calls a
provider directly still answers 502/504). The router (``llm.router``) retries the retryable
ones on another deployment and turns the last one into the client's error with
:meth:`UpstreamFailure.client_error`. Messages never hold upstream keys or request bodies:
an upstream's own message reaches a client only through :func:`safe_upstream_message`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Literal

from core.errors import ApiError, InvalidRequest, RateLimited, UpstreamError, UpstreamTimeout

__all__ = [
    "DEFAULT_RETRY_AFTER_SECONDS",
    "FailureKind",
    "UnsupportedRequest",
    "UpstreamFailure",
    "UpstreamTimeoutFailure",
    "retry_after_seconds",
    "safe_upstream_code",
    "safe_upstream_message",
    "safe_upstream_param",
    "upstream_failure",
]

# status: the upstream answered an HTTP error status (``status`` says which).
# connect: no connection (refused, DNS failure, unreachable).
# connect_timeout: the connection or the pooled slot did not come in time.
# read_timeout: connected, then nothing (or no more) came in time.
# dropped: the connection closed or was reset before the first byte of the answer.
# broken: the answer started and then failed (after the first byte).
# malformed: the upstream answered something that is not an OpenAI response.
FailureKind = Literal[
    "status", "connect", "connect_timeout", "read_timeout", "dropped", "broken", "malformed"
]

# Upstream statuses that say the request itself is wrong (too long for the context, an
# unknown model or field, a body too large): the client's problem, answered as a 400.
CLIENT_FAULT_STATUSES = frozenset({400, 404, 409, 413, 422})
# Upstream statuses that say the provider refused Nova's own key: the operator's problem.
CREDENTIAL_STATUSES = frozenset({401, 403})
# An upstream 429 without a usable Retry-After: how long the client is told to wait.
DEFAULT_RETRY_AFTER_SECONDS = 10

# The longest upstream message shown to a client: longer ones tend to quote the request.
MAX_UPSTREAM_MESSAGE_CHARS = 500
# An upstream message that repeats this many characters of the request quotes it (a persona's
# system prompt is not the caller's to read) and is not shown.
ECHO_WINDOW_CHARS = 32

MSG_REJECTED = "The model provider rejected the request (HTTP {status})."
MSG_RATE_LIMITED = "The model provider is rate limiting requests: retry after a moment."
MSG_CREDENTIALS = (
    "The model provider refused Nova's credentials (HTTP {status}): the provider's API key "
    "or access is misconfigured on this server; contact the operator."
)

# What looks like a credential: sk-/pk-/rk- style keys, "Bearer ...", key=..., and any long
# unbroken run of token characters (JWTs, hex or base64 secrets).
_SECRET_LOOKING = re.compile(
    r"(?i)(\b(?:sk|pk|rk)[-_][A-Za-z0-9_\-]{6,}"
    r"|bearer"
    r"|\b(?:api[_-]?key|token|secret|password)\s*[=:]"
    r"|[A-Za-z0-9_\-+/=]{32,})"
)
_SAFE_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]{0,63}")
_SAFE_PARAM = re.compile(r"[A-Za-z0-9_.\[\]\-]{1,128}")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def safe_upstream_message(
    message: object, *, secrets: Iterable[str] = (), request_texts: Iterable[str] = ()
) -> str | None:
    """The upstream's error message when a client may see it, else None.

    Refused: anything not a non-blank string, longer than MAX_UPSTREAM_MESSAGE_CHARS, holding
    one of ``secrets`` (the upstream key) or something that looks like a credential, or
    quoting ECHO_WINDOW_CHARS characters of ``request_texts`` (the request's message texts).
    """
    if not isinstance(message, str):
        return None
    text = message.strip()
    if not text or len(text) > MAX_UPSTREAM_MESSAGE_CHARS or _CONTROL.search(text):
        return None
    if _SECRET_LOOKING.search(text):
        return None
    for secret in secrets:
        if secret and secret in text:
            return None
    if _quotes(text, [t for t in request_texts if len(t) >= ECHO_WINDOW_CHARS]):
        return None
    return text


def _quotes(text: str, sources: list[str]) -> bool:
    """Whether ``text`` holds a run of ECHO_WINDOW_CHARS characters found in one of ``sources``.

    Such a run always contains a half-window starting at a multiple of the half-window's
    length, so only those are searched first, and the full windows around a hit after.
    """
    half = ECHO_WINDOW_CHARS // 2
    last = len(text) - ECHO_WINDOW_CHARS
    if last < 0:
        return False
    for source in sources:
        for start in range(0, len(text) - half + 1, half):
            if text[start : start + half] not in source:
                continue
            for begin in range(max(0, start + half - ECHO_WINDOW_CHARS), min(start, last) + 1):
                if text[begin : begin + ECHO_WINDOW_CHARS] in source:
                    return True
    return False


def safe_upstream_code(code: object) -> str | None:
    """The upstream's error code when it is a plain identifier (``context_length_exceeded``);
    numeric codes (vLLM repeats the status) and anything else give None."""
    if isinstance(code, str) and _SAFE_CODE.fullmatch(code) and not _SECRET_LOOKING.search(code):
        return code
    return None


def safe_upstream_param(param: object) -> str | None:
    """The upstream's ``param`` when it is a plain field path (``messages``, ``tools[0]``)."""
    safe = isinstance(param, str) and _SAFE_PARAM.fullmatch(param)
    if safe and isinstance(param, str) and not _SECRET_LOOKING.search(param):
        return param
    return None


class UpstreamFailure(UpstreamError):
    """One failed attempt at one deployment (502 unless :meth:`client_error` says otherwise)."""

    def __init__(
        self,
        message: str,
        *,
        kind: FailureKind,
        status: int | None = None,
        retry_after: float | None = None,
        upstream_message: str | None = None,
        upstream_code: str | None = None,
        upstream_param: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind: FailureKind = kind
        self.upstream_status = status
        # Seconds, from the upstream's Retry-After header, when it sent one.
        self.retry_after = retry_after
        # The upstream's own error message, code and param, only when safe to show a client
        # (see safe_upstream_message): never one that could hold a key or the request body.
        self.upstream_message = upstream_message
        self.upstream_code = upstream_code
        self.upstream_param = upstream_param

    def __repr__(self) -> str:
        return (
            f"UpstreamFailure(kind={self.kind!r}, status={self.upstream_status!r}, "
            f"message={self.message!r})"
        )

    @property
    def retryable(self) -> bool:
        """Worth another deployment: 429, 5xx, no connection, a connect timeout, or a drop
        before the first byte. Never after the answer started."""
        if self.kind == "status":
            return self.upstream_status == 429 or (self.upstream_status or 0) >= 500
        return self.kind in ("connect", "connect_timeout", "dropped")

    def client_error(self) -> ApiError:
        """The error the client sees when this was the last attempt.

        An upstream 400/404/409/413/422 is the client's 400 with the upstream's message and
        code when they are safe (else a fixed sentence); 429 is a 429 with Retry-After (the
        upstream's, at least a second); 401/403 is a 502 naming the provider configuration;
        timeouts are 504; anything else is this 502.
        """
        if self.kind in ("connect_timeout", "read_timeout"):
            return UpstreamTimeout(self.message)
        if self.kind != "status" or self.upstream_status is None:
            return self
        status = self.upstream_status
        if status in CLIENT_FAULT_STATUSES:
            # Checked again here: a failure may be built by code other than the provider.
            message = safe_upstream_message(self.upstream_message)
            return InvalidRequest(
                message or MSG_REJECTED.format(status=status),
                code=safe_upstream_code(self.upstream_code) or "upstream_rejected_request",
                param=safe_upstream_param(self.upstream_param),
            )
        if status == 429:
            return RateLimited(MSG_RATE_LIMITED, retry_after=retry_after_seconds(self.retry_after))
        if status in CREDENTIAL_STATUSES:
            return UpstreamError(MSG_CREDENTIALS.format(status=status))
        return self


class UnsupportedRequest(InvalidRequest):
    """The model cannot take what the request uses (tools, a response format, n choices,
    images, tool messages): a 400 naming the ``param`` for the requested model, and for the
    router a fallback to skip. Raised by ``llm.capabilities.check_capabilities``."""


class UpstreamTimeoutFailure(UpstreamFailure, UpstreamTimeout):
    """A failure of kind ``connect_timeout`` or ``read_timeout``: a 504 even where nothing
    calls :meth:`client_error`. Build failures with :func:`upstream_failure` to get it."""


def upstream_failure(
    message: str,
    *,
    kind: FailureKind,
    status: int | None = None,
    retry_after: float | None = None,
    upstream_message: str | None = None,
    upstream_code: str | None = None,
    upstream_param: str | None = None,
) -> UpstreamFailure:
    """An :class:`UpstreamFailure`, an :class:`UpstreamTimeoutFailure` for the timeout kinds."""
    cls = UpstreamTimeoutFailure if kind in ("connect_timeout", "read_timeout") else UpstreamFailure
    return cls(
        message,
        kind=kind,
        status=status,
        retry_after=retry_after,
        upstream_message=upstream_message,
        upstream_code=upstream_code,
        upstream_param=upstream_param,
    )


def retry_after_seconds(value: float | None) -> int:
    """Whole seconds for a client's Retry-After: the upstream's, rounded up, at least 1."""
    if value is None or not math.isfinite(value) or value < 0:
        return DEFAULT_RETRY_AFTER_SECONDS
    return max(1, math.ceil(value))
