"""How one upstream attempt failed, for the router to decide: retry, fall back, or answer.

Providers raise :class:`UpstreamFailure` (an ``UpstreamError``, so anything that calls a
provider directly still answers 502/504). The router (``llm.router``) retries the retryable
ones on another deployment and turns the last one into the client's error with
:meth:`UpstreamFailure.client_error`. Messages never hold upstream keys or request bodies.
"""

from __future__ import annotations

from typing import Literal

from core.errors import ApiError, UpstreamError, UpstreamTimeout

__all__ = ["FailureKind", "UpstreamFailure"]

# status: the upstream answered an HTTP error status (``status`` says which).
# connect: no connection (refused, DNS, reset before any byte sent back).
# connect_timeout: the connection or the pooled slot did not come in time.
# read_timeout: connected, then nothing (or no more) came in time.
# dropped: the connection closed before the first byte of the answer.
# broken: the answer started and then failed (after the first byte).
# malformed: the upstream answered something that is not an OpenAI response.
FailureKind = Literal[
    "status", "connect", "connect_timeout", "read_timeout", "dropped", "broken", "malformed"
]


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
    ) -> None:
        super().__init__(message)
        self.kind: FailureKind = kind
        self.upstream_status = status
        # Seconds, from the upstream's Retry-After header, when it sent one.
        self.retry_after = retry_after
        # The upstream's own error message and code, only when safe to show a client (an
        # upstream 400): never one that could hold a key or the request body.
        self.upstream_message = upstream_message
        self.upstream_code = upstream_code

    @property
    def retryable(self) -> bool:
        """Worth another deployment: 429, 5xx, no connection, a connect timeout, or a drop
        before the first byte. Never after the answer started."""
        if self.kind == "status":
            return self.upstream_status == 429 or (self.upstream_status or 0) >= 500
        return self.kind in ("connect", "connect_timeout", "dropped")

    def client_error(self) -> ApiError:
        """The error the client sees when this was the last attempt. Filled in by the
        provider work; a plain 502 until then."""
        if self.kind in ("connect_timeout", "read_timeout"):
            return UpstreamTimeout(str(self))
        return self
